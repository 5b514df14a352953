"""``Distribution.items()`` builds a NamedTuple outcome of the very fields of its columns from the row as it is
(issue 33: the rows of a new question were most of its fixed cost): the same outcomes, in the same order, as the
outcome type's constructor builds them; another outcome type (a subclass, a dataclass, fewer columns than fields)
goes through its constructor."""

from __future__ import annotations

from typing import NamedTuple, Self

import numpy as np
import pytest

import diceengine as de
from diceengine.distributions import Distribution
from tests.helpers import clear_engine_caches


def by_constructor(dist: Distribution) -> list:
    names = list(dist.columns)
    return [(dist.outcome_type(**dict(zip(names, values))), p) for values, p in dist.rows()]


@pytest.mark.parametrize("expression, system", [("3d6kh2", "standard"), ("4d6cs6cf1", "standard"),
                                                ("2d10>=6f1+3", "standard"), ("3D+1 vs 12", "d6wild"),
                                                ("2a1p vs 2d", "ffg"), ("3d20<=12 vs 2", "d20pool")])
def test_the_same_outcomes_as_the_constructor(expression, system):
    clear_engine_caches()
    dist = de.distribution(expression, system=system)
    got = dist.items()
    want = by_constructor(dist)
    assert got == want
    assert [type(o) for o, _ in got] == [type(o) for o, _ in want]


class Pair(NamedTuple):
    a: int
    b: int = 0


class Checked(Pair):
    __slots__ = ()

    def __new__(cls, a: int, b: int = 0) -> Self:
        return super().__new__(cls, a * 10, b)


def test_a_subclass_and_fewer_columns_go_through_the_constructor():
    cols, probs = {"a": np.array([1, 2])}, np.array([0.25, 0.75])
    assert Distribution(Pair, cols, probs).items() == [(Pair(1, 0), 0.25), (Pair(2, 0), 0.75)]
    both = {"a": np.array([1, 2]), "b": np.array([3, 4])}
    assert Distribution(Checked, both, probs).items() == [(Checked(1, 3), 0.25), (Checked(2, 4), 0.75)]
    assert Distribution(Checked, both, probs).items()[0][0] == (10, 3)
    assert Distribution(Pair, both, probs).items() == [(Pair(1, 3), 0.25), (Pair(2, 4), 0.75)]


@pytest.mark.parametrize("size", [3, 64, 65, 200])
def test_an_outcome_of_chance_zero_is_left_out_on_either_side_of_the_small_path(size: int) -> None:
    # a Python pass reads the chances of a small distribution, numpy those of a larger: both leave out the zeros
    from diceengine.distributions import Distribution

    p = np.full(size, 1.0 / (size - 1))
    p[size // 2] = 0.0
    d = Distribution(int, {"total": np.arange(size)}, p)
    assert len(d) == size - 1 and size // 2 not in d.columns["total"].tolist()
    whole = Distribution(int, {"total": np.arange(size)}, np.full(size, 1.0 / size))
    assert len(whole) == size
