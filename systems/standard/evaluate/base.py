"""The base of the standard notation's evaluators (:mod:`.compile`): the compiling context, the
:class:`Evaluator` contract, and the cost helpers its nodes share."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from string import Formatter
from typing import Any

from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, PYTHON_STEP, Cost
from diceengine.parts import Part, TextMemo
from diceengine.pmf import PMF, _check_support
from diceengine.rolljson import dice_json
from diceengine.rolls import Die

from ..exact import SNAP


class Context:
    """What compiling needs: the expression (for error carets) and the system's options."""

    def __init__(self, expression: str, options: Mapping[str, Any]) -> None:
        self.expression = expression
        self.exact_division = options.get("division", "floor") == "exact"
        self.dialect = options.get("dialect", "roll20")
        self.explosions = options.get("explosions", "unit")
        self.marked: list[Any] = []  # marked nodes (CriticalTerm, CriticalGroup): their counts in the outcome
        self.uncounted = False  # critical marks whose counts the outcome does not give (see CriticalTerm)
        self.pushed: dict[int, list[tuple]] = {}  # keep / drop of groups holding one roll, by dice node (id)
        self.slots: dict[int, Any] = {}  # the dice terms of a pooled keep / drop, by dice node (id): their Slot


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

    _list_writer: Callable[[list], str] | None = None

    def list_writer(self) -> Callable[[list], str]:
        """:meth:`render_list` compiled once: ``records -> text``, the node's :meth:`template` filled (the
        literal texts cut once), or :meth:`render` when it has none."""
        found = self._list_writer
        if found is None:
            found = self._list_writer = fill(pieces(self.template()), self._render_records)
        return found

    def _render_records(self, records: list) -> str:
        return self.render(iter(records))

    def render_list(self, records: list) -> str:
        """:meth:`render` of a list of records, through the node's :meth:`template` (compiled once) when
        it has one."""
        return (self._list_writer or self.list_writer())(records)

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


Pieces = tuple[list[str], list[Callable[[Any], str]]]


def pieces(template: tuple[str, list[Callable[[Any], str]]] | None) -> Pieces | None:
    """A :meth:`Evaluator.template` cut once: the literal texts around its fields (one more than the writers),
    and the writers; ``None`` without a template (or one with other fields than ``{}``)."""
    if template is None:
        return None
    text, writers = template
    literals: list[str] = []
    current = ""
    try:
        for literal, field, spec, conversion in Formatter().parse(text):
            current += literal  # "{{" already read as "{"
            if field is not None:
                if field or spec or conversion:
                    return None
                literals.append(current)
                current = ""
    except ValueError:  # not a template: rendered by render()
        return None
    literals.append(current)
    if len(literals) != len(writers) + 1:
        return None
    return literals, writers


def faces_of(write: Callable[[Any], str]) -> Mapping[int, str] | None:
    """The face -> text table of a writer of one die's data (``[face]``), when it has one (a plain term of one
    die, :mod:`..term.text`): a writer reads ``faces[data[0]]`` instead of calling it."""
    return getattr(write, "faces", None)


#: a whole number's text, remembered for the commonest (a roll's total, a group item's value)
INT_TEXT = TextMemo(str)


def fill(cut: Pieces | None, otherwise: Callable[[list], str]) -> Callable[[list], str]:
    """``records -> the template's text``, each record's data written by its writer (``cut``: :func:`pieces`);
    ``otherwise(records)`` writes the text without a template, or for records that are not one per writer."""
    if cut is None:
        return otherwise
    literals, writers = cut
    n = len(writers)
    if n == 0:
        text = literals[0]
        return lambda records: otherwise(records) if records else text
    if n == 1:
        (write,), (a, b) = writers, literals
        faces = faces_of(write)
        if faces is not None:  # one die: its text read directly
            def one_die(records: list) -> str:
                if len(records) != 1:
                    return otherwise(records)
                data = records[0][1]
                return f"{a}{faces[data[0]] if len(data) == 1 else write(data)}{b}"
            one_die.one_die = (a, faces, b)  # type: ignore[attr-defined]  # for a group to write it inline
            return one_die

        def one(records: list) -> str:
            if len(records) != 1:
                return otherwise(records)
            return f"{a}{write(records[0][1])}{b}"
        return one
    if n == 2:
        (w1, w2), (a, b, c) = writers, literals

        def two(records: list) -> str:
            if len(records) != 2:
                return otherwise(records)
            return f"{a}{w1(records[0][1])}{b}{w2(records[1][1])}{c}"
        return two
    first, rest = literals[0], list(zip(writers, literals[1:]))

    def many(records: list) -> str:
        if len(records) != n:
            return otherwise(records)
        out = [first]
        for (write, after), (_, data) in zip(rest, records):
            out += (write(data), after)
        return "".join(out)
    return many


def record_dice(records: list) -> list[Die]:
    """The dice of ``(owner, data)`` records, in their order (each owner explains its own)."""
    return [die for owner, data in records for die in owner.dice(data)]


def _span(lo: Any, hi: Any) -> int:
    return int(math.ceil(hi) - math.floor(lo)) + 1


def _pairs_cost(a: tuple[Cost, Any, Any], b: tuple[Cost, Any, Any], lo: Any, hi: Any,
                rational: bool) -> tuple[Cost, int, int]:
    """Cost of combining two distributions pair by pair (numpy when whole, Python when fractions)."""
    la, lb = _span(a[1], a[2]), _span(b[1], b[2])
    pairs = la * lb
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




def snap(values: Any) -> np.ndarray:
    """Sampled fractions (floats) with those within :data:`SNAP` (relative) of a whole number made that
    number: what ``floor``, ``ceil``, ``round``, ``%`` and comparisons read, so that ``floor(1d10*0.1*10)`` or
    ``3*0.1 == 0.3`` sample as their exact values do (an exact fraction with a denominator below a million is
    never that close to a whole number unless it is one)."""
    v = np.asarray(values, dtype=np.float64)
    whole = np.rint(v)
    return np.where(np.abs(v - whole) <= SNAP * np.maximum(1.0, np.abs(v)), whole, v)


def snapped_difference(a: Any, b: Any) -> np.ndarray:
    """``a - b`` of sampled fractions, 0 where they are equal up to float rounding (:data:`SNAP`)."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    d = x - y
    scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    return np.where(np.abs(d) <= SNAP * scale, 0.0, d)
