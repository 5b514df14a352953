"""The sum of the dice kept by rank on a small problem, worked out on Python floats (``pmf_keep._ranks_on_floats``:
a first question's fixed cost, issue 33), against an enumeration of every throw written here, and against the
arrays of a large problem (the same placing, the other interpretation) on generated faces."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from diceengine import pmf_keep
from diceengine.pmf import WORK, keep_sum, keep_sum_cost, window_sum, window_sum_cost
from tests.test_keep_sum import enumerate_window  # every throw of the dice, ranked and summed


def uneven(rng: random.Random) -> dict[int, Fraction]:
    """A few faces (negative ones and gaps among them) with uneven chances."""
    values = rng.sample(range(-3, 9), rng.randint(2, 5))
    weights = [rng.randint(1, 5) for _ in values]
    return {v: Fraction(w, sum(weights)) for v, w in zip(values, weights)}


CASES = [(seed, n, lo, hi) for seed, (n, lo, hi) in enumerate(
    [(2, 1, 2), (3, 1, 3), (3, 0, 2), (4, 1, 3), (4, 0, 2), (4, 2, 4), (5, 1, 4), (5, 0, 3), (5, 2, 5), (4, 1, 2),
     (5, 2, 3), (3, 0, 3)])]


def ranks(faces: dict[int, Fraction], n: int, lo: int, hi: int) -> dict[int, float]:
    """The engine's sum of the ranks ``lo`` to ``hi - 1``: keep_sum at an end, window_sum between."""
    listed = [(v, float(q)) for v, q in faces.items()]
    if lo == 0:
        return dict(keep_sum(listed, n, hi, False).items())
    if hi == n:
        return dict(keep_sum(listed, n, n - lo, True).items())
    return dict(window_sum(listed, n, lo, hi).items())


@pytest.mark.parametrize("seed, n, lo, hi", CASES)
def test_small_problems_on_floats_against_every_throw(seed, n, lo, hi):
    faces = uneven(random.Random(seed))
    assert pmf_keep._small(len(faces), n, hi - lo if lo == 0 or hi == n else hi, 11 * (hi - lo) + 1)  # floats
    want = enumerate_window(faces, n, lo, hi)
    got = ranks(faces, n, lo, hi)
    assert set(got) == set(want)
    for k, q in want.items():
        assert got[k] == pytest.approx(float(q), abs=1e-14)


@pytest.mark.parametrize("seed, n, lo, hi", CASES)
def test_the_arrays_give_the_same_sums(seed, n, lo, hi, monkeypatch):
    faces = uneven(random.Random(seed))
    small = ranks(faces, n, lo, hi)
    monkeypatch.setattr(pmf_keep, "SMALL_DICE", 0)  # every problem in numpy arrays
    large = ranks(faces, n, lo, hi)
    assert set(small) == set(large)
    for k, q in large.items():
        assert small[k] == pytest.approx(q, abs=1e-15)


@pytest.mark.parametrize("sides, n, keep", [(12, 3, 2), (4, 11, 7), (6, 4, 3), (20, 3, 2), (8, 7, 3)])
def test_fair_dice_on_both_paths(sides, n, keep, monkeypatch):
    # the rows of the benchmark's slowest first questions (3d12kh2, 11d4kh7): the floats' path, then the arrays'
    faces = [(v, 1 / sides) for v in range(1, sides + 1)]
    assert pmf_keep._small(sides, n, keep, keep * (sides - 1) + 1)
    small = dict(keep_sum(faces, n, keep, True).items())
    monkeypatch.setattr(pmf_keep, "SMALL_DICE", 0)
    large = dict(keep_sum(faces, n, keep, True).items())
    assert set(small) == set(large)
    for k, q in large.items():
        assert small[k] == pytest.approx(q, abs=1e-15)
    assert sum(small.values()) == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("n, keep, lo, hi", [(4, 3, None, None), (11, 7, None, None), (5, None, 1, 4),
                                             (6, None, 2, 5)])
def test_the_estimate_of_a_small_problem_bounds_its_work(n, keep, lo, hi):
    faces = [(v, 1 / 8) for v in range(1, 9)]
    WORK.work = 0
    if keep is not None:
        keep_sum(faces, n, keep, True)
        cost = keep_sum_cost(8, n, keep, 1, 8)
    else:
        window_sum(faces, n, lo, hi)
        cost = window_sum_cost(8, n, lo, hi, 1, 8)
    assert 0 < WORK.work <= cost.work


def test_many_faces_go_to_the_arrays():
    # an exploding die's chains are many faces: a few numpy calls each are cheaper than its rows added in Python
    assert not pmf_keep._small(180, 3, 2, 2 * 180 + 1)
    assert pmf_keep._small(4, 11, 7, 7 * 3 + 1)


@pytest.mark.parametrize("offset, masses, want_offset, want", [
    (3, [0.0, 0.25, 0.0, 0.75, 0.0, 0.0], 4, [0.25, 0.0, 0.75]), (-2, [0.5, 0.5], -2, [0.5, 0.5]),
    (7, [0.0, 1.0], 8, [1.0]), (5, [0.0, 0.0], 0, [0.0]), (0, [-0.0, 0.2, -0.0], 1, [0.2])])
def test_a_small_support_from_floats_is_cut_as_from_an_array(offset, masses, want_offset, want):
    from diceengine.pmf import PMF

    got = PMF.from_floats(offset, masses)
    assert (got.offset, got.p.tolist()) == (want_offset, want)
    assert got.p.dtype.name == "float64"
