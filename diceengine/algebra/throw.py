"""One die thrown under its operations, with the three interpretations of each: a roll that records every face
thrown, a numpy sample, and the exact die. An explosion is written here once for the three."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cached_property

from diceengine.errors import DiceValueError
from diceengine.lazy import np
from diceengine.pmf import PMF
from diceengine.records import dataclass

from ..i18n import N_
from .chains import chains, chains_total, roll_steps, sample_steps
from .die import Die, _membership

__all__ = ["Throw"]


@dataclass(frozen=True, eq=False)
class Throw:
    """A fair die with these ``faces`` (a range, or the faces listed: a face listed twice is twice as likely) thrown,
    and thrown again and added while it shows a face of ``explode_on`` (at most ``depth`` more throws; None: until
    it stops, truncated in the exact die below :data:`~diceengine.limits.TRUNCATION` and refused past
    :data:`~diceengine.limits.MAX_EXPLOSIONS` throws in a roll or a sample). ``penetrate``: each added throw counts
    one less (the test reads the face thrown).

    The three interpretations: :meth:`roll` (the faces thrown, for the text), :meth:`sample` (totals and added
    throws of ``n`` throws), :meth:`exact` (the die of the total) and :meth:`chains` (its parts by added throws).
    A roll needs no numpy: a face is ``faces[int(r() * len(faces))]``, as every die of the engine is drawn.
    """

    faces: Sequence[int]
    explode_on: frozenset[int] = frozenset()
    depth: int | None = None
    penetrate: bool = False

    @classmethod
    def of(cls, faces: Sequence[int]) -> Throw:
        """A fair die with these faces, thrown once."""
        if not len(faces):
            raise DiceValueError(N_("a die needs at least one face"))
        return cls(faces if isinstance(faces, range) else tuple(sorted(faces)))

    def explode(self, on: Collection[int] | Callable[[int], bool] | None = None, depth: int | None = None,
                penetrate: bool = False) -> Throw:
        """This throw exploding on ``on`` (None: the highest face)."""
        hit = _membership([max(self.faces)] if on is None else on)
        return Throw(self.faces, frozenset(v for v in set(self.faces) if hit(v)), depth, penetrate)

    @cached_property
    def die(self) -> Die:
        """One throw's face, as a die."""
        return Die.of(self.faces)

    # ------------------------------------------------------------ one roll
    def face(self, r: Callable[[], float]) -> int:
        """One face from a uniform draw in [0, 1)."""
        return self.faces[int(r() * len(self.faces))]

    @cached_property
    def roller(self) -> Callable[[Callable[[], float]], list[int]]:
        """:meth:`roll` as a plain function with what it reads bound (the hot path of every exploding die: a
        ruleset binds it once)."""
        faces, n, on, depth = self.faces, len(self.faces), self.explode_on, self.depth

        def roll(r: Callable[[], float]) -> list[int]:
            first = faces[int(r() * n)]
            if first not in on:
                return [first]
            return [first, *roll_steps(first, lambda: faces[int(r() * n)], on.__contains__, depth)]

        return roll

    def roll(self, r: Callable[[], float]) -> list[int]:
        """The faces thrown, in order (the first, then each added throw as thrown)."""
        return self.roller(r)

    def total(self, chain: list[int]) -> int:
        """What the faces of one roll add up to."""
        return sum(chain) - (len(chain) - 1 if self.penetrate else 0)

    # ------------------------------------------------------------ bulk
    def faces_of(self, n: int | tuple[int, ...], gen: np.random.Generator) -> np.ndarray:
        """``n`` faces, or an array of faces of the shape ``n`` (the same draws as the engine's dice: ``integers(lo,
        hi)`` for a range, an index otherwise)."""
        if isinstance(self.faces, range) and self.faces.step == 1:
            return gen.integers(self.faces.start, self.faces.stop, size=n)
        return np.asarray(self.faces)[gen.integers(0, len(self.faces), size=n)]

    def sample(self, n: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(first faces, totals, added throws)`` of ``n`` independent throws."""
        first = self.faces_of(n, gen)
        total = first.copy()
        added = np.zeros(n, dtype=np.int64)
        on = np.fromiter(self.explode_on, dtype=np.int64)
        for idx, new in sample_steps(first, lambda k: self.faces_of(k, gen), lambda v: np.isin(v, on), self.depth):
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

    @cached_property
    def by_added(self) -> tuple[tuple[tuple[int, float, Die], ...], float]:
        """``((k, chance, die), ...), left out``: for each number ``k`` of added throws that can happen, its chance and
        the die of the total given it (:meth:`chains` as dice), and the chance the truncation left out (made once)."""
        parts, left = [], 0.0
        for k, masses in self.chains():
            if k < 0:
                left = masses.mass
            elif masses.mass > 0:
                parts.append((k, masses.mass, Die(masses)))
        return tuple(parts), left

    @cached_property
    def thrower(self) -> Callable[[Callable[[], float], int], list[int]]:
        """``(r, n) -> faces``: ``n`` faces of single throws, drawn as :meth:`face` draws each (the hot path of a run
        of dice that never explode: a ruleset binds it once)."""
        faces, n_faces = tuple(self.faces), len(self.faces)  # a tuple: indexed faster than a range

        def throw(r: Callable[[], float], n: int) -> list[int]:
            return [faces[int(r() * n_faces)] for _ in range(n)]

        return throw
