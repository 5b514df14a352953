"""Interpreting the core arithmetic (``+ - * /``, unary minus, integers) over any algebra.

A system gives the leaves (its dice terms) a meaning through an :class:`Algebra`; the arithmetic
around them is folded here once, the same way for one roll, a bulk sample and an exact distribution.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .ast import Add, Div, Mul, Neg, Number, Sub, position
from .errors import DiceLimitError, DiceValueError
from .limits import MAX_CONSTANT

__all__ = ["Algebra", "IntAlgebra", "fold", "constant"]

V = TypeVar("V")


class Algebra(Generic[V]):
    """How values combine: override ``leaf`` for a system's dice terms, and the operators as needed."""

    def number(self, value: int) -> V:
        return value  # type: ignore[return-value]

    def leaf(self, node: Any) -> V:
        raise DiceValueError("dice are not allowed here", column=position(node))

    def add(self, a: V, b: V, node: Any) -> V:
        return a + b  # type: ignore[operator]

    def sub(self, a: V, b: V, node: Any) -> V:
        return a - b  # type: ignore[operator]

    def mul(self, a: V, b: V, node: Any) -> V:
        return a * b  # type: ignore[operator]

    def div(self, a: V, b: V, node: Any) -> V:
        if b == 0:
            raise DiceValueError("division by zero", column=node.pos)
        return a // b  # type: ignore[operator]

    def neg(self, a: V, node: Any) -> V:
        return -a  # type: ignore[operator]


class IntAlgebra(Algebra[int]):
    """Plain integers, bounded so that constants cannot grow without limit."""

    def mul(self, a: int, b: int, node: Any) -> int:
        result = a * b
        if abs(result) > MAX_CONSTANT**2:
            raise DiceLimitError("number too large", column=node.pos)
        return result


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
    """The integer value of a dice-free expression."""
    return fold(node, _INT)
