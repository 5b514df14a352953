"""A chain that explodes often, held as Python floats for a hundred rounds (issue 33: the light round of
:func:`~diceengine.algebra.chains.keyed_chains`): every round's part is a throw of one value, and the parts of
all the rounds are added at the end. Checked against the geometric law written here with exact fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from diceengine.algebra.chains import SMALL, keyed_chains, steps_of


def _count_chain(sides: int, small: int, tolerance: float) -> tuple[dict[int, float], float]:
    """A d``sides`` exploding on every face but 1, each exploding face a success: ``{successes: chance}``."""
    values = np.arange(1, sides + 1)
    scores = (values >= 2).astype(np.int64)
    steps = steps_of(scores, np.full(sides, 1 / sides), values >= 2)
    done, left = keyed_chains(steps, steps, None, False, tolerance, 200, small=small)
    return dict(done[()].items()), left


@pytest.mark.parametrize("small", [SMALL, 0])
@pytest.mark.parametrize("sides", [2, 4, 6])
def test_a_long_count_chain_is_geometric(sides: int, small: int) -> None:
    stop = Fraction(1, sides)
    go = 1 - stop
    got, left = _count_chain(sides, small, 1e-14)
    rounds = max(got)  # the chains still going after the last round are the mass left out
    assert rounds >= 40
    assert sorted(got) == list(range(rounds + 1))
    for k, p in got.items():  # k successes: k exploding throws, then a 1
        assert abs(p - float(stop * go ** k)) <= 1e-15 * max(1.0, float(stop * go ** k) * 1e3)
    assert abs(left - float(go ** (rounds + 1))) <= 1e-20
    assert float(go ** (rounds + 1)) <= 1e-14 < float(go ** rounds)


def test_the_float_path_and_the_array_path_give_the_same_bits() -> None:
    floats, left_f = _count_chain(4, SMALL, 1e-14)
    arrays, left_a = _count_chain(4, 0, 1e-14)
    assert floats.keys() == arrays.keys()
    assert max(abs(floats[k] - arrays[k]) for k in floats) <= 1e-16
    assert left_f == pytest.approx(left_a, rel=1e-12, abs=0)
