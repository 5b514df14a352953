"""What a syntax error says in a system's own words, handed down by the system (issue 33, session 36): the words of
its grammar's tokens (:meth:`diceengine.registry.System.token_words`) and the spellings of its modifiers, for "did
you mean" (:meth:`~diceengine.registry.System.modifier_letters`). The core imports no ruleset to find them
(``tests/test_core_layers.py``); a system that gives none (a plug-in, d6...) keeps the core's words alone."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from diceengine.systems.standard import StandardSystem

import diceengine as de
from diceengine.registry import System

OPERATOR = "an operator (+, -, *, /, ^)"
MODIFIER = "a modifier (kh3, dl1, !, r1, cs20, s...)"
COMPARISON = "a comparison (>=, >, <=, <, =)"


class Told(StandardSystem):
    """The standard notation with words of its own: a keep named apart, a number renamed, one modifier spelling."""

    name = "standard-told"

    def token_words(self) -> Mapping[str, str]:
        return {"KEEP": "a keep (k3)", "INT": "a whole number"}

    def modifier_letters(self) -> frozenset[str]:
        return frozenset({"qh"})


class Silent(StandardSystem):
    """The standard notation giving no words of its own: the hooks' defaults."""

    name = "standard-silent"
    token_words = System.token_words
    modifier_letters = System.modifier_letters


class Lettered(type(de.systems()["d6"])):  # type: ignore[misc]
    """The D6 notation (another grammar) with one modifier spelling: a plug-in's notation proposes its own."""

    name = "d6-lettered"

    def modifier_letters(self) -> frozenset[str]:
        return frozenset({"qh"})


TOLD, SILENT, LETTERED = Told(), Silent(), Lettered()

def first_line(expression: str, system: System | str = "standard", lang: str | None = None) -> str:
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expression, system, lang=lang)
    return str(err.value).splitlines()[0]


def _split_words(text: str) -> list[str]:
    """``text`` cut at the commas between items, never inside brackets (``an operator (+, -, *, /, ^)``)."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0 and text[i:i + 2] == ", ":
            items.append(text[start:i])
            start = i + 2
    return [*items, text[start:]]


def listed(line: str) -> list[str]:
    """The items a syntax error's first line says were expected, in order."""
    head, _, last = line.partition(": expected ")[2].rpartition(" or ")
    return [*_split_words(head), last] if head else [last]


def test_the_hooks_give_nothing_by_default() -> None:
    # the contract's defaults: the d20 pool's grammar adds only plain strings ('d20', 'spec'): it names no token;
    # the other rulesets name only their grammar's own tokens (tests/test_ruleset_words.py) and propose no modifier
    d20pool = de.systems()["d20pool"]
    assert type(d20pool).token_words is System.token_words and d20pool.token_words() == {}
    for name in ("d6", "d6wild", "d20pool", "ffg"):
        assert de.systems()[name].modifier_letters() == frozenset()


def test_the_standard_notation_names_its_modifiers_after_the_operators() -> None:
    # "4d6[" is cut after a term: an operator, a modifier, a comparison, a label... may follow (grammars/standard.lark)
    said = listed(first_line("4d6["))
    assert said[:3] == [OPERATOR, MODIFIER, COMPARISON]
    assert said.count(MODIFIER) == 1  # every token that begins a modifier: named once
    # the comparison that begins a success count keeps the core's words; French from the catalogue
    assert "un modificateur (kh3, dl1, !, r1, cs20, s...)" in first_line("4d6[", lang="fr")


def test_a_system_names_its_own_tokens() -> None:
    # Told's words: its number in its words (the system's win over the core's), its keep after it and before the
    # core's operators (session 37: Told replaces the standard notation's words, its operator after a term with
    # them), and the other modifiers' tokens, unnamed, left out or shown as their strings (e, f)
    said = listed(first_line("4d6!(", TOLD))
    assert said[:3] == ["a whole number", "a keep (k3)", OPERATOR] and MODIFIER not in said
    assert listed(first_line("4d6!("))[:3] == [OPERATOR, "a number", MODIFIER]
    assert MODIFIER not in first_line("4d6[", SILENT) and OPERATOR in first_line("4d6[", SILENT)


def test_did_you_mean_proposes_the_systems_spellings() -> None:
    # "(4d6)hk3": letters after a group that no modifier begins with; the standard table has kh (letters swapped)
    assert first_line("(4d6)hk3") == "unknown modifier 'hk': did you mean kh?"
    assert first_line("(4d6)hq3", TOLD) == "unknown modifier 'hq': did you mean qh?"
    # no spellings: no guess, the plain syntax error
    plain = first_line("(4d6)hk3", SILENT)
    assert "did you mean" not in plain and plain.startswith("unexpected 'hk': expected ")
    # the parser asks the system reading the text, whatever its grammar
    assert first_line("4D+2hq", LETTERED) == "unknown modifier 'hq': did you mean qh?"
    assert first_line("4D+2hq", "d6").startswith("unexpected 'hq': expected D (a dice code: 4D)")
