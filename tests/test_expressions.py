"""The standard notation's expressions: arithmetic, functions, comparisons, exact division, computed dice and
labels in the three evaluations (roll, sample, exact odds), their bounds near the integer rule, their errors
and carets, and the work they are estimated at."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine import pmf as pmf_module
from diceengine.limits import PYTHON_STEP
from diceengine.parts import Group
from tests.helpers import Scripted, assert_close, chi2_passes, clear_engine_caches


def floor_div(a, b):
    return a // b


def round_half_up(v):
    return math.floor(Fraction(v) + Fraction(1, 2))


# expression, the sides of its dice in the order they are thrown, the total from the faces
CASES: list[tuple[str, list[int], Callable]] = [
    ("1d6-1d4", [6, 4], lambda a, b: a - b),
    ("1d6-(1d4-2)", [6, 4], lambda a, b: a - (b - 2)),
    ("1d6-2-1d4", [6, 4], lambda a, b: a - 2 - b),
    ("1d6*(2+1d4)", [6, 4], lambda a, b: a * (2 + b)),
    ("1d6*1d6", [6, 6], lambda a, b: a * b),
    ("1d6*3", [6], lambda a: a * 3),
    ("3*1d6", [6], lambda a: 3 * a),
    ("-2*1d6", [6], lambda a: -2 * a),
    ("1d6*1d4*2", [6, 4], lambda a, b: a * b * 2),
    ("10/1d4", [4], lambda a: 10 // a),
    ("-10/1d4", [4], lambda a: -10 // a),
    ("1d20/1d4", [20, 4], lambda a, b: a // b),
    ("10//1d4", [4], lambda a: 10 // a),
    ("(1d6-4)//2", [6], lambda a: (a - 4) // 2),
    ("-7%1d4", [4], lambda a: -7 % a),
    ("1d20%1d6", [20, 6], lambda a, b: a % b),
    ("1d6%(0-4)", [6], lambda a: a % -4),
    ("2^1d4", [4], lambda a: 2 ** a),
    ("1d4^2", [4], lambda a: a ** 2),
    ("(1d4-2)^3", [4], lambda a: (a - 2) ** 3),
    ("1d4^2^2", [4], lambda a: a ** 4),
    ("1d4**2", [4], lambda a: a ** 2),
    ("2^(1d4-3)", [4], lambda a: math.floor(Fraction(2) ** (a - 3))),
    ("(1d6-1d6)^2", [6, 6], lambda a, b: (a - b) ** 2),
    ("-1d6", [6], lambda a: -a),
    ("+1d6", [6], lambda a: a),
    ("-(1d6+2)", [6], lambda a: -(a + 2)),
    ("-(-1d6)", [6], lambda a: a),
    ("floor(1d6/4)", [6], lambda a: a // 4),
    ("ceil(1d6/4)", [6], lambda a: a // 4),
    ("abs(1d6-1d8)", [6, 8], lambda a, b: abs(a - b)),
    ("abs(1d6)", [6], lambda a: a),
    ("min(1d6, 1d8, 3)", [6, 8], lambda a, b: min(a, b, 3)),
    ("max(1d6, 1d8, 3)", [6, 8], lambda a, b: max(a, b, 3)),
    ("max(1d6, 4)", [6], lambda a: max(a, 4)),
    ("min(1d6)", [6], lambda a: a),
    ("max(2, 5)+1d4", [4], lambda a: 5 + a),
    ("floor(1d20/3) + max(1d4, 1d6)", [20, 4, 6], lambda a, b, c: a // 3 + max(b, c)),
    ("(1d6)+0 == 3", [6], lambda a: int(a == 3)),
    ("(1d6)+0 = 3", [6], lambda a: int(a == 3)),
    ("(1d6)+0 != 3", [6], lambda a: int(a != 3)),
    ("(1d6)+0 <> 3", [6], lambda a: int(a != 3)),
    ("(1d6)+0 < 3", [6], lambda a: int(a < 3)),
    ("(1d6)+0 <= 3", [6], lambda a: int(a <= 3)),
    ("(1d6)+0 > 3", [6], lambda a: int(a > 3)),
    ("(1d6)+0 >= 3", [6], lambda a: int(a >= 3)),
    ("1d6+1 > 1d8", [6, 8], lambda a, b: int(a + 1 > b)),
    ("1d20+5 >= 15", [20], lambda a: int(a + 5 >= 15)),
    ("{1d6, 1d8}", [6, 8], lambda a, b: a + b),
    ("{1d6, 1d8}kh1", [6, 8], lambda a, b: max(a, b)),
    ("{1d6, 1d8}kl1", [6, 8], lambda a, b: min(a, b)),
    ("{1d6, 1d8, 1d4}kh2", [6, 8, 4], lambda a, b, c: a + b + c - min(a, b, c)),
    ("{1d6, 1d8, 1d4}kl2", [6, 8, 4], lambda a, b, c: a + b + c - max(a, b, c)),
    ("{1d6, 1d8, 1d4}dh1dl1", [6, 8, 4], lambda a, b, c: sorted((a, b, c))[1]),
    ("{1d6, 1d8, 1d4}kh2kl2", [6, 8, 4], lambda a, b, c: sorted((a, b, c))[1]),
    ("{1d6, 1d8, 1d4, 1d4}dl1dh1", [6, 8, 4, 4], lambda *v: sum(sorted(v)[1:3])),
    ("{1d6, 1d8, 1d4, 1d4}kh1kl3", [6, 8, 4, 4], lambda *v: sorted(v)[3] * 0 + 0),
    ("{1d6, 1d8, 1d4, 1d4}kh3", [6, 8, 4, 4], lambda *v: sum(sorted(v)[1:])),
    ("{1d6, 1d8, 1d4, 1d4}kl1", [6, 8, 4, 4], lambda *v: min(v)),
    ("{1d6, 1d6, 1d6, 1d6}kh2", [6, 6, 6, 6], lambda *v: sum(sorted(v)[2:])),
    ("{1d6, 1d8, 4}>3f1", [6, 8], lambda a, b: (a > 3) - (a == 1) + (b > 3) - (b == 1) + 1),
    ("{1d6, 1d8, 2}>=4f<=2", [6, 8], lambda a, b: (a >= 4) - (a <= 2) + (b >= 4) - (b <= 2) - 1),
    ("{1d6, 1d8}<3", [6, 8], lambda a, b: (a < 3) + (b < 3)),
    ("{1d6, 1d8, 1d4}kh2>4", [6, 8, 4], lambda *v: sum(x > 4 for x in sorted(v)[1:])),
    ("{1d6, 1d8, 1d4}kl1>=2f1", [6, 8, 4], lambda *v: (min(v) >= 2) - (min(v) == 1)),
    ("{1d6+1d6}>8", [6, 6], lambda a, b: int(a + b > 8)),
    ("{1d6+1, 2d4}sd", [6, 4, 4], lambda a, b, c: a + 1 + b + c),
    ("(1d6, 1d8, 4)kh1", [6, 8], lambda a, b: max(a, b, 4)),
    ("(1d6, 1d8, 4)kl1", [6, 8], lambda a, b: min(a, b, 4)),
    ("(1d6)kh1", [6], lambda a: a),
    ("{2, 1d6}kl1", [6], lambda a: min(2, a)),
    ("(1d4)d6", [4, 6, 6, 6, 6], None),
    ("2d(1d6+2)", [6, 0, 0], None),
    ("(1d3)d(1d4)", [3, 4, 0, 0, 0], None),
    ("(2*3)d4kh2", [4] * 6, lambda *v: sum(sorted(v)[4:])),
    ("(1d8+3)[healing]", [8], lambda a: a + 3),
    ("-(1d8+3)[healing]", [8], lambda a: -(a + 3)),
    ("1d8+4[piercing] + 2d6[fire]", [8, 6, 6], lambda a, b, c: a + 4 + b + c),
    ("4[bonus] + 1d4", [4], lambda a: 4 + a),
    ("(2+2)[bonus]*1d4", [4], lambda a: 4 * a),
]


def computed_expected(expr: str) -> dict:
    """The exact odds of the computed-dice cases, enumerated count by count and sides by sides."""
    out: dict = {}
    if expr == "(1d4)d6":
        for n in range(1, 5):
            for faces in itertools.product(range(1, 7), repeat=n):
                out[sum(faces)] = out.get(sum(faces), 0) + Fraction(1, 4) / 6**n
    elif expr == "2d(1d6+2)":
        for s in range(3, 9):
            for faces in itertools.product(range(1, s + 1), repeat=2):
                out[sum(faces)] = out.get(sum(faces), 0) + Fraction(1, 6) / s**2
    else:
        for n in range(1, 4):
            for s in range(1, 5):
                for faces in itertools.product(range(1, s + 1), repeat=n):
                    out[sum(faces)] = out.get(sum(faces), 0) + Fraction(1, 12) / s**n
    return out


def enumerated(sides: list[int], fn: Callable) -> dict:
    out: dict = {}
    total = math.prod(sides)
    for faces in itertools.product(*[range(1, s + 1) for s in sides]):
        v = fn(*faces)
        out[v] = out.get(v, 0) + Fraction(1, total)
    return out


@pytest.mark.parametrize("expr, sides, fn", CASES, ids=[c[0] for c in CASES])
def test_an_expression_in_the_three_evaluations(expr, sides, fn):
    if fn is None:
        expected = computed_expected(expr)
    else:
        expected = enumerated(sides, fn)
        for faces in itertools.product(*[range(1, s + 1) for s in sides]):
            r = de.roll(expr, seed=Scripted(list(zip(faces, sides))))
            assert r.total == fn(*faces), faces
            assert str(r).endswith(f" = {fn(*faces)}")
            assert r.render("plain") == str(r)
    assert_close(de.distribution(expr).marginal("total"), expected)
    sample = de.sample(expr, 20_000, seed=31)["total"]
    assert sample.dtype == np.int64
    assert chi2_passes(sample, expected)
    rng = random.Random(9)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(2000)], expected)


EXACT_DIVISION = [
    ("1d6/4", [6], lambda a: Fraction(a, 4)),
    ("2d6/4", [6, 6], lambda a, b: Fraction(a + b, 4)),
    ("1d6/4 + 1d6/3", [6, 6], lambda a, b: Fraction(a, 4) + Fraction(b, 3)),
    ("1d6/4 - 1", [6], lambda a: Fraction(a, 4) - 1),
    ("1d6/4 * 1d4", [6, 4], lambda a, b: Fraction(a, 4) * b),
    ("floor(1d6/4)", [6], lambda a: a // 4),
    ("ceil(1d6/4)", [6], lambda a: -(-a // 4)),
    ("round(1d6/4)", [6], lambda a: round_half_up(Fraction(a, 4))),
    ("round(1d6/2)", [6], lambda a: round_half_up(Fraction(a, 2))),
    ("round(-1d6/4)", [6], lambda a: round_half_up(Fraction(-a, 4))),
    ("abs(1d6/4 - 1)", [6], lambda a: abs(Fraction(a, 4) - 1)),
    ("min(1d6/4, 1)", [6], lambda a: min(Fraction(a, 4), 1)),
    ("max(1d6/4, 1)", [6], lambda a: max(Fraction(a, 4), 1)),
    ("(1d6/4)^2", [6], lambda a: Fraction(a, 4) ** 2),
    ("2^(1d4-3)", [4], lambda a: Fraction(2) ** (a - 3)),
    ("1d6/4 % 1", [6], lambda a: Fraction(a, 4) % 1),
    ("1d6 % (1d4/2)", [6, 4], lambda a, b: a % Fraction(b, 2)),
    ("1d6/4 // 1", [6], lambda a: Fraction(a, 4) // 1),
    ("1d6 // 4", [6], lambda a: a // 4),
    ("{1d6/2, 1d4/3}kh1", [6, 4], lambda a, b: max(Fraction(a, 2), Fraction(b, 3))),
    ("{1d6/2, 1d4/3}", [6, 4], lambda a, b: Fraction(a, 2) + Fraction(b, 3)),
    ("{1d6/2, 1d4/3}>1", [6, 4], lambda a, b: (Fraction(a, 2) > 1) + (Fraction(b, 3) > 1)),
    ("1d6/4 >= 1", [6], lambda a: int(Fraction(a, 4) >= 1)),
    ("-(1d6/4)", [6], lambda a: -Fraction(a, 4)),
    ("1d6/(1d4/2)", [6, 4], lambda a, b: Fraction(a) / Fraction(b, 2)),
    ("1d6/4 / 2", [6], lambda a: Fraction(a, 8)),
]


def _normal(v):
    v = Fraction(v)
    return int(v) if v.denominator == 1 else v


@pytest.mark.parametrize("expr, sides, fn", EXACT_DIVISION, ids=[c[0] for c in EXACT_DIVISION])
def test_exact_division(expr, sides, fn):
    expected: dict = {}
    for faces in itertools.product(*[range(1, s + 1) for s in sides]):
        v = _normal(fn(*faces))
        expected[v] = expected.get(v, 0) + Fraction(1, math.prod(sides))
        r = de.roll(expr, seed=Scripted(list(zip(faces, sides))), division="exact")
        assert r.total == v and type(r.total) is type(v), faces
    got = de.distribution(expr, division="exact").marginal("total")
    assert_close(got, expected)
    assert all(type(k) in (int, Fraction) for k in got)
    sample = de.sample(expr, 20_000, seed=32, division="exact")["total"]
    whole = {"floor(1d6/4)", "ceil(1d6/4)", "round(1d6/4)", "round(1d6/2)", "round(-1d6/4)", "1d6/4 // 1",
             "1d6 // 4", "{1d6/2, 1d4/3}>1", "1d6/4 >= 1"}
    assert sample.dtype == (np.int64 if expr in whole else np.float64)
    assert chi2_passes([_normal(Fraction(x).limit_denominator(1000)) for x in sample.tolist()], expected)


def test_a_whole_exact_total_is_an_int():
    # bug found here: 1/2 + 1/2 rolled the Fraction 1 (JSON "1", a string) where every other whole value is an int
    for expr in ("1d2/2 + 1d2/2", "1d2/2 - 1d2/2 + 1", "1d4/2 * 2", "{1d2/2, 1d2/2}", "1d2/2 + 1d2/2 + 3"):
        for seed in range(20):
            r = de.roll(expr, seed=seed, division="exact")
            whole = r.total == int(r.total)
            assert (type(r.total) is int) == whole, (expr, r.total)
            if whole:
                assert f'"total":{r.total}' in r.model_dump_json()


def test_sample_types_follow_the_division_option():
    assert de.sample("1d6/4", 10, seed=1, division="exact")["total"].dtype == np.float64
    assert de.sample("floor(1d6/4)", 10, seed=1, division="exact")["total"].dtype == np.int64
    assert de.sample("1d6/4", 10, seed=1)["total"].dtype == np.int64
    assert de.sample("3", 4, seed=1)["total"].tolist() == [3, 3, 3, 3]
    assert de.sample("3/2", 2, seed=1, division="exact")["total"].tolist() == [1.5, 1.5]
    assert de.roll("3/2", division="exact").total == Fraction(3, 2)
    assert de.roll("3/2").total == 1
    assert de.roll("4/2", division="exact").total == 2 and type(de.roll("4/2", division="exact").total) is int


# ---------------------------------------------------------------- texts of scripted rolls

TEXTS = [
    ("1d6-1d4", [(3, 6), (2, 4)], "[3] - [2] = 1"),
    ("1d6-(1d4-2)", [(3, 6), (2, 4)], "[3] - ([2] - 2) = 3"),
    ("(1d6-1d4)-2", [(3, 6), (2, 4)], "[3] - [2] - 2 = -1"),
    ("1d6*(2+1d4)", [(3, 6), (2, 4)], "[3] * (2 + [2]) = 12"),
    ("(1d6*2)+1d4", [(3, 6), (2, 4)], "[3] * 2 + [2] = 8"),
    ("1d6/(2*1)", [(3, 6)], "[3] / (2 * 1) = 1"),
    ("1d6*(2*1)", [(3, 6)], "[3] * 2 * 1 = 6"),
    ("1d6//(2//1)", [(5, 6)], "[5] // (2 // 1) = 2"),
    ("1d6%(7%4)", [(5, 6)], "[5] % (7 % 4) = 2"),
    ("10/1d4", [(2, 4)], "10 / [2] = 5"),
    ("-7%1d4", [(3, 4)], "-7 % [3] = 2"),
    ("1d4^2^2", [(2, 4)], "[2] ^ 2 ^ 2 = 16"),
    ("(1d4^2)^2", [(2, 4)], "([2] ^ 2) ^ 2 = 16"),
    ("(1d4+1)^2", [(2, 4)], "([2] + 1) ^ 2 = 9"),
    ("-1d6", [(3, 6)], "-[3] = -3"),
    ("+1d6", [(3, 6)], "+[3] = 3"),
    ("-(1d6+2)", [(3, 6)], "-([3] + 2) = -5"),
    ("-(1d6*2)", [(3, 6)], "-([3] * 2) = -6"),
    ("-1d6^2", [(3, 6)], "-[3] ^ 2 = -9"),
    ("floor(1d6/4)", [(6, 6)], "floor([6] / 4) = 1"),
    ("abs(1d6-1d8)", [(2, 6), (7, 8)], "abs([2] - [7]) = 5"),
    ("min(1d6, 1d8, 3)", [(5, 6), (2, 8)], "min([5], [2], 3) = 2"),
    ("max(1d6, 4)", [(2, 6)], "max([2], 4) = 4"),
    ("(1d6)+0 >= 3", [(3, 6)], "[3] + 0 >= 3 = 1"),
    ("1d6+1 > 1d8", [(3, 6), (5, 8)], "[3] + 1 > [5] = 0"),
    ("(1d4)d6", [(2, 4), (1, 6), (5, 6)], "([2])d6=[1, 5] = 6"),
    ("2d(1d6+2)", [(3, 6), (2, 5), (1, 5)], "2d([3] + 2)=[2, 1] = 3"),
    ("(2*3)d6", [(f, 6) for f in range(1, 7)], "(2 * 3)d6=[1, 2, 3, 4, 5, 6] = 21"),
    ("(1d3)d(1d4)kh1", [(2, 3), (3, 4), (1, 3), (3, 3)], "([2])d([3])=[~1~, 3] = 3"),
    ("(1d8+3)[healing]", [(2, 8)], "([2] + 3) (healing) = 5"),
    ("-(1d8+3)[healing]", [(2, 8)], "-([2] + 3) (healing) = -5"),
    ("(1d8)[cold]", [(2, 8)], "[2] (cold) = 2"),
    ("4[bonus]", [], "4 (bonus) = 4"),
    ("4[bonus] + 1d4", [(1, 4)], "4 (bonus) + [1] = 5"),
    ("1d8+4[piercing] + 2d6[fire]", [(2, 8), (4, 6), (3, 6)], "[2] + 4 (piercing) + [4, 3] (fire) = 13"),
    ("{1d6, 1d8}kh1", [(3, 6), (7, 8)], "{~[3] = 3~, [7] = 7}kh1 = 7"),
    ("{1d6, 1d8}", [(3, 6), (7, 8)], "{[3] = 3, [7] = 7} = 10"),
    ("{1d6, 1d8, 4}>3", [(1, 6), (7, 8)], "{[1] = 1, [7] = 7*, 4*}>3 = 2"),
    ("{1d6, 1d8, 4}>3f1", [(1, 6), (7, 8)], "{[1] = 1_, [7] = 7*, 4*}>3f=1 = 1"),
    ("{1d6+1, 2d4}sd", [(1, 6), (2, 4), (2, 4)], "{[2, 2] = 4, [1] + 1 = 2}sd = 6"),
    ("{1d6+1, 2d4}sa", [(5, 6), (2, 4), (2, 4)], "{[2, 2] = 4, [5] + 1 = 6}sa = 10"),
    ("{1d6+1, 2d4}s", [(5, 6), (2, 4), (2, 4)], "{[2, 2] = 4, [5] + 1 = 6}sa = 10"),
    ("(1d6, 1d8, 4)kh1", [(2, 6), (5, 8)], "(~[2] = 2~, [5] = 5, ~4~)kh1 = 5"),
    ("(1d6, 1d8, 4)kl2", [(2, 6), (5, 8)], "([2] = 2, ~[5] = 5~, 4)kl2 = 6"),
    ("{3d20+5}>40", [(5, 20), (11, 20), (8, 20)], "{[5, 11, 8] + 5 = 29}>40 = 0"),
    ("{1d20+5, 1d20+5}kh1", [(5, 20), (11, 20)], "{~[5] + 5 = 10~, [11] + 5 = 16}kh1 = 16"),
    ("{1d6[a], 1d6}kh1", [(5, 6), (2, 6)], "{[5] (a) = 5, ~[2] = 2~}kh1 = 5"),
    ("1d20+5 to hit", [(5, 20)], "[5] + 5 = 10"),
]


@pytest.mark.parametrize("expr, throws, text", TEXTS, ids=[t[0] for t in TEXTS])
def test_the_text_of_a_scripted_roll(expr, throws, text):
    r = de.roll(expr, seed=Scripted(throws))
    assert str(r) == f"{expr}: {text}"
    assert r.render("plain") == str(r)


def test_dice_of_groups_labels_and_computed_terms():
    r = de.roll("{1d6, 1d8}kh1", seed=Scripted([(3, 6), (7, 8)]))
    assert [(d.kind, d.value, d.kept) for d in r.dice] == [("d6", 3, False), ("d8", 7, True)]
    r = de.roll("(1d8+3)[healing] + 1d4[cold] + 1d6", seed=Scripted([(2, 8), (1, 4), (6, 6)]))
    assert [(d.kind, d.value, d.label) for d in r.dice] == [("d8", 2, "healing"), ("d4", 1, "cold"), ("d6", 6, None)]
    r = de.roll("(1d8+1d4[cold])[healing]", seed=Scripted([(2, 8), (1, 4)]))
    assert [(d.value, d.label) for d in r.dice] == [(2, "healing"), (1, "cold")]  # the inner label stays
    r = de.roll("(1d4)d6kh1", seed=Scripted([(2, 4), (1, 6), (5, 6)]))
    assert [(d.kind, d.value, d.kept) for d in r.dice] == [("d4", 2, True), ("d6", 1, False), ("d6", 5, True)]
    r = de.roll("2d(1d6+2)", seed=Scripted([(3, 6), (2, 5), (1, 5)]))
    assert [(d.kind, d.value) for d in r.dice] == [("d6", 3), ("d5", 2), ("d5", 1)]
    r = de.roll("{2d6, 1d8}kl1 + 1d4", seed=Scripted([(6, 6), (5, 6), (3, 8), (4, 4)]))
    assert [(d.kind, d.value, d.kept) for d in r.dice] == [("d6", 6, False), ("d6", 5, False), ("d8", 3, True),
                                                          ("d4", 4, True)]
    assert r.total == 7


def test_markdown_of_groups_and_labels():
    r = de.roll("{1d6, 1d8}kh1 + 2[b]", seed=Scripted([(3, 6), (7, 8)]))
    assert r.render("markdown") == "`{1d6, 1d8}kh1 + 2[b]`: {~~[3] = 3~~, [**7**] = 7}kh1 + 2 (b) = **9**"
    r = de.roll("-(1d4)d6", seed=Scripted([(2, 4), (1, 6), (6, 6)]))
    assert str(r) == "-(1d4)d6: -([2])d6=[1, 6] = -7"
    assert r.render("plain") == str(r)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("expr, kind, column, message", [
    ("1d4/0", de.DiceValueError, 3, "division by zero"),
    ("1d4%0", de.DiceValueError, 3, "division by zero"),
    ("1d4//0", de.DiceValueError, 3, "division by zero"),
    ("0^-1", de.DiceValueError, 1, "zero to a negative power (division by zero)"),
    ("2^100", de.DiceLimitError, 1, "a power could reach 2^100, beyond the exact integer range"),
    ("2^1d70", de.DiceLimitError, 1, "a power could reach 2^70, beyond the exact integer range"),
    # a fraction's numerator and denominator are both raised: 4191/5000 to the millionth power took half a minute
    (".8382 ** -1000000", de.DiceLimitError, 6, "a power could reach 5000^1000000, beyond the exact integer range"),
    ("1.5^200", de.DiceLimitError, 3, "a power could reach 3^200, beyond the exact integer range"),
    # ... under a comparison too (its result is 0 or 1, but its operands are still computed: 20 s, then an answer)
    (".8382 ** -1000000 == 1", de.DiceLimitError, 6, "a power could reach 5000^1000000, beyond the exact integer range"),
    ("1 < 2^100", de.DiceLimitError, 5, "a power could reach 2^100, beyond the exact integer range"),
    # a base below one to a negative power grows past the exact range (10 ^ 17 > 2 ^ 53), as 10 ^ 17 itself does
    ("0.1^-17", de.DiceLimitError, None,
     "a value could reach 100000000000000000 here, beyond the exact integer range (at most 9007199254740991 in size)"),
    ("floor(1d6, 2)", de.DiceValueError, 0, "floor() takes one expression, not 2"),
    ("1 + abs(1d6, 2, 3)", de.DiceValueError, 4, "abs() takes one expression, not 3"),
    ("{1d6, 1d8}>3>4", de.DiceValueError, None, "more than one success or failure count on one group"),
    ("(1d2-1)d6/0", de.DiceValueError, None, "division by zero"),
])
def test_errors_and_their_carets(expr, kind, column, message):
    with pytest.raises(kind) as err:
        de.roll(expr)
    assert str(err.value).splitlines()[0] == message
    if column is not None:
        assert err.value.column == column


def test_division_by_zero_in_each_evaluation():
    for expr in ("1d6/(1d2-1)", "1d6%(1d2-1)", "1d6//(1d2-1)"):
        with pytest.raises(de.DiceValueError, match="division by zero is possible"):
            de.distribution(expr)
        with pytest.raises(de.DiceValueError, match="division by zero"):
            de.sample(expr, 200, seed=1)
        with pytest.raises(de.DiceValueError) as err:
            for seed in range(60):
                de.roll(expr, seed=seed)
        assert str(err.value).splitlines()[0] == "division by zero"
        # the caret under the operator (of the spelling shown: a plan cached under another spelling with the
        # same meaning shows that one, see the note of branch m16c)
        assert err.value.expression[err.value.column] in "/%"
    with pytest.raises(de.DiceValueError, match="zero to a negative power"):
        for seed in range(60):
            de.roll("(1d2-1)^-1", seed=seed)
    with pytest.raises(de.DiceValueError, match="an exponent must be a whole number"):
        de.roll("2^(1/2)", division="exact")


def test_computed_dice_errors():
    with pytest.raises(de.DiceValueError) as err:
        de.roll("(1d6/2)d6", division="exact")
    assert str(err.value).splitlines()[0] == "a number of dice or of sides must be a whole number"
    with pytest.raises(de.DiceValueError):
        de.roll("(1d6-3)d6")  # a negative number of dice is possible
    with pytest.raises(de.DiceValueError):
        de.roll("2d(1d6-3)")  # a die of no side is possible
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("(1d6*2000)d6")
    assert str(err.value).splitlines()[0].startswith("too many dice: ")
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("(1d200)d(1d100)")
    assert str(err.value).splitlines()[0] == "too many possible dice for this computed term"
    assert de.roll("(1d100)d(1d100)", seed=1).total > 0  # 10,000 pairs: accepted


def test_integer_rule_at_each_operator():
    # values must stay within 2^53 - 1: proved before throwing, caret under the operator
    big = 10**9
    with pytest.raises(de.DiceLimitError) as err:
        de.roll(f"1d6*{big}*{big}")
    assert err.value.column == 14
    assert de.roll(f"1d6*{big}*1000000", seed=1).total % 10**15 == 0
    with pytest.raises(de.DiceLimitError):
        de.roll(f"{big}*{big}*(1d6-1d6) - 1d6*{big}*{big}")
    with pytest.raises(de.DiceLimitError):
        de.roll(f"1d6*{big}*{big} % 7")
    with pytest.raises(de.DiceLimitError):
        de.roll(f"-(1d6*{big}*{big})")
    with pytest.raises(de.DiceLimitError):
        de.roll(f"max(1d6*{big}*{big}, 1)")
    with pytest.raises(de.DiceLimitError):
        de.roll(f"{{1d6*{big}*{big}, 1}}kh1")


@pytest.mark.parametrize("expr, kind, column, message", [
    ("(1d6-3)d6", de.DiceValueError, 7, "a negative number of dice (-2)"),
    ("2d(1d6-3)", de.DiceValueError, 0, "a die needs at least one side"),
    ("(1d6*2000)d6", de.DiceLimitError, 10, "too many dice: 12000 (at most 10000 in one roll)"),
    ("{1d6,1d8}f1", de.DiceValueError, 9, "a failure count (f) needs a success count before it"),
    ("{1d6,1d8}>3f1f2", de.DiceValueError, 11, "more than one success or failure count on one group"),
    ("{1d6,1d8}>3>4", de.DiceValueError, 11, "more than one success or failure count on one group"),
    ("{1d6,1d6}k<3", de.DiceValueError, 9, ("k<3 is d20's notation (keep / drop dice by value): use the option "
                                           "dialect='d20'")),
])
def test_group_and_computed_refusals(expr, kind, column, message):
    for call in (lambda: de.roll(expr, seed=1), lambda: de.distribution(expr), lambda: de.sample(expr, 3, seed=1)):
        with pytest.raises(kind) as err:
            call()
        assert str(err.value).splitlines()[0] == message
        assert err.value.column == column


def test_a_runtime_error_points_into_the_spelling_typed():
    with pytest.raises(de.DiceValueError):
        de.roll("1d3 % ( 0 )")
    with pytest.raises(de.DiceValueError) as err:
        de.roll("1d3%(0)")
    assert err.value.expression == "1d3%(0)" and err.value.column == 3


@pytest.mark.parametrize(("expr", "total"), [("floor(7/2)+1d1", 4), ("round(5/2)", 3), ("round(-5/2)", -2),
                                             ("abs(-2)+1d1", 3), ("ceil(7/2)", 4), ("min(3, 5)+max(2, 1)", 5),
                                             ("max(1d1, 4)", 4), ("ceil(-7/2)", -3)])
def test_functions_of_constants(expr, total):
    # a function whose arguments hold no dice is worked out once, and still rolls, samples and has odds
    # (with exact division; round rounds halves up, as JavaScript's Math.round: -2.5 -> -2)
    assert de.roll(expr, seed=1, division="exact").outcome.total == total
    assert set(de.sample(expr, 20, seed=1, division="exact")["total"].tolist()) == {total}
    assert de.distribution(expr, division="exact").marginal() == {total: 1.0}
    if "/" in expr:  # by default / floors first: 7/2 is 3, -5/2 is -3
        floored = {"floor(7/2)+1d1": 4, "round(5/2)": 2, "round(-5/2)": -3, "ceil(7/2)": 3, "ceil(-7/2)": -4}
        assert de.roll(expr, seed=1).outcome.total == floored[expr]


def test_computed_dice_at_their_bound():
    # a computed count may reach MAX_DICE (10,000) exactly; one more pair is refused, the caret under the d
    assert de.roll("(5000*2)d1", seed=1).outcome.total == 10_000
    assert de.distribution("(5000*2)d1").marginal() == {10_000: 1.0}
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("(5001*2)d1")
    assert err.value.column == 8 and "10002" in str(err.value)
    with pytest.raises(de.DiceError) as err:
        de.roll("(1d4-5)d6", seed=1)
    assert err.value.column == 7


def test_reroll_and_add_adds_one_die_when_every_die_is_ranked():
    # d20's ra: one more die at most, also when keep / drop ranks every die thrown (explosions="dice"):
    # the sample agrees with the exact odds, and no roll throws more than 8 dice
    opts = {"dialect": "d20", "explosions": "dice"}
    exact = de.distribution("4d6ra6kh3", **opts).marginal()
    assert max(exact) == 18 and abs(sum(exact.values()) - 1) < 1e-12
    totals = de.sample("4d6ra6kh3", 20_000, seed=3, **opts)["total"]
    assert chi2_passes(totals, exact)
    for seed in range(200):
        assert len(de.roll("4d6ra6kh3", seed=seed, **opts).dice) <= 8


@pytest.mark.parametrize(("expr", "options", "column"), [("1 + (1d6/2)d6", {"division": "exact"}, 11),
                                                         ("1 + 2d(7/2)", {"division": "exact"}, 4),
                                                         ("1 + (1d200)d(1d100)", {}, 11)])
def test_computed_dice_errors_point_at_the_term(expr, options, column):
    """The caret of a computed term's refusal is under the term (its ``d`` after a computed count, else its
    count), wherever the term stands."""
    with pytest.raises(de.DiceError) as err:
        de.roll(expr, seed=1, **options)
    assert err.value.column == column


M = 2**53 - 1  # the integer rule: every value of an expression within +-M


def big(n: int) -> str:
    """M - n written with literals the notation accepts (each at most 10^9)."""
    assert 9007199 * 10**9 + 254740991 == M and 0 <= n < 254740991
    return f"(9007199*1000000000+{254740991 - n})"


def text_of(parts) -> str:
    """The plain strings of a roll's parts (dice shown as ``#``), struck groups flattened."""
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, Group):
            out.append(text_of(p.parts))
        else:
            out.append("#")
    return "".join(out)


