"""Syntax-tree nodes of the standard notation around its dice terms (``grammars/standard.lark``), one frozen record
per rule: descriptions, comparisons and operators, labels, function calls, groups and sets."""

from __future__ import annotations

from diceengine.arith import IntAlgebra, fold
from diceengine.ast import AsList, Node, Token, _Binary, _Unary, at_token, position, start
from diceengine.errors import DiceError, DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_CONSTANT
from diceengine.records import dataclass, field

from .nodes import CountFailures, CountSuccesses, Keep, Modifiers, Sort, decimal_of
from .words import meant

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "Call",
    "Comparison",
    "Computed",
    "Decimal",
    "Described",
    "FloorDiv",
    "Group",
    "GroupModifiers",
    "Labelled",
    "Mod",
    "Pos",
    "Pow",
    "Set",
]


@dataclass(frozen=True, slots=True)
class Described(Node):
    """An expression followed by its description: ``1d20+5 to hit``, ``2d6 # fire``, ``1d8 // note``; words that
    name an operation are no description (:meth:`meant`)."""

    expr: Node
    text: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "text", _description)

    def meant(self, expression: str, system: Any) -> tuple[str, DiceError | None] | Node | None:
        """What the words mean when they are dice (``4d6 keep 3``: ``4d6kh3``): the text to read instead and the
        error to raise if it does not read, or the tree they make (:func:`.words.meant`); ``None`` for words. The
        ``system`` that read them hands down its modifiers' spellings (``StandardSystem.modifier_letters``)."""
        return meant(expression, self.pos or 0, self.expr, Comparison, Described, system.modifier_letters())


def _description(token: Token) -> str:
    """A description's words, without the comment marks they may begin with (``#``, ``//``, ``/* ... */``)."""
    raw = str(token).strip()
    if raw.startswith("/*"):
        raw = raw[2:].removesuffix("*/")
    elif raw.startswith("//"):
        raw = raw[2:]
    elif raw.startswith("#"):
        raw = raw[1:]
    return raw.strip()


@dataclass(frozen=True, slots=True)
class Decimal(Node):
    """A decimal literal: ``1.5``, ``.5``, ``0.20`` (its exact fraction, and its text as written)."""

    value: Any
    text: str = ""
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.value, Token):
            object.__setattr__(self, "text", str(self.value))
            at_token(self, "value", decimal_of)


class Comparison(_Binary):
    """``left op right`` with ``== != <> < <= > >=`` (``=`` too): 1 when it holds, else 0."""

    __slots__ = ()


class FloorDiv(_Binary):
    """``left // right``: division rounding down (d20)."""

    __slots__ = ()


class Mod(_Binary):
    """``left % right``: the remainder of the division rounding down (its sign is the divisor's)."""

    __slots__ = ()


class Pow(_Binary):
    """``left ^ right`` / ``left ** right``."""

    __slots__ = ()


class Pos(_Unary):
    """``+operand``."""

    __slots__ = ()
    SYMBOL = "+"


@dataclass(frozen=True, slots=True)
class Labelled(Node):
    """A term with a label: ``1d8[piercing]``, ``4[bonus]``, ``(1d8+3)[healing]``."""

    term: Node
    label: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "label", lambda t: str(t)[1:-1].strip())


@dataclass(frozen=True, slots=True)
class Call(Node, AsList):
    """``floor(x) ceil(x) round(x) abs(x) min(x, y, ...) max(x, y, ...)``."""

    items: Any
    name: str = ""
    args: tuple = ()
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            head = self.items[0]
            object.__setattr__(self, "pos", head.start_pos)
            object.__setattr__(self, "name", str(head).lower())
            object.__setattr__(self, "args", tuple(self.items[1:]))
            object.__setattr__(self, "items", ())


class GroupModifiers(Modifiers):
    """The modifiers after a group or a set, in order."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Group(Node, AsList):
    """``{a, b, ...}`` with keep / drop, success counts and sorting over the totals of its expressions
    (Roll20, rpg-dice-roller); without modifiers, the sum of the totals."""

    items: Any
    exprs: tuple = ()
    modifiers: tuple = ()
    brace = True  # written in braces (a class's, not a field: a set is written in parentheses)

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            exprs, mods = [], []
            for item in self.items:
                if isinstance(item, GroupModifiers):
                    mods.extend(item.items)
                elif isinstance(item, (Keep, CountSuccesses, CountFailures, Sort)):
                    mods.append(item)
                elif item is not None and not isinstance(item, Token):
                    exprs.append(item)
            object.__setattr__(self, "exprs", tuple(exprs))
            object.__setattr__(self, "modifiers", tuple(mods))
            object.__setattr__(self, "items", ())


class Set(Group):
    """d20's set ``(a, b, ...)`` (``(1d6, 1d8, 4)kh1``), and ``(expr)kh1``: a group written in parentheses."""

    __slots__ = ()
    brace = False


MODIFIER_NUMBER = N_("a number in a modifier is whole and has no dice")


class _ModifierNumber(IntAlgebra):
    """The integers of a number computed in a modifier: the core arithmetic, ``//``, ``%`` and unary ``+``."""

    def leaf(self, node: Any) -> int:
        if type(node) is Pos:
            return fold(node.operand, self)
        if type(node) is Pow:
            a, b = fold(node.left, self), fold(node.right, self)
            if b < 0:
                raise DiceValueError(MODIFIER_NUMBER, column=position(node))
            if abs(a) > 1 and b > 64:  # past any bound: refused before it is computed
                raise DiceLimitError(N_("number too large: {number} (at most {limit})"), column=position(node),
                                     number=f"{a}^{b}", limit=MAX_CONSTANT)
            return self._ok(a**b, node)
        if type(node) in (FloorDiv, Mod):
            a, b = fold(node.left, self), fold(node.right, self)
            if b == 0:
                raise DiceValueError(N_("division by zero"), column=node.pos)
            return a // b if type(node) is FloorDiv else a % b
        raise DiceValueError(MODIFIER_NUMBER, column=position(node))


@dataclass(frozen=True, slots=True)
class Computed(Node):
    """A number computed in a modifier, ``(1+2)`` in ``4d6kh(1+2)``: whole, without dice, within the constants'
    bound."""

    expr: Any
    value: int = 0
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.expr, Node):
            value = fold(self.expr, _ModifierNumber())
            if abs(value) > MAX_CONSTANT:
                raise DiceLimitError(N_("number too large: {number} (at most {limit})"), column=start(self.expr),
                                     number=str(value), limit=MAX_CONSTANT)
            object.__setattr__(self, "value", value)
            object.__setattr__(self, "pos", start(self.expr))
            object.__setattr__(self, "expr", None)
