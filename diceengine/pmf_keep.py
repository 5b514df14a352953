"""The order statistics of independent dice: the sum of the dice kept by rank (the highest, the lowest, a window
between), or by a rule that sees the dice key by key, and what each costs. Read through :mod:`diceengine.pmf`."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from math import comb
from typing import Any

from diceengine.lazy import np

from .limits import NUMPY_CALL, PYTHON_STEP, Cost
from .pmf_core import PMF, WORK, _check_support
from .pmf_rank import RANK_TERMS, _rank_terms, ranked_die, ranked_die_cost


def keep_sum_cost(faces: int, n: int, keep: int, lo: int, hi: int) -> Cost:
    """Cost of :func:`keep_sum`: ``faces`` distinct values from ``lo`` to ``hi``, ``n`` dice, ``keep`` kept."""
    keep = max(0, min(keep, n))
    if keep == 0 or faces == 0:
        return Cost()
    if keep == 1:
        return ranked_die_cost(faces, n, n - 1, lo, hi)  # as many terms as for the lowest (rank 0)
    span = keep * (hi - lo) + 1
    if _small(faces, n, keep, span):
        return _small_cost(faces, n, keep, span)
    # each face: one shifted add of the rows of the dice placed for each count of dice showing it (1 .. keep - 1:
    # the rows that stay under keep, keep - c rows each), one for the dice showing none and one for each row that
    # reaches keep (its sum is then final)
    rows = keep * (keep + 1) / 2 + keep
    return _placing_cost(faces, n, keep, span, 2 * keep * NUMPY_CALL + 3 * rows * span)


def _placing_cost(faces: int, n: int, rows: int, span: int, adds: float) -> Cost:
    """Cost of :func:`_ranked_in_order`'s arrays: ``faces`` faces, ``n`` dice, ``rows`` rows of sums ``span`` wide,
    each face's shifted adds costing ``adds``."""
    binomials = rows * (n + 1)
    # once: the binomial coefficients of the dice still to place (a row in Python, the others by Pascal's rule)
    table = (n + 2) * PYTHON_STEP + (rows + 4) * NUMPY_CALL + 2 * binomials
    # each face: its binomial weights (a few calls on that table), then its adds
    per_face = 14 * NUMPY_CALL + adds + 12 * binomials
    return Cost(table + faces * per_face, (2 * rows + 2) * span + 6 * binomials)


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


def _convolve_bounds(la: np.ndarray | int, lb: np.ndarray | int) -> np.ndarray:
    """At most the work :func:`convolve` counts on arrays of at most ``la`` and ``lb`` entries, element by element (a
    direct convolution under its bounds counts more than the FFT of longer arrays)."""
    la, lb = np.broadcast_arrays(np.asarray(la, dtype=np.float64), np.asarray(lb, dtype=np.float64))
    direct = np.minimum(la * lb, np.maximum(4_000_000, 63 * np.maximum(la, lb)))
    return np.maximum(_convolve_costs(la, lb), direct + NUMPY_CALL)


def _power_bound(length: int, n: int) -> float:
    """At most the work of :meth:`PMF.power` to ``n`` copies of a support of at most ``length`` entries."""
    work, result, base = 0.0, 0, length  # as power_cost follows it, each convolution bounded
    while n:
        work += float(_convolve_bounds(result, base)) if n & 1 and result else 0.0
        result += (base - 1 if result else base) if n & 1 else 0
        n >>= 1
        work += float(_convolve_bounds(base, base)) if n else 0.0
        base = 2 * base - 1
    return work


