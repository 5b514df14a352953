"""The exact sum of a pool of symbol dice (:meth:`~diceengine.algebra.SymbolPool.sum`) and what it will cost.

The dice are split into factors by the symbols they touch (dice that share no symbol are independent: FFG's Force dice
and the others). A factor's masses are laid out flat, one symbol after the other, so that the index of a sum is the
sum of the indices: adding a die is a 1-D convolution (one numpy call, or one shifted copy per face when the array is
large). A kind of die whose one face alone counts some symbol (FFG's triumph and despair, the d20's complication) is
not convolved along that symbol: with ``k`` of its ``n`` dice on that face, the other ``n - k`` show the rest of its
faces, so the ``n + 1`` cases are made one die after the other and each laid down at its count of that symbol
(binomially weighted). Every such kind but the one with the most dice is done first and stacked; the stack is then
streamed through the last one (the layout keeps their symbols outermost). :func:`sum_cost` follows the same steps on
the spans of the symbols.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, PYTHON_STEP, Cost

from .symbol_boxes import Box, Factor, Kernel, as_kernel, convolve, place

__all__ = ["Kind", "Recipe", "cells_of", "recipes", "sum_cost", "sum_factors"]

#: a kind of die in a pool: the symbols its faces touch, its distinct faces on them with their chances, how many dice
Kind = tuple[tuple[int, ...], list[tuple[tuple[int, ...], float]], int]
#: a kind of die streamed: the kind, its rare face (over its own symbols), that face's chance, and the symbol only
#: that face counts
Rare = tuple[Kind, tuple[int, ...], float, int]


def cells_of(faces: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], float]]]:
    """A fair die's faces as (the symbols some face counts, each distinct face on those symbols with its chance)."""
    axes = tuple(i for i in range(len(faces[0])) if any(f[i] for f in faces))
    chances: dict[tuple[int, ...], float] = {}
    for f in faces:
        v = tuple(f[i] for i in axes)
        chances[v] = chances.get(v, 0.0) + 1 / len(faces)
    return axes, list(chances.items())


def _split(kinds: Sequence[Kind]) -> list[list[Kind]]:
    """The kinds of dice in groups that share no symbol (each group one independent factor), first symbol first."""
    groups: list[list[Kind]] = []
    for kind in kinds:
        if not kind[0]:
            continue  # a die that counts nothing adds nothing
        touching = [g for g in groups if any(set(kind[0]) & set(k[0]) for k in g)]
        merged = [kind] + [k for g in touching for k in g]
        groups = [g for g in groups if g not in touching] + [merged]
    return sorted(groups, key=lambda g: min(a for k in g for a in k[0]))


def _rare(group: Sequence[Kind]) -> list[Rare]:
    """The kinds streamed (see the module's docstring): those whose one face alone counts a symbol no other kind of
    the group counts, each with that face and that symbol, fewest dice first."""
    out = []
    for index, (own, cells, _) in enumerate(group):
        others = {a for j, k in enumerate(group) if j != index for a in k[0]}
        for j, axis in enumerate(own):
            carriers = [(v, p) for v, p in cells if v[j]]
            if axis not in others and len(carriers) == 1 and carriers[0][1] < 1:
                out.append((group[index], carriers[0][0], carriers[0][1], axis))
                break
    return sorted(out, key=lambda r: r[0][2])


