"""The ``d6`` system: classic Star Wars D6 (West End Games 1st edition, rule texts ``000`` and ``002``).

Notation: dice codes ``4D+2`` (``4d+2`` too) with code arithmetic (``5D+1 - 2D`` = ``3D+1``;
``2*(5D+1)`` = ``10D+2``, a Force point); checks ``CODE vs N`` (success when the roll is >= N),
``CODE vs N+2D`` (circumstance dice rolled and added to the difficulty, text ``002``),
``CODE vs CODE`` (an opposed roll, ties by the ``tie`` option, see
:mod:`diceengine.systems._d6_checks`), and the range difficulties by name: ``vs point blank`` 5,
``short`` 10, ``medium`` 15, ``long`` 20. A code reduced to 0D cannot be rolled.

The rules of the texts are plain functions here (modifiers, damage, dodges, cover, advancement,
Force points); ``dice rule d6 NAME ...`` runs them from the command line.

Readings chosen where the texts are silent:

- modifiers apply to the code after a Force point doubled it or hurrying halved it: the texts double
  and halve "the code" (the character's), the penalties belong to the roll;
- hurrying halves the code counted in pips, rounded down (5D+1 = 16 pips -> 8 pips = 2D+2);
- a mortally wounded character hurt again stays mortally wounded (the text gives no worse state).
"""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.registry import Option, Plan, System

from ..symbols import D6_FACES
from . import codes as _d6_codes
from .checks import TIE_OPTION, CodeDice, code_range, d6_catalogue, prepare_check
from .codes import Code, parse_code

__all__ = [
    "BASE_DIFFICULTIES",
    "CIRCUMSTANCES",
    "RANGE_DIFFICULTIES",
    "RULES",
    "RULE_SUMMARIES",
    "RULE_WORDS",
    "Code",
    "D6Outcome",
    "D6System",
    "ForcePointUse",
    "Health",
    "Initiative",
    "Wound",
    "actions_in_round",
    "advance",
    "advance_cost",
    "circumstance_dice",
    "cover_result",
    "damage_result",
    "death_chance",
    "death_roll",
    "force_point_outcome",
    "initiative",
    "modified_code",
    "multiple_action_codes",
    "order_by_rolls",
    "parry_bonuses",
    "parse_code",
    "reaction_difficulty",
    "resolve_opposed",
    "round_penalties",
    "tie_winner",
]


class D6Outcome(NamedTuple):
    """The outcome of a classic D6 roll."""

    total: int
    success: bool | None = None
    margin: int | None = None


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


class D6System(System):
    """Classic D6: dice codes, checks against a difficulty, opposed rolls."""

    name = "d6"
    summary = N_("Star Wars D6 (WEG 1st edition): dice codes 4D+2, checks vs N, vs N+2D, opposed vs CODE; "
                 "difficulties by name: point blank 5, short 10, medium 15, long 20")
    examples = ("4D+2", "4D+2 vs 15", "3D vs 2D+2", "5D+1 - 2D vs short", "2*(5D+1)", "5D+2 vs 10+4D+1")
    grammar = "d6.lark"
    grammar_package = "diceengine.grammars"
    outcome = D6Outcome
    options: ClassVar[Mapping[str, Option]] = {"tie": TIE_OPTION}
    symbols = D6_FACES
    difficulties = RANGE_DIFFICULTIES


    def rules_of_play(self) -> types.ModuleType:
        """The state of play of this ruleset (:mod:`diceengine.systems.d6_play`)."""
        from . import play as d6_play

        return d6_play

    def fight_rules(self) -> Any:
        """The combat of this ruleset (:mod:`diceengine.systems.d6_fight`)."""
        from .fight import FIGHT_RULES

        return FIGHT_RULES()

    def ast_modules(self) -> Sequence[Any]:
        return (_d6_codes,)

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        return prepare_check(tree, expression, CodeDice(), D6Outcome, self.difficulties, options["tie"])

    def catalogue(self) -> Sequence[tuple[str, str]]:
        return d6_catalogue(self.difficulties)

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        names = [(k.replace("_", " "), k.replace("_", " ")) for k in ("point_blank", "short", "medium", "long")]
        return [(c, c) for c in code_range(1, 8, pips=False)], names


# ---------------------------------------------------------------- modifiers (000, 002)


def _rollable(code: Code) -> Code:
    if code.dice <= 0:
        raise DiceValueError(f"the code is reduced to {code}: a code reduced to 0D cannot be rolled")
    return code


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
        raise DiceValueError("a round has at least one action")
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


