"""Syntax-tree nodes of the standard dice notation (``grammars/standard.lark``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, ast_utils

from diceengine.ast import Node, to_int

__all__ = ["Dice", "Modifiers", "Keep", "Explode", "Reroll", "CountSuccesses", "CountFailures", "Compare"]


def _compare_parts(items: Any) -> tuple[str, int]:
    """``(op, value)`` from the tokens ``[COMPARATOR] [MINUS] INT``."""
    op, sign, value = "=", 1, 0
    for tok in items:
        if tok is None:
            continue
        if tok.type == "COMPARATOR":
            op = str(tok)
        elif tok.type == "MINUS":
            sign = -1
        else:
            value = to_int(tok)
    return op, sign * value


@dataclass(frozen=True, slots=True)
class Compare(Node, ast_utils.AsList):
    """A compare point: ``>=7``, ``<2``, ``=1``, ``>=-1`` or a bare ``1`` (equal)."""

    items: Any
    op: str = "="
    value: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            op, value = _compare_parts(self.items)
            object.__setattr__(self, "items", ())
            object.__setattr__(self, "op", op)
            object.__setattr__(self, "value", value)

    @classmethod
    def of(cls, op: str, value: int) -> "Compare":
        return cls((), op, value)

    def test(self, x: Any) -> Any:
        """Whether ``x`` (an int or a numpy array) meets the compare point."""
        v = self.value
        op = self.op
        if op == "=":
            return x == v
        if op == ">=":
            return x >= v
        if op == ">":
            return x > v
        if op == "<=":
            return x <= v
        return x < v

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Keep(Node):
    """``khN`` / ``kN`` keep highest, ``klN`` keep lowest, ``dhN`` drop highest, ``dlN`` drop lowest."""

    kind: Any
    n: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            object.__setattr__(self, "pos", self.kind.start_pos)
            kind = str(self.kind).lower()
            object.__setattr__(self, "kind", "kh" if kind == "k" else kind)
        if isinstance(self.n, Token):
            object.__setattr__(self, "n", to_int(self.n))


@dataclass(frozen=True, slots=True)
class Explode(Node):
    """``!`` explode (on the maximum, or on the compare point); ``!!`` compound."""

    bang: Any
    compare: Compare | None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.bang, Token):
            object.__setattr__(self, "pos", self.bang.start_pos)
            object.__setattr__(self, "bang", str(self.bang))

    @property
    def compound(self) -> bool:
        return self.bang == "!!"


@dataclass(frozen=True, slots=True)
class Reroll(Node):
    """``rN`` / ``r<N`` re-roll until the face misses the compare point; ``roN`` re-roll once."""

    kind: Any
    compare: Compare
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            object.__setattr__(self, "pos", self.kind.start_pos)
            object.__setattr__(self, "kind", str(self.kind).lower())

    @property
    def once(self) -> bool:
        return self.kind == "ro"


@dataclass(frozen=True, slots=True)
class CountSuccesses(Node, ast_utils.AsList):
    """``>=N`` (and ``>N <=N <N =N``): the term counts the dice meeting it instead of summing."""

    items: Any
    compare: Compare | None = None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            object.__setattr__(self, "pos", self.items[0].start_pos)
            object.__setattr__(self, "compare", Compare.of(*_compare_parts(self.items)))
            object.__setattr__(self, "items", ())


@dataclass(frozen=True, slots=True)
class CountFailures(Node):
    """``fN`` / ``f<=N``: dice meeting it are subtracted from the successes."""

    letter: Any
    compare: Compare
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.letter, Token):
            object.__setattr__(self, "pos", self.letter.start_pos)
            object.__setattr__(self, "letter", "f")


@dataclass(frozen=True, slots=True)
class Modifiers(Node, ast_utils.AsList):
    """The modifiers after a dice term, in order."""

    items: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(self.items))


@dataclass(frozen=True, slots=True)
class Dice(Node):
    """``NdM`` with its modifiers and label."""

    count: Any
    die: Any
    sides: Any
    modifiers: Modifiers
    label: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.die, Token):
            start = self.count.start_pos if isinstance(self.count, Token) else self.die.start_pos
            object.__setattr__(self, "pos", start)
            object.__setattr__(self, "die", "d")
        if isinstance(self.count, Token):
            object.__setattr__(self, "count", to_int(self.count))
        if isinstance(self.sides, Token):
            kind = self.sides.type
            object.__setattr__(self, "sides", "%" if kind == "PERCENT" else "F" if kind == "FUDGE" else to_int(self.sides))
        if isinstance(self.label, Token):
            object.__setattr__(self, "label", str(self.label)[1:-1].strip())
