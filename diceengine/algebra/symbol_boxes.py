"""How a :class:`~diceengine.algebra.Symbols` value holds its masses: dense boxes, and factors over disjoint symbols.

A :class:`Box` holds masses over a box of vectors; a :class:`Factor` is a sum of boxes over some symbols, independent
of every other factor; :func:`product_columns` lists the rows of independent factors together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, Cost

__all__ = ["Box", "Factor", "Kernel", "as_kernel", "convolve", "place", "product_columns"]

#: a kind of die in a pool: the symbols its faces touch, its distinct faces on them with their chances, how many dice
#: a die as a flat kernel: each face's shift of the flat index with its chance, the lowest shift, and the chances
#: from the lowest shift to the highest as one array (zeros between)
Kernel = tuple[list[tuple[int, float]], int, list[float]]


def as_kernel(shifts: list[tuple[int, float]]) -> Kernel:
    """The kernel of these (shift, chance) pairs."""
    low = min(d for d, _ in shifts)
    dense = [0.0] * (max(d for d, _ in shifts) - low + 1)
    for d, p in shifts:
        dense[d - low] += p
    return shifts, low, dense


def place(into: np.ndarray, values: np.ndarray, shift: int, weight: float = 1.0) -> None:
    """Add ``weight * values[i]`` at ``into[i + shift]`` (what falls outside is zero, as a layout ensures)."""
    lo, hi = max(0, shift), min(len(into), shift + len(values))
    if hi > lo:
        into[lo:hi] += values[lo - shift:hi - shift] * weight


def convolve(acc: np.ndarray, by: Kernel) -> np.ndarray:
    """The flat masses ``acc`` with one more independent value added, laid out so that no sum leaves the array:
    one 1-D convolution, or one shifted copy per shift when that does less work (a large array, a sparse kernel)."""
    shifts, low, dense = by
    n = len(acc)
    out = np.zeros(n)
    if n * len(dense) <= len(shifts) * (2 * n + 2 * NUMPY_CALL):
        place(out, np.convolve(acc, dense), low)
    else:
        for d, p in shifts:
            place(out, acc, d, p)
    return out


Kind = tuple[tuple[int, ...], list[tuple[tuple[int, ...], float]], int]


class Box:
    """Masses over a box of vectors: ``grid[i, j, ...]`` is the mass of ``offset + (i, j, ...)``."""

    __slots__ = ("grid", "offset")

    def __init__(self, offset: tuple[int, ...], grid: np.ndarray) -> None:
        self.offset = offset
        self.grid = grid

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
        """The box of the sum of two independent boxes: both laid out flat in the sum's shape (the index of a sum is
        then the sum of the indices), the smaller as a kernel of shifts (:func:`convolve`)."""
        small, big = (self, other) if self.grid.size <= other.grid.size else (other, self)
        shape = tuple(a + b - 1 for a, b in zip(small.grid.shape, big.grid.shape, strict=True))
        size = math.prod(shape)
        Cost(size * min(small.grid.size, 2 * np.count_nonzero(small.grid) + 2), 3 * size).check(N_("this sum"))
        strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
        laid = np.zeros(shape)
        laid[tuple(slice(0, n) for n in big.grid.shape)] = big.grid
        at = np.nonzero(small.grid)
        shifts = zip(sum(idx * stride for idx, stride in zip(at, strides, strict=True)).tolist(),
                     small.grid[at].tolist(), strict=True)
        offset = tuple(a + b for a, b in zip(self.offset, other.offset, strict=True))
        return Box(offset, convolve(laid.ravel(), as_kernel(list(shifts))).reshape(shape))

    def lift(self, axes: Sequence[int], into: Sequence[int]) -> Box:
        """The box over the symbols ``into`` (holding ``axes``, in any order): 0 on the symbols it did not name."""
        mine = [a for a in into if a in axes]
        grid = self.grid.transpose([list(axes).index(a) for a in mine]) if mine != list(axes) else self.grid
        shape = [grid.shape[mine.index(a)] if a in axes else 1 for a in into]
        offset = tuple(self.offset[list(axes).index(a)] if a in axes else 0 for a in into)
        return Box(offset, grid.reshape(shape))


class Factor:
    """Masses over the symbols ``axes`` (indices of the value's names, in the order of the boxes' dimensions), as a
    sum of boxes."""

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
            flat = box.grid.ravel()  # a copy only when the grid is not laid out in order
            at = np.flatnonzero(flat)
            for i, idx in enumerate(np.unravel_index(at, box.grid.shape)):
                idx += box.offset[i]
                cols[i].append(idx)
            probs.append(flat[at])
        if len(self.boxes) == 1:
            return [c[0] for c in cols], probs[0]
        return [np.concatenate(c) for c in cols], np.concatenate(probs)


def product_columns(names: Sequence[str], factors: Sequence[Factor]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The rows of independent factors together (every combination of their rows), one int64 array a symbol."""
    cols: dict[int, np.ndarray] = {}
    probs = np.ones(1)
    for f in factors:
        theirs, p = f.rows()
        rows = len(probs) * len(p)
        Cost(rows * (len(names) + 1) * 6, rows * (len(names) + 1)).check(N_("these odds"))
        if cols or len(probs) > 1:
            cols = {a: np.repeat(c, len(p)) for a, c in cols.items()}
            theirs = [np.tile(c, len(probs)) for c in theirs]
            p = np.outer(probs, p).ravel()
        cols.update(zip(f.axes, theirs, strict=True))
        probs = p
    zeros = np.zeros(len(probs), dtype=np.int64)
    return {name: cols.get(i, zeros) for i, name in enumerate(names)}, probs
