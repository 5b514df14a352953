"""The state of play of the d20 pool (rule text ``001``): the party's Impulsion, the game master's Menace,
each character's Force points, and the check in progress.

A scene goes: :func:`begin_check` (extra dice bought: the party's Impulsion spent, or Menace given to the
game master; an NPC's extra dice are paid from the Menace pool) returns the exact check to roll;
:func:`resolve` records its result: each success beyond the difficulty is one point of Impulsion,
complications may become Menace. :func:`begin_force_power` / :func:`resolve` do the same for a Force
power, whose cost (:func:`~diceengine.systems.d20pool.force_power_cost`) is drawn from the character's
Force points, the successes it cannot use becoming Impulsion. No pool ever goes below zero: an action
the pools cannot pay for is refused with the engine's error and the state stays as it was.

Experience (the text's section VI: earned, spent at 50 / 30 / 30 / 10 / 5 XP, given, lost at death) is
:mod:`~diceengine.systems.d20pool.experience`; its rules are in ``RULES`` here too. The states are
:mod:`~diceengine.systems.d20pool.state` (importable from here).

Readings chosen where the text is silent (fields of the state, so a table can change them):
``menace_per_complication`` = 2 (the 2d20 family: the game master may take a complication as two points
of Menace instead of playing it out), ``impulsion_cap`` = none (the text sets no limit).
"""

from __future__ import annotations

from typing import Literal

from diceengine.i18n import N_

from ..play import Step, one_of, refuse
from ..rulebook import rule, rule_table
from . import experience
from .experience import *  # its rules are this state of play's too (in RULES, and importable from here)
from .rules import EXTRA_DIE_COSTS, MAX_DICE, build_check, force_power_cost
from .state import Character, PendingCheck, PoolState

__all__ = [
    "RULES",
    "RULE_SUMMARIES",
    "Character",
    "PendingCheck",
    "PoolState",
    "add_menace",
    "begin_check",
    "begin_force_power",
    "drop_check",
    "gain_force_points",
    "resolve",
    "spend_impulsion",
    "spend_menace",
]
__all__ += experience.__all__


def _extra_dice_cost(paid_before: int, dice: int) -> int:
    return sum(EXTRA_DIE_COSTS[paid_before: paid_before + dice])


@rule(N_("Start a check: 2 d20 plus extra dice bought with Impulsion or Menace."))
def begin_check(state: PoolState, who: str, attribute: int, discipline: int, difficulty: int,
                specialisation: bool = False, impulsion_dice: int = 0, menace_dice: int = 0,
                npc: bool = False) -> Step[PoolState]:
    """Start a check: 2 d20 plus extra dice, the nth costing 1, 2, 3. A player character's
    ``impulsion_dice`` are paid from the party's Impulsion, its ``menace_dice`` add their cost to the
    game master's Menace; an NPC's extra dice (``impulsion_dice`` or ``menace_dice``, all the same) are
    paid from the Menace pool. Returns the check to roll (``system="d20pool"``)."""
    if state.pending is not None:
        raise refuse(N_("{who}'s check is not resolved yet"), who=state.pending.who)
    if impulsion_dice < 0 or menace_dice < 0 or impulsion_dice + menace_dice > MAX_DICE - 2:
        raise refuse(N_("at most {n} extra dice, bought with Impulsion or Menace"), n=MAX_DICE - 2)
    if npc:
        check = build_check(attribute, discipline, difficulty, specialisation, 0, impulsion_dice + menace_dice)
        cost = _extra_dice_cost(0, impulsion_dice + menace_dice)
        if cost > state.menace:
            raise refuse(N_("the extra dice cost {cost} Menace, the pool holds {held}"), cost=cost, held=state.menace)
        new = state.model_copy(update={"menace": state.menace - cost})
    else:
        check = build_check(attribute, discipline, difficulty, specialisation, impulsion_dice, menace_dice)
        if check.impulsion_spent > state.impulsion:
            raise refuse(N_("the extra dice cost {cost} Impulsion, the pool holds {held}"), cost=check.impulsion_spent,
                         held=state.impulsion)
        new = state.model_copy(update={"impulsion": state.impulsion - check.impulsion_spent,
                                       "menace": state.menace + check.menace_added})
    pending = PendingCheck(who=who, expression=check.expression, difficulty=difficulty, npc=npc)
    new = new.model_copy(update={"pending": pending})
    return Step(new, check.expression, "d20pool")


