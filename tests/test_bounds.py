"""The engine's bounds (README, "Bounds"): integers exact or refused, identically in the three evaluations."""

from __future__ import annotations

import ast as pyast
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems.standard import exact as _exact
from hypothesis import given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine import arith
from diceengine.api import plan
from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.limits import Cost
from diceengine.parser import parse
from tests.conftest import examples

MAX_VALUE = 2**53 - 1  # the rule, written here independently of the engine


def _python_value(text: str) -> tuple[int | None, bool]:
    """``(value, fits)`` of a dice-free expression evaluated with Python ints: ``fits`` is whether every
    intermediate value stays within ``±(2**53 - 1)``."""
    fits = True

    def ev(node: pyast.AST) -> int:
        nonlocal fits
        if isinstance(node, pyast.Expression):
            return ev(node.body)
        if isinstance(node, pyast.Constant):
            value = int(node.value)
        elif isinstance(node, pyast.UnaryOp):
            value = -ev(node.operand)
        else:
            assert isinstance(node, pyast.BinOp)
            a, b = ev(node.left), ev(node.right)
            value = {pyast.Add: a + b, pyast.Sub: a - b, pyast.Mult: a * b}.get(type(node.op))  # type: ignore
            if isinstance(node.op, pyast.Div):
                value = a // b
        if abs(value) > MAX_VALUE:
            fits = False
        return value

    return ev(pyast.parse(text, mode="eval")), fits


def _refusals(expression: str, system: str = "standard") -> list[str | None]:
    """The message each evaluation refuses with (None: it answered)."""
    out: list[str | None] = []
    for call in (lambda: de.roll(expression, system, seed=1), lambda: de.sample(expression, 100, system, seed=1),
                 lambda: de.distribution(expression, system)):
        try:
            call()
            out.append(None)
        except de.DiceLimitError as err:
            out.append(str(err))
    return out


@pytest.mark.parametrize("expression, system", [
    ("99*99999999*1000000000", "standard"),
    ("99*100000000*1000000000", "standard"),
    ("100000*1000000000/1*900000", "standard"),
    ("d6*1000000000*1000000000", "standard"),
    ("-(1000000000*1000000000)", "standard"),
    ("4D vs 100000000*1000000000*100", "d6"),
    ("4D vs 100000000*1000000000*100", "d6wild"),
    ("1000000000*1000000000*1D", "d6"),
    ("3d20<=12 vs 1000000000*1000000000", "d20pool"),
])
def test_issue_inputs_are_refused_identically(expression, system):
    refusals = _refusals(expression, system)
    assert refusals[0] is not None and refusals[0] == refusals[1] == refusals[2]
    assert "exact integer range" in refusals[0] or "number too large" in refusals[0]
    assert "^" in refusals[0]  # a caret under the fault


def test_largest_values_are_exact_everywhere():
    text = "1000000000*9007199+254740991"  # 2**53 - 1 exactly
    assert de.roll(text).total == MAX_VALUE
    assert (de.sample(text, 10, seed=1)["total"] == MAX_VALUE).all()
    assert de.distribution(text).columns["total"].tolist() == [MAX_VALUE]
    assert _refusals(text + "+1")[0] is not None
    # with dice: 1d6 * 10**15 is at most 6e15 < 2**53 (its exact odds would need a dense table of 5e15
    # cells: refused as work, not as a wrong number)
    assert set(de.sample("1d6*1000000000*1000000", 200, seed=2)["total"].tolist()) == {k * 10**15 for k in range(1, 7)}
    assert de.roll("1d6*1000000000*1000000", seed=2).total % 10**15 == 0
    with pytest.raises(de.DiceLimitError, match="possible results"):
        de.distribution("1d6*1000000000*1000000")
    top = MAX_VALUE - 6
    d = de.distribution(f"1d6+1000000000*{top // 10**9}+{top % 10**9}")
    assert d.columns["total"].tolist() == [top + k for k in range(1, 7)]


