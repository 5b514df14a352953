"""The rules of classic D6 (rule texts ``000`` and ``002``) as plain functions: the penalties of a round,
circumstances and cover, damage and how wounds stack, death rolls, opposed rolls and initiative, parries,
and Force points. What D6 with the Wild Die shares with them is in :mod:`~diceengine.systems.d6.shared`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from diceengine.errors import DiceValueError
from diceengine.i18n import N_

from ..rulebook import rule
from .codes import Code, parse_code
from .shared import HealthState, _rollable, tie_winner

__all__ = [
    "BASE_DIFFICULTIES",
    "CIRCUMSTANCES",
    "ForcePointResult",
    "ForcePointUse",
    "Health",
    "Wound",
    "actions_in_round",
    "circumstance_dice",
    "cover_result",
    "damage_result",
    "death_chance",
    "death_roll",
    "force_point_outcome",
    "initiative",
    "multiple_action_codes",
    "parry_bonuses",
    "resolve_opposed",
    "round_penalties",
]

#: base difficulty bands of text ``002`` (inclusive ranges): ranged weapons by range, brawling
BASE_DIFFICULTIES: dict[str, tuple[int, int]] = {
    "short": (6, 10), "medium": (11, 15), "long": (16, 20), "brawling": (3, 5),
    "very_easy": (3, 5), "easy": (6, 10), "moderate": (11, 15), "difficult": (16, 20),
}

#: circumstance maluses of text ``002``, as dice added to the difficulty
CIRCUMSTANCES: dict[str, int] = {
    "low_light": 1, "moonlit_night": 2, "moonless_night": 3, "total_darkness": 4,
    "light_smoke": 1, "thick_smoke": 2, "very_thick_smoke": 4,
    "quarter_cover": 1, "half_cover": 2, "three_quarters_cover": 4,
    "target_10_to_50cm": 1, "target_1_to_10cm": 4, "target_under_1cm": 8, "body_part": 1,
}


# ---------------------------------------------------------------- the round (000, 002)


@rule(N_("Dice lost on each roll of a round, in order (text 000)."))
def round_penalties(declared: int, reactions_after: Sequence[int] = ()) -> list[int]:
    """Dice lost on each roll of a round, in order (text ``000``).

    ``declared`` skill uses are announced at the start of the round; each reaction (dodge, parry)
    made after the ``k``-th declared roll counts as one more use from that moment: the rolls before it
    keep their penalty, the reaction and every later roll lose one more die.
    """
    if declared < 0 or any(k < 0 or k > declared for k in reactions_after):
        raise DiceValueError(N_("a reaction comes after 0 to all of the declared rolls"))
    penalties: list[int] = []
    uses = declared
    pending = sorted(reactions_after)
    for roll in range(declared + 1):
        while pending and pending[0] == roll:
            pending.pop(0)
            uses += 1
            penalties.append(uses - 1)  # the reaction itself
        if roll < declared:
            penalties.append(max(uses, 1) - 1)
    return penalties


@rule(N_("The code of each roll of a round of several actions."))
def multiple_action_codes(code: Code | str, declared: int, reactions_after: Sequence[int] = (),
                          running: bool = False, wounded: bool = False) -> list[Code]:
    """The code of each roll of a round of several actions (see :func:`round_penalties`)."""
    base = parse_code(code)
    extra = int(running) + int(wounded)
    return [_rollable(base - Code(p + extra, 0)) for p in round_penalties(declared, reactions_after)]


@rule(N_("The dice added to the difficulty by circumstances (text 002)."))
def circumstance_dice(*names: str) -> Code:
    """The dice added to the difficulty by circumstances of text ``002`` (``"low_light"``, ...)."""
    total = 0
    for name in names:
        key = name.lower().replace(" ", "_").replace("-", "_")
        if key not in CIRCUMSTANCES:
            raise DiceValueError(N_("unknown circumstance {name} (known: {known})"), name=repr(name),
                                 known=', '.join(CIRCUMSTANCES))
        total += CIRCUMSTANCES[key]
    return Code(total, 0)


@rule(N_("A shot at a covered target: hit, cover (the obstacle is hit) or miss (text 002)."))
def cover_result(attack: int, base_difficulty: int, cover_roll: int) -> str:
    """``"hit"``, ``"cover"`` (the shot hits the obstacle) or ``"miss"`` against a covered target (``002``).

    The cover dice are rolled and added to the base difficulty; a roll at least the base but below
    the covered difficulty hits the cover.
    """
    if attack >= base_difficulty + cover_roll:
        return "hit"
    if attack >= base_difficulty:
        return "cover"
    return "miss"


@rule(N_("The bonuses to the parry roll and to the attack roll of a parry (text 002)."))
def parry_bonuses(parry: str, attack: str) -> tuple[int, int]:
    """``(bonus to the parry roll, bonus to the attack roll)`` of text ``002``: a melee parry against a
    bare-handed attack gets +5; a bare-handed parry against a weapon gives the attack +10.
    ``parry``: ``"melee"`` or ``"brawling"``; ``attack``: ``"armed"`` or ``"unarmed"``."""
    if parry not in ("melee", "brawling") or attack not in ("armed", "unarmed"):
        raise DiceValueError(N_("parry is 'melee' or 'brawling', attack is 'armed' or 'unarmed'"))
    if parry == "melee" and attack == "unarmed":
        return 5, 0
    if parry == "brawling" and attack == "armed":
        return 0, 10
    return 0, 0


@rule(N_("Actions a round counts for the multiple-action penalty (text 002)."))
def actions_in_round(rolls: int, draw_weapon: bool = False, set_stun: bool = False) -> int:
    """Actions a round counts for the multiple-action penalty (text ``002``): drawing a weapon and
    switching a blaster between stun and kill are actions without a roll."""
    return rolls + int(draw_weapon) + int(set_stun)


# ---------------------------------------------------------------- damage (000)


class Wound(HealthState):
    """Health states of text ``000``, from the least to the most severe."""

    HEALTHY = 0
    STUNNED = 1
    WOUNDED = 2
    INCAPACITATED = 3
    MORTALLY_WOUNDED = 4


@rule(N_("What a damage roll does against a Strength roll: stunned, wounded, incapacitated or mortally wounded."))
def damage_result(damage: int, strength: int) -> Wound:
    """What a damage roll does against a Strength roll: stunned (Strength higher), wounded (damage at
    least Strength, below twice), incapacitated (at least twice, below three times), mortally wounded
    (at least three times)."""
    if strength > damage:
        return Wound.STUNNED
    if damage < 2 * strength:
        return Wound.WOUNDED
    if damage < 3 * strength:
        return Wound.INCAPACITATED
    return Wound.MORTALLY_WOUNDED


@dataclass(frozen=True)
class Health:
    """A character's state: the worst wound and the stuns (each -1D until the end of the next round)."""

    state: Wound = Wound.HEALTHY
    stuns: int = 0

    def hit(self, result: Wound) -> Health:
        """The state after one more damage result, as the states stack in ``000``: wounded twice is
        incapacitated; incapacitated and wounded (or incapacitated) again is mortally wounded."""
        if result == Wound.STUNNED:
            return replace(self, stuns=self.stuns + 1, state=max(self.state, Wound.STUNNED))
        if result == Wound.WOUNDED and self.state == Wound.WOUNDED:
            return replace(self, state=Wound.INCAPACITATED)
        if result in (Wound.WOUNDED, Wound.INCAPACITATED) and self.state == Wound.INCAPACITATED:
            return replace(self, state=Wound.MORTALLY_WOUNDED)
        return replace(self, state=max(self.state, result))

    @property
    def penalty(self) -> int:
        """Dice lost on skill and attribute rolls (not Strength against damage)."""
        return self.stuns + (1 if self.state == Wound.WOUNDED else 0)

    @property
    def can_act(self) -> bool:
        return self.state < Wound.INCAPACITATED


