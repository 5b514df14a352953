"""A re-roll, written once for its three interpretations: a die thrown again while it shows a face the re-roll
names, once (a depth of 1: ``ro``), or until it shows another (``r``: a roll records at most ``cap`` re-rolled
faces, then draws the face kept among the faces not re-rolled, which has the same distribution).

- :func:`roll_reroll`: one die's face kept and the faces it threw away (the text shows them);
- :func:`sample_reroll`: many dice re-rolled in place (numpy), the same rounds and cap as a roll;
- :func:`reroll_masses`: the exact chances of the face kept, and :func:`expected_rerolls`, how many re-rolls a die
  makes on average (what a roll's bound on throws reads).

:meth:`~diceengine.algebra.Die.reroll` reads the masses; the standard notation's dice term reads all three (its
``r`` / ``ro`` points, and unique dice, a re-roll whose test is the faces already shown); d20's re-rolls of ranks
(``rolN`` / ``rahN``) choose their dice here too (:func:`rank_choice` in a roll, :func:`ranks_left` in a sample
and the exact odds)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from diceengine.errors import DiceValueError
from diceengine.lazy import np

from ..i18n import N_

__all__ = ["expected_rerolls", "rank_choice", "ranks_left", "reroll_masses", "roll_reroll", "sample_rank_reroll",
           "sample_reroll"]


def roll_reroll(face: int, draw: Callable[[], int], rerolls: Callable[[int], bool], once: bool, cap: int,
                draw_kept: Callable[[], int]) -> tuple[int, list[int]]:
    """``(face kept, faces re-rolled)`` of one die that showed ``face``: each face ``rerolls`` names is thrown away
    and ``draw()`` throws again; ``once``: one throw more, whatever it shows; else until a face is kept, after
    ``cap`` faces thrown away the kept one being ``draw_kept()`` (a draw among the faces kept)."""
    gone: list[int] = []
    while rerolls(face):
        gone.append(face)
        if once:
            return draw(), gone
        if len(gone) >= cap:
            return draw_kept(), gone
        face = draw()
    return face, gone


def sample_reroll(values: np.ndarray, hit: np.ndarray, draw: Callable[[int], np.ndarray],
                  again: Callable[[np.ndarray, np.ndarray], np.ndarray], once: bool, cap: int,
                  draw_kept: Callable[[np.ndarray], np.ndarray]) -> None:
    """:func:`roll_reroll` of many dice at once, in place: ``values`` (any shape) the faces shown, ``hit`` (a mask
    of the same shape) the dice re-rolled; each round throws them again (``draw(k)``) and ``again(indices, new)``
    says which of the new faces are re-rolled in turn (``indices`` flat in ``values``); ``once``: one round; a die
    whose ``cap``-th face is re-rolled takes ``draw_kept(indices)`` instead of a throw, as in a roll."""
    rounds = 0
    while hit.any():
        idx = np.flatnonzero(hit)
        rounds += 1
        if not once and rounds >= cap:
            values.flat[idx] = draw_kept(idx)
            return
        new = draw(len(idx))
        values.flat[idx] = new
        if once:
            return
        hit = np.zeros(hit.shape, dtype=bool)
        hit.flat[idx] = again(idx, new)


def reroll_masses(p: Any, hit: Any, depth: int | None) -> Any:
    """The chances of the face one die keeps, from the chances ``p`` of its faces and ``hit``, which of them are
    re-rolled: at most ``depth`` re-rolls (the last throw stands), None: until a face is kept (the chances of the
    faces kept, made whole; refused when every face is re-rolled). ``p`` and ``hit`` are numpy arrays, or lists (a
    small support, worked in Python floats: after a full collection each numpy routine costs tens of µs the first
    time it runs), and the answer is of the same kind."""
    miss: Any
    if isinstance(p, np.ndarray):
        miss = np.where(hit, 0.0, p)
        q, left = float(p[hit].sum()), float(miss.sum())
    else:
        miss = [0.0 if h else x for x, h in zip(p, hit)]
        q, left = sum(x for x, h in zip(p, hit) if h), sum(miss)
    kept, every = _weights(q, left, depth)
    if isinstance(p, np.ndarray):
        return miss * kept + p * every if every else miss * kept
    return [m * kept + x * every for m, x in zip(miss, p)]


def _weights(q: float, left: float, depth: int | None) -> tuple[float, float]:
    """``(kept, every)``: a face's chance after the re-rolls is ``kept`` times its chance if it is not re-rolled,
    plus ``every`` times its chance (``q``: the chance of a throw re-rolled, ``left``: of one kept)."""
    if depth is None:
        if left <= 1e-15 * max(q, 1.0):
            raise DiceValueError(N_("every face is re-rolled: the die never stops"))
        return 1 / left, 0.0
    # after k throws that hit, the (k+1)-th stands unless another re-roll is allowed
    return ((1 - q ** depth) / (1 - q) if q < 1 else depth), q ** depth


def expected_rerolls(q: float, depth: int) -> float:
    """Re-rolls one die makes on average when a throw is re-rolled with chance ``q``, at most ``depth`` of them
    (a roll's ``cap``; 1: once)."""
    return q * (1 - q ** depth) / (1 - q) if q < 1 else float(depth)


def rank_choice(keys: Sequence[int], lowest: bool, n: int) -> list[int]:
    """The dice (indices into ``keys``, their faces) a re-roll of ranks chooses: the ``n`` lowest, else highest; of
    equal faces the earlier thrown."""
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=not lowest)[:n]


def ranks_left(added: bool, lowest: bool, k: int, count: int) -> tuple[int, int]:
    """The ranks (lowest first, ``[lo, hi)``) of the ``count`` dice a re-roll of ranks leaves as thrown: all of them
    when it adds a die (``added``: d20's ``ra``), else all but the ``k`` lowest (or highest), thrown again once."""
    if added:
        return 0, count
    return (k, count) if lowest else (0, count - k)


def sample_rank_reroll(values: np.ndarray, fresh: np.ndarray, added: bool, lowest: bool) -> np.ndarray:
    """:func:`rank_choice` in bulk: each row of ``values`` (sorted in place) without the dice re-rolled, then the
    row of ``fresh`` (their new faces, or the die added: :func:`ranks_left`)."""
    values.sort(axis=1)
    lo, hi = ranks_left(added, lowest, fresh.shape[1], values.shape[1])
    return np.concatenate([values[:, lo:hi], fresh], axis=1)
