"""A ruleset's table of rules for ``dice rule``: each rule is a function, named by its own name, with its one-line
summary (a catalogue message, said in the user's language)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["Rule", "rule_table"]

Rule = Callable[..., Any]


def rule_table(*rules: tuple[Rule, str], joining: Iterable[tuple[Mapping[str, Rule], Mapping[str, str]]] = ()
               ) -> tuple[dict[str, Rule], dict[str, str]]:
    """The rules by name and their summaries by name, from ``(rule, summary)`` pairs, followed by the tables
    ``joining`` (another module's rules and summaries)."""
    table = {rule.__name__: rule for rule, _ in rules}
    summaries = {rule.__name__: summary for rule, summary in rules}
    for more, words in joining:
        table.update(more)
        summaries.update(words)
    return table, summaries
