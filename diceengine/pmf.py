"""Exact probability mass functions over the integers (numpy arrays with an offset)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from math import comb
from typing import Any

from diceengine.lazy import np

from .errors import DiceLimitError
from .limits import NUMPY_CALL, PYTHON_STEP, Cost

__all__ = [
    "PMF",
    "WORK",
    "convolve",
    "convolve_cost",
    "keep_dp",
    "keep_dp_cost",
    "keep_sum",
    "keep_sum_cost",
    "power_cost",
    "rank_dp",
    "rank_dp_cost",
    "window_sum",
    "window_sum_cost",
]

#: largest support an exact distribution may have
MAX_SUPPORT = 2_000_000


class _Counter:
    """Work actually done by the primitives below, in the units of :class:`~diceengine.limits.Cost` (what keeps
    the estimates honest: a test compares them)."""

    __slots__ = ("work",)

    def __init__(self) -> None:
        self.work = 0.0


#: the work counter of this process
WORK = _Counter()


def _fft_size(la: int, lb: int) -> int:
    return 1 << (la + lb - 2).bit_length()


def _direct(la: int, lb: int) -> bool:
    return la * lb <= 4_000_000 or min(la, lb) < 64


def convolve_cost(la: int, lb: int) -> Cost:
    """Cost of :func:`convolve` of two arrays of lengths ``la`` and ``lb``."""
    if _direct(la, lb):
        return Cost(la * lb + NUMPY_CALL, la + lb)
    size = _fft_size(la, lb)
    return Cost(6 * size * size.bit_length() + NUMPY_CALL, 4 * size)


def power_cost(length: int, n: int) -> tuple[Cost, int]:
    """Cost of :meth:`PMF.power` of a support of ``length`` to ``n`` copies, and the resulting length."""
    cost, result, base = Cost(), 1, length
    while n:
        if n & 1:
            cost = cost + convolve_cost(result, base)
            result += base - 1
        n >>= 1
        if n:
            cost = cost + convolve_cost(base, base)
            base = 2 * base - 1
    return cost, result


def keep_sum_cost(faces: int, n: int, keep: int, lo: int, hi: int) -> Cost:
    """Cost of :func:`keep_sum`: ``faces`` distinct values from ``lo`` to ``hi``, ``n`` dice, ``keep`` kept."""
    keep = max(0, min(keep, n))
    if keep == 0 or faces == 0:
        return Cost()
    span = keep * (hi - lo) + 1
    binomials = keep * (n + 1)
    # once: the binomial coefficients of the dice still to place (a row in Python, the others by Pascal's rule)
    table = (n + 2) * PYTHON_STEP + (keep + 4) * NUMPY_CALL + 2 * binomials
    # each face: its binomial weights (a few calls on that table), then one shifted add of the rows of the dice
    # placed for each count of dice showing it (1 .. keep - 1: the rows that stay under keep, keep - c rows
    # each), one for the dice showing none and one for each row that reaches keep (its sum is then final)
    rows = keep * (keep + 1) / 2 + keep
    per_face = (2 * keep + 14) * NUMPY_CALL + 3 * rows * span + 12 * binomials
    return Cost(table + faces * per_face, (2 * keep + 2) * span + 6 * binomials)


def _keep_dp_steps_cost(keys: int, n: int, keep: int, score_span: int) -> Cost:
    """The own work of :func:`keep_dp`'s steps (what it counts itself; the sums they place count themselves)."""
    keep = max(0, min(keep, n))
    size = keep * max(score_span - 1, 0) + 1
    steps = keys * (n + 1) * (n + 2) / 2
    return Cost(steps * (size * 3 + 30 * NUMPY_CALL), (n + 1) * size * 2)


