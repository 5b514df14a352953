"""The standard term's exact odds per die (``systems/standard/term/each_die.py``): the cases the session 36 mutation
draw (seed 36, 8 a module) showed no test held. Expected values are computed here from the rule, not read from the
engine."""

from __future__ import annotations

from fractions import Fraction

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
