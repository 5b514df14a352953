"""D6 fights (``diceengine.systems.d6.fight``, ``diceengine.systems.d6wild.fight``): the pieces of the exact
chain and of the simulation, each against the rule texts read directly here."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pydantic
import pytest
from diceengine.systems.d6 import RANGE_DIFFICULTIES, Code, Wound, fighters
from diceengine.systems.d6 import fight as F
from diceengine.systems.d6wild import WildWound
from diceengine.systems.d6wild import fight as W

from tests.helpers import chi2_passes


def totals(dice: int, pips: int = 0) -> Counter:
    out: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        out[sum(faces) + pips] += 1 / 6 ** dice
    return out


def test_range_difficulty():
    assert fighters.range_difficulty("Point-Blank", RANGE_DIFFICULTIES) == 5
    assert fighters.range_difficulty("long", RANGE_DIFFICULTIES) == 20
    assert fighters.range_difficulty(0, RANGE_DIFFICULTIES) == 0 and fighters.range_difficulty(100, RANGE_DIFFICULTIES) == 100
    for bad in (-1, 101):
        with pytest.raises(ValueError, match="^a difficulty is 0 to 100$"):
            fighters.range_difficulty(bad, RANGE_DIFFICULTIES)
    with pytest.raises(ValueError) as info:
        fighters.range_difficulty("far", {"short": 10, "long": 20})
    assert str(info.value) == "unknown range 'far' (known: short, long, or a number)"
    assert W.WildSetup(a=[_wild("a")], b=[_wild("b")], range="very difficult").difficulty == 25
    assert W.WildSetup(a=[_wild("a")], b=[_wild("b")], range="medium").difficulty == 15
    assert F.D6Setup(a=[_d6("a")], b=[_d6("b")]).difficulty == 10
    with pytest.raises(pydantic.ValidationError, match="unknown range"):
        F.D6Setup(a=[_d6("a")], b=[_d6("b")], range="heroic")


def _d6(name: str, **kw) -> F.D6Fighter:
    return F.D6Fighter(**{"name": name, "attack": "3D", "strength": "2D", "damage": "4D", **kw})


def _wild(name: str, **kw) -> W.WildFighter:
    return W.WildFighter(**{"name": name, "attack": "3D", "strength": "2D", "damage": "4D", **kw})


def test_fighter_codes():
    for field, value in (("attack", "0D+2"), ("strength", "0D"), ("damage", "0D+1")):
        with pytest.raises(pydantic.ValidationError) as info:
            _d6("x", **{field: value})
        assert "has no dice: a code needs at least 1D" in str(info.value)
    for armour in ("-1", "0D-1"):
        with pytest.raises(pydantic.ValidationError, match="armour is not negative"):
            _d6("x", armour=armour)
    assert _d6("x", armour="1D-1").armour == Code(1, -1)
    assert _d6("x", armour="2").armour == Code(0, 2)
    assert _wild("x").perception == Code(2)


def test_damage_steps_of_text_000():
    assert F.after_hit(0, F.NONE) == (0, 0)
    assert F.after_hit(0, int(Wound.STUNNED)) == (0, 1)          # a stun passes
    assert F.after_hit(2, int(Wound.STUNNED)) == (2, 1)
    assert F.after_hit(2, int(Wound.WOUNDED)) == (3, 0)          # wounded twice: incapacitated
    assert F.after_hit(3, int(Wound.WOUNDED)) == (4, 0)
    assert F.after_hit(0, int(Wound.MORTALLY_WOUNDED)) == (4, 0)
    assert F.penalty(2, 1) == 2 and F.penalty(0, 0) == 0 and F.penalty(0, 1) == 1 and F.penalty(3, 0) == 0


@pytest.mark.parametrize("policy", fighters.FORCE_POLICIES)
def test_force_policies(policy):
    for wounded, points, opening in itertools.product((False, True), (0, 1, 2), (False, True)):
        want = points > 0 and {"never": False, "first_round": opening, "when_wounded": wounded}[policy]
        assert fighters.relies_on_force(policy, wounded, points, opening) == want
    s = F.D6Setup(a=[_d6("a")], b=[_d6("b")], force_point=policy)
    assert s.spends(int(Wound.WOUNDED), 1, False) == (policy == "when_wounded")
    assert s.spends(int(Wound.INCAPACITATED), 1, False) is False
    w = W.WildSetup(a=[_wild("a")], b=[_wild("b")], force_point=policy)
    assert w.spends(2, 1, False) == (policy == "when_wounded")
    assert w.spends(0, 1, True) == (policy == "first_round")


def test_rolled_and_resisted_codes():
    assert F.rolled(Code(5, 1), 1, True) == Code(9, 2)     # doubled, then the penalty
    assert F.rolled(Code(5, 1), 2, False) == Code(3, 1)
    f = _d6("x", strength="3D+1", armour="1D")
    assert F.resist(f, False) == Code(4, 1) and F.resist(f, True) == Code(7, 2)


def test_dodges():
    s = F.D6Setup(a=[_d6("a", dodge="3D")], b=[_d6("b")], dodge="always")
    assert s.dodges(s.a[0]) and not s.dodges(s.b[0])
    assert not F.D6Setup(a=[_d6("a", dodge="3D")], b=[_d6("b")]).dodges(s.a[0])
    assert [f.name for f in s.fighters()] == ["a", "b"]


def test_result_chances_of_text_000():
    # damage 2D against Strength 1D+1, read by the text: stunned, wounded, incapacitated, mortally wounded
    want = Counter()
    for d, p in totals(2).items():
        for s, q in totals(1, 1).items():
            band = 0 if s > d else 1 if d < 2 * s else 2 if d < 3 * s else 3
            want[band] += p * q
    got = F.result_chances(Code(2), Code(1, 1))
    assert got == pytest.approx([want[k] for k in range(4)], abs=1e-12)


def test_hit_chance_with_and_without_a_dodge():
    """The chance each attack total hits: the difficulty's distribution after the target's dodge (both D6
    rulesets' exact chains read it), at each total."""
    def hit(totals: list[int], dodge: tuple | None, mode: str = "add") -> list[float]:
        return fighters.cdf_at(fighters.difficulty_cdf(10, dodge, mode), np.array(totals)).tolist()

    assert hit([8, 10, 12, 14], None) == [0.0, 1.0, 1.0, 1.0]
    # a dodge of 1D (1..6) added to 10: the attack hits when dodge <= total - 10
    dodge = (np.arange(1, 7), np.full(6, 1 / 6))
    assert hit([8, 10, 12, 14], dodge) == pytest.approx([0, 0, 2 / 6, 4 / 6])
    assert hit([30], dodge) == pytest.approx([1.0])
    # the dodge replacing the difficulty (text 002): hits when dodge <= total
    assert hit([0, 3, 6, 9], dodge, "replace") == pytest.approx([0, 3 / 6, 1, 1])


def test_round_outcomes():
    # one total each; the first hits with chance 1/2, the second 1/4; result chances given
    w = np.array([[1.0]])
    first_results = np.array([0.5, 0.5, 0.0, 0.0])    # on the second: stunned or wounded
    second_results = np.array([0.0, 0.0, 1.0, 0.0])   # on the first: incapacitated
    got = F.round_outcomes(np.array([0.5]), np.array([0.25]), w, first_results, second_results)
    s, wd, inc = int(Wound.STUNNED), int(Wound.WOUNDED), int(Wound.INCAPACITATED)
    want = {
        (F.NONE, F.NONE): 0.5 * 0.75,
        (F.NONE, s): 0.5 * 0.75 * 0.5,                 # first hits and stuns, the second misses
        (inc, s): 0.5 * 0.25 * 0.5,                    # stunned, the second still fires
        (inc, F.NONE): 0.5 * 0.25,                     # the first misses, the second hits
        (F.NONE, wd): 0.5 * 0.5,                       # wounded: the second does nothing more
    }
    assert got.keys() == want.keys()
    for k, p in want.items():
        assert got[k] == pytest.approx(p)


def test_wild_steps_of_text_003():
    assert W.after_band(2, 0, 0, WildWound.STUN) == (1, 0, False)
    assert W.after_band(2, 1, 0, WildWound.LIGHT_STUN) == (2, 0, True)   # stunned as often as Strength dice
    assert W.after_band(3, 0, 1, WildWound.WOUNDED) == (0, 2, False)
    assert W.after_band(3, 0, 2, WildWound.WOUNDED) == (0, 3, True)
    assert W.after_band(3, 0, 0, WildWound.INCAPACITATED) == (0, 0, True)
    assert W.after_band(3, 0, 1, WildWound.STUN) == (1, 1, False)
    assert [W.wound_penalty(i) for i in range(4)] == [0, 1, 2, 2]


def test_wild_first_chance_by_the_tie_rule():
    same = {"perception": "2D"}
    for players, tie in (((True, False), "actor"), ((False, True), "opponent"), ((True, True), "reroll")):
        setup = W.WildSetup(a=[_wild("a", player=players[0], **same)], b=[_wild("b", player=players[1], **same)])
        duel = W.WildDuel(setup)
        assert duel.tie == tie
        p = duel.first_chance(0, 0, False, False)
        _, probs = W._pmf(Code(2), "flag")
        p_tie = float((probs ** 2).sum())
        ahead = (1 - p_tie) / 2
        assert p == pytest.approx({"actor": ahead + p_tie, "opponent": ahead, "reroll": 0.5}[tie])
    # a penalty die lowers the chance to act first
    setup = W.WildSetup(a=[_wild("a", **same)], b=[_wild("b", **same)])
    assert W.WildDuel(setup).first_chance(1, 0, False, False) < 0.5 < W.WildDuel(setup).first_chance(0, 0, True,
                                                                                                        False)


def test_wild_hit_chance_against_a_dodge():
    base = W.WildSetup(a=[_wild("a", attack="2D")], b=[_wild("b", dodge="1D")], range=10, dodge="always")
    duel = W.WildDuel(base)
    attack = dict(zip(*[a.tolist() for a in W._pmf(Code(2), "flag")]))   # a has no dodge: no -1D
    # the target's 1D dodge, at -1D for the two actions, cannot be rolled: the base difficulty stands
    want = sum(p for v, p in attack.items() if v >= 10)
    assert duel.hit(0, 0, 0, False, False) == pytest.approx(want)
    # "replace": the dodge roll (2D's) is the difficulty; "add": base + roll
    for mode in ("replace", "add"):
        s = W.WildSetup(a=[_wild("a", attack="3D")], b=[_wild("b", dodge="2D")], range=10, dodge="always",
                        reaction=mode)
        att = dict(zip(*[a.tolist() for a in W._pmf(Code(3), "flag")]))   # a declares no dodge: 3D
        dod = dict(zip(*[a.tolist() for a in W._pmf(Code(1), "flag")]))
        want = sum(p * q for a, p in att.items() for d, q in dod.items()
                   if a >= (d if mode == "replace" else 10 + d))
        assert W.WildDuel(s).hit(0, 0, 0, False, False) == pytest.approx(want)


@pytest.mark.parametrize("players", [(False, False), (True, True)])
def test_wild_battle_rerolls_tied_initiative(players):
    """Two of a kind roll their tied Perception again (text 003): whoever acts first here takes the other
    out with one shot, so the first round's outcome shows the order. The simulated round is compared with
    the exact chain's; breaking the ties at random instead moves P(a acts first) from ahead / (ahead +
    behind) to ahead + tie / 2, about 0.023 here (over 13 standard errors at 60,000 fights)."""
    deadly = {"attack": "12D", "damage": "12D", "strength": "1D"}
    setup = W.WildSetup(a=[_wild("a", perception="1D", player=players[0], **deadly)],
                        b=[_wild("b", perception="1D+2", player=players[1], **deadly)], range="very_easy")
    duel = W.WildDuel(setup)
    assert duel.tie == "reroll"
    exact: Counter = Counter()
    for (a, b, _), p in duel.advance(next(iter(duel.start()))).items():
        exact[(a[3], b[3])] += p
    # the first round almost always ends the fight, so the order decides it
    assert exact[(False, True)] + exact[(True, False)] > 0.95
    ahead_tie = W.WildDuel(setup).first_chance(0, 0, False, False)
    va, pa = duel.fighters[0].perception(0, False)
    vb, pb = duel.fighters[1].perception(0, False)
    joint = np.outer(pa, pb)
    ahead, tie = float(joint[va[:, None] > vb[None, :]].sum()), float(joint[va[:, None] == vb[None, :]].sum())
    assert ahead_tie == pytest.approx(ahead / (1 - tie))
    assert abs(ahead / (1 - tie) - (ahead + tie / 2)) > 0.02   # the two tie rules are far apart here
    n = 60_000
    battle = W.WildBattle(setup, n)
    battle.step(np.random.default_rng(16))
    assert chi2_passes(list(zip(battle.gone[:, 0].tolist(), battle.gone[:, 1].tolist())), exact)


def test_wild_battle_penalty_rows_stay_with_their_fighter():
    """A penalty past the samplers' depth (many stuns in one round) rolls the fighter's deepest row, never
    the next fighter's or the Force-point rows."""
    setup = W.WildSetup(a=[_wild("a", perception="2D")], b=[_wild("b", perception="4D")])
    battle = W.WildBattle(setup, 1)
    d = battle.depth
    pen = np.array([0, d - 1, d, d + 7, 3, d + 2])
    who = np.array([0, 0, 0, 1, 1, 1])
    force = np.array([0, 0, 1, 0, 1, 1])
    assert battle.rows(who, force, pen).tolist() == [0, d - 1, 2 * d - 1, 3 * d - 1, 3 * d + 3, 4 * d - 1]


@pytest.mark.parametrize("players", [(False, False), (True, True)])
def test_d6_battle_rerolls_tied_attacks_with_each_fighters_own_code(players):
    """Classic D6: the attack rolls order the round, two of a kind roll their ties again, each with their own
    code. With a deadly damage code (pips included: the damage table reaches 6 x dice + pips), the first to
    act wins almost every fight in one round, so the simulated round must match the exact chain's."""
    a = _d6("a", attack="2D", damage="5D+2", strength="1D", player=players[0])
    b = _d6("b", attack="2D+2", damage="5D+2", strength="1D", player=players[1])
    setup = F.D6Setup(a=[a], b=[b], range="point_blank")
    duel = F.D6Duel(setup)
    assert duel.tie == "reroll"
    exact: Counter = Counter()
    for (sa, sb, _), p in duel.advance(next(iter(duel.start()))).items():
        exact[(sa[0] >= Wound.INCAPACITATED, sb[0] >= Wound.INCAPACITATED)] += p
    n = 60_000
    battle = F.D6Battle(setup, n)
    battle.step(np.random.default_rng(17))
    out = battle.out()
    assert chi2_passes(list(zip(out[:, 0].tolist(), out[:, 1].tolist())), exact)


def test_d6_battle_penalty_rows_stay_with_their_fighter():
    setup = F.D6Setup(a=[_d6("a", attack="2D")], b=[_d6("b", attack="4D")])
    battle = F.D6Battle(setup, 1)
    d = battle.depth
    pen = np.array([0, d - 1, d, d + 7, 3, d - 2])
    who = np.array([0, 0, 0, 1, 1, 1])
    force = np.array([0, 0, 1, 0, 1, 1])
    assert battle.rows(who, force, pen).tolist() == [0, d - 1, 2 * d - 1, 3 * d - 1, 3 * d + 3, 4 * d - 2]
