"""Interpreting the core arithmetic (``+ - * /``, unary minus, integers) over any algebra.

A system gives the leaves (its dice terms) a meaning through an :class:`Algebra`; the arithmetic
around them is folded here once, the same way for one roll, a bulk sample and an exact distribution.

The integer rule of the engine (README, "Bounds"): no value of an expression, intermediates included,
may leave ``[-MAX_VALUE, MAX_VALUE]`` (``2**53 - 1``). :func:`check_bounds` proves it at prepare time,
before any die is thrown, by interval arithmetic over the tree: each leaf says the range of its
values (``leaf_bounds(node) -> (lo, hi)``, e.g. a dice term's ``bounds()``), each operator combines the
ranges of its operands. An expression that could leave the range is refused with
:class:`~diceengine.errors.DiceLimitError` and a caret under the operator, the same way by ``roll``,
``sample`` and ``distribution``; an accepted one is exact in Python ints, int64 arrays and float64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .ast import Add, Div, Mul, Neg, Number, Sub, position
from .errors import DiceLimitError, DiceValueError
from .i18n import N_
from .limits import MAX_VALUE

__all__ = [
    "Algebra",
    "IntAlgebra",
    "Interval",
    "IntervalAlgebra",
    "check_bounds",
    "check_interval",
    "constant",
    "fold",
]

#: the closed range ``(lo, hi)`` of the values a node can take
Interval = tuple[int, int]

V = TypeVar("V")


class Algebra(Generic[V]):
    """How values combine: override ``leaf`` for a system's dice terms, and the operators as needed."""

    def number(self, value: int) -> V:
        return value  # type: ignore[return-value]

    def leaf(self, node: Any) -> V:
        raise DiceValueError(N_("dice are not allowed here"), column=position(node))

    def add(self, a: V, b: V, node: Any) -> V:
        return a + b  # type: ignore[operator]

    def sub(self, a: V, b: V, node: Any) -> V:
        return a - b  # type: ignore[operator]

    def mul(self, a: V, b: V, node: Any) -> V:
        return a * b  # type: ignore[operator]

    def div(self, a: V, b: V, node: Any) -> V:
        if b == 0:
            raise DiceValueError(N_("division by zero"), column=node.pos)
        return a // b  # type: ignore[operator]

    def neg(self, a: V, node: Any) -> V:
        return -a  # type: ignore[operator]


def check_interval(lo: int, hi: int, expression: str | None = None, column: int | None = None) -> Interval:
    """``(lo, hi)`` when both ends lie within ``±MAX_VALUE``; else :class:`DiceLimitError`."""
    if lo < -MAX_VALUE or hi > MAX_VALUE:
        worst = lo if -lo > hi else hi
        raise DiceLimitError(N_("a value could reach {worst} here, beyond the exact integer range (at most "
                                "{max_value} in size)"),
                             expression, column, worst=worst, max_value=MAX_VALUE)
    return lo, hi


class IntAlgebra(Algebra[int]):
    """Plain integers; every result obeys the engine's integer rule (within ``±MAX_VALUE``)."""

    def _ok(self, value: int, node: Any) -> int:
        if abs(value) > MAX_VALUE:
            raise DiceLimitError(N_("number too large: {value} (at most {max_value} in size)"),
                                 column=getattr(node, "pos", None), value=value, max_value=MAX_VALUE)
        return value

    def add(self, a: int, b: int, node: Any) -> int:
        return self._ok(a + b, node)

    def sub(self, a: int, b: int, node: Any) -> int:
        return self._ok(a - b, node)

    def mul(self, a: int, b: int, node: Any) -> int:
        return self._ok(a * b, node)


class IntervalAlgebra(Algebra[Interval]):
    """Ranges ``(lo, hi)``: the leaves' from ``leaf_bounds``, each operator's result checked against the
    integer rule (:func:`check_interval`, caret under the operator)."""

    def __init__(self, leaf_bounds: Callable[[Any], Interval], expression: str | None = None) -> None:
        self._leaf_bounds = leaf_bounds
        self.expression = expression

    def _ok(self, lo: int, hi: int, node: Any) -> Interval:
        return check_interval(lo, hi, self.expression, getattr(node, "pos", None))

    def number(self, value: int) -> Interval:
        return self._ok(value, value, None)

    def leaf(self, node: Any) -> Interval:
        lo, hi = self._leaf_bounds(node)
        return check_interval(lo, hi, self.expression, position(node))

    def add(self, a: Interval, b: Interval, node: Any) -> Interval:
        return self._ok(a[0] + b[0], a[1] + b[1], node)

    def sub(self, a: Interval, b: Interval, node: Any) -> Interval:
        return self._ok(a[0] - b[1], a[1] - b[0], node)

    def mul(self, a: Interval, b: Interval, node: Any) -> Interval:
        corners = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
        return self._ok(min(corners), max(corners), node)

    def div(self, a: Interval, b: Interval, node: Any) -> Interval:
        if b[0] > 0 or b[1] < 0:  # floor division is monotone in each operand away from zero
            corners = (a[0] // b[0], a[0] // b[1], a[1] // b[0], a[1] // b[1])
            return self._ok(min(corners), max(corners), node)
        m = max(abs(a[0]), abs(a[1]))  # |x // y| <= |x| for a whole y != 0
        return self._ok(-m, m, node)

    def neg(self, a: Interval, node: Any) -> Interval:
        return self._ok(-a[1], -a[0], node)


def fold(node: Any, algebra: Algebra[V]) -> V:
    """The value of ``node`` under ``algebra``."""
    t = type(node)
    if t is Number:
        return algebra.number(node.value)
    if t is Add:
        return algebra.add(fold(node.left, algebra), fold(node.right, algebra), node)
    if t is Sub:
        return algebra.sub(fold(node.left, algebra), fold(node.right, algebra), node)
    if t is Mul:
        return algebra.mul(fold(node.left, algebra), fold(node.right, algebra), node)
    if t is Div:
        return algebra.div(fold(node.left, algebra), fold(node.right, algebra), node)
    if t is Neg:
        return algebra.neg(fold(node.operand, algebra), node)
    return algebra.leaf(node)


_INT = IntAlgebra()


def constant(node: Any) -> int:
    """The integer value of a dice-free expression (within ``±MAX_VALUE`` at every step)."""
    return fold(node, _INT)


def check_bounds(tree: Any, expression: str, leaf_bounds: Callable[[Any], Interval]) -> Interval:
    """The range of ``tree``'s value, proved within ``±MAX_VALUE`` at every node (else
    :class:`DiceLimitError` with a caret under the first operator that could leave it).

    ``leaf_bounds(node)`` gives the range of a leaf that is not a number (a system's dice term):
    every value the leaf can produce, explosions to their limit included, must lie in it.
    """
    return fold(tree, IntervalAlgebra(leaf_bounds, expression))
