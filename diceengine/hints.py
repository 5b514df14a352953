"""What a syntax error says: the tokens a grammar expected, in words a player knows, and the fix when the text
reads elsewhere ("did you mean d6wild?", a D6 code without its system, a system name without its colon).

The core's table from token names to user words, :data:`TERMINAL_WORDS`, names the tokens of the core's grammar,
which every grammar shares; a system names its own grammar's tokens: every message of the parser names tokens
through :func:`terminal_words`, which joins both (a test checks that every token of every built-in grammar has its
words). The suggestions (:func:`closest`, :func:`system_fix`, :func:`modifier_fix`) are tried only on the way out
of a failed parse. Nothing here names a ruleset or its tokens: what a system knows (its tokens' words, those
expected together, its modifiers' spellings) is handed down by the parser, from the system's hooks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from .errors import DiceSyntaxError
from .i18n import N_

#: a system (:class:`diceengine.registry.System`: not imported here, the registry asks :func:`closest`)
System = Any

__all__ = ["OPERATOR", "TERMINAL_WORDS", "closest", "expected_words", "modifier_fix", "system_fix", "terminal_words"]

#: the words of an operator token (a system names its own operators by them too: the standard notation's ``//``, ``^``)
OPERATOR = N_("an operator (+, -, *, /, ^)")

#: a token of the core's grammar (``grammars/core.lark``, which every built-in grammar extends) -> the words that
#: name it in a message (messages of the catalogues), in the order a message lists them; a token written as one
#: plain string and absent here is shown as that string ('(', '+'). A system names its own grammar's tokens
#: (:meth:`~diceengine.registry.System.token_words`); :func:`terminal_words` joins both
TERMINAL_WORDS: Mapping[str, str] = {
    "INT": N_("a number"),
    **dict.fromkeys(("STAR", "SLASH"), OPERATOR),
    "$END": N_("the end of the expression"),
}
#: the core's token whose words lead every list, before a system's
_LEAD = "INT"

#: shown when a grammar expects only tokens with no words here (a plug-in's)
_SOMETHING_ELSE = N_("something else")


def terminal_words(system_words: Mapping[str, str] | None = None) -> dict[str, str]:
    """:data:`TERMINAL_WORDS` with a system's words for its own tokens (``system_words``: what its
    :meth:`~diceengine.registry.System.token_words` gives), in the order a message lists them: the core's number,
    the system's words in its order, then the core's operators and end. The system's words win for a token both
    name."""
    own = dict(system_words or {})
    core = {name: own.pop(name, phrase) for name, phrase in TERMINAL_WORDS.items()}
    lead = {_LEAD: core.pop(_LEAD)}
    return {**lead, **own, **core}


def expected_words(names: Iterable[str], patterns: Mapping[str, Any],
                   system_words: Mapping[str, str] | None = None) -> list[str]:
    """The words of the tokens ``names`` of a grammar (``patterns``: token name -> Lark's pattern; ``system_words``:
    the words of its system's own tokens), each once: first the words of tokens expected together (a key of
    several names, ``"INT PERCENT FUDGE"``: the sides of a die), then in the order of :func:`terminal_words`
    (words that name several tokens at the first of their places: a system's own operators place the core's),
    then the plain strings ('(', '+', 'vs'...)."""
    table = terminal_words(system_words)
    names = set(names)
    words: list[str] = []
    for key, phrase in table.items():
        together = frozenset(key.split())
        if len(together) > 1 and together <= names:
            names -= together
            words.append(phrase)
    place: dict[str, int] = {}
    for key, phrase in table.items():
        if " " not in key:
            place.setdefault(phrase, len(place))
    plain: list[str] = []
    for name in sorted(names, key=lambda n: (place[table[n]] if n in table else len(place), n)):
        if name in table:
            words.append(table[name])
            continue
        pattern = patterns.get(name)
        if pattern is not None and pattern.type == "str":
            plain.append(repr(pattern.value))
    shown = list(dict.fromkeys(words + sorted(set(plain))))
    return shown or [_SOMETHING_ELSE]


def closest(word: str, choices: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The choice nearest ``word`` (:func:`difflib.get_close_matches`, ignoring case), or ``None`` when none is
    near enough."""
    import difflib

    by_key = {c.lower(): c for c in choices}
    found = difflib.get_close_matches(word.lower(), list(by_key), n=1, cutoff=cutoff)
    return by_key[found[0]] if found else None


