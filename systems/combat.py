"""What every ruleset's combat shares: sampling totals from exact distributions, rerolling tied
initiative, picking targets, holding the per-fight arrays of a battle, the status of a fight, and
memoised exact chains. The D6 combatant (dice codes in encounter files) is in
:mod:`diceengine.systems.d6.fighters`."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, ConfigDict

from diceengine.fights.rules import A_WINS, B_WINS, BOTH_DOWN, GOING, Battle, Duel, FightRules
from diceengine.limits import MAX_REROLLS

__all__ = [
    "MAX_SIDE",
    "MAX_TABLE",
    "NO_ROLL",
    "ArrayBattle",
    "Combat",
    "Encounter",
    "OutcomeSampler",
    "RowDraws",
    "TableSampler",
    "TotalSampler",
    "exact_weights",
    "first_enemy",
    "memo",
    "mix",
    "pairs_status",
    "reroll_ties",
    "status_of",
]


class Combat(FightRules):
    """A ruleset's combat made of its encounter model (``setup_model``), its exact chain (``duel_of(setup)``) and
    its simulation (``battle_of(setup, n, gen)``)."""

    duel_of: ClassVar[type]  # a Duel taking the setup
    battle_of: ClassVar[type]  # a Battle taking the setup, n and gen

    def duel(self, setup: Any) -> Duel:
        return self.duel_of(setup)

    def battle(self, setup: Any, n: int, gen: np.random.Generator) -> Battle:
        return self.battle_of(setup, n, gen)


class Encounter(BaseModel):
    """The base of a ruleset's encounter: no unknown setting, and two sides ``a`` and ``b`` (each ruleset declares
    them with its combatant)."""

    model_config = ConfigDict(extra="forbid")
    a: list[Any]
    b: list[Any]

    def fighters(self) -> list[Any]:
        """Every combatant, side ``a`` first."""
        return [*self.a, *self.b]

assert (GOING, A_WINS, B_WINS, BOTH_DOWN) == (0, 1, 2, 3)  # pairs_status adds the sides' bits

#: the total of a roll that cannot be made (a code reduced to 0D): below every difficulty
NO_ROLL = -(10**6)
#: most combatants a side
MAX_SIDE = 20
#: the largest common denominator a :class:`TableSampler` writes out (entries a row of its table)
MAX_TABLE = 1 << 20
#: the most entries a :class:`TableSampler`'s table holds, all rows together
MAX_TABLE_ENTRIES = 1 << 21


def reroll_ties(first: np.ndarray, second: np.ndarray, draw: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                limit: int = MAX_REROLLS) -> None:
    """Throw again, in place, the rows where ``first`` and ``second`` tie, until none does (tied initiative
    rolled again). ``draw(rows)`` gives the two new rolls of those rows.

    Two rolls that cannot be made (:data:`NO_ROLL`, codes reduced to 0D) always tie and are never thrown
    again: the caller's order breaks that tie (a coin, as the exact chain gives 1/2). Every loop that waits
    on dice has a bound: a row still tied after ``limit`` throws (a tie all but sure) is left to the caller
    the same way."""
    tied = (first == second) & (first > NO_ROLL)
    for _ in range(limit):
        if not tied.any():
            return
        rows = tied.nonzero()[0]
        a, b = draw(rows)
        first[rows] = a
        second[rows] = b
        tied[rows] = (a == b) & (a > NO_ROLL)


class TotalSampler:
    """Draws totals from several exact distributions at once, one uniform number per draw: ``rows[i]``
    says which distribution draw ``i`` comes from (a distribution ``None`` always gives :data:`NO_ROLL`).

    Inverse transform with a guide table: the bucket of the uniform number gives the first candidate,
    a few vectorised steps finish the search (exact: the same draw as a binary search of the CDF)."""

    def __init__(self, pmfs: Sequence[tuple[np.ndarray, np.ndarray] | None]) -> None:
        width = max([len(p[0]) for p in pmfs if p is not None] + [1]) + 1
        count = len(pmfs)
        cdf = np.ones((count, width))
        values = np.full((count, width), NO_ROLL, dtype=np.int64)
        for r, pmf in enumerate(pmfs):
            if pmf is None:
                continue
            v, p = pmf
            c = np.cumsum(p)
            cdf[r, :len(v)] = c / c[-1]
            values[r, :len(v)] = v
            values[r, len(v):] = v[-1]
        buckets = 1 << max(6, int(np.ceil(np.log2(64 * width))))
        edges = np.arange(buckets + 1) / buckets
        guide = np.stack([np.searchsorted(cdf[r], edges[:-1], side="right") for r in range(count)])
        upper = np.stack([np.searchsorted(cdf[r], edges[1:], side="left") for r in range(count)])
        spread = upper - guide  # the most steps a draw falling in each bucket needs
        self.steps = int(spread.max()) if count else 0
        self.buckets = buckets
        self.guide = (guide + (np.arange(count) * width)[:, None]).astype(np.int64).ravel()
        self.far = (spread > 1).ravel()  # buckets of the tails, where several values share a bucket
        self.cdf = cdf.ravel()
        self.values = values.ravel()

    def __call__(self, rows: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        u = gen.random(len(rows))
        bucket = (u * self.buckets).astype(np.int64)
        bucket += rows * self.buckets
        at = np.take(self.guide, bucket)
        if self.steps <= 2:
            for _ in range(self.steps):
                at += np.take(self.cdf, at) <= u
            return np.take(self.values, at)
        at += np.take(self.cdf, at) <= u  # one step finishes every draw but those of the tails' buckets
        far = np.flatnonzero(np.take(self.far, bucket))
        if len(far):
            a, uf = at[far], u[far]
            for _ in range(self.steps - 1):  # a finished draw stays put: the same draw as stepping them all
                a += np.take(self.cdf, a) <= uf
            at[far] = a
        return np.take(self.values, at)


def exact_weights(probs: np.ndarray, most: int = MAX_TABLE) -> tuple[np.ndarray, int] | None:
    """``(integer weights, their sum D)`` when every probability of ``probs`` (normalised first) is a
    multiple of ``1/D`` for some ``D <= most`` (the totals of ``k`` six-sided dice: ``D = 6**k``), the
    floats read as those fractions to within 1e-13; ``None`` otherwise."""
    p = np.asarray(probs, dtype=np.float64)
    total = float(p.sum())
    if not total > 0 or not np.isfinite(total):
        return None
    p = p / total
    smallest = float(p[p > 0].min())
    if smallest * most < 1 - 1e-9:  # a chance k / D is at least 1 / D: D would pass ``most``
        return None
    fractions: dict[float, Fraction] = {}
    size = 1
    for x in set(p.tolist()):
        f = fractions[x] = Fraction(x).limit_denominator(most)
        size = math.lcm(size, f.denominator)
        if size > most:
            return None
    weights = [fractions[x].numerator * (size // fractions[x].denominator) for x in p.tolist()]
    if sum(weights) != size or any(w < 0 for w in weights):
        return None
    if np.abs(np.array(weights, dtype=np.float64) / size - p).max() > 1e-13:
        return None
    return np.array(weights, dtype=np.int64), size


class TableSampler:
    """Exact draws from several distributions whose probabilities are multiples of ``1/size``: each row
    of the table writes every total as many times as its weight (``size`` entries a row), so a uniform
    integer below ``size`` looked up in the row is a draw of exactly that distribution (a row ``None``
    always gives :data:`NO_ROLL`). One integer and one look-up a draw; no float, no search."""

    def __init__(self, rows: Sequence[tuple[np.ndarray, np.ndarray] | None], size: int) -> None:
        self.size = size
        table = np.full((max(len(rows), 1), size), NO_ROLL, dtype=np.int32)
        for r, row in enumerate(rows):
            if row is not None:
                values, weights = row
                table[r] = np.repeat(values.astype(np.int32), weights * (size // int(weights.sum())))
        self.table = table.ravel()

    @classmethod
    def build(cls, pmfs: Sequence[tuple[np.ndarray, np.ndarray] | None]) -> TableSampler | None:
        """The table of these distributions, or ``None`` when one is not a multiple of a small enough
        denominator (see :func:`exact_weights`) or the table would be too large."""
        rows: list[tuple[np.ndarray, np.ndarray] | None] = []
        size = 1
        for pmf in pmfs:
            if pmf is None:
                rows.append(None)
                continue
            exact = exact_weights(pmf[1])
            if exact is None:
                return None
            rows.append((np.asarray(pmf[0]), exact[0]))
            size = math.lcm(size, exact[1])
            if size > MAX_TABLE or size * len(pmfs) > MAX_TABLE_ENTRIES:
                return None
        return cls(rows, size)

    def __call__(self, rows: np.ndarray | int, n: int, gen: np.random.Generator) -> np.ndarray:
        """``n`` totals (``int32``), draw ``i`` from row ``rows[i]`` (or every one from row ``rows``)."""
        at = gen.integers(0, self.size, n)
        if isinstance(rows, np.ndarray):
            if rows.any():  # (the first round of a fight: every draw from the first row)
                at += np.multiply(rows, self.size, dtype=np.int64)
        elif rows:
            at += rows * self.size
        return np.take(self.table, at)


class RowDraws:
    """Totals drawn by row from several exact distributions: a :class:`TableSampler` when they allow
    one (exact, the faster), else a :class:`TotalSampler` (exact to the rounding of a float CDF)."""

    def __init__(self, pmfs: Sequence[tuple[np.ndarray, np.ndarray] | None]) -> None:
        self.table = TableSampler.build(pmfs)
        self.floats = TotalSampler(pmfs) if self.table is None else None

    def __call__(self, rows: np.ndarray | int, n: int, gen: np.random.Generator) -> np.ndarray:
        """``n`` totals, draw ``i`` from row ``rows[i]`` (or every one from row ``rows``)."""
        if self.table is not None:
            return self.table(rows, n, gen)
        assert self.floats is not None
        at = rows.astype(np.int64) if isinstance(rows, np.ndarray) else np.full(n, rows, dtype=np.int64)
        return self.floats(at, gen)


class OutcomeSampler:
    """Draws one of a few outcomes ``first, first + 1, ...`` with the chances of a row of ``weights``:
    a uniform number against the row's cumulative weights (integers below ``2**62``: exact; otherwise
    floats, exact to their rounding). ``weights[r][k]`` is the weight of outcome ``first + k`` in row ``r``."""

    def __init__(self, weights: Sequence[Sequence[int | float]], first: int = 0) -> None:
        self.first = first
        exact = all(isinstance(w, (int, np.integer)) for row in weights for w in row)
        if exact:
            size = 1
            for row in weights:
                size = math.lcm(size, int(sum(int(w) for w in row)))
            exact = size < (1 << 62)
        if exact:
            scaled = [[int(w) * (size // int(sum(int(x) for x in row))) for w in row] for row in weights]
            self.size: int | None = size
            self.dtype: type = np.int32 if size < (1 << 31) else np.int64
            cum = np.cumsum(np.array(scaled, dtype=np.int64), axis=1)
        else:
            self.size = None
            self.dtype = np.float64
            w = np.array(weights, dtype=np.float64)
            cum = np.cumsum(w, axis=1) / w.sum(axis=1, keepdims=True)
        # draw u passes threshold k when u >= cum[:, k]: the outcome is first + the thresholds passed
        self.thresholds = [np.ascontiguousarray(cum[:, k]).astype(self.dtype) for k in range(cum.shape[1] - 1)]

    def __call__(self, rows: np.ndarray | int, n: int, gen: np.random.Generator) -> np.ndarray:
        """``n`` outcomes (``int8``), draw ``i`` with the chances of row ``rows[i]`` (or of row ``rows``)."""
        u = gen.integers(0, self.size, n, dtype=self.dtype) if self.size is not None else gen.random(n)
        out = np.full(n, self.first, dtype=np.int8)
        for edge in self.thresholds:
            out += u >= (np.take(edge, rows) if isinstance(rows, np.ndarray) else edge[rows])
        return out


def first_enemy(able: np.ndarray, side: np.ndarray, actor_side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(has a target, target)``: the first combatant still standing on the other side (the policy:
    every attacker fires at the first enemy still standing, in the order of the file)."""
    enemy = able & (side[None, :] != actor_side[:, None])
    return enemy.any(axis=1), enemy.argmax(axis=1)