def brute(sides: list[int], value) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    combos = list(itertools.product(*[range(1, s + 1) for s in sides]))
    for faces in combos:
        v = value(*faces)
        out[v] = out.get(v, Fraction(0)) + Fraction(1, len(combos))
    return out


def exact_of(expr: str, **options) -> dict[int, float]:
    dist = de.distribution(expr, **options)
    return {int(v): float(p) for v, p in zip(dist.column("total"), dist.probabilities) if p > 0}


# --- bounds of functions, proved against the integer rule --------------------------------------------------

def test_abs_bounds_reach_the_integer_rule_exactly():
    """abs of the interval -7..-1 (the proved range of 1d6-7) is 1..7: + (M-7) reaches M at most (accepted),
    + (M-6) could pass it (refused up front)."""
    assert api.plan("1d6-7").bounds == (-7, -1)
    assert api.plan("abs(1d6-7)").bounds == (1, 7)
    plan = api.plan(f"abs(1d6-7)+{big(7)}")
    assert plan.bounds == (1 + M - 7, M)
    assert {de.roll(f"abs(1d6-7)+{big(7)}", seed=s).total for s in range(40)} <= set(range(M - 6, M))
    with pytest.raises(de.DiceLimitError):
        api.plan(f"abs(1d6-7)+{big(6)}")


