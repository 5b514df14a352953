"""One die thrown under its operations, with the three interpretations of each: a roll that records every face
thrown, a numpy sample, and the exact die. An explosion is written here once for the three."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

from diceengine.lazy import np
from diceengine.pmf import PMF

from .chains import chains, chains_total, roll_steps, sample_steps
from .die import Die, _membership

__all__ = ["Throw"]


@dataclass(frozen=True, eq=False)
class Throw:
    """A die thrown, and thrown again and added while it shows an outcome of ``explode_on`` (at most ``depth``
    more throws; None: until it stops, truncated in the exact die below
    :data:`~diceengine.limits.TRUNCATION` and refused past :data:`~diceengine.limits.MAX_EXPLOSIONS` throws in a
    roll or a sample). ``penetrate``: each added throw counts one less (the test reads the face thrown).

    The three interpretations: :meth:`roll` (the faces thrown, for the text), :meth:`sample` (totals and added
    throws of ``n`` throws), :meth:`exact` (the die of the total) and :meth:`chains` (its parts by added throws).
    """

    die: Die
    explode_on: frozenset[int] = frozenset()
    depth: int | None = None
    penetrate: bool = False

    @classmethod
    def of(cls, die: Die) -> Throw:
        """The die thrown once."""
        return cls(die)

    def explode(self, on: Collection[int] | Callable[[int], bool] | None = None, depth: int | None = None,
                penetrate: bool = False) -> Throw:
        """This throw exploding on ``on`` (None: the highest face)."""
        hit = _membership([self.die.max()] if on is None else on)
        faces = frozenset(v for v in self.die.outcomes() if hit(v))
        return Throw(self.die, faces, depth, penetrate)

    @cached_property
    def _table(self) -> tuple[int, list[float] | None]:
        return _draw_table(self.die)

    # ------------------------------------------------------------ one roll
    def face(self, r: Callable[[], float]) -> int:
        """One face of the die from a uniform draw in [0, 1) (a fair numbered die: ``lo + int(r() * sides)``)."""
        lo, table = self._table
        if table is None:
            return lo + int(r() * len(self.die.pmf.p))
        return self.die.outcomes()[bisect_right(table, r())]

    def roll(self, r: Callable[[], float]) -> list[int]:
        """The faces thrown, in order (the first, then each added throw as thrown)."""
        chain = [self.face(r)]
        if chain[0] in self.explode_on:
            chain += roll_steps(chain[0], lambda: self.face(r), self.explode_on.__contains__, self.depth)
        return chain

    def total(self, chain: list[int]) -> int:
        """What the faces of one roll add up to."""
        return sum(chain) - (len(chain) - 1 if self.penetrate else 0)

    # ------------------------------------------------------------ bulk
    def faces(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """``n`` faces of the die."""
        lo, table = self._table
        if table is None:
            return gen.integers(lo, lo + len(self.die.pmf.p), size=n)
        return np.asarray(self.die.outcomes())[np.searchsorted(table, gen.random(n), side="right")]

    def sample(self, n: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(first faces, totals, added throws)`` of ``n`` independent throws."""
        first = self.faces(n, gen)
        total = first.copy()
        added = np.zeros(n, dtype=np.int64)
        on = np.fromiter(self.explode_on, dtype=np.int64)
        for idx, new in sample_steps(first, lambda k: self.faces(k, gen), lambda v: np.isin(v, on), self.depth):
            total[idx] += new - int(self.penetrate)
            added[idx] += 1
        return first, total, added

    # ------------------------------------------------------------ exact
    def chains(self) -> Iterator[tuple[int, PMF]]:
        """``(k, masses)``: the totals of the throws that added exactly ``k`` throws, weighted by their chance; the
        last item's ``k`` is -1 with what the truncation left out (:func:`~.chains.chains`)."""
        return chains(self.die.pmf, self.explode_on, self.depth, self.penetrate)

    def exact(self) -> Die:
        """The die of one throw's total."""
        return Die(*chains_total(self.die.pmf, self.explode_on, self.depth, self.penetrate))


def _draw_table(die: Die) -> tuple[int, list[float] | None]:
    """``(lowest face, None)`` for a fair numbered die; otherwise ``(lowest face, cumulative chances)``."""
    p = die.pmf.p
    if bool(np.all(p == p[0])):
        return die.pmf.offset, None
    items = die.items()
    return items[0][0], list(accumulate(q for _, q in items))[:-1]