@rule(N_("Start a Force power: a check against one success."))
def begin_force_power(state: PoolState, who: str, power: str, attribute: int, discipline: int,
                      alignment: Literal["matching", "opposed", "neutral"] = "neutral", base_cost: int = 5,
                      specialisation: bool = False, impulsion_dice: int = 0, menace_dice: int = 0) -> Step[PoolState]:
    """Start a Force power: a check against one success (the text: « une seule réussite suffit »), extra
    dice bought as in :func:`begin_check`. The character must hold Force points for the cheapest the
    power could cost (1)."""
    one_of(alignment, ("matching", "opposed", "neutral"), "an alignment")
    if state.force_points.get(who, 0) < 1:
        raise refuse(N_("{who} has no Force points"), who=who)
    step = begin_check(state, who, attribute, discipline, 1, specialisation, impulsion_dice, menace_dice)
    pending = step.state.pending.model_copy(update={"power": power, "alignment": alignment,  # type: ignore[union-attr]
                                                    "base_cost": base_cost})
    return Step(step.state.model_copy(update={"pending": pending}), step.check, step.system)


def _gain_impulsion(state: PoolState, points: int) -> int:
    total = state.impulsion + points
    return total if state.impulsion_cap is None else min(total, state.impulsion_cap)


@rule(N_("Record the rolled check: successes beyond the difficulty become Impulsion."))
def resolve(state: PoolState, successes: int, complications: int = 0,
            complications_as_menace: bool = True) -> Step[PoolState]:
    """Record the rolled check: a player character's successes beyond the difficulty become Impulsion
    (an NPC's are lost: the game master's pool is Menace); with ``complications_as_menace`` each
    complication adds ``menace_per_complication`` Menace. A Force power instead costs Force points
    (:func:`~diceengine.systems.d20pool.force_power_cost`), the unusable successes becoming Impulsion;
    refused when the character cannot pay (the check stays pending: :func:`gain_force_points` or
    :func:`drop_check`)."""
    pending = state.pending
    if pending is None:
        raise refuse(N_("no check to resolve: begin one first"))
    if successes < 0 or complications < 0:
        raise refuse(N_("successes and complications are not negative"))
    update: dict = {"pending": None}
    menace = state.menace + (complications * state.menace_per_complication if complications_as_menace else 0)
    if pending.power is not None:
        if successes >= 1:
            cost = force_power_cost(successes, pending.alignment, pending.base_cost)
            held = state.force_points.get(pending.who, 0)
            if cost.force_points > held:
                raise refuse(N_("{power} costs {cost} Force points, {who} holds {held}"), power=pending.power,
                             cost=cost.force_points, who=pending.who, held=held)
            update["force_points"] = {**state.force_points, pending.who: held - cost.force_points}
            update["impulsion"] = _gain_impulsion(state, cost.impulsion)
    elif successes > pending.difficulty and not pending.npc:
        update["impulsion"] = _gain_impulsion(state, successes - pending.difficulty)
    update["menace"] = menace
    return Step(state.model_copy(update=update))


@rule(N_("Abandon the pending check."))
def drop_check(state: PoolState) -> Step[PoolState]:
    """Abandon the pending check (what was paid for extra dice stays paid)."""
    if state.pending is None:
        raise refuse(N_("no check to drop"))
    return Step(state.model_copy(update={"pending": None}))


@rule(N_("Spend Impulsion; never more than the pool holds."))
def spend_impulsion(state: PoolState, points: int) -> Step[PoolState]:
    """Spend Impulsion on anything else the table allows; never more than the pool holds."""
    return _spend(state, "impulsion", points, N_("the party holds {held} Impulsion, not {points}"))


@rule(N_("The game master gains Menace."))
def add_menace(state: PoolState, points: int) -> Step[PoolState]:
    """The game master gains Menace (players paying with it, complications, the scene)."""
    if points < 1:
        raise refuse(N_("add at least one point"))
    return Step(state.model_copy(update={"menace": state.menace + points}))


@rule(N_("The game master spends Menace; never more than the pool holds."))
def spend_menace(state: PoolState, points: int) -> Step[PoolState]:
    """The game master spends Menace; never more than the pool holds."""
    return _spend(state, "menace", points, N_("the game master holds {held} Menace, not {points}"))


def _spend(state: PoolState, pool: Literal["impulsion", "menace"], points: int, short: str) -> Step[PoolState]:
    """``points`` out of a pool (at least one; ``short``: the refusal when the pool holds fewer)."""
    held: int = getattr(state, pool)
    if points < 1:
        raise refuse(N_("spend at least one point"))
    if points > held:
        raise refuse(short, held=held, points=points)
    return Step(state.model_copy(update={pool: held - points}))


@rule(N_("A character gains Force points."))
def gain_force_points(state: PoolState, who: str, points: int) -> Step[PoolState]:
    """A character gains Force points (PF)."""
    if points < 1:
        raise refuse(N_("gain at least one point"))
    return Step(state.model_copy(update={"force_points": {**state.force_points,
                                                          who: state.force_points.get(who, 0) + points}}))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    begin_check, begin_force_power, resolve, drop_check, spend_impulsion, add_menace, spend_menace,
    gain_force_points, *EXPERIENCE_RULES.values(),
)
