"""The value of the die of one rank among independent dice (the highest, the lowest, or one near an end), by a
binomial tail over its faces, and what it costs. Read through :mod:`diceengine.pmf`; :mod:`diceengine.pmf_keep`
uses it for a keep of one die."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise
from math import comb
from typing import Any

from diceengine.lazy import np

from .limits import NUMPY_CALL, PYTHON_STEP, Cost
from .pmf_core import PMF, WORK, _check_support

#: most binomial terms :func:`ranked_die` sums (the fewer of ``rank + 1`` and ``n - rank``); a rank further from both
#: ends is placed by the order-statistics DP of :func:`keep_sum` / :func:`window_sum`
RANK_TERMS = 8


def _rank_terms(n: int, rank: int) -> int:
    """Binomial terms :func:`ranked_die` sums for the die ranked ``rank`` (lowest first) of ``n``."""
    return min(rank + 1, n - rank)


#: largest support :func:`ranked_die` works out on Python floats, value by value; a larger one in numpy arrays. On a
#: first question (caches cold) each distinct numpy call costs tens of microseconds, more than the loop over a few
#: dozen values (benchmarks/exact_random.py: ``2d4dh1``, ``3d8dh2``); on a larger support the arrays are faster
SMALL_SPAN = 32


def ranked_die_cost(faces: int, n: int, rank: int, lo: int, hi: int) -> Cost:
    """Cost of :func:`ranked_die`: ``faces`` distinct values from ``lo`` to ``hi``, ``n`` dice."""
    span, terms = hi - lo + 1, _rank_terms(n, rank)
    if span <= SMALL_SPAN:  # value by value: the sums, the tail's terms and the differences, then one array
        return Cost(2 * faces * PYTHON_STEP + (6 + 3 * terms) * span * PYTHON_STEP + 2 * NUMPY_CALL, 2 * span)
    return Cost(2 * faces * PYTHON_STEP + (10 + 5 * terms) * NUMPY_CALL + (10 + 5 * terms) * span, 6 * span)


def _rank_tail(n: int, rank: int) -> tuple[bool, Callable[[Any, Any], Any]]:
    """``(upper, tail)``: ``tail(below, above)``, of ``P(X <= x)`` and ``P(X > x)`` for one die, is ``P(X(rank) <= x)``
    when ``upper`` (the shorter sum near the top), else ``P(X(rank) > x)``: the one formula, for a value (a float) or
    for every value at once (arrays)."""
    if n - rank <= rank + 1:  # P(at least rank + 1 of n at most x)
        if rank == n - 1:
            return True, lambda below, above: below ** n
        return True, lambda below, above: sum(float(comb(n, j)) * below ** j * above ** (n - j)
                                              for j in range(rank + 1, n + 1))
    if rank == 0:  # P(at most rank of n at most x)
        return False, lambda below, above: above ** n
    return False, lambda below, above: sum(float(comb(n, j)) * below ** j * above ** (n - j) for j in range(rank + 1))


def ranked_die(faces: Sequence[tuple[int, float]], n: int, rank: int) -> PMF:
    """Value of the die ranked ``rank`` (0: the lowest, ``n - 1``: the highest) among ``n`` independent dice with these
    ``(value, probability)`` faces (shares of their total): at most ``x`` when at least ``rank + 1`` dice are, a
    binomial tail over the faces at once, the shorter of two sums of positive terms: ``P(X(rank) <= x)`` near the top
    (differences exact at the low end), ``P(X(rank) > x)`` near the bottom (exact at the high end)."""
    values = [v for v, _ in faces]
    lo, hi = min(values), max(values)
    _check_support(hi - lo + 1)
    WORK.work += ranked_die_cost(len(faces), n, rank, lo, hi).work
    upper, tail = _rank_tail(n, rank)
    if hi - lo < SMALL_SPAN:
        return PMF.from_floats(lo, _ranked_values(faces, lo, hi, upper, tail))
    dense = np.bincount(np.array(values) - lo, weights=[q for _, q in faces])
    total = dense.sum()
    below = dense.cumsum() / total  # P(X <= x)
    above = np.zeros(len(dense))  # P(X > x), summed from the top
    above[:-1] = dense[:0:-1].cumsum()[::-1] / total
    below[-1] = 1.0
    p = np.empty(len(dense))
    if upper:
        cdf = tail(below, above)
        p[0], p[1:] = cdf[0], cdf[1:] - cdf[:-1]
    else:
        rest = tail(below, above)
        p[0], p[1:] = 1.0 - rest[0], rest[:-1] - rest[1:]
    return PMF(lo, np.maximum(p, 0.0, out=p))


def _ranked_values(faces: Sequence[tuple[int, float]], lo: int, hi: int, upper: bool,
                   tail: Callable[[float, float], float]) -> list[float]:
    """:func:`ranked_die`'s masses from ``lo`` to ``hi`` worked out on Python floats, value by value (a small
    support: :data:`SMALL_SPAN`), as its arrays do."""
    dense = [0.0] * (hi - lo + 1)
    for v, q in faces:
        dense[v - lo] += q
    total = sum(dense)
    below = [c / total for c in accumulate(dense)]
    above = [c / total for c in accumulate(dense[:0:-1])][::-1]
    above.append(0.0)
    below[-1] = 1.0
    cdf = [tail(b, a) for b, a in zip(below, above)]
    p = [cdf[0] if upper else 1.0 - cdf[0]]
    p += [y - x for x, y in pairwise(cdf)] if upper else [x - y for x, y in pairwise(cdf)]
    return [max(0.0, q) for q in p]
