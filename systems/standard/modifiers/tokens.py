"""What a syntax error knows of the table's modifiers, read from the table and the grammar, never listed by hand:
their letters (:func:`spellings`, for "did you mean") and the tokens their rules begin with (:func:`rule_tokens`,
each named "a modifier": :func:`diceengine.hints.terminal_words`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["first_tokens", "rule_tokens"]

#: a rule of a Lark grammar: its name (``?`` and a priority aside) and its body, continued on indented lines
_RULE = re.compile(r"^\??([a-z_][a-z_0-9]*)(?:\.-?\d+)?[ \t]*:(.*(?:\n[ \t]+.*)*)", re.MULTILINE)
_COMMENT = re.compile(r"//[^\n]*")
_SYMBOL = re.compile(r"[A-Za-z_$][A-Za-z_0-9]*")


def _closing(text: str, start: int) -> int:
    """The index of the bracket closing the one at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _alternatives(body: str) -> list[str]:
    """The top-level alternatives of a rule's body (``a | (b | c) d`` -> ``a``, ``(b | c) d``)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += (c in "([") - (c in ")]")
        if c == "|" and depth == 0:
            out.append(body[start:i])
            start = i + 1
    out.append(body[start:])
    return out


def first_tokens(body: str) -> list[str]:
    """The tokens (upper-case names) an expansion may begin with: ``(FAIL | FAIL_NOT) compare`` -> ``FAIL``,
    ``FAIL_NOT``; an optional part (``[MINUS] INT``) and what follows it."""
    found: list[str] = []
    for alternative in _alternatives(body):
        text = alternative.strip()
        while text:
            if text[0] in "([":
                end = _closing(text, 0)
                found += first_tokens(text[1:end])
                if text[0] == "(":
                    break
                text = text[end + 1:].strip()  # an optional part: the expansion may begin after it
                continue
            word = _SYMBOL.match(text)
            if word is not None and word.group(0).isupper():
                found.append(word.group(0))
            break
    return found


def rule_tokens(grammar: str, rules: Iterable[str]) -> tuple[str, ...]:
    """The tokens the alternatives of ``rules`` begin with in ``grammar`` (a Lark grammar's text), an alternative
    aliased to one of them (``brace_drop: BRACE_DROP [INT] -> group_keep``) counted as that rule's."""
    wanted = set(rules)
    found: dict[str, None] = {}
    for rule in _RULE.finditer(_COMMENT.sub("", grammar)):
        name, body = rule.group(1), rule.group(2)
        for alternative in _alternatives(body):
            expansion, _, alias = alternative.partition("->")
            if name in wanted or alias.strip() in wanted:
                found.update(dict.fromkeys(first_tokens(expansion)))
    return tuple(found)
