"""rpg-dice-roller's real-valued functions ``sqrt pow exp log sign sin cos tan``: exact odds over their support
(each value mapped, its mass kept) against enumerations written here, samples by a chi-square, errors with a caret."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import chi2_passes, enumerate_dice

EXACT = {"division": "exact"}


def _rounded(dist: dict, digits: int = 9) -> dict:
    out: dict = {}
    for v, p in dist.items():
        key = round(float(v), digits)
        out[key] = out.get(key, 0) + float(p)
    return out


def _same(actual: dict, expected: dict) -> None:
    a, e = _rounded(actual), _rounded(expected)
    assert set(a) == set(e)
    for k in e:
        assert a[k] == pytest.approx(e[k], abs=1e-12), k


def _samples(expr: str, n: int = 20_000, **options) -> list:
    return [round(float(v), 9) for v in de.sample(expr, n, seed=13, **options)["total"].tolist()]


ONE_ARG = {
    "sqrt": lambda x: math.sqrt(x), "exp": lambda x: math.exp(x), "log": lambda x: math.log(x),
    "sin": lambda x: math.sin(x), "cos": lambda x: math.cos(x), "tan": lambda x: math.tan(x),
    "sign": lambda x: (x > 0) - (x < 0), "abs": abs, "floor": math.floor, "ceil": math.ceil,
    "round": lambda x: math.floor(x + Fraction(1, 2)),
}


@pytest.mark.parametrize("name", sorted(ONE_ARG))
def test_rpg_dice_rollers_function_of_4d6_over_3(name):
    """Its parser tests' ``name(4d6/3)`` (a real division, as rpg-dice-roller's)."""
    expr = f"{name}(4d6/3)"
    expected = enumerate_dice([range(1, 7)] * 4, lambda f: ONE_ARG[name](Fraction(sum(f), 3)))
    exact = de.distribution(expr, **EXACT).marginal()
    _same(exact, expected)
    assert chi2_passes(_samples(expr, **EXACT), _rounded(exact))
    r = de.roll(expr, seed=3, **EXACT)
    faces = sum(d.value for d in r.dice)
    assert float(r.total) == pytest.approx(float(ONE_ARG[name](Fraction(faces, 3))), rel=1e-12)
    assert str(r).startswith(f"{expr}: {name}([")


@pytest.mark.parametrize("name, fn", [("pow", lambda a: a ** 7), ("max", lambda a: max(a, 7)),
                                      ("min", lambda a: min(a, 7))])
def test_rpg_dice_rollers_two_argument_functions(name, fn):
    expr = f"{name}(4d6, 7)"
    expected = enumerate_dice([range(1, 7)] * 4, lambda f: fn(sum(f)))
    exact = de.distribution(expr).marginal()
    _same(exact, expected)
    assert chi2_passes(_samples(expr), _rounded(exact))


@pytest.mark.parametrize("expr, value", [
    ("sqrt(9/4)", Fraction(3, 2)), ("sqrt(16)", 4), ("pow(2, -2)", Fraction(1, 4)), ("pow(4, 0.5)", 2),
    ("exp(0)", 1), ("log(1)", 0), ("sin(0)", 0), ("cos(0)", 1), ("tan(0)", 0), ("sign(-2.5)", -1),
    ("sqrt(2)*sqrt(2)", 2), ("sqrt(2)*sqrt(2)==2", 1), ("floor(sqrt(2)*sqrt(2))", 2), ("pow(0.25, 0.5)", 0.5),
])
def test_exact_while_the_value_is(expr, value):
    """A function's value stays exact when it is a fraction; a float within rounding of a whole number is it."""
    assert de.distribution(expr, **EXACT).marginal() == {value: 1.0}
    assert de.roll(expr, seed=1, **EXACT).total == value


def test_a_real_total_keeps_its_mass_at_one_value():
    """``sqrt(2)`` reached by two paths (``sqrt(2*1d2/1d2)``... here ``sqrt(1d2+1d2-2)``) is one value."""
    exact = de.distribution("sqrt(1d2+1d2-2)").marginal()
    assert _rounded(exact) == {0.0: 0.25, 1.0: 0.5, round(math.sqrt(2), 9): 0.25}


def test_the_peers_sqrt_example():
    """rpg-dice-roller's guide: ``sqrt(4d10/3)``."""
    expected = enumerate_dice([range(1, 11)] * 4, lambda f: math.sqrt(sum(f) / 3))
    exact = de.distribution("sqrt(4d10/3)", **EXACT).marginal()
    _same(exact, expected)
    assert chi2_passes(_samples("sqrt(4d10/3)", **EXACT), _rounded(exact))
    assert str(de.roll("sqrt(4d10/3)", seed=1, **EXACT)).split("= ")[-1].count(".") == 1


@pytest.mark.parametrize("expr, column", [
    ("sqrt(-1)", 0), ("1 + log(0)", 4), ("log(1d6-1)", 0), ("pow(-2, 0.5)", 0), ("exp(1000)", 0),
    ("pow(4d6)", 0), ("sqrt(1, 2)", 0), ("sqrt(1d6-4)", 0),
])
def test_no_real_value_is_an_error_with_a_caret(expr, column):
    with pytest.raises(de.DiceError) as err:
        de.distribution(expr, **EXACT)
    assert err.value.column == column


def test_a_roll_that_meets_no_real_value_is_refused():
    with pytest.raises(de.DiceValueError):
        for seed in range(60):
            de.roll("log(1d6-1)", seed=seed)
    with pytest.raises(de.DiceValueError):
        de.sample("sqrt(1d6-4)", 200, seed=1)


def test_tan_near_its_poles_is_bounded_by_its_values():
    """tan(1d20): tan(11) is -225.95...; the bounds the engine proves come from the values themselves."""
    exact = de.distribution("tan(1d20)").marginal()
    assert min(exact) == pytest.approx(math.tan(11))
    assert de.distribution("tan(1d20)+1d6").marginal()
