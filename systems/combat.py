"""What every ruleset's combat shares: sampling totals from exact distributions, rerolling tied
initiative, picking targets, holding the per-fight arrays of a battle, the status of a fight, and
memoised exact chains. The D6 combatant (dice codes in encounter files) is in
:mod:`diceengine.systems.d6.fighters`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from diceengine.fights.rules import A_WINS, B_WINS, BOTH_DOWN, GOING, Battle
from diceengine.limits import MAX_REROLLS

__all__ = [
    "MAX_SIDE",
    "NO_ROLL",
    "ArrayBattle",
    "TotalSampler",
    "first_enemy",
    "memo",
    "pairs_status",
    "reroll_ties",
    "status_of",
]

#: the total of a roll that cannot be made (a code reduced to 0D): below every difficulty
NO_ROLL = -(10**6)
#: most combatants a side
MAX_SIDE = 20


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


def first_enemy(able: np.ndarray, side: np.ndarray, actor_side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(has a target, target)``: the first combatant still standing on the other side (the policy:
    every attacker fires at the first enemy still standing, in the order of the file)."""
    enemy = able & (side[None, :] != actor_side[:, None])
    return enemy.any(axis=1), enemy.argmax(axis=1)


def pairs_status(a_up: np.ndarray, b_up: np.ndarray) -> np.ndarray:
    """The status of each fight from whether each side still has someone standing."""
    out = np.full(len(a_up), GOING, dtype=np.int8)
    out[a_up & ~b_up] = A_WINS
    out[b_up & ~a_up] = B_WINS
    out[~a_up & ~b_up] = BOTH_DOWN
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

    def __init__(self, side: np.ndarray, n: int) -> None:
        self.side = side
        self.n = n

    @property
    def size(self) -> int:
        return self.n

    def keep(self, mask: np.ndarray) -> None:
        idx = np.flatnonzero(mask)
        for name in self.arrays:
            setattr(self, name, np.take(getattr(self, name), idx, axis=0))
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


def mix(outcomes: Mapping[Hashable, float], into: dict[Hashable, float], weight: float = 1.0,
        key: Callable[[Any], Hashable] = lambda s: s) -> None:
    """Add ``weight`` times the distribution ``outcomes`` to ``into``."""
    for state, p in outcomes.items():
        if p > 0:
            k = key(state)
            into[k] = into.get(k, 0.0) + weight * p
