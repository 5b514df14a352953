"""A ruleset's rules for ``dice rule``: each is a function, named by its own name, with its one-line summary (a
catalogue message, said in the user's language) given where it is defined, by :func:`rule`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Rule", "rule", "rule_table"]

Rule = Callable[..., Any]
R = TypeVar("R", bound=Rule)


def rule(summary: str) -> Callable[[R], R]:
    """Marks a function as a rule ``dice rule`` can run, with its one-line ``summary`` (an ``N_`` message)."""
    def mark(function: R) -> R:
        function.summary = summary  # type: ignore[attr-defined]
        return function

    return mark


def rule_table(*rules: Rule) -> tuple[dict[str, Rule], dict[str, str]]:
    """The rules by name, in the order given, and their summaries by name (every rule marked by :func:`rule`)."""
    return {r.__name__: r for r in rules}, {r.__name__: r.summary for r in rules}  # type: ignore[attr-defined]
