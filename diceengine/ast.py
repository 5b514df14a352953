"""The immutable syntax tree: one frozen record per rule of ``grammars/core.lark``.

Systems define the nodes of their own grammar fragment the same way (subclasses of :class:`Node`
in their module) and the parser builds each rule with the class of the same name from both sets of classes
(Lark's ``ast_utils`` pattern), so the grammar and the tree stay in step. A node receives the grammar's tokens
as :class:`Token` (``isinstance(x, Token)``: the engine's parser's tokens, and Lark's when a plug-in's grammar
is parsed by Lark); a node class that also inherits :class:`AsList` receives its children as one list.
"""

from __future__ import annotations

from .errors import DiceLimitError
from .i18n import N_
from .lalr import Token
from .limits import MAX_CONSTANT
from .records import dataclass, field, fields, is_dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, ClassVar

__all__ = [
    "Add",
    "AsList",
    "Div",
    "Mul",
    "Neg",
    "Node",
    "Number",
    "Sub",
    "Token",
    "at_token",
    "children",
    "counterpart",
    "position",
    "start",
    "to_int",
]


class Node:
    """Base class of every syntax-tree node: frozen records of :mod:`diceengine.records` (declared and behaving as
    frozen, slotted dataclasses; a plug-in's nodes may be dataclasses)."""

    __slots__ = ()


class AsList:
    """Mixin of a node class built from its children as one list (Lark's ``ast_utils.AsList``)."""

    __slots__ = ()


def at_token(node: Node, name: str, value: Callable[[Any], Any]) -> bool:
    """Whether field ``name`` of a node just built holds the grammar's token; if so the node's ``pos`` becomes the
    token's position and the field ``value(token)``."""
    token = getattr(node, name)
    if not isinstance(token, Token):
        return False
    object.__setattr__(node, "pos", token.start_pos)
    object.__setattr__(node, name, value(token))
    return True


def to_int(token: Any) -> int:
    """The integer of an ``INT`` token, bounded by :data:`~diceengine.limits.MAX_CONSTANT`."""
    text = str(token)
    if len(text) > 10 or int(text) > MAX_CONSTANT:
        raise DiceLimitError(N_("number too large: {number} (at most {limit})"), column=_pos(token), number=text,
                             limit=MAX_CONSTANT)
    return int(text)


def _pos(token: Any) -> int | None:
    return getattr(token, "start_pos", None)


def position(node: Any) -> int | None:
    """Column of the first character of ``node`` in the expression, when known."""
    pos = getattr(node, "pos", None)
    if pos is not None:
        return pos
    for child in children(node):
        p = position(child)
        if p is not None:
            return p
    return None


def start(node: Any) -> int | None:
    """Column where ``node``'s text begins (its leftmost leaf), when known."""
    found: list[int] = []
    while node is not None:
        pos = getattr(node, "pos", None)
        if pos is not None:
            found.append(pos)
        node = next(children(node), None)
    return min(found) if found else None


def counterpart(tree: Any, other: Any, column: int) -> int | None:
    """Where ``other`` (a tree equal to ``tree``, positions aside: another spelling of the same expression)
    places the first node, in reading order, that ``tree`` places at ``column``; ``None`` when no node of
    ``tree`` is there."""
    stack = [(tree, other)]
    while stack:
        mine, theirs = stack.pop()
        if getattr(mine, "pos", None) == column and getattr(theirs, "pos", None) is not None:
            return int(theirs.pos)
        stack.extend(reversed(list(zip(children(mine), children(theirs)))))
    return None


#: node class -> the names of its fields (read once per class)
_FIELDS: dict[type, tuple[str, ...]] = {}


def children(node: Any) -> Iterator[Any]:
    """The child nodes of ``node`` (fields that are nodes, or tuples of nodes), in order."""
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(f.name for f in fields(node)) if is_dataclass(node) else ()
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item


@dataclass(frozen=True, slots=True)
class Number(Node):
    """An integer literal."""

    value: int
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "value", to_int)


@dataclass(frozen=True, slots=True)
class _Binary(Node):
    left: Node
    op: Any
    right: Node
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "op", str)


class Add(_Binary):
    """``left + right``."""

    __slots__ = ()


class Sub(_Binary):
    """``left - right``."""

    __slots__ = ()


class Mul(_Binary):
    """``left * right``."""

    __slots__ = ()


class Div(_Binary):
    """``left / right``: integer division rounding down; dividing by zero is the engine's error."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class _Unary(Node):
    """``op operand``: a sign (the class's ``SYMBOL``) before an expression."""

    op: Any
    operand: Node
    pos: int | None = field(default=None, compare=False)
    SYMBOL: ClassVar[str] = ""

    def __post_init__(self) -> None:
        at_token(self, "op", lambda _: self.SYMBOL)


class Neg(_Unary):
    """``-operand``."""

    __slots__ = ()
    SYMBOL = "-"
