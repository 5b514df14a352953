"""d20's keep / drop (``dialect="d20"``): a sequence of operators, each choosing among the dice still kept.

Consecutive operators of one kind join (d20 merges them): ``kh1kl1`` keeps the highest and the lowest,
``k1k2`` the dice showing 1 or 2, ``p1p2`` drops both. A selector is ``hN`` / ``lN`` (the N highest / lowest
still kept), ``N`` (the dice showing N), ``<N`` or ``>N``. ``k`` keeps what its selectors choose and drops
the rest, ``p`` drops what they choose.

Which dice a rank selector chooses among equal values is d20's: ``hN`` takes the N highest, ``lN`` the N
lowest, each preferring the die thrown first among equals (a stable sort), so the selectors of one operator
may choose the same die: ``2d6kh1kl1`` keeps one die when both show the same face, as in d20.

Exact odds: value selectors only are one test per die (independent dice); one rank selector per operator
is a window of ranks; any other mix (:meth:`Selection.rule`) follows the dice key by key from the lowest
(:func:`diceengine.pmf.rank_dp`): since every selector picks the first thrown among equal dice, the dice
of one key still kept after each operator are the first ones, so how many of them each operator keeps is
a function of how many dice of lower and of higher keys are still kept, whatever the order of the throws.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import comb
from typing import Any

from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.pmf import PMF, rank_dp, rank_dp_cost

from .nodes import Keep

__all__ = ["Selection", "selection_of"]

#: one selector: ("h" | "l", n) by rank, ("=" | "<" | ">", v) by value
Selector = tuple[str, int]


class Selection:
    """d20's keep / drop operators on one term or set (module docstring)."""

    def __init__(self, groups: list[tuple[str, list[Selector]]]) -> None:
        self.groups = groups

    @property
    def by_value(self) -> bool:
        return all(kind not in "hl" for _, sels in self.groups for kind, _ in sels)

    def keeps_value(self, v: Any) -> bool:
        """Whether a die of value ``v`` is kept (value selectors only)."""
        for mode, sels in self.groups:
            hit = any(_match(kind, n, v) for kind, n in sels)
            if hit != (mode == "k"):
                return False
        return True

    def window(self, count: int) -> tuple[int, int] | None:
        """The ranks kept (lowest first) when every operator has one rank selector, else None."""
        lo, hi = 0, count
        for mode, sels in self.groups:
            if len(sels) != 1 or sels[0][0] not in "hl":
                return None
            kind, n = sels[0]
            n = max(0, min(n, hi - lo))
            if (mode, kind) == ("k", "h"):
                lo = hi - n
            elif (mode, kind) == ("k", "l"):
                hi = lo + n
            elif (mode, kind) == ("p", "h"):
                hi = hi - n
            else:
                lo = lo + n
        return lo, hi

    def kept_counts(self, counts: Sequence[tuple[Any, int]]) -> list[int]:
        """How many dice of each key stay kept, for ``(key, dice showing it)`` in increasing key order (the
        dice of one key are exchangeable; see the module docstring)."""
        left = [c for _, c in counts]
        for mode, sels in self.groups:
            total = sum(left)
            below = 0
            for i, (key, _) in enumerate(counts):
                r = left[i]
                left[i] = _keep_of(mode, sels, key, r, below, total - below - r)
                below += r
        return left

    def _tracked(self) -> tuple[list[bool], list[bool]]:
        """For each operator after the first: whether the rule follows the dice still kept below a key
        (a rank selector), and whether it guesses how many are kept in all (an ``h`` selector)."""
        below = [t > 0 and any(k in "hl" for k, _ in sels) for t, (_, sels) in enumerate(self.groups)]
        guess = [t > 0 and any(k == "h" for k, _ in sels) for t, (_, sels) in enumerate(self.groups)]
        return below, guess

    def rule_steps(self, keys: int, count: int) -> tuple[float, int]:
        """``(steps, states)``: at most how many (rule state, dice of a key) pairs :meth:`pmf` visits for
        ``keys`` keys and ``count`` dice, and how many rule states it holds at once."""
        below, guess = self._tracked()
        b, g = sum(below), sum(guess)
        guesses = comb(count + g, g)  # the totals guessed never increase
        per_key = sum((count - j + 1) * comb(j + b, b) for j in range(count + 1))  # kept below never increase
        return float(keys) * guesses * per_key, guesses * comb(count + b, b)

    def pmf(self, table: Sequence[tuple[int, float, PMF]], count: int) -> PMF:
        """Exact total score of the kept dice among ``count`` independent dice, ``table`` listing for each key
        ``(key, probability, score PMF given the key)`` (:func:`diceengine.pmf.rank_dp`)."""
        below, guess = self._tracked()
        groups = self.groups
        n = count

        def rule(state: Any, key: int, j: int, c: int) -> tuple[Any, int] | None:
            held, totals = state
            r = c
            new = list(held)
            for t, (mode, sels) in enumerate(groups):
                if t == 0:
                    under, total = j, n
                else:
                    under, total = held[t], totals[t]
                    if below[t]:
                        new[t] = under + r
                        if guess[t] and new[t] > total:
                            return None
                r = _keep_of(mode, sels, key, r, under or 0, (total - under - r) if total is not None else 0)
            return (tuple(new), totals), r

        ranges = [range(count + 1) if g else (None,) for g in guess]
        starts = []
        for totals in itertools.product(*ranges):
            guessed = [x for x in totals if x is not None]
            if all(a >= b for a, b in itertools.pairwise(guessed)):  # operators only ever drop dice
                starts.append((tuple(0 if b else None for b in below), totals))

        def accept(state: Any) -> bool:
            held, totals = state
            return all(not g or held[t] == totals[t] for t, g in enumerate(guess))

        return rank_dp(table, count, rule, starts, accept)

    def pmf_cost(self, keys: int, count: int, score_span: int) -> Cost:
        """Cost of :meth:`pmf` (``keys`` sort keys, a die's scores spanning ``score_span``)."""
        steps, states = self.rule_steps(keys, count)
        return rank_dp_cost(steps, count, states, score_span)

    def kept(self, keys: Sequence[Any]) -> list[bool]:
        """Which of these dice (by key) stay kept, for one roll."""
        kept = [True] * len(keys)
        for mode, sels in self.groups:
            alive = [i for i in range(len(keys)) if kept[i]]
            chosen: set[int] = set()
            for kind, n in sels:
                if kind == "h":  # a stable sort: among equal dice, the one thrown first (d20)
                    chosen.update(sorted(alive, key=keys.__getitem__, reverse=True)[:n])
                elif kind == "l":
                    chosen.update(sorted(alive, key=keys.__getitem__)[:n])
                else:
                    chosen.update(i for i in alive if _match(kind, n, keys[i]))
            for i in alive:
                if (i in chosen) != (mode == "k"):
                    kept[i] = False
        return kept

    def mask(self, keys: np.ndarray, alive: np.ndarray | None = None) -> np.ndarray:
        """Which dice stay kept, for rows of dice (vectorised; ``alive``: the cells that hold a die)."""
        kept = np.ones(keys.shape, dtype=bool) if alive is None else alive.copy()
        rows = np.arange(keys.shape[0])[:, None]
        for mode, sels in self.groups:
            chosen = np.zeros(keys.shape, dtype=bool)
            for kind, n in sels:
                if kind in "hl":  # a stable sort: among equal dice, the one thrown first (d20)
                    fill = np.iinfo(np.int64).max if keys.dtype.kind in "iu" else np.inf
                    ranked = np.argsort(np.where(kept, -keys if kind == "h" else keys, fill), axis=1,
                                        kind="stable")
                    alive = kept.sum(axis=1)
                    pos = np.arange(keys.shape[1])[None, :]
                    pick = pos < np.minimum(n, alive)[:, None]
                    sel = np.zeros(keys.shape, dtype=bool)
                    sel[rows, ranked] = pick
                    chosen |= sel & kept
                else:
                    chosen |= _match(kind, n, keys) & kept
            kept &= chosen if mode == "k" else ~chosen
        return kept


