"""systems/standard/evaluate/groups.py: a label on an expression that is not a single dice term."""

from __future__ import annotations

import re

import pytest

import diceengine as de


@pytest.mark.parametrize(("expression", "shown"), [
    # an atom (function call, group, set) is not put in parentheses before its label...
    ("max(1d6,1d8)[fire]", r"max\(\[\*\*\d\*\*\], \[\*\*\d\*\*\]\) \(fire\)"),
    ("{1d6,1d8}[fire]", r"\{\[\*\*\d\*\*\] = \d, \[\*\*\d\*\*\] = \d\} \(fire\)"),
    # ...a sum is
    ("(1d6+1d4)[fire]", r"\(\[\*+\d\*+\] \+ \[\*+\d\*+\]\) \(fire\)"),
])
def test_a_labelled_expression_in_markdown_is_parenthesised_only_when_it_is_not_an_atom(expression, shown):
    text = de.roll(expression, seed=1).render("markdown")
    body = text.split(": ", 1)[1].rsplit(" = ", 1)[0]
    assert re.fullmatch(shown, body), text