def round_penalties(declared: int, reactions_after: Sequence[int] = ()) -> list[int]:
    """Dice lost on each roll of a round, in order (text ``000``).

    ``declared`` skill uses are announced at the start of the round; each reaction (dodge, parry)
    made after the ``k``-th declared roll counts as one more use from that moment: the rolls before it
    keep their penalty, the reaction and every later roll lose one more die.
    """
    if declared < 0 or any(k < 0 or k > declared for k in reactions_after):
        raise DiceValueError("a reaction comes after 0 to all of the declared rolls")
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


def multiple_action_codes(code: Code | str, declared: int, reactions_after: Sequence[int] = (),
                          running: bool = False, wounded: bool = False) -> list[Code]:
    """The code of each roll of a round of several actions (see :func:`round_penalties`)."""
    base = parse_code(code)
    extra = int(running) + int(wounded)
    return [_rollable(base - Code(p + extra, 0)) for p in round_penalties(declared, reactions_after)]


def circumstance_dice(*names: str) -> Code:
    """The dice added to the difficulty by circumstances of text ``002`` (``"low_light"``, ...)."""
    total = 0
    for name in names:
        key = name.lower().replace(" ", "_").replace("-", "_")
        if key not in CIRCUMSTANCES:
            raise DiceValueError(f"unknown circumstance {name!r} (known: {', '.join(CIRCUMSTANCES)})")
        total += CIRCUMSTANCES[key]
    return Code(total, 0)


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


# ---------------------------------------------------------------- damage (000)


class HealthState(enum.IntEnum):
    """Base of health-state enums: ordered by severity, printed as the texts name them."""

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


class Wound(HealthState):
    """Health states of text ``000``, from the least to the most severe."""

    HEALTHY = 0
    STUNNED = 1
    WOUNDED = 2
    INCAPACITATED = 3
    MORTALLY_WOUNDED = 4


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


def death_roll(rounds_elapsed: int, roll: int) -> bool:
    """Whether a mortally wounded character dies: the 2D roll is below the rounds elapsed."""
    return roll < rounds_elapsed


def death_chance(rounds_elapsed: int) -> float:
    """Exact chance that the end-of-round 2D roll kills a mortally wounded character."""
    from diceengine.api import distribution

    return 1.0 - distribution("2D", "d6").at_least(rounds_elapsed)


def reaction_difficulty(base: int, reaction_roll: int, mode: str = "add") -> int:
    """The attacker's difficulty after a dodge or parry: ``"add"`` the roll to it (text ``000``: one
    dodge covers every attack of the segment) or ``"replace"`` it for the rest of the round, even when
    lower (text ``002``)."""
    if mode == "add":
        return base + reaction_roll
    if mode == "replace":
        return reaction_roll
    raise DiceValueError(f"reaction mode is 'add' or 'replace', not {mode!r}")


def resolve_opposed(actor: int, opponent: int, actor_is_player: bool = True,
                    opponent_is_player: bool = False) -> str:
    """Who wins an opposed roll (or initiative) with these totals: ``"actor"``, ``"opponent"`` or
    ``"reroll"``; the higher total wins, ties by :func:`tie_winner`."""
    if actor != opponent:
        return "actor" if actor > opponent else "opponent"
    return tie_winner(actor_is_player, opponent_is_player)


def initiative(actor: int, opponent: int, actor_is_player: bool = True, opponent_is_player: bool = False) -> str:
    """Who acts first when two actions affect each other (text ``000``): the higher roll; ties as for
    opposed rolls (the player character first; two of a kind roll again)."""
    return resolve_opposed(actor, opponent, actor_is_player, opponent_is_player)


class Initiative(NamedTuple):
    """An order of action: names from the highest roll down, and the groups of tied characters of the
    same kind (two player characters, or two non-player characters) who roll again."""

    order: list[str]
    roll_again: list[list[str]]


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


def parry_bonuses(parry: str, attack: str) -> tuple[int, int]:
    """``(bonus to the parry roll, bonus to the attack roll)`` of text ``002``: a melee parry against a
    bare-handed attack gets +5; a bare-handed parry against a weapon gives the attack +10.
    ``parry``: ``"melee"`` or ``"brawling"``; ``attack``: ``"armed"`` or ``"unarmed"``."""
    if parry not in ("melee", "brawling") or attack not in ("armed", "unarmed"):
        raise DiceValueError("parry is 'melee' or 'brawling', attack is 'armed' or 'unarmed'")
    if parry == "melee" and attack == "unarmed":
        return 5, 0
    if parry == "brawling" and attack == "armed":
        return 0, 10
    return 0, 0


def actions_in_round(rolls: int, draw_weapon: bool = False, set_stun: bool = False) -> int:
    """Actions a round counts for the multiple-action penalty (text ``002``): drawing a weapon and
    switching a blaster between stun and kill are actions without a roll."""
    return rolls + int(draw_weapon) + int(set_stun)


