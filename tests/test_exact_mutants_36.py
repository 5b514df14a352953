"""The standard term's exact odds per die (``systems/standard/term/each_die.py``): the cases the session 36 mutation
draw (seed 36, 8 a module) showed no test held. Expected values are computed here from the rule, not read from the
engine."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import diceengine as de


def highest_thrown(n: int, sides: int) -> dict[int, Fraction]:
    """The highest of every die thrown by ``n`` exploding ``sides``-sided dice, each explosion its own die (d20's
    dialect, ``explosions="dice"``): a die shows the top face at least once exactly when one of the ``n`` first
    throws does; otherwise the highest is that of the ``n`` first throws, none exploding."""
    out = {k: Fraction(k, sides) ** n - Fraction(k - 1, sides) ** n for k in range(1, sides)}
    out[sides] = 1 - Fraction(sides - 1, sides) ** n
    return out


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("sides", [3, 4, 6])
def test_d20_s_keep_highest_among_every_die_thrown(n: int, sides: int) -> None:
    got = {o.total: p for o, p in de.distribution(f"{n}d{sides}!kh1", dialect="d20", explosions="dice").items()}
    expected = highest_thrown(n, sides)
    assert set(got) <= set(expected)
    for total, p in expected.items():
        assert abs(got.get(total, 0.0) - float(p)) <= 1e-12, (total, got.get(total), p)


# ------------------------------------------------------------------ pmf_keep's estimate of many convolutions at once
#: (la, lb) on each side of the two bounds of a direct convolution: 4,000,000 products, or a side under 64 entries
SIZES = [(1, 1), (63, 100_000), (64, 62_500), (64, 70_000), (70_000, 64), (65, 70_000), (2000, 2000), (2001, 2000)]


def test_the_vectorised_estimate_of_convolutions_is_the_work_each_counts() -> None:
    """``pmf_keep`` estimates many convolutions in one numpy pass: each must be the work :func:`convolve` counts
    when it runs on arrays of those lengths (direct or by FFT)."""
    from diceengine.pmf import WORK, convolve
    from diceengine.pmf_keep import _convolve_costs

    counted = []
    for la, lb in SIZES:
        before = WORK.work
        convolve(np.full(la, 1.0 / la), np.full(lb, 1.0 / lb))
        counted.append(WORK.work - before)
    estimated = _convolve_costs(np.array([la for la, _ in SIZES]), np.array([lb for _, lb in SIZES]))
    assert estimated.tolist() == counted