def test_abs_of_positive_values_keeps_its_lowest():
    """abs of the interval 1..7 (the proved range of 1d6+1) is 1..7: abs(1d6+1)-M-1 reaches -M at the
    lowest, within the rule."""
    assert api.plan("1d6+1").bounds == (1, 7)
    assert api.plan("abs(1d6+1)").bounds == (1, 7)
    expr = f"abs(1d6+1)-{big(0)}-1"
    assert api.plan(expr).bounds == (-M, 6 - M)
    for seed in range(10):
        roll = de.roll(expr, seed=seed)
        assert roll.total == roll.dice[0].value + 1 - M - 1


def test_max_bounds_follow_the_highest_argument():
    """max of the intervals 0..6 and 10..16 is 10..16: + (M-16) is accepted, + (M-15) refused."""
    assert api.plan("1d6").bounds == (0, 6) and api.plan("1d6+10").bounds == (10, 16)
    assert api.plan("max(1d6, 1d6+10)").bounds == (10, 16)
    assert api.plan("min(1d6, 1d6+10)").bounds == (0, 6)
    api.plan(f"max(1d6, 1d6+10)+{big(16)}")
    with pytest.raises(de.DiceLimitError):
        api.plan(f"max(1d6, 1d6+10)+{big(15)}")


@pytest.mark.parametrize("name", ["floor", "ceil", "round"])
def test_rounding_functions_keep_the_bounds_of_whole_values(name):
    """floor, ceil and round of whole values change nothing: their range is the argument's (-7..-1)."""
    assert api.plan(f"{name}(1d6-7)").bounds == (-7, -1)