_LETTERS = re.compile(r"[A-Za-z]+")


def modifier_fix(expression: str, column: int, known: Collection[str]) -> DiceSyntaxError | None:
    """A misspelt modifier right after dice (``4d6hk3``: did you mean kh?), or ``None``; ``known``: the spellings
    of the system's modifiers (:meth:`~diceengine.registry.System.modifier_letters`)."""
    start = column
    while start > 0 and expression[start - 1].isalpha():
        start -= 1
    run = _LETTERS.match(expression, start)
    if run is None or not re.search(r"[0-9%F)]\s*$", expression[:start]):
        return None
    typed = run.group(0).lower()
    guess = next((m for m in sorted(known) if sorted(m) == sorted(typed)), None)  # letters swapped: hk
    guess = guess or closest(typed, known, 0.6)
    if guess is None or guess == typed:
        return None
    return DiceSyntaxError(N_("unknown modifier {got}: did you mean {guess}?"), expression, start,
                           got=repr(run.group(0)), guess=guess)


_PREFIX = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(:?)\s*")

#: ``reads(text, system)``: the system's notation reads the text, with no description left over
Reads = Callable[[str, System], bool]


def _prefix_fix(expression: str, systems: Mapping[str, System], reads: Reads) -> DiceSyntaxError | None:
    """``"d6wlid: 4D+2"`` (an unknown system, or a near one), ``"ffg 2a1p"`` (a system without its colon)."""
    m = _PREFIX.match(expression)
    if m is None or not m.group(1):
        return None
    name, colon, rest = m.group(1), m.group(2), expression[m.end():]
    if colon:
        if name in systems:
            return DiceSyntaxError(N_("{name}: names a system: roll {rest} with the system {name} (the command "
                                      "line and the page read the prefix, Python takes system='{name}')"),
                                   expression, m.start(1), name=name, rest=rest)
        guess = closest(name, systems, 0.6)
        if guess is not None:
            return DiceSyntaxError(N_("unknown system {name}: did you mean {guess}?"), expression, m.start(1),
                                   name=repr(name), guess=guess)
        if not any(reads(rest, other) for other in systems.values()):
            return None  # a colon of the notation itself (a program's "function: ..."), not a system's prefix
        return DiceSyntaxError(N_("unknown system {name} (known: {names})"), expression, m.start(1),
                               name=repr(name), names=", ".join(sorted(systems)))
    guess = name if name in systems else closest(name, systems, 0.8)
    if guess is not None and rest and reads(rest, systems[guess]):
        return DiceSyntaxError(N_("write the system with a colon: {fix}"), expression, m.end(1),
                               fix=f"{guess}: {rest}")
    return None


def system_fix(expression: str, system: System, column: int, systems: Mapping[str, System],
               reads: Reads) -> DiceSyntaxError | None:
    """The error that says the fix of a text ``system`` cannot read (at ``column``), when there is one: a system
    prefix to correct, a colon to add, another built-in system of ``systems`` whose notation ``reads`` the text."""
    found = _prefix_fix(expression, systems, reads)
    if found is not None:
        return found
    others = [name for name, other in sorted(systems.items())
              if other is not system and other.grammar_package == "diceengine.grammars" and reads(expression, other)]
    if not others:
        return None
    fixes: Sequence[str] = [f"{name}: {expression.strip()}" for name in others]
    return DiceSyntaxError(N_("this is not the {system} notation but reads in {systems}: write {fixes}"),
                           expression, column, system=system.name, systems=others, fixes=list(fixes))
