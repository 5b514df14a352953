"""The vocabulary of a dice term: a die's faces (:class:`Faces`, :class:`Listed`, :func:`split_faces`), the ranks
keep / drop choose (:func:`window_of`), and the flags of one throw in a general record."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from diceengine.lazy import np

from ..nodes import Compare, Keep

# flags of one throw in a general record
REROLLED, EXPLODED, ADDED, DROPPED = 1, 2, 4, 8


class Faces(Sequence[int]):
    """Faces of a die held as at most two ranges (a range, or a range without one face): never listed."""

    __slots__ = ("_cut", "parts")

    def __init__(self, *parts: range) -> None:
        self.parts = tuple(p for p in parts if len(p))
        self._cut = len(self.parts[0]) if self.parts else 0

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    def __getitem__(self, i: Any) -> Any:
        if i < 0:
            i += len(self)
        return self.parts[0][i] if i < self._cut else self.parts[1][i - self._cut]

    def __iter__(self) -> Iterator[int]:
        for p in self.parts:
            yield from p

    def take(self, idx: np.ndarray) -> np.ndarray:
        """The faces at indices ``idx`` (vectorised)."""
        first = self.parts[0]
        out = idx + first.start
        if len(self.parts) > 1:
            out = np.where(idx < self._cut, out, idx - self._cut + self.parts[1].start)
        return out


class Listed(tuple):
    """Faces listed one by one (a clamped die, ``dF.1``): the same interface as :class:`Faces`."""

    def take(self, idx: np.ndarray) -> np.ndarray:
        return np.asarray(self, dtype=np.int64)[idx]


class AnyPoint:
    """Several compare points read as one: a face meets it when it meets any of them (Roll20's ``2d8r8r1``
    re-rolls 8s and 1s)."""

    __slots__ = ("points",)
    op = "any"

    def __init__(self, points: Sequence[Compare]) -> None:
        self.points = tuple(points)

    def test(self, x: Any) -> Any:
        """Whether ``x`` (an int or a numpy array) meets one of the points."""
        out = self.points[0].test(x)
        for p in self.points[1:]:
            out = out | p.test(x)
        return out

    def __str__(self) -> str:
        return "".join(str(p) for p in self.points)


def split_faces(faces: Any, point: Compare | AnyPoint) -> tuple[Any, Any]:
    """``(faces meeting point, faces missing it)``, without listing the faces of a range (but for several
    points: :class:`AnyPoint` lists them)."""
    if not isinstance(faces, range) or isinstance(point, AnyPoint):
        return (Listed(f for f in faces if point.test(f)), Listed(f for f in faces if not point.test(f)))
    assert isinstance(point, Compare)
    lo, end, v, op = faces.start, faces.stop, point.value, point.op
    if op in ("=", "=="):
        return Faces(range(max(v, lo), min(v + 1, end))), Faces(range(lo, min(max(v, lo), end)),
                                                              range(max(v + 1, lo), end))
    if op in ("!=", "<>"):
        miss, meet = split_faces(faces, Compare.of("=", v))
        return meet, miss
    if op in (">", "<="):
        v += 1  # x > v  <=>  x >= v + 1 ; x <= v  <=>  x < v + 1
    cut = min(max(v, lo), end)
    high, low = range(cut, end), range(lo, cut)
    return (Faces(high), Faces(low)) if op in (">=", ">") else (Faces(low), Faces(high))


def window_of(keeps: Sequence[Keep], count: int) -> tuple[int, int] | None:
    """The ranks kept (lowest first), or None without any keep / drop. Each keep / drop chooses among all
    the dice and a die counts only if none drops it (rpg-dice-roller): ``4d10dh1dl2`` keeps one die."""
    if not keeps:
        return None
    lo, hi = 0, count
    for k in keeps:
        n = max(0, min(k.n, count))
        if k.kind == "kh":
            lo = max(lo, count - n)
        elif k.kind == "kl":
            hi = min(hi, n)
        elif k.kind == "dh":
            hi = min(hi, count - n)
        else:  # dl
            lo = max(lo, n)
    return (lo, max(lo, hi))
