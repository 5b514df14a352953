"""D6 and D6 with the Wild Die: code arithmetic and rules a one-line bug could break unnoticed (issue 16).

Expected values come from the rule texts (``000``, ``002``, ``003``) and from enumeration written here.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from diceengine.systems import d6, d6wild
from diceengine.systems.d6 import Code, Health, Wound
from diceengine.systems.d6wild import WildHealth, WildWound

import diceengine as de

from .helpers import Scripted, assert_close, enumerate_dice

D6 = range(1, 7)




def code_totals(dice: int, pips: int) -> dict[int, Fraction]:
    return enumerate_dice([D6] * dice, lambda v: sum(v) + pips)


# ---------------------------------------------------------------- code arithmetic (000, 002)


@pytest.mark.parametrize("code, halved", [
    ("5D+1", Code(2, 2)),   # 16 pips -> 8 pips (the module's worked example)
    ("5D", Code(2, 1)),     # 15 pips -> 7.5, rounded down to 7
    ("3D+2", Code(1, 2)),   # 11 pips -> 5.5 -> 5
    ("4D+1", Code(2, 0)),   # 13 pips -> 6.5 -> 6
    ("2D", Code(1, 0)),
])
def test_hurrying_halves_in_pips_rounding_down(code, halved):
    assert d6.modified_code(code, hurrying=True) == halved


@pytest.mark.parametrize("expr, dice, pips", [
    ("(5D)/2", 2, 1), ("(3D+2)/2", 1, 2), ("(6D)/3", 2, 0), ("(5D+1)/3", 1, 2), ("(4D+2)/3", 1, 1),
    ("(7D)/4", 1, 2),
])
def test_dividing_a_code(expr, dice, pips):
    # a code divided by k is counted in pips (3 pips = 1D), divided, rounded down
    assert_close(de.distribution(expr, "d6").marginal("total"), code_totals(dice, pips))


def test_a_code_plus_three_pips_is_one_more_die():
    # text 000: 2D+2 plus one pip is 3D; 3 pips are 1D, so 2D+3 is 3D and its pips cost 3 each
    assert d6.advance("2D+2") == Code(3, 0)
    assert d6.advance("2D+3") == Code(3, 1)
    assert d6.advance_cost("2D+3") == 3
    assert d6.advance_cost("2D+3", 3) == 9
    assert d6.advance_cost("2D", 3) == 6       # text 000: 2D to 3D costs 6 points
    assert d6.advance_cost("4D", 3) == 12      # 4D to 5D: 12
    assert d6.advance_cost("5D", 3) == 15      # 5D to 6D: 15
    assert d6.advance_cost("3D+2") == 3        # text 000: raising 3D+2 costs 3 points
    assert d6.advance_cost("5D+1") == 5
    assert d6.advance_cost("2D+2", 2) == 2 + 3  # the second pip is bought on 3D


# ---------------------------------------------------------------- health (000, 003)


def test_d6_wounded_loses_one_die():
    assert Health().hit(Wound.WOUNDED).penalty == 1
    assert Health().hit(Wound.STUNNED).penalty == 1
    assert Health().hit(Wound.STUNNED).hit(Wound.WOUNDED).penalty == 2
    assert Health().hit(Wound.STUNNED).hit(Wound.STUNNED).penalty == 2
    assert Health().penalty == 0


def test_d6_wounds_stack():
    # text 000: wounded twice is incapacitated; incapacitated then wounded again is mortally wounded
    once = Health().hit(Wound.WOUNDED)
    assert once.state == Wound.WOUNDED and once.can_act
    twice = once.hit(Wound.WOUNDED)
    assert twice.state == Wound.INCAPACITATED and not twice.can_act
    assert twice.hit(Wound.WOUNDED).state == Wound.MORTALLY_WOUNDED
    assert Health().hit(Wound.INCAPACITATED).hit(Wound.INCAPACITATED).state == Wound.MORTALLY_WOUNDED


def test_wild_health_second_and_third_wound():
    # text 003: wounded -1D; wounded a second time: falls, no physical effort, -2D to other actions
    one = WildHealth(strength_dice=3).hit(WildWound.WOUNDED)
    assert (one.wounds, one.penalty, one.fallen, one.unconscious) == (1, 1, False, False)
    assert one.state == WildWound.WOUNDED
    two = one.hit(WildWound.WOUNDED)
    assert (two.wounds, two.penalty, two.fallen, two.unconscious) == (2, 2, True, False)
    assert two.state == WildWound.WOUNDED
    three = two.hit(WildWound.WOUNDED)
    assert three.wounds == 3 and three.fallen
    assert three.state is not None and three.state >= WildWound.INCAPACITATED and three.unconscious


def test_wild_health_stuns_knock_out_at_the_strength_dice():
    # text 003: stunned as many times as the Strength code has dice: unconscious
    h = WildHealth(strength_dice=2)
    h = h.hit(WildWound.STUN)
    assert (h.stuns, h.unconscious, h.penalty) == (1, False, 1)
    h = h.hit(WildWound.LIGHT_STUN)
    assert (h.stuns, h.unconscious) == (2, True)


# ---------------------------------------------------------------- the ladder's names (003)


@pytest.mark.parametrize("name, number", [
    ("tres facile", 5), ("facile", 10), ("moyen", 15), ("difficile", 20), ("tres difficile", 25),
    ("heroique", 30), ("very easy", 5), ("easy", 10), ("moderate", 15), ("difficult", 20),
    ("very difficult", 25), ("heroic", 30),
])
def test_ladder_names(name, number):
    for seed in range(3):
        o = de.roll(f"4D vs {name}", "d6wild", seed=seed).outcome
        assert o.total - o.margin == number
        assert o.success == (o.total >= number)


@pytest.mark.parametrize("name, number", [("point blank", 5), ("short", 10), ("medium", 15), ("long", 20),
                                          ("bout portant", 5), ("courte", 10), ("moyenne", 15), ("longue", 20)])
def test_range_names(name, number):
    o = de.roll(f"4D vs {name}", "d6", seed=1).outcome
    assert o.total - o.margin == number


# ---------------------------------------------------------------- the Wild Die (003)


def test_complication_none_never_flags():
    # normal die 4, Wild Die 1
    r = de.roll("2D", "d6wild", seed=Scripted([4, 1]), complication="none")
    assert (r.total, r.outcome.complication) == (5, False)
    r = de.roll("2D", "d6wild", seed=Scripted([4, 1]), complication="flag")
    assert (r.total, r.outcome.complication) == (5, True)
    r = de.roll("2D", "d6wild", seed=Scripted([4, 1]), complication="remove_highest")
    assert (r.total, r.outcome.complication) == (0, True)
    s = de.sample("3D", 5000, "d6wild", seed=2, complication="none")
    assert not s["complication"].any()
    assert de.distribution("3D", "d6wild", complication="none").chance("complication") == 0
    # a 1 counts as a 1: 1D under "none" is 1..5 plus exploding sixes
    assert de.distribution("1D", "d6wild", complication="none").marginal("total")[1] == pytest.approx(1 / 6)


def test_wild_die_explodes_and_counts():
    r = de.roll("2D+1", "d6wild", seed=Scripted([2, 6, 6, 3]))
    assert (r.total, r.outcome.explosions, r.outcome.complication) == (2 + 6 + 6 + 3 + 1, 2, False)


# ---------------------------------------------------------------- character points (003)


@pytest.mark.parametrize("tie, succeeds", [("opponent", False), ("actor", True)])
def test_character_point_that_ties_a_rolled_difficulty(tie, succeeds):
    # actor 2D: 2 and wild 3 = 5; opponent 2D: 4 and wild 4 = 8; the character point die shows 3: 8 vs 8
    r = de.roll("2D vs 2D", "d6wild", seed=Scripted([2, 3, 4, 4]), tie=tie)
    assert (r.total, r.outcome.margin, r.outcome.success) == (5, -3, False)
    after = d6wild.spend_character_point(r, seed=Scripted([3]))
    assert (after.total, after.outcome.margin) == (8, 0)
    assert after.outcome.success is succeeds


def test_character_point_against_a_number():
    r = de.roll("2D vs 8", "d6wild", seed=Scripted([2, 3]))
    after = d6wild.spend_character_point(r, seed=Scripted([3]))
    assert (after.total, after.outcome.margin, after.outcome.success) == (8, 0, True)
    after = d6wild.spend_character_point(r, seed=Scripted([2]))
    assert (after.total, after.outcome.success) == (7, False)
    with pytest.raises(de.DiceError):
        d6wild.spend_character_point(after, seed=1)


@pytest.mark.parametrize("explodes", [False, True])
def test_a_roll_after_a_character_point_carries_the_plan_that_throws_it(explodes):
    """The roll a character point returns is explained by a plan throwing that die: its odds are the code's
    plus one die (3.5 on average, 4.2 exploding: 3.5 / (1 - 1/6)), the roll before it keeps its own."""
    r = de.roll("3D vs 10", "d6wild", seed=4)
    after = d6wild.spend_character_point(r, seed=9, explodes=explodes)
    before_mean = r._plan.distribution().mean()
    assert after._plan.distribution().mean() == pytest.approx(before_mean + (4.2 if explodes else 3.5), abs=1e-6)
    assert r._plan.distribution().mean() == before_mean


@pytest.mark.parametrize("explodes", [False, True])
def test_the_character_point_die_is_a_six_sided_die_added_to_the_roll(explodes):
    for seed in range(12):
        r = de.roll("3D", "d6wild", seed=seed, character_point=True, character_point_explodes=explodes)
        bonus = [d for d in r.dice if d.label == "character point"]
        assert bonus and all(d.kind == "d6" and d.sides == 6 and d.added and not d.wild for d in bonus)
        assert [d.exploded for d in bonus] == [explodes and d.value == 6 for d in bonus]
        assert r.total == sum(d.value for d in r.dice if d.kept)