def _placing_work(n: int, keep: int, score_span: int, key_span: int) -> float:
    """At most the work of the sums one key of :func:`keep_dp` places (:func:`_placed`): with ``j < keep`` dice
    placed (their kept sum spans ``j * s + 1``, ``s`` a die's span less one), ``c`` more dice of the key add the
    sum of ``min(c, keep - j)`` scores of that key (spanning ``key_span`` each: one convolution), and each count
    of kept dice has its power computed once; the spans are at most these (:func:`_convolve_bounds`)."""
    keep = max(0, min(keep, n))
    s = max(score_span - 1, 0)
    t = max(key_span - 1, 0)
    work = 0.0
    if keep <= 2000:
        rows = np.arange(keep)[:, None]
        cols = np.arange(1, keep + 1)[None, :]
        placed = np.minimum(cols, keep - rows)  # c >= keep - j: keep - j scores (n - keep + 1 values of c)
        times = np.where(cols < keep - rows, 1.0, np.where(cols == keep - rows, n - keep + 1.0, 0.0))
        work += float((times * _convolve_bounds(rows * s + 1, placed * t + 1)).sum())
    else:  # a bound without the table: every convolution direct
        for j in range(keep):
            top = keep - j
            lbs = (top - 1) * (1 + t * top / 2)  # sum over c = 1 .. top - 1 of (c * t + 1)
            work += (j * s + 1) * (lbs + (n - keep + 1) * (top * t + 1)) + (n - j) * NUMPY_CALL
    for kept in range(1, keep + 1):
        work += _power_bound(key_span, kept)
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


def keep_dp(units: Sequence[tuple[int, float, PMF]], n: int, keep: int, highest: bool) -> PMF:
    """Total score of the ``keep`` highest (or lowest) of ``n`` independent dice. ``units`` lists, for each
    distinct sort key of one die, ``(key, probability, score PMF given that key)``. Dice with equal keys are
    exchangeable, so which of them is kept does not matter."""
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
    independent dice. ``units`` lists, for each sort key of one die, ``(key, probability, score PMF given that
    key)``: dice are placed in increasing key order, ``c`` dice of one key take the ranks ``j .. j + c - 1``."""
    ordered = sorted(units, key=lambda u: u[0], reverse=highest_first)
    state = _by_keys(ordered, n, lambda rs, key, j, c: (None, max(0, min(j + c, hi) - max(j, lo))), (None,))[0]
    return state.get((n, None), PMF.point(0, 0.0))


def shares(chances: Sequence[float], total: float | None = None) -> list[float]:
    """For each chance in order, the chance that a die shows it given that it shows none before (of ``total``, by
    default the sum of the chances): 1 from the last positive chance on, so that every die is placed."""
    last = len(chances) - 1
    while last > 0 and chances[last] <= 0:
        last -= 1
    tail, out = float(sum(chances)) if total is None else total, []
    for i, q in enumerate(chances):
        out.append(1.0 if i >= last or tail <= 0 else min(1.0, q / tail))
        tail -= q
    return out


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
    checked by ``accept`` on the final state); the dice of every accepted path are summed."""
    state, steps, width = _by_keys(sorted(units, key=lambda u: u[0]), n, rule, starts)
    WORK.work += rank_dp_cost(steps, n, width, max([len(u[2].p) for u in units] or [1])).work
    out = PMF.point(0, 0.0)
    for (j, rs), acc in state.items():
        if j == n and (accept is None or accept(rs)):
            out = out.mix(acc)
    return out


def _by_keys(ordered: Sequence[tuple[int, float, PMF]], n: int, rule: Callable[[Any, int, int, int], RankStep],
             starts: Iterable[Any]) -> tuple[dict[tuple[int, Any], PMF], int, int]:
    """The placing of :func:`rank_dp` and :func:`keep_window`, the keys visited in the order given: the sums of
    the dice kept for each (dice placed, rule state), the steps taken and the most rule states held at once."""
    state: dict[tuple[int, Any], PMF] = {(0, s): PMF.point(0) for s in starts}
    powers: dict[tuple[int, int], PMF] = {}
    width, steps = len(state), 0
    for index, ((key, _, score), share) in enumerate(zip(ordered, shares([u[1] for u in ordered]), strict=True)):
        last = index == len(ordered) - 1
        new: dict[tuple[int, Any], PMF] = {}
        for (j, rs), acc in state.items():
            r = n - j
            for c in ([r] if last else range(r + 1)):
                steps += 1
                w = 1.0 if last else comb(r, c) * share**c * (1 - share) ** (r - c)
                step = rule(rs, key, j, c) if w != 0.0 else None
                if step is None:
                    continue
                part = _placed(acc, w, score, index, step[1], powers)
                prev = new.get((j + c, step[0]))
                new[(j + c, step[0])] = part if prev is None else prev.mix(part)
        state = new
        width = max(width, len({rs for _, rs in state}))
    return state, steps, width


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


