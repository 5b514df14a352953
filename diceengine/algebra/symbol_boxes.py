"""The exact sum of symbol dice (:mod:`.symbols`): masses in dense boxes, factors over disjoint symbols, and what a
sum will cost.

A :class:`Box` holds masses over a box of vectors; a :class:`Factor` is a sum of boxes over some symbols, independent
of every other factor. A pool's sum (:func:`sum_factor`) splits its dice into factors by the symbols they touch, and
adds each factor's dice one at a time. One kind of die whose one face alone carries some symbol (FFG's triumph and
despair, the d20's complication) is not added into the box: with ``k`` of its ``n`` dice on that face, the other
``n - k`` show the rest of its faces, so each ``k`` is its own box (the symbol's count fixed), made one die after the
other; the boxes never grow a dimension for it. :func:`sum_cost` follows the same steps on the boxes' shapes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, PYTHON_STEP, Cost

__all__ = ["Box", "Factor", "Kind", "Recipe", "cells_of", "product_columns", "recipes", "sum_cost", "sum_factor"]

#: a kind of die in a pool: the symbols its faces touch, its distinct faces on them with their chances, how many dice
#: most multiply-adds of a sum of two boxes done as one 1-D convolution (laid out in the sum's shape, the index of a
#: sum is the sum of the indices): below it one numpy call beats a shifted copy per cell
FLAT_WORK = 40_000

Kind = tuple[tuple[int, ...], list[tuple[tuple[int, ...], float]], int]


class Box:
    """Masses over a box of vectors: ``grid[i, j, ...]`` is the mass of ``offset + (i, j, ...)``."""

    __slots__ = ("_cells", "grid", "offset")

    def __init__(self, offset: tuple[int, ...], grid: np.ndarray) -> None:
        self.offset = offset
        self.grid = grid
        self._cells: list[tuple[tuple[int, ...], float]] | None = None

    @classmethod
    def of(cls, masses: Mapping[tuple[int, ...], float]) -> Box:
        """The box spanning these vectors, holding their masses."""
        dims = len(next(iter(masses)))
        lo = tuple(min(v[i] for v in masses) for i in range(dims))
        grid = np.zeros(tuple(max(v[i] for v in masses) - lo[i] + 1 for i in range(dims)))
        for v, p in masses.items():
            grid[tuple(x - o for x, o in zip(v, lo, strict=True))] += p
        return cls(lo, grid)

    def add(self, other: Box) -> Box:
        """The box of the sum of two independent boxes (a convolution)."""
        small, big = (self, other) if self.grid.size <= other.grid.size else (other, self)
        shape = tuple(a + b - 1 for a, b in zip(small.grid.shape, big.grid.shape, strict=True))
        offset = tuple(a + b for a, b in zip(self.offset, other.offset, strict=True))
        size = math.prod(shape)
        reach = sum((n - 1) * math.prod(shape[k + 1:]) for k, n in enumerate(small.grid.shape)) + 1
        if size * reach <= FLAT_WORK:  # small: one 1-D convolution of the boxes laid out in the sum's shape
            flat = [np.zeros(shape) for _ in range(2)]
            for box, into in zip((small, big), flat, strict=True):
                into[tuple(slice(0, n) for n in box.grid.shape)] = box.grid
            return Box(offset, np.convolve(flat[1].ravel(), flat[0].ravel()[:reach])[:size].reshape(shape))
        out = np.zeros(shape)  # one shifted copy of the larger for each nonzero cell of the smaller
        scaled = np.empty_like(big.grid)
        for cell, mass in small.cells():
            np.multiply(big.grid, mass, out=scaled)
            out[tuple(slice(c, c + n) for c, n in zip(cell, big.grid.shape, strict=True))] += scaled
        return Box(offset, out)

    def cells(self) -> list[tuple[tuple[int, ...], float]]:
        """Each nonzero cell, as (its index, its mass); kept (a die is added again and again)."""
        if self._cells is None:
            at = np.nonzero(self.grid)
            self._cells = list(zip(zip(*(a.tolist() for a in at), strict=True), self.grid[at].tolist(), strict=True))
        return self._cells

    def shifted(self, by: tuple[int, ...], weight: float) -> Box:
        """The box moved by ``by``, its masses times ``weight``."""
        return Box(tuple(a + b for a, b in zip(self.offset, by, strict=True)), self.grid * weight)

    def lift(self, axes: tuple[int, ...], into: tuple[int, ...]) -> Box:
        """The box over the symbols ``into`` (sorted, holding ``axes``): 0 on the symbols it did not name."""
        shape = [self.grid.shape[axes.index(a)] if a in axes else 1 for a in into]
        offset = tuple(self.offset[axes.index(a)] if a in axes else 0 for a in into)
        return Box(offset, self.grid.reshape(shape))


class Factor:
    """Masses over the symbols ``axes`` (sorted indices), as a sum of boxes."""

    __slots__ = ("axes", "boxes")

    def __init__(self, axes: tuple[int, ...], boxes: Sequence[Box]) -> None:
        self.axes = axes
        self.boxes = tuple(boxes)

    def lift(self, into: tuple[int, ...]) -> Factor:
        """The factor over more symbols (sorted, holding its own)."""
        return Factor(into, [b.lift(self.axes, into) for b in self.boxes])

    def add(self, other: Factor) -> Factor:
        """The factor of the sum of two independent factors."""
        into = tuple(sorted(set(self.axes) | set(other.axes)))
        mine, theirs = self.lift(into), other.lift(into)
        return Factor(into, [a.add(b) for a in mine.boxes for b in theirs.boxes])

    def probability(self, vector: tuple[int, ...]) -> float:
        """The mass of one vector over :attr:`axes`."""
        total = 0.0
        for box in self.boxes:
            at = tuple(v - o for v, o in zip(vector, box.offset, strict=True))
            if all(0 <= i < n for i, n in zip(at, box.grid.shape, strict=True)):
                total += float(box.grid[at])
        return total

    def marginal(self, k: int) -> tuple[int, np.ndarray]:
        """The masses of the ``k``-th symbol alone: (lowest value, masses from it)."""
        lo = min(b.offset[k] for b in self.boxes)
        hi = max(b.offset[k] + b.grid.shape[k] for b in self.boxes)
        out = np.zeros(hi - lo)
        for b in self.boxes:
            rest = tuple(i for i in range(b.grid.ndim) if i != k)
            out[b.offset[k] - lo:b.offset[k] - lo + b.grid.shape[k]] += b.grid.sum(axis=rest)
        return lo, out

    def rows(self) -> tuple[list[np.ndarray], np.ndarray]:
        """Every vector with a mass: one array a symbol of :attr:`axes`, and the masses."""
        cols: list[list[np.ndarray]] = [[] for _ in self.axes]
        probs = []
        for box in self.boxes:
            at = np.nonzero(box.grid)
            for i, idx in enumerate(at):
                cols[i].append(idx + box.offset[i])
            probs.append(box.grid[at])
        return [np.concatenate(c) for c in cols], np.concatenate(probs)


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


def _rare(group: Sequence[Kind]) -> list[tuple[Kind, tuple[int, ...], float]]:
    """The kinds streamed (see the module's docstring), each with its rare face over its own symbols and that face's
    chance: those whose one face alone counts a symbol no other kind of the group counts."""
    out = []
    for index, (own, cells, n) in enumerate(group):
        others = {a for j, k in enumerate(group) if j != index for a in k[0]}
        for j, axis in enumerate(own):
            carriers = [(v, p) for v, p in cells if v[j]]
            if axis not in others and len(carriers) == 1 and carriers[0][1] < 1:
                out.append((group[index], carriers[0][0], carriers[0][1]))
                break
    return out


def _box(kind: Kind, axes: tuple[int, ...], drop: tuple[int, ...] | None = None) -> Box:
    """One die of ``kind`` as a box over ``axes`` (``drop``: without that face, the rest renormalised)."""
    own, cells, _ = kind
    kept = {v: p for v, p in cells if v != drop}
    total = sum(kept.values())
    return Box.of({v: p / total for v, p in kept.items()}).lift(own, axes)


#: a factor's plan: its symbols, the kinds added into its box (in order), and the kinds streamed, each with its rare
#: face (over the kind's own symbols) and that face's chance
Plan = tuple[tuple[int, ...], list[Kind], list[tuple[Kind, tuple[int, ...], float]]]


def _plans(kinds: Sequence[Kind]) -> list[Plan]:
    """How :func:`sum_factor` adds each factor's dice (and :func:`sum_cost` follows)."""
    plans: list[Plan] = []
    for group in _split(kinds):
        axes = tuple(sorted({a for k in group for a in k[0]}))
        rare = _rare(group)
        streamed = [r[0] for r in rare]
        dense = sorted((k for k in group if not any(k is r for r in streamed)), key=lambda k: len(k[0]))
        plans.append((axes, dense, rare))
    return plans


#: a factor's dice as boxes over its symbols: the symbols, each kind added into the box (its die, how many), and each
#: kind streamed (the rest of its die, its rare face over the factor's symbols, how many, the rare face's chance)
Recipe = tuple[tuple[int, ...], list[tuple[Box, int]], list[tuple[Box, tuple[int, ...], int, float]]]


def recipes(kinds: Sequence[Kind]) -> list[Recipe]:
    """What :func:`sum_factor` adds, made once for a pool."""
    out: list[Recipe] = []
    for axes, dense, rare in _plans(kinds):
        streamed = [(_box(kind, axes, face), tuple(face[kind[0].index(a)] if a in kind[0] else 0 for a in axes),
                     kind[2], q) for kind, face, q in rare]
        out.append((axes, [(_box(kind, axes), kind[2]) for kind in dense], streamed))
    return out


def sum_factor(recipes: Sequence[Recipe]) -> list[Factor]:
    """The exact sum of a pool's dice, as independent factors."""
    factors = []
    for axes, dense, rare in recipes:
        acc = Box(tuple(0 for _ in axes), np.ones((1,) * len(axes)))
        for one, count in dense:
            for _ in range(count):
                acc = acc.add(one)
        pieces = [(acc, tuple(0 for _ in axes), 1.0)]
        for rest, shift, n, q in rare:
            streamed = []
            for box, at, weight in pieces:
                for k in range(n, -1, -1):  # k dice show the rare face: the other n - k added one at a time
                    moved = tuple(x + k * y for x, y in zip(at, shift, strict=True))
                    streamed.append((box, moved, weight * math.comb(n, k) * q ** k * (1 - q) ** (n - k)))
                    if k:
                        box = box.add(rest)
            pieces = streamed
        factors.append(Factor(axes, [box.shifted(at, weight) for box, at, weight in pieces]))
    return factors


def product_columns(names: Sequence[str], factors: Sequence[Factor]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The rows of independent factors together (every combination of their rows), one int64 array a symbol."""
    cols: dict[int, np.ndarray] = {}
    probs = np.ones(1)
    for f in factors:
        theirs, p = f.rows()
        cols = {a: np.repeat(c, len(p)) for a, c in cols.items()}
        cols.update({a: np.tile(c.astype(np.int64), len(probs)) for a, c in zip(f.axes, theirs, strict=True)})
        probs = np.outer(probs, p).ravel()
    zeros = np.zeros(len(probs), dtype=np.int64)
    return {name: cols.get(i, zeros) for i, name in enumerate(names)}, probs


def _grow(span: list[list[int]], axes: tuple[int, ...], kind: Kind, drop: tuple[int, ...] | None) -> tuple[float, int]:
    """One die of ``kind`` added to a box spanning ``span`` (grown in place): (the work, the new box's cells)."""
    own, cells, _ = kind
    kept = [v for v, _ in cells if v != drop]
    for j, a in enumerate(own):
        span[axes.index(a)][0] += min(v[j] for v in kept)
        span[axes.index(a)][1] += max(v[j] for v in kept)
    size = math.prod(hi - lo + 1 for lo, hi in span)
    return len(kept) * (2 * size + 2 * NUMPY_CALL) + PYTHON_STEP * len(axes), size


def _factor_cost(axes: tuple[int, ...], dense: list[Kind], rare: Sequence[tuple[Kind, tuple[int, ...], float]]
                 ) -> tuple[float, float, float]:
    """(work, peak cells, cells of the boxes kept) of one factor's sum, its steps followed on the boxes' spans."""
    span = [[0, 0] for _ in axes]
    work = peak = 0.0
    for kind in dense:
        for _ in range(kind[2]):
            w, size = _grow(span, axes, kind, None)
            work, peak = work + w, max(peak, 3.0 * size)
    pieces = [span]
    for kind, face, _ in rare:
        streamed = []
        for piece in pieces:
            grown = [list(x) for x in piece]
            for _ in range(kind[2]):
                streamed.append([list(x) for x in grown])
                w, size = _grow(grown, axes, kind, face)
                work, peak = work + w, max(peak, 3.0 * size)
            streamed.append(grown)
        pieces = streamed
    kept = float(sum(math.prod(hi - lo + 1 for lo, hi in piece) for piece in pieces))
    return work + kept * 2 + NUMPY_CALL * len(pieces), peak, kept


def sum_cost(symbols: int, kinds: Sequence[Kind]) -> Cost:
    """What :func:`sum_factor` and :func:`product_columns` will cost, following their steps on the boxes' shapes:
    each die added is one shifted copy of the box per distinct face; the rows are bounded by the boxes' cells."""
    work, peak, held, rows = 0.0, 0.0, 0.0, 1.0
    for axes, dense, rare in _plans(kinds):
        w, p, kept = _factor_cost(axes, dense, rare)
        work, peak, held, rows = work + w + kept * (len(axes) + 4), max(peak, held + p), held + kept, rows * kept
    table = rows * (symbols + 1)
    return Cost(work + table * 6, max(peak, held + table))
