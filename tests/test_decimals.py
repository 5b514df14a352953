"""Decimal literals (``1.5``, ``.5``, ``0.20``: exact fractions) and rpg-dice-roller's decimal per-die maximum /
minimum (``6d%max50.45``): rolls with their text, samples, exact odds against enumerations written here."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from diceengine.systems.standard.exact import show

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice

EXACT = {"division": "exact"}


def _exact(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal()


def _fractions(samples) -> list:
    """Sampled fractions (floats) read back as the fractions they round."""
    return [Fraction(v).limit_denominator(10**6) for v in samples.tolist()]


@pytest.mark.parametrize("expr, value", [
    ("1.5", Fraction(3, 2)), ("0.5", Fraction(1, 2)), (".5", Fraction(1, 2)), ("0.20", Fraction(1, 5)),
    ("1.25+0.75", 2), ("2*0.5", 1), ("-1.5", Fraction(-3, 2)), ("3.0", 3), ("0.1+0.2", Fraction(3, 10)),
])
def test_a_decimal_is_its_exact_fraction(expr, value):
    assert _exact(expr) == {value: 1.0}
    assert de.roll(expr, seed=1).total == value
    assert de.sample(expr, 4, seed=1)["total"].tolist() == pytest.approx([float(value)] * 4, rel=1e-15)


def test_the_text_shows_the_decimal_as_written_and_the_total_as_a_decimal():
    r = de.roll("1d20*0.20", seed=3)
    assert str(r) == f"1d20*0.20: [{r.dice[0].value}] * 0.20 = {show(Fraction(r.dice[0].value, 5))}"
    assert str(de.roll("0.1+0.2", seed=1)).endswith("= 0.3")
    assert str(de.roll("15/2", seed=1, **EXACT)).endswith("= 7.5")
    assert str(de.roll("2/3", seed=1, **EXACT)).endswith("= 2/3")


@pytest.mark.parametrize("value, text", [
    (Fraction(15, 2), "7.5"), (Fraction(1009, 20), "50.45"), (Fraction(-1, 20), "-0.05"), (Fraction(2, 3), "2/3"),
    (7, "7"), (Fraction(4, 1), "4"), (Fraction(1, 1000), "0.001"), (2.5, "2.5"),
])
def test_show(value, text):
    assert show(value) == text


@pytest.mark.parametrize("expr, value", [
    ("1d20*0.20", lambda f: Fraction(f[0]) * Fraction(1, 5)),
    ("1d20+1.45", lambda f: f[0] + Fraction(145, 100)),
    ("1d20/6.02", lambda f: Fraction(f[0]) / Fraction(602, 100)),
])
def test_rpg_dice_rollers_decimal_examples(expr, value):
    expected = enumerate_dice([range(1, 21)], value)
    exact = _exact(expr, **EXACT)
    assert_close(exact, expected)
    assert chi2_passes(_fractions(de.sample(expr, 20_000, seed=5, **EXACT)["total"]), exact)


def test_floor_of_a_decimal_division():
    """rpg-dice-roller's ``2*floor(4d10/3.4)``: 4d10 = 17 gives floor(5) = 5 exactly (float rounding aside)."""
    expected = enumerate_dice([range(1, 11)] * 4, lambda f: 2 * math.floor(Fraction(sum(f)) / Fraction(17, 5)))
    exact = _exact("2*floor(4d10/3.4)", **EXACT)
    assert_close(exact, expected)
    assert chi2_passes(de.sample("2*floor(4d10/3.4)", 30_000, seed=2, **EXACT)["total"], exact)


def test_the_peers_mixed_example_on_fewer_dice():
    """``(4.56^3dF)*6.7-(10d45/(2*3))`` reads (and its exact odds are too large); the same shape on fewer dice
    against an enumeration."""
    de.roll("(4.56^3dF)*6.7-(10d45/(2*3))", seed=1, **EXACT)
    expr = "(4.56^2dF)*6.7-(2d6/(2*3))"
    expected = enumerate_dice([(-1, 0, 1)] * 2 + [range(1, 7)] * 2,
                              lambda f: Fraction(456, 100) ** (f[0] + f[1]) * Fraction(67, 10)
                              - Fraction(f[2] + f[3], 6))
    exact = _exact(expr, **EXACT)
    assert_close(exact, expected)
    assert chi2_passes(_fractions(de.sample(expr, 30_000, seed=4, **EXACT)["total"]), exact)


