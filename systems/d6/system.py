"""The ``d6`` system: classic Star Wars D6 (West End Games 1st edition, rule texts ``000`` and ``002``).

Notation: dice codes ``4D+2`` (``4d+2`` too) with code arithmetic (``5D+1 - 2D`` = ``3D+1``;
``2*(5D+1)`` = ``10D+2``, a Force point); checks ``CODE vs N`` (success when the roll is >= N),
``CODE vs N+2D`` (circumstance dice rolled and added to the difficulty, text ``002``),
``CODE vs CODE`` (an opposed roll, ties by the ``tie`` option, see
:mod:`diceengine.systems.d6.checks`), and the range difficulties by name: ``vs point blank`` 5,
``short`` 10, ``medium`` 15, ``long`` 20. A code reduced to 0D cannot be rolled.

The rules of the texts are plain functions (:mod:`~diceengine.systems.d6.rules`, and
:mod:`~diceengine.systems.d6.shared` for what the Wild Die shares); ``dice rule d6 NAME ...`` runs
them from the command line.

Readings chosen where the texts are silent:

- modifiers apply to the code after a Force point doubled it or hurrying halved it: the texts double
  and halve "the code" (the character's), the penalties belong to the roll;
- hurrying halves the code counted in pips, rounded down (5D+1 = 16 pips -> 8 pips = 2D+2);
- a mortally wounded character hurt again stays mortally wounded (the text gives no worse state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

import diceengine.systems.d6.codes as codes  # noqa: PLR0402 - the module itself, not its package's re-exports

from diceengine.i18n import N_
from diceengine.registry import Option, Plan

from ..rulebook import rule_table
from ..ruleset import Ruleset
from ..symbols import D6_FACES
from .checks import TIE_OPTION, CodeDice, code_range, d6_catalogue, prepare_check
from .rules import (
    actions_in_round,
    circumstance_dice,
    cover_result,
    damage_result,
    death_chance,
    death_roll,
    force_point_outcome,
    initiative,
    multiple_action_codes,
    parry_bonuses,
    resolve_opposed,
    round_penalties,
)
from .shared import (
    RANGE_DIFFICULTIES,
    advance,
    advance_cost,
    modified_code,
    order_by_rolls,
    reaction_difficulty,
    tie_winner,
)

__all__ = ["RULES", "RULE_SUMMARIES", "RULE_WORDS", "D6Outcome", "D6System"]


#: what a syntax error calls the tokens of the D6 grammar (``grammars/d6.lark``), in the order it lists them
_TOKEN_WORDS: Mapping[str, str] = {
    "DCODE": N_("D (a dice code: 4D)"),
    **dict.fromkeys(("WORD", "FRENCH_WORD"), N_("a difficulty by name")),
}


class D6Outcome(NamedTuple):
    """The outcome of a classic D6 roll."""

    total: int
    success: bool | None = None
    margin: int | None = None


class D6System(Ruleset):
    """Classic D6: dice codes, checks against a difficulty, opposed rolls."""

    name = "d6"
    summary = N_("Star Wars D6 (WEG 1st edition): dice codes 4D+2, checks vs N, vs N+2D, opposed vs CODE; "
                 "difficulties by name: point blank 5, short 10, medium 15, long 20")
    examples: ClassVar[Sequence[str]] = ("4D+2", "4D+2 vs 15", "3D vs 2D+2", "5D+1 - 2D vs short", "2*(5D+1)", "5D+2 vs 10+4D+1")
    grammar = "d6.lark"
    grammar_package = "diceengine.grammars"
    outcome: ClassVar[type] = D6Outcome
    options: ClassVar[Mapping[str, Option]] = {"tie": TIE_OPTION}
    symbols = D6_FACES
    difficulties: ClassVar[Mapping[str, int]] = RANGE_DIFFICULTIES
    play_module = "diceengine.systems.d6.play"
    fight_module = "diceengine.systems.d6.fight"

    def ast_modules(self) -> Sequence[Any]:
        return (codes,)

    def token_words(self) -> Mapping[str, str]:
        """The words of the grammar's own tokens: a dice code's ``D``, a difficulty by name."""
        return _TOKEN_WORDS

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        return prepare_check(tree, expression, CodeDice(), D6Outcome, self.difficulties, options["tie"])

    def catalogue(self) -> Sequence[tuple[str, str]]:
        return d6_catalogue(self.difficulties)

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        """Codes 1D to 8D against each step of ``difficulties``, by its first (English) name."""
        names: dict[int, str] = {}
        for name, value in self.difficulties.items():
            names.setdefault(value, name.replace("_", " "))
        return [(c, c) for c in code_range(1, 8, pips=False)], [(n, n) for n in names.values()]


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    modified_code, multiple_action_codes, round_penalties, circumstance_dice, cover_result, damage_result,
    death_chance, death_roll, reaction_difficulty, tie_winner, resolve_opposed, initiative, order_by_rolls,
    parry_bonuses, actions_in_round, advance, advance_cost, force_point_outcome,
)

#: the words a rule's result may be (``dice rule`` prints them in the user's language)
RULE_WORDS = (N_("healthy"), N_("stunned"), N_("wounded"), N_("incapacitated"), N_("mortally wounded"), N_("hit"),
              N_("cover"), N_("miss"), N_("actor"), N_("opponent"), N_("reroll"))
