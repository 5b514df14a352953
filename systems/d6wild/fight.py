"""Fights under D6 with the Wild Die (rule text ``003``): the ``d6wild`` system's combat rules.

An encounter's ``[d6wild]`` table: ``range`` (a difficulty: ``very_easy`` 5 ... ``heroic`` 30, the
range names ``point_blank`` / ``short`` / ``medium`` / ``long``, or a number), the ``dodge`` policy,
``reaction`` (how a dodge changes the attacker's difficulty: ``"replace"``, the 2nd-edition reading of
text ``002``, or ``"add"``, text ``000``), ``complication`` (the Wild Die option for every roll), and
the sides ``a`` and ``b``; each combatant has ``name``, ``attack``, ``dodge`` (optional),
``perception`` (initiative), ``strength``, ``damage``, ``armour`` (a code added to the Strength roll,
as the text allows) and ``player``.

Every roll throws a Wild Die (exact distributions of the ``d6wild`` system). A round, as text ``003``
plays it:

- the Perception rolls say who acts first (ties: the player character first; two of a kind roll
  again); wounds and last round's stuns lower them as they lower every action;
- each attacker fires once at the first enemy still standing; policy ``dodge = "always"``: two
  actions declared, a shot and a dodge, each at -1D (the multiple-action table), the dodge counting
  against every attack of the round;
- damage minus the Strength roll (plus armour) gives the band of
  :func:`~diceengine.systems.d6wild.damage_result`, stacked by
  :class:`~diceengine.systems.d6wild.WildHealth`: a light stun costs 1D for the rest of the round, a
  stun for the rest of the round and the next, a wound 1D (2D wounded twice) until healed; stunned as
  many times as the Strength dice, incapacitated, mortally wounded or killed is out of the fight;
- a character acting after being hit this round rolls with the new penalty (the roll is made when
  the character acts);
- policy ``force_point`` (``"never"``, ``"first_round"``, ``"when_wounded"``) for combatants with
  ``force_points``: every roll of the character that round is doubled (Perception, attack, dodge, the
  Strength roll against damage), not the weapon's damage;
- policy ``character_point`` (``"never"``, ``"every_round"``, ``"when_wounded"``: a round begun wounded)
  for combatants with ``character_points``: one point spent on the round's attack, +1D (a plain die,
  not the Wild Die) « à une utilisation de compétence »; never two on one roll (« non cumulable »), and
  not doubled by a Force point (« sauf points de personnage »).

Text ``003``'s reaction is an action of the round (« Cela lui coute une action s'il lui en reste une...
Sinon c'est une action supplémentaire »), whose penalty falls on « TOUTES les actions du round »: the
``dodge = "always"`` reading (classic D6 offers text ``000``'s ``"reaction"`` too).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache, lru_cache
from typing import Any, Literal

import numpy as np
from pydantic import Field

from diceengine import algebra
from diceengine.fights.rules import Duel
from diceengine.pmf import PMF

from ..combat import (
    MAX_SIDE,
    NO_ROLL,
    Combat,
    TotalSampler,
    first_enemy,
    memo,
    mix,
    status_of,
)
from ..d6.checks import D6
from ..d6.codes import Code
from ..d6.fighters import (
    CodeBattle,
    CodeField,
    D6Fighter,
    ForcePolicy,
    RangedEncounter,
    cdf_at,
    code_pmf,
    difficulty_cdf,
    relies_on_force,
    resist,
    rolled,
    spenders,
)
from ..d6.shared import RANGE_DIFFICULTIES, tie_winner
from .dice import WILD_DIE
from .rules import LADDER, WildHealth, WildWound, damage_result

__all__ = ["BANDS", "WildFight", "WildFighter", "WildSetup"]

SYSTEM = "d6wild"
#: damage bands of text 003, in order
BANDS = tuple(WildWound)
NAMES = {**RANGE_DIFFICULTIES, **LADDER}
STUNS = (WildWound.LIGHT_STUN, WildWound.STUN)


#: most character points a combatant brings to a fight
MAX_CHARACTER_POINTS = 10


class WildFighter(D6Fighter):
    """A combatant in D6 with the Wild Die."""

    perception: CodeField = Code(2, 0)
    character_points: int = Field(0, ge=0, le=MAX_CHARACTER_POINTS)


class WildSetup(RangedEncounter):
    """An encounter in Wild Die terms."""

    ranges = NAMES
    a: list[WildFighter] = Field(min_length=1, max_length=MAX_SIDE)
    b: list[WildFighter] = Field(min_length=1, max_length=MAX_SIDE)
    dodge: Literal["never", "always"] = "never"
    reaction: Literal["replace", "add"] = "replace"
    complication: Literal["flag", "remove_highest", "none"] = "flag"
    force_point: ForcePolicy = "never"
    character_point: Literal["never", "every_round", "when_wounded"] = "never"

    def dodges(self, f: WildFighter) -> bool:
        return self.dodge == "always" and f.dodge is not None

    def spends(self, wounds: int, points: int, opening: bool) -> bool:
        """Whether a character with ``points`` Force points left spends one at the start of a round."""
        return relies_on_force(self.force_point, wounds > 0, points, opening)

    def spends_character_point(self, wounds: int, points: int) -> bool:
        """Whether a character with ``points`` character points left spends one on this round's attack."""
        return relies_on_force(self.character_point, wounds > 0, points, True)


