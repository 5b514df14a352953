"""Critical marks in groups of a standard expression: the odds conditioned on the marked nodes' critical
counts, and a group that keeps or drops around marked dice (:class:`CriticalGroup`)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, PYTHON_STEP, Cost

from ..exact import build, normal
from ..expressions import Group
from .base import Context, Evaluator, _as_array, _span
from .groups import GroupEval
from .leaves import COSTING_GIVEN, CRITICALS_GIVEN, CRITICALS_SAMPLED, Marked


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


class CriticalGroup(Marked, GroupEval):
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
                for v, q in exact.items():
                    table[(v, cs, cf)] = table.get((v, cs, cf), 0.0) + w * q
            rows_of.append([(row, q) for row, q in table.items() if q > 0])
        if self._one_kept():
            found: dict[tuple[int, int], list[tuple[Any, float]]] = {}
            for (v, cs, cf), p in self._one_kept_rows(rows_of):
                found.setdefault((cs, cf), []).append((self._as_counted(v), p))
            return self._joint_of(found)
        by_value = self.selection is not None and self.selection.by_value
        trim: Callable[[list], list] = lambda new: new
        kept_of: Callable[[Sequence], Sequence] = lambda state: state
        if self.selection is None and self.window is not None:
            trim, kept_of = self._window_followed(m)

        def step(state: tuple, row: Any) -> tuple:
            if by_value:  # each item kept by its own value: the sums followed
                total, cs, cf = state or (0, 0, 0)
                if self.selection.keeps_value(row[0]):  # type: ignore[union-attr]
                    total, cs, cf = total + self._as_counted(row[0]), cs + row[1], cf + row[2]
                return total, cs, cf
            # after the values equal or lower: the roll's stable sort ranks the later item higher
            at = bisect.bisect_right([r[0] for r in state], row[0])
            return tuple(trim([*state[:at], row, *state[at:]]))

        states = self._followed(rows_of, step)
        found = {}
        for state, p in states.items():
            if by_value:
                total, cs, cf = state or (0, 0, 0)
            else:
                values = [r[0] for r in state]
                if self.selection is not None:
                    kept_rows = [r for r, k in zip(state, self.selection.kept(values)) if k]
                else:  # the window's ranks among those followed (all without a window)
                    kept_rows = list(kept_of(state))
                total = self._counted(r[0] for r in kept_rows)
                if self.rational:
                    total = normal(total)
                cs, cf = sum(r[1] for r in kept_rows), sum(r[2] for r in kept_rows)
            found.setdefault((cs, cf), []).append((total, p))
        return self._joint_of(found)

    def _joint_of(self, found: dict[tuple[int, int], list[tuple[Any, float]]]) \
            -> dict[tuple[int, int], tuple[float, Any]]:
        self._joint = {}
        for pair, items in found.items():
            mass = sum(q for _, q in items)
            self._joint[pair] = (mass, build([(v, q / mass) for v, q in items]))
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
