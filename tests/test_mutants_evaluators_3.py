"""The standard notation's evaluators under mutation (issue 16, third pass): arithmetic bounds near the integer
rule, texts of operators, groups and labels, computed dice and their errors, the JSON of dropped items. Expected
values come from brute force written here or from the integer rule (``|value| <= 2**53 - 1``) worked by hand.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

import diceengine as de
from diceengine import api
from diceengine import pmf as pmf_module
from diceengine.limits import PYTHON_STEP
from diceengine.parts import Group

from .helpers import clear_engine_caches

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
