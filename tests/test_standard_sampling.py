"""Bulk samples and single rolls of the standard notation against the exact odds (chi-square)."""

from __future__ import annotations

import numpy as np
import pytest

import diceengine as de
from tests.helpers import chi2_passes

EXPRESSIONS = ["3d6", "4d6kh3", "2d20kl1+5", "4dF", "1d6!", "2d6!!", "3d6r<3", "2d6ro1", "6d10>=7f1",
               "4d6!kh2", "3d10!10>=8", "(2d6+1)/1d3", "1d8*2-1d4", "1d%", "3d6dl1", "1d4!!>=3"]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_sample_matches_exact(expr):
    exact = de.distribution(expr).marginal()
    s = de.sample(expr, 40_000, seed=20261129)
    assert s["total"].shape == (40_000,)
    assert s["total"].dtype == np.int64
    assert chi2_passes(s["total"], exact)


@pytest.mark.parametrize("expr", ["3d6", "4d6kh3", "1d6!", "3d6r<3", "6d10>=7f1", "4d6!kh2", "2d6ro1"])
def test_single_rolls_match_exact(expr):
    exact = de.distribution(expr).marginal()
    rolls = [de.roll(expr, seed=i).total for i in range(6_000)]
    assert chi2_passes(rolls, exact)


def test_chi_square_catches_a_wrong_face_table():
    # a d6 whose 1 reads 2 (a misprinted face): the test must reject it
    rng = np.random.default_rng(7)
    faces = np.array([2, 2, 3, 4, 5, 6])
    wrong = faces[rng.integers(0, 6, size=(40_000, 3))].sum(axis=1)
    assert not chi2_passes(wrong, de.distribution("3d6").marginal())


def test_seeds_reproduce():
    assert de.roll("10d6", seed=3).total == de.roll("10d6", seed=3).total
    a = de.sample("4d6kh3", 1000, seed=5)["total"]
    b = de.sample("4d6kh3", 1000, seed=np.random.default_rng(5))["total"]
    assert (a == b).all()
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert [d.value for d in de.roll("5d6", seed=g1).dice] == [d.value for d in de.roll("5d6", seed=g2).dice]


def test_large_samples_are_chunked():
    s = de.sample("100d6", 200_000, seed=1)
    assert abs(s.mean() - 350) < 1
    assert de.sample("3d6", 0)["total"].shape == (0,)
    assert (de.sample("5", 4)["total"] == 5).all()
