"""The rules of the d20 success pool (rule text ``001``) as plain functions: a character's check with
the extra dice bought (:func:`build_check`), the cost of a Force power, experience costs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from diceengine.api import Expressible
from diceengine.errors import DiceValueError
from diceengine.i18n import N_

from ..rulebook import rule, rule_table

__all__ = [
    "EXTRA_DIE_COSTS",
    "MAX_ATTRIBUTE",
    "MAX_DISCIPLINE",
    "RULES",
    "RULE_SUMMARIES",
    "ForcePowerCost",
    "PoolCheck",
    "build_check",
    "force_power_cost",
    "xp_cost",
]

MIN_DICE, MAX_DICE = 1, 5
MAX_ATTRIBUTE, MAX_DISCIPLINE = 13, 5
#: cost of the first, second and third extra die (Impulsion spent or Menace added)
EXTRA_DIE_COSTS = (1, 2, 3)


@dataclass(frozen=True)
class PoolCheck(Expressible):
    """A check built from a character: its pool, and what the extra dice cost (``roll()``,
    ``distribution()``)."""

    system_name = "d20pool"

    attribute: int
    discipline: int
    difficulty: int
    specialisation: bool
    dice: int
    impulsion_spent: int
    menace_added: int

    @property
    def threshold(self) -> int:
        return self.attribute + self.discipline

    @property
    def expression(self) -> str:
        spec = f" spec {self.discipline}" if self.specialisation else ""
        return f"{self.dice}d20<={self.threshold}{spec} vs {self.difficulty}"


@rule(N_("The check of a character: threshold, dice and extra dice bought."))
def build_check(attribute: int, discipline: int, difficulty: int, specialisation: bool = False,
                impulsion_dice: int = 0, menace_dice: int = 0) -> PoolCheck:
    """The check of a character: threshold = attribute + discipline, 2 dice plus up to 3 bought with
    Impulsion (``impulsion_dice``) or by adding Menace (``menace_dice``); the nth extra die costs
    ``EXTRA_DIE_COSTS[n-1]``, paid in the order Impulsion first."""
    if not 0 <= attribute <= MAX_ATTRIBUTE:
        raise DiceValueError(N_("an attribute is 0 to {most}, not {attribute}"), most=MAX_ATTRIBUTE, attribute=attribute)
    if not 0 <= discipline <= MAX_DISCIPLINE:
        raise DiceValueError(N_("a discipline is 0 to {most}, not {discipline}"), most=MAX_DISCIPLINE, discipline=discipline)
    if difficulty < 0:
        raise DiceValueError(N_("a difficulty is 0 or more successes, not {difficulty}"), difficulty=difficulty)
    if impulsion_dice < 0 or menace_dice < 0 or impulsion_dice + menace_dice > MAX_DICE - 2:
        raise DiceValueError(N_("at most {most} extra dice, bought with Impulsion or Menace"), most=MAX_DICE - 2)
    costs = EXTRA_DIE_COSTS[: impulsion_dice + menace_dice]
    return PoolCheck(attribute, discipline, difficulty, specialisation, 2 + impulsion_dice + menace_dice,
                     sum(costs[:impulsion_dice]), sum(costs[impulsion_dice:]))


class ForcePowerCost(NamedTuple):
    force_points: int
    impulsion: int


@rule(N_("Force points a power costs, and the successes left as Impulsion."))
def force_power_cost(successes: int, alignment: str = "neutral", base: int = 5) -> ForcePowerCost:
    """Force points a power costs: base 5 (or the power's own), -1 when the character's alignment
    matches the power, +1 when opposed, 0 when neutral, -1 per success beyond the first, never below
    1; successes that cannot lower the cost become Impulsion. One success is needed to use a power."""
    if successes < 1:
        raise DiceValueError(N_("a Force power needs at least one success"))
    shift = {"matching": -1, "opposed": 1, "neutral": 0}
    if alignment not in shift:
        raise DiceValueError(N_("alignment is 'matching', 'opposed' or 'neutral', not {alignment}"), alignment=repr(alignment))
    before = base + shift[alignment]
    usable = max(0, before - 1)
    extra = successes - 1
    used = min(extra, usable)
    return ForcePowerCost(max(1, before - used), extra - used)


_XP = {"attribute": 50, "discipline": 30, "new_specialisation": 30, "change_specialisation": 10, "impulsion": 5}


@rule(N_("Experience to improve a character."))
def xp_cost(improvement: str, current: int = 0, points: int = 1) -> int:
    """Experience to improve a character: attribute 50 (at most 13), discipline 30 (at most 5),
    a new specialisation 30, changing one 10, Impulsion 5 a point."""
    if improvement not in _XP:
        raise DiceValueError(N_("unknown improvement {improvement} (known: {known})"), improvement=repr(improvement),
                             known=", ".join(_XP))
    if points < 1:
        raise DiceValueError(N_("improve by at least one point"))
    if improvement == "attribute" and current + points > MAX_ATTRIBUTE:
        raise DiceValueError(N_("an attribute cannot go above {most}"), most=MAX_ATTRIBUTE)
    if improvement == "discipline" and current + points > MAX_DISCIPLINE:
        raise DiceValueError(N_("a discipline cannot go above {most}"), most=MAX_DISCIPLINE)
    return _XP[improvement] * points


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    build_check, force_power_cost, xp_cost,
)