def _visits(ordered: Sequence[tuple[int, float]], vmin: int) -> list[tuple[int, float]]:
    """The faces :func:`keep_sum` and :func:`window_sum` place, in the order visited (less ``vmin``), each with its
    chance among the faces not yet visited (the last: all of it)."""
    visited: list[tuple[int, float]] = []
    for (value, _), share in zip(ordered, shares([q for _, q in ordered]), strict=True):
        if share > 0.0:
            visited.append((value - vmin, share))
            if share == 1.0:  # every die left shows this face
                break
    return visited


def _placing_moves(visited: Sequence[tuple[int, float]], n: int, keep: int) -> np.ndarray:
    """The moves (:func:`_moves`) of the faces visited for ``keep`` rows of dice placed."""
    table = _binomial_table(n, keep)
    logs = table is None
    if table is None:
        table = _log_binomial_table(n, keep)
    return _moves(table, logs, n, keep, np.array([s for _, s in visited]))


#: most dice, most steps for each face (:func:`_face_steps`) and for all of them, whose order statistics
#: :func:`_ranks_on_floats` works out on Python floats; a larger problem in numpy arrays. On a first question (caches
#: cold) each numpy call costs microseconds, more than a short row added in Python (``3d12kh2``, ``11d4kh7``,
#: ``4d6kh3``); the arrays take a few calls a face, so that many faces (exploding dice's chains) go to them
SMALL_DICE, SMALL_STEPS, SMALL_TOTAL = 32, 800, 4000


def _face_steps(n: int, rows: int, span: int) -> int:
    """Steps of :func:`_ranks_on_floats` for one face: for each of the ``rows`` rows of dice placed, the chances of
    the counts of the dice left showing it, and a row of sums (``span`` wide at most) added for each count that stays
    under ``rows`` (and one for those that reach it)."""
    return rows * (n + 1) * 2 + rows * (rows + 1) // 2 * span


def _small(faces: int, n: int, rows: int, span: int) -> bool:
    """Whether :func:`keep_sum` / :func:`window_sum` place ``faces`` faces on ``rows`` rows of sums ``span`` wide,
    ``n`` dice, on Python floats."""
    steps = _face_steps(n, rows, span)
    return n <= SMALL_DICE and steps <= SMALL_STEPS and faces * steps <= SMALL_TOTAL


def _small_cost(faces: int, n: int, hi: int, span: int) -> Cost:
    """Cost of :func:`_ranks_on_floats`: ``faces`` faces, ``n`` dice, ``hi`` rows, sums ``span`` wide."""
    return Cost(faces * _face_steps(n, hi, span) * PYTHON_STEP + NUMPY_CALL, hi * span)


def _add_shifted(target: list[float] | None, row: list[float], w: float, shift: int) -> list[float]:
    """``target`` (None: empty) plus ``w`` times ``row`` placed from ``shift`` on."""
    end = shift + len(row)
    if target is None:
        target = [0.0] * end
    elif len(target) < end:
        target.extend([0.0] * (end - len(target)))
    for i, x in enumerate(row, shift):
        target[i] += w * x
    return target


def _ranks_on_floats(visited: Sequence[tuple[int, float]], n: int, lo: int, hi: int) -> list[float]:
    """The sums of the dice ranked ``lo`` to ``hi - 1`` in the order the faces are visited (:func:`_visits`), as
    :func:`_window_in_order` places them, on Python floats: row ``j`` holds the sums of the window's dice among the
    ``j < hi`` placed so far; ``c`` of the ``n - j`` dice left show a face (a binomial chance), at least ``hi - j``
    of them ending the placing (the dice left show later faces)."""
    rows: list[list[float] | None] = [[1.0]] + [None] * (hi - 1)
    final: list[float] | None = None
    for d, share in visited:
        new: list[list[float] | None] = [None] * hi
        off = 1.0 - share
        for j, row in enumerate(rows):
            if row is None:
                continue
            m, need, first = n - j, hi - j, max(j, lo)
            reach = 0.0
            for c in range(m + 1):
                w = comb(m, c) * share ** c * off ** (m - c)
                if c >= need:
                    reach += w
                elif w:
                    new[j + c] = _add_shifted(new[j + c], row, w, d * max(0, j + c - first))
            if reach:
                final = _add_shifted(final, row, reach, d * (hi - first))
        rows = new
    return final or [0.0]


