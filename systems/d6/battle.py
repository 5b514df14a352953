"""The simulated D6 fights (rule text ``000``, :mod:`~diceengine.systems.d6.fight`): many fights of any size at
once as numpy arrays, the duel's draws from exact integer tables."""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..combat import (
    NO_ROLL,
    OutcomeSampler,
    RowDraws,
    TotalSampler,
    first_enemy,
    pairs_status,
    reroll_ties,
)
from .codes import Code
from .fight_setup import NONE, RESULTS, D6Setup, _pmf, after_hit, result_weights
from .fighters import CodeBattle, D6Fighter, resist, rolled, spenders
from .rules import Wound, damage_result

__all__ = ["D6Battle"]

#: penalty rows of a duel's draws: a duel's penalty is 0 to 2 (one stun a round at most, and a wound)
DUEL_PENALTIES = 3


@lru_cache(maxsize=512)
def _row_draws(codes: tuple[Code | None, ...]) -> RowDraws:
    """The totals of these codes by row (``None``: no roll)."""
    return RowDraws([_pmf(c) if c is not None else None for c in codes])


@lru_cache(maxsize=512)
def _hit_results(damage: Code, resists: tuple[Code, ...]) -> OutcomeSampler:
    """The damage result (1 to 4: ``RESULTS``) of a hit of ``damage`` against each resistance code by row: exact
    integer weights where both rolls have them (:func:`result_weights`), else their float chances."""
    return OutcomeSampler([result_weights(damage, code, exact=True) for code in resists], first=int(RESULTS[0]))


class _DuelSide(NamedTuple):
    """One combatant's draws in a duel, by row ``Force point spent * DUEL_PENALTIES + penalty``."""

    attack: RowDraws
    dodge: RowDraws | None  # None: never dodges
    hits: OutcomeSampler  # the result of its hit on the other, by row: the other's Force point spent


def _duel_side(setup: D6Setup, f: D6Fighter, other: D6Fighter) -> _DuelSide:
    forces = (False, True) if setup.force_point != "never" and f.force_points > 0 else (False,)
    other_forces = (False, True) if setup.force_point != "never" and other.force_points > 0 else (False,)
    extra = setup.shot_penalty(f)
    attack = _row_draws(tuple(rolled(f.attack, p + extra, force) for force in forces for p in range(DUEL_PENALTIES)))
    dodge = (_row_draws(tuple(rolled(f.dodge, p + 1, force) for force in forces for p in range(DUEL_PENALTIES)))  # type: ignore[arg-type]
             if setup.dodges(f) else None)
    return _DuelSide(attack, dodge, _hit_results(f.damage, tuple(resist(other, force) for force in other_forces)))


def _at(values: Any, rows: np.ndarray) -> Any:
    """``values[rows]`` of an array, or the number itself."""
    return values[rows] if isinstance(values, np.ndarray) else values