def with_character_point(pmf: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray] | None:
    """The totals of a roll with a character point's die added (+1D, a plain d6)."""
    if pmf is None:
        return None
    values, probs = pmf
    return _arrays(algebra.Die(PMF.from_mapping(dict(zip(values.tolist(), probs.tolist())))) + D6.die)


@lru_cache(maxsize=4096)
def _pmf(code: Code, complication: str) -> tuple[np.ndarray, np.ndarray] | None:
    """Totals of a code thrown with a Wild Die (``None``: reduced to 0D): :func:`_die`'s, or the system's exact
    distribution where a complication removes dice."""
    if code.dice <= 0 or complication == "remove_highest":
        return code_pmf(code, SYSTEM, complication=complication)
    return _arrays(_die(code, complication))


@lru_cache(maxsize=4096)
def _die(code: Code, complication: str) -> algebra.Die:
    """A code's totals (1D at least). Where a complication leaves the total alone, the code is its plain dice plus
    one Wild Die (the algebra's dice); otherwise the system's exact distribution of the whole code."""
    if complication == "remove_highest":
        values, probs = code_pmf(code, SYSTEM, complication=complication)  # type: ignore[misc]
        return algebra.Die(PMF.from_mapping(dict(zip(values.tolist(), probs.tolist()))))
    return D6.die.repeat(code.dice - 1) + _wild_die() + code.pips


@lru_cache(maxsize=1)
def _wild_die() -> algebra.Die:
    """The Wild Die's total (the system's exact ``1D``: what its truncation left out shared out)."""
    return algebra.Die(WILD_DIE.exact().pmf)


def _arrays(die: algebra.Die) -> tuple[np.ndarray, np.ndarray]:
    """``(totals, probabilities)`` of a die's possible totals, as the fights read them."""
    probs = die.pmf.p
    keep = probs > 0
    return die.pmf.values[keep], probs[keep] / probs[keep].sum()


@lru_cache(maxsize=1024)
def band_chances(damage: Code, resist: Code, complication: str) -> np.ndarray:
    """Exact chance of each band (``BANDS`` order) of a hit: the damage roll minus the Strength roll
    (plus armour), read by :func:`damage_result`."""
    out = np.zeros(len(BANDS))
    for value, p in (_die(damage, complication) - _die(resist, complication)).clip(-1, 16).items():
        out[BANDS.index(damage_result(value, 0))] += p
    return out / out.sum()


@lru_cache(maxsize=65536)
def after_band(strength_dice: int, stuns: int, wounds: int, band: WildWound) -> tuple[int, int, bool]:
    """``(stuns, wounds, out of the fight)`` after one more damage band, by :meth:`WildHealth.hit`."""
    health = WildHealth(strength_dice, stuns, wounds, WildWound.WOUNDED if wounds else None).hit(band)
    out = health.unconscious or (health.state is not None and health.state >= WildWound.INCAPACITATED)
    return health.stuns, health.wounds, out


@cache
def wound_penalty(wounds: int) -> int:
    """Dice lost to wounds: 1D wounded, 2D wounded twice (by :class:`WildHealth`, read once per count)."""
    return WildHealth(1, 0, wounds).penalty


