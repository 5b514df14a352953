"""Exact odds of the standard notation against brute-force enumeration and closed forms."""

from __future__ import annotations

from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import assert_close, enumerate_dice

D = lambda s: list(range(1, s + 1))


def dist(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


@pytest.mark.parametrize(
    "expr, faces, value",
    [
        ("3d6", [D(6)] * 3, sum),
        ("2d8+1d4-2", [D(8), D(8), D(4)], lambda c: sum(c) - 2),
        ("4d6kh3", [D(6)] * 4, lambda c: sum(sorted(c)[1:])),
        ("4d6k3", [D(6)] * 4, lambda c: sum(sorted(c)[1:])),
        ("3d6kl2", [D(6)] * 3, lambda c: sum(sorted(c)[:2])),
        ("4d4dh1", [D(4)] * 4, lambda c: sum(sorted(c)[:3])),
        ("4d4dl2", [D(4)] * 4, lambda c: sum(sorted(c)[2:])),
        ("2d20kh1", [D(20)] * 2, max),
        ("2d20kl1+5", [D(20)] * 2, lambda c: min(c) + 5),
        ("4dF", [[-1, 0, 1]] * 4, sum),
        ("1d%", [D(100)], sum),
        ("5d10>=7", [D(10)] * 5, lambda c: sum(x >= 7 for x in c)),
        ("4d10>7f<=2", [D(10)] * 4, lambda c: sum(x > 7 for x in c) - sum(x <= 2 for x in c)),
        ("4d6=6", [D(6)] * 4, lambda c: sum(x == 6 for x in c)),
        ("3d6<3", [D(6)] * 3, lambda c: sum(x < 3 for x in c)),
        ("4d6kh2>=5", [D(6)] * 4, lambda c: sum(x >= 5 for x in sorted(c)[2:])),
        ("2d6*1d4", [D(6), D(6), D(4)], lambda c: (c[0] + c[1]) * c[2]),
        ("(2d6+1)/1d3", [D(6), D(6), D(3)], lambda c: (c[0] + c[1] + 1) // c[2]),
        ("-1d6/2", [D(6)], lambda c: (-c[0]) // 2),
        ("1d6-1d6", [D(6), D(6)], lambda c: c[0] - c[1]),
    ],
)
def test_matches_enumeration(expr, faces, value):
    assert_close(dist(expr), enumerate_dice(faces, value))


def test_reroll_once_matches_enumeration():
    # ro1: a first face of 1 is thrown again once and the second face stands, whatever it is
    expected: dict[int, Fraction] = {}
    for first in D(6):
        if first == 1:
            for second in D(6):
                expected[second] = expected.get(second, Fraction(0)) + Fraction(1, 36)
        else:
            expected[first] = expected.get(first, Fraction(0)) + Fraction(1, 6)
    assert_close(dist("1d6ro1"), expected)
    pair: dict[int, Fraction] = {}
    for a, pa in expected.items():
        for b, pb in expected.items():
            pair[a + b] = pair.get(a + b, Fraction(0)) + pa * pb
    assert_close(dist("2d6ro1"), pair)


def test_reroll_until_is_uniform_over_allowed_faces():
    assert_close(dist("1d6r<3"), {3: 0.25, 4: 0.25, 5: 0.25, 6: 0.25})
    assert_close(dist("2d4r1"), enumerate_dice([[2, 3, 4]] * 2, sum))


def test_closed_forms():
    d = de.distribution("4d6kh3")
    assert abs(d.mean() - 15869 / 1296) < 1e-12
    assert abs(de.distribution("1d6!").mean() - 4.2) < 1e-10
    assert abs(de.distribution("3d6").mean() - 10.5) < 1e-12
    assert abs(de.distribution("1d20").at_least(11) - 0.5) < 1e-15
    assert abs(de.distribution("2d20kh1").at_least(11) - 0.75) < 1e-15


def test_distribution_api():
    d = de.distribution("2d6")
    assert abs(sum(p for _, p in d.items()) - 1) < 1e-12
    assert abs(d.probability(lambda o: o.total == 7) - 1 / 6) < 1e-15
    assert d.truncated == 0.0
    assert de.distribution("1d6!").truncated > 0
    assert de.distribution("1d6!").truncated < 1e-12
    assert d.fields == ["total"]
    assert abs(d.variance() - 35 / 6) < 1e-12


def test_division_by_possible_zero_is_an_error():
    with pytest.raises(de.DiceValueError, match="division by zero"):
        de.distribution("1d6/(1d2-1)")