def keep_sum(faces: Sequence[tuple[int, float]], n: int, keep: int, highest: bool) -> PMF:
    """Sum of the ``keep`` highest (or lowest) of ``n`` independent dice with these ``(value, probability)``
    faces (the probabilities are shares of their total)."""
    keep = max(0, min(keep, n))
    if keep == 0 or not faces:
        return PMF.point(0)
    if keep == 1 and sum(q for _, q in faces) > 0:  # one die: the highest or the lowest (of some chance; any order)
        _check_support(max(0, max(faces)[0]) - min(0, min(faces)[0]) + 1)
        return ranked_die(faces, n, n - 1 if highest else 0)
    return _kept_in_order(sorted(faces, key=lambda f: f[0], reverse=highest), n, keep)


def _kept_in_order(ordered: Sequence[tuple[int, float]], n: int, keep: int) -> PMF:
    """Sum of the scores of the first ``keep`` of ``n`` dice, each showing one of these ``(score, probability)``
    faces listed best first (a die showing a better face is kept before one showing a worse)."""
    vmin = min(v for v, _ in ordered)
    vmax = max(v for v, _ in ordered)
    _check_support(max(0, keep * vmax) - min(0, keep * vmin) + 1)
    WORK.work += keep_sum_cost(len(ordered), n, keep, vmin, vmax).work
    return _ranked_in_order(ordered, n, 0, keep, vmin, vmax)


def _ranks(n: int, lo: int, hi: int) -> tuple[int, int]:
    """The ranks ``lo`` to ``hi - 1`` that ``n`` dice have (an empty window when none)."""
    hi = max(0, min(hi, n))
    return max(0, min(lo, hi)), hi


def window_sum_cost(faces: int, n: int, lo: int, hi: int, vmin: int, vmax: int) -> Cost:
    """Cost of :func:`window_sum`: ``faces`` distinct values from ``vmin`` to ``vmax``, ``n`` dice, the ranks ``lo``
    to ``hi - 1`` (lowest first) kept."""
    lo, hi = _ranks(n, lo, hi)
    if hi == lo or faces == 0:
        return Cost()
    if hi - lo == 1 and _rank_terms(n, lo) <= RANK_TERMS:
        return ranked_die_cost(faces, n, lo, vmin, vmax)
    span = (hi - lo) * (vmax - vmin) + 1
    if _small(faces, n, hi, span):
        return _small_cost(faces, n, hi, span)
    pairs = hi * (hi + 1) / 2 + hi  # each face: one shifted add of one row for each (dice placed, dice showing it)
    return _placing_cost(faces, n, hi, span, pairs * (2 * span + NUMPY_CALL / 4))


def window_sum(faces: Sequence[tuple[int, float]], n: int, lo: int, hi: int) -> PMF:
    """Sum of the dice ranked ``lo`` to ``hi - 1`` (lowest first) among ``n`` independent dice with these ``(value,
    probability)`` faces (the probabilities are shares of their total): :func:`keep_sum` for a window that touches
    neither end (``4d6dl1dh1``)."""
    lo, hi = _ranks(n, lo, hi)
    ordered = sorted(faces, key=lambda f: f[0])
    if hi == lo or not ordered:
        return PMF.point(0)
    if hi - lo == 1 and _rank_terms(n, lo) <= RANK_TERMS and sum(q for _, q in ordered) > 0:  # one die, near an end
        return ranked_die(ordered, n, lo)  # (which checks its support)
    return _window_in_order(ordered, n, lo, hi)


def _window_in_order(ordered: Sequence[tuple[int, float]], n: int, lo: int, hi: int) -> PMF:
    """Sum of the scores of the dice ranked ``lo`` to ``hi - 1`` among ``n``, each showing one of these ``(score,
    probability)`` faces listed lowest rank first."""
    vmin = min(v for v, _ in ordered)
    vmax = max(v for v, _ in ordered)
    _check_support((hi - lo) * (vmax - vmin) + 1)
    WORK.work += window_sum_cost(len(ordered), n, lo, hi, vmin, vmax).work
    return _ranked_in_order(ordered, n, lo, hi, vmin, vmax)


