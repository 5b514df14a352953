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

from diceengine.errors import DiceError, DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_SAMPLE
from diceengine.records import NamedTuple

from ..i18n import N_

__all__ = ["ORDERS", "PoolRoll", "PoolSample", "sample_size", "window_places"]

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
    check_order(order)
    lo, hi = max(0, lo), min(n, hi)
    if hi <= lo:
        return 0, 0
    return (n - hi, n - lo) if order == "highest" else (lo, hi)


def sample_size(n: int, dice: int = 1) -> int:
    """``n`` if it is a number of rolls a sample of ``dice`` dice a roll takes, or the engine's error."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise DiceError(N_("the number of rolls must be a non-negative integer, not {n}"), n=repr(n))
    most = MAX_SAMPLE // max(1, dice)
    if n > most:
        raise DiceLimitError(N_("too many rolls in one sample: {n} (at most {max_sample})"), n=n, max_sample=most)
    return n


class PoolRoll(NamedTuple):
    """One roll of a pool: each die's face in throw order, and the dice kept (at places ``places`` of the faces
    sorted lowest first, :func:`window_places`; every die unless a reader chose). A reader ranks every die of the
    roll and returns the roll with the dice it keeps; :attr:`kept` marks them, :attr:`total` adds them."""

    faces: tuple[int, ...]
    places: tuple[int, int]

    @classmethod
    def of(cls, faces: Iterable[int]) -> PoolRoll:
        """The roll of these faces (in throw order), every die kept."""
        faces = tuple(faces)
        return cls(faces, (0, len(faces)))

    def window(self, lo: int, hi: int, order: str = "highest") -> PoolRoll:
        """The dice ranked ``lo`` to ``hi - 1`` kept (``order`` "highest" or "lowest" first), as
        :meth:`Pool.window <diceengine.algebra.Pool.window>` reads the pool exactly."""
        return PoolRoll(self.faces, window_places(len(self.faces), lo, hi, order))

    def highest(self, n: int = 1) -> PoolRoll:
        """The ``n`` highest dice kept."""
        return self.window(0, n, "highest")

    def lowest(self, n: int = 1) -> PoolRoll:
        """The ``n`` lowest dice kept."""
        return self.window(0, n, "lowest")

    @property
    def kept(self) -> tuple[bool, ...]:
        """For each die in throw order, whether it is kept."""
        first, last = self.places
        faces = self.faces
        marks = [False] * len(faces)
        for i in sorted(range(len(faces)), key=faces.__getitem__)[first:last]:
            marks[i] = True
        return tuple(marks)

    @property
    def total(self) -> int:
        """The sum of the dice kept."""
        first, last = self.places
        if last - first == len(self.faces):
            return sum(self.faces)
        return sum(sorted(self.faces)[first:last])


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
        faces, (first, last) = self.faces, self.places
        dice = faces.shape[1]
        out: NDArray[np.int64]
        if last <= first:
            out = np.zeros(len(faces), dtype=np.int64)
        elif last - first == dice:
            out = faces.sum(axis=1)
        elif last - first == dice - 1:  # one die dropped, at an end: no sort
            out = faces.sum(axis=1) - (faces.max(axis=1) if first == 0 else faces.min(axis=1))
        else:
            out = np.sort(faces, axis=1)[:, first:last].sum(axis=1)
        return out
