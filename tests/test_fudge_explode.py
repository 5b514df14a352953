"""rpg-dice-roller's explosions on Fudge dice with the compare point ``<>`` (every face but one): ``4dF!<>0``
explodes on -1 and +1, ``!!<>0`` compounds (each new face tested, as its ExplodeModifier does), ``!p<>0``
penetrates (an added die counts one less, the face thrown is tested). Exact odds against chains enumerated
here, rolls, a chi-square of samples against the odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes

FUDGE = (-1, 0, 1)


def by_total(expr: str) -> dict:
    return de.distribution(expr).marginal()


def chains(depth: int, penetrate: bool = False) -> dict:
    """One Fudge die exploding on every face but 0: its sum over every chain up to ``depth`` faces, by chance
    (the chains still going, a face -1 or +1 each, followed as a distribution of their sums)."""
    out: dict = {0: Fraction(1, 3)}  # a first face 0: no explosion
    going = {-1: Fraction(1, 3), 1: Fraction(1, 3)}
    pen = 1 if penetrate else 0
    for _ in range(depth - 1):
        nxt: dict = {}
        for total, p in going.items():
            out[total - pen] = out.get(total - pen, Fraction(0)) + p / 3  # a 0 ends the chain
            for f in (-1, 1):
                nxt[total + f - pen] = nxt.get(total + f - pen, Fraction(0)) + p / 3
        going = nxt
    return out


def dice(unit: dict, count: int) -> dict:
    out = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict = {}
        for a, p in out.items():
            for b, q in unit.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        out = nxt
    return out


@pytest.mark.parametrize("expr, penetrate, count", [
    ("1dF!<>0", False, 1), ("3dF!<>0", False, 3), ("2dF!!<>0", False, 2), ("2dF!p<>0", True, 2),
])
def test_the_exact_odds_match_enumerated_chains(expr, penetrate, count):
    assert_close(by_total(expr), dice(chains(90, penetrate), count), tol=1e-8)


def test_rolls_explode_on_every_face_but_zero():
    for seed in range(40):
        r = de.roll("3dF!<>0", seed=seed)
        values = [d.value for d in r.dice]
        assert r.total == sum(values)
        assert all(d.exploded == (d.value != 0) for d in r.dice)
        assert values.count(0) == 3  # every chain ends on a 0


@pytest.mark.parametrize("expr", ["3dF!<>0", "2dF!p<>0", "2dF!!<>0"])
def test_samples_agree_with_the_exact_odds(expr):
    exact = by_total(expr)
    assert chi2_passes(de.sample(expr, 6000, seed=8)["total"], exact), expr
