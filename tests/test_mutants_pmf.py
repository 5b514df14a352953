"""Dynamic programmes of ``diceengine/pmf.py`` on the edges of their contract (issue 16): a key of
probability zero among the units, no units at all, costs of keeping nothing. Expected values are
enumerated here."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from diceengine.pmf import PMF, keep_dp, keep_dp_cost, keep_sum, keep_sum_cost, keep_window, rank_dp


def enumerate_kept(faces: dict[int, float], n: int, lo: int, hi: int, highest: bool) -> Counter:
    """Sum of the dice ranked ``lo`` .. ``hi - 1`` (highest first or lowest first) over every throw."""
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = 1.0
        for v in throw:
            p *= faces[v]
        if p:
            out[sum(sorted(throw, reverse=highest)[lo:hi])] += p
    return out


def as_counter(pmf: PMF) -> Counter:
    return Counter(dict(pmf.items()))


def assert_same(got: Counter, want: Counter) -> None:
    assert set(got) == set(want)
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12)


# a die whose two highest faces cannot come up: at the third key the rest of the mass is all in it (the
# binomial share of that key is exactly 1 and every split but "all of them" weighs exactly 0); at the fourth,
# no mass is left at all (no share to divide)
FACES = {1: 0.25, 2: 0.25, 3: 0.5, 4: 0.0, 5: 0.0}


@pytest.mark.parametrize("n", [2, 3])
def test_rank_dp_past_a_key_of_probability_zero(n):
    units = [(v, q, PMF.point(v)) for v, q in FACES.items()]
    keep_all = rank_dp(units, n, lambda state, key, below, count: (None, count))
    assert_same(as_counter(keep_all), enumerate_kept(FACES, n, 0, n, True))
    # the two lowest: the rule counts the dice below
    lowest = rank_dp(units, n, lambda state, key, below, count: (None, max(0, min(count, 2 - below))))
    assert_same(as_counter(lowest), enumerate_kept(FACES, n, 0, 2, False))


@pytest.mark.parametrize(("lo", "hi", "highest"), [(0, 1, True), (0, 2, False), (1, 3, True), (0, 3, False)])
def test_keep_window_and_keep_sum_past_a_key_of_probability_zero(lo, hi, highest):
    units = [(v, q, PMF.point(v)) for v, q in FACES.items()]
    want = enumerate_kept(FACES, 3, lo, hi, highest)
    assert_same(as_counter(keep_window(units, 3, lo, hi, highest_first=highest)), want)
    if lo == 0:
        assert_same(as_counter(keep_sum(list(FACES.items()), 3, hi, highest)), want)
        reordered = {5: 0.0, 4: 0.0, 3: 0.5, 2: 0.25, 1: 0.25}   # the zero key visited first instead
        assert_same(as_counter(keep_sum(list(reordered.items()), 3, hi, not highest)),
                    enumerate_kept(FACES, 3, lo, hi, not highest))


def test_dice_without_any_key_have_no_mass():
    assert keep_window([], 2, 0, 1).mass == 0.0
    assert rank_dp([], 2, lambda state, key, below, count: (None, count)).mass == 0.0


def test_keeping_nothing_costs_the_same_whatever_the_scores():
    """Keeping no die (or fewer than none) fills one cell per state, however wide a die's scores."""
    def cost(keep: int, span: int) -> tuple[float, float]:
        c = keep_dp_cost(6, 4, keep, span)
        return c.work, c.cells

    assert cost(0, 20) == cost(0, 1) == cost(-2, 20)
    assert cost(9, 20) == cost(4, 20)   # keeping more dice than thrown
    assert cost(2, 20) > cost(1, 20) > cost(0, 20)


def test_keep_sum_cost_counts_the_steps_of_its_loops():
    """keep_sum visits, for each face, each count of kept dice showing it (0..keep), each moving the rows of the
    dice placed: the estimate grows with the faces, each step costing work in proportion to the array it shifts."""
    for faces, n, keep in ((1, 1, 1), (3, 2, 1), (6, 4, 3), (10, 7, 2)):
        cheap = keep_sum_cost(faces, n, keep, 0, 1)  # a small array: the steps' fixed cost mostly
        more, most = keep_sum_cost(2 * faces, n, keep, 0, 1), keep_sum_cost(3 * faces, n, keep, 0, 1)
        assert most.work - more.work == pytest.approx(more.work - cheap.work)  # each face its steps
        assert more.work > cheap.work
        wide = keep_sum_cost(faces, n, keep, 0, 100_001)
        # doubling the array nearly doubles the work of every step
        wider = keep_sum_cost(faces, n, keep, 0, 200_001)
        assert (wider.work - cheap.work) == pytest.approx(2 * (wide.work - cheap.work), rel=1e-3)
        assert wide.work > 10 * cheap.work


def test_keep_dp_estimate_holds_its_table():
    """Six keys scoring 1 to 6 (each a single value): the estimate for a score span of 6 holds the table
    built (one row per count of dice placed, the sums of the dice kept), and the odds are enumerated."""
    units = [(v, 1 / 6, PMF.point(v)) for v in range(1, 7)]
    for n, keep in ((3, 2), (6, 3), (8, 8)):
        result = keep_dp(units, n, keep, True)
        cost = keep_dp_cost(6, n, keep, 6)
        assert cost.cells >= len(result.p) * (n + 1)
        if n <= 6:
            want = enumerate_kept(dict.fromkeys(range(1, 7), 1 / 6), n, 0, keep, True)
            assert dict(result.items()) == pytest.approx(dict(want), abs=1e-12)