def test_a_power_in_a_group_is_refused_by_its_bound():
    """``{2^60}``: the group folds its constant item when compiled (2^60 is an exact integer), then the bound
    of the power refuses it as beyond the integer rule: the error names the value the power could reach."""
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("{2^60}")
    assert str(2**60) in err.value.message


# --- texts -------------------------------------------------------------------------------------------------

def test_parts_bracket_the_right_operand_of_integer_division():
    """1d6 // (1d4*2): the product on the right of // keeps its parentheses in the roll's parts."""
    roll = de.roll("1d6//(1d4*2)", seed=3)
    assert "// (" in text_of(roll.parts())


def test_labelled_expression_parts_show_its_dice():
    """A label on an expression of dice: the parts show the expression in parentheses, then the label."""
    roll = de.roll("(1d6+1d4)[fire]", seed=1)
    text = text_of(roll.parts())
    assert "([#] + [#]) (fire)" in text


@pytest.mark.parametrize("kind, reverse", [("sa", False), ("sd", True)])
def test_group_parts_sorted(kind, reverse):
    """A sorted group shows its items by value (sd: highest first) in the parts as in the plain text."""
    for seed in range(30):
        roll = de.roll(f"{{1d20, 1d20+1, 1d20+2}}{kind}", seed=seed)
        text = text_of(roll.parts()[1:])  # the roll's text after the expression
        inner = text[text.index("{") + 1:text.index("}")]
        values = [int(piece.rsplit("= ", 1)[1]) for piece in inner.split(", ")]
        assert values == sorted(values, reverse=reverse)
        assert sum(values) == roll.total


