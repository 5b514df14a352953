"""A ruleset's words live with the ruleset (issue 33, session 37): the core's table
(:data:`diceengine.hints.TERMINAL_WORDS`) names only the tokens of the core's grammar, which every grammar extends
(``grammars/core.lark``), and each built-in system names its own grammar's tokens through
:meth:`~diceengine.registry.System.token_words`; a message lists a phrase at the first of its places."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import diceengine as de
from diceengine import hints
from diceengine.parser import parser_for

GRAMMARS = Path(__file__).resolve().parent.parent / "grammars"
OPERATOR = "an operator (+, -, *, /, ^)"


def _declared(text: str) -> set[str]:
    """The token names a Lark grammar's text declares or imports (``NAME:``, ``NAME.2:``, ``%import common.NAME``),
    read here with a regular expression of its own."""
    declared = set(re.findall(r"^([A-Z_][A-Z_0-9]*)(?:\.-?\d+)?\s*:", text, re.MULTILINE))
    return declared | set(re.findall(r"^%import\s+common\.([A-Z_]+)", text, re.MULTILINE))


CORE = _declared((GRAMMARS / "core.lark").read_text(encoding="utf-8")) - {"WS"}


def test_the_core_names_only_the_core_grammars_tokens():
    # core.lark: INT, PLUS, MINUS, STAR, SLASH (PLUS and MINUS shown as '+' and '-'), and the end of any text
    assert CORE == {"INT", "PLUS", "MINUS", "STAR", "SLASH"}
    assert set(hints.TERMINAL_WORDS) <= CORE | {"$END"}
    assert set(hints.TERMINAL_WORDS) == {"INT", "STAR", "SLASH", "$END"}


@pytest.mark.parametrize("name, grammar, named", [
    ("standard", "standard.lark", {"DECIMAL", "DIE", "FUDGE", "FUNCTION", "DSLASH", "POW", "COMPARATOR", "LABEL",
                                   "DESCRIPTION", "_QUESTION"}),
    ("d6", "d6.lark", {"DCODE", "WORD", "FRENCH_WORD"}),
    ("d6wild", "d6.lark", {"DCODE", "WORD", "FRENCH_WORD"}),
    ("ffg", "ffg.lark", {"SYMBOL_DIE"}),
    ("d20pool", "d20pool.lark", set()),
])
def test_each_system_names_its_own_grammars_tokens(name, grammar, named):
    system = de.systems()[name]
    words = {k: v for k, v in system.token_words().items() if " " not in k}  # tokens expected together aside
    own = _declared((GRAMMARS / grammar).read_text(encoding="utf-8"))
    assert named <= set(words) <= own  # its grammar's tokens, none of the core's
    assert not set(words) & set(hints.TERMINAL_WORDS)
    together = [set(k.split()) for k in system.token_words() if " " in k]
    assert all(group <= own | CORE and group & own for group in together)  # each names a token of its grammar
    # every token its parser has that is no plain string is named by the system or the core (none left unnamed)
    for terminal in parser_for(system).lark.terminals:
        if terminal.name != "WS" and terminal.pattern.type != "str":
            assert terminal.name in words or terminal.name in hints.TERMINAL_WORDS, (name, terminal.name)


def test_the_standard_notations_words_in_a_messages_order():
    # a number, a die..., the operators, each modifier token "a modifier", then a comparison, a label, a
    # description, a question (the order of the messages before the words moved: tests/test_parser.py holds one)
    words = hints.terminal_words(de.systems()["standard"].token_words())
    phrases = list(dict.fromkeys(phrase for key, phrase in words.items() if " " not in key))
    assert phrases == ["a number", "a die (d6, d20...)", "F (Fudge dice)", "a function (floor, max...)", OPERATOR,
                       "a modifier (kh3, dl1, !, r1, cs20, s...)", "a comparison (>=, >, <=, <, =)",
                       "a label in brackets ([fire])", "a description (# a note)", "a question P(...)",
                       "the end of the expression"]


def test_a_phrase_is_listed_at_the_first_of_its_places():
    # the core's operators (STAR) come after a system's words in the table, but the standard notation names its
    # own operators (POW) before its label: an operator expected is listed there, whichever token expected it
    standard = de.systems()["standard"].token_words()
    assert hints.expected_words({"LABEL", "STAR", "INT"}, {}, standard) == [
        "a number", OPERATOR, "a label in brackets ([fire])"]
    # a system without operators of its own: the core's come after its words
    d6 = de.systems()["d6"].token_words()
    assert hints.expected_words({"$END", "STAR", "DCODE", "INT"}, {}, d6) == [
        "a number", "D (a dice code: 4D)", OPERATOR, "the end of the expression"]


@pytest.mark.parametrize("system, expression, first", [
    ("d6", "4D+2 vs", "the expression ends too early: expected a number, a difficulty by name, '(' or '-'"),
    ("d6wild", "4D+2 vs 3 3", ("unexpected '3': expected D (a dice code: 4D), an operator (+, -, *, /, ^), the end of "
                               "the expression, '+' or '-'")),
    ("ffg", "2a1p vs", "the expression ends too early: expected a number or a die letter (a p b d c s f) or name"),
    ("d20pool", "3d20<=", "the expression ends too early: expected a number, '(' or '-'"),
])
def test_each_ruleset_says_its_tokens_in_its_errors(system, expression, first):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expression, system)
    assert str(err.value).splitlines()[0] == first


@pytest.mark.parametrize("expression, first", [
    # the standard notation's tokens expected together, said as one thing and first: the sides of a die...
    ("1d)", "unexpected ')': expected the die's sides (6, %, F), '(' or '{'"),
    ("3d6+d", "the expression ends too early: expected the die's sides (6, %, F), '(' or '{'"),
    # ... and an operator after a term, before a die (which comes first of the rest)
    ("(4d6)z", ("unexpected 'z': expected an operator (+, -, *, /, ^), a die (d6, d20...), a modifier (kh3, dl1, !, "
                "r1, cs20, s...), a comparison (>=, >, <=, <, =), a label in brackets ([fire]), a description (# a "
                "note) or the end of the expression")),
])
def test_the_standard_notation_names_tokens_together(expression, first):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expression)
    assert str(err.value).splitlines()[0] == first


def test_tokens_together_only_when_all_are_expected():
    words = {"A B": "a and b", "A": "an a", "B": "a b"}
    assert hints.expected_words({"A", "B", "INT"}, {}, words) == ["a and b", "a number"]
    assert hints.expected_words({"A", "INT"}, {}, words) == ["a number", "an a"]
