"""What classic D6 and D6 with the Wild Die share (rule texts ``000`` and ``002``, read by ``003`` too).

The range difficulties by name, the modifiers of a code (:func:`modified_code`), health states ordered
by severity, who wins a tie and who acts first, a reaction's new difficulty, and advancement by pips.
Both :mod:`diceengine.systems.d6` and :mod:`diceengine.systems.d6wild` import them from here.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from diceengine.errors import DiceValueError
from diceengine.i18n import N_

from ..rulebook import rule
from .codes import Code, parse_code

__all__ = [
    "RANGE_DIFFICULTIES",
    "RANGE_NAMES",
    "HealthState",
    "Initiative",
    "advance",
    "advance_cost",
    "modified_code",
    "order_by_rolls",
    "reaction_difficulty",
    "tie_winner",
]

#: range difficulties of text ``000`` (shooting)
RANGE_DIFFICULTIES: dict[str, int] = {
    "point_blank": 5, "short": 10, "medium": 15, "long": 20,
    "bout_portant": 5, "courte": 10, "moyenne": 15, "longue": 20,
    # the text's own names ("Courte Portée", "Portée Moyenne", ...), both word orders; accents are dropped
    "courte_portee": 10, "portee_courte": 10, "portee_moyenne": 15, "moyenne_portee": 15,
    "longue_portee": 20, "portee_longue": 20,
}

#: the range names (messages of the catalogues: each language's names are read as input too)
RANGE_NAMES = (N_("point blank"), N_("short"), N_("medium"), N_("long"))


# ---------------------------------------------------------------- modifiers (000, 002)


def _rollable(code: Code) -> Code:
    if code.dice <= 0:
        raise DiceValueError(N_("the code is reduced to {code}: a code reduced to 0D cannot be rolled"), code=code)
    return code


@rule(N_("The code rolled, built from a base code and the circumstances of the roll."))
def modified_code(code: Code | str, *, prepared: bool = False, running: bool = False, crawling: bool = False,
                  wounded: bool = False, stunned: int = 0, actions: int = 1, reaction: bool = False,
                  force_point: bool = False, hurrying: bool = False, strength_vs_damage: bool = False) -> Code:
    """The code rolled, built from a base code and the circumstances of the roll.

    Preparation +1D (lost when several skills are used or a reaction is made); running or crawling
    -1D; wounded -1D; -1D per stun; -1D per action after the first; a Force point doubles the code;
    hurrying halves it. A Strength roll against damage is never modified (a Force point still doubles
    it, as Roark's does). Raises the engine's error when no die is left.
    """
    code = parse_code(code)
    if actions < 1:
        raise DiceValueError(N_("a round has at least one action"))
    if hurrying:
        code = code.halved()
    if force_point:
        code = code * 2
    if strength_vs_damage:
        return _rollable(code)
    dice = 0
    if prepared and actions == 1 and not reaction:
        dice += 1
    dice -= int(running) + int(crawling) + int(wounded) + stunned + (actions - 1)
    return _rollable(code + Code(dice, 0))


# ---------------------------------------------------------------- health states, ties, initiative, reactions (000)


class HealthState(enum.IntEnum):
    """Base of health-state enums: ordered by severity, printed as the texts name them."""

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


@rule(N_("Who wins a tied opposed roll or initiative: actor, opponent or reroll."))
def tie_winner(actor_is_player: bool, opponent_is_player: bool) -> str:
    """Who wins a tied opposed roll or initiative: ``"actor"``, ``"opponent"`` or ``"reroll"``: the
    player character wins against an NPC; two of a kind roll again (the ``tie`` option)."""
    if actor_is_player == opponent_is_player:
        return "reroll"
    return "actor" if actor_is_player else "opponent"


class Initiative(NamedTuple):
    """An order of action: names from the highest roll down, and the groups of tied characters of the
    same kind (two player characters, or two non-player characters) who roll again."""

    order: list[str]
    roll_again: list[list[str]]


@rule(N_("Who acts first among several whose actions affect each other: the highest roll first."))
def order_by_rolls(rolls: Mapping[str, int], players: Sequence[str] = ()) -> Initiative:
    """Who acts first among several whose actions affect each other (text ``000``): the highest roll;
    on a tie a player character before a non-player character; two of a kind roll again (listed in
    ``roll_again``, kept in the order given meanwhile)."""
    def kind(name: str) -> int:
        return 0 if name in players else 1

    order = sorted(rolls, key=lambda name: (-int(rolls[name]), kind(name)))
    groups: dict[tuple[int, int], list[str]] = {}
    for name in order:
        groups.setdefault((int(rolls[name]), kind(name)), []).append(name)
    return Initiative(order, [names for names in groups.values() if len(names) > 1])


@rule(N_("The attacker's difficulty after a dodge or parry: the roll added to it, or replacing it."))
def reaction_difficulty(base: int, reaction_roll: int, mode: str = "add") -> int:
    """The attacker's difficulty after a dodge or parry: ``"add"`` the roll to it (text ``000``: one
    dodge covers every attack of the segment) or ``"replace"`` it for the rest of the round, even when
    lower (text ``002``)."""
    if mode == "add":
        return base + reaction_roll
    if mode == "replace":
        return reaction_roll
    raise DiceValueError(N_("reaction mode is 'add' or 'replace', not {mode}"), mode=repr(mode))


# ---------------------------------------------------------------- advancement (000)


@rule(N_("The code raised by a number of pips (2D+2 plus one pip is 3D)."))
def advance(code: Code | str, pips: int = 1) -> Code:
    """The code raised by ``pips`` pips (2D+2 plus one pip is 3D)."""
    code = parse_code(code).normalised()
    return Code.from_pips(code.in_pips + pips)


@rule(N_("Skill points to raise a skill by a number of pips."))
def advance_cost(code: Code | str, pips: int = 1, attribute: bool = False) -> int:
    """Skill points to raise a skill by ``pips`` pips: each pip costs the number before the D; attributes
    are never raised (« vous ne pouvez jamais augmenter vos attributs »)."""
    if attribute:
        raise DiceValueError(N_("skill points raise skills: attributes are never raised (text 000)"))
    code = parse_code(code).normalised()
    if pips < 0:
        raise DiceValueError(N_("advancement raises a code"))
    cost = 0
    for _ in range(pips):
        cost += code.dice
        code = advance(code)
    return cost
