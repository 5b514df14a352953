"""Arithmetic of a standard expression: binary operators and comparisons, unary signs, functions
(``floor``, ``max``...)."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, ClassVar

from diceengine.arith import check_interval
from diceengine.errors import DiceError, DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.parts import Part
from diceengine.pmf import PMF, _check_support, convolve_cost

from ..exact import apply, close, combine, normal
from ..expressions import Call
from .base import Context, Evaluator, _as_array, _dense_enough, _pairs_cost, _span, snap, snapped_difference
from .intervals import binary_interval
from .real import REAL_FUNCTIONS, real_bounds, real_sample


def _floor_div(x: Any, y: Any) -> Any:
    return x // y


def _true_div(x: Any, y: Any) -> Any:
    return normal(Fraction(x) / Fraction(y))


def _pow(x: Any, y: Any, exact_division: bool) -> Any:
    if type(y) is not int:
        raise DiceValueError(N_("an exponent must be a whole number (pow(x, y) takes any: pow(2, 0.5))"))
    if y < 0:
        if x == 0:
            raise DiceValueError(N_("zero to a negative power (division by zero)"))
        value = Fraction(1) / Fraction(x) ** -y
        return normal(value) if exact_division else math.floor(value)
    if abs(x) > 1 and y * math.log2(abs(x)) > 60:
        raise DiceLimitError(N_("number too large: {x}^{y}"), x=x, y=y)
    return normal(x ** y) if type(x) is Fraction else x ** y


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "=": operator.eq, "!=": operator.ne, "<>": operator.ne,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
#: ``+ - *`` of whole numbers
_WHOLE: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
#: the numpy function of each operator on whole numbers, by name (numpy is imported by samples and exact odds only)
_NP = {"==": "equal", "=": "equal", "!=": "not_equal", "<>": "not_equal", "<": "less", "<=": "less_equal",
       ">": "greater", ">=": "greater_equal", "+": "add", "-": "subtract", "*": "multiply", "//": "floor_divide",
       "/": "floor_divide", "%": "mod"}


def _whole_arrays(op: str) -> Callable[[Any, Any], Any]:
    """``op`` on arrays of whole numbers (``/`` dividing to the floor), a comparison giving 0 or 1."""
    fn = getattr(np, _NP[op])
    if op in _COMPARE:
        return lambda x, y: fn(x, y).astype(np.int64)
    return fn  # type: ignore[no-any-return]


class Binary(Evaluator):
    """``+ - * / // % ^`` and comparisons between two expressions."""

    PREC: ClassVar[dict[str, int]] = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2, "^": 4}

    def __init__(self, op: str, left: Evaluator, right: Evaluator, node: Any, ctx: Context) -> None:
        self.op, self.left, self.right, self.node = op, left, right, node
        self.expression = ctx.expression
        self.exact_division = ctx.exact_division
        self.prec = 0 if op in _COMPARE else self.PREC[op]
        self.dice_count = left.dice_count + right.dice_count
        if op in _COMPARE:
            self.rational = False
        elif op == "/" and ctx.exact_division:
            self.rational = True
        elif op == "^":
            self.rational = left.rational or ctx.exact_division
        elif op == "//":
            self.rational = False
        else:
            self.rational = left.rational or right.rational
        self.fn = self._function()
        mine = self.prec  # whether each operand is written in parentheses, and the text's format ("{} + {}")
        self.parens = (left.prec < mine or (op == "^" and left.prec == mine),
                       right.prec < mine or (right.prec == mine and op in ("-", "/", "//", "%")))
        self._format = ("({}) " if self.parens[0] else "{} ") + op + (" ({})" if self.parens[1] else " {}")

    def _error(self, message: str, kind: type = DiceValueError) -> DiceError:
        return kind(message, self.expression, self.node.pos)

    def _function(self) -> Callable[[Any, Any], Any]:
        op = self.op
        if self.rational and op in _WHOLE:  # 1/2 + 1/2 is the int 1, as every other exact value
            arithmetic = _WHOLE[op]
            return lambda a, b: normal(arithmetic(a, b))
        if op in _WHOLE:  # shared by every node (nothing of this one held)
            return _WHOLE[op]
        if op in _COMPARE:
            test = _COMPARE[op]
            if self.left.rational or self.right.rational:  # a real function's floats: equal up to rounding
                return lambda a, b: 1 if test(0 if close(a, b) else a - b, 0) else 0
            return lambda a, b: 1 if test(a, b) else 0
        if op == "^":
            exact_division = self.exact_division

            def power(a: Any, b: Any) -> Any:
                try:
                    return _pow(a, b, exact_division)
                except DiceError as err:
                    raise err.at(self.expression, self.node.pos) from None
            return power
        divide = _true_div if (op == "/" and self.exact_division) else _floor_div
        mod = op == "%"

        def checked(a: Any, b: Any) -> Any:
            if b == 0:
                raise self._error("division by zero")
            if mod:
                return normal(Fraction(a) % Fraction(b)) if (type(a) is Fraction or type(b) is Fraction) \
                    else a % b
            if type(a) is Fraction or type(b) is Fraction:
                return normal(Fraction(a) / Fraction(b)) if divide is _true_div else math.floor(
                    Fraction(a) / Fraction(b))
            return divide(a, b)
        return checked

    def roller(self) -> Any:
        a, b, fn = self.left.roller(), self.right.roller(), self.fn
        if not callable(a) and not callable(b):
            return fn(a, b)
        if self.op == "+" and not self.rational:  # (the operands bound as defaults: one tuple held, not two cells)
            if not callable(b):  # the common "dice + modifier": one call less per roll
                return lambda r, rec, a=a, b=b: a(r, rec) + b
            if not callable(a):
                return lambda r, rec, a=a, b=b: a + b(r, rec)
            return lambda r, rec, a=a, b=b: a(r, rec) + b(r, rec)
        if not callable(b):
            return lambda r, rec, a=a, b=b, fn=fn: fn(a(r, rec), b)
        if not callable(a):
            return lambda r, rec, a=a, b=b, fn=fn: fn(a, b(r, rec))
        return lambda r, rec, a=a, b=b, fn=fn: fn(a(r, rec), b(r, rec))

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        a = self.left.sample(n, gen)
        b = self.right.sample(n, gen)
        op = self.op
        if op in ("/", "//", "%") and np.any(np.asarray(b) == 0):
            raise self._error("division by zero")
        if op == "/" and self.exact_division:
            return np.true_divide(a, b)
        if op == "^":
            return _pairwise(a, b, self.fn, n, self.rational)
        if op in _WHOLE or not (self.left.rational or self.right.rational):
            return _whole_arrays(op)(a, b)
        if op in _COMPARE:  # equal up to float rounding: equal (the exact odds compare fractions)
            return _whole_arrays(op)(snapped_difference(a, b), 0.0)
        if op == "%":  # a - b * floor(a / b), the quotient read as the exact one
            x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
            rest = x - y * np.floor(snap(x / y))
            return np.where(snapped_difference(rest, 0.0) == 0.0, 0.0, rest)
        return np.floor(snap(np.true_divide(a, b))).astype(np.int64)

    def exact(self) -> Any:
        a, b, op = self.left.exact(), self.right.exact(), self.op
        if op == "+" and isinstance(a, PMF) and isinstance(b, PMF):
            return a + b
        if op == "-" and isinstance(a, PMF) and isinstance(b, PMF):
            return a - b
        if op == "*" and isinstance(a, PMF) and isinstance(b, PMF) and _dense_enough(a, b, self.bounds()):
            if len(a.p) == 1:
                return b.map(lambda v: v * a.offset)
            if len(b.p) == 1:
                return a.map(lambda v: v * b.offset)
            return a.combine(b, np.multiply)
        if op in ("/", "//", "%") and any(v == 0 for v, _ in b.items()):
            raise self._error("division by zero is possible")
        whole = op not in _WHOLE and op != "^" and not (op == "/" and self.exact_division)
        with np.errstate(divide="ignore"):  # (a product too sparse for an array: a table, pair by pair)
            return combine(a, b, self.fn, _whole_arrays(op) if whole else None)

    def render(self, records: Iterator[Any]) -> str:
        return self._format.format(self.left.render(records), self.right.render(records))

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        left, right = self.left.template(), self.right.template()
        if left is None or right is None:
            return None
        return self._format.format(left[0], right[0]), left[1] + right[1]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        self.left.wrapped(records, out, self.parens[0])
        out.append(f" {self.op} ")
        self.right.wrapped(records, out, self.parens[1])

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        a = self.left.wrapped_writer(text, self.parens[0])
        op = text(f" {self.op} ")
        b = self.right.wrapped_writer(text, self.parens[1])
        return lambda records: a(records) + op + b(records)

    def truncated(self) -> float:
        return self.left.truncated() + self.right.truncated()

    def exact_cost(self) -> tuple[Cost, int, int]:
        a, b = self.left.exact_cost(), self.right.exact_cost()
        lo, hi = self.bounds()
        if self.op in ("+", "-") and not self.rational:
            lo, hi = (a[1] + b[1], a[2] + b[2]) if self.op == "+" else (a[1] - b[2], a[2] - b[1])
            span = hi - lo + 1
            _check_support(span)
            return a[0] + b[0] + convolve_cost(_span(a[1], a[2]), _span(b[1], b[2])) + Cost(span, span), lo, hi
        return _pairs_cost(a, b, lo, hi, self.rational)

    def bounds(self) -> tuple[Any, Any]:
        a, b = self.left.bounds(), self.right.bounds()  # first: an operand's own limits hold under a comparison too
        if self.op in _COMPARE:
            return 0, 1
        fractional = self.rational or (self.op == "/" and self.exact_division)
        lo, hi = binary_interval(self.op, a, b, fractional, self.expression, self.node.pos)
        return check_interval(math.floor(lo), math.ceil(hi), self.expression, self.node.pos)