@rule(N_("Whether a mortally wounded character dies: the 2D roll is below the rounds elapsed."))
def death_roll(rounds_elapsed: int, roll: int) -> bool:
    """Whether a mortally wounded character dies: the 2D roll is below the rounds elapsed."""
    return roll < rounds_elapsed


@rule(N_("Exact chance that the end-of-round 2D roll kills a mortally wounded character."))
def death_chance(rounds_elapsed: int) -> float:
    """Exact chance that the end-of-round 2D roll kills a mortally wounded character."""
    from diceengine.api import distribution

    return 1.0 - distribution("2D", "d6").at_least(rounds_elapsed)


# ---------------------------------------------------------------- opposed rolls and initiative (000)


@rule(N_("Who wins an opposed roll with these totals: actor, opponent or reroll."))
def resolve_opposed(actor: int, opponent: int, actor_is_player: bool = True,
                    opponent_is_player: bool = False) -> str:
    """Who wins an opposed roll (or initiative) with these totals: ``"actor"``, ``"opponent"`` or
    ``"reroll"``; the higher total wins, ties by :func:`tie_winner`."""
    if actor != opponent:
        return "actor" if actor > opponent else "opponent"
    return tie_winner(actor_is_player, opponent_is_player)


@rule(N_("Who acts first when two actions affect each other (text 000): actor, opponent or reroll."))
def initiative(actor: int, opponent: int, actor_is_player: bool = True, opponent_is_player: bool = False) -> str:
    """Who acts first when two actions affect each other (text ``000``): the higher roll; ties as for
    opposed rolls (the player character first; two of a kind roll again)."""
    return resolve_opposed(actor, opponent, actor_is_player, opponent_is_player)


# ---------------------------------------------------------------- Force points (000)


class ForcePointUse(str, enum.Enum):
    """How a character relied on the Force."""

    EVIL = "evil"
    NEUTRAL = "neutral"
    HEROIC = "heroic"
    DRAMATIC = "dramatic"


class ForcePointResult(NamedTuple):
    point_lost: bool
    dark_side_point: bool
    returned_at_end: bool
    bonus_point: bool


@rule(N_("The four outcomes of spending a Force point (text 000)."))
def force_point_outcome(use: ForcePointUse | str) -> ForcePointResult:
    """The four outcomes of spending a Force point (text ``000``)."""
    use = ForcePointUse(use)
    return {
        ForcePointUse.EVIL: ForcePointResult(True, True, False, False),
        ForcePointUse.NEUTRAL: ForcePointResult(True, False, False, False),
        ForcePointUse.HEROIC: ForcePointResult(False, False, True, False),
        ForcePointUse.DRAMATIC: ForcePointResult(False, False, True, True),
    }[use]
