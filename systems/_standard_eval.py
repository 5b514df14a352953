"""The standard notation's syntax tree compiled into evaluators: each node with its three evaluations.

Every evaluator has

- ``roller()``: a constant (the node holds no dice) or a function ``(random, record) -> value`` that
  throws its dice once and appends ``(owner, data)`` pairs to ``record`` (owners explain their dice);
- ``sample(n, gen)``: a scalar or a numpy array of ``n`` values (vectorised);
- ``exact()``: the exact distribution (:mod:`._exact`: integer ``PMF`` or rational ``RationalPMF``);
- ``render(records)``: the node's text, reading the owners' data in the order they were recorded;
- ``bounds()``: the range ``(lo, hi)`` of its values, proved within the engine's integer rule
  (:func:`diceengine.arith.check_interval`, caret under the node) before anything is thrown;
- ``exact_cost()``: ``(cost, lo, hi)``, what ``exact()`` will cost (:class:`~diceengine.limits.Cost`) and
  the range of its support, estimated without computing it (the engine's work budget of exact odds).

Values are ``int``; with ``division="exact"`` a ``/`` keeps fractions (``fractions.Fraction``, never floats;
bulk samples of such expressions are float64 arrays).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

import numpy as np

from diceengine.arith import check_interval
from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.errors import DiceError, DiceLimitError, DiceValueError
from diceengine.limits import MAX_DICE, NUMPY_CALL, PYTHON_STEP, Cost
from diceengine.parts import Group as Struck
from diceengine.parts import Part
from diceengine.pmf import PMF, _check_support, convolve_cost
from diceengine.rolljson import dice_json
from diceengine.rolls import Die

from . import _exact
from ._dice_ast import (
    Call,
    Compare,
    Comparison,
    CountFailures,
    CountSuccesses,
    Critical,
    Dice,
    FloorDiv,
    Group,
    Keep,
    Labelled,
    Mod,
    Pos,
    Pow,
    Sort,
)
from ._dice_terms import DiceTerm, compile_term, keep_rule

__all__ = ["Context", "Evaluator", "compile_node"]

#: largest magnitude a power may reach
MAX_POWER = 10**18
#: most (count, sides) pairs the exact odds of computed dice may mix
MAX_COMPUTED_PAIRS = 10_000


class Context:
    """What compiling needs: the expression (for error carets) and the system's options."""

    def __init__(self, expression: str, options: Mapping[str, Any]) -> None:
        self.expression = expression
        self.exact_division = options.get("division", "floor") == "exact"
        self.dialect = options.get("dialect", "roll20")
        self.explosions = options.get("explosions", "unit")
        self.marked: list[Any] = []  # marked nodes (CriticalTerm, CriticalGroup): their counts in the outcome
        self.uncounted = False  # critical marks whose counts the outcome does not give (see CriticalTerm)


