"""The parser: syntax errors say what was expected and where (with a caret), the length and depth bounds of
an expression, and errors raised inside the tree pointing at their node."""

from __future__ import annotations

import pytest

import diceengine as de

# ---------------------------------------------------------------- parser: messages and carets


@pytest.mark.parametrize("expr, system, column, message", [
    ("3d6 +", "standard", 5, "the expression ends too early: expected a number, a die (d6, d20...), a function (floor, max...), a question P(...), '(', '+', '-' or '{'"),
    ("(3d6", "standard", 4, "the expression ends too early: expected ')' or ','"),
    ("3d6>", "standard", 4, "the expression ends too early: expected a number, '(' or '-'"),
    ("3d6 )", "standard", 4, "unexpected ')': expected a description (# a note) or the end of the expression"),
    ("1d6 + ſ", "standard", 6, "unexpected character 'ſ': expected a number, a die (d6, d20...), a function (floor, max...), a question P(...), '(', '+', '-' or '{'"),
    ("profİciencies", "standard", 4, "unexpected character 'İ': letters are ASCII letters here"),
    ("2a1p vs", "ffg", 7, "the expression ends too early: expected a number or a die letter (a p b d c s f) or name"),
    ("2a1p vs q", "ffg", 8, "unexpected character 'q': expected a number or a die letter (a p b d c s f) or name"),
    ("   ", "standard", 0, "empty expression"),
])
def test_syntax_errors_say_what_was_expected_and_where(expr, system, column, message):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr, system=system)
    assert err.value.column == column
    assert str(err.value).splitlines()[0] == message


@pytest.mark.parametrize("expr, system, column, message", [
    # bug found here: a fault right after a word that holds an accent the grammar spells blamed the accent
    ("compétence!", "ffg", 10, "unexpected character '!': expected "),
    ("4D vs très!", "d6wild", 10, "unexpected character '!': expected "),
    # the look-alike is searched in the word at the fault only, not in the words before it
    ("4D vs très facİle", "d6wild", 14, "unexpected character 'İ': expected a difficulty by name"),
    ("capacité vs !", "ffg", 12, "unexpected character '!': expected a number or a die letter"),
])
def test_the_fault_near_accented_words(expr, system, column, message):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr, system=system)
    assert err.value.column == column and err.value.expression == expr
    lines = str(err.value).splitlines()
    assert lines[0].startswith(message)
    assert lines[1:] == ["  " + expr, "  " + " " * column + "^"]


def test_terminal_names_in_messages():
    # the tokens expected after a roll, in a player's words (diceengine.hints.TERMINAL_WORDS), never rule names
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("3d6 3")
    first = str(err.value).splitlines()[0]
    assert first == ("unexpected '3': expected an operator (+, -, *, /, ^), a modifier (kh3, dl1, !, r1, cs20, s...), "
                     "a comparison (>=, >, <=, <, =), a label in brackets ([fire]), a description (# a note) or the "
                     "end of the expression")


def test_an_expression_that_is_not_a_string():
    with pytest.raises(de.DiceError) as err:
        de.roll(5)  # type: ignore[arg-type]
    assert str(err.value) == "an expression must be a string, not int"


def test_length_and_depth_messages():
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("1" * 1001)
    assert str(err.value).splitlines()[0] == "expression too long: 1001 characters (at most 1000)"
    assert de.roll("1d6 " + "a" * 996).description == "a" * 996  # exactly 1000 characters
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("-" * 64 + "1")
    assert str(err.value).splitlines()[0] == "expression nested too deeply (more than 64 levels)"
    assert err.value.column == 64  # the caret under the node past the bound: the number
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("+".join(["1"] * 65))
    assert err.value.column in (0, 2)


def test_a_value_error_inside_the_tree_points_at_its_node():
    # a node that refuses its children while the tree is built (a keep/drop point other than < or >)
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6k=3", dialect="d20")
    assert err.value.column is not None and err.value.column > 0


# ---------------------------------------------------------------- bounds (docs/bounds.md)


def test_nesting_depth_exactly_at_the_bound():
    # 64 levels: 63 unary minus around a number, or 63 additions down the left of a sum
    assert de.roll("-" * 63 + "1").total == -1
    assert de.roll("+".join(["1"] * 64)).total == 64
    with pytest.raises(de.DiceLimitError):
        de.roll("-" * 64 + "1")
    with pytest.raises(de.DiceLimitError):
        de.roll("+".join(["1"] * 65))


def test_expression_length_exactly_at_the_bound():
    text = "1d6" + " " * 997
    assert len(text) == 1000
    assert 1 <= de.roll(text, seed=1).total <= 6
    with pytest.raises(de.DiceLimitError):
        de.roll(text + " ")


@pytest.mark.parametrize("expr, system, fault, kind", [
    ("3d6 + 1d0", "standard", "1d0", de.DiceValueError),
    ("2d6 + 1d6r<7", "standard", "r<7", de.DiceLimitError),
    ("2d6+1d1!", "standard", "!", de.DiceLimitError),
    ("1d6 / 0", "standard", "/", de.DiceValueError),
    ("2d20<=21", "d20pool", "21", de.DiceValueError),
    ("2d20<=10 spec 11", "d20pool", "11", de.DiceValueError),
    ("2d20<=10 vs 1-2", "d20pool", "1-2", de.DiceValueError),
    ("7d20<=10", "d20pool", "7d20", de.DiceValueError),
    ("1d20<=10", "d20pool", "1d20", de.DiceValueError),
    ("x + 6d20<=10", "d20pool", "x", de.DiceSyntaxError),
    ("4D vs nowhere", "d6", "nowhere", de.DiceValueError),
    ("2D * 3D", "d6", "*", de.DiceValueError),
    ("4D / 0", "d6", "/", de.DiceValueError),
])
def test_value_errors_point_at_the_fault(expr, system, fault, kind):
    with pytest.raises(kind) as info:
        de.roll(expr, system)
    column = expr.index(fault)
    assert info.value.column == column
    lines = str(info.value).splitlines()
    assert lines[-2] == "  " + expr and lines[-1] == "  " + " " * column + "^"
