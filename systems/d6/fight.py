"""Fights under classic D6 (rule text ``000``): the ``d6`` system's combat rules for the fights layer.

An encounter's ``[d6]`` table: ``range`` (``point_blank`` 5, ``short`` 10, ``medium`` 15, ``long`` 20,
or a number), the ``dodge`` policy, and the sides ``a`` and ``b``; each combatant has ``name``,
``attack`` (the weapon skill code), ``dodge`` (code, optional), ``strength``, ``damage`` (the weapon's
damage code), ``armour`` (a code added to the Strength roll against damage, default none) and
``player`` (a player character wins tied initiative against a non-player character) and
``force_points``.

A round, as text ``000`` plays it:

- everyone shoots once; the attack rolls also decide who acts first (higher first; a tie goes to the
  player character against an NPC, two of a kind roll again);
- the attack hits when it is at least the range difficulty, plus the target's dodge roll when the
  target dodges. Policy ``dodge``: ``"never"``, no dodge; ``"always"``, the character declares a shot
  and a dodge every round, so both rolls lose 1D (the reading of text ``003``, whose multiple-action
  penalty falls on « TOUTES les actions du round », a reaction being one more action);
  ``"reaction"``, text ``000``'s reaction skill: the dodge is not declared, it counts as one more use
  from the moment it is made (« toutes celles que vous avez employées avant d'esquiver ne sont pas
  affectées, mais tous les jets de dés effectués après le seront »). A round's one shot is fired
  before the dodge (the character shoots, then dodges in the same segment: « vous pouvez esquiver et
  accomplir une autre action au cours d'un même segment »), so the shot keeps its full code and only
  the dodge loses 1D. Text ``002`` reads the same way (« l'augmentation du malus d'actions multiples
  pour le restant du round »); text ``000`` supports ``"reaction"``, text ``003`` ``"always"``;
- a hit rolls damage against the target's Strength (plus armour; never modified), read by
  :func:`~diceengine.systems.d6.damage_result` and stacked by :class:`~diceengine.systems.d6.Health`;
- a wounded, incapacitated or mortally wounded character does nothing more this round (a stunned
  one still fires: the roll was already made); a stun costs 1D for the next round, a wound 1D until
  healed; an incapacitated or mortally wounded character is out of the fight;
- each attacker fires at the first enemy still standing, in the order of the file;
- policy ``force_point``: when a character with Force points left relies on the Force (``"never"``,
  ``"first_round"``, ``"when_wounded"``: at the start of a round begun wounded); for that round every
  skill and attribute code is doubled before the penalties (the attack, the dodge, and the Strength
  roll against damage, as Roark's is), not the weapon's damage.

A code reduced to 0D by penalties cannot be rolled: that character cannot shoot (or dodge) this
round. Exact odds need one combatant a side; skirmishes are simulated.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property, lru_cache
from typing import Any, Literal, NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from diceengine.fights.rules import Duel, FightRules

from ..combat import (
    MAX_SIDE,
    NO_ROLL,
    ArrayBattle,
    OutcomeSampler,
    RowDraws,
    TotalSampler,
    exact_weights,
    first_enemy,
    memo,
    pairs_status,
    reroll_ties,
    status_of,
)
from .codes import Code
from .fighters import (  # the fighter model this combat shares with the Wild Die's (re-exported)
    FORCE_POLICIES,  # noqa: F401
    MAX_FORCE_POINTS,  # noqa: F401
    D6Fighter,
    code_pmf,
    range_difficulty,
    relies_on_force,
    resist,
    rolled,
)
from .rules import Health, Wound, damage_result
from .shared import RANGE_DIFFICULTIES, tie_winner

__all__ = ["RESULTS", "D6Fight", "D6Fighter", "D6Setup", "round_outcomes"]

SYSTEM = "d6"
#: damage results a hit can give, in order
RESULTS = (Wound.STUNNED, Wound.WOUNDED, Wound.INCAPACITATED, Wound.MORTALLY_WOUNDED)
NONE = 0  # no hit this round


class D6Setup(BaseModel):
    """An encounter in classic D6 terms."""

    model_config = ConfigDict(extra="forbid")

    a: list[D6Fighter] = Field(min_length=1, max_length=MAX_SIDE)
    b: list[D6Fighter] = Field(min_length=1, max_length=MAX_SIDE)
    range: str | int = "short"
    dodge: Literal["never", "always", "reaction"] = "never"
    force_point: Literal["never", "first_round", "when_wounded"] = "never"

    @field_validator("range")
    @classmethod
    def _range(cls, value: str | int) -> str | int:
        range_difficulty(value, RANGE_DIFFICULTIES)
        return value

    def spends(self, level: int, points: int, opening: bool) -> bool:
        """Whether a character with ``points`` Force points left spends one at the start of a round."""
        return relies_on_force(self.force_point, level == Wound.WOUNDED, points, opening)

    @property
    def difficulty(self) -> int:
        return range_difficulty(self.range, RANGE_DIFFICULTIES)

    def fighters(self) -> list[D6Fighter]:
        return list(self.a) + list(self.b)

    def dodges(self, f: D6Fighter) -> bool:
        return self.dodge != "never" and f.dodge is not None

    def shot_penalty(self, f: D6Fighter) -> int:
        """Dice the shot loses to the dodge: 1 when declared with it (``"always"``), none when the dodge
        is a reaction made after the shot (``"reaction"``, text ``000``)."""
        return int(self.dodge == "always" and f.dodge is not None)


@lru_cache(maxsize=4096)
def _pmf(code: Code) -> tuple[np.ndarray, np.ndarray] | None:
    return code_pmf(code, SYSTEM)


@lru_cache(maxsize=1024)
def result_chances(damage: Code, resist: Code) -> np.ndarray:
    """Exact chance of each damage result (``RESULTS`` order) of a hit: the damage roll against the
    Strength roll (plus armour), read by :func:`damage_result`."""
    dv, dp = _pmf(damage)  # type: ignore[misc]
    sv, sp = _pmf(resist)  # type: ignore[misc]
    out = np.zeros(len(RESULTS))
    for i, d in enumerate(dv.tolist()):
        for j, s in enumerate(sv.tolist()):
            out[RESULTS.index(damage_result(d, s))] += dp[i] * sp[j]
    return out / out.sum()


def after_hit(level: int, result: int) -> tuple[int, int]:
    """``(level, stunned this round)`` after a round's damage result (``NONE``: not hit), by
    :meth:`Health.hit`; a stun passes, so the level keeps only the lasting wounds."""
    if result == NONE:
        return level, 0
    state = Health(Wound(level)).hit(Wound(result)).state
    return (Wound.HEALTHY if state == Wound.STUNNED else int(state)), int(result == Wound.STUNNED)


def penalty(level: int, stunned: int) -> int:
    """Dice lost on skill rolls at the start of a round: stuns of the last round, and a wound."""
    return Health(Wound(level), stunned).penalty


class _Side:
    """One combatant's rolls by penalty, for the exact chain."""

    def __init__(self, f: D6Fighter, dodges: bool, extra: int) -> None:
        self.f = f
        self.dodges = dodges
        self.extra = extra  # dice the shot loses to a declared dodge

    @memo
    def attack(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray]:
        pmf = _pmf(rolled(self.f.attack, pen + self.extra, force))
        return pmf if pmf is not None else (np.array([NO_ROLL]), np.array([1.0]))

    @memo
    def dodge_cdf(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray] | None:
        """``(values, P(dodge <= value))``; ``None``: no dodge."""
        if not self.dodges:
            return None
        pmf = _pmf(rolled(self.f.dodge, pen + 1, force))  # type: ignore[arg-type]
        if pmf is None:
            return None
        return pmf[0], np.cumsum(pmf[1])


