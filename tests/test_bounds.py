"""The engine's bounds (README, "Bounds"): integers exact or refused, identically in the three evaluations."""

from __future__ import annotations

import ast as pyast
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine.api import plan
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
