"""Small exact-odds findings (session 33's mutation run): the work of unique dice is counted, so that the budget
sees it; the estimate of each bounds it."""

from __future__ import annotations

import pytest

from diceengine.pmf import WORK
from tests.helpers import assert_estimate_bounds_work


@pytest.mark.parametrize("expression", ["4d6u", "3d6uo", "5d4u", "4d6ukh3"])
def test_unique_dice_count_their_work_within_their_estimate(expression):
    # the multiset of faces followed die by die: a step a state and face, counted in ``pmf.WORK`` (it counted
    # none: 4d6u's estimate of 504,000 units bounded nothing)
    assert_estimate_bounds_work(expression)
    assert WORK.work >= 4 * 100  # at least one step a face of the first die


def test_a_total_no_throw_reaches_has_no_chance():
    # 2d4!cf1cs4: each die's score, successes and failures in one number make long, sparse arrays; their
    # convolution by FFT gave every number between a chance of about 3e-17 (totals 0 and 1 among them)
    import diceengine as de

    totals = de.distribution("2d4!cf1cs4").marginal("total")
    assert min(t for t, p in totals.items() if p > 0) == 2
    assert totals[2] == pytest.approx(1 / 16, abs=1e-15)  # both dice show 1


def test_a_sparse_convolution_is_every_pair_exactly():
    import numpy as np

    from diceengine.pmf_core import convolve

    rng = np.random.default_rng(0)
    a, b = np.zeros(5000), np.zeros(3000)
    a[rng.choice(5000, 60, replace=False)] = rng.random(60)
    b[rng.choice(3000, 40, replace=False)] = rng.random(40)
    got = convolve(a, b)
    want = np.convolve(a, b)  # the direct sum over every pair
    assert np.array_equal(np.flatnonzero(got), np.flatnonzero(want))
    assert np.allclose(got, want, rtol=1e-14, atol=0)
