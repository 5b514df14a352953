"""The sum of the dice kept (``diceengine.pmf.keep_sum``, issue 25: the rows of dice placed stop at the dice
kept) against enumerations written here: exact fractions over every throw, a truncated die, more dice than
fit the binomial coefficients in floats (the order-statistics formula of the highest die)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK, keep_sum, keep_sum_cost, window_sum
from tests.helpers import assert_estimate_bounds_work, clear_engine_caches


def enumerate_kept(faces: dict[int, Fraction], n: int, keep: int, highest: bool) -> dict[int, Fraction]:
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = Fraction(1)
        for v in throw:
            p *= faces[v]
        out[sum(sorted(throw, reverse=highest)[:keep])] += p
    return {k: v for k, v in out.items() if v}


def close(got: dict[int, float], want: dict[int, Fraction], tol: float = 1e-13) -> None:
    assert set(got) == set(want)
    for k, q in want.items():
        assert got[k] == pytest.approx(float(q), abs=tol)


UNEVEN = {-2: Fraction(1, 10), 0: Fraction(3, 10), 1: Fraction(1, 5), 4: Fraction(2, 5)}


@pytest.mark.parametrize("n, keep", [(1, 1), (2, 1), (3, 2), (4, 1), (4, 2), (4, 3), (5, 2), (5, 4), (3, 7)])
@pytest.mark.parametrize("highest", [True, False])
def test_against_every_throw(n, keep, highest):
    faces = [(v, float(q)) for v, q in UNEVEN.items()]
    got = dict(keep_sum(faces, n, keep, highest).items())
    close(got, enumerate_kept(UNEVEN, n, min(keep, n), highest))


@pytest.mark.parametrize("expression, sides, n, keep, highest",
                         [("4d6kh3", 6, 4, 3, True), ("5d4kl2", 4, 5, 2, False), ("6d3dl2", 3, 6, 4, True),
                          ("5d5dh3", 5, 5, 2, False)])
def test_dice_terms_against_every_throw(expression, sides, n, keep, highest):
    want = enumerate_kept({v: Fraction(1, sides) for v in range(1, sides + 1)}, n, keep, highest)
    clear_engine_caches()
    close(de.distribution(expression).marginal("total"), want)


def test_a_truncated_die_is_shared_out_as_before():
    # faces whose chances sum to less than 1 (an explosion's chains cut short): each face's share of the total
    faces = {1: Fraction(3, 10), 2: Fraction(3, 10), 5: Fraction(3, 10)}  # 0.9 in all
    scaled = {v: q / Fraction(9, 10) for v, q in faces.items()}
    got = dict(keep_sum([(v, float(q)) for v, q in faces.items()], 4, 2, True).items())
    close(got, enumerate_kept(scaled, 4, 2, True))


def test_faces_of_no_chance_before_and_after():
    faces = {1: Fraction(1, 2), 2: Fraction(0), 3: Fraction(1, 2), 9: Fraction(0)}
    want = enumerate_kept({1: Fraction(1, 2), 3: Fraction(1, 2)}, 4, 3, True)
    for highest in (True, False):
        ordered = sorted(faces.items(), reverse=not highest)
        got = dict(keep_sum([(v, float(q)) for v, q in ordered], 4, 3, True).items())
        close(got, want)


@pytest.mark.parametrize("n", [50, 1100, 2500])  # past 1030 dice the binomial coefficients leave float range
def test_the_highest_of_many_dice(n):
    sides = 3
    got = dict(keep_sum([(v, 1 / sides) for v in range(1, sides + 1)], n, 1, True).items())
    want = {v: Fraction(v, sides) ** n - Fraction(v - 1, sides) ** n for v in range(1, sides + 1)}
    want = {v: q for v, q in want.items() if float(q) > 0}
    for v, q in want.items():
        assert got.get(v, 0.0) == pytest.approx(float(q), rel=1e-9, abs=1e-300)
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


def test_exploding_dice_kept_against_their_chains():
    # 3d4!kh2: a die's chain of throws (up to 25 explosions: the rest weighs 4^-26), three dice, two kept
    chains: dict[int, Fraction] = {}
    for k in range(26):
        for last in range(1, 4):
            chains[4 * k + last] = chains.get(4 * k + last, Fraction(0)) + Fraction(1, 4) ** (k + 1)
    want: Counter = Counter()
    items = list(chains.items())
    for throw in itertools.product(items, repeat=3):
        p = throw[0][1] * throw[1][1] * throw[2][1]
        want[sum(sorted((v for v, _ in throw), reverse=True)[:2])] += p
    clear_engine_caches()
    got = de.distribution("3d4!kh2").marginal("total")
    for k, q in want.items():
        assert got.get(k, 0.0) == pytest.approx(float(q), abs=1e-12)


@pytest.mark.parametrize("expression", ["4d6kh3", "30d6kh10", "10d10kh5", "5d20kl2", "20d6dl5", "5d10!!kh3",
                                        "10d10!!kh5", "1100d3kh2"])
def test_the_estimate_bounds_the_work_counted(expression):
    assert_estimate_bounds_work(expression)


def test_the_estimate_grows_with_the_dice_kept_not_with_the_dice_thrown_squared():
    # the rows of dice placed stop at the dice kept: 100 dice keeping 3 cost far less than keeping 50
    few, many = keep_sum_cost(6, 100, 3, 1, 6), keep_sum_cost(6, 100, 50, 1, 6)
    assert 10 * few.work < many.work
    assert keep_sum_cost(6, 100, 3, 1, 6).work < 3 * keep_sum_cost(6, 10, 3, 1, 6).work
    assert keep_sum_cost(6, 4, 0, 1, 6).work == 0


def enumerate_window(faces: dict[int, Fraction], n: int, lo: int, hi: int) -> dict[int, Fraction]:
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = Fraction(1)
        for v in throw:
            p *= faces[v]
        out[sum(sorted(throw)[lo:hi])] += p
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("n, lo, hi", [(3, 1, 2), (4, 1, 3), (5, 1, 4), (5, 2, 3), (6, 1, 5), (5, 0, 2), (5, 3, 5),
                                       (4, 0, 4), (4, 2, 2)])
def test_a_window_against_every_throw(n, lo, hi):
    faces = [(v, float(q)) for v, q in UNEVEN.items()]
    got = dict(window_sum(faces, n, lo, hi).items())
    close(got, enumerate_window(UNEVEN, n, lo, hi) if hi > lo else {0: Fraction(1)})


@pytest.mark.parametrize("expression, sides, n, lo, hi", [("4d6dl1dh1", 6, 4, 1, 3), ("6d4dl1dh3", 4, 6, 1, 3),
                                                          ("5d5dh1dl2", 5, 5, 2, 4)])
def test_middle_dice_terms_against_every_throw(expression, sides, n, lo, hi):
    want = enumerate_window({v: Fraction(1, sides) for v in range(1, sides + 1)}, n, lo, hi)
    clear_engine_caches()
    close(de.distribution(expression).marginal("total"), want)


@pytest.mark.parametrize("expression", ["4d6dl1dh1", "12d20dl4dh5", "11d12dl4dh2", "30d6dl10dh10"])
def test_the_window_estimate_bounds_the_work_counted(expression):
    clear_engine_caches()
    cost = api.plan(expression).exact_cost()
    WORK.work = 0
    de.distribution(expression)
    assert 0 < WORK.work <= cost.work
