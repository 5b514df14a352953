"""A pool: several dice thrown together, read by the rank of each die (keep, drop, positions), by count, or summed."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import accumulate, combinations_with_replacement, product
from typing import TYPE_CHECKING, Any

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_WORK, PYTHON_STEP, Cost
from diceengine.pmf import PMF, WORK, keep_sum, window_sum, window_sum_cost
from diceengine.pmf_keep import shares

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
                if _alike(other, die):
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
            columns = [i for i, d in enumerate(self.dice) if _alike(die, d)]
            faces[:, columns] = die.sample(n * count, gen).reshape(n, count)
        return PoolSample(faces, (0, len(self)))

    def roll(self, rng: Seed = None) -> PoolRoll:
        """One roll of the pool, every die kept: the first row of :meth:`sample` of one roll with the same ``rng``;
        read by :meth:`PoolRoll.highest` and its kin (which dice a keep / drop keeps, and their total)."""
        return PoolRoll.of(self.sample(1, rng).faces[0].tolist())


def _alike(a: Die, b: Die) -> bool:
    """Two dice of one group of a pool: the same die, or two of exactly the same outcomes and chances."""
    return a is b or a.same(b, 0.0)


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
    return shares([die.probability(v) for v in values], 1.0)


def _ranked(groups: Sequence[tuple[Die, int]], weights: list[int], highest: bool) -> Die:
    """The weighted total by rank (:meth:`Pool.ranked`): :func:`kept_total`, checked against the work budget."""
    Cost(placing_work(groups, weights) * PYTHON_STEP).check(N_("this pool's odds"))
    return kept_total(groups, weights, highest)


# ---- the one placing of ranked dice (Pool.ranked, window, positions; the standard notation's pooled keep): the
# outcomes visited in order (highest or lowest first); at each outcome, group after group, how many of a group's
# dice not yet placed show it (binomially), the ranks they take (the next ones), what those ranks add to the sums.

def kept_total(groups: Sequence[tuple[Die, int]], weights: Sequence[int], highest: bool = True,
               scale: Sequence[int] | None = None) -> Die:
    """The total of each die times the weight of its rank (``weights[0]`` for the first in order: ``highest`` or
    lowest first) and times the weight of its group (``scale``, default 1 each: a signed sum of groups). Within
    one outcome the groups take the ranks in the order given. ``groups`` are kept apart as given (two equal dice
    may be two groups)."""
    totals: dict[int, float] = _place(groups, weights, highest, _Sums(len(groups), scale or [1] * len(groups)))
    return Die(PMF.from_mapping(totals), sum(die.truncated * n for die, n in groups))


def kept_sums(groups: Sequence[tuple[Die, int]], weights: Sequence[int],
              highest: bool = True) -> dict[tuple[int, ...], float]:
    """The joint chances of the groups' sums, each die times the weight of its rank (as :func:`kept_total`): one
    tuple of sums, one entry a group, in the order given."""
    out: dict[tuple[int, ...], float] = _place(groups, weights, highest, _Sums(len(groups), None))
    return out


def placing_steps(groups: Sequence[tuple[Die, int]]) -> int:
    """At most how many (outcome, group, state, dice placed) steps :func:`kept_total` / :func:`kept_sums` take."""
    counts = [n for _, n in groups]
    outcomes = len({v for die, _ in groups for v in die.outcomes()})
    return outcomes * math.prod(c + 1 for c in counts) * max([c + 1 for c in counts] or [1]) * max(1, len(counts))


def placing_work(groups: Sequence[tuple[Die, int]], weights: Sequence[int], scale: Sequence[int] | None = None,
                 joint: bool = False) -> float:
    """At most the steps and the sums they carry (what :func:`kept_total`, or :func:`kept_sums` when ``joint``,
    counts, in Python steps), state by state: a state with ``p`` dice placed holds at most the sums of its ranks'
    weights so far (of each group, at most its dice placed) times the span of one die; at each outcome it branches
    ``r + 1`` ways on a group with ``r`` dice left when that group's die shows the outcome and has outcomes after
    it, else one way; a state whose weighted ranks are all placed is never kept (it is done)."""
    counts, total, stop = [n for _, n in groups], sum(n for _, n in groups), _stop(weights)
    if stop == 0:  # no rank weighs: every state is done at the first step
        return 2 * (counts[0] + 1) + 1 if counts else 1
    rows = [die.outcomes() for die, _ in groups]
    outcomes = len({v for row in rows for v in row})
    branching = [len(row) - 1 for row in rows]  # the outcomes at which a group's dice branch: all but the last
    ranges = [sorted((s * row[0], s * row[-1])) for row, s in zip(rows, scale or [1] * len(rows), strict=True)]
    reach = list(accumulate((abs(w) for w in weights), initial=0))
    top = max(abs(w) for w in weights)
    widths = [max(0, hi) - min(0, lo) for lo, hi in ranges]
    width = max([0] + [hi for _, hi in ranges]) - min([0] + [lo for lo, _ in ranges])  # of one die of any group

    def held(placed: int, rest: Sequence[int]) -> int:
        """At most how many sums a state holds."""
        reached = reach[min(placed, stop)]
        if joint:
            return math.prod(min((c - r) * top, reached) * w + 1 for c, r, w in zip(counts, rest, widths))
        return reached * width + 1

    states = math.prod(c + 1 for c in counts)
    if states > MAX_WORK // PYTHON_STEP:  # too many states to list: every state branching every way, full
        return float(outcomes * states * sum(c + 1 for c in counts) * (1 + held(total, [0] * len(counts))))
    work = 1.0
    for rest in product(*[range(c + 1) for c in counts]):
        placed = total - sum(rest)
        if placed < stop:  # else done: every weighted rank placed
            work += sum(outcomes + r * b for r, b in zip(rest, branching)) * (1 + held(placed, rest))
    return work


def _stop(weights: Sequence[int]) -> int:
    """How many ranks count: past the last weighted rank, the dice left add nothing."""
    return max((i + 1 for i, w in enumerate(weights) if w), default=0)


def _place(groups: Sequence[tuple[Die, int]], weights: Sequence[int], highest: bool, sums: _Sums) -> Any:
    """The sums ``sums`` carries once every die is placed (the loop above the readings): the state is how many
    dice of each group are not yet placed, a state whose weighted ranks are all placed is done (its other dice
    add nothing). Counts its steps and the sums they carry into the work done."""
    values = sorted({v for die, _ in groups for v in die.outcomes()}, reverse=highest)
    shares = [shares_in_order(die, values) for die, _ in groups]
    total, stop = sum(n for _, n in groups), _stop(weights)
    prefix = list(accumulate(weights, initial=0))
    state: dict[tuple[int, ...], dict[Any, float]] = {tuple(n for _, n in groups): sums.start()}
    done, steps = None, 0
    for index, value in enumerate(values):
        for g, row in enumerate(shares):
            share, new = row[index], dict[tuple[int, ...], dict[Any, float]]()
            for rest, acc in state.items():
                r, placed, size = rest[g], total - sum(rest), len(acc)
                for c in (r,) if share == 1.0 else (0,) if share == 0.0 else range(r + 1):
                    w = 1.0 if share in (0.0, 1.0) else math.comb(r, c) * share ** c * (1 - share) ** (r - c)
                    steps += 1 + (size if w else 0)
                    if w == 0.0:
                        continue
                    amount = value * (prefix[placed + c] - prefix[placed])
                    if placed + c >= stop:  # every weighted rank placed: the other dice add nothing
                        done = sums.carry(done, acc, g, amount, w)
                    else:
                        key = rest[:g] + (r - c,) + rest[g + 1:]
                        new[key] = sums.carry(new.get(key), acc, g, amount, w)
            state = new
    for acc in state.values():  # every die placed before the weighted ranks ran out
        done = sums.carry(done, acc, 0, 0, 1.0)
    WORK.work += steps * PYTHON_STEP
    return done


class _Sums:
    """What a placing carries for a state: the chance of each weighted total (each die times its rank's weight times
    its group's, ``scale``), or with ``scale`` None of each tuple of the groups' weighted sums (a dict)."""

    def __init__(self, groups: int, scale: Sequence[int] | None) -> None:
        self.groups, self.scale = groups, scale

    def start(self) -> dict[Any, float]:
        return {0: 1.0} if self.scale is not None else {(0,) * self.groups: 1.0}

    def carry(self, into: dict[Any, float] | None, acc: dict[Any, float], group: int, amount: int,
              w: float) -> dict[Any, float]:
        out = {} if into is None else into
        if self.scale is not None:
            amount *= self.scale[group]
            for key, p in acc.items():
                key += amount
                out[key] = out.get(key, 0.0) + p * w
            return out
        for key, p in acc.items():
            if amount:
                key = key[:group] + (key[group] + amount,) + key[group + 1:]
            out[key] = out.get(key, 0.0) + p * w
        return out