_numbers = st.sampled_from([0, 1, 2, 7, 99, 1000, 99999999, 100000000, 900000, 1000000000])


@st.composite
def _constant_expressions(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        return str(draw(_numbers))
    op = draw(st.sampled_from("+-*/"))
    left, right = draw(_constant_expressions(depth + 1)), draw(_constant_expressions(depth + 1))
    if op == "/" and _python_value(right)[0] == 0:
        right = "1"
    return f"({left}{op}{right})"


@settings(max_examples=examples(150))
@given(_constant_expressions())
def test_constants_are_exact_or_refused(text):
    value, fits = _python_value(text)
    refusals = _refusals(text)
    if not fits:
        assert refusals[0] is not None and refusals == [refusals[0]] * 3
        return
    assert refusals == [None, None, None]
    assert de.roll(text).total == value
    assert de.sample(text, 3, seed=0)["total"].tolist() == [value] * 3
    assert de.distribution(text).columns["total"].tolist() == [value]


@settings(max_examples=examples(60))
@given(st.sampled_from(["3d6", "2d20kh1", "4dF", "1d6!", "8d10>=7f1", "3d6!!>=5", "2d10ro1", "5d6>=4!"]),
       st.sampled_from(["*1000000*1000000", "*-1000000*1000000", "+1000000000*9007199", "*(1d6-7)", "/2"]))
def test_every_value_lies_within_the_proved_bounds(term, arithmetic):
    text = f"({term}){arithmetic}"
    lo, hi = plan(text).bounds
    assert -MAX_VALUE <= lo <= hi <= MAX_VALUE
    values = de.sample(text, 2000, seed=3)["total"]
    assert values.dtype == np.int64 and lo <= values.min() and values.max() <= hi
    try:
        support = de.distribution(text).columns["total"]
    except de.DiceLimitError:  # a sparse support too wide for a dense table of exact odds
        pass
    else:
        assert lo <= support.min() and support.max() <= hi
    assert lo <= de.roll(text, seed=4).total <= hi


# ---------------------------------------------------------------- point 6: smaller things


def test_a_leading_minus_is_an_expression_on_the_command_line(capsys):
    from diceengine.cli import main

    assert main(["roll", "-1d6", "--seed", "1"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("-1d6: ") and -6 <= int(line.rsplit("=", 1)[1]) <= -1
    assert main(["roll", "-d20+5", "-n", "3"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 3
    assert main(["odds", "-(2d6)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["expression"] == "-(2d6)" and min(o["total"] for o in out["outcomes"]) == -12


def test_a_die_meeting_success_and_failure_is_a_success_only():
    # python-dice and rpg-dice-roller: a die meeting both points counts as a success, not +1 -1
    assert de.distribution("4d6>=1f<=1").columns["total"].tolist() == [4]
    assert de.roll("4d6>=1f<=1", seed=3).total == 4
    assert (de.sample("4d6>=1f<=1", 100, seed=3)["total"] == 4).all()
    # brute force: 3d6>=5f<=5, a 5 or a 6 is +1 (even though 5 <= 5), 1-4 is -1
    from collections import Counter
    from itertools import product

    counts = Counter(sum(1 if f >= 5 else -1 for f in faces) for faces in product(range(1, 7), repeat=3))
    d = de.distribution("3d6>=5f<=5")
    got = dict(zip(d.columns["total"].tolist(), d.probabilities.tolist()))
    assert got.keys() == counts.keys()
    for k, c in counts.items():
        assert got[k] == pytest.approx(c / 216, abs=1e-12)


TOP = "1000000000*9007199+254740991"  # 2**53 - 1, written as an expression within the constant bound


def message(call) -> de.DiceError:
    with pytest.raises(de.DiceError) as info:
        call()
    return info.value


# ---------------------------------------------------------------- interval arithmetic vs enumeration


def _leaves(node) -> list:
    if type(node) is Number:
        return []
    if type(node) in (Add, Sub, Mul, Div):
        return _leaves(node.left) + _leaves(node.right)
    if type(node) is Neg:
        return _leaves(node.operand)
    return [node]


def _value(node, faces: dict[int, int]) -> int:
    """The expression's value with each die showing ``faces[id(die)]``: Python ints, floor division."""
    t = type(node)
    if t is Number:
        return node.value
    if t is Neg:
        return -_value(node.operand, faces)
    if t in (Add, Sub, Mul, Div):
        a, b = _value(node.left, faces), _value(node.right, faces)
        return {Add: a + b, Sub: a - b, Mul: a * b}[t] if t is not Div else a // b
    return faces[id(node)]


STANDARD = de.systems()["standard"]


def _proved(text: str) -> tuple[int, int]:
    tree = parse(text, STANDARD)
    return arith.check_bounds(tree, text, lambda die: (1, die.sides))


def _enumerated(text: str) -> tuple[int, int]:
    tree = parse(text, STANDARD)
    dice = _leaves(tree)
    values = [_value(tree, {id(d): f for d, f in zip(dice, combo)})
              for combo in itertools.product(*(range(1, d.sides + 1) for d in dice))]
    return min(values), max(values)


@pytest.mark.parametrize("text", [
    "d6+d4", "d6-d4", "d4-d6", "d6*d4", "(d4-3)*d6", "(d4-3)*(d6-4)", "(d4-3)*(2-d6)", "(3-d6)*(d4-9)",
    "d20/d4", "(d6-10)/d4", "d6/(0-d4)", "(d6-3)/(0-d4)", "-(d6-2)", "-d6*d4", "d6-(0-d4)", "10/(d6)",
    "(d8-20)/(d3+1)", "(d8-21)/(d3+1)", "(d6+6)/(0-d4-1)", "7/(0-d3)", "(d10-5)*3/(d4+1)-(d6)", "100-d100*2", "-(d4*(d6-8))",
])
def test_proved_ranges_are_the_enumerated_ranges(text):
    # each die appears once and no divisor can be 0: interval arithmetic is exact
    assert _proved(text) == _enumerated(text)


@pytest.mark.parametrize("text", ["d6/(d4-2)", "(d6-10)/(d3-2)", "(0-d20)/(2-d4)"])
def test_a_divisor_that_may_be_zero_bounds_by_the_dividend(text):
    # |x // y| <= |x| for a whole y != 0: the proved range is -m..m, m the dividend's largest magnitude
    tree = parse(text, STANDARD)
    dividend = tree.left
    lo, hi = arith.check_bounds(dividend, text, lambda die: (1, die.sides))
    m = max(abs(lo), abs(hi))
    assert _proved(text) == (-m, m)


def test_numbers_and_constants():
    assert _proved("7") == (7, 7)
    assert _proved("-7") == (-7, -7)
    assert arith.constant(parse("(0-7)/2+10", STANDARD)) == 6  # floor division: -7 // 2 = -4
    assert arith.constant(parse("7/2*3-(0-4)", STANDARD)) == 13
    assert arith.constant(parse("-(3)-(-5)", STANDARD)) == 2
    assert arith.constant(parse("6*7", STANDARD)) == 42


# ---------------------------------------------------------------- the edge of ±(2**53 - 1)


def test_check_interval_edges():
    assert arith.check_interval(-MAX_VALUE, MAX_VALUE) == (-MAX_VALUE, MAX_VALUE)
    err = message(lambda: arith.check_interval(-MAX_VALUE - 1, 0, "x", 3))
    assert err.message == ("a value could reach -9007199254740992 here, beyond the exact integer range "
                           "(at most 9007199254740991 in size)")
    assert err.column == 3 and err.expression == "x"
    err = message(lambda: arith.check_interval(0, MAX_VALUE + 1))
    assert err.message.startswith("a value could reach 9007199254740992 here")
    assert isinstance(err, de.DiceLimitError)
    # the larger end is named; between two equal ends, the positive one
    assert "reach -9007199254741000 " in message(lambda: arith.check_interval(-MAX_VALUE - 9, MAX_VALUE + 1)).message
    assert "reach 9007199254741000 " in message(lambda: arith.check_interval(-MAX_VALUE - 1, MAX_VALUE + 9)).message
    assert "reach 9007199254740992 " in message(lambda: arith.check_interval(-MAX_VALUE - 1, MAX_VALUE + 1)).message


@pytest.mark.parametrize("text, reach, column", [
    (f"4D vs {TOP}", None, None),
    (f"4D vs {TOP}+1", 9007199254740992, 34),  # the second +
    ("4D vs 0-1000000000*9007199-254740992", -9007199254740992, 26),
    ("4D vs -(1000000000*9007199+254740992)", 9007199254740992, 26),  # caret under the operator inside
    ("4D vs 1000000000*9007200", 9007200000000000, 16),
    ("4D vs 0-1000000000*9007200", 9007200000000000, 18),  # the product, before the minus
    ("4D vs 999999999/2*18014398", None, None),  # 499999999 * 18014398 = 9007198981985602 stays within
])
def test_the_integer_rule_of_d6_difficulties(text, reach, column):
    if reach is None:
        de.roll(text, "d6", seed=1)
        return
    err = message(lambda: de.roll(text, "d6", seed=1))
    assert isinstance(err, de.DiceLimitError)
    assert err.message.startswith(f"a value could reach {reach} here") and err.column == column


@pytest.mark.parametrize("text, err_message, column", [
    (f"2d20<=12 vs {TOP}", None, None),
    (f"2d20<=12 vs {TOP}+1", "number too large: 9007199254740992 (at most 9007199254740991 in size)", 40),
    ("2d20<=12 vs 0-1000000000*9007199-254740991", "a difficulty is 0 or more successes", 12),
    ("2d20<=12 vs 0-1000000000*9007199-254740992",
     "number too large: -9007199254740992 (at most 9007199254740991 in size)", 32),
    ("2d20<=12 vs 1000000000*9007200", "number too large: 9007200000000000 (at most 9007199254740991 in size)", 22),
    ("2d20<=12/0", "division by zero", 8),
    ("2d20<=12 vs 3/(2-2)", "division by zero", 13),
])
def test_the_integer_rule_of_constants(text, err_message, column):
    if err_message is None:
        from diceengine.api import plan

        assert plan(text, "d20pool").difficulty == MAX_VALUE
        return
    err = message(lambda: de.roll(text, "d20pool", seed=1))
    assert err.message == err_message and err.column == column


def test_constants_of_a_d20_pool():
    from diceengine.api import plan

    p = plan("2d20<=(0-7)/2+10 spec 8/3 vs 3*2-1-(-1)", "d20pool")
    assert (p.threshold, p.discipline, p.difficulty) == (6, 2, 6)


def test_dice_in_a_constant_are_refused():
    tree = parse("3+d6", STANDARD)
    err = message(lambda: arith.constant(tree))
    assert err.message == "dice are not allowed here" and err.column == 2
    assert isinstance(err, de.DiceValueError)


def test_int_algebra_at_the_edge():
    alg = arith.IntAlgebra()
    node = parse("1+1", STANDARD)
    assert alg.add(MAX_VALUE - 1, 1, node) == MAX_VALUE
    assert alg.sub(-MAX_VALUE + 1, 1, node) == -MAX_VALUE
    assert alg.mul(-1, MAX_VALUE, node) == -MAX_VALUE
    assert alg.mul(3, 5, node) == 15 and alg.sub(3, 5, node) == -2 and alg.add(3, 5, node) == 8
    err = message(lambda: alg.sub(-MAX_VALUE, 1, node))
    assert err.message == "number too large: -9007199254740992 (at most 9007199254740991 in size)"
    assert err.column == 1
    assert message(lambda: alg.mul(MAX_VALUE, 2, None)).column is None


# ---------------------------------------------------------------- the work budget (limits.Cost)


def test_cost_adds_work_and_keeps_the_largest_tables():
    total = Cost(5, 7) + Cost(2, 11)
    assert (total.work, total.cells) == (7.0, 11.0)
    total = Cost(5, 17) + Cost(2, 11)
    assert (total.work, total.cells) == (7.0, 17.0)
    assert type(Cost(3, 4).work) is float and type(Cost(3, 4).cells) is float
    assert (Cost().work, Cost().cells) == (0.0, 0.0)
    assert repr(Cost(123456, 0.5)) == "Cost(work=1.23e+05, cells=0.5)"


def test_cost_check_at_the_budget():
    budget_work, budget_cells = 400_000_000, 16_000_000  # README: about 1 s; 16 M cells of float64
    Cost(budget_work, budget_cells).check()
    err = message(lambda: Cost(budget_work + 1, 0).check())
    assert isinstance(err, de.DiceLimitError)
    assert err.message == ("these exact odds would take about 1 times the work budget of exact odds (about 1 s): "
                           "use sample() to estimate them")
    err = message(lambda: Cost(3 * budget_work, 0).check("2d6 odds"))
    assert err.message.startswith("2d6 odds would take about 3 times the work budget")
    err = message(lambda: Cost(0, budget_cells + 1).check())
    assert err.message == "these exact odds would need about 122 MiB of tables (at most 122 MiB): use sample() " \
                          "to estimate them"
    err = message(lambda: Cost(0, 2**30).check("x"))
    assert err.message == "x would need about 8,192 MiB of tables (at most 122 MiB): use sample() to estimate them"


# ---------------------------------------------------------------- exact rational distributions (_exact)


def test_normal_values():
    assert _exact.normal(Fraction(6, 3)) == 2 and type(_exact.normal(Fraction(6, 3))) is int
    assert _exact.normal(Fraction(1, 3)) == Fraction(1, 3)
    assert _exact.normal(5) == 5 and _exact.normal(2.5) == 2.5


def test_build_dense_sparse_and_rational():
    from diceengine.pmf import PMF

    dense = _exact.build([(1, 0.25), (3, 0.5), (1, 0.25)])
    assert isinstance(dense, PMF) and dict(dense.items()) == {1: 0.5, 3: 0.5}
    rational = _exact.build([(Fraction(1, 2), 0.5), (Fraction(4, 2), 0.5)])
    assert isinstance(rational, _exact.RationalPMF)
    assert rational.items() == [(Fraction(1, 2), 0.5), (2, 0.5)] and type(rational.items()[1][0]) is int
    # whole numbers spread wider than max(4 x their count, 1024): a table, not a dense array
    sparse = _exact.build([(0, 0.5), (1024, 0.5)])
    assert isinstance(sparse, _exact.RationalPMF)
    assert isinstance(_exact.build([(0, 0.5), (1023, 0.5)]), PMF)
    assert isinstance(_exact.build([]), PMF)
    assert len(sparse) == 2 and _exact.size(sparse) == 2 and _exact.size(dense) == 3  # a dense array 1..3
    assert repr(rational) == "RationalPMF({Fraction(1, 2): 0.5, 2: 0.5})"


def test_combine_and_apply(monkeypatch):
    a = _exact.build([(1, 0.5), (2, 0.5)])
    b = _exact.build([(Fraction(1, 2), 0.5), (Fraction(3, 2), 0.5)])
    got = _exact.combine(a, b, lambda x, y: x + y)
    assert dict(got.items()) == {Fraction(3, 2): 0.25, Fraction(5, 2): 0.5, Fraction(7, 2): 0.25}
    assert dict(_exact.combine(a, a, lambda x, y: x * y).items()) == {1: 0.25, 2: 0.5, 4: 0.25}
    import numpy as np

    assert dict(_exact.combine(a, a, lambda x, y: x * y, np.multiply).items()) == {1: 0.25, 2: 0.5, 4: 0.25}
    assert dict(_exact.apply(b, lambda v: v * 2).items()) == {1: 0.5, 3: 0.5}
    with pytest.raises(de.DiceLimitError) as info:
        # 2000 x 2001 pairs: refused before any is enumerated
        _exact.combine(_exact.RationalPMF({k: 1 / 2000 for k in range(2000)}),
                       _exact.RationalPMF({k: 1 / 2001 for k in range(2001)}), lambda x, y: x + y)
    assert info.value.message == "too many possible results for exact odds (at most 4,000,000 pairs)"
    # exactly at the bound is accepted (a smaller bound, to keep the enumeration short)
    monkeypatch.setattr(_exact, "MAX_PAIRS", 4)
    assert dict(_exact.combine(a, b, lambda x, y: x * y).items()) == {
        Fraction(1, 2): 0.25, Fraction(3, 2): 0.25, 1: 0.25, 3: 0.25}
    with pytest.raises(de.DiceLimitError):
        _exact.combine(a, _exact.build([(1, 0.25), (2, 0.25), (3, 0.5)]), lambda x, y: x * y)


def test_a_leaf_beyond_the_range_is_refused_under_it():
    # check_bounds is the contract of every system: a leaf whose own range leaves ±(2**53 - 1) is refused there
    text = "2+d6*3"
    tree = parse(text, STANDARD)
    err = message(lambda: arith.check_bounds(tree, text, lambda die: (1, 2**60)))
    assert isinstance(err, de.DiceLimitError) and err.column == 2 and err.expression == text
    assert err.message.startswith(f"a value could reach {2**60} here")
    err = message(lambda: arith.check_bounds(tree, text, lambda die: (-(2**53), 0)))
    assert err.column == 2 and err.message.startswith(f"a value could reach {-(2**53)} here")
    assert arith.check_bounds(tree, text, lambda die: (-5, 5)) == (2 - 15, 2 + 15)
    assert arith.IntervalAlgebra(lambda die: (0, 1), "e").expression == "e"


def test_the_default_algebra_is_integer_arithmetic():
    # what a system that overrides only `leaf` gets: + - * floor-division and negation of whole numbers
    from diceengine.arith import Algebra, fold
    from diceengine.parser import parse
    from diceengine.registry import get_system

    d6 = get_system("d6")
    for text, value in (("2*3+8/3-(-1)", 2 * 3 + 8 // 3 + 1), ("7*5", 35), ("9/2*4", 16), ("-(2*7)", -14)):
        assert fold(parse(text, d6), Algebra()) == value, text
    with pytest.raises(de.DiceError, match="division by zero") as err:
        fold(parse("1+4/0", d6), Algebra())
    assert err.value.column == 3
    with pytest.raises(de.DiceError, match="dice are not allowed here"):
        fold(parse("2+3D", d6), Algebra())


def test_dice_count_exactly_at_the_bound():
    r = de.roll("10000d6", seed=1)
    assert len(r.dice) == 10_000 and 10_000 <= r.total <= 60_000
    assert de.roll("5000d6+5000d6", seed=1).total >= 10_000
    assert de.sample("10000d2", 3, seed=1)["total"].min() >= 10_000
    for bad in ("10001d6", "5000d6+5001d6", "1d6+10000d6"):
        with pytest.raises(de.DiceLimitError):
            de.roll(bad)
        with pytest.raises(de.DiceLimitError):
            de.sample(bad, 2, seed=1)
    assert len(de.roll("10000D", "d6", seed=1).dice) == 10_000
    with pytest.raises(de.DiceLimitError):
        de.roll("10001D", "d6")