def tie_winner(actor_is_player: bool, opponent_is_player: bool) -> str:
    """Who wins a tied opposed roll or initiative: ``"actor"``, ``"opponent"`` or ``"reroll"``: the
    player character wins against an NPC; two of a kind roll again (the ``tie`` option)."""
    if actor_is_player == opponent_is_player:
        return "reroll"
    return "actor" if actor_is_player else "opponent"


# ---------------------------------------------------------------- advancement (000)


def advance(code: Code | str, pips: int = 1) -> Code:
    """The code raised by ``pips`` pips (2D+2 plus one pip is 3D)."""
    code = parse_code(code).normalised()
    return Code.from_pips(code.in_pips + pips)


def advance_cost(code: Code | str, pips: int = 1, attribute: bool = False) -> int:
    """Skill points to raise a skill by ``pips`` pips: each pip costs the number before the D; attributes
    are never raised (« vous ne pouvez jamais augmenter vos attributs »)."""
    if attribute:
        raise DiceValueError("skill points raise skills: attributes are never raised (text 000)")
    code = parse_code(code).normalised()
    if pips < 0:
        raise DiceValueError("advancement raises a code")
    cost = 0
    for _ in range(pips):
        cost += code.dice
        code = advance(code)
    return cost


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


def force_point_outcome(use: ForcePointUse | str) -> ForcePointResult:
    """The four outcomes of spending a Force point (text ``000``)."""
    use = ForcePointUse(use)
    return {
        ForcePointUse.EVIL: ForcePointResult(True, True, False, False),
        ForcePointUse.NEUTRAL: ForcePointResult(True, False, False, False),
        ForcePointUse.HEROIC: ForcePointResult(False, False, True, False),
        ForcePointUse.DRAMATIC: ForcePointResult(False, False, True, True),
    }[use]


#: the rules runnable from the command line: ``dice rule d6 NAME key=value ...``
RULES = {
    "modified_code": modified_code, "multiple_action_codes": multiple_action_codes,
    "round_penalties": round_penalties, "circumstance_dice": circumstance_dice, "cover_result": cover_result,
    "damage_result": damage_result, "death_chance": death_chance, "death_roll": death_roll,
    "reaction_difficulty": reaction_difficulty, "tie_winner": tie_winner, "resolve_opposed": resolve_opposed, "initiative": initiative, "order_by_rolls": order_by_rolls,
    "parry_bonuses": parry_bonuses, "actions_in_round": actions_in_round, "advance": advance,
    "advance_cost": advance_cost, "force_point_outcome": force_point_outcome,
}

#: each rule's one-line summary (``dice rule`` lists them in the user's language)
RULE_SUMMARIES = {
    "modified_code": N_("The code rolled, built from a base code and the circumstances of the roll."),
    "multiple_action_codes": N_("The code of each roll of a round of several actions."),
    "round_penalties": N_("Dice lost on each roll of a round, in order (text 000)."),
    "circumstance_dice": N_("The dice added to the difficulty by circumstances (text 002)."),
    "cover_result": N_("A shot at a covered target: hit, cover (the obstacle is hit) or miss (text 002)."),
    "damage_result": N_("What a damage roll does against a Strength roll: stunned, wounded, incapacitated or mortally"
                        " wounded."),
    "death_chance": N_("Exact chance that the end-of-round 2D roll kills a mortally wounded character."),
    "death_roll": N_("Whether a mortally wounded character dies: the 2D roll is below the rounds elapsed."),
    "reaction_difficulty": N_("The attacker's difficulty after a dodge or parry: the roll added to it, or replacing "
                              "it."),
    "tie_winner": N_("Who wins a tied opposed roll or initiative: actor, opponent or reroll."),
    "resolve_opposed": N_("Who wins an opposed roll with these totals: actor, opponent or reroll."),
    "initiative": N_("Who acts first when two actions affect each other (text 000): actor, opponent or reroll."),
    "order_by_rolls": N_("Who acts first among several whose actions affect each other: the highest roll first."),
    "parry_bonuses": N_("The bonuses to the parry roll and to the attack roll of a parry (text 002)."),
    "actions_in_round": N_("Actions a round counts for the multiple-action penalty (text 002)."),
    "advance": N_("The code raised by a number of pips (2D+2 plus one pip is 3D)."),
    "advance_cost": N_("Skill points to raise a skill by a number of pips."),
    "force_point_outcome": N_("The four outcomes of spending a Force point (text 000)."),
}
#: the words a rule's result may be (``dice rule`` prints them in the user's language)
RULE_WORDS = (N_("healthy"), N_("stunned"), N_("wounded"), N_("incapacitated"), N_("mortally wounded"), N_("hit"),
              N_("cover"), N_("miss"), N_("actor"), N_("opponent"), N_("reroll"))
