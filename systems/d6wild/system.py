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

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

import numpy as np

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION, Cost
from diceengine.parts import Dice, Face, Group, Part, Words
from diceengine.pmf import PMF, convolve_cost, keep_sum, keep_sum_cost, power_cost
from diceengine.registry import Option, Plan, System
from diceengine.rolls import Die

from ..d6 import codes as _d6_codes
from ..d6.checks import (
    D6_FACE_PARTS,
    TIE_OPTION,
    CodeDice,
    code_range,
    d6_catalogue,
    d6_texts,
    joined,
    prepare_check,
)
from ..d6.codes import Code, parse_code
from ..d6.shared import HealthState, Initiative, advance, advance_cost, modified_code, order_by_rolls
from ..symbols import D6_FACES, WILD_FACES

__all__ = [
    "LADDER",
    "RULES",
    "RULE_SUMMARIES",
    "RULE_WORDS",
    "D6WildSystem",
    "Initiative",
    "WildDice",
    "WildHealth",
    "WildOutcome",
    "WildWound",
    "advance",
    "advance_cost",
    "after_reaction",
    "damage_result",
    "initiative",
    "initiative_check",
    "modified_code",
    "multiple_actions",
    "spend_character_point",
    "training_days",
    "unconscious_minutes",
]


class WildOutcome(NamedTuple):
    """The outcome of a roll with the Wild Die."""

    total: int
    complication: bool
    explosions: int
    success: bool | None = None
    margin: int | None = None


#: the difficulty ladder of text ``003`` (English and French names)
LADDER: dict[str, int] = {
    "very_easy": 5, "easy": 10, "moderate": 15, "difficult": 20, "very_difficult": 25, "heroic": 30,
    "tres_facile": 5, "facile": 10, "moyen": 15, "difficile": 20, "tres_difficile": 25, "heroique": 30,
}

#: the ladder's names (messages of the catalogues: each language's names are read as input too)
DIFFICULTY_NAMES = (N_("very easy"), N_("easy"), N_("moderate"), N_("difficult"), N_("very difficult"), N_("heroic"))

_D6 = PMF.from_counts(range(1, 7))

_FACE_PARTS: dict[tuple[int, str, bool, bool], Face] = {}


def _face(value: int, kind: str, kept: bool, added: bool) -> Face:
    """A die of a code as a part of a roll's text (built once per kind of face)."""
    key = (value, kind, kept, added)
    face = _FACE_PARTS.get(key)
    if face is None:
        wild = kind == "wild"
        face = _FACE_PARTS[key] = Face(Die(kind, 6, value, kept=kept, exploded=wild and value == 6, added=added,
                                           wild=wild))
    return face


WILD = N_("wild")
COMPLICATION = N_("complication")
CHARACTER_POINT = N_("character point")
_WILD, _COMPLICATION, _CHARACTER_POINT = Words(WILD), Words(COMPLICATION), Words(CHARACTER_POINT)


def _exploding_d6(tolerance: float) -> tuple[PMF, float]:
    """One d6 that is rolled again and added on each 6 (truncated); the mass left out."""
    out = PMF.point(0, 0.0)
    k = 0
    while True:
        mass = (1 / 6) ** k
        if mass < tolerance or k > MAX_EXPLOSIONS:
            return out, mass
        out = out.mix(PMF.from_counts(range(1, 6), mass / 6).shift(6 * k))
        k += 1


