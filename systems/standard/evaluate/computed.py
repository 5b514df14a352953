"""Computed dice of a standard expression: ``(1d4)d6``, ``2d(1d6+2)``, the count or the sides thrown first."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from diceengine.arith import check_interval
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_DICE, Cost
from diceengine.parts import Part
from diceengine.pmf import PMF
from diceengine.rolls import Die

from ..nodes import Dice
from ..term import DiceTerm
from .base import Context, Evaluator, _as_array, _span, record_dice
from .terms import compile_term, sides_text

#: most (count, sides) pairs the exact odds of computed dice may mix
MAX_COMPUTED_PAIRS = 10_000


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
                raise DiceValueError(N_("a number of dice or of sides must be a whole number"), ctx.expression,
                                     node.pos or 0)
        self.counts = count.exact().items() if count is not None else [(node.count or 1, 1.0)]
        self.sides_values = sides.exact().items() if sides is not None else [(node.sides, 1.0)]
        if len(self.counts) * len(self.sides_values) > MAX_COMPUTED_PAIRS:
            raise DiceLimitError(N_("too many possible dice for this computed term"), ctx.expression, node.pos or 0)
        most = max(c for c, _ in self.counts)
        for c, _ in self.counts:
            self.term(c, self.sides_values[0][0])  # validates the counts
        for s, _ in self.sides_values:
            self.term(self.counts[0][0], s)  # validates the sides
        self.dice_count = most + (count.dice_count if count else 0) + (sides.dice_count if sides else 0)
        if self.dice_count > MAX_DICE:
            raise DiceLimitError(N_("too many dice: up to {dice} in one roll (at most {max_dice})"),
                                 ctx.expression, node.pos or 0, dice=self.dice_count, max_dice=MAX_DICE)

    def term(self, c: int, s: Any) -> DiceTerm:
        found = self._terms.get((c, s))
        if found is None:
            found = self._terms[(c, s)] = compile_term(self.node, self.expression, c, s, self.label, self.dialect,
                                                         self.explosions)
        return found

    def terms(self) -> list[tuple[DiceTerm, float]]:
        """Each term the count and the sides can make, with its probability."""
        return [(self.term(c, s), p * q) for c, p in self.counts for s, q in self.sides_values]

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
        return functools.reduce(PMF.mix, [term.pmf().scale_mass(w) for term, w in self.terms()])

    def render(self, records: Iterator[Any]) -> str:
        _, (sub, inner) = next(records)
        it = iter(sub)
        count = f"({self.count.render(it)})" if self.count is not None else str(self.node.count or "")
        sides = f"({self.sides.render(it)})" if self.sides is not None else sides_text(self.node.sides)
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
            out.append(sides_text(self.node.sides))
        out.append("=")
        owner, data = inner[0]
        out.extend(owner.parts(data))

    def dice(self, data: Any) -> list[Die]:
        sub, inner = data
        return record_dice(sub + inner)

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost = Cost()
        if self.count is not None:
            cost = cost + self.count.exact_cost()[0]
        if self.sides is not None:
            cost = cost + self.sides.exact_cost()[0]
        lo, hi = self.bounds()
        for term, _ in self.terms():
            cost = cost + term.exact_cost()[0] + Cost(_span(lo, hi), _span(lo, hi))
        return cost, lo, hi

    def bounds(self) -> tuple[Any, Any]:
        ranges = [term.bounds() for term, _ in self.terms()]
        lo, hi = min(0, *(r[0] for r in ranges)), max(0, *(r[1] for r in ranges))
        return check_interval(lo, hi, self.expression, self.node.pos)

    def truncated(self) -> float:
        return max(0.0, *(term.truncated_mass() for term, _ in self.terms()))
