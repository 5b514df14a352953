"""A pool: several dice thrown together, read by the rank of each die (keep, drop, positions), by count, or summed."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_WORK, PYTHON_STEP
from diceengine.pmf import PMF, keep_sum, window_sum, window_sum_cost

from ..i18n import N_
from .die import Die
from .draws import PoolRoll, PoolSample, check_order, sample_size, window_places

if TYPE_CHECKING:  # counts read when a die is counted (cold start: a first roll imports no count)
    from diceengine.rng import Seed

    from .counts import Test

__all__ = ["Pool"]

#: most sorted rolls :meth:`Pool.sorted_outcomes` lists (each is one call of what reads it)
MAX_SORTED_OUTCOMES = 1_000_000


class Pool:
    """Dice thrown together (identical or not). A pool is read by rank, highest first by default: :meth:`highest`,
    :meth:`lowest`, :meth:`window`, :meth:`positions` sum the dice at those ranks; :meth:`count` counts the dice
    showing some outcomes; :meth:`sum` adds every die; :meth:`sorted_outcomes` lists every sorted roll with its
    chance (what reads a pool as a sequence). :meth:`roll` and :meth:`sample` throw it, read by the same keep
    readers (:class:`~.draws.PoolRoll`, :class:`~.draws.PoolSample`)."""

    __slots__ = ("dice", "groups")

    def __init__(self, dice: Sequence[Die]) -> None:
        self.dice = tuple(dice)
        groups: list[tuple[Die, int]] = []
        for die in self.dice:
            for i, (other, n) in enumerate(groups):
                if other is die or other.same(die, 0.0):
                    groups[i] = (other, n + 1)
                    break
            else:
                groups.append((die, 1))
        self.groups = tuple(groups)

    @classmethod
    def of(cls, die: Die, n: int) -> Pool:
        """``n`` independent copies of ``die``."""
        if n < 0:
            raise DiceValueError(N_("a pool has a number of dice, not {n}"), n=n)
        return cls([die] * n)

    def __len__(self) -> int:
        return len(self.dice)

    def __repr__(self) -> str:
        return f"Pool({[f'{n} x {d!r}' for d, n in self.groups]})"

    def sum(self) -> Die:
        """The total of every die."""
        out = Die.constant(0)
        for die, n in self.groups:
            out = out + die.repeat(n)
        return out

    def highest(self, n: int = 1) -> Die:
        """The total of the ``n`` highest dice."""
        return self.window(0, max(0, n), order="highest")

    def lowest(self, n: int = 1) -> Die:
        """The total of the ``n`` lowest dice."""
        return self.window(0, max(0, n), order="lowest")

    def middle(self, n: int) -> Die:
        """The total of the ``n`` middle dice (with an odd number left over, the extra one is the higher)."""
        n = max(0, min(n, len(self)))
        skip = (len(self) - n) // 2
        return self.window(skip, skip + n, order="highest")

    def window(self, lo: int, hi: int, order: str = "highest") -> Die:
        """The total of the dice ranked ``lo`` to ``hi - 1`` (0-based, ``order`` "highest" or "lowest" first)."""
        first, last = window_places(len(self), lo, hi, order)  # the places kept, the dice sorted lowest first
        if last <= first:
            return Die.constant(0)
        if len(self.groups) == 1:  # identical dice: the vectorised keep
            die, n = self.groups[0][0], len(self)
            highest = order == "highest"
            if (last == n) if highest else (first == 0):  # the first ranks in order: a keep
                die.keep_cost(n, last - first).check(N_("this pool's odds"))  # the estimate Die.keep_cost states
                return Die(keep_sum(die.items(), n, last - first, highest=highest), die.truncated * n)
            window_sum_cost(len(die), n, first, last, die.min(), die.max()).check(N_("this pool's odds"))
            return Die(window_sum(die.items(), n, first, last), die.truncated * n)
        weights = [1 if first <= i < last else 0 for i in range(len(self))]  # by place, lowest first
        return self.ranked(weights[::-1] if order == "highest" else weights, order)

    def positions(self, picks: Collection[int], order: str = "highest") -> Die:
        """The total of the dice at these 1-based ranks (a rank named twice counts twice; ranks past the pool
        count nothing), ``order`` "highest" or "lowest" first."""
        weights = [0] * len(self)
        for p in picks:
            if 1 <= p <= len(self):
                weights[p - 1] += 1
        return self.ranked(weights, order)

    def ranked(self, weights: Sequence[int], order: str = "highest") -> Die:
        """The total of each die times the weight of its rank (``weights[0]`` for the first in ``order``)."""
        check_order(order)
        if len(weights) != len(self):
            raise DiceValueError(N_("one weight a die"))
        return _ranked(self.groups, list(weights), order == "highest")

    def count(self, success: Test, failure: Test | None = None, double: Test | None = None) -> Die:
        """How many dice show an outcome ``success`` names (with ``double``: each of those that ``double`` names
        counts two; with ``failure``: less the dice ``failure`` names that are no success), as
        :meth:`Die.count` scores one die."""
        out = Die.constant(0)
        for die, n in self.groups:
            out = out + die.count(success, failure, double).repeat(n)
        return out

    def map(self, fn: Callable[[Die], Die]) -> Pool:
        """The pool of ``fn(die)`` for each die."""
        return Pool([fn(d) for d in self.dice])

    def sorted_outcomes(self, order: str = "highest") -> Iterator[tuple[tuple[int, ...], float]]:
        """Every sorted roll of the pool (``order`` "highest" or "lowest" first) with its chance."""
        total = 1
        for die, n in self.groups:
            total *= math.comb(len(die) + n - 1, n)
        if total > MAX_SORTED_OUTCOMES:
            raise DiceLimitError(N_("this pool has {total:,} sorted rolls to list (at most {max_sorted_outcomes:,})"),
                                 total=total, max_sorted_outcomes=MAX_SORTED_OUTCOMES)
        per_group = [list(_multisets(die, n)) for die, n in self.groups]
        merged: dict[tuple[int, ...], float] = {}
        for combo in product(*per_group):
            faces = tuple(sorted((f for fs, _ in combo for f in fs), reverse=order == "highest"))
            merged[faces] = merged.get(faces, 0.0) + math.prod(p for _, p in combo)
        yield from merged.items()

    def sample(self, n: int, rng: Seed = None) -> PoolSample:
        """``n`` rolls of the pool, every die kept (``rng`` a seed or a ``numpy.random.Generator``, as every random
        entry point of the engine takes): one row a roll, one column a die in throw order, each drawn from its
        die's exact distribution (:meth:`Die.sample`); read by :meth:`PoolSample.highest` and its kin."""
        from diceengine.rng import numpy_rng

        gen, n = numpy_rng(rng), sample_size(n, len(self))
        faces = np.empty((n, len(self)), dtype=np.int64)
        for die, count in self.groups:  # each kind of die in one draw, in the order the kinds first appear
            columns = [i for i, d in enumerate(self.dice) if d is die or d.same(die, 0.0)]
            faces[:, columns] = die.sample(n * count, gen).reshape(n, count)
        return PoolSample(faces, (0, len(self)))

    def roll(self, rng: Seed = None) -> PoolRoll:
        """One roll of the pool, every die kept: the first row of :meth:`sample` of one roll with the same ``rng``;
        read by :meth:`PoolRoll.highest` and its kin (which dice a keep / drop keeps, and their total)."""
        return PoolRoll.of(self.sample(1, rng).faces[0].tolist())


