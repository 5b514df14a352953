"""D6 with the Wild Die (``systems/d6wild.py``, text ``003``): what mutmut's survivors showed undefended
(issue 16). Expected values come from the rule text, scripted dice and enumeration written here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6wild import WildDice, WildHealth, WildWound

import diceengine as de
from diceengine.api import plan as plan_of

from .helpers import Scripted

D6 = range(1, 7)


def dice_of(r) -> list[tuple]:
    return [(d.kind, d.value, d.kept, d.exploded, d.added, d.wild, d.label) for d in r.dice]


# ---------------------------------------------------------------- one roll, die by die


def test_a_complication_removing_the_highest_die():
    r = de.roll("3D+1", "d6wild", seed=Scripted([4, 5, 1]), complication="remove_highest")
    assert (r.total, r.outcome.complication, r.outcome.explosions) == (5, True, 0)
    assert str(r) == "3D+1: 4 + ~5~ + wild ~1~ (complication) + 1 = 5"
    assert dice_of(r) == [("d6", 4, True, False, False, False, None), ("d6", 5, False, False, False, False, None),
                          ("wild", 1, False, False, False, True, None)]
    # of two equal highest dice, one goes
    r = de.roll("3D", "d6wild", seed=Scripted([5, 5, 1]), complication="remove_highest")
    assert r.total == 5 and str(r) == "3D: ~5~ + 5 + wild ~1~ (complication) = 5"
    assert [d.kept for d in r.dice] == [False, True, False]
    # the Wild Die alone: nothing left
    r = de.roll("1D+2", "d6wild", seed=Scripted([1]), complication="remove_highest")
    assert (r.total, str(r)) == (2, "1D+2: wild ~1~ (complication) + 2 = 2")
    # no complication: nothing removed
    r = de.roll("2D", "d6wild", seed=Scripted([5, 2]), complication="remove_highest")
    assert (r.total, str(r)) == (7, "2D: 5 + wild 2 = 7")
    assert all(d.kept for d in r.dice)


def test_a_flagged_complication_counts_the_one():
    r = de.roll("3D+1", "d6wild", seed=Scripted([4, 5, 1]))
    assert (r.total, r.outcome.complication) == (11, True)
    assert str(r) == "3D+1: 4 + 5 + wild 1 (complication) + 1 = 11"
    assert all(d.kept for d in r.dice)


def test_exploding_wild_die_explained():
    r = de.roll("2D-1", "d6wild", seed=Scripted([4, 6, 6, 2]))
    assert (r.total, r.outcome.explosions, r.outcome.complication) == (17, 2, False)
    assert str(r) == "2D-1: 4 + wild 6!+6!+2 - 1 = 17"
    assert dice_of(r) == [("d6", 4, True, False, False, False, None), ("wild", 6, True, True, False, True, None),
                          ("wild", 6, True, True, True, True, None), ("wild", 2, True, False, True, True, None)]
    # a later 1 in the chain is no complication
    r = de.roll("1D", "d6wild", seed=Scripted([6, 1]))
    assert (r.total, r.outcome.complication, r.outcome.explosions) == (7, False, 1)


def test_character_point_die_explained():
    r = de.roll("2D", "d6wild", seed=Scripted([3, 2, 6]), character_point=True)
    assert (r.total, r.outcome.explosions) == (11, 0)
    assert str(r) == "2D: 3 + wild 2 + character point 6 = 11"
    assert dice_of(r)[-1] == ("d6", 6, True, False, True, False, "character point")
    r = de.roll("2D", "d6wild", seed=Scripted([3, 6, 6, 2, 6, 1]), character_point=True,
                character_point_explodes=True)
    assert (r.total, r.outcome.explosions) == (24, 2)   # only the Wild Die's explosions are counted
    assert str(r) == "2D: 3 + wild 6!+6!+2 + character point 6!+1 = 24"
    assert dice_of(r)[-2:] == [("d6", 6, True, True, True, False, "character point"),
                               ("d6", 1, True, False, True, False, "character point")]
    # a complication removes the highest normal die and the Wild Die, not the character point die
    r = de.roll("2D", "d6wild", seed=Scripted([4, 1, 3]), character_point=True, complication="remove_highest")
    assert (r.total, str(r)) == (3, "2D: ~4~ + wild ~1~ (complication) + character point 3 = 3")


def test_wild_die_off():
    r = de.roll("2D", "d6wild", seed=Scripted([1, 6]), wild=False)
    assert (r.total, r.outcome.complication, r.outcome.explosions) == (7, False, 0)
    assert str(r) == "2D: 1 + 6 = 7"
    assert not any(d.wild for d in r.dice)


def test_the_opponent_throws_its_own_wild_die_without_the_character_point():
    r = de.roll("3D vs 2D", "d6wild", seed=Scripted([2, 2, 2, 1, 1]), complication="remove_highest")
    assert (r.total, r.outcome.margin, r.outcome.success, r.outcome.complication) == (6, 6, True, False)
    assert str(r) == "3D vs 2D: 2 + 2 + wild 2 = 6 against ~1~ + wild ~1~ (complication) = 0, success by 6"
    r = de.roll("1D vs 1D", "d6wild", seed=Scripted([2, 5, 3]), character_point=True)
    assert (r.total, r.outcome.margin) == (7, 4)
    assert str(r) == "1D vs 1D: wild 2 + character point 5 = 7 against wild 3 = 3, success by 4"
    opp = WildDice(character_point=True, character_point_explodes=True).opponent()
    assert opp == WildDice()


def test_force_point_doubles_the_code():
    r = de.roll("2D+1", "d6wild", seed=Scripted([1, 2, 3, 4]), force_point=True)
    assert r.total == 1 + 2 + 3 + 4 + 2
    assert str(r).startswith("2D+1: 1 + 2 + 3 + wild 4 + 2 = 12")


def test_spend_character_point_explained():
    r = de.roll("2D vs 8", "d6wild", seed=Scripted([3, 6, 6, 1]))
    after = d6wild.spend_character_point(r, seed=Scripted([6, 2]), explodes=True)
    assert (after.total, after.outcome.margin, after.outcome.success) == (24, 16, True)
    assert str(after) == "2D vs 8: 3 + wild 6!+6!+1 + character point 6!+2 = 24, success by 16"
    after = d6wild.spend_character_point(r, seed=Scripted([6, 2]))
    assert (after.total, str(after)) == (22, "2D vs 8: 3 + wild 6!+6!+1 + character point 6 = 22, success by 14")
    # the roll without a difficulty: only the total changes
    r = de.roll("2D", "d6wild", seed=Scripted([3, 2]))
    after = d6wild.spend_character_point(r, seed=Scripted([4]))
    assert after.outcome == r.outcome._replace(total=9)
    # a d6 roll takes no character point
    with pytest.raises(de.DiceValueError) as info:
        d6wild.spend_character_point(de.roll("2D", "d6wild", seed=1, character_point=True), seed=1)
    assert info.value.message == "a character point adds one die to a roll, not more (not cumulative)"


def test_spend_character_point_against_a_rolled_difficulty():
    # actor 2 + wild 3 = 5 against 4 + wild 4 = 8; the character point 3 ties (8 vs 8)
    r = de.roll("2D vs 2D", "d6wild", seed=Scripted([2, 3, 4, 4]), tie="reroll")
    after = d6wild.spend_character_point(r, seed=Scripted([5]))
    assert (after.total, after.outcome.margin, after.outcome.success) == (10, 2, True)
    after = d6wild.spend_character_point(r, seed=Scripted([3]))
    assert (after.outcome.margin, after.outcome.success) == (0, False)


# ---------------------------------------------------------------- exact and bulk, by enumeration


def _remove_highest(n: int, pips: int) -> dict[tuple[int, bool], Fraction]:
    """(total, complication) of nD+pips under remove_highest, explosions of the Wild Die to depth 3."""
    out: dict[tuple[int, bool], Fraction] = {}
    for normal in itertools.product(D6, repeat=n - 1):
        base = Fraction(1, 6 ** (n - 1))
        out_key = (sum(normal) - (max(normal) if normal else 0) + pips, True)
        out[out_key] = out.get(out_key, 0) + base / 6
        for w in range(2, 6):
            key = (sum(normal) + w + pips, False)
            out[key] = out.get(key, 0) + base / 6
    return out


@pytest.mark.parametrize("n", [1, 2, 3])
def test_remove_highest_odds(n):
    d = de.distribution(f"{n}D+1", "d6wild", complication="remove_highest")
    got: dict[tuple[int, bool], float] = {}
    for o, p in d:
        if o.explosions == 0:
            got[(o.total, o.complication)] = got.get((o.total, o.complication), 0) + p
    want = _remove_highest(n, 1)
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-15)


def test_character_point_odds():
    # 1D with a plain character-point die: the Wild Die (no explosion) plus a d6
    d = de.distribution("1D", "d6wild", character_point=True)
    got = {o.total: p for o, p in d if o.explosions == 0 and not o.complication}
    for total in range(3, 12):
        want = sum(Fraction(1, 36) for w in range(2, 6) for b in D6 if w + b == total)
        assert got.get(total, 0.0) == pytest.approx(float(want), abs=1e-15)
    # exploding: the bonus die's mean is 3.5 / (1 - 1/6) = 4.2; the Wild Die's too
    d = de.distribution("1D", "d6wild", character_point=True, character_point_explodes=True)
    assert d.mean() == pytest.approx(8.4, abs=1e-9)
    assert d.mean("explosions") == pytest.approx(0.2, abs=1e-9)   # 1/6 + 1/36 + ... = 1/5
    assert 0 < d.truncated < 1e-11


def test_wild_off_odds():
    d = de.distribution("2D+1", "d6wild", wild=False, character_point=True)
    want: dict[int, Fraction] = {}
    for a, b, c in itertools.product(D6, repeat=3):
        want[a + b + c + 1] = want.get(a + b + c + 1, 0) + Fraction(1, 216)
    got = d.marginal("total")
    assert set(got) == set(want)
    for t, p in want.items():
        assert got[t] == pytest.approx(float(p), abs=1e-15)


def test_explosion_odds():
    # 1D: k explosions with chance (1/6)^k * 5/6
    d = de.distribution("1D", "d6wild")
    m = d.marginal("explosions")
    for k in range(6):
        assert m[k] == pytest.approx((1 / 6) ** k * 5 / 6, rel=1e-12)
    assert d.marginal("total")[13] == pytest.approx((1 / 6) ** 3, rel=1e-12)


@pytest.mark.parametrize("options", [{"complication": "remove_highest"}, {"complication": "none"},
                                     {"wild": False}, {"character_point": True},
                                     {"character_point": True, "character_point_explodes": True}])
def test_sample_matches_scripted_rules(options):
    s = de.sample("3D", 40_000, "d6wild", seed=4, **options)
    total, comp, expl = s["total"], s["complication"], s["explosions"]
    assert total.dtype.kind == "i" and comp.dtype == bool
    if options.get("wild") is False:
        assert not comp.any() and not expl.any() and total.min() >= 3 and total.max() <= 18
        return
    if options.get("complication") == "none":
        assert not comp.any()
    else:
        assert abs(comp.mean() - 1 / 6) < 0.01
    if options.get("complication") == "remove_highest":
        assert total[comp].max() <= 6 and total[comp].min() >= 1   # the lower of two dice
        assert abs(total[comp].mean() - 91 / 36) < 0.05             # mean of the lower of 2d6: 91/36
    else:
        assert total.min() >= 3
    assert abs(expl.mean() - 0.2) < 0.01
    if options.get("character_point"):
        # 2d6 + the Wild Die (4.2 on average) + the bonus die (3.5, or 4.2 exploding)
        bonus = 4.2 if options.get("character_point_explodes") else 3.5
        assert abs(total.mean() - (7 + 4.2 + bonus)) < 0.06


def test_sample_means():
    for options in ({}, {"character_point": True}, {"character_point": True, "character_point_explodes": True},
                    {"complication": "remove_highest"}):
        s = de.sample("3D+1", 60_000, "d6wild", seed=9, **options)
        d = de.distribution("3D+1", "d6wild", **options)
        assert abs(s["total"].mean() - d.mean()) < 4 * d.stdev() / 60_000 ** 0.5


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


def test_system_description():
    from diceengine.registry import get_system

    s = get_system("d6wild")
    codes, names = s.ladder()
    assert codes[0] == ("1D", "1D") and codes[-1] == ("8D", "8D") and len(codes) == 8
    assert [n for n, _ in names] == ["very easy", "easy", "moderate", "difficult", "very difficult", "heroic"]
    assert all(a == b for a, b in names)
    o = s.options
    assert (o["complication"].default, o["wild"].default, o["character_point"].default,
            o["character_point_explodes"].default, o["force_point"].default, o["tie"].default) == \
        ("flag", True, False, False, False, "actor")
    assert o["complication"].choices == ("flag", "remove_highest", "none")
    assert plan_of("3D", "d6wild").dice_model == WildDice()
    p = plan_of("3D", "d6wild", complication="none", wild=False, character_point=True, character_point_explodes=True)
    assert p.dice_model == WildDice("none", False, True, True)


def test_joint_cost_grows_with_the_options():
    base = WildDice().joint_cost(d6wild.Code(3))
    assert base[1] > 0 and base[2] > 0
    assert WildDice(character_point=True).joint_cost(d6wild.Code(3))[0].work > base[0].work
    assert np.isfinite(base[0].work)
