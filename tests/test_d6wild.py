"""D6 with the Wild Die (text 003): exact odds against enumeration, samples, options, rules."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6 import Code
from diceengine.systems.d6wild import WildHealth, WildWound

import diceengine as de
from tests.helpers import chi2_passes

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