class _Fighter:
    """One combatant's exact rolls by penalty, for the chain."""

    def __init__(self, f: WildFighter, setup: WildSetup) -> None:
        self.f = f
        self.dodges = setup.dodges(f)
        self.complication = setup.complication
        self.base = setup.difficulty
        self.mode = setup.reaction

    @memo
    def attack(self, pen: int, force: bool, point: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
        pmf = _pmf(rolled(self.f.attack, pen + int(self.dodges), force), self.complication)
        return with_character_point(pmf) if point else pmf

    @memo
    def perception(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray]:
        pmf = _pmf(rolled(self.f.perception, pen, force), self.complication)
        return pmf if pmf is not None else (np.array([NO_ROLL]), np.array([1.0]))

    @memo
    def difficulty_cdf(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(difficulties, P(difficulty <= value))`` of an attack on this combatant."""
        dodge = (_pmf(rolled(self.f.dodge, pen + 1, force), self.complication)  # type: ignore[arg-type]
                 if self.dodges else None)
        return difficulty_cdf(self.base, dodge, self.mode)


def hit_chance(attacker: _Fighter, pen: int, target: _Fighter, target_pen: int, force: bool,
               target_force: bool, point: bool = False) -> float:
    """Exact chance that the attack hits: the total is at least the difficulty (after any dodge)."""
    pmf = attacker.attack(pen, force, point)
    if pmf is None:
        return 0.0
    return float(np.dot(pmf[1], cdf_at(target.difficulty_cdf(target_pen, target_force), pmf[0])))


class WildDuel(Duel):
    """The exact chain: a state is ``((stuns, wounds, stunned last round, out, Force points left,
    character points left) of a, the same of b, first round)``."""

    def __init__(self, setup: WildSetup) -> None:
        fa, fb = setup.a[0], setup.b[0]
        self.setup = setup
        self.raw = (fa, fb)
        self.fighters = (_Fighter(fa, setup), _Fighter(fb, setup))
        self.tie = tie_winner(fa.player, fb.player)
        self.strength = (fa.strength.dice, fb.strength.dice)

    def start(self) -> dict[Hashable, float]:
        fa, fb = self.raw
        return {((0, 0, 0, False, fa.force_points, fa.character_points),
                 (0, 0, 0, False, fb.force_points, fb.character_points), True): 1.0}

    def status(self, state: Any) -> int:
        return status_of(state[0][3], state[1][3])

    @memo
    def bands(self, attacker: int, force: bool) -> np.ndarray:
        """Damage bands of ``attacker``'s hit on the other (who relies on the Force or not)."""
        return band_chances(self.raw[attacker].damage, resist(self.raw[1 - attacker], force),
                            self.setup.complication)

    @memo
    def hit(self, attacker: int, pen: int, target_pen: int, force: bool, target_force: bool,
            point: bool = False) -> float:
        """Chance that ``attacker`` (0 or 1) hits the other, with these penalties (memoised)."""
        return hit_chance(self.fighters[attacker], pen, self.fighters[1 - attacker], target_pen, force,
                          target_force, point)

    @memo
    def first_chance(self, pen_a: int, pen_b: int, force_a: bool, force_b: bool) -> float:
        """Chance that side a acts first (Perception rolls; tied initiative resolved by the tie rule)."""
        va, pa = self.fighters[0].perception(pen_a, force_a)
        vb, pb = self.fighters[1].perception(pen_b, force_b)
        joint = np.outer(pa, pb)
        ahead = float(joint[va[:, None] > vb[None, :]].sum())
        behind = float(joint[va[:, None] < vb[None, :]].sum())
        tie = 1.0 - ahead - behind
        if self.tie == "actor":
            return ahead + tie
        if self.tie == "opponent":
            return ahead
        return ahead / (ahead + behind) if ahead + behind > 0 else 0.5

    def _turns(self, first: int, state: tuple, force: tuple[bool, bool],
               point: tuple[bool, bool]) -> dict[tuple, float]:
        """The round when ``first`` (0 or 1) acts first: the states after it, with their chances."""
        second = 1 - first
        f_state, s_state = state[first], state[second]
        f_force, s_force = force[first], force[second]
        f_point, s_point = point[first], point[second]
        f_left = (f_state[4] - int(f_force), f_state[5] - int(f_point))
        s_left = (s_state[4] - int(s_force), s_state[5] - int(s_point))
        f_pen = wound_penalty(f_state[1]) + f_state[2]
        s_pen = wound_penalty(s_state[1]) + s_state[2]
        out: dict[tuple, float] = {}

        def put(new_f: tuple, new_s: tuple, p: float) -> None:
            new_f, new_s = (*new_f, *f_left), (*new_s, *s_left)
            key = (new_f, new_s, False) if first == 0 else (new_s, new_f, False)
            if p > 0:
                out[key] = out.get(key, 0.0) + p

        p_first = self.hit(first, f_pen, s_pen, f_force, s_force, f_point)
        rest_f = (f_state[0], f_state[1], 0, False)
        on_f = self.bands(second, f_force)
        on_s = self.bands(first, s_force)

        # what each band of the second's hit does to the first: the same whatever the second's state
        f_hit = []
        for k, band in enumerate(BANDS):
            chance = float(on_f[k])
            if chance > 0:
                stuns, wounds, gone = after_band(self.strength[first], f_state[0], f_state[1], band)
                f_hit.append(((stuns, wounds, int(band == WildWound.STUN), gone), chance))

        def second_turn(s_now: tuple, s_extra: int, s_carry: int, weight: float) -> None:
            pen = wound_penalty(s_now[1]) + s_state[2] + s_extra
            p = self.hit(second, pen, f_pen, s_force, f_force, s_point)
            new_s = (s_now[0], s_now[1], s_carry, False)
            put(rest_f, new_s, weight * (1 - p))
            hit = weight * p
            for new_f, chance in f_hit:
                put(new_f, new_s, hit * chance)

        second_turn(s_state, 0, 0, 1 - p_first)
        for k, band in enumerate(BANDS):
            w = p_first * on_s[k]
            if w <= 0:
                continue
            stuns, wounds, gone = after_band(self.strength[second], s_state[0], s_state[1], band)
            carry = int(band == WildWound.STUN)
            if gone:
                put(rest_f, (stuns, wounds, carry, True), w)
            else:
                second_turn((stuns, wounds), int(band in STUNS), carry, w)
        return out

    def advance(self, state: Any) -> dict[Hashable, float]:
        a, b, opening = state
        force = (self.setup.spends(a[1], a[4], opening), self.setup.spends(b[1], b[4], opening))
        point = (self.setup.spends_character_point(a[1], a[5]), self.setup.spends_character_point(b[1], b[5]))
        pen_a = wound_penalty(a[1]) + a[2]
        pen_b = wound_penalty(b[1]) + b[2]
        p = self.first_chance(pen_a, pen_b, *force)
        out: dict[Hashable, float] = {}
        for first, weight in ((0, p), (1, 1 - p)):
            if weight > 0:
                mix(self._turns(first, state, force, point).items(), out, weight)
        return out


class WildBattle(CodeBattle):
    """``n`` fights of any size: stuns, wounds, carried stuns and who is out, as ``(n, K)`` arrays."""

    arrays = ("stuns", "wounds", "carry", "gone", "points", "cps")

    def __init__(self, setup: WildSetup, n: int, gen: np.random.Generator | None = None) -> None:
        super().__init__(setup, n)
        fighters = setup.fighters()
        k = len(fighters)
        self.round = 0
        self.points = np.tile(np.array([f.force_points for f in fighters], dtype=np.int8), (n, 1))
        self.cps = np.tile(np.array([f.character_points for f in fighters], dtype=np.int8), (n, 1))
        c = setup.complication
        self.base, self.mode = setup.difficulty, setup.reaction
        self.strength = np.array([f.strength.dice for f in fighters])
        self.stuns = np.zeros((n, k), dtype=np.int8)
        self.wounds = np.zeros((n, k), dtype=np.int8)
        self.carry = np.zeros((n, k), dtype=np.int8)
        self.gone = np.zeros((n, k), dtype=bool)
        # rows of the samplers: (fighter, Force point spent, penalty 0 .. depth - 1)
        self.depth = d = 2 * max(max(f.attack.dice, f.perception.dice) for f in fighters) + 8
        forces = (False, True)
        # attack rows: (fighter, Force point spent, character point spent, penalty)
        attacks = []
        for f, x in zip(fighters, self.dodges):
            for fp in forces:
                plain = [_pmf(rolled(f.attack, p + int(x), fp), c) for p in range(d)]
                attacks += plain + [with_character_point(pmf) for pmf in plain]
        self.attack = TotalSampler(attacks)
        self.perception = TotalSampler([_pmf(rolled(f.perception, p, fp), c)
                                        for f in fighters for fp in forces for p in range(d)])
        self.dodge = TotalSampler([_pmf(rolled(f.dodge, p + 1, fp), c) if f.dodge is not None else None
                                   for f in fighters for fp in forces for p in range(d)])
        self.damage = TotalSampler([_pmf(f.damage, c) for f in fighters])
        self.resist = TotalSampler([_pmf(resist(f, fp), c) for f in fighters for fp in forces])
        self.bands = np.array([int(damage_result(v, 0)) for v in range(-1, 17)], dtype=np.int8)
        top = int(self.strength.max())
        # after[fighter, stuns, wounds, band] -> (stuns, wounds, out), by WildHealth.hit
        self.after = np.zeros((k, top + 1, 3, len(BANDS) + 1, 3), dtype=np.int8)
        for i, sd in enumerate(self.strength.tolist()):
            for s in range(top + 1):
                for w in range(3):
                    for band in BANDS:
                        self.after[i, s, w, band] = after_band(sd, s, w, band)

    def out(self) -> np.ndarray:
        return self.gone

    def step(self, gen: np.random.Generator) -> None:
        n, k = self.gone.shape
        gone = self.gone
        self.round += 1
        force = np.zeros((n, k), dtype=np.int64)
        if self.setup.force_point != "never":
            force = (spenders(self.setup.force_point, self.points, self.wounds > 0, self.round == 1) & ~gone
                     ).astype(np.int64)
            self.points -= force.astype(np.int8)
        point = np.zeros((n, k), dtype=np.int64)
        if self.setup.character_point != "never":
            point = (spenders(self.setup.character_point, self.cps, self.wounds > 0, True) & ~gone).astype(np.int64)
            self.cps -= point.astype(np.int8)
        pen = (np.minimum(self.wounds, 2) + self.carry).astype(np.int64)
        order = self.acting_order(self.initiative(self.perception, force, pen, gone, gen), gen)
        if self.dodges.any():
            dodge = self.dodge(self.rows(np.arange(k), force, pen).ravel(), gen).reshape(n, k)
            difficulty = np.where(dodge > NO_ROLL, dodge if self.mode == "replace" else self.base + dodge, self.base)
        else:
            difficulty = np.full((n, k), self.base)
        now = np.zeros((n, k), dtype=np.int64)  # stuns taken this round
        carry = np.zeros_like(self.carry)
        rows = np.arange(n)
        for j in range(k):
            actor = order[:, j]
            has, target = first_enemy(~self.gone, self.side, self.side[actor])
            acts = ~self.gone[rows, actor] & has
            sel, a, t = rows[acts], actor[acts], target[acts]
            a_pen = np.minimum(self.wounds[sel, a], 2) + self.carry[sel, a] + now[sel, a]
            cp = point[sel, a]
            row = ((a * 2 + force[sel, a]) * 2 + cp) * self.depth + np.minimum(a_pen.astype(np.int64), self.depth - 1)
            total = self.attack(row, gen)
            hit = total >= difficulty[sel, t]
            sel, a, t = sel[hit], a[hit], t[hit]
            diff = self.damage(a, gen) - self.resist(t * 2 + force[sel, t], gen)
            band = self.bands[np.clip(diff, -1, 16) + 1]
            new = self.after[t, self.stuns[sel, t], np.minimum(self.wounds[sel, t], 2), band]
            self.stuns[sel, t] = new[:, 0]
            self.wounds[sel, t] = new[:, 1]
            self.gone[sel, t] |= new[:, 2].astype(bool)
            now[sel, t] += np.isin(band, (WildWound.LIGHT_STUN, WildWound.STUN))
            carry[sel, t] += band == WildWound.STUN
        self.carry = carry


class WildFight(Combat):
    """D6 with the Wild Die combat (text ``003``)."""

    setup_model = WildSetup
    duel_of = WildDuel
    battle_of = WildBattle


#: the ruleset's combat, found by :meth:`diceengine.registry.System.fight_rules`
FIGHT_RULES = WildFight
