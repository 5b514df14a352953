"""Roll20's several re-roll points on one die: ``2d8r8r1`` re-rolls a die showing 8 or 1 (until it shows neither);
``ro`` points re-roll once. Enumerations written here, samples and rolls by a chi-square."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice


def _once(sides: int, hit) -> dict:
    """One die re-rolled once when it meets ``hit``: the first face if it misses, else a second throw."""
    out: dict = {}
    for f in range(1, sides + 1):
        if hit(f):
            for g in range(1, sides + 1):
                out[g] = out.get(g, 0) + Fraction(1, sides * sides)
        else:
            out[f] = out.get(f, 0) + Fraction(1, sides)
    return out


def _weighted(one: dict, n: int) -> dict:
    out: dict = {0: Fraction(1)}
    for _ in range(n):
        new: dict = {}
        for s, p in out.items():
            for f, q in one.items():
                new[s + f] = new.get(s + f, 0) + p * q
        out = new
    return out


@pytest.mark.parametrize("expr, one, n", [
    ("2d8r8r1", {f: Fraction(1, 6) for f in range(2, 8)}, 2),          # Roll20's example
    ("3d6r<2r>5", {f: Fraction(1, 4) for f in range(2, 6)}, 3),
    ("2d8ro8ro1", _once(8, lambda f: f in (1, 8)), 2),
    ("2d10r1r=10r5", {f: Fraction(1, 7) for f in (2, 3, 4, 6, 7, 8, 9)}, 2),
])
def test_several_re_roll_points(expr, one, n):
    expected = _weighted(one, n)
    exact = de.distribution(expr).marginal()
    assert_close(exact, expected, tol=1e-12)
    assert chi2_passes(de.sample(expr, 20_000, seed=7)["total"], exact)
    rolled = Counter(de.roll(expr, seed=s).total for s in range(2000))
    assert chi2_passes(list(rolled.elements()), exact)


def test_several_points_with_keep_and_successes():
    one = {f: Fraction(1, 6) for f in range(2, 8)}
    exact = de.distribution("2d8r8r1kh1").marginal()
    assert_close(exact, enumerate_dice([list(range(2, 8))] * 2, max))
    assert exact == pytest.approx({v: float(p) for v, p in enumerate_dice([list(one)] * 2, max).items()})
    assert_close(de.distribution("2d8r8r1>4").marginal(), enumerate_dice([list(range(2, 8))] * 2,
                                                                           lambda f: sum(x > 4 for x in f)))


@pytest.mark.parametrize("expr, column", [("2d8r8ro1", 5), ("1d4r1r2r3r4", 3)])
def test_mixed_or_endless_re_roll_points_are_refused_with_a_caret(expr, column):
    with pytest.raises(de.DiceError) as err:
        de.roll(expr, seed=1)
    assert err.value.column == column
