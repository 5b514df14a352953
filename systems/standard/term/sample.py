"""Bulk sampling of a dice term: the scores of many throws at once (vectorised)."""

from __future__ import annotations

from functools import partial
from typing import Any

from diceengine.algebra.chains import sample_steps
from diceengine.algebra.draws import window_sums
from diceengine.algebra.rerolls import sample_rank_reroll, sample_reroll
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, MAX_REROLLS

from .faces import window_of
from .scores import base_array, mark_array, score_array, unique_test
from .spec import TermSpec

__all__ = ["draw", "sample"]


def sample(spec: TermSpec, n: int, gen: np.random.Generator) -> np.ndarray:
    """Scores of ``n`` throws of this term (vectorised)."""
    c = spec.count
    if c == 0:
        return np.zeros(n, dtype=np.int64)
    if spec.plain and spec.window is None and c == 1:
        return draw(spec, gen, n)
    values = draw(spec, gen, (n, c))
    if spec.plain:  # the dice at the window's places summed (all of them): the algebra's keep of a sample
        return window_sums(values, spec.window or (0, c), scratch=True)
    return sample_general(spec, values, gen)


def draw(spec: TermSpec, gen: np.random.Generator, size: Any) -> np.ndarray:
    if spec.consecutive:
        lo = spec.faces[0]
        return gen.integers(lo, lo + spec.sides, size=size)
    return spec.faces.take(gen.integers(0, spec.sides, size=size))


def sample_unique(spec: TermSpec, values: np.ndarray, gen: np.random.Generator) -> None:
    c = values.shape[1]
    test = (lambda v: np.ones(v.shape, dtype=bool)) if spec.unique is None else spec.unique.test
    allowed_faces = np.asarray(spec.faces, dtype=np.int64)
    distinct = np.unique(allowed_faces)
    all_must = bool(test(distinct).all())  # no face is free of the rule: the dice can run out of faces
    for j in range(1, c):
        prev = values[:, :j]
        col = values[:, j].copy()
        clash = (prev == col[:, None]).any(axis=1) & test(col)
        if all_must and j >= len(distinct) and not spec.unique_once:
            # every face taken (12dFu): the die keeps its face, as rpg-dice-roller's after its 1000 re-rolls
            ordered = np.sort(prev, axis=1)
            shown = 1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)
            clash &= shown < len(distinct)
        sample_reroll(col, clash, partial(draw, spec, gen), partial(_clashes, prev, test), spec.unique_once,
                      MAX_REROLLS, partial(_draw_free, spec, prev, gen))
        values[:, j] = col


def _clashes(prev: np.ndarray, test: Any, idx: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Which ``new`` faces of the dice of rows ``idx`` a die before them (``prev``) shows, among the faces unique."""
    return (prev[idx] == new[:, None]).any(axis=1) & test(new)


def _draw_free(spec: TermSpec, prev: np.ndarray, gen: np.random.Generator, idx: np.ndarray) -> np.ndarray:
    """For each row ``idx`` of a unique term's dice past the cap: a face drawn among those its dice before (``prev``)
    leave free."""
    out = np.empty(len(idx), dtype=np.int64)
    for k, i in enumerate(idx):
        free = [f for f in spec.faces if not (f in prev[i] and unique_test(spec, f))]  # as a roll's draw_free
        out[k] = free[gen.integers(0, len(free))]
    return out


def sample_general(spec: TermSpec, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    c = values.shape[1]
    if spec.reroll_rank is not None:  # d20's rolN / rahN: nothing else changes the faces (compile_term)
        kind, side, k = spec.reroll_rank
        fresh = draw(spec, gen, (values.shape[0], k))
        return score_array(spec, sample_rank_reroll(values, fresh, kind == "ra", side == "l")).sum(axis=1)
    if spec.reroll is not None:
        allowed, test = spec.allowed, spec.reroll.test
        sample_reroll(values, test(values), partial(draw, spec, gen), lambda _, new: test(new), spec.reroll_once,
                      spec.reroll_cap, lambda idx: allowed.take(gen.integers(0, len(allowed), size=len(idx))))
    if spec.unique_on:
        sample_unique(spec, values, gen)
    counting = spec.success is not None
    per_count = counting and (spec.explode is None or not spec.compound)  # every face counted
    total = values.copy()
    pen = int(spec.penetrate)
    base = partial(base_array, spec)

    if spec.per_die:
        return sample_each_die(spec, values, gen)
    score = base(values) if per_count else None
    marks = mark_array(spec, values) if spec.tally is not None else None  # every face of a unit marked
    if spec.explode is not None:
        for idx, new in sample_steps(values, partial(draw, spec, gen), spec.explode.test, spec.explode_limit,
                                     spec.text):
            total.flat[idx] += new - pen
            if per_count:
                score.flat[idx] += base(new - pen)  # type: ignore[union-attr]
            if marks is not None:
                marks.flat[idx] += mark_array(spec, new - pen)
    if not counting:
        score = total.copy()
    elif not per_count:
        score = base(total)  # compound: the unit's sum counted as one die
    if marks is not None:
        score = score + marks
    assert score is not None
    if spec.selection is not None:
        return np.where(spec.selection.mask(total), score, 0).sum(axis=1)
    if spec.window is not None and spec.keep != c:
        a, b = spec.window
        if b <= a:
            return np.zeros(len(total), dtype=np.int64)
        if marks is None and (not counting or not per_count or spec.explode is None):
            # the score is a function of the unit's total (the total, or its success count): equal totals
            # score alike, so the window's sum needs the kept totals, not a full (stable) sort
            kept = np.partition(total, sorted({a, b - 1}), axis=1)[:, a:b]
            return (base(kept) if counting else kept).sum(axis=1)
        order = np.argsort(total, axis=1, kind="stable")
        return np.take_along_axis(score, order[:, a:b], axis=1).sum(axis=1)
    return score.sum(axis=1)


def sample_each_die(spec: TermSpec, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """explosions="dice" in bulk: every die thrown is a column (padded), keep / drop rank them per row."""
    explode = spec.explode
    assert explode is not None
    pen = int(spec.penetrate)
    blocks, alive_blocks = [values], [np.ones(values.shape, dtype=bool)]
    limit = MAX_EXPLOSIONS if spec.explode_limit is None else spec.explode_limit  # each die's column: no refusal
    for idx, new in sample_steps(values, partial(draw, spec, gen), explode.test, limit, spec.text):
        raw = np.zeros(values.shape, dtype=np.int64)
        raw.flat[idx] = new
        alive = np.zeros(values.shape, dtype=bool)
        alive.flat[idx] = True
        blocks.append(raw - pen)
        alive_blocks.append(alive)
    keys = np.concatenate(blocks, axis=1)
    alive = np.concatenate(alive_blocks, axis=1)
    score = score_array(spec, keys)  # the value or success score, critical marks folded in when tallied
    if spec.selection is not None:
        kept = spec.selection.mask(keys, alive)
        return np.where(kept, score, 0).sum(axis=1)
    big = np.iinfo(np.int64).max
    order = np.argsort(np.where(alive, keys, big), axis=1, kind="stable")
    ranked = np.take_along_axis(np.where(alive, score, 0), order, axis=1)
    count = alive.sum(axis=1)
    # each row's window, read as a roll reads it: a table of window_of by how many dice the row threw
    lo, hi = np.array([window_of(spec.keeps, n) for n in range(keys.shape[1] + 1)]).T[:, count]
    pos = np.arange(keys.shape[1])[None, :]
    return np.where((pos >= lo[:, None]) & (pos < hi[:, None]), ranked, 0).sum(axis=1)