# --- samples -----------------------------------------------------------------------------------------------

def test_no_rolls_of_a_power_sample():
    """Zero rolls of a power (computed pair by pair) give an empty column."""
    s = de.sample("2^1d4", 0, seed=1)
    assert len(s["total"]) == 0


# --- work estimates ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["floor(1d100/3)", "round(1d100/7)", "max(1d60/3, 1d60/7)", "min(1d60/7, 1d40/3, 2)"])
def test_functions_of_fractions_estimate_their_work(expr):
    """With exact division the values are fractions, combined in Python: the estimate bounds the work counted."""
    clear_engine_caches()
    cost = api.plan(expr, division="exact").exact_cost()
    pmf_module.WORK.work = 0.0
    de.distribution(expr, division="exact")
    assert 0 < pmf_module.WORK.work <= cost.work


def test_negating_a_far_expression_is_cheap():
    """-(1d6+10^9) has six values: its exact odds are not refused, and are 1/6 on -10^9-1 .. -10^9-6."""
    expr = "-(1d6+1000000000)"
    got = exact_of(expr)
    assert got == pytest.approx({k: float(p) for k, p in brute([6], lambda a: -(a + 10**9)).items()})


# --- the JSON of dropped items ---------------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["{(1d2)d6, 100}kh1", "{(1d6+1d4)[fire], 100}kh1"])
def test_dropped_item_dice_are_not_kept_in_json(expr):
    """An item a group drops: every die in it is marked not kept, in the JSON as in ``roll.dice``."""
    roll = de.roll(expr, seed=5)
    assert roll.total == 100
    dice = json.loads(roll.model_dump_json())["dice"]
    assert dice and all(d["kept"] is False for d in dice)
    assert [d.kept for d in roll.dice] == [d["kept"] for d in dice]


