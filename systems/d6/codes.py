"""D6 dice codes (``4D+2``), shared by the ``d6`` and ``d6wild`` systems: the syntax-tree nodes of
``grammars/d6.lark`` and the code algebra.

Code arithmetic adds dice and pips separately, without carrying pips into dice, as the texts do
(``5D+1 - 2D`` is ``3D+1``; a Force point doubles ``5D+1`` into ``10D+2`` and ``2D+2`` into ``4D+4``).
Halving (hurrying, ``/ 2``) counts the code in pips (3 pips = 1D) and rounds down:
``(5D+1) / 2`` is 16 pips / 2 = 8 pips = ``2D+2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diceengine.arith import Algebra, fold
from diceengine.ast import Node, at_token, position, to_int
from diceengine.errors import DiceValueError
from diceengine.i18n import N_

from ..words import plain_word

__all__ = [
    "Check",
    "Code",
    "CodeAlgebra",
    "CodeLiteral",
    "NamedDifficulty",
    "code_named",
    "code_of",
    "parse_code",
    "skill_key",
]


@dataclass(frozen=True, slots=True)
class Code:
    """A dice code: ``dice`` six-sided dice plus ``pips``."""

    dice: int
    pips: int = 0

    def __add__(self, other: Code | int) -> Code:
        other = _as_code(other)
        return Code(self.dice + other.dice, self.pips + other.pips)

    __radd__ = __add__

    def __sub__(self, other: Code | int) -> Code:
        other = _as_code(other)
        return Code(self.dice - other.dice, self.pips - other.pips)

    def __neg__(self) -> Code:
        return Code(-self.dice, -self.pips)

    def __mul__(self, k: int) -> Code:
        return Code(self.dice * k, self.pips * k)

    __rmul__ = __mul__

    @property
    def in_pips(self) -> int:
        """The code counted in pips (1D = 3 pips)."""
        return 3 * self.dice + self.pips

    @classmethod
    def from_pips(cls, pips: int) -> Code:
        """The normalised code of a number of pips (pips 0-2)."""
        return cls(pips // 3, pips % 3)

    def normalised(self) -> Code:
        """Pips carried into dice: ``2D+3`` is ``3D``."""
        return Code.from_pips(self.in_pips) if self.pips >= 3 or self.pips < 0 <= self.in_pips else self

    def halved(self) -> Code:
        """Half the code, in pips, rounded down (hurrying)."""
        return Code.from_pips(self.in_pips // 2)

    @property
    def is_number(self) -> bool:
        return self.dice == 0

    def __str__(self) -> str:
        if self.dice == 0:
            return str(self.pips)
        if self.pips == 0:
            return f"{self.dice}D"
        return f"{self.dice}D{self.pips:+d}"


def _as_code(value: Code | int) -> Code:
    return value if isinstance(value, Code) else Code(0, int(value))


# ---------------------------------------------------------------- syntax tree (grammars/d6.lark)


@dataclass(frozen=True, slots=True)
class CodeLiteral(Node):
    """``4D``: a number of six-sided dice (rule ``code``)."""

    dice: Any
    letter: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if at_token(self, "dice", to_int):
            object.__setattr__(self, "letter", "D")


@dataclass(frozen=True, slots=True)
class Check(Node):
    """``CODE vs DIFFICULTY``."""

    actor: Node
    vs: Any
    difficulty: Node
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "vs", lambda _: "vs")


@dataclass(frozen=True, slots=True)
class NamedDifficulty(Node):
    """``vs moderate``, ``vs point blank``: a difficulty by name."""

    words: Any
    pos: int | None = field(default=None, compare=False)

    def __init__(self, *words: Any) -> None:
        object.__setattr__(self, "pos", getattr(words[0], "start_pos", None) if words else None)
        object.__setattr__(self, "words", "_".join(plain_word(str(w)) for w in words))


class CodeAlgebra(Algebra[Code]):
    """Folds the arithmetic of an expression into one code."""

    def __init__(self, expression: str) -> None:
        self.expression = expression

    def number(self, value: int) -> Code:
        return Code(0, value)

    def leaf(self, node: Any) -> Code:
        if isinstance(node, CodeLiteral):
            return Code(node.dice, 0)
        raise DiceValueError(N_("not a dice code"), self.expression, position(node))

    def mul(self, a: Code, b: Code, node: Any) -> Code:
        if a.is_number:
            return b * a.pips
        if b.is_number:
            return a * b.pips
        raise DiceValueError(N_("two dice codes cannot be multiplied"), self.expression, node.pos)

    def div(self, a: Code, b: Code, node: Any) -> Code:
        if not b.is_number:
            raise DiceValueError(N_("cannot divide by a dice code"), self.expression, node.pos)
        if b.pips == 0:
            raise DiceValueError(N_("division by zero"), self.expression, node.pos)
        if a.is_number:
            return Code(0, a.pips // b.pips)
        if b.pips == 2:
            return a.halved()
        return Code.from_pips(a.in_pips // b.pips)

    def neg(self, a: Code, node: Any) -> Code:
        return -a


def code_of(node: Any, expression: str) -> Code:
    """The code an arithmetic expression of codes and numbers adds up to."""
    return fold(node, CodeAlgebra(expression))


def parse_code(text: str | Code) -> Code:
    """``"5D+1"`` -> ``Code(5, 1)`` (any code arithmetic is allowed: ``"2*(5D+1)"``)."""
    if isinstance(text, Code):
        return text
    from diceengine.api import plan

    return plan(str(text), "d6").actor_code  # type: ignore[attr-defined]


def skill_key(skill: str) -> str:
    """How a skill is kept on a sheet: ``"Space-Transports"``, ``"space transports"`` -> ``"space_transports"``."""
    return skill.lower().replace(" ", "_").replace("-", "_")


def code_named(codes: dict[str, str], who: str, skill: str) -> Code:
    """``who``'s code for ``skill`` among ``codes`` (any case; spaces, hyphens or underscores), or the engine's
    error."""
    key = skill_key(skill)
    if key not in codes:
        raise DiceValueError(N_("{who} has no code for {skill} (known: {known})"), who=who, skill=repr(skill),
                             known=", ".join(codes))
    return parse_code(codes[key])
