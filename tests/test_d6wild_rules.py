"""D6 with the Wild Die's rules (text 003): damage bands, wounds and stuns, unconsciousness, the multiple
action table, initiative by Perception, training and advancement."""

from __future__ import annotations

import numpy as np
import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6wild import WildHealth, WildWound

import diceengine as de
from tests.helpers import Scripted

# ---------------------------------------------------------------- rules of text 003


def test_damage_bands():
    cases = [(-1, WildWound.LIGHT_STUN), (0, WildWound.STUN), (3, WildWound.STUN), (4, WildWound.WOUNDED),
             (8, WildWound.WOUNDED), (9, WildWound.INCAPACITATED), (12, WildWound.INCAPACITATED),
             (13, WildWound.MORTALLY_WOUNDED), (15, WildWound.MORTALLY_WOUNDED), (16, WildWound.KILLED)]
    for diff, band in cases:
        assert d6wild.damage_result(10 + diff, 10) == band
        assert d6wild.damage_result(10 + diff, 8, armour=2) == band
    assert str(WildWound.LIGHT_STUN) == "light stun" and str(WildWound.MORTALLY_WOUNDED) == "mortally wounded"


def test_wild_health():
    h = WildHealth(strength_dice=3)
    assert (h.stuns, h.wounds, h.state, h.unconscious, h.fallen, h.penalty) == (0, 0, None, False, False, 0)
    h = h.hit(WildWound.LIGHT_STUN)
    assert (h.stuns, h.state, h.penalty) == (1, WildWound.LIGHT_STUN, 1)
    h = h.hit(WildWound.STUN)
    assert (h.stuns, h.state, h.penalty) == (2, WildWound.LIGHT_STUN, 2)
    h = h.hit(WildWound.WOUNDED)
    assert (h.wounds, h.state, h.penalty, h.unconscious) == (1, WildWound.WOUNDED, 3, False)
    h = h.hit(WildWound.STUN)
    assert h.unconscious and h.stuns == 3
    assert WildHealth(strength_dice=2).hit(WildWound.INCAPACITATED).unconscious
    assert not WildHealth(strength_dice=2).hit(WildWound.WOUNDED).unconscious
    k = WildHealth(strength_dice=2).hit(WildWound.KILLED).hit(WildWound.WOUNDED)
    assert k.state == WildWound.KILLED and k.wounds == 1
    m = WildHealth(strength_dice=2).hit(WildWound.MORTALLY_WOUNDED).hit(WildWound.INCAPACITATED)
    assert m.state == WildWound.MORTALLY_WOUNDED
    assert WildHealth(strength_dice=2).hit(WildWound.INCAPACITATED).state == WildWound.INCAPACITATED
    assert WildHealth(3, wounds=5).penalty == 2


def test_unconscious_minutes():
    assert d6wild.unconscious_minutes(seed=Scripted([2, 5])) == 7


def test_multiple_actions_table():
    # text 003: 1 action 100 %, 2 -1D 80 %, 3 -2D 60 %, 4 -3D 40 %, 5 -4D 20 %, then none
    assert [d6wild.multiple_actions(n) for n in range(1, 8)] == [
        (0, 100), (1, 80), (2, 60), (3, 40), (4, 20), (5, 0), (6, 0)]
    with pytest.raises(de.DiceValueError) as info:
        d6wild.multiple_actions(0)
    assert info.value.message == "a round has at least one declared action"
    assert d6wild.after_reaction(3, 1) == (3, 2)
    assert d6wild.after_reaction(3, 2) == (3, 2)
    assert d6wild.after_reaction(3, 3) == (4, 3)
    assert d6wild.after_reaction(0, 0) == (1, 0)


def test_initiative():
    got = d6wild.initiative({"Han": 12, "Greedo": 12, "Luke": 15}, players=["Han", "Luke"])
    assert got.order == ["Luke", "Han", "Greedo"] and got.roll_again == []
    got = d6wild.initiative({"Han": 12, "Leia": 12}, players=["Han", "Leia"])
    assert got.roll_again == [["Han", "Leia"]]
    assert d6wild.initiative_check("3D+4") == "3D+4"
    assert d6wild.initiative_check("3D+1") == "3D+1"


def test_training_and_advancement():
    # text 003: the cost in character points is the number before the D; a day per point with a teacher
    assert d6wild.training_days("4D+2", used=False, teacher=True) == 4
    assert d6wild.training_days("4D+2", used=False, teacher=False) == 8
    assert d6wild.training_days("4D+2", used=True, teacher=False) == 0
    assert d6wild.skill_advance_cost("3D+2", 2) == 3 + 4
    with pytest.raises(de.DiceValueError) as info:
        d6wild.skill_advance_cost("3D", attribute=True)
    assert info.value.message == "attributes cannot be raised with experience (text 003)"


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
