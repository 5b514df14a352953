"""FFG Star Wars (rule text ``004``): behaviour that the mutation run of ``systems/ffg`` found untested, each
expectation read from the text or the published faces."""

from __future__ import annotations

import numpy as np
import pytest
from diceengine.systems.ffg import fight as ffg_fight
from diceengine.systems.ffg import harm, play
from diceengine.systems.ffg.rules import DicePool, build_pool
from diceengine.systems.ffg.sheet import CharacterSheet

import diceengine as de


@pytest.mark.parametrize("pool", ["2y1r1g", "1g", "2y1r1g1w"])
def test_every_symbol_count_is_a_whole_number(pool):
    """Symbols are counted: each field of every outcome is an integer (``dark`` too, with or without a Force
    die), as the rolled outcomes' are."""
    dist = de.distribution(pool, "ffg", letters="colour")
    for name in ("success", "advantage", "triumph", "despair", "light", "dark"):
        assert dist.column(name).dtype.kind == "i", name
    for outcome, p in dist.items():
        assert p > 0 and all(type(getattr(outcome, f)) is int for f in ("light", "dark")), outcome


def test_a_refusal_names_the_character():
    nameless = CharacterSheet(name="Kel", characteristics={"brawn": 2})
    with pytest.raises(de.DiceError) as err:
        harm.suffer_wounds(nameless, 3)
    assert str(err.value) == "Kel's sheet has no wound threshold: give wound_base, the species' minimum"
    down = CharacterSheet(name="Vex", kind="rival", characteristics={"brawn": 2}, wound_base=4, wounds=7)
    with pytest.raises(de.DiceError) as err:
        harm.suffer_wounds(down, 3)
    assert str(err.value) == "Vex, a rival, is past its wound threshold: out of the fight"


def test_negative_damage_is_refused():
    sheet = CharacterSheet(name="Kel", characteristics={"brawn": 2}, wound_base=10)
    with pytest.raises(de.DiceError) as err:
        harm.suffer_wounds(sheet, -1)
    assert str(err.value) == "damage is not negative"


def test_a_downgrade_is_one_die_unless_told():
    """Text 004: a downgrade turns one yellow die back to green (one red to purple)."""
    pool = DicePool(ability=2, proficiency=2, difficulty=1, challenge=2)
    assert pool.downgrade() == DicePool(ability=3, proficiency=1, difficulty=1, challenge=2)
    assert pool.downgrade(side="difficulty") == DicePool(ability=2, proficiency=2, difficulty=2, challenge=1)
    assert pool.downgrade(5) == DicePool(ability=4, proficiency=0, difficulty=1, challenge=2)


def test_an_unknown_difficulty_names_the_nearest_and_all():
    known = "simple, easy, average, hard, daunting, formidable"
    with pytest.raises(de.DiceError) as err:
        build_pool(3, 1, "hrad")
    assert str(err.value) == f"unknown difficulty 'hrad': did you mean hard? (known: {known})"
    with pytest.raises(de.DiceError) as err:
        build_pool(3, 1, "xyzzy")
    assert str(err.value) == f"unknown difficulty 'xyzzy' (known: {known})"


def test_a_seeded_battle_rolls_the_same_initiative():
    """The acting order of a battle comes from its generator: the same seed, the same orders."""
    hero = {"name": "Hero", "characteristic": 3, "skill": 1, "soak": 3, "wound_threshold": 8, "damage": 5,
            "critical": 3, "initiative": [3, 1], "player": True}
    thug = {"name": "Thug", "kind": "rival", "characteristic": 2, "skill": 2, "soak": 2, "wound_threshold": 6,
            "damage": 4, "critical": 2, "defense": 1, "initiative": [3, 1]}
    setup = ffg_fight.FFGSetup(a=[hero], b=[thug])
    first = ffg_fight.FFGBattle(setup, 300, np.random.default_rng(8)).order
    again = ffg_fight.FFGBattle(setup, 300, np.random.default_rng(8)).order
    assert len(set(map(tuple, first.tolist()))) == 2   # both orders occur
    assert (first == again).all()