def hit_chance(attack_values: np.ndarray, difficulty: int, dodge: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """P(hit | attack total) for each total: total >= difficulty (+ the dodge roll, added)."""
    if dodge is None:
        return (attack_values >= difficulty).astype(np.float64)
    values, cdf = dodge
    idx = np.searchsorted(values, attack_values - difficulty, side="right") - 1
    return np.where(idx >= 0, cdf[np.clip(idx, 0, len(cdf) - 1)], 0.0)


def round_outcomes(first_hits: np.ndarray, second_hits: np.ndarray, weights: np.ndarray,
                   first_results: np.ndarray, second_results: np.ndarray) -> dict[tuple[int, int], float]:
    """``{(result on the first actor, result on the second actor): chance}`` of a round where the
    first actor fires, then the second fires unless the first's hit wounded it or worse.
    ``weights[i, j]``: chance of first total ``i`` and second total ``j`` with this order."""
    both = float(first_hits @ weights @ second_hits)
    first_only = float(first_hits @ weights @ (1 - second_hits))
    second_only = float((1 - first_hits) @ weights @ second_hits)
    neither = float((1 - first_hits) @ weights @ (1 - second_hits))
    out: dict[tuple[int, int], float] = {}

    def add(key: tuple[int, int], p: float) -> None:
        if p > 0:
            out[key] = out.get(key, 0.0) + p

    add((NONE, NONE), neither)
    stun = first_results[0]
    add((NONE, int(Wound.STUNNED)), first_only * stun)
    for k, r in enumerate(RESULTS):
        add((int(r), NONE), second_only * second_results[k])
        add((int(r), int(Wound.STUNNED)), both * stun * second_results[k])
    for k, r in enumerate(RESULTS[1:], start=1):
        add((NONE, int(r)), (both + first_only) * first_results[k])
    return out


class D6Duel(Duel):
    """The exact chain: a state is ``((level, stunned, Force points left) of a, the same of b, first
    round)``."""

    def __init__(self, setup: D6Setup) -> None:
        fa, fb = setup.a[0], setup.b[0]
        self.setup = setup
        self.fighters = (fa, fb)
        self.sides = (_Side(fa, setup.dodges(fa), setup.shot_penalty(fa)),
                      _Side(fb, setup.dodges(fb), setup.shot_penalty(fb)))
        self.difficulty = setup.difficulty
        self.tie = tie_winner(fa.player, fb.player)

    def start(self) -> dict[Hashable, float]:
        fa, fb = self.fighters
        return {((0, 0, fa.force_points), (0, 0, fb.force_points), True): 1.0}

    def status(self, state: Any) -> int:
        (la, _, _), (lb, _, _), _ = state
        return status_of(la >= Wound.INCAPACITATED, lb >= Wound.INCAPACITATED)

    @memo
    def results(self, attacker: int, force: bool) -> np.ndarray:
        """Damage results of ``attacker``'s hit on the other (who relies on the Force or not)."""
        return result_chances(self.fighters[attacker].damage, resist(self.fighters[1 - attacker], force))

    def advance(self, state: Any) -> dict[Hashable, float]:
        (la, sa, fpa), (lb, sb, fpb), opening = state
        force_a = self.setup.spends(la, fpa, opening)
        force_b = self.setup.spends(lb, fpb, opening)
        pa, pb = penalty(la, sa), penalty(lb, sb)
        A, B = self.sides
        xa, wa = A.attack(pa, force_a)
        xb, wb = B.attack(pb, force_b)
        hit_a = hit_chance(xa, self.difficulty, B.dodge_cdf(pb, force_b))
        hit_b = hit_chance(xb, self.difficulty, A.dodge_cdf(pa, force_a))
        on_b_chances, on_a_chances = self.results(0, force_b), self.results(1, force_a)
        joint = np.outer(wa, wb)
        a_first = xa[:, None] > xb[None, :]
        b_first = xa[:, None] < xb[None, :]
        tie = ~(a_first | b_first) & (xa[:, None] > NO_ROLL)
        if self.tie == "actor":
            a_first |= tie
        elif self.tie == "opponent":
            b_first |= tie
        else:  # tied initiative is rolled again: the rolls are those of a round without a tie
            no_tie = float(joint[~tie].sum())
            joint = np.where(tie, 0.0, joint) / no_tie if no_tie > 0 else joint
        a_lead = round_outcomes(hit_a, hit_b, joint * a_first, on_b_chances, on_a_chances)
        b_lead = round_outcomes(hit_b, hit_a, (joint * b_first).T, on_a_chances, on_b_chances)
        nobody = float(joint[~(a_first | b_first)].sum())
        out: dict[Hashable, float] = {}
        moves = list(a_lead.items())  # (result on a, result on b)
        moves += [((on_a, on_b), p) for (on_b, on_a), p in b_lead.items()]
        if nobody > 0:
            moves.append(((NONE, NONE), nobody))
        left_a, left_b = fpa - int(force_a), fpb - int(force_b)
        for (on_a, on_b), p in moves:
            key = ((*after_hit(la, on_a), left_a), (*after_hit(lb, on_b), left_b), False)
            out[key] = out.get(key, 0.0) + p
        return out


#: penalty rows of a duel's draws: a duel's penalty is 0 to 2 (one stun a round at most, and a wound)
DUEL_PENALTIES = 3


@lru_cache(maxsize=512)
def _row_draws(codes: tuple[Code | None, ...]) -> RowDraws:
    """The totals of these codes by row (``None``: no roll)."""
    return RowDraws([_pmf(c) if c is not None else None for c in codes])


@lru_cache(maxsize=512)
def _hit_results(damage: Code, resists: tuple[Code, ...]) -> OutcomeSampler:
    """The damage result (1 to 4: ``RESULTS``) of a hit of ``damage`` against each resistance code by
    row: both rolls' totals enumerated through :func:`damage_result`, with integer weights when both
    distributions have them (exact), else their float chances."""
    dv, dp = _pmf(damage)  # type: ignore[misc]
    dw = exact_weights(dp)
    rows: list[list[Any]] = []
    for code in resists:
        sv, sp = _pmf(code)  # type: ignore[misc]
        sw = exact_weights(sp)
        weights = [dw[0].tolist(), sw[0].tolist()] if dw is not None and sw is not None else [dp.tolist(), sp.tolist()]
        row: list[Any] = [0] * len(RESULTS)
        for d, x in zip(dv.tolist(), weights[0]):
            for v, y in zip(sv.tolist(), weights[1]):
                row[int(damage_result(d, v)) - 1] += x * y
        rows.append(row)
    return OutcomeSampler(rows, first=int(RESULTS[0]))


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


class D6Battle(ArrayBattle):
    """``n`` fights of any size: levels, stuns and Force points of every combatant as ``(K, n)`` arrays
    (a combatant's row contiguous; :meth:`out` gives the ``(n, K)`` view)."""

    fights_axis = 1
    #: one against one takes the duel path (two contiguous rows, exact table draws, no per-actor gathers)
    fast_duel = True

    def __init__(self, setup: D6Setup, n: int) -> None:
        fighters = setup.fighters()
        k = len(fighters)
        super().__init__(np.array([0] * len(setup.a) + [1] * len(setup.b)), n)
        self.setup = setup
        self.difficulty = setup.difficulty
        self.player = np.array([f.player for f in fighters])
        self.dodges = np.array([setup.dodges(f) for f in fighters])
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
        self.tie = tie_winner(bool(self.player[0]), bool(self.player[-1])) if k == 2 else "random"

    @cached_property
    def table(self) -> np.ndarray:
        """The general round's damage results: ``table[damage, resistance]``."""
        fighters = self.setup.fighters()
        top = max(max(6 * c.dice + max(c.pips, 0) for c in (f.damage, resist(f, True))) for f in fighters)
        return np.array([[int(damage_result(dv, sv)) for sv in range(top + 1)] for dv in range(top + 1)],
                        dtype=np.int8)

    @cached_property
    def attack(self) -> TotalSampler:
        """The general round's attack totals by :meth:`_rows`."""
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

    def _rows(self, who: Any, force: Any, pen: np.ndarray) -> np.ndarray:
        return ((who * 2 + force) * self.depth + np.minimum(pen, self.depth - 1)).astype(np.int64)

    def _spend(self) -> Any:
        """Who relies on the Force this round (the policy), their points spent: ``(K, n)`` 0 or 1
        (the number 0 when nobody can)."""
        self.round += 1
        policy = self.setup.force_point
        if policy == "never" or not self.points.any():
            return 0
        when = (self.level == Wound.WOUNDED) if policy == "when_wounded" else np.full(self.level.shape, self.round == 1)
        spend = (self.points > 0) & when
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
        attack = self.attack(self._rows(who, force, pen).ravel(), gen).reshape(n, k)
        attack[out] = NO_ROLL
        if self.tie == "reroll":
            def again(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
                rolls = self.attack(self._rows(who, force[rows], pen[rows]).ravel(), gen).reshape(len(rows), k)
                rolls[out[rows]] = NO_ROLL
                return rolls[:, 0], rolls[:, 1]

            reroll_ties(attack[:, 0], attack[:, 1], again)
        dodge = self.dodge(self._rows(who, force, pen).ravel(), gen).reshape(n, k) if self.dodges.any() else None
        key = attack + 0.5 * self.player[None, :] + 0.25 * gen.random((n, k))
        order = np.argsort(-key, axis=1)
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


class D6Fight(FightRules):
    """Classic D6 combat (text ``000``)."""

    setup_model = D6Setup

    def duel(self, setup: D6Setup) -> Duel:
        return D6Duel(setup)

    def battle(self, setup: D6Setup, n: int, gen: np.random.Generator) -> D6Battle:
        return D6Battle(setup, n)


#: the ruleset's combat, found by :meth:`diceengine.registry.System.fight_rules`
FIGHT_RULES = D6Fight
