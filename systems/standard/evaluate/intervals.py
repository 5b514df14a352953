"""The interval arithmetic of the binary operators: the least and the greatest value ``a op b`` can take when ``a``
and ``b`` range over intervals (what an expression's bounds are made of)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from diceengine.errors import DiceLimitError
from diceengine.i18n import N_

Interval = tuple[Any, Any]


def binary_interval(op: str, a: Interval, b: Interval, fractional: bool, expression: str,
                    pos: int | None) -> Interval:
    """``(lo, hi)`` of ``a op b`` for ``+ - * % ^ / //`` (``fractional``: ``/`` divides exactly); a power that could
    leave the exact integer range is refused (:class:`DiceLimitError` at ``pos`` of ``expression``)."""
    (a0, a1), (b0, b1) = a, b
    if op == "+":
        return a0 + b0, a1 + b1
    if op == "-":
        return a0 - b1, a1 - b0
    if op == "*":
        corners = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
        return min(corners), max(corners)
    if op == "%":
        if b0 > 0:
            return 0, b1
        if b1 < 0:
            return b0, 0
        m = max(abs(b0), abs(b1))
        return -m, m
    if op == "^":
        return _power_interval(a, b, expression, pos)
    if b0 > 0 or b1 < 0:  # / and //: monotone in each operand away from a zero divisor
        div = (lambda x, y: Fraction(x) / Fraction(y)) if fractional else (lambda x, y: x // y)
        corners = (div(a0, b0), div(a0, b1), div(a1, b0), div(a1, b1))
        return min(corners), max(corners)
    m = max(abs(a0), abs(a1))  # |x / y| <= |x| for a whole y != 0
    return -m, m


def _power_interval(a: Interval, b: Interval, expression: str, pos: int | None) -> Interval:
    """``(lo, hi)`` of ``a ^ b``: a fraction's numerator and denominator are both raised, so its height bounds the
    work (``0.8382 ** -10**6``)."""
    (a0, a1), (b0, b1) = a, b
    height, m = max(_height(a0), _height(a1), 1), max(abs(a0), abs(a1), 1)
    top = max(abs(b0), abs(b1))
    if b0 < 0:  # a base below one raised to a negative power grows: 0.1 ^ -17 is 10 ^ 17
        m = max(m, 1 / Fraction(min(abs(a0), abs(a1))) if a0 > 0 or a1 < 0 else height)
    if height > 1 and top * math.log2(height) > 60:
        raise DiceLimitError(N_("a power could reach {height}^{top}, beyond the exact integer range"),
                             expression, pos, height=height, top=top)
    return -(m ** top), m ** top


def _height(x: Any) -> int:
    """The larger of a number's numerator and denominator in lowest terms (its size, as a whole number)."""
    f = Fraction(x)
    return max(abs(f.numerator), f.denominator)