@pytest.mark.parametrize("expr, value", [
    ("1d10*0.1==0.3", lambda f: int(Fraction(f[0], 10) == Fraction(3, 10))),
    ("floor(1d10*0.1*10)", lambda f: f[0]),
    ("ceil(1d10*0.1*10)", lambda f: f[0]),
    ("round(1d10*0.05*10)", lambda f: math.floor(Fraction(f[0], 2) + Fraction(1, 2))),
    ("(1d10*0.1)%0.3", lambda f: Fraction(f[0], 10) % Fraction(3, 10)),
    ("{1d10*0.1*3*10}>=9", lambda f: int(3 * f[0] >= 9)),
    ("{1d10*0.7*10, 0}>=21", lambda f: int(7 * f[0] >= 21)),  # 0.7 * 3 * 10 is 20.999999999999996 in floats
])
def test_samples_read_fractions_as_the_exact_odds_do(expr, value):
    """Floats round 3 * 0.1 to 0.30000000000000004: floor, ceil, round, % and comparisons of samples read the
    exact fraction, so samples and exact odds agree."""
    expected = enumerate_dice([range(1, 11)], value)
    assert_close(_exact(expr, **EXACT), expected)
    samples = de.sample(expr, 20_000, seed=9, **EXACT)["total"]
    assert chi2_passes(_fractions(samples), expected)


def _clamped(faces, bound: Fraction, kind: str) -> list:
    return [min(f, bound) if kind == "max" else max(f, bound) for f in faces]


@pytest.mark.parametrize("expr, n, sides, bound, kind, keep", [
    ("3d6max3.5", 3, 6, Fraction(7, 2), "max", None),
    ("3d6min2.5", 3, 6, Fraction(5, 2), "min", None),
    ("4d6min2.5kh2", 4, 6, Fraction(5, 2), "min", ("h", 2)),
    ("4d4max2.25dl1", 4, 4, Fraction(9, 4), "max", ("l", 1)),
    ("3d%max50.45", 3, 100, Fraction(1009, 20), "max", None),
])
def test_a_decimal_maximum_or_minimum_per_die(expr, n, sides, bound, kind, keep):
    faces = _clamped(range(1, sides + 1), bound, kind)

    def value(f):
        vals = sorted(f)
        if keep == ("h", 2):
            vals = vals[-2:]
        elif keep == ("l", 1):
            vals = vals[1:]
        return sum(vals)
    if sides ** n <= 10**5:
        expected = enumerate_dice([faces] * n, value)
    else:  # 3d%: the sum of three independent dice, by convolution
        expected = {}
        one = {v: Fraction(faces.count(v), sides) for v in set(faces)}
        for a, b, c in itertools.product(one.items(), repeat=3):
            expected[a[0] + b[0] + c[0]] = expected.get(a[0] + b[0] + c[0], 0) + a[1] * b[1] * c[1]
    exact = _exact(expr)
    assert_close(exact, expected, tol=1e-9)
    samples = de.sample(expr, 20_000, seed=11)["total"]
    if len(expected) < 200:
        assert chi2_passes(_fractions(samples), exact)
    else:
        assert abs(samples.mean() - float(sum(k * p for k, p in expected.items()))) < 1.0


def test_rpg_dice_rollers_decimal_max_and_min():
    """``6d%max50.45``: a face above 50.45 counts 50.45 (rpg-dice-roller's MaxModifier); ``min`` the other way."""
    r = de.roll("6d%max50.45", seed=1)
    assert all(d.value <= 50 for d in r.dice)
    shown = [d.face for d in r.dice if d.face is not None]
    assert shown and set(shown) == {"50.45"} and "50.45" in str(r)
    per_die = Fraction(sum(range(1, 51)), 100) + Fraction(50, 100) * Fraction(1009, 20)
    assert de.distribution("6d%max50.45").mean() == pytest.approx(float(6 * per_die), rel=1e-9)
    per_die = Fraction(sum(range(51, 101)), 100) + Fraction(50, 100) * Fraction(1009, 20)
    assert de.distribution("6d%min50.45").mean() == pytest.approx(float(6 * per_die), rel=1e-9)
    assert de.roll("6d%min50.45", seed=2).model().model_dump_json()


@pytest.mark.parametrize("expr, column", [
    ("2d4max2.5>=2", 9), ("2d4max2.5!", 9), ("2d4min2.5r1", 9), ("(2)d4max2.5", 3),
])
def test_a_decimal_maximum_with_other_modifiers_is_refused_with_a_caret(expr, column):
    with pytest.raises(de.DiceError) as err:
        de.roll(expr, seed=1)
    assert err.value.column == column


def test_decimal_bounds():
    with pytest.raises(de.DiceLimitError):
        de.roll("1.1234567891")  # ten places
    with pytest.raises(de.DiceLimitError):
        de.roll("12345678901.5")
    with pytest.raises(de.DiceError):
        de.roll("1.5d6")  # a number of dice is whole
    with pytest.raises(de.DiceError):
        de.roll("2d6.5")