def _keep_of(mode: str, sels: list[Selector], key: Any, r: int, below: int, above: int) -> int:
    """Of ``r`` dice showing ``key`` still kept, with ``below`` / ``above`` kept dice of lower / higher keys,
    how many stay kept after one operator (its selectors choose the first thrown among equal dice, so
    their union is the largest of their choices)."""
    chosen = 0
    for kind, n in sels:
        if kind == "h":
            s = min(r, max(0, n - above))
        elif kind == "l":
            s = min(r, max(0, n - below))
        else:
            s = r if _match(kind, n, key) else 0
        chosen = max(chosen, s)
    return chosen if mode == "k" else r - chosen


def _match(kind: str, n: int, v: Any) -> Any:
    if kind == "=":
        return v == n
    if kind == "<":
        return v < n
    return v > n


def selection_of(keeps: Sequence[Keep]) -> Selection:
    """d20's operators from the keep / drop modifiers as written."""
    groups: list[tuple[str, list[Selector]]] = []
    for k in keeps:
        spelled = k.spelled.rstrip("\x00")
        mode = "k" if spelled.startswith("k") else "p" if spelled.startswith("p") else None
        if mode is None:  # Roll20's dh / dl in d20's dialect: drop by rank
            mode, sel = "p", ("h" if k.kind == "dh" else "l", k.n)
        elif k.point is not None:
            sel = (k.point, k.n)
        elif spelled in ("k", "p"):
            sel = ("=", k.n)
        else:
            sel = (spelled[1], k.n)
        if groups and groups[-1][0] == mode and not k.fresh:
            groups[-1][1].append(sel)
        else:
            groups.append((mode, [sel]))
    return Selection(groups)
