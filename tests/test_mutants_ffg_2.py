"""FFG narrative dice (text 004) as mutmut's survivors showed them undefended (issue 16, second pass).

Expected values come from the rule text (costs, bounds, the stormtrooper example), the published face
tables transcribed in ``test_mutants_pools.PUBLISHED`` (independent of the engine's table), scripted dice
and hand-counted notation.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from diceengine.systems import ffg

import diceengine as de
from diceengine.api import plan

from .helpers import assert_close
from .test_mutants_pools import LETTER, PUBLISHED, published_pool

SIDES = {die: len(faces) for die, faces in PUBLISHED.items()}
#: the order a pool's dice are thrown and shown in (the positive side first, then the negative, then Force)
THROW_ORDER = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback", "force")


class Faces(random.Random):
    """A seed that throws the given (die, face number 1..sides) in order."""

    def __init__(self, faces: list[tuple[str, int]]) -> None:
        super().__init__(0)
        self._draws = [(f - 0.5) / SIDES[d] for d, f in faces]

    def random(self) -> float:
        return self._draws.pop(0)


def message(call) -> str:
    with pytest.raises(de.DiceError) as info:
        call()
    return info.value.message


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize("text, counts", [
    ("2ab", {"ability": 2, "boost": 1}),            # a run of letters: the count goes to the first
    ("3pab vs 2dc", {"proficiency": 3, "ability": 1, "boost": 1, "difficulty": 2, "challenge": 1}),
    ("3a2p vs 2a1p", {"ability": 3, "proficiency": 2, "difficulty": 2, "challenge": 1}),  # opposed: green->purple
    ("2 capacité 1 compétence vs 2 difficulté", {"ability": 2, "proficiency": 1, "difficulty": 2}),
    ("1 défi 1 fortune 1 revers 1 Force", {"challenge": 1, "boost": 1, "setback": 1, "force": 1}),
    ("2 green 1 yellow vs 1 purple 1 red 1 black 1 white",
     {"ability": 2, "proficiency": 1, "difficulty": 1, "challenge": 1, "setback": 1, "force": 1}),
])
def test_notation_reads_the_counts(text, counts):
    assert plan(text, "ffg").counts == counts


def test_colour_letters():
    got = plan("yyygg vs ppr k w", "ffg", letters="colour").counts
    assert got == {"proficiency": 3, "ability": 2, "difficulty": 2, "challenge": 1, "setback": 1, "force": 1}
    got = plan("2pro 1abi 1boo vs 2dif 1cha 1blk 1sb 1set 1frc", "ffg", letters="colour").counts
    assert got == {"proficiency": 2, "ability": 1, "boost": 1, "difficulty": 2, "challenge": 1, "setback": 3,
                   "force": 1}


BOOST_AFTER_VS = ("a boost die after vs: the opposition's help is a setback die (s, or k with letters=colour); "
                  "put boost dice before vs")


@pytest.mark.parametrize("text, options, msg, column", [
    ("2ay", {}, "unknown die letter 'y' (a colour letter: add the option letters=colour)", 2),
    ("1a 2kg", {}, "unknown die letter 'k' (a colour letter: add the option letters=colour)", 4),
    ("1a 1set", {}, "unknown die letter 'e' (a colour letter: add the option letters=colour)", 5),
    ("2 boo", {}, "unknown die letter 'o' (a colour letter: add the option letters=colour)", 3),
    ("yyga", {"letters": "colour"}, "unknown die letter 'a' (with letters=colour, the dice are y g b p r k w)", 3),
    ("2y 3d", {"letters": "colour"}, "unknown die letter 'd' (with letters=colour, the dice are y g b p r k w)", 4),
    ("1b vs 1b", {}, BOOST_AFTER_VS, 6),
    ("1a vs 2 boost", {}, BOOST_AFTER_VS, 6),
    ("2a vs b", {}, BOOST_AFTER_VS, 6),  # no count: the caret under the die
    ("a b vs 1b", {}, BOOST_AFTER_VS, 7),  # a count: under the count
    ("30a 30p 1d", {}, "too many dice in one pool (at most 60)", 8),
    ("61a", {}, "too many dice in one pool (at most 60)", 0),
    ("0a", {}, "the pool has no dice", 0),
    ("0a vs 0d", {}, "the pool has no dice", 0),
])
def test_notation_errors_say_what_and_where(text, options, msg, column):
    with pytest.raises(de.DiceError) as info:
        plan(text, "ffg", **options)
    assert info.value.message == msg
    assert info.value.column == column


def test_a_letter_of_no_set():
    group = ffg.NarrativeDice(2, "ax", pos=3, word_pos=4)
    with pytest.raises(de.DiceSyntaxError) as info:
        ffg.resolve_dice(group, "initials", "    2ax")
    assert info.value.message == "unknown die letter 'x'" and info.value.column == 5
    # a run of the option's letters: the count goes to the first die, one of each of the others
    assert ffg.resolve_dice(ffg.NarrativeDice(2, "sb", pos=0, word_pos=1), "initials", "2sb") == [
        ("setback", 2, 1), ("boost", 1, 2)]
    assert ffg.resolve_dice(ffg.NarrativeDice(3, "sb", pos=0, word_pos=1), "colour", "3sb") == [("setback", 3, 0)]
    assert ffg.resolve_dice(ffg.NarrativeDice(3, "Vert", pos=5), "colour", "") == [("ability", 3, 5)]
    assert ffg.resolve_dice(ffg.NarrativeDice(1, "p", pos=None), "colour", "") == [("difficulty", 1, 0)]
    assert ffg.resolve_dice(ffg.NarrativeDice(1, "sb", pos=7), "initials", "") == [("setback", 1, 7), ("boost", 1, 8)]
    assert plan("2sb", "ffg").counts == {"setback": 2, "boost": 1}


def test_a_die_without_a_count_is_one_die():
    assert plan("a", "ffg").counts == {"ability": 1}
    assert plan("proficiency b vs c", "ffg").counts == {"proficiency": 1, "boost": 1, "challenge": 1}


def test_sixty_dice_are_one_pool():
    assert sum(plan("30a 29p 1d", "ffg").counts.values()) == 60
    assert plan("20a20p vs 20d", "ffg").dice_per_roll == 60


# ---------------------------------------------------------------- a roll, its dice, its words


def test_a_roll_explained_die_by_die():
    faces = [("proficiency", 12), ("ability", 7), ("challenge", 1), ("difficulty", 2), ("force", 8)]
    r = de.roll("1a1p vs 1d1c1f", "ffg", seed=Faces(faces))
    assert str(r) == ("1a1p vs 1d1c1f: [proficiency triumph, ability success + advantage, challenge blank, "
                      "difficulty failure, force light] = 1 success, 1 advantage, 1 triumph, 1 light side point, "
                      "succeeded")
    assert r.outcome == ffg.NarrativeOutcome(1, 1, 1, 0, 1, 0, True)
    assert [(d.kind, d.sides, d.value) for d in r.dice] == [("proficiency", 12, 12), ("ability", 8, 7),
                                                            ("challenge", 12, 1), ("difficulty", 8, 2),
                                                            ("force", 12, 8)]
    assert [d.face for d in r.dice] == ["triumph", "success + advantage", "blank", "failure", "light"]


@pytest.mark.parametrize("text, faces, words, outcome", [
    ("1c1d1s", [("challenge", 12), ("difficulty", 7), ("setback", 5)],
     "1 failure, 3 threat, 1 despair, failed", (-1, -3, 0, 1, 0, 0, False)),
    ("2a vs 1d", [("ability", 1), ("ability", 5), ("difficulty", 1)], "no net success, 1 advantage, failed",
     (0, 1, 0, 0, 0, 0, False)),
    ("2a", [("ability", 4), ("ability", 8)], "2 successes, 2 advantage, succeeded", (2, 2, 0, 0, 0, 0, True)),
    ("1p1c", [("proficiency", 12), ("challenge", 12)], "no net success, 1 triumph, 1 despair, failed",
     (0, 0, 1, 1, 0, 0, False)),
    ("2f", [("force", 7), ("force", 12)], "no net success, 2 light side points, 2 dark side points, failed",
     (0, 0, 0, 0, 2, 2, False)),
    ("1f", [("force", 1)], "no net success, 1 dark side point, failed", (0, 0, 0, 0, 0, 1, False)),
    ("1b1s", [("boost", 4), ("setback", 3)], "no net success, 1 advantage, failed", (0, 1, 0, 0, 0, 0, False)),
])
def test_net_results_in_words(text, faces, words, outcome):
    r = de.roll(text, "ffg", seed=Faces(faces))
    assert tuple(r.outcome) == outcome
    assert str(r).rsplit("] = ", 1)[1] == words
    assert ffg.net_text(r.outcome) == words


def test_samples_follow_the_published_faces_field_by_field():
    # one die of each kind: every field of the sample is the published faces' field (a sample of 12 000)
    s = de.sample("1p1c1f", 12_000, "ffg", seed=11)
    expected = published_pool(["proficiency", "challenge", "force"])
    for i, name in enumerate(("success", "advantage", "triumph", "despair", "light", "dark")):
        marginal: dict[int, Fraction] = {}
        for key, p in expected.items():
            marginal[key[i]] = marginal.get(key[i], Fraction(0)) + p
        got = s[name]
        assert set(got.tolist()) <= set(marginal)
        for value, p in marginal.items():
            assert abs((got == value).mean() - float(p)) < 0.02, (name, value)
    assert (s["succeeded"] == (s["success"] > 0)).all()


def test_odds_summary():
    d = de.distribution("2a1p vs 2d1c", "ffg")
    expected = published_pool(["ability", "ability", "proficiency", "difficulty", "difficulty", "challenge"])
    summary = plan("2a1p vs 2d1c", "ffg").odds_summary(d)
    assert set(summary) == {"P(succeeded)", "P(triumph)", "P(despair)", "P(net advantage)"}
    assert summary["P(succeeded)"] == pytest.approx(float(sum(p for k, p in expected.items() if k[0] > 0)), abs=1e-12)
    assert summary["P(triumph)"] == pytest.approx(1 - (11 / 12), abs=1e-12)
    assert summary["P(despair)"] == pytest.approx(1 / 12, abs=1e-12)
    assert summary["P(net advantage)"] == pytest.approx(float(sum(p for k, p in expected.items() if k[1] > 0)),
                                                        abs=1e-12)


# ---------------------------------------------------------------- pools from a character (004)


def test_dice_pool_expression():
    assert ffg.DicePool().expression == "0a"
    assert ffg.DicePool(force=2).expression == "2f"
    assert ffg.DicePool(setback=1).expression == "0a vs 1s"
    assert ffg.DicePool(1, 2, 3, 4, 5, 6, 7).expression == "1a2p3b7f vs 4d5c6s"
    assert ffg.DicePool(boost=1, challenge=2).expression == "1b vs 2c"


def test_upgrades_on_the_difficulty_side():
    pool = ffg.DicePool(difficulty=2)
    assert pool.upgrade(1, "difficulty") == ffg.DicePool(difficulty=1, challenge=1)
    # two purple dice upgraded, then none left: the third upgrade adds a purple die
    assert pool.upgrade(3, "difficulty") == ffg.DicePool(difficulty=1, challenge=2)
    assert ffg.DicePool(challenge=2).downgrade(1, "difficulty") == ffg.DicePool(difficulty=1, challenge=1)
    assert ffg.DicePool(challenge=2).downgrade(5, "difficulty") == ffg.DicePool(difficulty=2)
    assert ffg.DicePool(ability=1, proficiency=1).downgrade() == ffg.DicePool(ability=2)
    # the ability side is the default and leaves the difficulty alone
    assert ffg.DicePool(ability=1, difficulty=1).upgrade() == ffg.DicePool(proficiency=1, difficulty=1)
    assert ffg.DicePool(ability=1, difficulty=1).upgrade(2) == ffg.DicePool(ability=1, proficiency=1, difficulty=1)
    assert ffg.DicePool(proficiency=1, challenge=1).downgrade() == ffg.DicePool(ability=1, challenge=1)


def test_build_pool_by_the_text():
    # 004: green dice = the higher of characteristic and skill, the lower number of them upgraded
    for char in range(1, 7):
        for skill in range(6):
            pool = ffg.build_pool(char, skill)
            assert (pool.ability, pool.proficiency) == (max(char, skill) - min(char, skill), min(char, skill))
    pool = ffg.build_pool(3, 1, "hard", boost=1, setback=2, force=1)
    assert pool == ffg.DicePool(2, 1, 1, 3, 0, 2, 1)
    assert ffg.build_pool(2, 0, "formidable").difficulty == 5
    assert ffg.build_pool(2, 0, "Daunting").difficulty == 4
    assert ffg.build_pool(2, 0, "easy") == ffg.DicePool(ability=2, difficulty=1)
    assert ffg.build_pool(2, 0, 0) == ffg.DicePool(ability=2)
    assert ffg.build_pool(2, 0, 5).difficulty == 5
    assert ffg.build_pool(2, 1, opponent=(1, 0)) == ffg.DicePool(ability=1, proficiency=1, difficulty=1)
    assert ffg.build_pool(2, 1, opponent=(6, 5)) == ffg.DicePool(ability=1, proficiency=1, difficulty=1, challenge=5)
    # 1 green 1 yellow; two upgrades: 0 green 2 yellow, then a green added; one downgrade: 2 green 1 yellow
    assert ffg.build_pool(2, 1, 2, upgrades=2, downgrades=1) == ffg.DicePool(ability=2, proficiency=1, difficulty=2)


@pytest.mark.parametrize("call, msg", [
    (lambda: ffg.build_pool(0, 1), "a characteristic is 1 to 6, not 0"),
    (lambda: ffg.build_pool(7, 1), "a characteristic is 1 to 6, not 7"),
    (lambda: ffg.build_pool(3, 6), "a skill rank is 0 to 5, not 6"),
    (lambda: ffg.build_pool(3, -1), "a skill rank is 0 to 5, not -1"),
    (lambda: ffg.build_pool(3, 1, opponent=(7, 1)), "the opponent's characteristic is 1 to 6, not 7"),
    (lambda: ffg.build_pool(3, 1, opponent=(2, 6)), "the opponent's skill rank is 0 to 5, not 6"),
    (lambda: ffg.build_pool(3, 1, "impossible"),
     "unknown difficulty 'impossible' (known: simple, easy, average, hard, daunting, formidable)"),
    (lambda: ffg.build_pool(3, 1, 6), "a difficulty is 0 to 5 purple dice, not 6"),
    (lambda: ffg.build_pool(3, 1, -1), "a difficulty is 0 to 5 purple dice, not -1"),
    (lambda: ffg.DestinyPool(0, 2).spend("light"), "no light side token to spend"),
    (lambda: ffg.DestinyPool(2, 0).spend("dark"), "no dark side token to spend"),
    (lambda: ffg.DestinyPool(2, 2).spend("grey"), "side is 'light' or 'dark', not 'grey'"),
    (lambda: ffg.destiny_pool(0), "1 to 60 players roll for the destiny pool"),
    (lambda: ffg.destiny_pool(61), "1 to 60 players roll for the destiny pool"),
    (lambda: ffg.minions_defeated(10, 5, 0, 4), "a wound threshold is at least 1 and a group is not negative"),
    (lambda: ffg.minions_defeated(10, 5, 5, -1), "a wound threshold is at least 1 and a group is not negative"),
    (lambda: ffg.characteristic_cost(0), "a characteristic is at least 1, not 0"),
    (lambda: ffg.characteristic_cost(6), "a characteristic cannot go above 6"),
    (lambda: ffg.characteristic_cost(5, created=False), "a characteristic cannot go above 5 at creation"),
    (lambda: ffg.skill_cost(-1), "a skill rank is 0 to 5, not -1"),
    (lambda: ffg.skill_cost(5), "a skill cannot go above rank 5"),
    (lambda: ffg.talent_cost(0), "talent tiers are 1 to 5"),
    (lambda: ffg.talent_cost(6), "talent tiers are 1 to 5"),
])
def test_rule_errors_say_what_is_wrong(call, msg):
    assert message(call) == msg


def test_rule_bounds_are_accepted():
    assert ffg.build_pool(1, 0) == ffg.DicePool(ability=1)
    assert ffg.build_pool(6, 5) == ffg.DicePool(ability=1, proficiency=5)
    assert ffg.characteristic_cost(1) == 20
    assert ffg.characteristic_cost(4, created=False) == 50  # 4 -> 5 at creation: 5 x 10
    assert [ffg.skill_cost(r) for r in range(5)] == [5, 10, 15, 20, 25]
    assert [ffg.skill_cost(r, career=False) for r in range(5)] == [10, 15, 20, 25, 30]
    assert [ffg.talent_cost(t) for t in range(1, 6)] == [5, 10, 15, 20, 25]
    assert ffg.minions_defeated(30, 5, 1, 0) == 0  # an empty group loses nobody
    assert ffg.minions_defeated(7, 5, 1, 9) == 1  # 2 wounds over a threshold of 1: one full threshold exceeded
    assert ffg.minions_defeated(3, 5, 5, 4) == 0  # soak never gives wounds back
    assert len(_destiny(1)) == 1 and len(_destiny(60)) == 60


def _destiny(players: int) -> list[int]:
    faces = [("force", 1)] * players
    pool = ffg.destiny_pool(players, seed=Faces(faces))
    assert pool == ffg.DestinyPool(0, players)
    return [0] * players


def test_spending_destiny_without_a_pool():
    assert ffg.DestinyPool(1, 0).spend("light") == (ffg.DestinyPool(0, 1), None)
    assert ffg.DestinyPool(0, 1).spend("dark") == (ffg.DestinyPool(1, 0), None)
    # one die upgraded, not two: the players' green die turns yellow, the game master's purple die red
    assert ffg.DestinyPool(1, 0).spend("light", ffg.DicePool(ability=2, difficulty=2)) == (
        ffg.DestinyPool(0, 1), ffg.DicePool(ability=1, proficiency=1, difficulty=2))
    assert ffg.DestinyPool(0, 1).spend("dark", ffg.DicePool(ability=2, difficulty=2)) == (
        ffg.DestinyPool(1, 0), ffg.DicePool(ability=2, difficulty=1, challenge=1))
    assert ffg.DestinyPool(0, 1).spend("dark", ffg.DicePool(ability=1)) == (
        ffg.DestinyPool(1, 0), ffg.DicePool(ability=1, difficulty=1))


def test_initiative_ties_and_pairs():
    checks = {"Trooper": (1, 0), "Han": (1, 0), "Leia": (1, 1), "Droid": (0, 5)}
    assert ffg.initiative_order(checks, players=["Han"]) == ["Leia", "Han", "Trooper", "Droid"]
    assert ffg.initiative_order(checks, players=["Han"], players_first=False) == ["Leia", "Trooper", "Han", "Droid"]
    assert ffg.initiative_order(checks) == ["Leia", "Trooper", "Han", "Droid"]
    assert ffg.initiative_order({"a": (-1, 3), "b": (0, -2)}) == ["b", "a"]


def test_critical_injury_without_a_modifier():
    assert ffg.critical_injury(seed=_d100(64)) == 64


def _d100(face: int) -> random.Random:
    class D100(random.Random):
        def random(self) -> float:
            return (face - 0.5) / 100

    return D100(0)


# ---------------------------------------------------------------- the catalogue and the ladder


def test_catalogue_pools():
    names = {1: "easy", 2: "average", 3: "hard", 4: "daunting", 5: "formidable"}
    want: dict[str, str] = {}
    for char in range(1, 7):
        for skill in range(6):
            green, yellow = max(char, skill) - min(char, skill), min(char, skill)
            for diff in range(1, 6):
                for up in range(3):
                    p, r = diff - min(up, diff), min(up, diff)  # each upgrade turns a purple die red
                    if up > diff:  # no purple die left: the upgrade adds one (only 1 purple, 2 upgrades)
                        p += 1
                    pos = (f"{green}a" if green else "") + (f"{yellow}p" if yellow else "")
                    neg = (f"{p}d" if p else "") + (f"{r}c" if r else "")
                    expr = f"{pos or '0a'} vs {neg}"
                    label = f"characteristic {char}, skill {skill} vs {names[diff]}" + (f" +{up} upgrade" if up else "")
                    want.setdefault(expr, label)
    got = de.systems()["ffg"].catalogue()
    assert {e: label for label, e in got} == want and len(got) == len(want)


def test_ladder_rows_and_columns():
    rows, cols = de.systems()["ffg"].ladder()
    assert rows == [("characteristic 2, skill 0", "2a"), ("characteristic 2, skill 1", "1a1p"),
                    ("characteristic 3, skill 1", "2a1p"), ("characteristic 3, skill 2", "1a2p"),
                    ("characteristic 4, skill 2", "2a2p"), ("characteristic 4, skill 3", "1a3p"),
                    ("characteristic 5, skill 3", "2a3p"), ("characteristic 5, skill 5", "5p")]
    assert cols == [("easy", "1d"), ("average", "2d"), ("hard", "3d"), ("daunting", "4d"), ("formidable", "5d")]


def test_exact_pools_against_the_published_faces():
    for dice in (["proficiency", "proficiency", "challenge"], ["challenge", "challenge", "proficiency", "force"],
                 ["setback", "setback", "boost", "ability"]):
        counts: dict[str, int] = {}
        for d in dice:
            counts[d] = counts.get(d, 0) + 1
        text = "".join(f"{n}{LETTER[d]}" for d, n in counts.items())
        got = {tuple(o)[:6]: p for o, p in de.distribution(text, "ffg").items()}
        assert_close(got, published_pool(dice))


def test_a_roll_rendered():
    faces = [("proficiency", 12), ("challenge", 1), ("force", 10)]
    r = de.roll("1p vs 1c1f", "ffg", seed=Faces(faces))
    html = r.render("html")
    assert '<code class="dice-expression">1p vs 1c1f</code>' in html
    assert '<strong class="dice-result">1 success, 1 triumph, 2 light side points, succeeded</strong>' in html
    assert '<span class="die die-force kept light">force light + light</span>' in html
    assert r.render("symbols") == "1p vs 1c1f: [🟨 ⍟, 🟥 ·, ⬜ ○○] = 1 success, 1 triumph, 2 light side points, succeeded"


def test_die_names():
    assert [ffg.die_name(w) for w in ("a", "P", "capacité", "Green", "défis", "noir", "blanc")] == [
        "ability", "proficiency", "ability", "ability", "challenge", "setback", "force"]
    assert [ffg.die_name(w, "colour") for w in ("y", "p", "k", "blk", "w", "abilities")] == [
        "proficiency", "difficulty", "setback", "setback", "force", "ability"]
    with pytest.raises(KeyError):
        ffg.die_name("y")


def test_net_text_in_french():
    assert ffg.net_text(ffg.NarrativeOutcome(2, -1, 1, 0, 0, 0, True), "fr") == "2 succès, 1 menace, 1 triomphe, réussite"
