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
