"""Dice whose faces are vectors of symbol counts (FFG's narrative dice, a d20 pool's successes and complications),
as values: a :class:`SymbolDie`, a :class:`SymbolPool` of them thrown together, and :class:`Symbols`, the exact joint
distribution of named integer counts that a pool's sum is.

A face is a vector with one whole number a symbol (``names``); a pool's outcome is the sum of its dice's vectors.
What a ruleset reads from symbols is a map: cancellation (FFG's successes less failures) is a map of each face, and
because it is linear the pool of mapped dice sums to the map of the pool's sum (:meth:`SymbolDie.map`); any other
reading of the outcome is :meth:`Symbols.map`, or one symbol's :meth:`Symbols.marginal` (an integer
:class:`~diceengine.algebra.Die`). A pool has the three interpretations of the algebra: :meth:`SymbolPool.roll` (each
die's face recorded), :meth:`SymbolPool.sample` (numpy) and :meth:`SymbolPool.sum` (exact, within the work budget).
"""

from __future__ import annotations

import math
from _thread import RLock
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, TypeAlias

from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import PYTHON_STEP, Cost
from diceengine.records import dataclass

from .symbol_boxes import Box, Factor, product_columns
from .symbol_sums import Kind, Recipe, cells_of, recipes, sum_cost, sum_factors

#: most pool shapes whose exact sum's set-up (:func:`_setup`) is kept
SHAPES_KEPT = 512
#: most small pools' exact sums kept (:func:`_small_sum`), and the largest kept (cells of its cost: 32 KiB)
SUMS_KEPT, SMALL_SUM = 256, 4096
#: most cells of kernels (floats) the set-ups kept hold in all (a few MiB)
SETUP_CELLS = 1 << 17

if TYPE_CHECKING:
    from .die import Die

__all__ = ["SymbolDie", "SymbolPool", "Symbols", "Vector"]

#: one outcome: a whole number for each symbol of the value's ``names``
Vector: TypeAlias = tuple[int, ...]


def _vector(names: Sequence[str], face: Sequence[int] | Mapping[str, int]) -> Vector:
    """A face as a vector over ``names``: a sequence in their order, or counts by name (a name left out is 0)."""
    if isinstance(face, Mapping):
        unknown = set(face) - set(names)
        if unknown:
            raise DiceValueError(N_("unknown symbol {name} (known: {names})"), name=min(unknown), names=list(names))
        return tuple(int(face.get(n, 0)) for n in names)
    if len(face) != len(names):
        raise DiceValueError(N_("a face has one count for each of the {n} symbols"), n=len(names))
    return tuple(int(v) for v in face)