def test_each_refusal_of_a_talent_is_said_in_full():
    """Text 004's talent trees: a place is tier 1-5, column 1-4, bought once, unlocked from the tier above,
    for 5 x the tier in XP; each refusal names the place, the tree and the character."""
    sheet = CharacterSheet(name="Kira", characteristics={"willpower": 3}, xp=12)
    sheet = play.buy_talent(sheet, "Toughened", "Bodyguard", 1, column=2).state   # 5 XP, 7 left
    cases = [
        ((6, 1), "a talent's place is tier 1 to 5 and column 1 to 4, not tier 6, column 1"),
        ((1, 5), "a talent's place is tier 1 to 5 and column 1 to 4, not tier 1, column 5"),
        ((1, 2), "Kira already bought the talent at tier 1, column 2 of Bodyguard"),
        ((3, 1), "a tier 3 talent of Bodyguard is unlocked by one of tier 2 first"),
        ((2, 1), "Grit at tier 2 costs 10 XP, Kira has 7"),
    ]
    for (tier, column), message in cases:
        with pytest.raises(de.DiceError) as err:
            play.buy_talent(sheet, "Grit", "Bodyguard", tier, column=column)
        assert str(err.value) == message


def test_a_critical_injury_roll_is_asked_for_then_recorded():
    """Text 004: d100 plus 10 per critical injury already suffered; one roll pending at a time."""
    sheet = CharacterSheet(name="Kel", characteristics={"brawn": 2}, wound_base=10, criticals=[40])
    with pytest.raises(de.DiceError) as err:
        harm.record_critical(sheet, 50)
    assert str(err.value) == "no critical injury roll to record: ask for one first"
    asked = harm.critical_injury_check(sheet).state
    assert asked.critical_pending == 10
    with pytest.raises(de.DiceError) as err:
        harm.critical_injury_check(asked)
    assert str(err.value) == "Kel's critical injury roll is not recorded yet"


def _upgraded_one_by_one(low: int, high: int, times: int) -> tuple[int, int]:
    # text 004, one upgrade at a time: a green die turns yellow; with no green die left, one is added
    for _ in range(times):
        low, high = (low - 1, high + 1) if low else (low + 1, high)
    return low, high


@pytest.mark.parametrize("green, yellow", [(g, y) for g in range(4) for y in range(3)])
def test_upgrades_at_once_are_the_upgrades_one_by_one(green: int, yellow: int) -> None:
    from diceengine.systems.ffg.rules import DicePool

    for times in range(13):
        pool = DicePool(ability=green, proficiency=yellow, difficulty=green, challenge=yellow)
        up = pool.upgrade(times)
        assert (up.ability, up.proficiency) == _upgraded_one_by_one(green, yellow, times)
        down = pool.upgrade(times, "difficulty")
        assert (down.difficulty, down.challenge) == _upgraded_one_by_one(green, yellow, times)


@pytest.mark.parametrize("times", [10**400, -1, 61, 2.5, True])
def test_upgrades_and_downgrades_out_of_bounds_are_refused_at_once(times: object) -> None:
    # 10**400 upgrades ran for minutes, one at a time; a negative downgrade upgraded
    from diceengine.systems.ffg.rules import DicePool, build_pool

    from diceengine.errors import DiceLimitError
    from diceengine.i18n import translate_error

    with pytest.raises(DiceLimitError) as info:
        build_pool(2, 1, upgrades=times)  # type: ignore[arg-type]
    assert info.value.message == f"upgrades are a whole number from 0 to 60, not {times!r}"
    assert translate_error(info.value, "fr").message.startswith("les améliorations sont un nombre entier de 0 à 60")
    with pytest.raises(DiceLimitError, match="downgrades"):
        DicePool(proficiency=2).downgrade(times)  # type: ignore[arg-type]
