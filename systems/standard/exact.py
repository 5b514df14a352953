"""Exact distributions of values that may be fractions: integer totals stay :class:`~diceengine.pmf.PMF`
(numpy arrays), totals with fractions are :class:`RationalPMF` (``fractions.Fraction`` values, never floats).

Operations take and return either; a result whose values are all whole numbers is a ``PMF`` again.
Combining two distributions enumerates the pairs of their supports, within :data:`MAX_PAIRS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from diceengine.errors import DiceLimitError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.pmf import PMF

__all__ = ["MAX_PAIRS", "DecimalValue", "Exact", "RationalPMF", "apply", "build", "column", "combine", "normal",
           "show"]

#: most pairs of outcomes one exact operation may enumerate
MAX_PAIRS = 4_000_000


class RationalPMF:
    """A distribution over exact rational values (or sparse whole numbers): ``table[value] = probability``."""

    __slots__ = ("table",)

    def __init__(self, table: dict[Any, float]) -> None:
        self.table = table

    def items(self) -> list[tuple[Any, float]]:
        return sorted(self.table.items())

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        return f"RationalPMF({dict(self.items())})"


Exact = PMF | RationalPMF


def show(value: Any) -> str:
    """A value as a player reads it: ``7``, a fraction with a finite decimal expansion as that expansion
    (``7.5``, ``50.45``, exact), any other as ``n/d`` (``2/3``); a real number (``sqrt``) to 12 digits."""
    if type(value) is int:
        return str(value)
    if type(value) is float:
        return format(value, ".12g")
    if not isinstance(value, Fraction) or value.denominator == 1:
        return str(int(value)) if isinstance(value, Fraction) else str(value)
    d, twos, fives = value.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10 ** places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    return ("-" if value < 0 else "") + digits[:-places] + "." + digits[-places:]


class DecimalValue(Fraction):
    """A fraction written as a decimal (:func:`show`): a face clamped to a decimal bound (``6d%max50.45``)."""

    __slots__ = ()

    def __str__(self) -> str:
        return show(self)


#: how close (relative) a float must be to a whole number to be that number (the float rounding of sqrt(2)^2)
SNAP = 1e-9


def normal(value: Any) -> Any:
    """A value in its simplest exact type: a whole ``Fraction`` becomes an ``int``, and so does a float (a real
    function's value, :mod:`.evaluate.real`) within :data:`SNAP` of a whole number."""
    t = type(value)
    if t is Fraction and value.denominator == 1:
        return int(value.numerator)
    if t is float and math.isfinite(value) and abs(value) < 2.0**62:
        whole = round(value)
        if abs(value - whole) <= SNAP * max(1.0, abs(value)):
            return int(whole)
    return value


def close(a: Any, b: Any) -> bool:
    """Whether two values are equal, a float (a real function's value) up to its rounding (:data:`SNAP`)."""
    if type(a) is not float and type(b) is not float:
        return bool(a == b)
    return abs(a - b) <= SNAP * max(1.0, abs(a), abs(b))


def column(values: list[Any]) -> np.ndarray:
    """Values of a distribution as a column: integers (``int64``) when they are all whole numbers, however the
    distribution held them; else Python numbers (fractions)."""
    if all(type(v) is int for v in values):
        return np.array(values, dtype=np.int64)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def size(x: Exact) -> int:
    return len(x.p) if isinstance(x, PMF) else len(x.table)


def build(items: Iterable[tuple[Any, float]]) -> Exact:
    """The distribution of these ``(value, probability)`` pairs (repeated values add up)."""
    table: dict[Any, float] = {}
    whole = True
    for v, p in items:
        v = normal(v)
        if type(v) is not int:
            whole = False
        table[v] = table.get(v, 0.0) + p
    if whole and (not table or max(table) - min(table) < max(4 * len(table), 1024)):
        return PMF.from_mapping(table)
    return RationalPMF(table)  # fractions, or whole numbers too sparse for a dense array (3d20^4)


def combine(a: Exact, b: Exact, fn: Callable[[Any, Any], Any],
            vectorised: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None) -> Exact:
    """The distribution of ``fn(X, Y)`` for independent ``X`` (a) and ``Y`` (b); ``vectorised`` is the same
    function on integer arrays, used when both are integer distributions."""
    if size(a) * size(b) > MAX_PAIRS:
        raise DiceLimitError(N_("too many possible results for exact odds (at most {max_pairs:,} pairs)"),
                             max_pairs=MAX_PAIRS)
    if vectorised is not None and isinstance(a, PMF) and isinstance(b, PMF):
        return a.combine(b, vectorised)
    out: list[tuple[Any, float]] = []
    for x, p in a.items():
        for y, q in b.items():
            out.append((fn(x, y), p * q))
    return build(out)


def apply(a: Exact, fn: Callable[[Any], Any]) -> Exact:
    """The distribution of ``fn(X)``."""
    return build((fn(x), p) for x, p in a.items())