def _pairwise(a: Any, b: Any, fn: Callable[[Any, Any], Any], n: int, rational: bool) -> np.ndarray:
    """``fn`` over two value arrays, computed once per distinct pair (powers, exact quotients)."""
    x, y = _as_array(a, n), _as_array(b, n)
    pairs = np.stack([x.astype(np.float64) if rational else x, y], axis=1) if n else np.zeros((0, 2))
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    values = [fn(_scalar(u[0]), _scalar(u[1])) for u in unique]
    table = np.array([float(v) for v in values]) if rational else np.array(values, dtype=np.int64)
    return table[inverse.ravel()] if n else np.zeros(0, dtype=table.dtype)


def _scalar(v: Any) -> Any:
    """A sampled value as an exact number: the simplest fraction this float rounds (a sampled fraction)."""
    f = float(v)
    return int(f) if f.is_integer() else Fraction(f).limit_denominator(10**6)


class Unary(Evaluator):
    """``-x`` and ``+x``."""

    prec = 3

    def __init__(self, op: str, operand: Evaluator) -> None:
        self.op, self.operand = op, operand
        self.rational = operand.rational
        self.dice_count = operand.dice_count

    def roller(self) -> Any:
        a = self.operand.roller()
        if self.op == "+":
            return a
        return (lambda r, rec: -a(r, rec)) if callable(a) else -a

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        a = self.operand.sample(n, gen)
        return a if self.op == "+" else -a

    def exact(self) -> Any:
        a = self.operand.exact()
        if self.op == "+":
            return a
        return -a if isinstance(a, PMF) else apply(a, lambda v: -v)

    def render(self, records: Iterator[Any]) -> str:
        inner = self.operand.render(records)
        if self.operand.prec < 3:
            inner = f"({inner})"
        return f"{self.op}{inner}"

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        inner = self.operand.template()
        if inner is None:
            return None
        return (f"{self.op}({inner[0]})" if self.operand.prec < 3 else f"{self.op}{inner[0]}"), inner[1]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        out.append(self.op)
        self.operand.wrapped(records, out, self.operand.prec < 3)

    def truncated(self) -> float:
        return self.operand.truncated()

    def bounds(self) -> tuple[Any, Any]:
        lo, hi = self.operand.bounds()
        return (lo, hi) if self.op == "+" else (-hi, -lo)

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost, lo, hi = self.operand.exact_cost()
        return cost + Cost(hi - lo + 1, hi - lo + 1), (lo if self.op == "+" else -hi), (hi if self.op == "+" else -lo)