@dataclass(frozen=True)
class WildDice(CodeDice):
    """Throws a code with a Wild Die, under the system's options."""

    complication: str = "flag"
    wild: bool = True
    character_point: bool = False
    character_point_explodes: bool = False

    extras = ("complication", "explosions")

    # ------------------------------------------------------------ one roll
    def _chain(self, r: Callable[[], float]) -> list[int]:
        chain = [int(r() * 6) + 1]
        while chain[-1] == 6:
            if len(chain) > MAX_EXPLOSIONS:
                raise DiceLimitError(f"more than {MAX_EXPLOSIONS} explosions of one die")
            chain.append(int(r() * 6) + 1)
        return chain

    def roll(self, code: Code, r: Callable[[], float]) -> tuple[int, tuple, Any]:
        wild = self.wild
        normal = [int(r() * 6) + 1 for _ in range(code.dice - 1 if wild else code.dice)]
        chain = self._chain(r) if wild else []
        flagged = wild and chain[0] == 1 and self.complication != "none"
        removed = None
        if flagged and self.complication == "remove_highest":
            if normal:
                removed = max(range(len(normal)), key=normal.__getitem__)
                total = sum(normal) - normal[removed]
            else:
                total = 0
        else:
            total = sum(normal) + sum(chain)
        bonus: list[int] = []
        if self.character_point:
            bonus = self._chain(r) if self.character_point_explodes else [int(r() * 6) + 1]
        total += sum(bonus) + code.pips
        return total, (flagged, max(len(chain) - 1, 0)), (normal, chain, bonus, removed, flagged, code.pips)

    def dice(self, record: Any) -> list[Die]:
        normal, chain, bonus, removed, flagged, _ = record
        cut = flagged and self.complication == "remove_highest"
        out = [Die("d6", 6, v, kept=i != removed) for i, v in enumerate(normal)]
        for i, v in enumerate(chain):
            out.append(Die("wild", 6, v, kept=not cut, exploded=v == 6, added=i > 0, wild=True))
        for i, v in enumerate(bonus):
            out.append(Die("d6", 6, v, exploded=v == 6 and self.character_point_explodes, added=True,
                           label="character point"))
        return out

    def parts(self, record: Any, code: Code) -> list[Part]:
        normal, chain, bonus, removed, flagged, pips = record
        cut = flagged and self.complication == "remove_highest"
        if removed is None:
            items: list[Any] = [Dice("d6", 6, tuple(normal))] if normal else []
        else:
            items = [D6_FACE_PARTS[v] for v in normal]
            items[removed] = _face(normal[removed], "d6", False, False)
        if chain:
            faces: list[Part] = []
            for i, v in enumerate(chain):
                if i:
                    faces.append("+")
                faces.append(_face(v, "wild", not cut, i > 0))
            shown: list[Part] = [Group(tuple(faces))] if cut else faces
            item: list[Part] = [_WILD, " ", *shown]
            if flagged:
                item += [" (", _COMPLICATION, ")"]
            items.append(item)
        if bonus:
            item = [_CHARACTER_POINT, " "]
            for i, v in enumerate(bonus):
                if i:
                    item.append("+")
                item.append(Face(Die("d6", 6, v, exploded=v == 6 and self.character_point_explodes, added=True,
                                     label="character point")))
            items.append(item)
        return joined(items, pips)

    def writer(self, text: Callable[[Any], str], code: Code) -> Callable[[Any], str]:
        """:meth:`parts` compiled (a Wild Die without a complication removing a die and without a
        character point; other rolls are written part by part)."""
        run = d6_texts(text)
        plus, minus = text(" + "), text(" - ")
        wild = text(_WILD) + text(" ")
        chained = text("+")
        faces = {(v, added): text(_face(v, "wild", True, added)) for v in range(1, 7) for added in (False, True)}
        complication = text(" (") + text(_COMPLICATION) + text(")")
        tails: dict[int, str] = {}
        removes = self.complication == "remove_highest"

        def write(record: Any) -> str:
            normal, chain, bonus, removed, flagged, pips = record
            if removed is not None or bonus or not chain or (flagged and removes):
                return "".join([text(p) for p in self.parts(record, code)])
            line = plus.join([run[v] for v in normal]) + plus + wild if normal else wild
            line += chained.join([faces[(v, i > 0)] for i, v in enumerate(chain)])
            if flagged:
                line += complication
            if not pips:
                return line
            tail = tails.get(pips)
            if tail is None:
                tail = tails[pips] = (minus if pips < 0 else plus) + text(str(abs(pips)))
            return line + tail

        return write

    def opponent(self) -> WildDice:
        """The opposing side throws with its own Wild Die but never with the actor's character point."""
        return replace(self, character_point=False, character_point_explodes=False)

    # ------------------------------------------------------------ exact
    def _bonus(self) -> tuple[PMF, float]:
        if not self.character_point:
            return PMF.point(0), 0.0
        if self.character_point_explodes:
            return _exploding_d6(TRUNCATION / 10)
        return _D6, 0.0

    def joint(self, code: Code) -> tuple[dict[tuple, PMF], float]:
        bonus, truncated = self._bonus()
        tail = bonus.shift(code.pips)
        if not self.wild:
            return {(False, 0): _D6.power(code.dice) + tail}, truncated
        n = code.dice - 1
        normal = _D6.power(n)
        out: dict[tuple, PMF] = {}
        first = PMF.from_counts(range(1 if self.complication == "none" else 2, 6), 1 / 6)
        out[(False, 0)] = normal + first + tail
        if self.complication == "flag":
            out[(True, 0)] = (normal.shift(1) + tail).scale_mass(1 / 6)
        elif self.complication == "remove_highest":
            if n == 0:
                rest = PMF.point(0)
            else:
                rest = keep_sum([(f, 1 / 6) for f in range(1, 7)], n, n - 1, highest=False)
            out[(True, 0)] = (rest + tail).scale_mass(1 / 6)
        k = 1
        while True:
            mass = (1 / 6) ** (k + 1)  # k sixes, then each of 1..5
            if 5 * mass < TRUNCATION / 10 or k > MAX_EXPLOSIONS:
                truncated += (1 / 6) ** k  # chains of k sixes or more
                break
            out[(False, k)] = normal + PMF.from_counts(range(1, 6), mass).shift(6 * k) + tail
            k += 1
        return out, truncated

    def joint_cost(self, code: Code) -> tuple[Cost, int, int]:
        """What :meth:`joint` will cost (``(Cost, rows, span of the totals)``), estimated without computing it."""
        bonus = 1 + (5 * 16 if self.character_point_explodes else 5 if self.character_point else 0)
        n = code.dice - 1 if self.wild else code.dice
        cost, length = power_cost(6, max(n, 0))
        if not self.wild:
            return cost + convolve_cost(length, bonus), length + bonus - 1, length + bonus - 1
        keys = 18  # no explosion, a complication, and chains of 1 to about 16 sixes
        cost = cost + Cost(keys * (convolve_cost(length, 5).work + convolve_cost(length + 4, bonus).work), 4 * length)
        if self.complication == "remove_highest" and n > 0:
            cost = cost + keep_sum_cost(6, n, n - 1, 1, 6)
        length += 4 + bonus - 1
        return cost, keys * length, length + 6 * keys

    # ------------------------------------------------------------ bulk
    def _sample_chain(self, n: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        first = gen.integers(1, 7, size=n)
        total = first.copy()
        explosions = np.zeros(n, dtype=np.int64)
        active = np.flatnonzero(first == 6)
        depth = 0
        while len(active):
            depth += 1
            if depth > MAX_EXPLOSIONS:
                raise DiceLimitError(f"more than {MAX_EXPLOSIONS} explosions of one die")
            new = gen.integers(1, 7, size=len(active))
            total[active] += new
            explosions[active] += 1
            active = active[new == 6]
        return first, total, explosions

    def sample(self, code: Code, n: int, gen: np.random.Generator) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        k = code.dice - 1 if self.wild else code.dice
        normal = gen.integers(1, 7, size=(n, k)) if k else np.zeros((n, 0), dtype=np.int64)
        total = normal.sum(axis=1)
        if self.wild:
            first, wild_total, explosions = self._sample_chain(n, gen)
            flagged = first == 1 if self.complication != "none" else np.zeros(n, dtype=bool)
            total = total + wild_total
            if self.complication == "remove_highest":
                cut = normal.sum(axis=1) - (normal.max(axis=1) if k else 0)
                total = np.where(flagged, cut, total)
        else:
            flagged = np.zeros(n, dtype=bool)
            explosions = np.zeros(n, dtype=np.int64)
        if self.character_point:
            if self.character_point_explodes:
                total = total + self._sample_chain(n, gen)[1]
            else:
                total = total + gen.integers(1, 7, size=n)
        return total + code.pips, {"complication": flagged, "explosions": explosions}


class D6WildSystem(System):
    """D6 with the Wild Die."""

    name = "d6wild"
    summary = N_("Star Wars D6 with the Wild Die: explodes on a 6, a first 1 flags a complication; difficulties: "
               "very easy 5, easy 10, moderate 15, difficult 20, very difficult 25, heroic 30")
    examples = ("4D+2", "4D+1 vs moderate", "3D+2 vs 2D+1", "5D vs 13")
    grammar = "d6.lark"
    grammar_package = "diceengine.grammars"
    outcome = WildOutcome
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


    def rules_of_play(self) -> types.ModuleType:
        """The state of play of this ruleset (:mod:`diceengine.systems.d6wild_play`)."""
        from . import play as d6wild_play

        return d6wild_play

    def fight_rules(self) -> Any:
        """The combat of this ruleset (:mod:`diceengine.systems.d6wild_fight`)."""
        from .fight import FIGHT_RULES

        return FIGHT_RULES()

    def ast_modules(self) -> Sequence[Any]:
        return (_d6_codes,)

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        dice = WildDice(options["complication"], options["wild"], options["character_point"],
                        options["character_point_explodes"])
        transform = (lambda code: code * 2) if options["force_point"] else None
        return prepare_check(tree, expression, dice, WildOutcome, LADDER, options["tie"], transform)

    def catalogue(self) -> Sequence[tuple[str, str]]:
        return d6_catalogue(LADDER)

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        names = ["very_easy", "easy", "moderate", "difficult", "very_difficult", "heroic"]
        return [(c, c) for c in code_range(1, 8, pips=False)], [(n.replace("_", " "),) * 2 for n in names]


def spend_character_point(roll: Any, seed: Any = None, explodes: bool = False) -> Any:
    """The roll with one character-point die added after it (+1D, text ``003``): not cumulative, so a
    roll that already has one is refused. ``explodes``: the die is re-rolled and added on a 6."""
    from diceengine.rng import python_rng
    from diceengine.rolls import Roll

    plan = roll._plan
    record = roll._record
    normal, chain, bonus, removed, flagged, pips = record[0]
    if bonus:
        raise DiceValueError("a character point adds one die to a roll, not more (not cumulative)")
    if not isinstance(plan.dice_model, WildDice):
        raise DiceValueError("only a d6wild roll takes a character point")
    dice = replace(plan.dice_model, character_point=True, character_point_explodes=explodes)
    r = python_rng(seed).random
    extra = dice._chain(r) if explodes else [int(r() * 6) + 1]
    total = roll.outcome.total + sum(extra)
    fields = {"total": total}
    if roll.outcome.success is not None:
        against = plan.difficulty if not plan.rolled_difficulty else record[2]
        margin = total - against
        fields["margin"] = margin
        fields["success"] = margin > 0 or (margin == 0 and (not plan.rolled_difficulty or plan.tie == "actor"))
    new_plan = copy_plan(plan, dice)
    new_record = ((normal, chain, extra, removed, flagged, pips),) + tuple(record[1:])
    return Roll(new_plan, roll.outcome._replace(**fields), new_record, roll.expression, roll.system)


def copy_plan(plan: Any, dice: WildDice) -> Any:
    """The same plan throwing with other Wild Die options (to explain a roll after a character point)."""
    import copy

    clone = copy.copy(plan)
    clone.dice_model = dice
    return clone


# ---------------------------------------------------------------- damage (003)


class WildWound(HealthState):
    """Damage results of text ``003`` (damage minus Strength, plus armour)."""

    LIGHT_STUN = 1
    STUN = 2
    WOUNDED = 3
    INCAPACITATED = 4
    MORTALLY_WOUNDED = 5
    KILLED = 6


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


def unconscious_minutes(seed: Any = None) -> int:
    """Minutes unconscious after too many stuns: 2D6."""
    from diceengine.api import roll

    return roll("2d6", seed=seed).total


def multiple_actions(actions: int) -> tuple[int, int]:
    """``(dice lost on every action of the round, movement percentage)`` for declared actions: 1 -> (0, 100),
    2 -> (1, 80), 3 -> (2, 60), 4 -> (3, 40), 5 -> (4, 20), then one more die each and no movement."""
    if actions < 1:
        raise DiceValueError("a round has at least one declared action")
    return actions - 1, max(0, 100 - 20 * (actions - 1))


def after_reaction(declared: int, taken: int) -> tuple[int, int]:
    """A reaction uses an action left (``taken < declared``) or adds one: the new ``(declared actions,
    penalty in dice)`` for the rest of the round."""
    if taken < declared:
        return declared, multiple_actions(declared)[0]
    return declared + 1, multiple_actions(declared + 1)[0]


def initiative(perception: Mapping[str, int], players: Sequence[str] = ()) -> Initiative:
    """Who acts first (text ``003``: the highest Perception roll). A tie between a player character and
    a non-player character goes to the player character; two of a kind roll again (text ``000``'s rule),
    listed in ``roll_again`` and kept in the order given meanwhile."""
    return order_by_rolls(perception, players)


def initiative_check(perception: Code | str) -> str:
    """The roll for initiative: the Perception code, thrown with the Wild Die (an expression for
    ``roll`` / ``distribution`` with ``system="d6wild"``)."""
    return str(parse_code(perception))


def training_days(code: Code | str, used: bool, teacher: bool) -> int:
    """Training days to raise a skill one pip between sessions: none if it was used; otherwise as many
    days as the character points it costs with a teacher, twice as many without."""
    cost = advance_cost(code, 1)
    if used:
        return 0
    return cost if teacher else 2 * cost


def skill_advance_cost(code: Code | str, pips: int = 1, attribute: bool = False) -> int:
    """Character points to raise a skill by ``pips`` pips (the number before the D per pip);
    attributes cannot be raised by experience."""
    if attribute:
        raise DiceValueError("attributes cannot be raised with experience (text 003)")
    return advance_cost(parse_code(code), pips)


RULES = {
    "damage_result": damage_result, "multiple_actions": multiple_actions, "after_reaction": after_reaction,
    "training_days": training_days, "skill_advance_cost": skill_advance_cost, "advance": advance,
    "modified_code": modified_code, "unconscious_minutes": unconscious_minutes, "initiative": initiative,
    "initiative_check": initiative_check,
}

#: each rule's one-line summary (``dice rule`` lists them in the user's language)
RULE_SUMMARIES = {
    "damage_result": N_("The band of damage minus Strength and armour: light stun, stun, wounded, incapacitated, "
                        "mortally wounded or killed."),
    "multiple_actions": N_("The dice lost on every action and the movement percentage for the declared actions."),
    "after_reaction": N_("The declared actions and the penalty in dice after a reaction."),
    "training_days": N_("Training days to raise a skill one pip between sessions."),
    "skill_advance_cost": N_("Character points to raise a skill by a number of pips."),
    "advance": N_("The code raised by a number of pips (2D+2 plus one pip is 3D)."),
    "modified_code": N_("The code rolled, built from a base code and the circumstances of the roll."),
    "unconscious_minutes": N_("Minutes unconscious after too many stuns: 2D6."),
    "initiative": N_("Who acts first: the highest Perception roll (text 003)."),
    "initiative_check": N_("The roll for initiative: the Perception code, with the Wild Die."),
}
#: the words a rule's result may be (``dice rule`` prints them in the user's language)
RULE_WORDS = (N_("light stun"), N_("stun"), N_("wounded"), N_("incapacitated"), N_("mortally wounded"),
              N_("killed"))