class Evaluator:
    """Base class: a node of the compiled expression (see the module docstring)."""

    prec = 9
    rational = False  # values may be fractions
    dice_count = 0    # dice thrown by one roll (explosions aside), bounded by MAX_DICE

    def roller(self) -> Any:
        raise NotImplementedError

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        raise NotImplementedError

    def exact(self) -> Any:
        raise NotImplementedError

    def render(self, records: Iterator[Any]) -> str:
        raise NotImplementedError

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        """The node's text as a ``str.format`` template with one ``{}`` per dice record it reads, and the
        function writing each record's text (``None``: the node is rendered by :meth:`render` only)."""
        return None

    _compiled: tuple[str, list[Callable[[Any], str]]] | tuple[()] | None = None

    def render_list(self, records: list) -> str:
        """:meth:`render` of a list of records, through the node's :meth:`template` (compiled once) when
        it has one."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = self.template() or ()
        if compiled and len(compiled[1]) == len(records):
            text, writers = compiled
            if len(writers) == 1:
                return text.format(writers[0](records[0][1]))
            return text.format(*[write(data) for write, (_, data) in zip(writers, records)])
        return self.render(iter(records))

    def truncated(self) -> float:
        return 0.0

    def dice(self, data: Any) -> list[Die]:
        return []

    def dice_json(self, data: Any, dropped: bool = False) -> str:
        """The JSON of :meth:`dice` (the items of an array); ``dropped``: every die marked not kept (its
        group's item is dropped)."""
        if dropped:
            return dice_json([die._replace(kept=False) for die in self.dice(data)])
        return dice_json(self.dice(data))

    def bounds(self) -> tuple[Any, Any]:
        raise NotImplementedError

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        """Append the parts of the node's text (:mod:`diceengine.parts`), reading the records as render does."""
        out.append(self.render(records))

    def wrapped(self, records: Iterator[Any], out: list[Part], paren: bool) -> None:
        if paren:
            out.append("(")
        self.parts(records, out)
        if paren:
            out.append(")")

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        """:meth:`parts` compiled for one format and language (``text``: a part's text): ``records -> the
        text of the parts``. By default, the parts' texts one by one."""
        def write(records: Iterator[Any]) -> str:
            out: list[Part] = []
            self.parts(records, out)
            return "".join([text(p) for p in out])
        return write

    def wrapped_writer(self, text: Callable[[Any], str], paren: bool) -> Callable[[Iterator[Any]], str]:
        """:meth:`writer` in parentheses when ``paren``."""
        inner = self.writer(text)
        if not paren:
            return inner
        opening, closing = text("("), text(")")
        return lambda records: opening + inner(records) + closing

    def exact_cost(self) -> tuple[Cost, int, int]:
        raise NotImplementedError


def _span(lo: Any, hi: Any) -> int:
    return int(math.ceil(hi) - math.floor(lo)) + 1


def _pairs_cost(a: tuple[Cost, Any, Any], b: tuple[Cost, Any, Any], lo: Any, hi: Any,
                rational: bool = False) -> tuple[Cost, int, int]:
    """Cost of combining two distributions pair by pair (numpy when whole, Python when fractions)."""
    la, lb = _span(a[1], a[2]), _span(b[1], b[2])
    pairs = max(la, lb) if la == 1 or lb == 1 else la * lb
    _check_support(pairs)
    span = min(_span(lo, hi), 4 * pairs + 1024)  # a sparse result is held as a table (see _exact.build)
    step = PYTHON_STEP if rational else 6
    cost = a[0] + b[0] + Cost(step * pairs + 2 * span + NUMPY_CALL, 5 * pairs + span)
    return cost, math.floor(lo), math.ceil(hi)


def _dense_enough(a: PMF, b: PMF, bounds: tuple[Any, Any]) -> bool:
    """Whether a product of ``a`` and ``b`` is held as a dense array (else as a table), as
    :func:`_pairs_cost` estimates it."""
    la, lb = len(a.p), len(b.p)
    pairs = max(la, lb) if la == 1 or lb == 1 else la * lb
    return _span(bounds[0], bounds[1]) <= 4 * pairs + 1024


def _as_array(x: Any, n: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(x), (n,))


# ------------------------------------------------------------------------------------------ leaves
class Const(Evaluator):
    """An integer literal."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def roller(self) -> Any:
        return self.value

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self.value

    def exact(self) -> Any:
        return _exact.build([(self.value, 1.0)])

    def render(self, records: Iterator[Any]) -> str:
        return str(self.value)

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        value = text(str(self.value))
        return lambda records: value

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        return str(self.value), []

    def bounds(self) -> tuple[Any, Any]:
        return self.value, self.value

    def exact_cost(self) -> tuple[Cost, int, int]:
        return Cost(), math.floor(self.value), math.ceil(self.value)


class Term(Evaluator):
    """A dice term ``NdM`` with its modifiers (:class:`~._dice_terms.DiceTerm`)."""

    def __init__(self, term: DiceTerm) -> None:
        self.term = term
        self.dice_count = term.count

    def roller(self) -> Any:
        return self.term.roller()

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self.term.sample(n, gen)

    def exact(self) -> Any:
        return self.term.pmf()

    def render(self, records: Iterator[Any]) -> str:
        return self.term.render(next(records)[1])

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        return "{}", [self.term.render]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        out.extend(self.term.parts(next(records)[1]))

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        write = self.term.writer(text)
        return lambda records: write(next(records)[1])

    def truncated(self) -> float:
        return self.term.truncated_mass()

    def bounds(self) -> tuple[Any, Any]:
        return check_interval(*self.term.bounds(), column=self.term.node.pos)

    def exact_cost(self) -> tuple[Cost, int, int]:
        return self.term.exact_cost()


#: the marked dice terms' critical counts that exact() conditions on, while a plan's joint odds are computed
CRITICALS_GIVEN: ContextVar[dict[int, tuple[int, int]] | None] = ContextVar("given_criticals", default=None)
#: where sample() of marked dice terms leaves each row's critical counts, while a plan samples
CRITICALS_SAMPLED: ContextVar[list[tuple[Any, Any]] | None] = ContextVar("sampled_criticals", default=None)
#: set while a plan estimates exact() given the critical counts: a marked node's exact() then costs little
COSTING_GIVEN: ContextVar[bool] = ContextVar("costing_given", default=False)


class CriticalTerm(Term):
    """A dice term with critical marks (``cs`` / ``cf``) whose counts the outcome gives (``critical_successes``,
    ``critical_failures``: the kept dice marked); inside a group that keeps or drops, the group counts those of
    the items it keeps (:class:`CriticalGroup`).

    ``sample`` throws the term scoring each die with its marks folded in (:meth:`DiceTerm.with_tally`), gives
    the score to the expression and the counts to the plan (:data:`CRITICALS_SAMPLED`); ``joint`` is the exact joint
    distribution of (counts, score), and ``exact`` the score's distribution given the counts the plan is
    computing (:data:`CRITICALS_GIVEN`)."""

    def __init__(self, term: DiceTerm) -> None:
        super().__init__(term)
        self.tallied = term.with_tally()
        self._joint: dict[tuple[int, int], tuple[float, PMF]] | None = None

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        score, cs, cf = self.tallied.untally(_as_array(self.tallied.sample(n, gen), n))
        sink = CRITICALS_SAMPLED.get()
        if sink is not None:
            sink.append((cs, cf))
        return score

    def joint(self) -> dict[tuple[int, int], tuple[float, PMF]]:
        """``{(critical successes, critical failures): (probability, distribution of the score given them)}``."""
        if self._joint is None:
            encoded = self.tallied.pmf()
            held = encoded.p > 0
            score, cs, cf = self.tallied.untally(encoded.values[held])
            probs = encoded.p[held]
            per = self.tallied.tally[5] + 1  # type: ignore[index]
            code = cs * per + cf  # one number per pair of counts
            order = np.argsort(code, kind="stable")
            code, score, probs = code[order], score[order], probs[order]
            starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
            self._joint = {}
            for a, b in zip(starts.tolist(), [*starts[1:].tolist(), len(code)]):
                values, q = score[a:b], probs[a:b]
                lo = int(values.min())
                mass = float(q.sum())
                pair = divmod(int(code[a]), per)
                self._joint[pair] = (mass, PMF(lo, np.bincount(values - lo, weights=q) / mass))
        return self._joint

    def exact(self) -> Any:
        given = CRITICALS_GIVEN.get()
        if given is None or id(self) not in given:
            return self.term.pmf()
        return self.joint()[given[id(self)]][1]

    @property
    def marks(self) -> tuple[bool, bool]:
        """Whether it counts critical successes, critical failures."""
        return self.term.crit_success is not None, self.term.crit_failure is not None

    def truncated(self) -> float:
        if self.term.per_die:  # the mass joint() left out (every die ranked: remembered, not walked again)
            return self.tallied.truncated_mass()
        return self.term.truncated_mass()

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost, lo, hi = self.term.exact_cost()
        if COSTING_GIVEN.get():  # exact() hands out a distribution joint() computed
            return Cost(hi - lo + 1, hi - lo + 1), lo, hi
        return cost, lo, hi

    def joint_cost(self) -> tuple[Cost, int]:
        """What :meth:`joint` costs, and at most how many pairs of counts it has."""
        cost, lo, hi = self.tallied.exact_cost()
        most_s, most_f = self.tallied.tally[4:]  # type: ignore[index]
        pairs = (most_s + 1) * (most_f + 1)
        span = hi - lo + 1  # the encoded support, split by pair of counts
        return cost + Cost(12 * span + pairs * (span // max(1, pairs) + NUMPY_CALL), 6 * span), pairs


# ------------------------------------------------------------------------------------------ arithmetic
def _floor_div(x: Any, y: Any) -> Any:
    return x // y


def _true_div(x: Any, y: Any) -> Any:
    return _exact.normal(Fraction(x) / Fraction(y))


def _pow(x: Any, y: Any, exact_division: bool) -> Any:
    if type(y) is not int:
        raise DiceValueError("an exponent must be a whole number")
    if y < 0:
        if x == 0:
            raise DiceValueError("zero to a negative power (division by zero)")
        value = Fraction(1) / Fraction(x) ** -y
        return _exact.normal(value) if exact_division else math.floor(value)
    if abs(x) > 1 and y * math.log2(abs(x)) > 60:
        raise DiceLimitError(f"number too large: {x}^{y}")
    return _exact.normal(x ** y) if type(x) is Fraction else x ** y


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_NP_COMPARE = {"==": np.equal, "=": np.equal, "!=": np.not_equal, "<>": np.not_equal, "<": np.less,
               "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


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
        self._format: str | None = None

    def _error(self, message: str, kind: type = DiceValueError) -> DiceError:
        return kind(message, self.expression, self.node.pos)

    def _function(self) -> Callable[[Any, Any], Any]:
        op = self.op
        if self.rational and op in ("+", "-", "*"):  # 1/2 + 1/2 is the int 1, as every other exact value
            arithmetic = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}[op]
            return lambda a, b: _exact.normal(arithmetic(a, b))
        if op == "+":
            return lambda a, b: a + b
        if op == "-":
            return lambda a, b: a - b
        if op == "*":
            return lambda a, b: a * b
        if op in _COMPARE:
            test = _COMPARE[op]
            return lambda a, b: 1 if test(a, b) else 0
        if op == "^":
            exact_division = self.exact_division

            def power(a: Any, b: Any) -> Any:
                try:
                    return _pow(a, b, exact_division)
                except DiceError as err:
                    raise type(err)(err.message, self.expression, self.node.pos) from None
            return power
        divide = _true_div if (op == "/" and self.exact_division) else _floor_div
        mod = op == "%"

        def checked(a: Any, b: Any) -> Any:
            if b == 0:
                raise self._error("division by zero")
            if mod:
                return _exact.normal(Fraction(a) % Fraction(b)) if (type(a) is Fraction or type(b) is Fraction) \
                    else a % b
            if type(a) is Fraction or type(b) is Fraction:
                return _exact.normal(Fraction(a) / Fraction(b)) if divide is _true_div else math.floor(
                    Fraction(a) / Fraction(b))
            return divide(a, b)
        return checked

    def roller(self) -> Any:
        a, b, fn = self.left.roller(), self.right.roller(), self.fn
        if not callable(a) and not callable(b):
            return fn(a, b)
        if self.op == "+" and not self.rational:
            if not callable(b):  # the common "dice + modifier": one call less per roll
                return lambda r, rec: a(r, rec) + b
            if not callable(a):
                return lambda r, rec: a + b(r, rec)
            return lambda r, rec: a(r, rec) + b(r, rec)
        if not callable(b):
            return lambda r, rec: fn(a(r, rec), b)
        if not callable(a):
            return lambda r, rec: fn(a, b(r, rec))
        return lambda r, rec: fn(a(r, rec), b(r, rec))

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        a = self.left.sample(n, gen)
        b = self.right.sample(n, gen)
        op = self.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op in _NP_COMPARE:
            return _NP_COMPARE[op](a, b).astype(np.int64)
        if op in ("/", "//", "%") and np.any(np.asarray(b) == 0):
            raise self._error("division by zero")
        if op == "/" and self.exact_division:
            return np.true_divide(a, b)
        if op in ("/", "//"):
            if self.left.rational or self.right.rational:
                return np.floor(np.true_divide(a, b)).astype(np.int64)
            return np.floor_divide(a, b)
        if op == "%":
            return np.mod(a, b)
        return _pairwise(a, b, self.fn, n, self.rational)

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
        if op in ("/", "//", "%") and any(v == 0 for v, _ in _exact.pairs(b)):
            raise self._error("division by zero is possible")
        vectorised: Any = None
        if op in _NP_COMPARE:
            compare = _NP_COMPARE[op]
            vectorised = lambda x, y: compare(x, y).astype(np.int64)
        elif op == "//" or (op == "/" and not self.exact_division):
            vectorised = np.floor_divide
        elif op == "%":
            vectorised = np.mod
        with np.errstate(divide="ignore"):
            return _exact.combine(a, b, self.fn, vectorised)

    def _text_format(self) -> str:
        """``"{} + {}"``, with parentheses where the operands need them (they depend on the tree only)."""
        if self._format is None:
            mine, left, right = self.prec, self.left, self.right
            lp = left.prec < mine or (self.op == "^" and left.prec == mine)
            rp = right.prec < mine or (right.prec == mine and self.op in ("-", "/", "//", "%"))
            self._format = ("({}) " if lp else "{} ") + self.op + (" ({})" if rp else " {}")
        return self._format

    def render(self, records: Iterator[Any]) -> str:
        return (self._format or self._text_format()).format(self.left.render(records), self.right.render(records))

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        left, right = self.left.template(), self.right.template()
        if left is None or right is None:
            return None
        return self._text_format().format(left[0], right[0]), left[1] + right[1]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        mine, left, right = self.prec, self.left, self.right
        left.wrapped(records, out, left.prec < mine or (self.op == "^" and left.prec == mine))
        out.append(f" {self.op} ")
        right.wrapped(records, out, right.prec < mine or (right.prec == mine and self.op in ("-", "/", "//", "%")))

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        mine, left, right = self.prec, self.left, self.right
        a = left.wrapped_writer(text, left.prec < mine or (self.op == "^" and left.prec == mine))
        op = text(f" {self.op} ")
        b = right.wrapped_writer(text, right.prec < mine or (right.prec == mine and self.op in ("-", "/", "//", "%")))
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
        (a0, a1), (b0, b1) = self.left.bounds(), self.right.bounds()
        op = self.op
        if op in _COMPARE:
            return 0, 1
        if op == "+":
            lo, hi = a0 + b0, a1 + b1
        elif op == "-":
            lo, hi = a0 - b1, a1 - b0
        elif op == "*":
            corners = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
            lo, hi = min(corners), max(corners)
        elif op == "%":
            if b0 > 0:
                lo, hi = 0, b1
            elif b1 < 0:
                lo, hi = b0, 0
            else:
                m = max(abs(b0), abs(b1))
                lo, hi = -m, m
        elif op == "^":
            m = max(abs(a0), abs(a1), 1)
            top = max(abs(b0), abs(b1))
            if m > 1 and top * math.log2(m) > 60:
                raise DiceLimitError(f"a power could reach {m}^{top}, beyond the exact integer range",
                                     self.expression, self.node.pos)
            lo, hi = -(m ** top), m ** top
        elif b0 > 0 or b1 < 0:  # / and //: monotone in each operand away from a zero divisor
            exact = op == "/" and self.exact_division
            div = (lambda x, y: Fraction(x) / Fraction(y)) if exact or self.rational else (lambda x, y: x // y)
            corners = (div(a0, b0), div(a0, b1), div(a1, b0), div(a1, b1))
            lo, hi = min(corners), max(corners)
        else:  # |x / y| <= |x| for a whole y != 0
            m = max(abs(a0), abs(a1))
            lo, hi = -m, m
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
    f = float(v)
    return int(f) if f.is_integer() else Fraction(f)


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
        return -a if isinstance(a, PMF) else _exact.apply(a, lambda v: -v)

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
    return math.floor(v + Fraction(1, 2)) if type(v) is Fraction else v


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "floor": lambda v: math.floor(v), "ceil": lambda v: math.ceil(v), "round": _round_half_up,
    "abs": lambda v: abs(v), "min": min, "max": max,
}


class Function(Evaluator):
    """``floor ceil round abs`` of one expression, ``min max`` of one or more (rpg-dice-roller's functions);
    ``round`` rounds halves up, as JavaScript's ``Math.round``."""

    def __init__(self, name: str, args: list[Evaluator], node: Call, ctx: Context) -> None:
        self.name, self.args, self.node = name, args, node
        arity_one = name in ("floor", "ceil", "round", "abs")
        if arity_one and len(args) != 1:
            raise DiceValueError(f"{name}() takes one expression, not {len(args)}", ctx.expression, node.pos)
        self.fn = _FUNCTIONS[name]
        self.rational = name in ("abs", "min", "max") and any(a.rational for a in args)
        self.dice_count = sum(a.dice_count for a in args)

    def roller(self) -> Any:
        parts = [a.roller() for a in self.args]
        fn = self.fn
        if self.name in ("min", "max"):
            if not any(callable(p) for p in parts):
                return fn(parts)
            return lambda r, rec: fn([p(r, rec) if callable(p) else p for p in parts])
        p = parts[0]
        return (lambda r, rec: fn(p(r, rec))) if callable(p) else fn(p)

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        values = [a.sample(n, gen) for a in self.args]
        name = self.name
        if name == "min":
            return _reduce(np.minimum, values)
        if name == "max":
            return _reduce(np.maximum, values)
        v = values[0]
        if name == "abs":
            return np.abs(v)
        if not self.args[0].rational:
            return v
        if name == "floor":
            return np.floor(v).astype(np.int64)
        if name == "ceil":
            return np.ceil(v).astype(np.int64)
        return np.floor(np.asarray(v) + 0.5).astype(np.int64)

    def exact(self) -> Any:
        dists = [a.exact() for a in self.args]
        if self.name in ("min", "max"):
            vec = np.minimum if self.name == "min" else np.maximum
            pick = min if self.name == "min" else max
            out = dists[0]
            for d in dists[1:]:
                out = _exact.combine(out, d, lambda x, y: pick(x, y), vec)
            return out
        return _exact.apply(dists[0], self.fn)

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
        if self.name == "min":
            return min(r[0] for r in ranges), min(r[1] for r in ranges)
        if self.name == "max":
            return max(r[0] for r in ranges), max(r[1] for r in ranges)
        lo, hi = ranges[0]
        if self.name == "abs":
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        return math.floor(lo), math.ceil(hi)


def _reduce(fn: Any, values: list[Any]) -> Any:
    out = values[0]
    for v in values[1:]:
        out = fn(out, v)
    return out


# ------------------------------------------------------------------------------------------ recording nodes
def _braces(text: str) -> str:
    """``text`` as literal text of a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


def _records(sub: list) -> Iterator[Any]:
    return iter(sub)


class LabelledGroup(Evaluator):
    """A label on an expression that is not a single dice term: its dice carry the label."""

    def __init__(self, inner: Evaluator, label: str) -> None:
        self.inner, self.label = inner, label
        self.rational = inner.rational
        self.dice_count = inner.dice_count
        self.prec = 9
        self.constant = not callable(inner.roller())

    def roller(self) -> Any:
        a = self.inner.roller()
        if not callable(a):
            return a

        def roll(r: Any, rec: list) -> Any:
            sub: list = []
            v = a(r, sub)
            rec.append((self, sub))
            return v
        return roll

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self.inner.sample(n, gen)

    def exact(self) -> Any:
        return self.inner.exact()

    def render(self, records: Iterator[Any]) -> str:
        if self.constant:
            return f"{self.inner.render(records)} ({self.label})"
        _, sub = next(records)
        inner = self.inner.render_list(sub)
        if self.inner.prec < 9:
            inner = f"({inner})"
        return f"{inner} ({self.label})"

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        inner = self.inner.template() if self.constant else None
        if inner is None:
            return None
        return f"{inner[0]} ({_braces(self.label)})", inner[1]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        if self.constant:
            self.inner.parts(records, out)
        else:
            _, sub = next(records)
            self.inner.wrapped(iter(sub), out, self.inner.prec < 9)
        out.append(f" ({self.label})")

    def dice(self, data: Any) -> list[Die]:
        out = []
        for owner, d in data:
            for die in owner.dice(d):
                out.append(die if die.label else die._replace(label=self.label))
        return out

    def truncated(self) -> float:
        return self.inner.truncated()

    def bounds(self) -> tuple[Any, Any]:
        return self.inner.bounds()

    def exact_cost(self) -> tuple[Cost, int, int]:
        return self.inner.exact_cost()


class GroupEval(Evaluator):
    """A group ``{a, b}`` or set ``(a, b)``: keep / drop and success counts over the expressions' totals."""

    def __init__(self, items: list[Evaluator], node: Group, ctx: Context) -> None:
        self.items, self.node = items, node
        self.expression = ctx.expression
        keeps = [m for m in node.modifiers if isinstance(m, Keep)]
        self.window, self.selection = keep_rule(keeps, len(items), ctx.dialect, ctx.expression)
        succ = [m for m in node.modifiers if isinstance(m, CountSuccesses)]
        fail = [m for m in node.modifiers if isinstance(m, CountFailures)]
        if len(succ) > 1 or len(fail) > 1:
            raise DiceValueError("more than one success or failure count on one group", ctx.expression,
                                 (succ + fail)[1].pos or 0)
        if fail and not succ:
            raise DiceValueError("a failure count (f) needs a success count before it", ctx.expression,
                                 fail[0].pos or 0)
        self.success: Compare | None = succ[0].compare if succ else None
        self.failure: Compare | None = fail[0].compare if fail else None
        sorts = [m for m in node.modifiers if isinstance(m, Sort)]
        self.sort = sorts[-1].kind if sorts else None
        self.rational = self.success is None and any(i.rational for i in items)
        self.dice_count = sum(i.dice_count for i in items)
        self.open, self.close = ("{", "}") if node.brace else ("(", ")")
        self.shows_value = [callable(i.roller()) for i in items]
        self.suffix = "".join(_modifier_text(m) for m in node.modifiers)

    def _score(self, v: Any) -> int:
        if self.success.test(v):  # type: ignore[union-attr]
            return 1  # a value meeting both points is a success, as for dice
        return -1 if self.failure is not None and self.failure.test(v) else 0

    def _kept(self, values: list[Any]) -> list[bool]:
        if self.selection is not None:
            return self.selection.kept(values)
        if self.window is None:
            return [True] * len(values)
        a, b = self.window
        order = sorted(range(len(values)), key=values.__getitem__)
        keep = set(order[a:b])
        return [i in keep for i in range(len(values))]

    def roller(self) -> Any:
        parts = [i.roller() for i in self.items]

        def roll(r: Any, rec: list) -> Any:
            subs, values = [], []
            for p in parts:
                sub: list = []
                values.append(p(r, sub) if callable(p) else p)
                subs.append(sub)
            kept = self._kept(values)
            rec.append((self, (subs, values, kept)))
            if self.success is None:
                total = sum(v for v, k in zip(values, kept) if k)
                return _exact.normal(total) if self.rational else total
            return sum(self._score(v) for v, k in zip(values, kept) if k)
        return roll

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        cols = [_as_array(i.sample(n, gen), n) for i in self.items]
        return self._sampled_total(np.stack(cols, axis=1))

    def _kept_mask(self, values: np.ndarray) -> np.ndarray:
        """Which items each row keeps (vectorised :meth:`_kept`: a stable sort, as a roll's)."""
        if self.selection is not None:
            return self.selection.mask(values)
        kept = np.ones(values.shape, dtype=bool)
        if self.window is not None:
            a, b = self.window
            order = np.argsort(values, axis=1, kind="stable")
            kept[:] = False
            np.put_along_axis(kept, order[:, a:b], True, axis=1)
        return kept

    def _sampled_total(self, values: np.ndarray) -> Any:
        """The group's value of each row of its items' values."""
        if self.selection is not None:
            kept = self.selection.mask(values)
            if self.success is None:
                return np.where(kept, values, 0).sum(axis=1)
            hit = self.success.test(values)
            score = hit.astype(np.int64)
            if self.failure is not None:
                score -= self.failure.test(values) & ~hit
            return np.where(kept, score, 0).sum(axis=1)
        if self.window is not None:
            a, b = self.window
            values = np.sort(values, axis=1)[:, a:b]
        if self.success is None:
            return values.sum(axis=1)
        hit = self.success.test(values)
        score = hit.astype(np.int64)
        if self.failure is not None:
            score -= self.failure.test(values) & ~hit
        return score.sum(axis=1)

    def exact(self) -> Any:
        dists = [i.exact() for i in self.items]
        m = len(dists)
        if self.selection is not None and not self.selection.by_value:
            return self._selected_exact(dists)
        if self.selection is not None:
            keeps = self.selection.keeps_value
            if self.success is None:
                dists = [_exact.build((v if keeps(v) else 0, p) for v, p in _exact.pairs(d)) for d in dists]
            else:  # score each value here; the sum below counts the scores
                dists = [_exact.build((self._score(v) if keeps(v) else 0, p) for v, p in _exact.pairs(d))
                         for d in dists]
                total = dists[0]
                for d in dists[1:]:
                    total = _exact.combine(total, d, lambda x, y: x + y, np.add)
                return total
        if self.window is None or self.window == (0, m):
            if self.success is None:
                total = dists[0]
                for d in dists[1:]:
                    if isinstance(total, PMF) and isinstance(d, PMF):
                        total = total + d
                    else:
                        total = _exact.combine(total, d, lambda x, y: x + y)
                return total
            score = PMF.point(0)
            for d in dists:
                part = _exact.build((self._score(v), p) for v, p in _exact.pairs(d))
                assert isinstance(part, PMF)
                score = score + part
            return score
        a, b = self.window
        top = m - a <= b  # follow the highest m - a values, or the lowest b
        width = m - a if top else b
        states = self._sorted_values(dists, lambda new: new[-width:] if top else new[:width])
        out: list[tuple[Any, float]] = []
        for state, p in states.items():
            kept = state[:b - a] if top else state[a:]
            if self.success is None:
                out.append((sum(kept), p))
            else:
                out.append((sum(self._score(v) for v in kept), p))
        return _exact.build(out)

    def _sorted_values(self, dists: list[Any], trim: Callable[[list], list]) -> dict[tuple, float]:
        """The distribution of the items' values in order, item by item, ``trim`` keeping after each item
        only the values the keep / drop can still need."""
        states: dict[tuple, float] = {(): 1.0}
        for d in dists:
            items = _exact.pairs(d)
            if len(states) * len(items) > _exact.MAX_PAIRS:
                raise DiceLimitError("too many possible results for the exact odds of this group",
                                     self.expression, self.node.pos if hasattr(self.node, "pos") else 0)
            nxt: dict[tuple, float] = {}
            for state, p in states.items():
                for v, q in items:
                    key = tuple(trim(sorted(state + (v,))))
                    nxt[key] = nxt.get(key, 0.0) + p * q
            states = nxt
        return states

    def _selected_exact(self, dists: list[Any]) -> Any:
        """Exact odds of d20's keep / drop mixing ranks (:mod:`._selection`): the sorted values followed item by
        item, the kept ones chosen at the end (how many of each value: equal values are exchangeable)."""
        assert self.selection is not None
        states = self._sorted_values(dists, lambda new: new)
        out: list[tuple[Any, float]] = []
        for state, p in states.items():
            counts = sorted(Counter(state).items())
            kept = [v for (v, _), k in zip(counts, self.selection.kept_counts(counts)) for _ in range(k)]
            out.append((sum(kept) if self.success is None else sum(self._score(v) for v in kept), p))
        return _exact.build(out)

    def render(self, records: Iterator[Any]) -> str:
        _, (subs, values, kept) = next(records)
        parts = []
        for item, sub, value, k, shows in zip(self.items, subs, values, kept, self.shows_value):
            text = item.render_list(sub)
            if shows:
                text += f" = {value}"
            if self.success is not None and k:
                score = self._score(value)
                text += "*" * max(score, 0) + "_" * max(-score, 0)
            parts.append(text if k else f"~{text}~")
        if self.sort is not None:
            order = sorted(range(len(parts)), key=values.__getitem__, reverse=self.sort == "sd")
            parts = [parts[i] for i in order]
        return self.open + ", ".join(parts) + self.close + self.suffix

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        _, (subs, values, kept) = next(records)
        pieces: list[list[Part]] = []
        for item, sub, value, k, shows in zip(self.items, subs, values, kept, self.shows_value):
            piece: list[Part] = []
            item.parts(iter(sub), piece)
            if shows:
                piece.append(f" = {value}")
            if self.success is not None and k:
                score = self._score(value)
                piece.append("*" * max(score, 0) + "_" * max(-score, 0))
            pieces.append(piece if k else [Struck(tuple(piece))])
        if self.sort is not None:
            order = sorted(range(len(pieces)), key=values.__getitem__, reverse=self.sort == "sd")
            pieces = [pieces[i] for i in order]
        out.append(self.open)
        for i, piece in enumerate(pieces):
            if i:
                out.append(", ")
            out.extend(piece)
        out.append(self.close + self.suffix)

    def dice(self, data: Any) -> list[Die]:
        subs, _, kept = data
        out = []
        for sub, k in zip(subs, kept):
            for owner, d in sub:
                for die in owner.dice(d):
                    out.append(die if k else die._replace(kept=False))
        return out

    def dice_json(self, data: Any, dropped: bool = False) -> str:
        subs, _, kept = data
        texts = []
        for sub, k in zip(subs, kept):
            for owner, d in sub:
                text = owner.dice_json(d, dropped or not k)
                if text:
                    texts.append(text)
        return ",".join(texts)

    def truncated(self) -> float:
        return sum(i.truncated() for i in self.items)

    def exact_cost(self) -> tuple[Cost, int, int]:
        costs = [i.exact_cost() for i in self.items]
        lo, hi = self.bounds()
        cost = Cost()
        states = 1
        width = len(costs) if self.window is None else max(1, self.window[1] - self.window[0])
        for c, c_lo, c_hi in costs:
            span = _span(c_lo, c_hi)
            cost = cost + c
            if self.selection is not None and not self.selection.by_value:  # every value, sorted
                cost = cost + Cost(states * span * len(costs) * PYTHON_STEP, states * span)
                states = min(states * span, comb(span + len(costs), len(costs)))
                cost = cost + Cost(states * len(costs) * 4 * PYTHON_STEP, states)  # the kept values of each
            elif self.window is None or self.selection is not None:
                cost = cost + convolve_cost(states, span) + Cost(span * PYTHON_STEP, span)
                states = _span(lo, hi)
            else:  # sorted tuples of the values followed (at most the group's width of them)
                cost = cost + Cost(states * span * width * PYTHON_STEP, states * span)
                states = min(states * span, comb(span + width, width))
        return cost, math.floor(lo), math.ceil(hi)

    def bounds(self) -> tuple[Any, Any]:
        ranges = [i.bounds() for i in self.items]
        kept = len(ranges) if self.window is None else self.window[1] - self.window[0]
        if self.success is not None:
            return (-kept if self.failure is not None else 0), kept
        lows = sorted(r[0] for r in ranges)
        highs = sorted(r[1] for r in ranges)
        lo = min(0, sum(lows[:kept])) if kept else 0
        hi = max(0, sum(highs[len(highs) - kept:])) if kept else 0
        return check_interval(min(lo, sum(v for v in lows if v < 0)), max(hi, sum(v for v in highs if v > 0)),
                              self.expression, None)


def conditioned(node: Evaluator, marked: list[Any]) -> Iterator[tuple[int, int, float, Any]]:
    """For each combination of the critical counts of the marked nodes within ``node`` (independent of each
    other): ``(critical successes, critical failures, probability, node's exact distribution given them)``."""
    outer = CRITICALS_GIVEN.get() or {}
    joints = [list(m.joint().items()) for m in marked]
    for combo in itertools.product(*joints):
        weight = 1.0
        given = dict(outer)
        cs = cf = 0
        for m, ((s, f), (mass, _)) in zip(marked, combo):
            weight *= mass
            given[id(m)] = (s, f)
            cs, cf = cs + s, cf + f
        token = CRITICALS_GIVEN.set(given)
        try:
            exact = node.exact()
        finally:
            CRITICALS_GIVEN.reset(token)
        yield cs, cf, weight, exact


def conditioned_cost(node: Evaluator, marked: list[Any]) -> tuple[Cost, int, Any, Any]:
    """What :func:`conditioned` costs: ``(cost, combinations of the counts, lo, hi)`` (the range of the node)."""
    combos = 1
    cost = Cost()
    for m in marked:
        joint, pairs = m.joint_cost()
        cost = cost + joint
        combos *= pairs
    token = COSTING_GIVEN.set(True)
    try:
        given, lo, hi = node.exact_cost()
    finally:
        COSTING_GIVEN.reset(token)
    return cost + Cost(given.work * combos + combos * NUMPY_CALL, given.cells), combos, lo, hi


class CriticalGroup(GroupEval):
    """A group or set that keeps or drops, with critical marks inside whose counts the outcome gives: the
    marked dice of the items it keeps (a roll's :meth:`GroupEval._kept`, ties included: a stable sort).

    ``joint`` follows the items' values in rank order with each item's counts (an item's joint odds from its own
    marked nodes, :func:`conditioned`), an item placed after the equal values already there (it was thrown
    later), only the values the keep / drop can still need kept; ``exact`` is the group's distribution given the
    counts the plan is computing (:data:`CRITICALS_GIVEN`); ``sample`` counts the kept items' marks
    (:data:`CRITICALS_SAMPLED`)."""

    def __init__(self, items: list[Evaluator], node: Group, ctx: Context, item_marks: list[list[Any]]) -> None:
        super().__init__(items, node, ctx)
        self.item_marks = item_marks
        self._joint: dict[tuple[int, int], tuple[float, Any]] | None = None

    @property
    def marks(self) -> tuple[bool, bool]:
        inner = [m.marks for ms in self.item_marks for m in ms]
        return any(s for s, _ in inner), any(f for _, f in inner)

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        cols, successes, failures = [], [], []
        for item in self.items:
            token = CRITICALS_SAMPLED.set([])
            try:
                cols.append(_as_array(item.sample(n, gen), n))
                counts = CRITICALS_SAMPLED.get() or []
            finally:
                CRITICALS_SAMPLED.reset(token)
            successes.append(sum((_as_array(c, n) for c, _ in counts), np.zeros(n, dtype=np.int64)))
            failures.append(sum((_as_array(f, n) for _, f in counts), np.zeros(n, dtype=np.int64)))
        values = np.stack(cols, axis=1)
        kept = self._kept_mask(values)
        sink = CRITICALS_SAMPLED.get()
        if sink is not None:
            sink.append(((np.stack(successes, axis=1) * kept).sum(axis=1),
                         (np.stack(failures, axis=1) * kept).sum(axis=1)))
        return self._sampled_total(values)

    def joint(self) -> dict[tuple[int, int], tuple[float, Any]]:
        """``{(critical successes, critical failures): (probability, the group's distribution given them)}``."""
        if self._joint is not None:
            return self._joint
        m = len(self.items)
        rows_of = []  # each item: [((value, cs, cf), probability)]
        for item, marked in zip(self.items, self.item_marks):
            table: dict[tuple[Any, int, int], float] = {}
            for cs, cf, w, exact in conditioned(item, marked):
                for v, q in _exact.pairs(exact):
                    table[(v, cs, cf)] = table.get((v, cs, cf), 0.0) + w * q
            rows_of.append([(row, q) for row, q in table.items() if q > 0])
        if self._one_kept():
            found: dict[tuple[int, int], list[tuple[Any, float]]] = {}
            for (v, cs, cf), p in self._one_kept_rows(rows_of):
                found.setdefault((cs, cf), []).append((v if self.success is None else self._score(v), p))
            return self._joint_of(found)
        by_value = self.selection is not None and self.selection.by_value
        trim: Callable[[list], list] = lambda new: new
        if self.selection is None and self.window is not None:
            a, b = self.window
            top = m - a <= b
            width = m - a if top else b
            trim = (lambda new: new[max(0, len(new) - width):]) if top else (lambda new: new[:width])
        states: dict[tuple, float] = {(): 1.0}
        for rows in rows_of:
            if len(states) * len(rows) > _exact.MAX_PAIRS:
                raise DiceLimitError("too many possible results for the exact odds of this group",
                                     self.expression, self.node.pos if hasattr(self.node, "pos") else 0)
            nxt: dict[tuple, float] = {}
            for state, p in states.items():
                for row, q in rows:
                    if by_value:  # each item kept by its own value: the sums followed
                        total, cs, cf = state or (0, 0, 0)
                        if self.selection.keeps_value(row[0]):  # type: ignore[union-attr]
                            v = row[0] if self.success is None else self._score(row[0])
                            total, cs, cf = total + v, cs + row[1], cf + row[2]
                        key: tuple = (total, cs, cf)
                    else:  # after the values equal or lower: the roll's stable sort ranks the later item higher
                        at = bisect.bisect_right([r[0] for r in state], row[0])
                        key = tuple(trim([*state[:at], row, *state[at:]]))
                    nxt[key] = nxt.get(key, 0.0) + p * q
            states = nxt
        found = {}
        for state, p in states.items():
            if by_value:
                total, cs, cf = state or (0, 0, 0)
            else:
                values = [r[0] for r in state]
                if self.selection is not None:
                    kept_rows = [r for r, k in zip(state, self.selection.kept(values)) if k]
                elif self.window is None:
                    kept_rows = list(state)
                else:  # the window's ranks among those followed
                    a, b = self.window  # type: ignore[misc]
                    kept_rows = list(state[:b - a] if m - a <= b else state[a:])
                scores = [r[0] if self.success is None else self._score(r[0]) for r in kept_rows]
                total = sum(scores)
                if self.rational:
                    total = _exact.normal(total)
                cs, cf = sum(r[1] for r in kept_rows), sum(r[2] for r in kept_rows)
            found.setdefault((cs, cf), []).append((total, p))
        return self._joint_of(found)

    def _joint_of(self, found: dict[tuple[int, int], list[tuple[Any, float]]]) \
            -> dict[tuple[int, int], tuple[float, Any]]:
        self._joint = {}
        for pair, items in found.items():
            mass = sum(q for _, q in items)
            self._joint[pair] = (mass, _exact.build([(v, q / mass) for v, q in items]))
        return self._joint

    def _one_kept(self) -> bool:
        """Whether the group keeps its one highest or one lowest item (``kh1``, ``kl1``, ``dl1`` of two...)."""
        m = len(self.items)
        return self.selection is None and self.window in ((m - 1, m), (0, 1))

    def _one_kept_rows(self, rows_of: list[list[tuple[tuple[Any, int, int], float]]]) \
            -> list[tuple[tuple[Any, int, int], float]]:
        """The kept item's ``((value, cs, cf), probability)`` when the group keeps one item: item ``i`` showing
        ``v`` is kept when every other item is below (above, for the lowest) or equal and ranked under it by the
        roll's stable sort (the later item ranks higher among equal values)."""
        m = len(rows_of)
        highest = self.window == (m - 1, m)
        cdfs = []  # each item: its distinct values in order and P(value <= each)
        for rows in rows_of:
            marginal: dict[Any, float] = {}
            for (v, _, _), q in rows:
                marginal[v] = marginal.get(v, 0.0) + q
            values = sorted(marginal)
            cdfs.append((values, list(itertools.accumulate(marginal[v] for v in values))))

        def at_most(j: int, v: Any, strict: bool) -> float:  # P(item j < v), or <= v
            values, cum = cdfs[j]
            k = (bisect.bisect_left if strict else bisect.bisect_right)(values, v)
            return cum[k - 1] if k else 0.0

        out = []
        for i, rows in enumerate(rows_of):
            for row, q in rows:
                w = q
                for j in range(m):
                    if j == i:
                        continue
                    if highest:  # kept: earlier items at most v, later ones below v
                        w *= at_most(j, row[0], strict=j > i)
                    else:  # kept: earlier items above v, later ones at least v
                        w *= cdfs[j][1][-1] - at_most(j, row[0], strict=j > i)
                if w > 0:
                    out.append((row, w))
        return out

    def exact(self) -> Any:
        given = CRITICALS_GIVEN.get()
        if given is None or id(self) not in given:
            return super().exact()
        return self.joint()[given[id(self)]][1]

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost, lo, hi = super().exact_cost()
        if COSTING_GIVEN.get():
            return Cost(_span(lo, hi), _span(lo, hi)), lo, hi
        return cost, lo, hi

    def joint_cost(self) -> tuple[Cost, int]:
        """What :meth:`joint` costs, and at most how many pairs of counts it has."""
        m = len(self.items)
        width = m
        if self.selection is None and self.window is not None:
            a, b = self.window
            width = max(1, min(m - a, b))
        cost, states, seen, pairs = Cost(), 1, 0, 1
        one = self._one_kept()
        for item, marked in zip(self.items, self.item_marks):
            c, combos, lo, hi = conditioned_cost(item, marked)
            rows = _span(lo, hi) * combos
            seen += rows
            cost = cost + c + Cost(combos * _span(lo, hi) * 2 * PYTHON_STEP, rows)
            if one:  # each row against every other item's distribution
                cost = cost + Cost(rows * (m + 2) * 2 * PYTHON_STEP, rows)
                states = seen
            else:
                cost = cost + Cost(states * rows * (width + 2) * PYTHON_STEP, states * rows)
                states = min(states * rows, (seen + 1) ** width)
            pairs *= combos
        _, lo, hi = super().exact_cost()
        cost = cost + Cost(states * (width + 4) * PYTHON_STEP + pairs * _span(lo, hi) * PYTHON_STEP, states)
        return cost, pairs


def _modifier_text(m: Any) -> str:
    if isinstance(m, Keep):
        return m.text
    if isinstance(m, CountSuccesses):
        return str(m.compare)
    if isinstance(m, CountFailures):
        return "f" + str(m.compare)
    if isinstance(m, Sort):
        return m.kind
    return ""


class ComputedDice(Evaluator):
    """``(1d4)d6``, ``2d(1d6+2)``, ``(2*3)d6``: the count or the sides are expressions, thrown first."""

    def __init__(self, node: Dice, count: Evaluator | None, sides: Evaluator | None, label: str | None,
                 ctx: Context) -> None:
        self.node, self.count, self.sides, self.label = node, count, sides, label
        self.expression = ctx.expression
        self.dialect = ctx.dialect
        self.explosions = ctx.explosions
        self._terms: dict[tuple[int, Any], DiceTerm] = {}
        for part in (count, sides):
            if part is not None and part.rational:
                raise DiceValueError("a number of dice or of sides must be a whole number", ctx.expression,
                                     node.pos or 0)
        self.counts = _exact.pairs(count.exact()) if count is not None else [(node.count or 1, 1.0)]
        self.sides_values = _exact.pairs(sides.exact()) if sides is not None else [(node.sides, 1.0)]
        if len(self.counts) * len(self.sides_values) > MAX_COMPUTED_PAIRS:
            raise DiceLimitError("too many possible dice for this computed term", ctx.expression, node.pos or 0)
        most = max(c for c, _ in self.counts)
        for c, _ in self.counts:
            self.term(c, self.sides_values[0][0])  # validates the counts
        for s, _ in self.sides_values:
            self.term(self.counts[0][0], s)  # validates the sides
        self.dice_count = most + (count.dice_count if count else 0) + (sides.dice_count if sides else 0)
        if self.dice_count > MAX_DICE:
            raise DiceLimitError(f"too many dice: up to {self.dice_count} in one roll (at most {MAX_DICE})",
                                 ctx.expression, node.pos or 0)

    def term(self, c: int, s: Any) -> DiceTerm:
        found = self._terms.get((c, s))
        if found is None:
            found = self._terms[(c, s)] = compile_term(self.node, self.expression, c, s, self.label, self.dialect,
                                                         self.explosions)
        return found

    def roller(self) -> Any:
        cr = self.count.roller() if self.count is not None else (self.node.count or 1)
        sr = self.sides.roller() if self.sides is not None else self.node.sides

        def roll(r: Any, rec: list) -> Any:
            sub: list = []
            c = cr(r, sub) if callable(cr) else cr
            s = sr(r, sub) if callable(sr) else sr
            term = self.term(c, s)
            inner: list = []
            value = term.roller()(r, inner)
            rec.append((self, (sub, inner)))
            return value
        return roll

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        counts = _as_array(self.count.sample(n, gen) if self.count is not None else (self.node.count or 1), n)
        if self.sides is not None:
            sides = _as_array(self.sides.sample(n, gen), n)
        else:
            sides = np.zeros(n, dtype=np.int64)
        out = np.zeros(n, dtype=np.int64)
        pairs = np.stack([counts, sides], axis=1)
        unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        for i, (c, s) in enumerate(unique.tolist()):
            rows = np.flatnonzero(inverse == i)
            term = self.term(int(c), int(s) if self.sides is not None else self.node.sides)
            out[rows] = term.sample(len(rows), gen)
        return out

    def exact(self) -> Any:
        out: PMF | None = None
        for c, p in self.counts:
            for s, q in self.sides_values:
                part = self.term(c, s).pmf().scale_mass(p * q)
                out = part if out is None else out.mix(part)
        assert out is not None
        return out

    def render(self, records: Iterator[Any]) -> str:
        _, (sub, inner) = next(records)
        it = iter(sub)
        count = f"({self.count.render(it)})" if self.count is not None else str(self.node.count or "")
        sides = f"({self.sides.render(it)})" if self.sides is not None else str(self.node.sides)
        owner, data = inner[0]
        return f"{count}d{sides}={owner.render(data)}"

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        _, (sub, inner) = next(records)
        it = iter(sub)
        if self.count is not None:
            self.count.wrapped(it, out, True)
        else:
            out.append(str(self.node.count or ""))
        out.append("d")
        if self.sides is not None:
            self.sides.wrapped(it, out, True)
        else:
            out.append(str(self.node.sides))
        out.append("=")
        owner, data = inner[0]
        out.extend(owner.parts(data))

    def dice(self, data: Any) -> list[Die]:
        sub, inner = data
        out = []
        for owner, d in sub + inner:
            out.extend(owner.dice(d))
        return out

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost = Cost()
        if self.count is not None:
            cost = cost + self.count.exact_cost()[0]
        if self.sides is not None:
            cost = cost + self.sides.exact_cost()[0]
        lo, hi = self.bounds()
        for c, _ in self.counts:
            for sv, _ in self.sides_values:
                term_cost = self.term(c, sv).exact_cost()[0]
                cost = cost + term_cost + Cost(_span(lo, hi), _span(lo, hi))
        return cost, lo, hi

    def bounds(self) -> tuple[Any, Any]:
        lo = hi = 0
        for c, _ in self.counts:
            for sv, _ in self.sides_values:
                t_lo, t_hi = self.term(c, sv).bounds()
                lo, hi = min(lo, t_lo), max(hi, t_hi)
        return check_interval(lo, hi, self.expression, self.node.pos)

    def truncated(self) -> float:
        worst = 0.0
        for c, _ in self.counts:
            for s, _ in self.sides_values:
                worst = max(worst, self.term(c, s).truncated_mass())
        return worst


# ------------------------------------------------------------------------------------------ compiling
_BINARY = {Add: "+", Sub: "-", Mul: "*", Div: "/", FloorDiv: "//", Mod: "%", Pow: "^"}


def compile_node(node: Any, ctx: Context, label: str | None = None) -> Evaluator:
    """The evaluator of ``node`` (``label``: the label written right after it, for a dice term)."""
    t = type(node)
    if t is Number:
        return Const(node.value)
    if t is Dice:
        if node.computed:
            outer, ctx.marked = ctx.marked, []
            try:
                count = compile_node(node.count, ctx) if not isinstance(node.count, (int, type(None))) else None
                sides = compile_node(node.sides, ctx) if not isinstance(node.sides, (int, str)) else None
            finally:
                inner, ctx.marked = ctx.marked, outer
            if inner or any(isinstance(m, Critical) for m in node.modifiers.items):
                ctx.uncounted = True  # the dice thrown depend on the counts: not followed
            return ComputedDice(node, count, sides, label, ctx)
        term = compile_term(node, ctx.expression, label=label, dialect=ctx.dialect, explosions=ctx.explosions)
        if term.crit_success is None and term.crit_failure is None:
            return Term(term)
        marked = CriticalTerm(term)
        ctx.marked.append(marked)
        return marked
    if t in _BINARY:
        return Binary(_BINARY[t], compile_node(node.left, ctx), compile_node(node.right, ctx), node, ctx)
    if t is Comparison:
        return Binary(node.op, compile_node(node.left, ctx), compile_node(node.right, ctx), node, ctx)
    if t is Neg:
        return Unary("-", compile_node(node.operand, ctx))
    if t is Pos:
        return Unary("+", compile_node(node.operand, ctx))
    if t is Labelled:
        if type(node.term) is Dice:
            return compile_node(node.term, ctx, label=node.label)
        return LabelledGroup(compile_node(node.term, ctx), node.label)
    if t is Call:
        return Function(node.name, [compile_node(a, ctx) for a in node.args], node, ctx)
    if isinstance(node, Group):
        if not any(isinstance(m, Keep) for m in node.modifiers):  # every item kept: its marks count as they are
            return GroupEval([compile_node(e, ctx) for e in node.exprs], node, ctx)
        outer, item_marks, items = ctx.marked, [], []
        try:
            for e in node.exprs:
                ctx.marked = []
                items.append(compile_node(e, ctx))
                item_marks.append(ctx.marked)
        finally:
            ctx.marked = outer
        if not any(item_marks):
            return GroupEval(items, node, ctx)
        group = CriticalGroup(items, node, ctx, item_marks)
        ctx.marked.append(group)
        return group
    raise DiceError(f"unexpected {t.__name__} in a standard expression")
