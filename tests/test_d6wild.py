"""D6 with the Wild Die (text 003): exact odds against enumeration, samples, options (complications, the
character point, the Wild Die off), rolls explained die by die."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6 import Code
from diceengine.systems.d6wild import WildDice, WildHealth, WildWound

import diceengine as de
from diceengine.api import plan as plan_of
from tests.helpers import Scripted, chi2_passes

D6 = range(1, 7)


DEPTH = 4  # explosions enumerated by hand


def wild_chains(depth):
    """(faces of the Wild Die, probability) for chains of at most ``depth`` explosions."""
    out = []

    def walk(chain, p):
        for f in D6:
            c, q = chain + [f], p * Fraction(1, 6)
            if f == 6:
                if len(c) <= depth:
                    walk(c, q)
            else:
                out.append((c, q))
    walk([], Fraction(1))
    return out


def brute(n, pips, complication="flag", cp=False, cp_explodes=False):
    """{(total, complication, explosions): probability} by enumeration, explosions below DEPTH."""
    rows: dict[tuple, Fraction] = {}
    bonus = [([0], Fraction(1))]
    if cp:
        bonus = wild_chains(DEPTH) if cp_explodes else [([f], Fraction(1, 6)) for f in D6]
    for normal in itertools.product(D6, repeat=n - 1):
        for chain, p in wild_chains(DEPTH):
            for extra, q in bonus:
                flagged = chain[0] == 1 and complication != "none"
                if flagged and complication == "remove_highest":
                    total = sum(normal) - (max(normal) if normal else 0)
                else:
                    total = sum(normal) + sum(chain)
                key = (total + sum(extra) + pips, flagged, len(chain) - 1)
                rows[key] = rows.get(key, Fraction(0)) + p * q / 6 ** (n - 1)
    return rows


@pytest.mark.parametrize("n, pips", [(1, 0), (2, 1), (3, 0)])
@pytest.mark.parametrize("complication", ["flag", "remove_highest", "none"])
def test_exact_odds_match_enumeration(n, pips, complication):
    want = brute(n, pips, complication)
    got = {(o.total, o.complication, o.explosions): p
           for o, p in de.distribution(f"{n}D{pips:+d}", system="d6wild", complication=complication).items()}
    for key, p in want.items():
        if key[2] < DEPTH:
            assert got.get(key, 0.0) == pytest.approx(float(p), abs=1e-15), key
    for key, p in got.items():
        if key[2] < DEPTH:
            assert key in want


def test_character_point_die_matches_enumeration():
    for explodes in (False, True):
        want = brute(2, 0, cp=True, cp_explodes=explodes)
        got = de.distribution("2D", system="d6wild", character_point=True, character_point_explodes=explodes)
        got_rows = {(o.total, o.complication, o.explosions): p for o, p in got.items()}
        for key, p in want.items():
            if key[2] < DEPTH and key[0] < 6 * DEPTH:  # totals every chain of the bonus die reaches in full
                assert got_rows.get(key, 0.0) == pytest.approx(float(p), abs=1e-14), key


@pytest.mark.parametrize("code", ["1D", "2D+2", "4D+1", "7D", "12D+2"])
def test_complication_chance_is_one_sixth_under_flag(code):
    assert de.distribution(code, system="d6wild").chance("complication") == pytest.approx(1 / 6, abs=1e-13)
    assert de.distribution(code, system="d6wild", complication="none").chance("complication") == 0


def test_wild_die_off_is_the_classic_roll():
    wild_off = de.distribution("3D+2 vs 12", system="d6wild", wild=False)
    classic = de.distribution("3D+2 vs 12", system="d6")
    assert wild_off.marginal("margin") == pytest.approx(classic.marginal("margin"), abs=1e-15)
    assert wild_off.chance("complication") == 0 and wild_off.mean("explosions") == 0


def test_explosion_series_truncation_is_reported():
    dist = de.distribution("3D", system="d6wild")
    assert 0 < dist.truncated < 1e-12
    assert dist.total_probability() + dist.truncated == pytest.approx(1, abs=1e-14)
    # the Wild Die alone averages 3.5 / (1 - 1/6) = 4.2
    assert de.distribution("1D", system="d6wild").mean() == pytest.approx(4.2, abs=1e-10)


OPTIONS = [{}, {"complication": "remove_highest"}, {"complication": "none"}, {"wild": False},
           {"character_point": True}, {"character_point": True, "character_point_explodes": True},
           {"force_point": True}]


@pytest.mark.parametrize("options", OPTIONS)
def test_samples_match_exact_for_each_option(options):
    expr = "3D+1 vs 12"
    dist = de.distribution(expr, system="d6wild", **options)
    s = de.sample(expr, 60_000, system="d6wild", seed=5, **options)
    assert chi2_passes(s["total"], dist.marginal("total"))
    assert chi2_passes(s["explosions"], dist.marginal("explosions"))
    joint = {}
    for o, p in dist.items():
        joint[(o.complication, o.success)] = joint.get((o.complication, o.success), 0.0) + p
    pairs = list(zip(s["complication"].tolist(), s["success"].tolist()))
    assert chi2_passes(pairs, joint)


@pytest.mark.parametrize("options", OPTIONS[:3])
def test_single_rolls_match_exact(options):
    dist = de.distribution("2D+1", system="d6wild", **options)
    rolls = [de.roll("2D+1", system="d6wild", seed=i, **options).total for i in range(5000)]
    assert chi2_passes(rolls, dist.marginal("total"))


def test_force_point_doubles_the_code_but_not_the_character_point():
    a = de.distribution("3D", system="d6wild", force_point=True, character_point=True)
    b = de.distribution("6D", system="d6wild", character_point=True)
    assert a.marginal() == pytest.approx(b.marginal(), abs=1e-15)


def test_roll_explains_the_wild_die():
    seen_explosion = seen_complication = False
    for seed in range(300):
        r = de.roll("3D+2 vs moderate", system="d6wild", seed=seed)
        wild = [x for x in r.dice if x.wild]
        assert wild and r.explosions == len(wild) - 1
        assert r.complication == (wild[0].value == 1)
        assert r.total == sum(x.value for x in r.dice) + 2
        assert r.success == (r.total >= 15) and r.margin == r.total - 15
        if r.explosions:
            seen_explosion = True
            assert "wild 6!+" in str(r)
        if r.complication:
            seen_complication = True
            assert "(complication)" in str(r)
    assert seen_explosion and seen_complication


def test_remove_highest_removes_the_wild_die_and_the_highest():
    for seed in range(300):
        r = de.roll("4D", system="d6wild", seed=seed, complication="remove_highest")
        if r.complication:
            normal = [x.value for x in r.dice if not x.wild]
            assert r.total == sum(normal) - max(normal)
            assert sum(not x.kept for x in r.dice) == 2
            return
    pytest.fail("no complication in 300 rolls")  # pragma: no cover


def test_ladder_names():
    for name, value in [("very easy", 5), ("easy", 10), ("moderate", 15), ("difficult", 20),
                        ("very difficult", 25), ("heroic", 30)]:
        a = de.distribution(f"5D vs {name}", system="d6wild").chance("success")
        assert a == pytest.approx(de.distribution(f"5D vs {value}", system="d6wild").chance("success"))
    assert de.roll("3D vs 13", system="d6wild", seed=1).margin is not None


def test_opposed_with_reroll_ties():
    dist = de.distribution("3D vs 3D", system="d6wild", tie="reroll")
    assert dist.chance("success") == pytest.approx(0.5, abs=1e-12)
    assert dist.probability(lambda o: o.margin == 0) == 0


def test_damage_bands():
    assert d6wild.damage_result(9, 10) == WildWound.LIGHT_STUN
    assert [d6wild.damage_result(10 + k, 10) for k in range(4)] == [WildWound.STUN] * 4
    assert [d6wild.damage_result(10 + k, 10) for k in range(4, 9)] == [WildWound.WOUNDED] * 5
    assert [d6wild.damage_result(10 + k, 10) for k in range(9, 13)] == [WildWound.INCAPACITATED] * 4
    assert [d6wild.damage_result(10 + k, 10) for k in range(13, 16)] == [WildWound.MORTALLY_WOUNDED] * 3
    assert d6wild.damage_result(26, 10) == WildWound.KILLED
    assert d6wild.damage_result(14, 10, armour=2) == WildWound.STUN


def test_stuns_and_wounds_stack():
    h = WildHealth(strength_dice=3)
    h = h.hit(WildWound.STUN).hit(WildWound.STUN)
    assert not h.unconscious
    assert h.hit(WildWound.LIGHT_STUN).unconscious
    w = WildHealth(3).hit(WildWound.WOUNDED)
    assert w.penalty == 1 and not w.fallen
    w2 = w.hit(WildWound.WOUNDED)
    assert w2.fallen and w2.penalty == 2
    # 2D6 minutes: the two faces thrown, added
    faces = iter([2.5 / 6, 4.5 / 6])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert d6wild.unconscious_minutes(seed=rng) == 3 + 5


def test_multiple_action_table():
    assert [d6wild.multiple_actions(n) for n in range(1, 7)] == [(0, 100), (1, 80), (2, 60), (3, 40), (4, 20), (5, 0)]
    assert d6wild.after_reaction(declared=3, taken=1) == (3, 2)
    assert d6wild.after_reaction(declared=2, taken=2) == (3, 2)


def test_advancement():
    assert d6wild.skill_advance_cost("3D+2") == 3
    assert d6wild.training_days("4D", used=False, teacher=True) == 4
    assert d6wild.training_days("4D", used=False, teacher=False) == 8
    assert d6wild.training_days("4D", used=True, teacher=False) == 0
    with pytest.raises(de.DiceError, match="attributes"):
        d6wild.skill_advance_cost("3D", attribute=True)
    assert d6wild.advance("2D+2") == Code(3, 0)


def test_sample_fields():
    s = de.sample("4D+2 vs 15", 1000, system="d6wild", seed=1)
    assert set(s) == {"total", "complication", "explosions", "success", "margin"}
    assert s["complication"].dtype == np.bool_


def test_character_point_after_the_roll():
    r = de.roll("3D+1 vs 15", system="d6wild", seed=4)
    spent = d6wild.spend_character_point(r, seed=9)
    extra = [x for x in spent.dice if x.label == "character point"]
    assert len(extra) == 1 and spent.total == r.total + extra[0].value
    assert spent.margin == spent.total - 15 and spent.success == (spent.total >= 15)
    assert "character point" in str(spent)
    with pytest.raises(de.DiceError, match="not cumulative"):
        d6wild.spend_character_point(spent)
    with pytest.raises(de.DiceError, match="not cumulative"):
        d6wild.spend_character_point(de.roll("3D", system="d6wild", character_point=True))


def dice_of(r) -> list[tuple]:
    return [(d.kind, d.value, d.kept, d.exploded, d.added, d.wild, d.label) for d in r.dice]


# ---------------------------------------------------------------- one roll, die by die


def test_a_complication_removing_the_highest_die():
    r = de.roll("3D+1", "d6wild", seed=Scripted([4, 5, 1]), complication="remove_highest")
    assert (r.total, r.outcome.complication, r.outcome.explosions) == (5, True, 0)
    assert str(r) == "3D+1: 4 + ~5~ + wild ~1~ (complication) + 1 = 5"
    assert dice_of(r) == [("d6", 4, True, False, False, False, None), ("d6", 5, False, False, False, False, None),
                          ("wild", 1, False, False, False, True, None)]
    # of two equal highest dice, one goes: the later, as the algebra's keep ranks equal dice (diceengine/algebra/draws.py)
    r = de.roll("3D", "d6wild", seed=Scripted([5, 5, 1]), complication="remove_highest")
    assert r.total == 5 and str(r) == "3D: 5 + ~5~ + wild ~1~ (complication) = 5"
    assert [d.kept for d in r.dice] == [True, False, False]
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


WILD_DEPTH = 9  # explosions of a Wild Die enumerated by hand; the mass left out is (1/6)**9 < 1e-7


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


PLAIN = {f: Fraction(1, 6) for f in range(1, 7)}


# the Wild Die: k sixes then a face 1-5 (a first 1 only flags a complication, it still counts)
WILD = {6 * k + f: Fraction(1, 6) ** (k + 1) for k in range(WILD_DEPTH) for f in range(1, 6)}


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


@pytest.mark.parametrize(("expression", "system"), [("3D", "d6"), ("3D+1 vs 15", "d6"), ("3d6", "standard")])
def test_a_character_point_is_refused_to_a_roll_of_another_system(expression, system):
    # the rules give character points to D6 with the Wild Die only: any other roll gets the engine's error
    roll = de.roll(expression, system=system, seed=1)
    with pytest.raises(de.DiceValueError, match="^only a d6wild roll takes a character point$"):
        d6wild.spend_character_point(roll)
