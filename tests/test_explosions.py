"""Exploding dice of the standard notation (``!``, ``!!`` compound, ``!p`` penetrating, ``!o`` once): exact
odds against bounded enumeration written here, the truncation reported, explosions ranked die by die, successes
counted on every face, scripted rolls and chi-square samples."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import Scripted, assert_close, chi2_passes

D = lambda s: list(range(1, s + 1))


def dist(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


def exploding_chain(faces, explode_on, depth):
    """Distribution of one exploding die, chains followed level by level up to ``depth`` explosions."""
    out: dict[int, Fraction] = {}
    s = len(faces)
    going = {0: Fraction(1)}
    for level in range(depth + 1):
        nxt: dict[int, Fraction] = {}
        for total, prob in going.items():
            for f in faces:
                p = prob * Fraction(1, s)
                if f in explode_on:
                    nxt[total + f] = nxt.get(total + f, Fraction(0)) + p
                else:
                    out[total + f] = out.get(total + f, Fraction(0)) + p
        going = nxt
    return out


def test_explosion_matches_bounded_enumeration():
    by_hand = exploding_chain(D(6), {6}, 12)
    engine = dist("1d6!")
    for value, p in by_hand.items():
        assert abs(engine[value] - float(p)) < 1e-15
    # the chains deeper than 12 explosions carry (1/6)^13 of the mass
    assert abs(sum(engine.values()) - float(sum(by_hand.values()))) < 2 * (1 / 6) ** 13
    d4 = exploding_chain(D(4), {3, 4}, 30)
    engine = dist("1d4!>=3")
    for value, p in d4.items():
        if value <= 3 * 30:  # every chain reaching this total has at most 30 explosions
            assert abs(engine.get(value, 0.0) - float(p)) < 1e-15


def test_compound_and_explode_have_the_same_total():
    a, b = dist("2d6!"), dist("2d6!!")
    assert_close(a, b, 1e-12)


def test_explode_on_exact_face():
    engine = dist("1d6!3")
    assert abs(engine[4] - (1 / 6 + 1 / 36)) < 1e-15  # a 4, or a 3 then a 1
    assert 3 not in engine


def test_success_counting_with_explosions_counts_every_face():
    # 1d10!>=8: each face 8+ is a success and explodes on 10
    d = dist("1d10!10>=8")
    p_success_face, p_ten = 0.3, 0.1
    # zero successes: first face < 8
    assert abs(d[0] - 0.7) < 1e-12
    # exactly one success: 8 or 9 (0.2), or 10 then a non-success (0.1*0.7)
    assert abs(d[1] - (0.2 + p_ten * 0.7)) < 1e-12
    assert abs(sum(k * p for k, p in d.items()) - p_success_face / (1 - p_ten)) < 1e-9


def test_compound_success_tests_the_sum():
    d = dist("1d6!!6>=8")
    # a compounded d6 reaches 8+ only through a 6 followed by 2..5, or 6,6,...
    assert abs(d[1] - (1 / 6) * (4 / 6 + 1 / 6)) < 1e-12


# ---------------------------------------------------------------- exact odds against enumeration

D6_FACES = range(1, 7)


def exact(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal("total")


def one_die_explode(on: set[int], sides: int = 6, depth: int = 28, pen: int = 0) -> dict[int, Fraction]:
    """The sum of one exploding die (each added die counting ``pen`` less), to ``depth`` links."""
    out: dict[int, Fraction] = {}
    frontier = {0: Fraction(1)}
    for d in range(depth):
        nxt: dict[int, Fraction] = {}
        for total, p in frontier.items():
            for f in range(1, sides + 1):
                v = total + f - (pen if d else 0)
                q = p / sides
                if f in on:
                    nxt[v] = nxt.get(v, 0) + q
                else:
                    out[v] = out.get(v, 0) + q
        frontier = nxt
    return out


def convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] = out.get(x + y, 0) + p * q
    return out


@pytest.mark.parametrize("expr, on, pen", [("1d6!", {6}, 0), ("1d6!>=5", {5, 6}, 0), ("1d6!5", {5}, 0),
                                           ("1d6!>4", {5, 6}, 0), ("1d6!<2", {1}, 0), ("1d6!<=2", {1, 2}, 0),
                                           ("1d6!p", {6}, 1), ("1d6!!", {6}, 0), ("1d6!!p", {6}, 1),
                                           ("1d4!=4", {4}, 0), ("1d6!!>=5", {5, 6}, 0)])
def test_one_exploding_die(expr, on, pen):
    sides = int(expr[2])
    expected = one_die_explode(on, sides, pen=pen)
    assert_close(exact(expr), expected, 1e-11)
    two = convolve(expected, expected)
    assert_close(exact("2" + expr[1:]), two, 1e-11)
    assert chi2_passes(de.sample(expr, 20_000, seed=21)["total"], expected)
    rng = random.Random(5)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(3000)], expected)


def test_explosion_truncation_is_reported():
    d = de.distribution("1d6!")
    assert 0 < d.truncated < 1e-12
    assert de.distribution("1d6").truncated == 0
    assert de.distribution("1d6ra6").truncated == 0
    assert de.distribution("2d6!kh1").truncated < 1e-12


def test_explode_then_count_with_failures_and_keep():
    # 1d6!>=5>=5f1: successes of every face; a 1 (only ever the last face) subtracts
    expected: dict[int, Fraction] = {}
    for k in range(30):
        for last in range(1, 5):
            v = k - (last == 1)
            expected[v] = expected.get(v, 0) + Fraction(1, 3) ** k * Fraction(1, 6)
    assert_close(exact("1d6!>=5>=5f1"), expected, 1e-11)
    assert chi2_passes(de.sample("1d6!>=5>=5f1", 20_000, seed=6)["total"], expected)


def test_exploding_units_ranked_then_counted():
    # 2d6!kh1>=4: the unit with the higher sum is kept; each of its faces >= 4 counts
    units: dict[tuple, Fraction] = {}
    frontier = {(): Fraction(1)}
    for _ in range(12):
        nxt = {}
        for chain, p in frontier.items():
            for f in D6_FACES:
                if f == 6:
                    nxt[chain + (f,)] = p / 6
                else:
                    units[chain + (f,)] = units.get(chain + (f,), 0) + p / 6
        frontier = nxt
    expected: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(units.items(), units.items()):
        kept = a if sum(a) >= sum(b) else b
        v = sum(f >= 4 for f in kept)
        expected[v] = expected.get(v, 0) + p * q
    assert_close(exact("2d6!kh1>=4"), expected, 1e-8)
    low: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(units.items(), units.items()):
        kept = a if sum(a) <= sum(b) else b
        v = sum(f >= 4 for f in kept)
        low[v] = low.get(v, 0) + p * q
    assert_close(exact("2d6!kl1>=4"), low, 1e-8)
    assert chi2_passes(de.sample("2d6!kl1>=4", 20_000, seed=7)["total"], low)


# ---------------------------------------------------------------- explosions="dice": every die thrown ranked


def chains(sides: int, on: set[int], depth: int = 18, pen: int = 0) -> dict[tuple, Fraction]:
    """Every chain of one exploding die (the faces counted, each added die ``pen`` less) and its chance."""
    out: dict[tuple, Fraction] = {}
    frontier = {(): Fraction(1)}
    for d in range(depth):
        nxt: dict[tuple, Fraction] = {}
        for chain, p in frontier.items():
            for f in range(1, sides + 1):
                c = chain + (f - (pen if d else 0),)
                if f in on:
                    nxt[c] = p / sides
                else:
                    out[c] = p / sides
        frontier = nxt
    return out


@pytest.mark.parametrize("expr, sides, on, pen, value", [
    ("2d4!kh1", 4, {4}, 0, lambda t: max(t)),
    ("2d4!kl1", 4, {4}, 0, lambda t: min(t)),
    ("2d4!kh2", 4, {4}, 0, lambda t: sum(sorted(t)[-2:])),
    ("2d4!dh1", 4, {4}, 0, lambda t: sum(sorted(t)[:-1])),
    ("2d4!dl1", 4, {4}, 0, lambda t: sum(sorted(t)[1:])),
    ("2d4!pkh1", 4, {4}, 1, lambda t: max(t)),
    ("2d4!kh2>=3", 4, {4}, 0, lambda t: sum(f >= 3 for f in sorted(t)[-2:])),
])
def test_explosions_ranked_die_by_die(expr, sides, on, pen, value):
    one = chains(sides, on, pen=pen)
    expected: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(one.items(), one.items()):
        v = value(a + b)
        expected[v] = expected.get(v, 0) + p * q
    assert_close(exact(expr, explosions="dice"), expected, 1e-9)
    assert chi2_passes(de.sample(expr, 20_000, seed=41, explosions="dice")["total"], expected)
    rng = random.Random(12)
    assert chi2_passes([de.roll(expr, seed=rng, explosions="dice").total for _ in range(3000)], expected)


def test_the_readme_explosions_dice_example():
    # README: 4d6e6kh3 averages 12.8336 with every die ranked (d20's 12.83), 15.0432 with units
    assert de.distribution("4d6e6kh3", explosions="dice").mean() == pytest.approx(12.8336, abs=5e-5)
    assert de.distribution("4d6!kh3").mean() == pytest.approx(15.0432, abs=5e-5)


def exact_std(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


def check_three_ways(expr: str, expected: dict, n: int = 20_000, seed: int = 16, tol: float = 1e-12) -> None:
    """Exact odds equal ``expected``; a seeded sample and seeded rolls follow it (chi-square)."""
    assert_close(exact_std(expr), expected, tol)
    assert chi2_passes(de.sample(expr, n, seed=seed)["total"], expected)
    rng = random.Random(seed)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(4000)], expected)


def compound_units() -> dict[int, Fraction]:
    """The sum of one compounding d6 (``!!``), truncated where the chain mass is negligible."""
    out: dict[int, Fraction] = {}
    for sixes in range(20):
        for last in range(1, 6):
            out[6 * sixes + last] = Fraction(1, 6) ** sixes * Fraction(1, 6)
    return out


def test_compound_then_count():
    # 3d6!!6>=8: a unit succeeds when its compounded sum is >= 8: a 6 then anything but a 1
    p = Fraction(5, 36)
    assert sum(q for v, q in compound_units().items() if v >= 8) == pytest.approx(float(p), abs=1e-14)
    expected = {k: Fraction(3 if k in (1, 2) else 1) * p**k * (1 - p) ** (3 - k) for k in range(4)}
    check_three_ways("3d6!!6>=8", expected, tol=1e-11)


def test_explode_then_count_counts_every_face():
    # 1d6!>=5: every face of the chain that is >= 5 counts: successes = number of explosions + (last >= 5)
    # a chain is k exploding faces (5 or 6, each 1/3) then a face 1..4 (never a success)
    expected = {k: Fraction(1, 3) ** k * Fraction(2, 3) for k in range(30)}
    assert_close(exact_std("1d6!>=5>=5"), expected, 1e-11)
    assert chi2_passes(de.sample("1d6!>=5>=5", 20_000, seed=4)["total"], expected)


# ---------------------------------------------------------------- explosion bound


def test_explosion_chain_exactly_at_the_bound():
    # 200 explosions from one die are allowed, the 201st is refused (README: 200 explosions from one die)
    r = de.roll("1d6!", seed=Scripted([6] * 200 + [1]))
    assert r.total == 1201
    assert sum(d.exploded for d in r.dice) == 200
    with pytest.raises(de.DiceLimitError):
        de.roll("1d6!", seed=Scripted([6] * 201 + [1]))
    r = de.roll("1d6!!", seed=Scripted([6] * 200 + [2]))
    assert r.total == 1202


def test_compound_and_count_agree_with_the_rule_on_one_roll():
    r = de.roll("3d6!!6>=8", seed=Scripted([6, 1, 6, 2, 3]))  # units 7, 8, 3
    assert r.total == 1
    r = de.roll("3d6!>=5", seed=Scripted([6, 5, 1, 2, 5, 4]))  # no count: the faces add up
    assert r.total == 6 + 5 + 1 + 2 + 5 + 4


def dist_notation(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal("total")


# ------------------------------------------------------------------ 7. penetrate, sort, unique, criticals, keep/drop
def chain(faces, explode_on, penalty, depth=12):
    """One exploding die, chains followed to ``depth`` explosions, each added die counting ``penalty`` less."""
    out: dict = {}
    going = {0: Fraction(1)}
    for level in range(depth):
        nxt: dict = {}
        for total, prob in going.items():
            for f in faces:
                v = total + f - (penalty if level else 0)
                p = prob / len(faces)
                target = nxt if f in explode_on else out
                target[v] = target.get(v, Fraction(0)) + p
        going = nxt
    return out


def test_penetrating_explosion():
    assert_close(dist_notation("1d4!p"), chain(D(4), {4}, 1), tol=1e-6)
    one = chain(D(3), {3}, 1)
    two: dict = {}
    for a, pa in one.items():
        for b, pb in one.items():
            two[a + b] = two.get(a + b, 0) + pa * pb
    assert_close(dist_notation("2d3!p"), two, tol=1e-6)
    assert_close(dist_notation("1d6!!p"), chain(D(6), {6}, 1), tol=1e-6)
    assert_close(dist_notation("1d6!p>=5"), chain(D(6), {5, 6}, 1, depth=30), tol=1e-9)
    # rpg-dice-roller's example: [6!p, 5!p, 5!p, 3] is 6 + 5 + 5 + 3 thrown as 6, 6, 6, 4
    for seed in range(300):
        r = de.roll("1d6!p", seed=seed)
        if len(r.dice) > 1:
            assert all(d.value <= 5 for d in r.dice[1:]) and r.total == sum(d.value for d in r.dice)
            break


def test_chi_square_catches_a_wrong_penetration():
    # explosions that forget to count each added die one less: the test must reject them
    wrong = de.sample("1d4!", 30_000, seed=1)["total"]
    assert not chi2_passes(wrong, dist_notation("1d4!p"))