def _bounds(cells: Sequence[tuple[tuple[int, ...], float]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The lowest and the highest count of each symbol over these faces."""
    columns = list(zip(*(v for v, _ in cells), strict=True))
    return tuple(map(min, columns)), tuple(map(max, columns))


def _plus(a: tuple[int, ...], b: tuple[int, ...], k: int = 1) -> tuple[int, ...]:
    """``a + k * b``."""
    return tuple(x + k * y for x, y in zip(a, b, strict=True))


class Recipe:
    """One factor's sum, prepared once for a pool: the layout of its symbols (the streamed kinds' own symbols
    outermost, the last one first), and each die as a flat kernel of that layout, from its lowest face."""

    __slots__ = ("axes", "dense", "frames", "group", "lo", "nested", "order", "rare", "shape", "sizes", "stack_lo",
                 "starts", "streamed", "strides")

    def __init__(self, group: Sequence[Kind]) -> None:
        self.group = group
        self.axes = tuple(sorted({a for k in group for a in k[0]}))
        self.rare = rare = _rare(group)
        outer = [r[3] for r in reversed(rare)]
        self.order = outer + [a for a in self.axes if a not in outer]
        lo, hi = {a: 0 for a in self.axes}, {a: 0 for a in self.axes}
        for own, cells, n in group:
            for a, low, high in zip(own, *_bounds(cells), strict=True):
                lo[a] += n * low
                hi[a] += n * high
        self.lo = tuple(lo[a] for a in self.axes)
        #: the lowest vector of the stack: the dice but the last streamed kind's
        self.stack_lo = self.lo if not rare else _plus(
            self.lo, self.lift(rare[-1][0][0], _bounds(rare[-1][0][1])[0]), -rare[-1][0][2])
        self.shape = [hi[a] - lo[a] + 1 for a in self.order]
        self.strides = {a: math.prod(self.shape[i + 1:]) for i, a in enumerate(self.order)}
        #: the symbols of the full layout, of the stack (without the last streamed symbol), of the inner arrays
        self.frames = (set(self.order), set(self.order[min(1, len(rare)):]), set(self.order[len(rare):]))
        self.sizes = tuple(math.prod(self.shape[len(self.order) - len(f):]) for f in self.frames)
        streamed = [r[0] for r in rare]
        dense = [(k, self.kernel(k)) for k in group if not any(k is s for s in streamed)]
        self.dense = [(kernel, k[2]) for k, (kernel, _) in dense]
        #: each streamed kind: its other faces' kernel, the shift of one of them at its lowest and of its rare face,
        #: how many dice, the rare face's chance
        self.streamed = [(kernel, self.shift(low), self.shift(self.lift(r[0][0], r[1])), r[0][2], r[2])
                         for r in rare for kernel, low in [self.kernel(r[0], r[1])]]
        self.nested = self.streamed[:-1]
        base = tuple(0 for _ in self.axes)
        for k, (_, lowest) in dense:
            base = _plus(base, lowest, k[2])
        #: where the inner arrays start in the stack, where the stack starts in the full layout
        self.starts = (self.flat(base, 1), self.flat(self.stack_lo))

    def lift(self, own: tuple[int, ...], vector: tuple[int, ...]) -> tuple[int, ...]:
        """``vector`` over the symbols ``own`` as a vector over the factor's symbols."""
        return tuple(vector[own.index(a)] if a in own else 0 for a in self.axes)

    def shift(self, vector: tuple[int, ...]) -> int:
        """The shift of the flat index that adding ``vector`` (over the factor's symbols) makes."""
        return sum(v * self.strides[a] for a, v in zip(self.axes, vector, strict=True))

    def flat(self, vector: tuple[int, ...], frame: int = 0) -> int:
        """The flat index of ``vector`` (over the factor's symbols) in a frame: 0 the full layout (from :attr:`lo`),
        1 the stack (from :attr:`stack_lo`)."""
        keep, low = self.frames[frame], (self.lo, self.stack_lo)[frame]
        return sum((v - lo) * self.strides[a] for a, v, lo in zip(self.axes, vector, low, strict=True) if a in keep)

    def kernel(self, kind: Kind, drop: tuple[int, ...] | None = None) -> tuple[Kernel, tuple[int, ...]]:
        """One die of ``kind`` as a flat kernel from its lowest face on each symbol, and that lowest vector
        (``drop``: without that face, the rest renormalised)."""
        kept = [(v, p) for v, p in kind[1] if v != drop]
        low = _bounds(kept)[0]
        total = sum(p for _, p in kept)
        strides = [self.strides[a] for a in kind[0]]
        base = sum(map(operator.mul, low, strides))
        shifts = [(sum(map(operator.mul, v, strides)) - base, p / total) for v, p in kept]
        return as_kernel(shifts), self.lift(kind[0], low)


def recipes(kinds: Sequence[Kind]) -> list[Recipe]:
    """What :func:`sum_factors` adds, prepared once for a pool."""
    return [Recipe(group) for group in _split(kinds)]


def _streamed(pieces: list[tuple[np.ndarray, int, float]], streamed: tuple[Kernel, int, int, int, float]
              ) -> list[tuple[np.ndarray, int, float]]:
    """Each piece (its flat masses, where it starts, its weight) for each count ``k`` of a streamed kind's rare face,
    binomially weighted, the other dice of the kind added one at a time."""
    kernel, step, face, n, q = streamed
    out = []
    for piece, at, weight in pieces:
        for k in range(n, -1, -1):
            out.append((piece, at + k * face, weight * math.comb(n, k) * q ** k * (1 - q) ** (n - k)))
            if k:
                piece, at = convolve(piece, kernel), at + step
    return out


def sum_factors(recipes: Sequence[Recipe]) -> list[Factor]:
    """The exact sum of a pool's dice, as independent factors."""
    factors = []
    for r in recipes:
        full, stack, inner = r.sizes
        acc = np.zeros(inner)
        acc[0] = 1.0
        for kernel, count in r.dense:
            for _ in range(count):
                acc = convolve(acc, kernel)
        if r.streamed:  # each case of the nested kinds laid down in the stack, streamed through the last kind
            pieces = [(acc, r.starts[0], 1.0)]
            for streamed in r.nested:
                pieces = _streamed(pieces, streamed)
            acc = np.zeros(stack)
            for piece, at, weight in pieces:
                place(acc, piece, at, weight)
            total = np.zeros(full)
            for piece, at, weight in _streamed([(acc, r.starts[1], 1.0)], r.streamed[-1]):
                place(total, piece, at, weight)
            acc = total
        lo = tuple(r.lo[r.axes.index(a)] for a in r.order)  # the factor in the layout's order of symbols
        factors.append(Factor(tuple(r.order), [Box(lo, acc.reshape(r.shape))]))
    return factors


def _add_cost(n: float, by: Kernel) -> float:
    """The work of :func:`~.symbol_boxes.convolve` on an array of ``n`` cells."""
    shifts, _, dense = by
    return min(n * len(dense), len(shifts) * (2 * n + 2 * NUMPY_CALL)) + 2 * n + NUMPY_CALL * 2


def _rows(group: Sequence[Kind], rare: Sequence[Rare]) -> float:
    """A bound on the outcomes of a factor: for each count of each streamed kind's rare face, the box its dice span."""
    spans: dict[int, tuple[int, int]] = {}
    for kind in group:
        own, cells, n = kind
        if any(kind is r[0] for r in rare):
            continue
        for a, least, most in zip(own, *_bounds(cells), strict=True):
            was = spans.get(a, (0, 0))
            spans[a] = (was[0] + n * least, was[1] + n * most)
    boxes = [spans]
    for (own, cells, n), face, _, _ in rare:
        lows, highs = _bounds([(v, p) for v, p in cells if v != face])
        # k rare faces, the other dice on the rest of the faces: what each symbol's span grows by
        steps = [[(a, k * f + (n - k) * lo, k * f + (n - k) * hi) for a, f, lo, hi in zip(own, face, lows, highs,
                                                                                          strict=True)]
                 for k in range(n + 1)]
        more = []
        for box in boxes:
            for step in steps:
                grown = dict(box)
                for a, lo, hi in step:
                    was = grown.get(a, (0, 0))
                    grown[a] = (was[0] + lo, was[1] + hi)
                more.append(grown)
        boxes = more
    return float(sum(math.prod(hi - lo + 1 for lo, hi in box.values()) for box in boxes))


def sum_cost(symbols: int, recipes: Sequence[Recipe]) -> Cost:
    """What :func:`sum_factors` and the rows of its factors (:func:`~.symbol_boxes.product_columns`) will cost, from
    the recipes' sizes: each die added to its flat array, each case laid down, the rows (bounded by :func:`_rows`)."""
    work, peak, held, rows = 0.0, 0.0, 0.0, 1.0
    for r in recipes:
        full, stack, inner = r.sizes
        work += sum(_add_cost(inner, kernel) * count for kernel, count in r.dense)
        pieces = 1
        for kernel, _, _, n, _ in r.nested:
            work += pieces * n * _add_cost(inner, kernel) + pieces * (n + 1) * (inner + PYTHON_STEP)
            pieces *= n + 1
        if r.streamed:
            kernel, _, _, n, _ = r.streamed[-1]
            work += n * _add_cost(stack, kernel) + (n + 1) * (2 * stack + NUMPY_CALL) + pieces * 2 * inner
        factor_rows = min(float(full), _rows(r.group, r.rare))
        work += full * (len(r.axes) + 2) + factor_rows * (len(r.axes) + 2)
        peak = max(peak, held + full + 3 * stack + pieces * inner)
        held += full
        rows *= factor_rows
    table = rows * (symbols + 1)
    return Cost(work + table * 6, max(peak, held + table))