def pairs_status(a_up: np.ndarray, b_up: np.ndarray) -> np.ndarray:
    """The status of each fight from whether each side still has someone standing."""
    # the statuses are numbered so that a side down adds its bit: b down 1 (a wins), a down 2, both 3
    out = np.logical_not(b_up).view(np.int8)
    out += np.logical_not(a_up).view(np.int8) * np.int8(2)
    return out


def status_of(a_out: bool, b_out: bool) -> int:
    """The status of a duel state from whether each combatant is out of the fight."""
    if a_out and b_out:
        return BOTH_DOWN
    if b_out:
        return A_WINS
    if a_out:
        return B_WINS
    return GOING


class ArrayBattle(Battle):
    """A battle whose state is a few ``(fights, combatants)`` arrays named in ``arrays``; subclasses
    write :meth:`step` and :meth:`out` (who is out of the fight)."""

    arrays: tuple[str, ...] = ()
    #: the axis of those arrays that runs over the fights
    fights_axis = 0

    def __init__(self, side: np.ndarray, n: int) -> None:
        self.side = side
        self.n = n

    @property
    def size(self) -> int:
        return self.n

    def keep(self, mask: np.ndarray) -> None:
        idx = np.flatnonzero(mask)
        for name in self.arrays:
            setattr(self, name, np.take(getattr(self, name), idx, axis=self.fights_axis))
        self.n = len(idx)

    def out(self) -> np.ndarray:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def status(self) -> np.ndarray:
        up = ~self.out()
        a = self.side == 0
        return pairs_status(np.asarray(up[:, a].any(axis=1)), np.asarray(up[:, ~a].any(axis=1)))


def memo(method: Callable[..., Any]) -> Callable[..., Any]:
    """Cache a method's results on its instance (by positional arguments): the cache goes with the object."""
    name = f"_memo_{method.__name__}"

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any) -> Any:
        cache = self.__dict__.setdefault(name, {})
        try:
            return cache[args]
        except KeyError:
            value = cache[args] = method(self, *args)
            return value

    return wrapper


def mix(outcomes: Iterable[tuple[Any, float]], into: dict[Hashable, float], weight: float = 1.0,
        key: Callable[[Any], Hashable] = lambda s: s) -> dict[Hashable, float]:
    """Add ``weight`` times the chances of ``outcomes`` (pairs ``(state, chance)``, a state may come again) to
    ``into``, each state under ``key(state)``; returns ``into``."""
    for state, p in outcomes:
        k = key(state)
        into[k] = into.get(k, 0.0) + weight * p
    return into