def _multisets(die: Die, n: int) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every multiset of ``n`` throws of ``die`` with its chance (multinomial)."""
    items = die.items()
    for combo in combinations_with_replacement(range(len(items)), n):
        counts: dict[int, int] = {}
        for i in combo:
            counts[i] = counts.get(i, 0) + 1
        ways = math.factorial(n)  # the multinomial coefficient, exact (it outgrows a float past 170 dice)
        for c in counts.values():
            ways //= math.factorial(c)
        chance = math.prod(items[i][1] ** c for i, c in counts.items())
        if chance > 1e-250 and ways < 2**900:
            p = ways * chance
        elif all(items[i][1] > 0 for i in counts):  # in logs: the chance alone would underflow
            p = math.exp(math.log(ways) + sum(c * math.log(items[i][1]) for i, c in counts.items()))
        else:
            p = 0.0
        yield tuple(items[i][0] for i in combo), p


def shares_in_order(die: Die, values: Sequence[int]) -> list[float]:
    """For each outcome in visiting order, the chance that ``die`` shows it given that it shows none visited
    before (1 at its last possible outcome, so that every die is placed): the binomial share of each outcome
    among the dice of a pool not yet placed."""
    tail, row = 1.0, []
    last = max(i for i, v in enumerate(values) if die.probability(v) > 0)
    for i, v in enumerate(values):
        q = die.probability(v)
        row.append(1.0 if i >= last or tail <= 0 else min(1.0, q / tail))
        tail -= q
    return row


def _ranked(groups: Sequence[tuple[Die, int]], weights: list[int], highest: bool) -> Die:
    """The weighted total by rank, the outcomes visited best first: at each outcome, how many dice of each group
    show it (binomially among those left), the ranks they take, and what those ranks add."""
    values = sorted({v for die, _ in groups for v in die.outcomes()}, reverse=highest)
    counts = tuple(n for _, n in groups)
    _ranked_cost(len(values), counts, weights)
    shares = [shares_in_order(die, values) for die, _ in groups]
    prefix = np.concatenate([[0], np.cumsum(weights)])
    state: dict[tuple[int, ...], PMF] = {tuple(0 for _ in counts): PMF.point(0)}
    for index, value in enumerate(values):
        new: dict[tuple[int, ...], PMF] = {}
        for placed, acc in state.items():
            left = [n - k for n, k in zip(counts, placed, strict=True)]
            for taken in product(*[range(r + 1) for r in left]):
                w = 1.0
                for g, (r, c) in enumerate(zip(left, taken, strict=True)):
                    s = shares[g][index]
                    w *= math.comb(r, c) * s ** c * (1 - s) ** (r - c)
                if w == 0.0:
                    continue
                start = sum(placed)
                ranks_weight = int(prefix[start + sum(taken)] - prefix[start])
                key = tuple(k + c for k, c in zip(placed, taken, strict=True))
                part = acc.shift(ranks_weight * value).scale_mass(w)
                prev = new.get(key)
                new[key] = part if prev is None else prev.mix(part)
        state = new
    truncated = sum(die.truncated * n for die, n in groups)
    return Die(state[counts], truncated)


def _ranked_cost(outcomes: int, counts: tuple[int, ...], weights: list[int]) -> None:
    """Refuse a ranked reading past the work budget (the states times the ways to place dice, per outcome)."""
    states = math.prod(n + 1 for n in counts)
    steps = outcomes * states * states
    span = outcomes * max(1, sum(abs(w) for w in weights))
    work = steps * (PYTHON_STEP * (len(counts) + 2) + span)
    if work > MAX_WORK:
        raise DiceLimitError(N_("this pool's odds would take about {times:.3g} times the work budget of exact odds "
                                "(about 1 s): use sample() to estimate them"),
                             times=work / MAX_WORK)