# --- computed dice -----------------------------------------------------------------------------------------

def test_computed_dice_of_a_fraction_is_refused_at_the_term():
    """The caret of the error under the term, here its first character (``d`` with no count)."""
    with pytest.raises(de.DiceValueError) as err:
        de.roll("d(1d6/2)", division="exact")
    assert err.value.expression == "d(1d6/2)"
    assert err.value.column == 0


def test_too_many_computed_pairs_is_refused_at_the_term():
    """One die of 1d20000 sides: 20,000 pairs, more than the 10,000 a computed term may mix."""
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("d(1d20000)")
    assert err.value.column == 0


def test_dice_of_the_sides_count_toward_the_limit():
    """d(10000d1): one die thrown on sides thrown by 10,000 dice: 10,001 dice in one roll, over the 10,000."""
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("d(10000d1)")
    assert "too many dice" in err.value.message
    assert err.value.expression == "d(10000d1)"
    assert err.value.column == 0


def test_computed_dice_follow_the_dialect():
    """``k>4`` keeps dice by value in d20's dialect, also when the number of dice is thrown first."""
    expected = {}
    for c in (2, 3):
        for v, p in brute([6] * c, lambda *f: sum(x for x in f if x > 4)).items():
            expected[v] = expected.get(v, 0) + float(p) / 2
    assert exact_of("(1d2+1)d6k>4", dialect="d20") == pytest.approx(expected)