class D6Battle(CodeBattle):
    """``n`` fights of any size: levels, stuns and Force points of every combatant as ``(K, n)`` arrays
    (a combatant's row contiguous; :meth:`out` gives the ``(n, K)`` view)."""

    fights_axis = 1
    #: one against one takes the duel path (two contiguous rows, exact table draws, no per-actor gathers)
    fast_duel = True

    def __init__(self, setup: D6Setup, n: int, gen: np.random.Generator | None = None) -> None:
        super().__init__(setup, n)
        fighters = setup.fighters()
        k = len(fighters)
        self.difficulty = setup.difficulty
        self.level = np.zeros((k, n), dtype=np.int8)
        self.stunned = np.zeros((k, n), dtype=np.int8)
        points = np.array([f.force_points for f in fighters], dtype=np.int8)[:, None]
        if setup.force_point == "never":  # never spent: one column stands for every fight
            self.arrays = ("level", "stunned")
            self.points = points
        else:
            self.arrays = ("level", "stunned", "points")
            self.points = np.repeat(points, n, axis=1)
        self.round = 0
        # rows of the general round's samplers: (fighter, Force point spent, penalty 0 .. depth - 1)
        self.depth = 2 * max(f.attack.dice for f in fighters) + 2
        if k == 2:
            self.duel = (_duel_side(setup, fighters[0], fighters[1]), _duel_side(setup, fighters[1], fighters[0]))
        levels = (Wound.HEALTHY, Wound.WOUNDED, Wound.INCAPACITATED, Wound.MORTALLY_WOUNDED)
        self.after = np.zeros((5, 5), dtype=np.int8)
        for lv in levels:
            self.after[lv, NONE] = lv
            for r in RESULTS:
                self.after[lv, r] = after_hit(lv, r)[0]
        self.after_flat = self.after.ravel()  # level * 5 + result -> level: one flat look-up a fight

    @cached_property
    def table(self) -> np.ndarray:
        """The general round's damage results: ``table[damage, resistance]``."""
        fighters = self.setup.fighters()
        top = max(max(6 * c.dice + max(c.pips, 0) for c in (f.damage, resist(f, True))) for f in fighters)
        return np.array([[int(damage_result(dv, sv)) for sv in range(top + 1)] for dv in range(top + 1)],
                        dtype=np.int8)

    @cached_property
    def attack(self) -> TotalSampler:
        """The general round's attack totals by :meth:`rows`."""
        fighters, d = self.setup.fighters(), self.depth
        return TotalSampler([_pmf(rolled(f.attack, p + self.setup.shot_penalty(f), bool(force)))
                             for f in fighters for force in (0, 1) for p in range(d)])

    @cached_property
    def dodge(self) -> TotalSampler:
        fighters, d = self.setup.fighters(), self.depth
        return TotalSampler([_pmf(rolled(f.dodge, p + 1, bool(force))) if f.dodge is not None else None
                             for f in fighters for force in (0, 1) for p in range(d)])

    @cached_property
    def damage(self) -> TotalSampler:
        return TotalSampler([_pmf(f.damage) for f in self.setup.fighters()])

    @cached_property
    def resist(self) -> TotalSampler:
        return TotalSampler([_pmf(resist(f, bool(force))) for f in self.setup.fighters() for force in (0, 1)])

    def out(self) -> np.ndarray:
        return (self.level >= Wound.INCAPACITATED).T

    def _spend(self) -> Any:
        """Who relies on the Force this round (the policy), their points spent: ``(K, n)`` 0 or 1
        (the number 0 when nobody can)."""
        self.round += 1
        policy = self.setup.force_point
        if policy == "never" or not self.points.any():
            return 0
        spend = spenders(policy, self.points, self.level == Wound.WOUNDED, self.round == 1)
        self.points -= spend
        return spend.view(np.int8)

    def _duel_step(self, gen: np.random.Generator) -> None:
        """One round of one-against-one fights (both standing): the same rules as :meth:`step`."""
        n = self.n
        level, stunned = self.level, self.stunned
        force = self._spend()
        fa, fb = (force[0], force[1]) if isinstance(force, np.ndarray) else (0, 0)
        # draws by row (Force point spent * DUEL_PENALTIES + penalty: a stun of the last round, a wound)
        ra = stunned[0] + (level[0] == Wound.WOUNDED)
        rb = stunned[1] + (level[1] == Wound.WOUNDED)
        if isinstance(force, np.ndarray):
            ra += DUEL_PENALTIES * fa
            rb += DUEL_PENALTIES * fb
        A, B = self.duel
        xa = A.attack(ra, n, gen)
        xb = B.attack(rb, n, gen)
        if self.tie == "reroll":
            reroll_ties(xa, xb, lambda rows: (A.attack(ra[rows], len(rows), gen), B.attack(rb[rows], len(rows), gen)))
        a_first = (xa >= xb) if self.tie == "actor" else (xa > xb)
        # the shot hits at the difficulty, plus the target's dodge roll when it dodges
        need_a: Any = self.difficulty
        need_b: Any = self.difficulty
        if B.dodge is not None:
            need_a = self.difficulty + np.maximum(B.dodge(rb, n, gen), 0)
        if A.dodge is not None:
            need_b = self.difficulty + np.maximum(A.dodge(ra, n, gen), 0)
        on_b = np.zeros(n, dtype=np.int8)
        on_a = np.zeros(n, dtype=np.int8)
        hit = np.flatnonzero(xa >= need_a)
        if len(hit):
            on_b[hit] = A.hits(_at(fb, hit), len(hit), gen)
        hit = np.flatnonzero(xb >= need_b)
        if len(hit):
            on_a[hit] = B.hits(_at(fa, hit), len(hit), gen)
        # the second to act does nothing more once wounded (or worse) by the first (NONE is 0)
        on_a *= ~(a_first & (on_b >= Wound.WOUNDED))
        on_b *= a_first | (on_a < Wound.WOUNDED)
        for who, on in ((0, on_a), (1, on_b)):
            at = level[who] * np.int8(5)
            at += on
            np.take(self.after_flat, at, out=level[who])
            np.equal(on, Wound.STUNNED, out=stunned[who])

    def status(self) -> np.ndarray:
        if self.level.shape[0] == 2:
            return pairs_status(self.level[0] < Wound.INCAPACITATED, self.level[1] < Wound.INCAPACITATED)
        return super().status()

    def step(self, gen: np.random.Generator) -> None:
        k, n = self.level.shape
        if k == 2 and self.fast_duel:
            return self._duel_step(gen)
        force = self._spend()
        force = force.T if isinstance(force, np.ndarray) else np.zeros((n, k), dtype=np.int64)
        out = self.out()
        level = self.level.T  # (n, K) views: writes go to the battle's arrays
        pen = (self.stunned.T + (level == Wound.WOUNDED)).astype(np.int64)
        who = np.arange(k)[None, :]
        attack = self.initiative(self.attack, force, pen, out, gen)
        dodge = self.dodge(self.rows(who, force, pen).ravel(), gen).reshape(n, k) if self.dodges.any() else None
        order = self.acting_order(attack, gen)
        stopped = out.copy()
        stuns = np.zeros_like(self.stunned)
        stunned = stuns.T
        rows = np.arange(n)
        for j in range(k):
            actor = order[:, j]
            acts = ~stopped[rows, actor] & (attack[rows, actor] > NO_ROLL)
            has, target = first_enemy(level < Wound.INCAPACITATED, self.side, self.side[actor])
            acts &= has
            sel, who_, tgt = rows[acts], actor[acts], target[acts]
            need = self.difficulty + (np.where(dodge[sel, tgt] > NO_ROLL, dodge[sel, tgt], 0)
                                      if dodge is not None else 0)
            hit = attack[sel, who_] >= need
            sel, who_, tgt = sel[hit], who_[hit], tgt[hit]
            dmg = self.damage(who_, gen)
            res = self.table[dmg, self.resist(tgt * 2 + force[sel, tgt], gen)]
            level[sel, tgt] = self.after[level[sel, tgt], res]
            stunned[sel, tgt] += res == Wound.STUNNED
            stopped[sel, tgt] |= res >= Wound.WOUNDED
        self.stunned = stuns
        return None