def _convolve_costs(la: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """:func:`convolve_cost`'s work, element by element (vectorised)."""
    la, lb = np.broadcast_arrays(np.asarray(la, dtype=np.float64), np.asarray(lb, dtype=np.float64))
    direct = (la * lb <= 4_000_000) | (np.minimum(la, lb) < 64)
    x = np.maximum(la + lb - 2, 1)
    bits = np.floor(np.log2(x)) + 1
    size = 2.0 ** bits
    return np.where(direct, la * lb, 6 * size * (bits + 1)) + NUMPY_CALL


def _placing_work(n: int, keep: int, score_span: int, key_span: int) -> float:
    """At most the work of the sums one key of :func:`keep_dp` places (:func:`_placed`): with ``j < keep`` dice
    placed (their kept sum spans ``j * s + 1``, ``s`` a die's span less one), ``c`` more dice of the key add the
    sum of ``min(c, keep - j)`` scores of that key (spanning ``key_span`` each: one convolution), and each count
    of kept dice has its power computed once."""
    keep = max(0, min(keep, n))
    s = max(score_span - 1, 0)
    t = max(key_span - 1, 0)
    work = 0.0
    if keep <= 2000:
        rows = np.arange(keep)[:, None]
        cols = np.arange(1, keep + 1)[None, :]
        placed = np.minimum(cols, keep - rows)  # c >= keep - j: keep - j scores (n - keep + 1 values of c)
        times = np.where(cols < keep - rows, 1.0, np.where(cols == keep - rows, n - keep + 1.0, 0.0))
        work += float((times * _convolve_costs(rows * s + 1, placed * t + 1)).sum())
    else:  # a bound without the table: every convolution direct
        for j in range(keep):
            top = keep - j
            lbs = (top - 1) * (1 + t * top / 2)  # sum over c = 1 .. top - 1 of (c * t + 1)
            work += (j * s + 1) * (lbs + (n - keep + 1) * (top * t + 1)) + (n - j) * NUMPY_CALL
    for kept in range(1, keep + 1):
        work += power_cost(key_span, kept)[0].work
    return work


def keep_dp_cost(keys: int, n: int, keep: int, score_span: int, key_span: int | None = None,
                 sums: bool = True) -> Cost:
    """Cost of :func:`keep_dp`: ``keys`` sort keys, ``n`` dice, ``keep`` kept, scores spanning ``score_span``
    (``key_span`` given one key: 1 when a key is one face and its score; by default ``score_span``): its steps
    and, with ``sums``, the sums they place (without: the steps alone, for callers whose own estimate covers the
    sums)."""
    steps = _keep_dp_steps_cost(keys, n, keep, score_span)
    if not sums:
        return steps
    span = score_span if key_span is None else key_span
    return steps + Cost(keys * _placing_work(n, keep, score_span, span), 0)


def rank_dp_cost(steps: float, n: int, states: int, score_span: int) -> Cost:
    """Cost of :func:`rank_dp`: ``steps`` (rule state, dice of a key) pairs visited, ``n`` dice, at most ``states``
    rule states at once, a die's scores spanning ``score_span``."""
    size = n * max(score_span - 1, 0) + 1
    return Cost(steps * (size * 3 + 30 * NUMPY_CALL), (n + 1) * max(1, states) * size * 2)


class PMF:
    """``P(X = offset + i) = p[i]`` (the mass may be less than 1 while building mixtures)."""

    __slots__ = ("offset", "p")

    def __init__(self, offset: int, p: np.ndarray) -> None:
        nz = np.flatnonzero(p)
        if len(nz) == 0:
            self.offset, self.p = 0, np.zeros(1)
            return
        lo, hi = int(nz[0]), int(nz[-1])
        self.offset = int(offset) + lo
        self.p = p[lo:hi + 1]

    @classmethod
    def point(cls, value: int, mass: float = 1.0) -> PMF:
        return cls(value, np.array([mass], dtype=np.float64))

    @classmethod
    def from_counts(cls, values: Iterable[int], weight: float | None = None) -> PMF:
        """Each value (repeats allowed) with weight ``weight`` (default: uniform over the values)."""
        vals = np.fromiter(values, dtype=np.int64)
        if len(vals) == 0:
            return cls.point(0, 0.0)
        w = 1.0 / len(vals) if weight is None else weight
        lo = int(vals.min())
        _check_support(int(vals.max()) - lo + 1)
        return cls(lo, np.bincount(vals - lo).astype(np.float64) * w)

    @classmethod
    def from_mapping(cls, mapping: Mapping[int, float]) -> PMF:
        if not mapping:
            return cls.point(0, 0.0)
        lo, hi = min(mapping), max(mapping)
        _check_support(hi - lo + 1)
        p = np.zeros(hi - lo + 1)
        for v, q in mapping.items():
            p[v - lo] += q
        return cls(lo, p)

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + len(self.p))

    @property
    def mass(self) -> float:
        return float(self.p.sum())

    def mean(self) -> float:
        return float(np.dot(self.values, self.p) / self.p.sum())

    def items(self) -> list[tuple[int, float]]:
        return [(self.offset + i, float(q)) for i, q in enumerate(self.p) if q > 0]

    def shift(self, k: int) -> PMF:
        return PMF(self.offset + k, self.p)

    def scale_mass(self, w: float) -> PMF:
        return PMF(self.offset, self.p * w)

    def __add__(self, other: PMF) -> PMF:
        _check_support(len(self.p) + len(other.p))
        return PMF(self.offset + other.offset, convolve(self.p, other.p))

    def __neg__(self) -> PMF:
        return PMF(-(self.offset + len(self.p) - 1), self.p[::-1].copy())

    def __sub__(self, other: PMF) -> PMF:
        return self + (-other)

    def mix(self, other: PMF) -> PMF:
        """The sum of the two mass functions (a mixture of disjoint events)."""
        if not other.p.any():
            return self
        if not self.p.any():  # an empty start (offset 0) must not stretch the support to 0
            return other
        lo = min(self.offset, other.offset)
        hi = max(self.offset + len(self.p), other.offset + len(other.p))
        _check_support(hi - lo)
        p = np.zeros(hi - lo)
        p[self.offset - lo:self.offset - lo + len(self.p)] += self.p
        p[other.offset - lo:other.offset - lo + len(other.p)] += other.p
        return PMF(lo, p)

    def power(self, n: int) -> PMF:
        """The sum of ``n`` independent copies."""
        _check_support((len(self.p) - 1) * n + 1)
        result, base = PMF.point(0), self
        while n:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    def combine(self, other: PMF, op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> PMF:
        """The distribution of ``op(X, Y)`` for independent X (self) and Y (other)."""
        _check_support(len(self.p) * len(other.p))
        x = self.values[:, None]
        y = other.values[None, :]
        z = op(x, y).ravel()
        w = (self.p[:, None] * other.p[None, :]).ravel()
        lo = int(z.min())
        _check_support(int(z.max()) - lo + 1)
        return PMF(lo, np.bincount(z - lo, weights=w))

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> PMF:
        """The distribution of ``fn(X)`` (vectorised ``fn``)."""
        z = fn(self.values)
        lo = int(z.min())
        _check_support(int(z.max()) - lo + 1)
        return PMF(lo, np.bincount(z - lo, weights=self.p))

    def prob(self, value: int) -> float:
        i = value - self.offset
        return float(self.p[i]) if 0 <= i < len(self.p) else 0.0

    def __repr__(self) -> str:
        return f"PMF({dict(self.items())})"


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full convolution of two mass arrays: direct when small, by FFT when large (negatives clipped)."""
    WORK.work += convolve_cost(len(a), len(b)).work
    if _direct(len(a), len(b)):
        if len(a) * len(b) > 50_000_000:
            raise DiceLimitError("too many possible results for exact odds")
        return np.convolve(a, b)
    n = len(a) + len(b) - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    return np.clip(out, 0.0, None)


def _check_support(size: int) -> None:
    if size > MAX_SUPPORT:
        raise DiceLimitError(f"too many possible results for exact odds ({size}, at most {MAX_SUPPORT})")


def keep_dp(units: Sequence[tuple[int, float, PMF]], n: int, keep: int, highest: bool) -> PMF:
    """Total score of the ``keep`` highest (or lowest) of ``n`` independent dice.

    ``units`` lists, for each distinct sort key of one die, ``(key, probability, score PMF given that
    key)``. Dice with equal keys are exchangeable, so which of them is kept does not matter.
    """
    keep = max(0, min(keep, n))
    # the steps' own work; the sums they place count themselves (convolve)
    spans = [len(u[2].p) for u in units] or [1]
    WORK.work += _keep_dp_steps_cost(len(units), n, keep, max(spans)).work
    return keep_window(units, n, 0, keep, highest_first=highest)


def _placed(acc: PMF, w: float, score: PMF, index: int, kept: int, powers: dict[tuple[int, int], PMF]) -> PMF:
    """``acc`` plus ``kept`` dice of one score (their sum, remembered in ``powers``), weighted by ``w``: one
    step of the order-statistics DPs."""
    if not kept:
        return acc.scale_mass(w)
    pw = powers.get((index, kept))
    if pw is None:
        pw = powers[(index, kept)] = score.power(kept)
    return (acc + pw).scale_mass(w)


def keep_window(units: Sequence[tuple[int, float, PMF]], n: int, lo: int, hi: int,
                highest_first: bool = False) -> PMF:
    """Total score of the dice ranked ``lo`` to ``hi - 1`` (lowest first, or highest first) among ``n``
    independent dice.

    ``units`` lists, for each sort key of one die, ``(key, probability, score PMF given that key)``:
    dice are placed in increasing key order, ``c`` dice of one key take the ranks ``j .. j + c - 1``.
    """
    ordered = sorted(units, key=lambda u: u[0], reverse=highest_first)
    state: dict[int, PMF] = {0: PMF.point(0)}
    tail = float(sum(u[1] for u in ordered))
    powers: dict[tuple[int, int], PMF] = {}
    for index, (key, q, score) in enumerate(ordered):
        last = index == len(ordered) - 1
        share = 1.0 if last or tail <= 0 else min(1.0, q / tail)
        new: dict[int, PMF] = {}
        for j, acc in state.items():
            r = n - j
            for c in ([r] if last else range(r + 1)):
                w = 1.0 if last else comb(r, c) * share**c * (1 - share) ** (r - c)
                if w == 0.0:
                    continue
                kc = max(0, min(j + c, hi) - max(j, lo))
                part = _placed(acc, w, score, index, kc, powers)
                prev = new.get(j + c)
                new[j + c] = part if prev is None else prev.mix(part)
        state = new
        tail -= q
    return state.get(n, PMF.point(0, 0.0))


#: what a rule of :func:`rank_dp` answers for one key: ``(new rule state, dice of the key kept)``, or None when
#: the rule's state cannot be (a guess it made is already contradicted)
RankStep = tuple[Any, int] | None


def rank_dp(units: Sequence[tuple[int, float, PMF]], n: int, rule: Callable[[Any, int, int, int], RankStep],
            starts: Iterable[Any] = (None,), accept: Callable[[Any], bool] | None = None) -> PMF:
    """Total score of the dice a rule keeps among ``n`` independent dice, the rule seeing the dice key by key.

    ``units`` lists, for each sort key of one die, ``(key, probability, score PMF given that key)``. Keys are
    visited in increasing order; ``rule(state, key, below, count)`` is told that ``count`` dice show ``key``
    and ``below`` dice show a lower key, and answers how many of them it keeps (dice of one key are
    exchangeable: which of them does not matter) with its new state (a summary of the lower keys), or None
    when that state cannot be. The rule starts in each of ``starts`` (guesses of what it will learn, each
    checked by ``accept`` on the final state); the dice of every accepted path are summed.
    """
    ordered = sorted(units, key=lambda u: u[0])
    state: dict[tuple[int, Any], PMF] = {(0, s): PMF.point(0) for s in starts}
    tail = float(sum(u[1] for u in ordered))
    powers: dict[tuple[int, int], PMF] = {}
    spans = [len(u[2].p) for u in ordered] or [1]
    width, steps = len(state), 0
    for index, (key, q, score) in enumerate(ordered):
        last = index == len(ordered) - 1
        share = 1.0 if last or tail <= 0 else min(1.0, q / tail)
        new: dict[tuple[int, Any], PMF] = {}
        for (j, rs), acc in state.items():
            r = n - j
            for c in ([r] if last else range(r + 1)):
                steps += 1
                w = 1.0 if last else comb(r, c) * share**c * (1 - share) ** (r - c)
                if w == 0.0:
                    continue
                step = rule(rs, key, j, c)
                if step is None:
                    continue
                nrs, kc = step
                part = _placed(acc, w, score, index, kc, powers)
                prev = new.get((j + c, nrs))
                new[(j + c, nrs)] = part if prev is None else prev.mix(part)
        state = new
        width = max(width, len({rs for _, rs in state}))
        tail -= q
    WORK.work += rank_dp_cost(steps, n, width, max(spans)).work
    out = PMF.point(0, 0.0)
    for (j, rs), acc in state.items():
        if j == n and (accept is None or accept(rs)):
            out = out.mix(acc)
    return out


def _binomial_table(n: int, keep: int) -> np.ndarray | None:
    """``C[j, c] = comb(n - j, c)`` for ``j < keep`` and ``c <= n`` (0 past ``n - j``), as floats; None past
    float range."""
    row = [1] * (n - keep + 2)  # comb(n - keep + 1, c), then Pascal's rule row by row up to n
    for c in range(1, n - keep + 2):
        row[c] = row[c - 1] * (n - keep + 2 - c) // c
    if row[len(row) // 2] > 10**300:
        return None
    table = np.zeros((keep, n + 1))
    table[keep - 1, :len(row)] = row
    for j in range(keep - 2, -1, -1):
        table[j, 0] = 1.0
        table[j, 1:] = table[j + 1, 1:] + table[j + 1, :-1]
    if not np.isfinite(table).all() or table.max() > 1e300:
        return None
    return table


def _log_binomial_table(n: int, keep: int) -> np.ndarray:
    """``log(comb(n - j, c))`` for ``j < keep``, ``c <= n`` (``-inf`` past ``n - j``)."""
    return np.array([[math.lgamma(n - j + 1) - math.lgamma(c + 1) - math.lgamma(n - j - c + 1) if c <= n - j
                      else -math.inf for c in range(n + 1)] for j in range(keep)])


def _moves(table: np.ndarray, logs: bool, n: int, keep: int, shares: np.ndarray) -> np.ndarray:
    """For each face (its chance ``share`` among the faces not yet visited), ``M[face, j, c]``: the chance that,
    of the ``n - j`` dice left when ``j < keep`` are placed, exactly ``c`` show the face (``j + c < keep``) or at
    least ``keep - j`` do (``c = keep - j``: the kept dice are then all placed); ``M[face, keep, 0] = 1`` (the sums
    of the dice all placed stay as they are)."""
    c = np.arange(n + 1)[None, None, :]
    j = np.arange(keep)[None, :, None]
    rest = np.maximum(n - j - c, 0)
    s = shares[:, None, None]
    if logs:
        with np.errstate(divide="ignore", invalid="ignore"):
            log_on = np.where(c == 0, 0.0, c * np.log(s))
            log_off = np.where(rest == 0, 0.0, rest * np.log1p(-s))
            p = np.exp(table[None] + log_on + log_off)
    else:
        p = table[None] * s ** c * (1.0 - s) ** rest
    need = keep - j
    moves = np.zeros((len(shares), keep + 1, keep + 1))
    moves[:, :keep, :keep] = np.where(c < need, p, 0.0)[:, :, :keep]
    reach = np.where(c >= need, p, 0.0).sum(axis=2)  # (faces, keep)
    rows = np.arange(keep)
    moves[:, rows, keep - rows] = reach
    moves[:, keep, 0] = 1.0
    return moves


def _placing(ordered: Sequence[tuple[int, float]], vmin: int, n: int, keep: int) -> tuple[list[tuple[int, float]],
                                                                                          np.ndarray]:
    """What :func:`keep_sum` and :func:`window_sum` place: the faces in the order visited (less ``vmin``), each with
    its chance among the faces not yet visited (the last: all of it), and their moves (:func:`_moves`) for ``keep``
    rows of dice placed."""
    visited: list[tuple[int, float]] = []
    tail = float(sum(q for _, q in ordered))
    for index, (value, q) in enumerate(ordered):
        share = 1.0 if index == len(ordered) - 1 or tail <= 0 else min(1.0, q / tail)
        tail -= q
        if share > 0.0:
            visited.append((value - vmin, share))
            if share == 1.0:  # every die left shows this face
                break
    table = _binomial_table(n, keep)
    logs = table is None
    if table is None:
        table = _log_binomial_table(n, keep)
    return visited, _moves(table, logs, n, keep, np.array([s for _, s in visited]))


def keep_sum(faces: Sequence[tuple[int, float]], n: int, keep: int, highest: bool) -> PMF:
    """Sum of the ``keep`` highest (or lowest) of ``n`` independent dice with these ``(value, probability)``
    faces (the probabilities are shares of their total)."""
    keep = max(0, min(keep, n))
    ordered = sorted(faces, key=lambda f: f[0], reverse=highest)
    if keep == 0 or not ordered:
        return PMF.point(0)
    vmin = min(v for v, _ in ordered)
    vmax = max(v for v, _ in ordered)
    _check_support(max(0, keep * vmax) - min(0, keep * vmin) + 1)
    WORK.work += keep_sum_cost(len(ordered), n, keep, vmin, vmax).work
    visited, moves = _placing(ordered, vmin, n, keep)
    # state[j]: the sums (less j * vmin) of j < keep dice placed so far, all kept; state[keep]: the sums of the
    # kept dice once keep are placed (final: the other dice show worse faces)
    span = keep * (vmax - vmin) + 1
    state = np.zeros((keep + 1, span))
    state[0, 0] = 1.0
    for (d, _), move in zip(visited, moves, strict=True):
        new = state * move[:, :1]
        for c in range(1, keep + 1):  # c more dice placed (the last: at least c): row j to j + c, sums + c * d
            s = c * d
            new[c:, s:] += move[:keep + 1 - c, c:c + 1] * state[:keep + 1 - c, :span - s]
        state = new
    return PMF(keep * vmin, state[keep])


def window_sum_cost(faces: int, n: int, lo: int, hi: int, vmin: int, vmax: int) -> Cost:
    """Cost of :func:`window_sum`: ``faces`` distinct values from ``vmin`` to ``vmax``, ``n`` dice, the ranks ``lo``
    to ``hi - 1`` (lowest first) kept."""
    hi = max(0, min(hi, n))
    lo = max(0, min(lo, hi))
    if hi == lo or faces == 0:
        return Cost()
    span = (hi - lo) * (vmax - vmin) + 1
    binomials = hi * (n + 1)
    table = (n + 2) * PYTHON_STEP + (hi + 4) * NUMPY_CALL + 2 * binomials
    # each face: its binomial weights, then one shifted add of one row for each (dice placed, dice showing it)
    pairs = hi * (hi + 1) / 2 + hi
    per_face = 14 * NUMPY_CALL + pairs * (2 * span + NUMPY_CALL / 4) + 12 * binomials
    return Cost(table + faces * per_face, (2 * hi + 2) * span + 6 * binomials)


def window_sum(faces: Sequence[tuple[int, float]], n: int, lo: int, hi: int) -> PMF:
    """Sum of the dice ranked ``lo`` to ``hi - 1`` (lowest first) among ``n`` independent dice with these ``(value,
    probability)`` faces (the probabilities are shares of their total): :func:`keep_sum` for a window that touches
    neither end (``4d6dl1dh1``)."""
    hi = max(0, min(hi, n))
    lo = max(0, min(lo, hi))
    ordered = sorted(faces, key=lambda f: f[0])
    if hi == lo or not ordered:
        return PMF.point(0)
    vmin, vmax = ordered[0][0], ordered[-1][0]
    _check_support((hi - lo) * (vmax - vmin) + 1)
    WORK.work += window_sum_cost(len(ordered), n, lo, hi, vmin, vmax).work
    visited, moves = _placing(ordered, vmin, n, hi)
    # state[j]: the sums (less the kept dice's vmin each) of the window's dice among the j lowest placed (j < hi);
    # state[hi]: final once the window's dice are all placed (the dice left show higher faces)
    span = (hi - lo) * (vmax - vmin) + 1
    state = np.zeros((hi + 1, span))
    state[0, 0] = 1.0
    for (d, _), move in zip(visited, moves, strict=True):
        new = state * move[:, :1]  # no die shows this face (row hi: stays as it is)
        for j in range(hi):
            row = state[j]
            if not row.any():
                continue
            for c in range(1, hi - j + 1):  # c more dice placed (c = hi - j: at least that many)
                s = d * max(0, min(j + c, hi) - max(j, lo))
                new[j + c, s:] += move[j, c] * row[:span - s]
        state = new
    return PMF((hi - lo) * vmin, state[hi])
