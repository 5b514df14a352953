"""Groups of a standard expression: a label on an expression, and ``{...}`` groups that sum, keep / drop or
count successes of their items."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from math import comb
from typing import Any

from diceengine.arith import check_interval
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import PYTHON_STEP, Cost
from diceengine.parts import Group as Struck
from diceengine.parts import Part
from diceengine.pmf import PMF, convolve_cost
from diceengine.rolls import Die

from ..exact import MAX_PAIRS, build, combine, normal, show
from ..expressions import Group
from ..modifiers import written
from ..modifiers.dice import keep_rule
from ..nodes import Compare, CountFailures, CountSuccesses, Keep, Sort
from .base import INT_TEXT as ints
from .base import Context, Evaluator, _as_array, _span, record_dice, snap


def _braces(text: str) -> str:
    """``text`` as literal text of a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


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
        return self.list_writer()([next(records)])

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        inner = self.inner.template() if self.constant else None
        if inner is None:
            return None if self.constant else ("{}", [self._writer()])
        return f"{inner[0]} ({_braces(self.label)})", inner[1]

    def _writer(self) -> Callable[[list], str]:
        """:meth:`render` of a labelled expression that throws dice, from its record's data (the inner records)."""
        inner, after = self.inner.list_writer(), f" ({self.label})"
        if self.inner.prec < 9:
            return lambda sub: f"({inner(sub)}){after}"
        return lambda sub: inner(sub) + after

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        if self.constant:
            self.inner.parts(records, out)
        else:
            _, sub = next(records)
            self.inner.wrapped(iter(sub), out, self.inner.prec < 9)
        out.append(f" ({self.label})")

    def dice(self, data: Any) -> list[Die]:
        return [die if die.label else die._replace(label=self.label) for die in record_dice(data)]

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
            raise DiceValueError(N_("more than one success or failure count on one group"), ctx.expression,
                                 (succ + fail)[1].pos or 0)
        if fail and not succ:
            raise DiceValueError(N_("a failure count (f) needs a success count before it"), ctx.expression,
                                 fail[0].pos or 0)
        self.success: Compare | None = succ[0].compare if succ else None
        self.failure: Compare | None = fail[0].compare if fail else None
        sorts = [m for m in node.modifiers if isinstance(m, Sort)]
        self.sort = sorts[-1].kind if sorts else None
        self.rational = self.success is None and any(i.rational for i in items)
        self.dice_count = sum(i.dice_count for i in items)
        self.open, self.close = ("{", "}") if node.brace else ("(", ")")
        self.shows_value = [callable(i.roller()) for i in items]
        self.suffix = "".join(written(m) for m in node.modifiers)

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
            total = self._counted([v for v, k in zip(values, kept) if k])
            return normal(total) if self.rational else total
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
        if any(i.rational for i in self.items):  # sampled fractions compared as the exact ones (base.snap)
            values = snap(values)
        kept = self.selection.mask(values) if self.selection is not None else None
        if self.window is not None:
            a, b = self.window
            values = np.sort(values, axis=1)[:, a:b]
        if self.success is not None:
            hit = self.success.test(values)
            score = hit.astype(np.int64)
            if self.failure is not None:
                score -= self.failure.test(values) & ~hit
            values = score
        return (values if kept is None else np.where(kept, values, 0)).sum(axis=1)

    def exact(self) -> Any:
        dists = [i.exact() for i in self.items]
        m = len(dists)
        if self.selection is not None and not self.selection.by_value:
            return self._selected_exact(dists)
        if self.window not in (None, (0, m)):
            trim, kept_of = self._window_followed(m)
            states = self._sorted_values(dists, trim)
            return build([(self._counted(kept_of(state)), p) for state, p in states.items()])
        keeps = self.selection.keeps_value if self.selection is not None else None
        if keeps is not None or self.success is not None:  # each item's value as the sum counts it
            counted = self._as_counted
            dists = [build((counted(v) if keeps is None or keeps(v) else 0, p) for v, p in d.items()) for d in dists]
        return _sum(dists)

    def _as_counted(self, v: Any) -> Any:
        """What an item's value adds to the group's: itself, or its score with a success count."""
        return v if self.success is None else self._score(v)

    def _counted(self, kept: Iterable[Any]) -> Any:
        """The group's value of the items' values it keeps: their sum, or their scores' with a success count."""
        return sum(kept) if self.success is None else sum(map(self._score, kept))

    def _window_followed(self, m: int) -> tuple[Callable[[list], list], Callable[[Sequence], Sequence]]:
        """For the keep / drop window of ``m`` items: ``(trim, kept)``: ``trim`` keeps of the values sorted so far
        only those the window can still need (the highest ``m - a``, or the lowest ``b``, whichever are fewer),
        ``kept`` the window's among those followed."""
        a, b = self.window  # type: ignore[misc]
        if m - a <= b:
            width = m - a
            return (lambda new: new[max(0, len(new) - width):]), (lambda state: state[:b - a])
        return (lambda new: new[:b]), (lambda state: state[a:])

    def _followed(self, items: Iterable[Sequence[tuple[Any, float]]],
                  step: Callable[[tuple, Any], tuple]) -> dict[tuple, float]:
        """The distribution of a state followed item by item (``items``: each item's ``(value, probability)``
        pairs; ``step(state, value)``: the state after one more item), refused past :data:`MAX_PAIRS`."""
        states: dict[tuple, float] = {(): 1.0}
        for item in items:
            if len(states) * len(item) > MAX_PAIRS:
                raise DiceLimitError(N_("too many possible results for the exact odds of this group"),
                                     self.expression, self.node.pos if hasattr(self.node, "pos") else 0)
            nxt: dict[tuple, float] = {}
            for state, p in states.items():
                for v, q in item:
                    key = step(state, v)
                    nxt[key] = nxt.get(key, 0.0) + p * q
            states = nxt
        return states

    def _sorted_values(self, dists: list[Any], trim: Callable[[list], list]) -> dict[tuple, float]:
        """The distribution of the items' values in order, item by item, ``trim`` keeping after each item
        only the values the keep / drop can still need."""
        return self._followed((d.items() for d in dists), lambda state, v: tuple(trim(sorted(state + (v,)))))

    def _selected_exact(self, dists: list[Any]) -> Any:
        """Exact odds of d20's keep / drop mixing ranks (:mod:`..selection`): the sorted values followed item by
        item, the kept ones chosen at the end (how many of each value: equal values are exchangeable)."""
        assert self.selection is not None
        states = self._sorted_values(dists, lambda new: new)
        out: list[tuple[Any, float]] = []
        for state, p in states.items():
            counts = sorted(Counter(state).items())
            kept = [v for (v, _), k in zip(counts, self.selection.kept_counts(counts)) for _ in range(k)]
            out.append((self._counted(kept), p))
        return build(out)

    def render(self, records: Iterator[Any]) -> str:
        return self.list_writer()([next(records)])

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        return "{}", [self._writer()]

    def _writer(self) -> Callable[[Any], str]:
        """:meth:`render` from the group's record's data, each item's text compiled once
        (:meth:`~.base.Evaluator.list_writer`)."""
        writers = [item.list_writer() for item in self.items]
        shows_value, opening, closing = self.shows_value, self.open, self.close + self.suffix
        score, sort = (self._score if self.success is not None else None), self.sort

        def write(data: Any) -> str:
            subs, values, kept = data
            parts = []
            for item, sub, value, k, shows in zip(writers, subs, values, kept, shows_value):
                text = item(sub)
                if shows:
                    text = f"{text} = {value if type(value) is int else show(value)}"
                if score is not None and k:
                    points = score(value)
                    text += "*" * max(points, 0) + "_" * max(-points, 0)
                parts.append(text if k else f"~{text}~")
            if sort is not None:
                order = sorted(range(len(parts)), key=values.__getitem__, reverse=sort == "sd")
                parts = [parts[i] for i in order]
            return opening + ", ".join(parts) + closing

        if len(writers) != 2 or score is not None or sort is not None or not all(shows_value):
            return write
        first, second = writers  # (1d20+5, 1d20+5)kh1: two items that throw dice, each shown with its value

        def pair(data: Any) -> str:
            subs, values, kept = data
            if len(subs) != 2:
                return write(data)
            x, y = values
            a = f"{first(subs[0])} = {ints[x] if type(x) is int else show(x)}"
            b = f"{second(subs[1])} = {ints[y] if type(y) is int else show(y)}"
            k, m = kept
            return f"{opening}{a if k else f'~{a}~'}, {b if m else f'~{b}~'}{closing}"

        one, other = getattr(first, "one_die", None), getattr(second, "one_die", None)
        if one is None or other is None:
            return pair
        (a1, f1, b1), (a2, f2, b2) = one, other  # (1d20+5, 1d20+5)kh1: each item one die and fixed texts

        def pair_of_dice(data: Any) -> str:
            try:
                (s, t), (x, y), (k, m) = data
                ((_, (u,)),), ((_, (v,)),) = s, t  # one record of one die each
            except ValueError:
                return write(data)
            a, b = f1[u], f2[v]
            x = ints[x] if type(x) is int else show(x)
            y = ints[y] if type(y) is int else show(y)
            if k and not m:
                return f"{opening}{a1}{a}{b1} = {x}, ~{a2}{b}{b2} = {y}~{closing}"
            if m and not k:
                return f"{opening}~{a1}{a}{b1} = {x}~, {a2}{b}{b2} = {y}{closing}"
            if k:
                return f"{opening}{a1}{a}{b1} = {x}, {a2}{b}{b2} = {y}{closing}"
            return f"{opening}~{a1}{a}{b1} = {x}~, ~{a2}{b}{b2} = {y}~{closing}"
        return pair_of_dice

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        _, (subs, values, kept) = next(records)
        pieces: list[list[Part]] = []
        for item, sub, value, k, shows in zip(self.items, subs, values, kept, self.shows_value):
            piece: list[Part] = []
            item.parts(iter(sub), piece)
            if shows:
                piece.append(f" = {show(value)}")
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
        return [die if k else die._replace(kept=False)  # (one comprehension: a marked plan's roll reads it)
                for sub, k in zip(subs, kept) for owner, d in sub for die in owner.dice(d)]

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
        seen_lo = seen_hi = None  # the range of every item's values so far: a sorted state holds those values
        for c, c_lo, c_hi in costs:
            span = _span(c_lo, c_hi)
            seen_lo = c_lo if seen_lo is None else min(seen_lo, c_lo)
            seen_hi = c_hi if seen_hi is None else max(seen_hi, c_hi)
            values = _span(seen_lo, seen_hi)
            cost = cost + c
            if self.selection is not None and not self.selection.by_value:  # every value, sorted
                cost = cost + Cost(states * span * len(costs) * PYTHON_STEP, states * span)
                states = min(states * span, comb(values + len(costs), len(costs)))
                cost = cost + Cost(states * len(costs) * 4 * PYTHON_STEP, states)  # the kept values of each
            elif self.window is None or self.selection is not None:
                cost = cost + convolve_cost(states, span) + Cost(span * PYTHON_STEP, span)
                states = _span(lo, hi)
            else:  # sorted tuples of the values followed (at most the group's width of them)
                cost = cost + Cost(states * span * width * PYTHON_STEP, states * span)
                states = min(states * span, comb(values + width, width))
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


def _sum(dists: list[Any]) -> Any:
    """The distribution of the sum of independent values."""
    total = dists[0]
    for d in dists[1:]:
        total = total + d if isinstance(total, PMF) and isinstance(d, PMF) else combine(total, d, lambda x, y: x + y)
    return total
