"""A pool's draws: the faces of one roll (:class:`PoolRoll`) or of a sample (:class:`PoolSample`), each read by the
same keep / drop readers as the exact :class:`~diceengine.algebra.Pool`, and the one rule of which dice a window of
ranks keeps (:func:`window_places`), for the exact odds, the roll and the sample.

Ranks and ties: the dice are sorted lowest first, equal faces in throw order (the earlier die first), as the
standard notation's keep marks them; "highest" first reads that order from its end. So of two equal faces the later
die ranks higher: ``4d6kh3`` on 3, 3, 5, 6 drops the first 3, and removing the highest of 5, 5, 1 removes the second
5. Which of two equal dice is kept never changes a total, so the exact odds hold under this rule or any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from diceengine.errors import DiceValueError
from diceengine.lazy import np
from diceengine.records import NamedTuple
from diceengine.rng import sample_size

from ..i18n import N_

__all__ = ["ORDERS", "PoolRoll", "PoolSample", "sample_size", "window_places", "window_sums"]

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: the orders a pool is ranked in
ORDERS = ("highest", "lowest")
BAD_ORDER = N_("a pool is sorted 'highest' or 'lowest' first, not {order}")


def check_order(order: str) -> None:
    """The engine's error unless ``order`` is one of :data:`ORDERS`."""
    if order not in ORDERS:
        raise DiceValueError(BAD_ORDER, order=repr(order))


def window_places(n: int, lo: int, hi: int, order: str = "highest") -> tuple[int, int]:
    """``(first, last)``: the dice ranked ``lo`` to ``hi - 1`` (0-based, ``order`` "highest" or "lowest" first) among
    ``n`` are those at places ``first`` to ``last - 1`` once sorted lowest first (ranks past the pool keep
    nothing; an empty window is ``(0, 0)``)."""
    lo, hi = (lo if lo > 0 else 0), (hi if hi < n else n)  # noqa: FURB136 (a roll's hot path: max / min are calls)
    if order == "highest":
        return (n - hi, n - lo) if lo < hi else (0, 0)
    if order != "lowest":
        raise DiceValueError(BAD_ORDER, order=repr(order))
    return (lo, hi) if lo < hi else (0, 0)


#: a named tuple made from its fields' tuple, as its own ``__new__`` makes it (a roll's hot path: one call fewer)
_new = tuple.__new__


class PoolRoll(NamedTuple):
    """One roll of a pool: each die's face in throw order, which dice are kept (every die, unless a reader chose)
    and their total. A reader ranks every die of the roll and returns the roll with the dice it keeps."""

    faces: tuple[int, ...]
    kept: tuple[bool, ...]
    """for each die in throw order, whether it is kept"""
    total: int
    """the sum of the dice kept"""

    @classmethod
    def of(cls, faces: Iterable[int]) -> PoolRoll:
        """The roll of these faces (in throw order), every die kept."""
        faces = tuple(faces)
        return _new(cls, (faces, (True,) * len(faces), sum(faces)))

    def window(self, lo: int, hi: int, order: str = "highest") -> PoolRoll:
        """The dice ranked ``lo`` to ``hi - 1`` kept (``order`` "highest" or "lowest" first), as
        :meth:`Pool.window <diceengine.algebra.Pool.window>` reads the pool exactly."""
        return _kept(self.faces, window_places(len(self.faces), lo, hi, order))

    def highest(self, n: int = 1) -> PoolRoll:
        """The ``n`` highest dice kept."""
        return _kept(self.faces, window_places(len(self.faces), 0, n, "highest"))

    def lowest(self, n: int = 1) -> PoolRoll:
        """The ``n`` lowest dice kept."""
        return _kept(self.faces, window_places(len(self.faces), 0, n, "lowest"))


def _kept(faces: tuple[int, ...], places: tuple[int, int]) -> PoolRoll:
    """The roll of ``faces`` keeping the dice at ``places`` once sorted lowest first (equal faces in throw order)."""
    first, last = places
    n = len(faces)
    if last - first == n - 1 and n > 1:  # one die dropped, at an end (the highest: the last of equal faces)
        if first:
            low = min(faces)
            dropped, total = faces.index(low), sum(faces) - low
        else:
            top = max(faces)
            dropped, total = n - 1 - faces[::-1].index(top), sum(faces) - top
        marks = [True] * n
        marks[dropped] = False
        return _new(PoolRoll, (faces, tuple(marks), total))
    chosen = sorted(range(n), key=faces.__getitem__)[first:last]
    marks = [False] * n
    for i in chosen:
        marks[i] = True
    return _new(PoolRoll, (faces, tuple(marks), sum([faces[i] for i in chosen])))


class PoolSample(NamedTuple):
    """Many rolls of a pool: ``faces`` an array of one row a roll and one column a die (throw order), and the dice
    kept in each row (at places ``places`` of the row sorted lowest first). The readers of :class:`PoolRoll`,
    vectorised: a row reads as the :class:`PoolRoll` of its faces."""

    faces: NDArray[np.int64]
    places: tuple[int, int]

    @classmethod
    def of(cls, faces: NDArray[np.int64]) -> PoolSample:
        """The rolls of these faces (an array of one row a roll), every die kept."""
        faces = np.asarray(faces, dtype=np.int64)
        if faces.ndim != 2:
            raise DiceValueError(N_("a sample of a pool has one row a roll and one column a die"))
        return cls(faces, (0, faces.shape[1]))

    def window(self, lo: int, hi: int, order: str = "highest") -> PoolSample:
        """In each roll, the dice ranked ``lo`` to ``hi - 1`` kept (``order`` "highest" or "lowest" first)."""
        return PoolSample(self.faces, window_places(self.faces.shape[1], lo, hi, order))

    def highest(self, n: int = 1) -> PoolSample:
        """In each roll, the ``n`` highest dice kept."""
        return self.window(0, n, "highest")

    def lowest(self, n: int = 1) -> PoolSample:
        """In each roll, the ``n`` lowest dice kept."""
        return self.window(0, n, "lowest")

    @property
    def kept(self) -> NDArray[np.bool_]:
        """An array of the faces' shape: whether each die of each roll is kept."""
        first, last = self.places
        marks = np.zeros(self.faces.shape, dtype=bool)
        order = np.argsort(self.faces, axis=1, kind="stable")
        np.put_along_axis(marks, order[:, first:last], True, axis=1)
        return marks

    @property
    def total(self) -> NDArray[np.int64]:
        """The sum of the dice kept, one a roll."""
        return window_sums(self.faces, self.places)


def window_sums(faces: NDArray[np.int64], places: tuple[int, int], scratch: bool = False) -> NDArray[np.int64]:
    """For each row of ``faces`` (one a roll, one column a die), the sum of the dice at ``places`` once the row is
    sorted lowest first (:attr:`PoolSample.total`); ``scratch``: the rows may be sorted in place (a sample's own
    draws, which no one reads after: no copy)."""
    first, last = places
    dice = faces.shape[1]
    out: NDArray[np.int64]
    if last <= first:
        out = np.zeros(len(faces), dtype=np.int64)
    elif last - first == dice:
        out = faces.sum(axis=1)
    elif last - first == dice - 1:  # one die dropped, at an end: no sort
        out = faces.sum(axis=1) - (faces.max(axis=1) if first == 0 else faces.min(axis=1))
    else:
        ordered = faces if scratch else faces.copy()
        ordered.sort(axis=1)
        out = ordered[:, first:last].sum(axis=1)
    return out
