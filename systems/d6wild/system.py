"""The ``d6wild`` system: Star Wars D6 with the Wild Die (2nd edition Revised style, rule text ``003``).

Same notation and code machinery as :mod:`diceengine.systems.d6` (``4D+2``, ``vs 15``,
``vs moderate``, opposed codes); the difficulty ladder is very easy 5, easy 10, moderate 15,
difficult 20, very difficult 25, heroic 30 (8 and 13 are written as numbers).

In every roll of a code one die is the Wild Die: a 6 is rolled again and added, again and again
(``explosions`` counts the re-rolls); a first roll of 1 flags a possible complication. Options:

- ``complication``: ``"flag"`` (the text: the 1 counts and the roll is flagged), ``"remove_highest"``
  (the Wild Die and the highest other die are removed from the total, and the roll is flagged) or
  ``"none"`` (a 1 is just a 1);
- ``wild=False`` turns the Wild Die off (the classic D6 roll);
- ``character_point``: one more die after the roll (+1D, not cumulative), exploding on a 6 like the
  Wild Die when ``character_point_explodes``;
- ``force_point``: the code is doubled for the roll (not the character point die).

A rolled difficulty (an opposing code) is thrown with its own Wild Die; only the actor's
complication and explosions are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from diceengine.i18n import N_
from diceengine.registry import Option, Plan

from ..d6.checks import TIE_OPTION, prepare_check
from ..d6.shared import advance, modified_code
from ..d6.system import D6System
from ..rulebook import rule_table
from ..symbols import D6_FACES, WILD_FACES
from .dice import WildDice
from .rules import (
    LADDER,
    after_reaction,
    damage_result,
    initiative,
    initiative_check,
    multiple_actions,
    skill_advance_cost,
    training_days,
    unconscious_minutes,
)

__all__ = ["RULES", "RULE_SUMMARIES", "RULE_WORDS", "D6WildSystem", "WildOutcome"]


class WildOutcome(NamedTuple):
    """The outcome of a roll with the Wild Die."""

    total: int
    complication: bool
    explosions: int
    success: bool | None = None
    margin: int | None = None


class D6WildSystem(D6System):
    """D6 with the Wild Die: classic D6's notation, codes, catalogue and ladder, with its own dice, options,
    difficulties, state of play and combat."""

    name = "d6wild"
    summary = N_("Star Wars D6 with the Wild Die: explodes on a 6, a first 1 flags a complication; difficulties: "
               "very easy 5, easy 10, moderate 15, difficult 20, very difficult 25, heroic 30")
    examples = ("4D+2", "4D+1 vs moderate", "3D+2 vs 2D+1", "5D vs 13")
    outcome = WildOutcome
    difficulties = LADDER
    play_module = "diceengine.systems.d6wild.play"
    fight_module = "diceengine.systems.d6wild.fight"
    symbols: ClassVar[dict[str, Any]] = {**D6_FACES, **WILD_FACES}
    options: ClassVar[Mapping[str, Option]] = {
        "complication": Option("flag", N_("what a first 1 on the Wild Die does"),
                               choices=("flag", "remove_highest", "none")),
        "wild": Option(True, N_("roll one die of the code as the Wild Die")),
        "character_point": Option(False, N_("add one character-point die after the roll (+1D, not cumulative)")),
        "character_point_explodes": Option(False, N_("the character-point die explodes on a 6 like the Wild Die")),
        "force_point": Option(False, N_("a Force point doubles the code (not the character-point die)")),
        "tie": TIE_OPTION,
    }

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        dice = WildDice(options["complication"], options["wild"], options["character_point"],
                        options["character_point_explodes"])
        transform = (lambda code: code * 2) if options["force_point"] else None
        return prepare_check(tree, expression, dice, WildOutcome, self.difficulties, options["tie"], transform)


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    damage_result, multiple_actions, after_reaction, training_days, skill_advance_cost, advance, modified_code,
    unconscious_minutes, initiative, initiative_check,
)

#: the words a rule's result may be (``dice rule`` prints them in the user's language)
RULE_WORDS = (N_("light stun"), N_("stun"), N_("wounded"), N_("incapacitated"), N_("mortally wounded"),
              N_("killed"))
