"""The exact odds' work counter and cost estimates where the mutation run (``python -m tests.mutation
diceengine/pmf_core.py diceengine/pmf_keep.py``) found them unchecked. Expected values are counted by hand: a direct
convolution of ``a`` and ``b`` entries does ``a * b`` multiply-adds, a sum of ``n`` copies of a support of ``L``
values spans ``(L - 1) * n + 1``, an FFT of size ``N`` does about ``N log2 N`` butterflies; each estimate must bound
the work so counted and stay within a stated factor of it."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from diceengine.errors import DiceLimitError
from diceengine.limits import NUMPY_CALL, PYTHON_STEP
from diceengine.pmf import (
    PMF,
    WORK,
    convolve,
    keep_dp,
    keep_dp_cost,
    keep_sum,
    keep_sum_cost,
    power_cost,
    rank_dp_cost,
    window_sum,
    window_sum_cost,
)


@pytest.fixture
def counted():
    """The work counter, from zero (restored after)."""
    before = WORK.work
    WORK.work = 0.0
    yield WORK
    WORK.work = before


@pytest.mark.parametrize("la, lb", [(1, 1), (3, 5), (63, 100_000), (100_000, 63), (2000, 2000), (100, 100)])
def test_a_direct_convolution_counts_its_multiply_adds_and_one_call(counted, la, lb):
    a, b = np.full(la, 1.0 / la), np.full(lb, 1.0 / lb)
    out = convolve(a, b)
    assert len(out) == la + lb - 1
    assert counted.work == la * lb + NUMPY_CALL  # every product once, and the call's overhead
    convolve(a, b)
    assert counted.work == 2 * (la * lb + NUMPY_CALL)  # the counter adds up


@pytest.mark.parametrize("la, lb, size", [(3000, 3000, 8192), (64, 70_000, 131_072), (2001, 2000, 4096)])
def test_a_large_convolution_goes_by_fft_and_counts_about_n_log_n(counted, la, lb, size):
    """Past 4,000,000 products with both arrays of at least 64 entries: by FFT, of the power of 2 that holds the
    ``la + lb - 1`` results."""
    rng = np.random.default_rng(1)
    a, b = rng.random(la), rng.random(lb)
    a[1::2] = 0.0  # even entries only: every odd result is exactly zero, which rounding must not make negative
    b[1::2] = 0.0
    out = convolve(a, b)
    want = np.convolve(a, b)
    assert len(out) == len(want)
    assert np.allclose(out, want, rtol=1e-9, atol=1e-9)
    assert (out >= 0.0).all()
    assert (out[1::2] == 0.0).any()
    butterflies = 3 * size * math.log2(size)  # two forward transforms and one inverse
    assert butterflies <= counted.work <= 3 * butterflies + NUMPY_CALL


@pytest.mark.parametrize("length, n", [(6, 1), (6, 2), (6, 3), (6, 7), (20, 10), (2, 13), (1, 5)])
def test_the_estimate_of_a_power_is_the_work_its_convolutions_count(counted, length, n):
    die = PMF(1, np.full(length, 1.0 / length))
    total = die.power(n)
    cost, result = power_cost(length, n)
    assert result == (length - 1) * n + 1  # the sums of n dice of `length` values
    assert len(total.p) == result
    assert cost.work == counted.work  # the same convolutions, of the same lengths


def _kept_by_hand(faces: dict[int, float], n: int, keep: int, highest: bool) -> dict[int, float]:
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = math.prod(faces[v] for v in throw)
        out[sum(sorted(throw, reverse=highest)[:keep])] += p
    return dict(out)


@pytest.mark.parametrize("sides, n, keep", [(6, 4, 3), (10, 5, 2), (20, 4, 3)])
def test_keep_sum_against_every_throw_counts_at_least_its_multiply_adds(counted, sides, n, keep):
    """Per face, ``keep_sum`` adds ``keep - c + 1`` rows of the sums to rows ``c`` below for ``c = 1 .. keep`` and
    weighs all ``keep + 1`` rows: ``keep * (keep + 1) / 2 + keep + 1`` rows of ``keep * (sides - 1) + 1`` sums each,
    a multiply and an add per sum, and a numpy call per row placed."""
    faces = [(v, 1.0 / sides) for v in range(1, sides + 1)]
    got = keep_sum(faces, n, keep, True)
    want = _kept_by_hand(dict(faces), n, keep, True)
    assert set(dict(got.items())) == set(want)
    for k, q in want.items():
        assert got.prob(k) == pytest.approx(q, abs=1e-12)
    span = keep * (sides - 1) + 1
    flops = sides * (keep * (keep + 1) / 2 + keep + 1) * span * 2
    assert counted.work == keep_sum_cost(sides, n, keep, 1, sides).work  # keep_sum counts its own estimate
    assert counted.work >= flops + sides * (keep + 1) * NUMPY_CALL


@pytest.mark.parametrize("sides, n, keep", [(100, 10, 10), (100, 12, 8), (60, 20, 12)])
def test_keep_sums_estimate_is_within_twice_its_multiply_adds_where_they_dominate(sides, n, keep):
    """Wide sums (``10d100kh10``...), where the sums' multiply-adds outweigh the numpy calls: the estimate is at
    most twice the work counted by hand above (measured: 1.6 to 1.7 times)."""
    span = keep * (sides - 1) + 1
    flops = sides * (keep * (keep + 1) / 2 + keep + 1) * span * 2
    calls = sides * (keep + 1) * NUMPY_CALL
    assert flops > 5 * calls
    assert flops + calls <= keep_sum_cost(sides, n, keep, 1, sides).work <= 2 * (flops + calls)


@pytest.mark.parametrize("keys, n, keep", [(10, 6, 3), (20, 10, 5), (200, 6, 3), (300, 5, 4), (100, 8, 6)])
def test_keep_dps_estimate_of_the_sums_it_places_is_within_a_quarter_of_their_counted_work(counted, keys, n, keep):
    """``keep_dp`` counts its own steps (for scores of one value each: a span of 1) and each sum it places by its
    convolution: the estimate's part for the sums (``sums`` less without, the kept sums spanning every key) bounds
    what the convolutions count, within a quarter more (measured: 1.06 to 1.12 times)."""
    units = [(k, 1.0 / keys, PMF.point(k)) for k in range(keys)]
    own = keep_dp_cost(keys, n, keep, 1, sums=False).work
    sums = keep_dp_cost(keys, n, keep, keys, 1).work - keep_dp_cost(keys, n, keep, keys, 1, sums=False).work
    got = keep_dp(units, n, keep, True)
    placed = counted.work - own
    assert 0 < placed <= sums <= 1.25 * placed, sums / placed
    if keys ** n <= 10**6:  # and the sum of the highest, against every throw
        want = _kept_by_hand({k: 1.0 / keys for k in range(keys)}, n, keep, True)
        for total, q in want.items():
            assert got.prob(total) == pytest.approx(q, abs=1e-12)


def test_the_binomial_weights_of_a_window_over_many_dice_are_counted(counted):
    """``window_sum`` over 10,000 dice of two faces: the chance of each count of dice showing a face, for each of
    the ``hi`` rows of dice placed and each count 0 .. n, is at least six array operations a face (powers,
    products, the reach summed) after a row of binomial coefficients computed in Python, which the estimate must
    count; the sum itself against the binomial law."""
    n, lo, hi, p0 = 10_000, 1, 3, 0.0003
    got = window_sum([(0, p0), (1, 1.0 - p0)], n, lo, hi)  # the second and third lowest of n coins
    zeros = [math.comb(n, k) * p0**k * (1 - p0) ** (n - k) for k in range(2)]
    want = {0: 1.0 - sum(zeros) - math.comb(n, 2) * p0**2 * (1 - p0) ** (n - 2),
            1: math.comb(n, 2) * p0**2 * (1 - p0) ** (n - 2), 2: sum(zeros)}
    for total, q in want.items():
        assert got.prob(total) == pytest.approx(q, abs=1e-9)
    estimate = window_sum_cost(2, n, lo, hi, 0, 1).work
    assert counted.work == estimate
    weights = 6 * 2 * hi * (n + 1) + (n - hi + 1) * PYTHON_STEP  # and the first row of the table, in Python
    assert weights <= estimate <= 2 * weights  # measured: 1.34 times


@pytest.mark.parametrize("steps, n, states, span", [(10, 3, 2, 1), (40, 4, 3, 6), (7, 1, 1, 2)])
def test_rank_dps_estimate_holds_its_two_tables(steps, n, states, span):
    """``rank_dp`` holds, old and new, a sum of at most ``n * (span - 1) + 1`` values for each (dice placed, rule
    state): one value each when a die's score is one value."""
    cost = rank_dp_cost(steps, n, states, span)
    size = n * (span - 1) + 1
    assert cost.cells >= 2 * (n + 1) * states * size
    assert cost.work >= steps * 3 * size


def test_a_far_support_of_few_values_is_accepted_and_a_wide_one_refused():
    far = PMF.from_counts([1_500_000, 1_500_001])  # two values, far from 0
    assert far.items() == [(1_500_000, 0.5), (1_500_001, 0.5)]
    with pytest.raises(DiceLimitError, match="too many possible results"):
        PMF.from_counts([-1_000_000, 1_000_001])  # 2,000,002 values


def test_a_window_of_two_dice_spanning_most_of_the_largest_support_is_computed():
    """The middle two of four dice showing 0 or 700,000: sums of 0, 700,000 or 1,400,000 (1,400,001 values, within
    the 2,000,000 allowed); a die of the window at 700,000 when at least 2 (then 3) of the 4 are."""
    top = 700_000
    got = window_sum([(0, 0.5), (top, 0.5)], 4, 1, 3)
    assert got.items() == [(0, pytest.approx(5 / 16)), (top, pytest.approx(6 / 16)), (2 * top, pytest.approx(5 / 16))]
