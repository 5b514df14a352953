"""Fixes found by reading the rule texts against the engine (issue 13): the character point belongs to
the character who spends it, the bounds the texts state, initiative in every ruleset."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d6, d6wild, ffg

import diceengine as de
from tests.helpers import chi2_passes

DEPTH = 9  # explosions of a Wild Die enumerated by hand; the mass left out is (1/6)**9 < 1e-7


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


PLAIN = {f: Fraction(1, 6) for f in range(1, 7)}
# the Wild Die: k sixes then a face 1-5 (a first 1 only flags a complication, it still counts)
WILD = {6 * k + f: Fraction(1, 6) ** (k + 1) for k in range(DEPTH) for f in range(1, 6)}


def wild_code(dice: int, pips: int = 0, character_point: bool = False) -> dict[int, Fraction]:
    """Totals of a code thrown with one Wild Die (and a plain character-point die), by enumeration."""
    out = {pips: Fraction(1)}
    for _ in range(dice - 1):
        out = _convolve(out, PLAIN)
    out = _convolve(out, WILD)
    if character_point:
        out = _convolve(out, PLAIN)
    return out


def chance_at_least(actor: dict[int, Fraction], against: dict[int, Fraction]) -> float:
    return float(sum(p * q for a, p in actor.items() for b, q in against.items() if a >= b))


@pytest.mark.parametrize("expression, text_value", [("3D vs 3D", 0.766), ("3D vs 5+1D", 0.885)])
def test_character_point_is_the_actors_die_only(expression, text_value):
    against = wild_code(3) if expression.endswith("3D") else wild_code(1, 5)
    want = chance_at_least(wild_code(3, character_point=True), against)
    assert want == pytest.approx(text_value, abs=1e-3)  # the enumeration gives the text's number (3 places)
    got = de.distribution(expression, system="d6wild", character_point=True).chance("success")
    assert got == pytest.approx(want, abs=1e-6)
    # without the point the check is the plain opposed roll
    plain = de.distribution(expression, system="d6wild").chance("success")
    assert plain == pytest.approx(chance_at_least(wild_code(3), against), abs=1e-6)


def test_character_point_sample_and_roll_agree_with_the_odds():
    dist = de.distribution("3D vs 3D", system="d6wild", character_point=True)
    s = de.sample("3D vs 3D", 40_000, system="d6wild", character_point=True, seed=13)
    want: dict[int, float] = {}
    for o, p in dist.items():
        want[o.margin] = want.get(o.margin, 0.0) + p
    assert chi2_passes(s["margin"], want)
    r = de.roll("3D vs 3D", system="d6wild", character_point=True, seed=5)
    points = [d for d in r.dice if d.label == "character point"]
    assert len(points) == 1  # one die, on the actor's side only
    spent = d6wild.spend_character_point(de.roll("3D vs 3D", system="d6wild", seed=5), seed=2)
    assert len([d for d in spent.dice if d.label == "character point"]) == 1
    assert spent.success == (spent.margin >= 0)


def test_ffg_bounds_of_characteristics_and_skills():
    for bad in [{"characteristic": 0, "skill": 1}, {"characteristic": 7, "skill": 1}, {"characteristic": 2, "skill": 6},
                {"characteristic": 2, "skill": -1}, {"characteristic": 2, "skill": 1, "opponent": (7, 0)},
                {"characteristic": 2, "skill": 1, "opponent": (3, 6)}, {"characteristic": 2, "skill": 1, "opponent": (0, 1)}]:
        with pytest.raises(de.DiceError):
            ffg.build_pool(**bad)
    assert ffg.build_pool(6, 5, 5).expression == "1a5p vs 5d"
    assert ffg.build_pool(1, 0, opponent=(1, 0)).expression == "1a vs 1d"
    for bad in (0, -3, 6, 7):
        with pytest.raises(de.DiceError):
            ffg.characteristic_cost(bad)
    assert ffg.characteristic_cost(1) == 20 and ffg.characteristic_cost(2) == 30  # the text: 2 -> 3 costs 30
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(5, created=False)
    for bad in (-1, 5):
        with pytest.raises(de.DiceError):
            ffg.skill_cost(bad)
    assert ffg.skill_cost(0) == 5 and ffg.skill_cost(1) == 10 and ffg.skill_cost(1, career=False) == 15


def test_d20pool_needs_two_dice_unless_the_option_says_otherwise():
    with pytest.raises(de.DiceError, match="at least two"):
        de.distribution("1d20<=12", system="d20pool")
    assert len(de.roll("d20<=9+3 vs 1", system="d20pool", seed=1).dice) == 2  # "d20" without a count is 2
    one = de.distribution("1d20<=12", system="d20pool", one_die=True)
    # one die: 1 is two successes, 2-12 one, 13-19 none, 20 a complication
    assert one.probability(lambda o: o.successes == 2) == pytest.approx(1 / 20)
    assert one.probability(lambda o: o.successes == 1) == pytest.approx(11 / 20)
    assert one.probability(lambda o: o.complications == 1) == pytest.approx(1 / 20)
    assert de.distribution("2d20<=12", system="d20pool").probability(lambda o: o.successes == 4) == \
        pytest.approx(1 / 400)


def test_classic_d6_never_raises_attributes():
    with pytest.raises(de.DiceError, match="attributes"):
        d6.advance_cost("3D", 1, attribute=True)
    assert d6.advance_cost("2D", 3) == 6  # the text: 2D -> 3D costs 6
    assert d6.advance_cost("4D", 3) == 12 and d6.advance_cost("5D+1", 1) == 5
    with pytest.raises(de.DiceError, match="attributes"):
        d6wild.skill_advance_cost("3D", attribute=True)


def test_ffg_initiative_by_cool_or_vigilance_with_the_tie_rule():
    from diceengine.systems.ffg import NarrativeOutcome

    def check(s, a):
        return NarrativeOutcome(s, a, 0, 0, 0, 0, s > 0)

    checks = {"trooper": check(2, 1), "Kira": check(2, 1), "Oskara": check(3, 0), "officer": check(1, 4)}
    assert ffg.initiative_order(checks, players=("Kira", "Oskara")) == ["Oskara", "Kira", "trooper", "officer"]
    assert ffg.initiative_order(checks, players=("Kira", "Oskara"), players_first=False)[:3] == \
        ["Oskara", "trooper", "Kira"]  # without the published tie rule: the order given
    assert ffg.initiative_order({"a": (0, 0), "b": (1, -2)}) == ["b", "a"]  # plain (success, advantage) pairs
    assert "initiative_order" in ffg.RULES


def test_d6wild_initiative_by_perception():
    assert "initiative" in d6wild.RULES
    got = d6wild.initiative({"Han": 14, "trooper": 14, "Leia": 17}, players=("Han", "Leia"))
    assert got.order == ["Leia", "Han", "trooper"] and got.roll_again == []
    got = d6wild.initiative({"Han": 12, "Leia": 12, "trooper": 9, "officer": 9, "droid": 20}, players=("Han", "Leia"))
    assert got.order == ["droid", "Han", "Leia", "trooper", "officer"]
    assert got.roll_again == [["Han", "Leia"], ["trooper", "officer"]]  # two of a kind roll again (text 000)
    # the exact check each rolls: the Perception code with the Wild Die
    assert d6wild.initiative_check("3D+1") == "3D+1"
    assert np.isclose(de.distribution(d6wild.initiative_check("3D+1"), system="d6wild").mean(), 3 * 3.5 + 0.7 + 1,
                      atol=1e-6)
