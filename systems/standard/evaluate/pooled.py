"""Keep / drop on a group whose one item adds and subtracts several dice terms: ``{4d10+5d6}k2`` keeps the two
highest of the nine dice (rpg-dice-roller, Roll20's ``{4d6+3d8}kh1``).

The reading is rpg-dice-roller's (its ``KeepModifier`` / ``DropModifier`` on a group of one sub-roll): every die of
the item's dice terms is ranked on its face, lowest first, equal faces in the order written (its sort is stable);
keep / drop choose ranks among them (several keep / drop: a die counts if none drops it); the item's value is then
its expression with each term's kept dice (a term with none kept is 0): ``{4d6-3d8+2}kh1`` is the highest die of the
seven, subtracted when it is a d8, plus 2. Numbers are never ranked.

Exact odds (:meth:`PooledKeep.exact`) are the die algebra's placing of ranked dice, the one that
:meth:`Pool.ranked <diceengine.algebra.Pool.ranked>` reads too (:func:`diceengine.algebra.pool.kept_total` for a sum of
terms, each term's dice weighted by its sign; :func:`~diceengine.algebra.pool.kept_sums`, the joint chances of the
terms' kept sums, for any other item, each mapped through it): the faces visited lowest first and, for one face, the
terms in the order written; the state is how many dice of each term are not yet placed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import prod
from typing import Any

from diceengine.algebra.die import Die as AlgebraDie
from diceengine.algebra.draws import PoolRoll, PoolSample
from diceengine.algebra.pool import kept_sums, kept_total, placing_steps, placing_work
from diceengine.ast import Add, Neg, Number, Sub, children
from diceengine.errors import DiceLimitError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import PYTHON_STEP, Cost
from diceengine.parts import Face, Part
from diceengine.pmf import PMF
from diceengine.rolls import Die

from ..exact import build
from ..expressions import Call, Group, Labelled, Pos
from ..nodes import Dice, Keep
from ..term import DiceTerm
from ..term.faces import window_of
from ..term.sample import draw
from .base import Context, Evaluator
from .terms import compile_term

__all__ = ["PooledKeep", "Slot", "linear_terms", "pooled_dice"]

#: most (face, state, count) steps the exact odds of one pooled keep / drop may take
MAX_POOLED_STEPS = 2_000_000


def linear_terms(node: Any, sign: int = 1, out: list | None = None) -> list[tuple[int, Any]] | None:
    """``[(sign, node)]`` of an item that only adds and subtracts dice terms and whole numbers (labels aside), in
    the order written; None for any other item."""
    out = [] if out is None else out
    while isinstance(node, Labelled):
        node = node.term
    if isinstance(node, (Add, Sub)):
        if linear_terms(node.left, sign, out) is None:
            return None
        return linear_terms(node.right, sign if isinstance(node, Add) else -sign, out)
    if isinstance(node, Neg):
        return linear_terms(node.operand, -sign, out)
    if isinstance(node, Pos):
        return linear_terms(node.operand, sign, out)
    if isinstance(node, (Number, Dice)):
        out.append((sign, node))
        return out
    return None


def pooled_dice(node: Any, out: list) -> bool:
    """Append the dice terms of an item that pooled keep / drop can rank (dice terms without modifiers, with whole
    counts and sides, under arithmetic and functions), in the order written; False when the item holds anything
    else that throws dice (a group, computed dice, a dice term with modifiers)."""
    if isinstance(node, Dice):
        if node.computed or node.modifiers.items:
            return False
        out.append(node)
        return True
    if isinstance(node, Group):
        return False
    if isinstance(node, Call):
        return all(pooled_dice(a, out) for a in node.args)
    if isinstance(node, Labelled):
        return pooled_dice(node.term, out)
    if hasattr(node, "operand"):
        return pooled_dice(node.operand, out)
    if hasattr(node, "left"):
        return pooled_dice(node.left, out) and pooled_dice(node.right, out)
    return True


class Slot(Evaluator):
    """A dice term of a pooled item: its dice thrown and kept by :class:`PooledKeep`, its value the sum of its
    kept dice (what the item's arithmetic reads)."""

    def __init__(self, term: DiceTerm) -> None:
        self.term = term
        self.dice_count = term.spec.count
        self.current: tuple[list[Any], list[bool]] = ([], [])
        self.sampled: Any = 0
        self.value: Any = 0
        self.low, self.high = 0, 0  # the range of its kept sum (set by PooledKeep)

    def roller(self) -> Any:
        def roll(r: Any, rec: list) -> Any:
            rec.append((self, self.current))
            return self.value
        return roll

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self.sampled

    def exact(self) -> Any:
        return PMF.point(self.value)

    def bounds(self) -> tuple[Any, Any]:
        return self.low, self.high

    def exact_cost(self) -> tuple[Cost, int, int]:
        return Cost(), self.low, self.high

    def dice(self, data: Any) -> list[Die]:
        spec = self.term.spec
        return [Die(spec.kind, spec.sides, v, k, False, False, False, False, None, spec.label, None)
                for v, k in zip(*data)]

    def render(self, records: Iterator[Any]) -> str:
        _, data = next(records)
        label = f" ({self.term.spec.label})" if self.term.spec.label else ""
        return "[" + ", ".join(str(v) if k else f"~{v}~" for v, k in zip(*data)) + "]" + label

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        _, data = next(records)
        out.append("[")
        for k, d in enumerate(self.dice(data)):
            if k:
                out.append(", ")
            out.append(Face(d))
        out.append("]")
        if self.term.spec.label:
            out.append(f" ({self.term.spec.label})")


class PooledKeep(Evaluator):
    """The item of ``{4d10+5d6}k2`` or ``{4d10*5d6}k2``: its terms' dice ranked together (module docstring)."""

    def __init__(self, slots: list[Slot], item: Evaluator, signs: list[int] | None, keeps: list[Keep],
                 node: Any, ctx: Context) -> None:
        self.node, self.item, self.slots, self.signs = node, item, slots, signs
        self.expression = ctx.expression
        self.rational = item.rational
        self.counts = [s.term.spec.count for s in slots]
        self.total_dice = sum(self.counts)
        self.window = window_of(keeps, self.total_dice) or (0, self.total_dice)
        self.keeps = keeps
        self.dice_count = item.dice_count
        width = self.window[1] - self.window[0]
        for slot in slots:
            faces = slot.term.spec.faces
            most = min(slot.term.spec.count, width)
            slot.low, slot.high = min(0, most * min(faces)), max(0, most * max(faces))
        self._exact_value: Any = None
        self._groups: list[tuple[AlgebraDie, int]] | None = None
        self._weights: list[int] = []
        self._constant: Any = 0  # a sum of terms: its numbers (set by pooled())

    def _kept(self, faces: list[list[Any]]) -> list[list[bool]]:
        """Which dice of one throw are kept: ranks lowest first, equal faces in the order written (the algebra's
        :meth:`PoolRoll.window <diceengine.algebra.draws.PoolRoll.window>`)."""
        marks = iter(PoolRoll.of([v for vals in faces for v in vals]).window(*self.window, order="lowest").kept)
        return [[next(marks) for _ in vals] for vals in faces]

    def roller(self) -> Any:
        item = self.item.roller()
        slots = self.slots

        def roll(r: Any, rec: list) -> Any:
            faces = []
            for slot in slots:
                spec = slot.term.spec
                f, s = spec.faces, spec.sides
                faces.append([f[int(r() * s)] for _ in range(spec.count)])
            for slot, vals, ks in zip(slots, faces, self._kept(faces)):
                slot.current = (vals, ks)
                slot.value = sum(v for v, k in zip(vals, ks) if k)
            sub: list = []
            value = item(r, sub) if callable(item) else item
            rec.append((self, sub))
            return value
        return roll

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        cols = [draw(s.term.spec, gen, (n, s.term.spec.count)) for s in self.slots]
        values = np.concatenate(cols, axis=1).astype(np.int64) if cols else np.zeros((n, 0), dtype=np.int64)
        held = np.where(PoolSample.of(values).window(*self.window, order="lowest").kept, values, 0)
        start = 0
        for slot, c in zip(self.slots, self.counts):
            slot.sampled = held[:, start:start + c].sum(axis=1)
            start += c
        return self.item.sample(n, gen)

    # ---- exact odds: the die algebra's placing of ranked dice (diceengine.algebra.pool.kept_total / kept_sums)
    def _placing(self) -> tuple[list[tuple[AlgebraDie, int]], list[int]]:
        """The terms' dice as the algebra's groups (in the order written, so that equal faces rank in that order)
        and a weight of 1 on each kept rank, lowest first (made once)."""
        if self._groups is None:
            lo, hi = self.window
            self._groups = [(AlgebraDie.of(s.term.spec.faces), c) for s, c in zip(self.slots, self.counts)]
            self._weights = [1 if lo <= i < hi else 0 for i in range(self.total_dice)]
        return self._groups, self._weights

    def _size(self) -> tuple[int, int]:
        """At most how many (face, term, state, count) steps the exact odds take, and at most how many kept sums
        one state holds."""
        steps = placing_steps(self._placing()[0])
        if self.signs is not None:  # one signed sum
            top = max([max(abs(f) for f in s.term.spec.faces) for s in self.slots] or [0])
            return steps, 2 * (self.window[1] - self.window[0]) * top + 1
        return steps, prod(s.high - s.low + 1 for s in self.slots)

    def _work(self) -> float:
        """At most the steps and the kept sums they carry (:func:`~diceengine.algebra.pool.placing_work`)."""
        groups, weights = self._placing()
        return placing_work(groups, weights, self.signs, joint=self.signs is None)

    def exact(self) -> Any:
        if self._exact_value is None:
            self._exact_value = self._exact()
        return self._exact_value

    def _exact(self) -> Any:
        """A sum of terms: the algebra's signed total of the kept dice, plus the numbers; any other item: the
        joint chances of the terms' kept sums, each mapped through the item."""
        groups, weights = self._placing()
        if self.signs is not None:
            total = kept_total(groups, weights, highest=False, scale=self.signs)
            return build((key + self.constant, p) for key, p in total.items())
        roll = self.item.roller()
        out: list[tuple[Any, float]] = []
        for key, p in kept_sums(groups, weights, highest=False).items():
            for slot, value in zip(self.slots, key):
                slot.value = value
            out.append((roll(None, []) if callable(roll) else roll, p))
        return build(out)

    @property
    def constant(self) -> Any:
        return self._constant

    def exact_cost(self) -> tuple[Cost, int, int]:
        steps, size = self._size()
        if steps > MAX_POOLED_STEPS:
            raise DiceLimitError(N_("too many dice of different kinds kept together for exact odds: use sample()"),
                                 self.expression, self.keeps[0].pos or 0)
        lo, hi = self.bounds()
        states = prod(c + 1 for c in self.counts)
        # the steps and their sums, then each final sum mapped through the item (in Python)
        return Cost((self._work() + size) * PYTHON_STEP, 4 * size * states), lo, hi

    def bounds(self) -> tuple[Any, Any]:
        return self.item.bounds()

    def truncated(self) -> float:
        return 0.0

    # ---- text and dice: the item's, its dice terms showing the dice dropped
    def render(self, records: Iterator[Any]) -> str:
        _, sub = next(records)
        return self.item.render(iter(sub))

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        _, sub = next(records)
        self.item.parts(iter(sub), out)

    def dice(self, data: Any) -> list[Die]:
        return [d for owner, rec in data for d in owner.dice(rec)]

    def dice_json(self, data: Any, dropped: bool = False) -> str:
        return ",".join([text for owner, rec in data if (text := owner.dice_json(rec, dropped))])


def pooled(node: Any, item_node: Any, keeps: list[Keep], ctx: Context,
           compile_item: Callable[[Any, Context], Evaluator]) -> PooledKeep | None:
    """The pooled keep / drop of a group's one item holding several dice terms (without modifiers), under any
    arithmetic; None when the item holds anything else that throws dice."""
    found: list[Dice] = []
    if not pooled_dice(item_node, found) or len(found) < 2:
        return None
    labels: dict[int, str] = {}
    _labels(item_node, labels)
    slots = [Slot(compile_term(d, ctx.expression, label=labels.get(id(d)), dialect=ctx.dialect)) for d in found]
    outer = ctx.slots
    ctx.slots = {**outer, **{id(d): slot for d, slot in zip(found, slots)}}
    try:
        item = compile_item(item_node, ctx)
    finally:
        ctx.slots = outer
    terms = linear_terms(item_node)
    signs = None if terms is None else [sign for sign, t in terms if isinstance(t, Dice)]
    evaluator = PooledKeep(slots, item, signs, keeps, node, ctx)
    evaluator._constant = 0 if terms is None else sum(sign * t.value for sign, t in terms if isinstance(t, Number))
    return evaluator


def _labels(node: Any, out: dict[int, str]) -> None:
    """The labels written right after dice terms (``2d6[fire]``), by dice node (id)."""
    if isinstance(node, Labelled) and isinstance(node.term, Dice):
        out[id(node.term)] = node.label
    for child in children(node):
        _labels(child, out)
