"""Bulk sampling of a dice term: the scores of many throws at once (vectorised)."""

from __future__ import annotations

from typing import Any

import numpy as np

from diceengine.errors import DiceLimitError
from diceengine.limits import MAX_EXPLOSIONS, MAX_REROLLS

from .faces import TermBase


class TermSample(TermBase):
    """A dice term sampled in bulk (a part of :class:`~._dice_terms.DiceTerm`)."""

    def _draw(self, gen: np.random.Generator, size: Any) -> np.ndarray:
        if self.consecutive:
            lo = self.faces[0]
            return gen.integers(lo, lo + self.sides, size=size)
        return self.faces.take(gen.integers(0, self.sides, size=size))

    def sample(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """Scores of ``n`` throws of this term (vectorised)."""
        c = self.count
        if c == 0:
            return np.zeros(n, dtype=np.int64)
        if self.plain and self.window is None:
            if c == 1:
                return self._draw(gen, n)
            return self._draw(gen, (n, c)).sum(axis=1)
        values = self._draw(gen, (n, c))
        if self.plain:
            a, b = self.window  # type: ignore[misc]
            if b - a == 0:
                return np.zeros(n, dtype=np.int64)
            if b - a >= c:
                return values.sum(axis=1)
            if b - a == c - 1:
                drop = values.min(axis=1) if a else values.max(axis=1)
                return values.sum(axis=1) - drop
            values.sort(axis=1)
            return values[:, a:b].sum(axis=1)
        return self._sample_general(values, gen)

    def _sample_each_die(self, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        return _sample_each_die_impl(self, values, gen)

    def _sample_unique(self, values: np.ndarray, gen: np.random.Generator) -> None:
        rows, c = values.shape
        test = (lambda v: np.ones(v.shape, dtype=bool)) if self.unique is None else self.unique.test
        allowed_faces = np.asarray(self.faces, dtype=np.int64)
        for j in range(1, c):
            prev = values[:, :j]
            col = values[:, j].copy()
            clash = (prev == col[:, None]).any(axis=1) & test(col)
            tries = 0
            while clash.any():
                idx = np.flatnonzero(clash)
                tries += 1
                if tries > MAX_REROLLS:  # draw among the free faces directly (same distribution)
                    for i in idx:
                        free = [f for f in allowed_faces if not (f in prev[i] and test(np.array(f)))]
                        col[i] = free[gen.integers(0, len(free))]
                    break
                col[idx] = self._draw(gen, len(idx))
                if self.unique_once:
                    break
                clash = np.zeros(rows, dtype=bool)
                clash[idx] = (prev[idx] == col[idx][:, None]).any(axis=1) & test(col[idx])
            values[:, j] = col

    def _sample_general(self, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        c = values.shape[1]
        if self.reroll is not None:
            mask = self.reroll.test(values)
            allowed = self.allowed
            tries = 0
            while mask.any():
                idx = np.flatnonzero(mask)
                tries += 1
                if tries > self.reroll_cap:
                    values.flat[idx] = allowed.take(gen.integers(0, len(allowed), size=len(idx)))
                    break
                new = self._draw(gen, len(idx))
                values.flat[idx] = new
                if self.reroll_once:
                    break
                mask = np.zeros_like(mask)
                mask.flat[idx] = self.reroll.test(new)
        if self.unique_on:
            self._sample_unique(values, gen)
        counting = self.success is not None
        per_count = counting and (self.explode is None or not self.compound)  # every face counted
        total = values.copy()
        pen = int(self.penetrate)
        base = self._base_array

        if self.per_die:
            return self._sample_each_die(values, gen)
        score = base(values) if per_count else None
        marks = self._mark_array(values) if self.tally is not None else None  # every face of a unit marked
        if self.explode is not None:
            active = self.explode.test(values)
            depth = 0
            limit = MAX_EXPLOSIONS if self.explode_limit is None else self.explode_limit
            while active.any():
                depth += 1
                if depth > limit:
                    if self.explode_limit is not None:
                        break
                    raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                idx = np.flatnonzero(active)
                new = self._draw(gen, len(idx))
                total.flat[idx] += new - pen
                if per_count:
                    score.flat[idx] += base(new - pen)  # type: ignore[union-attr]
                if marks is not None:
                    marks.flat[idx] += self._mark_array(new - pen)
                active = np.zeros_like(active)
                active.flat[idx] = self.explode.test(new)
        if not counting:
            score = total.copy()
        elif not per_count:
            score = base(total)  # compound: the unit's sum counted as one die
        if marks is not None:
            score = score + marks
        assert score is not None
        if self.selection is not None:
            return np.where(self.selection.mask(total), score, 0).sum(axis=1)
        if self.window is not None and self.keep != c:
            a, b = self.window
            order = np.argsort(total, axis=1, kind="stable")
            return np.take_along_axis(score, order[:, a:b], axis=1).sum(axis=1)
        return score.sum(axis=1)


def _sample_each_die_impl(term: TermSample, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """explosions="dice" in bulk: every die thrown is a column (padded), keep / drop rank them per row."""
    explode = term.explode
    assert explode is not None
    pen = int(term.penetrate)
    blocks, alive_blocks = [values], [np.ones(values.shape, dtype=bool)]
    active = explode.test(values)
    depth = 0
    limit = MAX_EXPLOSIONS if term.explode_limit is None else term.explode_limit
    while active.any() and depth < limit:
        depth += 1
        raw = np.zeros(values.shape, dtype=np.int64)
        idx = np.flatnonzero(active)
        raw.flat[idx] = term._draw(gen, len(idx))
        blocks.append(raw - pen)
        alive_blocks.append(active.copy())
        active = active & explode.test(raw)
    keys = np.concatenate(blocks, axis=1)
    alive = np.concatenate(alive_blocks, axis=1)
    score = term._score_array(keys)  # the value or success score, critical marks folded in when tallied
    if term.selection is not None:
        kept = term.selection.mask(keys, alive)
        return np.where(kept, score, 0).sum(axis=1)
    big = np.iinfo(np.int64).max
    order = np.argsort(np.where(alive, keys, big), axis=1, kind="stable")
    ranked = np.take_along_axis(np.where(alive, score, 0), order, axis=1)
    count = alive.sum(axis=1)
    lo, hi = np.zeros_like(count), count.copy()
    for k in term.keeps:
        n = np.minimum(k.n, count)
        if k.kind == "kh":
            lo = np.maximum(lo, count - n)
        elif k.kind == "kl":
            hi = np.minimum(hi, n)
        elif k.kind == "dh":
            hi = np.minimum(hi, count - n)
        else:
            lo = np.maximum(lo, n)
    pos = np.arange(keys.shape[1])[None, :]
    return np.where((pos >= lo[:, None]) & (pos < hi[:, None]), ranked, 0).sum(axis=1)