def _round_half_up(v: Any) -> int:
    return math.floor(v + Fraction(1, 2)) if type(v) is not int else v


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "floor": lambda v: math.floor(v), "ceil": lambda v: math.ceil(v), "round": _round_half_up,
    "abs": lambda v: abs(v), "min": min, "max": max, **REAL_FUNCTIONS,
}
#: the functions of two expressions (rpg-dice-roller's pow), of one or more (min, max); the others take one
_TWO, _MANY = ("pow",), ("min", "max")


class Function(Evaluator):
    """``floor ceil round abs sqrt exp log sign sin cos tan`` of one expression, ``pow`` of two, ``min max`` of one
    or more (rpg-dice-roller's functions, :mod:`.real` for the real-valued ones); ``round`` rounds halves up, as
    JavaScript's ``Math.round``."""

    def __init__(self, name: str, args: list[Evaluator], node: Call, ctx: Context) -> None:
        self.name, self.args, self.node = name, args, node
        self.expression = ctx.expression
        if name in _TWO and len(args) != 2:
            raise DiceValueError(N_("{name}() takes two expressions, not {count}"), ctx.expression, node.pos,
                                 name=name, count=len(args))
        if name not in _TWO and name not in _MANY and len(args) != 1:
            raise DiceValueError(N_("{name}() takes one expression, not {count}"), ctx.expression, node.pos, name=name,
                                 count=len(args))
        self.fn = self._located(_FUNCTIONS[name]) if name in REAL_FUNCTIONS else _FUNCTIONS[name]
        self.rational = (name in ("abs", "min", "max") and any(a.rational for a in args)) \
            or (name in REAL_FUNCTIONS and name != "sign")
        self.dice_count = sum(a.dice_count for a in args)
        self._bounds: tuple[Any, Any] | None = None

    def _located(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` with its errors placed at the function's name."""
        def located(*values: Any) -> Any:
            try:
                return fn(*values)
            except DiceError as err:
                raise err.at(self.expression, self.node.pos) from None
        return located

    def roller(self) -> Any:
        parts = [a.roller() for a in self.args]
        fn = self.fn
        if self.name in _MANY:
            if not any(callable(p) for p in parts):
                return fn(parts)
            return lambda r, rec: fn([p(r, rec) if callable(p) else p for p in parts])
        if self.name in _TWO:
            a, b = parts
            if not callable(a) and not callable(b):
                return fn(a, b)
            return lambda r, rec: fn(a(r, rec) if callable(a) else a, b(r, rec) if callable(b) else b)
        p = parts[0]
        return (lambda r, rec: fn(p(r, rec))) if callable(p) else fn(p)

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        values = [a.sample(n, gen) for a in self.args]
        name = self.name
        if name in REAL_FUNCTIONS:
            try:
                return real_sample(name, values)
            except DiceError as err:
                raise err.at(self.expression, self.node.pos) from None
        if name == "min":
            return functools.reduce(np.minimum, values)
        if name == "max":
            return functools.reduce(np.maximum, values)
        v = values[0]
        if name == "abs":
            return np.abs(v)
        if not self.args[0].rational:
            return v
        v = snap(v)  # a fraction a float rounds just under a whole number is that number
        if name == "floor":
            return np.floor(v).astype(np.int64)
        if name == "ceil":
            return np.ceil(v).astype(np.int64)
        return np.floor(snap(v + 0.5)).astype(np.int64)

    def exact(self) -> Any:
        dists = [a.exact() for a in self.args]
        if self.name in _TWO:
            return combine(dists[0], dists[1], self.fn)
        if self.name in ("min", "max"):
            vec = np.minimum if self.name == "min" else np.maximum
            pick = min if self.name == "min" else max
            return functools.reduce(lambda out, d: combine(out, d, pick, vec), dists)
        return apply(dists[0], self.fn)

    def render(self, records: Iterator[Any]) -> str:
        return f"{self.name}(" + ", ".join(a.render(records) for a in self.args) + ")"

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        out.append(f"{self.name}(")
        for i, a in enumerate(self.args):
            if i:
                out.append(", ")
            a.parts(records, out)
        out.append(")")

    def truncated(self) -> float:
        return sum(a.truncated() for a in self.args)

    def exact_cost(self) -> tuple[Cost, int, int]:
        costs = [a.exact_cost() for a in self.args]
        lo, hi = self.bounds()
        out = costs[0]
        for c in costs[1:]:
            out = _pairs_cost(out, c, lo, hi, self.rational)
        if len(costs) == 1:
            out = _pairs_cost(out, (Cost(), 0, 0), lo, hi, True)
        return out[0], math.floor(lo), math.ceil(hi)

    def bounds(self) -> tuple[Any, Any]:
        ranges = [a.bounds() for a in self.args]
        if self.name in REAL_FUNCTIONS:
            if self._bounds is None:
                def support() -> list[Any]:
                    return [v for v, _ in self.args[0].exact().items()]
                try:
                    lo, hi = real_bounds(self.name, ranges, support, not self.args[0].rational)
                except DiceError as err:
                    raise err.at(self.expression, self.node.pos) from None
                self._bounds = check_interval(lo, hi, self.expression, self.node.pos)
            return self._bounds
        if self.name == "min":
            return min(r[0] for r in ranges), min(r[1] for r in ranges)
        if self.name == "max":
            return max(r[0] for r in ranges), max(r[1] for r in ranges)
        lo, hi = ranges[0]
        if self.name == "abs":
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        return math.floor(lo), math.ceil(hi)