class Symbols:
    """The exact joint distribution of whole counts of named symbols (immutable).

    Held as independent factors over disjoint symbols (the Force dice's light and dark side points never meet the
    other dice's successes), each a sum of dense boxes of masses; a symbol no factor names is always 0. Every
    operation returns a new value: ``+`` (two independent values summed), :meth:`repeat`, :meth:`map`,
    :meth:`marginal`; :meth:`columns` and :meth:`items` list every outcome with its chance.
    """

    __slots__ = ("factors", "names")

    def __init__(self, names: Sequence[str], factors: Sequence[Factor] = ()) -> None:
        self.names = tuple(names)
        self.factors = tuple(factors)

    @classmethod
    def from_weights(cls, names: Sequence[str], weights: Mapping[Vector, float]) -> Symbols:
        """Outcomes with these relative weights (non-negative, not all zero)."""
        names = tuple(names)
        if any(w < 0 for w in weights.values()):
            raise DiceValueError(N_("a weight cannot be negative"))
        total = float(sum(weights.values()))
        if total <= 0:
            raise DiceValueError(N_("a die needs at least one face"))
        table = {_vector(names, v): float(w) / total for v, w in weights.items() if w > 0}
        axes = tuple(i for i in range(len(names)) if any(v[i] for v in table))
        if not axes:
            return cls(names)
        return cls(names, [Factor(axes, (Box.of({tuple(v[i] for i in axes): p for v, p in table.items()}),))])

    @classmethod
    def of(cls, names: Sequence[str], faces: Iterable[Sequence[int] | Mapping[str, int]]) -> Symbols:
        """A fair die with these faces (a face listed twice is twice as likely)."""
        weights: dict[Vector, float] = {}
        for face in faces:
            v = _vector(tuple(names), face)
            weights[v] = weights.get(v, 0.0) + 1.0
        return cls.from_weights(names, weights)

    # ------------------------------------------------------------ reading
    def columns(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Every outcome with a chance: one int64 array a symbol (one row an outcome) and the chances."""
        return product_columns(self.names, self.factors)

    def items(self) -> list[tuple[Vector, float]]:
        """``(outcome, probability)`` for each possible outcome, in no set order."""
        cols, probs = self.columns()
        rows = zip(*(cols[n].tolist() for n in self.names), strict=True) if self.names else iter([()] * len(probs))
        return [(tuple(row), p) for row, p in zip(rows, probs.tolist(), strict=True)]

    def probability(self, outcome: Sequence[int] | Mapping[str, int]) -> float:
        """The chance of exactly ``outcome``."""
        want = _vector(self.names, outcome)
        named = {i for f in self.factors for i in f.axes}
        if any(want[i] for i in range(len(want)) if i not in named):
            return 0.0
        return math.prod(f.probability(tuple(want[i] for i in f.axes)) for f in self.factors)

    def marginal(self, name: str) -> Die:
        """The distribution of one symbol's count, as an integer die."""
        from diceengine.pmf import PMF  # on first use: a ruleset's pool loads neither

        from .die import Die

        if name not in self.names:
            raise DiceValueError(N_("unknown symbol {name} (known: {names})"), name=name, names=list(self.names))
        axis = self.names.index(name)
        for f in self.factors:
            if axis in f.axes:
                offset, masses = f.marginal(f.axes.index(axis))
                return Die(PMF(offset, masses))
        return Die.constant(0)

    def mean(self, name: str) -> float:
        """The expected count of one symbol."""
        return self.marginal(name).mean()

    def same(self, other: Symbols, tolerance: float = 1e-12) -> bool:
        """Whether the two values give the same outcomes the same chances (within ``tolerance``)."""
        if self.names != other.names:
            return False
        mine, theirs = dict(self.items()), dict(other.items())
        return all(abs(mine.get(k, 0.0) - theirs.get(k, 0.0)) <= tolerance for k in mine.keys() | theirs.keys())

    def __repr__(self) -> str:
        shown = ", ".join(f"{v}: {p:.6g}" for v, p in sorted(self.items())[:8])
        return f"Symbols({self.names}, {{{shown}}})"

    # ------------------------------------------------------------ new values
    def __add__(self, other: Symbols) -> Symbols:
        """The sum of two independent values over the same symbols."""
        if self.names != other.names:
            raise DiceValueError(N_("values over different symbols cannot be added"))
        factors = list(self.factors)
        for theirs in other.factors:
            touching = [f for f in factors if set(f.axes) & set(theirs.axes)]
            merged = theirs
            for f in touching:
                merged = merged.add(f)
                factors.remove(f)
            factors.append(merged)
        return Symbols(self.names, factors)

    def repeat(self, n: int) -> Symbols:
        """The sum of ``n`` independent copies (``n`` >= 0)."""
        if n < 0:
            raise DiceValueError(N_("a pool has a number of dice, not {n}"), n=n)
        out = Symbols(self.names)
        for _ in range(n):
            out = out + self
        return out

    def map(self, fn: Callable[[Vector], Sequence[int]], names: Sequence[str] | None = None) -> Symbols:
        """The value of ``fn(outcome)``, a vector over ``names`` (by default the same symbols)."""
        names = self.names if names is None else tuple(names)
        rows = math.prod(sum(b.grid.size for b in f.boxes) for f in self.factors)
        Cost(rows * PYTHON_STEP * (len(self.names) + 4), rows * (len(self.names) + 1)).check(N_("this map"))
        weights: dict[Vector, float] = {}
        for v, p in self.items():
            w = _vector(names, fn(v))
            weights[w] = weights.get(w, 0.0) + p
        return Symbols.from_weights(names, weights)


@dataclass(frozen=True, eq=False)
class SymbolDie:
    """A fair die whose faces are vectors of symbol counts over ``names`` (``faces[i]`` the i-th face, a face listed
    twice twice as likely); ``name`` is what the die is called, ``labels[i]`` what a roll records for the i-th face
    (by default its index). A face is drawn as every die of the engine is: ``faces[int(r() * len(faces))]``.

    A die is a value its ruleset makes once and every pool of it shares: the plan cache counts a plan holding one
    these few bytes, without walking its faces (``__footprint_shared__``, :func:`diceengine.plan_cache.footprint`)."""

    __footprint_shared__ = 256

    names: tuple[str, ...]
    faces: tuple[Vector, ...]
    name: str = ""
    labels: tuple[Any, ...] = ()

    @classmethod
    def of(cls, names: Sequence[str], faces: Iterable[Sequence[int] | Mapping[str, int]], name: str = "",
           labels: Iterable[Any] | None = None) -> SymbolDie:
        """A die with these faces: each a sequence of counts in the order of ``names``, or counts by name."""
        names = tuple(names)
        vectors = tuple(_vector(names, f) for f in faces)
        if not vectors:
            raise DiceValueError(N_("a die needs at least one face"))
        shown = tuple(range(len(vectors))) if labels is None else tuple(labels)
        if len(shown) != len(vectors):
            raise DiceValueError(N_("a die has one label a face"))
        return cls(names, vectors, name, shown)

    def map(self, fn: Callable[[Vector], Sequence[int]], names: Sequence[str] | None = None) -> SymbolDie:
        """The die of ``fn(face)`` for each face (over ``names``, by default the same). A linear ``fn`` (a
        cancellation) commutes with the sum: a pool of mapped dice sums to the map of the pool's sum."""
        names = self.names if names is None else tuple(names)
        return SymbolDie(names, tuple(_vector(names, fn(f)) for f in self.faces), self.name, self.labels)

    @cached_property
    def value(self) -> Symbols:
        """One throw, as an exact value."""
        return Symbols.of(self.names, self.faces)

    @cached_property
    def cells(self) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], float]]]:
        """The symbols some face counts, and each distinct face on those symbols with its chance."""
        return cells_of(self.faces)

    @cached_property
    def vectors(self) -> np.ndarray:
        """``(sides, symbols)`` int64: the vector of each face."""
        return np.array(self.faces, dtype=np.int64).reshape(len(self.faces), len(self.names))

    def face(self, r: Callable[[], float]) -> int:
        """The index of one face, from a uniform draw in [0, 1)."""
        return int(r() * len(self.faces))