# --- more: work estimates of fractions, error locations ----------------------------------------------------

def _span(expr: str, **options) -> int:
    lo, hi = api.plan(expr, **options).bounds
    return hi - lo + 1


@pytest.mark.parametrize("inner", ["1d100/3", "1d60/7"])
def test_a_function_of_fractions_is_estimated_at_python_speed(inner):
    """floor / round of fractions: each value goes through Python (PYTHON_STEP of work each, the budget's unit
    for a Python step), so the estimate grows by at least that per value the argument's range may hold."""
    for name in ("floor", "round"):
        whole = api.plan(inner, division="exact").exact_cost().work
        outer = api.plan(f"{name}({inner})", division="exact").exact_cost().work
        assert outer - whole >= PYTHON_STEP * _span(inner, division="exact")


def test_max_of_fractions_is_estimated_at_python_speed_per_pair():
    """max of two fractional expressions: every pair of their values goes through Python."""
    a, b = "1d60/3", "1d60/7"
    parts = api.plan(a, division="exact").exact_cost().work + api.plan(b, division="exact").exact_cost().work
    total = api.plan(f"max({a}, {b})", division="exact").exact_cost().work
    assert total - parts >= PYTHON_STEP * _span(a, division="exact") * _span(b, division="exact")


def test_a_label_with_braces_is_written_as_typed():
    """A label is literal text: braces in it are not a template's fields."""
    assert str(de.roll("(2+3)[a{b}]")) == "(2+3)[a{b}]: 2 + 3 (a{b}) = 5"
    assert str(de.roll("(2*3)[{0}]")) == "(2*3)[{0}]: 2 * 3 ({0}) = 6"


def test_too_many_sorted_group_states_point_at_the_start():
    """The exact odds of a group following too many sorted values (2100 x 2100 > 4,000,000), asked of the plan
    itself (below the budget check of de.distribution): a limit error with a caret (a group has no position of
    its own: column 0)."""
    with pytest.raises(de.DiceLimitError) as err:
        api.plan("1+{1d2100, 1d2100}kh1").distribution()
    assert err.value.column == 0


def test_the_system_compiler_locates_its_own_errors():
    """The standard system's ``prepare`` (the plug-in contract, called by the core below the API) names the
    expression of a computed-dice error itself."""
    from diceengine.parser import parse

    system = de.systems()["standard"]
    expr = "d(1d6/2)"
    with pytest.raises(de.DiceValueError) as err:
        system.prepare(parse(expr, system), expr, system.resolve_options({"division": "exact"}))
    assert err.value.expression == expr
    assert err.value.column == 0
