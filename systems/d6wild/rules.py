"""The rules of D6 with the Wild Die (rule text ``003``) as plain functions: the difficulty ladder,
damage bands and how stuns and wounds stack, multiple actions and reactions, initiative, advancement
and training. Advancement by pips and the modifiers of a code are classic D6's
(:mod:`diceengine.systems.d6.shared`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from diceengine.errors import DiceValueError
from diceengine.i18n import N_

from ..d6.codes import Code, parse_code
from ..d6.shared import HealthState, Initiative, advance_cost, order_by_rolls
from ..rulebook import rule

__all__ = [
    "DIFFICULTY_NAMES",
    "LADDER",
    "WildHealth",
    "WildWound",
    "after_reaction",
    "damage_result",
    "initiative",
    "initiative_check",
    "multiple_actions",
    "skill_advance_cost",
    "training_days",
    "unconscious_minutes",
]

#: the difficulty ladder of text ``003`` (English and French names)
LADDER: dict[str, int] = {
    "very_easy": 5, "easy": 10, "moderate": 15, "difficult": 20, "very_difficult": 25, "heroic": 30,
    "tres_facile": 5, "facile": 10, "moyen": 15, "difficile": 20, "tres_difficile": 25, "heroique": 30,
}

#: the ladder's names (messages of the catalogues: each language's names are read as input too)
DIFFICULTY_NAMES = (N_("very easy"), N_("easy"), N_("moderate"), N_("difficult"), N_("very difficult"), N_("heroic"))


# ---------------------------------------------------------------- damage (003)


class WildWound(HealthState):
    """Damage results of text ``003`` (damage minus Strength, plus armour)."""

    LIGHT_STUN = 1
    STUN = 2
    WOUNDED = 3
    INCAPACITATED = 4
    MORTALLY_WOUNDED = 5
    KILLED = 6


@rule(N_("The band of damage minus Strength and armour: light stun, stun, wounded, incapacitated, mortally "
         "wounded or killed."))
def damage_result(damage: int, strength: int, armour: int = 0) -> WildWound:
    """The band of ``damage - (strength + armour)``: below 0 light stun; 0-3 stun; 4-8 wounded;
    9-12 incapacitated; 13-15 mortally wounded; 16 or more killed."""
    diff = damage - (strength + armour)
    if diff < 0:
        return WildWound.LIGHT_STUN
    if diff <= 3:
        return WildWound.STUN
    if diff <= 8:
        return WildWound.WOUNDED
    if diff <= 12:
        return WildWound.INCAPACITATED
    if diff <= 15:
        return WildWound.MORTALLY_WOUNDED
    return WildWound.KILLED


@dataclass(frozen=True)
class WildHealth:
    """A character's state under text ``003``: stuns counted against the Strength dice, wounds stacked."""

    strength_dice: int
    stuns: int = 0
    wounds: int = 0
    state: WildWound | None = None

    def hit(self, result: WildWound) -> WildHealth:
        """The state after one more damage result. Light stuns and stuns count as stuns; wounded twice
        falls (-2D); a third wound incapacitates (a reading: the text stops at two)."""
        if result in (WildWound.LIGHT_STUN, WildWound.STUN):
            return replace(self, stuns=self.stuns + 1, state=self.state or result)
        if result == WildWound.WOUNDED:
            wounds = self.wounds + 1
            state = WildWound.INCAPACITATED if wounds >= 3 else WildWound.WOUNDED
            return replace(self, wounds=wounds, state=max(state, self.state or state))
        return replace(self, state=max(result, self.state or result))

    @property
    def unconscious(self) -> bool:
        """Stunned as many times as the Strength code has dice: unconscious for 2D6 minutes."""
        return self.stuns >= self.strength_dice or (self.state or 0) >= WildWound.INCAPACITATED

    @property
    def fallen(self) -> bool:
        """Wounded twice: falls, no physical effort."""
        return self.wounds >= 2

    @property
    def penalty(self) -> int:
        """Dice lost on actions: -1D wounded, -2D wounded twice (stuns: -1D each for their rounds)."""
        return (min(2, self.wounds)) + self.stuns


@rule(N_("Minutes unconscious after too many stuns: 2D6."))
def unconscious_minutes(seed: Any = None) -> int:
    """Minutes unconscious after too many stuns: 2D6."""
    from diceengine.api import roll

    return roll("2d6", seed=seed).total


# ---------------------------------------------------------------- actions, reactions, initiative (003)


@rule(N_("The dice lost on every action and the movement percentage for the declared actions."))
def multiple_actions(actions: int) -> tuple[int, int]:
    """``(dice lost on every action of the round, movement percentage)`` for declared actions: 1 -> (0, 100),
    2 -> (1, 80), 3 -> (2, 60), 4 -> (3, 40), 5 -> (4, 20), then one more die each and no movement."""
    if actions < 1:
        raise DiceValueError(N_("a round has at least one declared action"))
    return actions - 1, max(0, 100 - 20 * (actions - 1))


@rule(N_("The declared actions and the penalty in dice after a reaction."))
def after_reaction(declared: int, taken: int) -> tuple[int, int]:
    """A reaction uses an action left (``taken < declared``) or adds one: the new ``(declared actions,
    penalty in dice)`` for the rest of the round."""
    if taken < declared:
        return declared, multiple_actions(declared)[0]
    return declared + 1, multiple_actions(declared + 1)[0]


@rule(N_("Who acts first: the highest Perception roll (text 003)."))
def initiative(perception: Mapping[str, int], players: Sequence[str] = ()) -> Initiative:
    """Who acts first (text ``003``: the highest Perception roll). A tie between a player character and
    a non-player character goes to the player character; two of a kind roll again (text ``000``'s rule),
    listed in ``roll_again`` and kept in the order given meanwhile."""
    return order_by_rolls(perception, players)


@rule(N_("The roll for initiative: the Perception code, with the Wild Die."))
def initiative_check(perception: Code | str) -> str:
    """The roll for initiative: the Perception code, thrown with the Wild Die (an expression for
    ``roll`` / ``distribution`` with ``system="d6wild"``)."""
    return str(parse_code(perception))


# ---------------------------------------------------------------- advancement (003)


@rule(N_("Training days to raise a skill one pip between sessions."))
def training_days(code: Code | str, used: bool, teacher: bool) -> int:
    """Training days to raise a skill one pip between sessions: none if it was used; otherwise as many
    days as the character points it costs with a teacher, twice as many without."""
    cost = advance_cost(code, 1)
    if used:
        return 0
    return cost if teacher else 2 * cost


@rule(N_("Character points to raise a skill by a number of pips."))
def skill_advance_cost(code: Code | str, pips: int = 1, attribute: bool = False) -> int:
    """Character points to raise a skill by ``pips`` pips (the number before the D per pip);
    attributes cannot be raised by experience."""
    if attribute:
        raise DiceValueError(N_("attributes cannot be raised with experience (text 003)"))
    return advance_cost(parse_code(code), pips)