class SymbolPool:
    """Symbol dice over the same symbols thrown together; their outcome is the sum of their faces' vectors.

    The three interpretations: :meth:`roll` (the sum and the face of each die), :meth:`sample` (``n`` sums with
    numpy) and :meth:`sum` (the exact joint distribution, refused past the work budget: :meth:`sum_cost`).

    A pool holds its shape only (:attr:`shape`: each run of the same die, in order; one tuple for every pool of the
    shape): what its exact sum, its roll and its sample need is made once per shape, in bounded caches shared by every
    pool of the shape. So a ruleset's plan holding a pool holds one small object more, for the plan cache to walk and
    the collector to traverse."""

    __slots__ = ("_roll", "names", "shape")
    _roll: Callable[[Callable[[], float]], tuple[Vector, list[Any]]]

    def __init__(self, dice: Sequence[SymbolDie]) -> None:
        if not dice:
            raise DiceValueError(N_("the pool has no dice"))
        names = dice[0].names
        groups: list[tuple[SymbolDie, int]] = []
        for die in dice:  # runs of the same die: drawn together in a sample
            if die.names != names:
                raise DiceValueError(N_("the dice of a pool count the same symbols"))
            if groups and groups[-1][0] is die:
                groups[-1] = (die, groups[-1][1] + 1)
            else:
                groups.append((die, 1))
        self.names = names
        #: each run of the same die, in order: what the exact sum, the roll and the sample depend on
        self.shape = _canonical(tuple(groups))

    @property
    def dice(self) -> tuple[SymbolDie, ...]:
        """The dice, in the order they are thrown."""
        return tuple(die for die, n in self.shape for _ in range(n))

    @property
    def groups(self) -> tuple[tuple[SymbolDie, int], ...]:
        """Each run of the same die with its length (the :attr:`shape`)."""
        return self.shape

    def __len__(self) -> int:
        return sum(n for _, n in self.shape)

    # ------------------------------------------------------------ exact
    def sum_cost(self) -> Cost:
        """What :meth:`sum` and its :meth:`Symbols.columns` will cost, from the dice alone."""
        return _setup(self.shape, len(self.names))[1]

    def sum(self) -> Symbols:
        """The exact joint distribution of the pool's sum (refused past the work budget)."""
        made, cost = _setup(self.shape, len(self.names))
        cost.check(N_("this pool's odds"))
        if cost.cells <= SMALL_SUM:
            return _small_sum(self.shape, self.names)
        return Symbols(self.names, sum_factors(made))

    # ------------------------------------------------------------ one roll
    @property
    def roller(self) -> Callable[[Callable[[], float]], tuple[Vector, list[Any]]]:
        """:meth:`roll` as a plain function with what it reads bound, made once per pool shape (a ruleset's hot path
        calls it)."""
        try:
            return self._roll
        except AttributeError:  # the pool's first roll
            found = self._roll = _roller(self.shape)
            return found

    def roll(self, r: Callable[[], float]) -> tuple[Vector, list[Any]]:
        """One throw: the sum of the faces, and what each die shows (its face's label; in the pool's order)."""
        return self.roller(r)

    # ------------------------------------------------------------ bulk
    def sample(self, n: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
        """``n`` sums, one int64 array a symbol; each run of the same die is drawn as one ``(n, k)`` block of face
        indices, in the pool's order."""
        bits, fields, tables = _packing(self.shape)
        if bits <= 62:  # every symbol in one int64: one sum for all
            packed = np.zeros(n, dtype=np.int64)
            for die, k in self.groups:
                idx = gen.integers(0, len(die.faces), size=(n, k))
                table = np.array(tables[id(die)], dtype=np.int64)
                packed += table[idx].sum(axis=1) if k > 1 else table[idx[:, 0]]
            return {name: ((packed >> s) & m) + low for name, (s, m, low) in zip(self.names, fields, strict=True)}
        total = np.zeros((n, len(self.names)), dtype=np.int64)
        for die, k in self.groups:
            total += die.vectors[gen.integers(0, len(die.faces), size=(n, k))].sum(axis=1)
        return {name: total[:, i] for i, name in enumerate(self.names)}


@lru_cache(maxsize=SHAPES_KEPT)
def _canonical(shape: tuple[tuple[SymbolDie, int], ...]) -> tuple[tuple[SymbolDie, int], ...]:
    """One tuple for every equal shape (a pool made for each plan holds no tuples of its own)."""
    return shape


class _Kept:
    """The most recently made set-ups (:func:`_setup`), at most :data:`SHAPES_KEPT` and :data:`SETUP_CELLS` cells of
    kernels in all; one larger than that (a pool refused by the budget, often) is made each time, never kept."""

    def __init__(self) -> None:
        self.found: dict[Any, tuple[tuple[list[Recipe], Cost], int]] = {}
        self.cells = 0
        self.lock = RLock()

    def get(self, shape: tuple[tuple[SymbolDie, int], ...], symbols: int) -> tuple[list[Recipe], Cost]:
        key = (shape, symbols)
        with self.lock:
            found = self.found.pop(key, None)
            if found is not None:
                self.found[key] = found  # now the most recent
                return found[0]
        made = _made(shape, symbols)
        cells = sum(len(kernel[2]) for r in made[0] for kernel, _ in r.dense) + sum(
            len(s[0][2]) for r in made[0] for s in r.streamed)
        if cells <= SETUP_CELLS:
            with self.lock:
                if self.found.pop(key, None) is None:
                    self.cells += cells
                self.found[key] = (made, cells)
                while len(self.found) > SHAPES_KEPT or self.cells > SETUP_CELLS:
                    self.cells -= self.found.pop(next(iter(self.found)))[1]
        return made


def _made(shape: tuple[tuple[SymbolDie, int], ...], symbols: int) -> tuple[list[Recipe], Cost]:
    """A pool shape's exact sum prepared (its kinds of dice, the same faces merged, as :func:`recipes`) and its cost."""
    kinds: dict[tuple[Vector, ...], list[Any]] = {}
    for die, n in shape:
        known = kinds.setdefault(die.faces, [die, 0])
        known[1] += n
    made: list[Kind] = [(*d.cells, n) for d, n in kinds.values()]
    found = recipes(made)
    return found, sum_cost(symbols, found)


#: a pool shape's exact sum prepared and its cost, made once for every pool of the shape (:class:`_Kept`)
_setup = _Kept().get


@lru_cache(maxsize=SUMS_KEPT)
def _small_sum(shape: tuple[tuple[SymbolDie, int], ...], names: tuple[str, ...]) -> Symbols:
    """A small pool shape's exact sum, made once (a value: its masses read-only; each reading of its rows is new)."""
    factors = sum_factors(_setup(shape, len(names))[0])
    for f in factors:
        for box in f.boxes:
            box.grid.flags.writeable = False
    return Symbols(names, factors)


@lru_cache(maxsize=SHAPES_KEPT)
def _packing(shape: tuple[tuple[SymbolDie, int], ...]) -> tuple[int, list[tuple[int, int, int]], dict[int, list[int]]]:
    """Each symbol a field of bits in one integer, wide enough for the pool's span of it, so that the sum of the
    packed faces is the packed sum: (the bits in all, each symbol's (shift, mask, lowest sum), each die's packed
    faces by ``id``)."""
    fields, shift = [], 0
    for i in range(len(shape[0][0].names)):
        low = sum(n * min(f[i] for f in d.faces) for d, n in shape)
        width = max(1, (sum(n * max(f[i] for f in d.faces) for d, n in shape) - low).bit_length())
        fields.append((shift, (1 << width) - 1, low))
        shift += width
    tables = {}
    for d, _ in shape:
        lows = [min(f[i] for f in d.faces) for i in range(len(fields))]
        tables[id(d)] = [sum((v - lo) << s for v, lo, (s, _, _) in zip(face, lows, fields, strict=True))
                         for face in d.faces]
    return shift, fields, tables


@lru_cache(maxsize=SHAPES_KEPT)
def _roller(shape: tuple[tuple[SymbolDie, int], ...]) -> Callable[[Callable[[], float]], tuple[Vector, list[Any]]]:
    """One throw of a pool of this shape as a plain function (:meth:`SymbolPool.roll`)."""
    _, fields, tables = _packing(shape)
    dice = [(len(d.faces), list(zip(tables[id(d)], d.labels or range(len(d.faces)), strict=True)))
            for d, n in shape for _ in range(n)]

    def roll(r: Callable[[], float]) -> tuple[Vector, list[Any]]:
        total = 0
        record = []
        for n, faces in dice:
            packed, label = faces[int(r() * n)]
            total += packed
            record.append(label)
        return tuple([((total >> s) & m) + lo for s, m, lo in fields]), record

    return roll
