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
from typing import Any

import numpy as np

from diceengine.fights.rules import Duel

from ..combat import NO_ROLL, Combat, memo, mix, status_of
from .battle import D6Battle
from .fight_setup import (  # the setup this combat shares with its simulation (re-exported)
    NONE,
    RESULTS,
    D6Setup,
    _pmf,
    after_hit,
    penalty,
    result_chances,
)
from .fighters import (  # the fighter model this combat shares with the Wild Die's (re-exported)
    D6Fighter,
    cdf_at,
    difficulty_cdf,
    resist,
    rolled,
)
from .rules import Wound
from .shared import tie_winner

__all__ = ["RESULTS", "D6Battle", "D6Fight", "D6Fighter", "D6Setup", "round_outcomes"]


class _Side:
    """One combatant's rolls by penalty, for the exact chain."""

    def __init__(self, f: D6Fighter, setup: D6Setup) -> None:
        self.f = f
        self.setup = setup
        self.extra = setup.shot_penalty(f)  # dice the shot loses to a declared dodge

    @memo
    def attack(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray]:
        pmf = _pmf(rolled(self.f.attack, pen + self.extra, force))
        return pmf if pmf is not None else (np.array([NO_ROLL]), np.array([1.0]))

    @memo
    def difficulty_cdf(self, pen: int, force: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(difficulties, P(difficulty <= value))`` of a shot at this combatant (its dodge added)."""
        dodge = _pmf(rolled(self.f.dodge, pen + 1, force)) if self.setup.dodges(self.f) else None  # type: ignore[arg-type]
        return difficulty_cdf(self.setup.difficulty, dodge)


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
        self.sides = (_Side(fa, setup), _Side(fb, setup))
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
        hit_a = cdf_at(B.difficulty_cdf(pb, force_b), xa)
        hit_b = cdf_at(A.difficulty_cdf(pa, force_a), xb)
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
        moves = list(a_lead.items())  # (result on a, result on b)
        moves += [((on_a, on_b), p) for (on_b, on_a), p in b_lead.items()]
        if nobody > 0:
            moves.append(((NONE, NONE), nobody))
        left_a, left_b = fpa - int(force_a), fpb - int(force_b)
        return mix(moves, {}, key=lambda on: ((*after_hit(la, on[0]), left_a), (*after_hit(lb, on[1]), left_b), False))


class D6Fight(Combat):
    """Classic D6 combat (text ``000``)."""

    setup_model = D6Setup
    duel_of = D6Duel
    battle_of = D6Battle


#: the ruleset's combat, found by :meth:`diceengine.registry.System.fight_rules`
FIGHT_RULES = D6Fight
