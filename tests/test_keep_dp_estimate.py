"""The estimate of keep / drop on scored or marked dice (``keep_dp``) bounds the work counted, the sums its steps
place (convolutions and powers) included: ``4d6>=4kh2`` was estimated 1.019 times under its counted work,
``5d10>=8f1dl2`` 1.025 times."""

from __future__ import annotations

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import PMF, WORK, keep_dp, keep_dp_cost
from tests.helpers import clear_engine_caches


@pytest.mark.parametrize("expr", ["4d6>=4kh2", "5d10>=8f1dl2", "4d6kh3cs", "6d10>=7kh3", "10d10>=8f1dl3",
                                  "4d6cs>5kh2", "20d10>=8f1dl3", "10d6cs>=5kh5", "20d20>=15kh10"])
def test_the_estimate_bounds_the_counted_work(expr):
    clear_engine_caches()
    cost = api.plan(expr, "standard").exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert WORK.work <= cost.work
    assert WORK.work >= 0.5 * cost.work  # and stays near it


@pytest.mark.parametrize("expr", ["4d6!cs6kh3", "3d6!cs6kh2", "4d6!>4>=5kh2", "6d6!!kh3>=4", "5d6!>=4kh2"])
def test_with_explosions_the_chains_estimate_covers_the_sums(expr):
    """Exploding units: the estimate of their chains leaves room for the sums keep_dp places (not bounded apart)."""
    clear_engine_caches()
    cost = api.plan(expr, "standard").exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert WORK.work <= cost.work


@pytest.mark.parametrize("n, keep, span", [(4, 2, 2), (10, 3, 3), (7, 7, 2), (12, 1, 5), (6, 4, 11)])
def test_keep_dp_alone(n, keep, span):
    score = PMF(0, np.full(span, 1.0 / span))
    units = [(k, 1.0 / 3, score) for k in range(3)]
    WORK.work = 0
    keep_dp(units, n, keep, True)
    assert WORK.work <= keep_dp_cost(3, n, keep, span).work
