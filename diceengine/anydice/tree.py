"""The syntax tree of an AnyDice program: frozen records, each with its position (a character offset)."""

from __future__ import annotations

from diceengine.records import dataclass, field

__all__ = [
    "Assign", "Binary", "Block", "Call", "Expr", "FunctionDef", "If", "Item", "Loop", "Name", "Number", "Output",
    "Param", "Program", "Result", "Sequence", "Set", "Statement", "Unary",
]


@dataclass(frozen=True, slots=True)
class Number:
    """An integer literal."""

    value: int
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    """A variable read."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Item:
    """One element of a sequence literal: ``value``, ``value..upto``, each optionally ``:repeat`` times."""

    value: Expr
    upto: Expr | None = None
    repeat: Expr | None = None
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Sequence:
    """A sequence literal ``{...}``."""

    items: tuple[Item, ...]
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    """``op operand`` with ``op`` one of ``- + ! # d``."""

    op: str
    operand: Expr
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    """``left op right``."""

    op: str
    left: Expr
    right: Expr
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    """``[words and arguments]``: ``parts`` holds each word as a ``str`` and each argument as an expression."""

    parts: tuple[str | Expr, ...]
    pos: int = field(default=0, compare=False)

    @property
    def key(self) -> tuple[str | None, ...]:
        """The function's identity: its words, ``None`` at each argument."""
        return tuple(p if isinstance(p, str) else None for p in self.parts)

    @property
    def arguments(self) -> tuple[Expr, ...]:
        """The argument expressions, in order."""
        return tuple(p for p in self.parts if not isinstance(p, str))


Expr = Number | Name | Sequence | Unary | Binary | Call


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of a function: its name and type (``"n"``, ``"s"``, ``"d"`` or ``""`` for none)."""

    name: str
    type: str = ""
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Block:
    """Statements between braces."""

    statements: tuple[Statement, ...]
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Assign:
    """``NAME: expr``."""

    name: str
    value: Expr
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Output:
    """``output expr [named "label"]``."""

    value: Expr
    label: str | None = None
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Result:
    """``result: expr``."""

    value: Expr
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """``function: words and parameters {body}``."""

    parts: tuple[str | Param, ...]
    body: Block
    pos: int = field(default=0, compare=False)

    @property
    def key(self) -> tuple[str | None, ...]:
        """The function's identity: its words, ``None`` at each parameter."""
        return tuple(p if isinstance(p, str) else None for p in self.parts)

    @property
    def params(self) -> tuple[Param, ...]:
        """The parameters, in order."""
        return tuple(p for p in self.parts if isinstance(p, Param))


@dataclass(frozen=True, slots=True)
class If:
    """``if cond {then} else {otherwise}`` (``otherwise`` a block, another ``If`` or ``None``)."""

    condition: Expr
    then: Block
    otherwise: Block | If | None = None
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Loop:
    """``loop NAME over expr {body}``."""

    name: str
    over: Expr
    body: Block
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Set:
    """``set "setting" to value`` (the value a string or an expression)."""

    setting: str
    value: str | Expr
    pos: int = field(default=0, compare=False)


Statement = Assign | Output | Result | FunctionDef | If | Loop | Set


@dataclass(frozen=True, slots=True)
class Program:
    """A whole program: its statements and its text."""

    statements: tuple[Statement, ...]
    text: str = field(default="", compare=False, repr=False)
