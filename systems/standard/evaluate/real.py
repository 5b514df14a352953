"""rpg-dice-roller's real-valued functions (``sqrt pow exp log sign sin cos tan``): one value at a time (a roll, the
exact odds: the support's values mapped, their masses kept) and on sampled arrays.

A value is exact while it can be: ``sqrt(9/4)`` is ``3/2``, ``pow(2, -1)`` is ``1/2``, ``exp(0)``, ``sin(0)``,
``log(1)`` whole; any other result is a float (:func:`real`: a float within :data:`~.base.SNAP` of a whole number is
that number), so that ``sqrt(2)`` keeps its mass at one value whichever path computed it. Values where the function
has no real value (``sqrt`` of a negative number, ``log`` of zero) are the engine's error, never a NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_VALUE

from ..exact import normal, show
from .base import snap

__all__ = ["REAL_FUNCTIONS", "real", "real_bounds", "real_sample"]

#: the largest argument of exp() (beyond it the value leaves the engine's range)
MAX_EXP = math.log(MAX_VALUE)
#: the smallest positive argument of log()
MIN_LOG = 1e-300


def real(value: Any) -> Any:
    """A result in its simplest type: whole numbers ``int``, fractions ``Fraction``, others ``float`` (finite)."""
    if type(value) is float and not math.isfinite(value):
        raise DiceLimitError(N_("a function's value is not a finite number here"))
    return normal(value)


def _sqrt(v: Any) -> Any:
    if v < 0:
        raise DiceValueError(N_("sqrt() of a negative number has no real value"))
    if type(v) is not float:
        f = Fraction(v)
        n, d = math.isqrt(f.numerator), math.isqrt(f.denominator)
        if n * n == f.numerator and d * d == f.denominator:
            return normal(Fraction(n, d))
    return real(math.sqrt(v))


def _exp(v: Any) -> Any:
    if v == 0:
        return 1
    if v > MAX_EXP:
        raise DiceLimitError(N_("exp() of {value} is beyond the engine's range"), value=show(v))
    return real(math.exp(v))


def _log(v: Any) -> Any:
    if v <= 0:
        raise DiceValueError(N_("log() of zero or a negative number has no real value"))
    if v == 1:
        return 0
    if v < MIN_LOG:
        raise DiceLimitError(N_("log() of a number this close to zero is beyond the engine's range"))
    return real(math.log(v))


def _sign(v: Any) -> int:
    return (v > 0) - (v < 0)


def _trig(fn: Callable[[float], float], at_zero: int) -> Callable[[Any], Any]:
    def apply(v: Any) -> Any:
        return at_zero if v == 0 else real(fn(v))
    return apply


def _power(x: Any, y: Any) -> Any:
    if type(y) is int:
        if y < 0 and x == 0:
            raise DiceValueError(N_("zero to a negative power (division by zero)"))
        if abs(x) > 1 and abs(y) * math.log2(abs(x)) > 60:
            raise DiceLimitError(N_("number too large: {number}"), number=f"pow({show(x)}, {y})")
        if type(x) is float:
            return real(x ** y)
        return normal(Fraction(x) ** y)
    if x < 0:
        raise DiceValueError(N_("pow() of a negative number to a fractional power has no real value"))
    if x == 0:
        if y < 0:
            raise DiceValueError(N_("zero to a negative power (division by zero)"))
        return 0
    if y * math.log2(x) > 60:
        raise DiceLimitError(N_("number too large: {number}"), number=f"pow({show(x)}, {show(y)})")
    return real(float(x) ** float(y))


#: name -> function of exact values
REAL_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": _sqrt, "exp": _exp, "log": _log, "sign": _sign, "pow": _power,
    "sin": _trig(math.sin, 0), "cos": _trig(math.cos, 1), "tan": _trig(math.tan, 0),
}


def real_sample(name: str, values: list[Any]) -> np.ndarray:
    """The function over sampled values (float arrays; ``sign`` gives integers), with the errors of
    :data:`REAL_FUNCTIONS`."""
    v = snap(values[0])
    with np.errstate(all="ignore"):
        if name == "sign":
            return np.sign(v).astype(np.int64)
        if name == "sqrt":
            if np.any(v < 0):
                raise DiceValueError(N_("sqrt() of a negative number has no real value"))
            return np.sqrt(v)
        if name == "exp":
            if np.any(v > MAX_EXP):
                raise DiceLimitError(N_("exp() of {value} is beyond the engine's range"),
                                     value=show(float(np.max(v))))
            return np.exp(v)
        if name == "log":
            if np.any(v <= 0):
                raise DiceValueError(N_("log() of zero or a negative number has no real value"))
            if np.any(v < MIN_LOG):
                raise DiceLimitError(N_("log() of a number this close to zero is beyond the engine's range"))
            return np.log(v)
        if name in ("sin", "cos", "tan"):
            return getattr(np, name)(v)
        y = snap(values[1])  # pow
        whole = np.rint(y) == y
        if np.any((v < 0) & ~whole):
            raise DiceValueError(N_("pow() of a negative number to a fractional power has no real value"))
        if np.any((v == 0) & (y < 0)):
            raise DiceValueError(N_("zero to a negative power (division by zero)"))
        out = np.power(v, y)
        if not np.all(np.isfinite(out)) or np.any(np.abs(out) > MAX_VALUE):
            raise DiceLimitError(N_("number too large: {number}"), number="pow()")
        return out


def real_bounds(name: str, ranges: list[tuple[Any, Any]], support: Callable[[], list[Any]],
                whole: bool) -> tuple[int, int]:
    """Whole numbers around every value the function can take on arguments within ``ranges``; ``support``: the
    first argument's possible values (asked for ``tan`` near a pole and a fractional base of ``pow`` to a
    negative power only); ``whole``: the first argument's values are whole numbers."""
    lo, hi = ranges[0]
    if name == "sign":
        return _sign(lo), _sign(hi)
    if name in ("sin", "cos"):
        return -1, 1
    if name == "sqrt":
        return math.floor(math.sqrt(max(lo, 0))), math.ceil(math.sqrt(max(hi, 0)))
    if name == "exp":
        if hi > MAX_EXP:
            raise DiceLimitError(N_("exp() could reach exp({value}), beyond the engine's range"), value=hi)
        return 0, math.ceil(math.exp(hi))
    if name == "log":
        top = math.ceil(math.log(hi)) if hi > 1 else 0
        return (0 if whole else math.floor(math.log(MIN_LOG))), top
    if name == "tan":
        first_pole = math.ceil((lo - math.pi / 2) / math.pi) * math.pi + math.pi / 2
        if first_pole > hi:  # increasing between two poles
            return math.floor(math.tan(lo)), math.ceil(math.tan(hi))
        values = [abs(math.tan(v)) for v in support()]
        top = math.ceil(max(values, default=0.0))
        return -top, top
    # pow
    (b0, b1) = ranges[1]
    m = max(abs(lo), abs(hi), 1)
    if b0 < 0 and not whole:  # a fraction to a negative power: one over the smallest fraction
        nonzero = [abs(v) for v in support() if v != 0]
        m = max(m, math.ceil(1 / min(nonzero, default=1)))
    e = max(abs(b0), abs(b1))
    if m > 1 and e * math.log2(m) > 60:
        raise DiceLimitError(N_("pow() could reach {base}^{exponent}, beyond the engine's range"), base=m,
                             exponent=e)
    top = math.ceil(m ** e)
    return -top, top