def _ranked_in_order(ordered: Sequence[tuple[int, float]], n: int, lo: int, hi: int, vmin: int, vmax: int) -> PMF:
    """Sum of the scores (from ``vmin`` to ``vmax``) of the dice ranked ``lo`` to ``hi - 1`` among ``n``, each showing
    one of these ``(score, probability)`` faces listed first rank first: on Python floats when small, else a row of
    sums for each count of dice placed (row ``hi``: final, the window's dice all placed)."""
    visited = _visits(ordered, vmin)
    span = (hi - lo) * (vmax - vmin) + 1
    if _small(len(ordered), n, hi, span):
        return PMF.from_floats((hi - lo) * vmin, _ranks_on_floats(visited, n, lo, hi))
    moves = _placing_moves(visited, n, hi)
    state = np.zeros((hi + 1, span))  # the sums less the kept dice's vmin each
    state[0, 0] = 1.0
    for (d, _), move in zip(visited, moves, strict=True):
        new = state * move[:, :1]  # no die shows this face (row hi: stays as it is)
        for j in range(lo):  # rows before the window: the dice placed may fall before it
            if not state[j].any():
                continue
            for c in range(1, hi - j + 1):  # c = hi - j: at least that many
                s = d * max(0, min(j + c, hi) - lo)
                new[j + c, s:] += move[j, c] * state[j, :span - s]
        for c in range(1, hi - lo + 1):  # rows in the window, all at once: c more dice add c scores
            s = c * d
            new[lo + c:, s:] += move[lo:hi + 1 - c, c:c + 1] * state[lo:hi + 1 - c, :span - s]
        state = new
    return PMF((hi - lo) * vmin, state[hi])


def _bands(units: Sequence[tuple[int, int, float]], descending: bool) -> list[tuple[int, float]]:
    """``(score, probability)`` of the faces ``(key, score, probability)`` in key order, each run of keys of one score
    merged into one band (which face of a band a die shows changes neither its rank among the other bands nor its
    score)."""
    bands: list[list[Any]] = []
    for _, score, q in sorted(units, key=lambda u: u[0], reverse=descending):
        if bands and bands[-1][0] == score:
            bands[-1][1] += q
        else:
            bands.append([score, q])
    return [(score, q) for score, q in bands]


def kept_scores_cost(keys: int, bands: int, n: int, lo: int, hi: int, s_lo: int, s_hi: int) -> Cost:
    """Cost of :func:`kept_scores` (at most): ``keys`` keys in at most ``bands`` bands, scores from ``s_lo`` to
    ``s_hi``."""
    lo, hi = _ranks(n, lo, hi)
    cost = Cost(3 * keys * PYTHON_STEP, 2 * keys)
    if lo == 0 or hi == n:
        return cost + keep_sum_cost(bands, n, hi - lo, s_lo, s_hi)
    return cost + window_sum_cost(bands, n, lo, hi, s_lo, s_hi)


def kept_scores(units: Sequence[tuple[int, int, float]], n: int, lo: int, hi: int) -> PMF:
    """Sum of the scores of the dice ranked ``lo`` to ``hi - 1`` (lowest key first) among ``n`` independent dice whose
    faces are ``(key, score, probability)``, one score to a key (a count of successes over the dice kept:
    ``6d100kl4>=76f1``): the order-statistics DP of :func:`keep_sum` / :func:`window_sum` over the bands of keys of
    one score (:func:`_bands`: three for successes and failures), not over every key."""
    lo, hi = _ranks(n, lo, hi)
    if hi == lo or not units:
        return PMF.point(0)
    WORK.work += 3 * len(units) * PYTHON_STEP
    if lo == 0 or hi == n:  # the lowest hi, or the highest n - lo
        return _kept_in_order(_bands(units, lo > 0), n, hi - lo)
    return _window_in_order(_bands(units, False), n, lo, hi)
