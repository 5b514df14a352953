"""The integer rule and the work budget (README, "Bounds"): ``diceengine.arith``, ``diceengine.limits`` and
``systems._exact`` against values computed here (issue 16, second pass).

The ranges the interval arithmetic proves are checked against brute-force enumeration of the dice's faces,
evaluated by a small interpreter written in this file (not the engine's ``fold``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from diceengine.systems.standard import exact as _exact

import diceengine as de
from diceengine import arith
from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.limits import Cost
from diceengine.parser import parse

MAX_VALUE = 2**53 - 1  # README, "Bounds": ±(2^53 - 1) = ±9,007,199,254,740,991
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
    assert sparse.mass == 1.0 and sparse.mean() == 512.0
    assert repr(rational) == "RationalPMF({Fraction(1, 2): 0.5, 2: 0.5})"
    half = _exact.RationalPMF({1: 0.25, 3: 0.25})
    assert half.mass == 0.5 and half.mean() == 2.0  # the mean of what is there, normalised


def test_combine_and_apply(monkeypatch):
    a = _exact.build([(1, 0.5), (2, 0.5)])
    b = _exact.build([(Fraction(1, 2), 0.5), (Fraction(3, 2), 0.5)])
    got = _exact.combine(a, b, lambda x, y: x + y)
    assert dict(_exact.pairs(got)) == {Fraction(3, 2): 0.25, Fraction(5, 2): 0.5, Fraction(7, 2): 0.25}
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
