"""Throwing a D6 code with the Wild Die (rule text ``003``): one roll, its text, the exact odds and bulk
samples of :class:`WildDice` under the system's options (complication, character point), and a character
point spent after the roll (:func:`spend_character_point`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from diceengine import algebra
from diceengine.algebra.draws import PoolRoll, PoolSample
from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.limits import Cost
from diceengine.parts import Dice, Face, Group, Part, Words
from diceengine.pmf import PMF, convolve_cost
from diceengine.rolls import Die

from ..d6.checks import D6, D6_FACE_PARTS, CodeDice, d6_texts, joined
from ..d6.codes import Code

__all__ = ["WildDice", "copy_plan", "spend_character_point"]

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


def _chained(faces: list[Part]) -> list[Part]:
    """The throws of one exploding die written as one: ``6+6+2``."""
    out: list[Part] = []
    for i, face in enumerate(faces):
        if i:
            out.append("+")
        out.append(face)
    return out


WILD = N_("wild")
COMPLICATION = N_("complication")
CHARACTER_POINT = N_("character point")
_WILD, _COMPLICATION, _CHARACTER_POINT = Words(WILD), Words(COMPLICATION), Words(CHARACTER_POINT)


#: the Wild Die (text 003): a d6 thrown again and added on each 6; the exploding character point throws the same
WILD_DIE = D6.explode({6})
_roll_wild = WILD_DIE.roller
_throw = D6.thrower


@dataclass(frozen=True)
class WildDice(CodeDice):
    """Throws a code with a Wild Die, under the system's options."""

    complication: str = "flag"
    wild: bool = True
    character_point: bool = False
    character_point_explodes: bool = False

    extras = ("complication", "explosions")

    # ------------------------------------------------------------ one roll
    def roll(self, code: Code, r: Callable[[], float]) -> tuple[int, tuple, Any]:
        wild = self.wild
        normal = _throw(r, code.dice - 1 if wild else code.dice)
        chain = _roll_wild(r) if wild else []
        flagged = wild and chain[0] == 1 and self.complication != "none"
        removed = None
        if flagged and self.complication == "remove_highest":
            if normal:  # the highest of the other dice removed too: the algebra's keep (of equal dice, the later)
                kept = PoolRoll.of(normal).lowest(len(normal) - 1)
                removed, total = kept.kept.index(False), kept.total
            else:
                total = 0
        else:
            total = sum(normal) + sum(chain)
        bonus: list[int] = []
        if self.character_point:
            bonus = WILD_DIE.roll(r) if self.character_point_explodes else [WILD_DIE.face(r)]
        total += sum(bonus) + code.pips
        return total, (flagged, max(len(chain) - 1, 0)), (normal, chain, bonus, removed, flagged, code.pips)

    def dice(self, record: Any) -> list[Die]:
        normal, chain, bonus, removed, flagged, _ = record
        cut = flagged and self.complication == "remove_highest"
        out = [Die("d6", 6, v, kept=i != removed) for i, v in enumerate(normal)]
        for i, v in enumerate(chain):
            out.append(Die("wild", 6, v, kept=not cut, exploded=v == 6, added=i > 0, wild=True))
        return out + [self._bonus_die(v) for v in bonus]

    def _bonus_die(self, value: int) -> Die:
        """A throw of the character point's die."""
        return Die("d6", 6, value, exploded=value == 6 and self.character_point_explodes, added=True,
                   label="character point")

    def parts(self, record: Any, code: Code) -> list[Part]:
        normal, chain, bonus, removed, flagged, pips = record
        cut = flagged and self.complication == "remove_highest"
        if removed is None:
            items: list[Any] = [Dice("d6", 6, tuple(normal))] if normal else []
        else:
            items = [D6_FACE_PARTS[v] for v in normal]
            items[removed] = _face(normal[removed], "d6", False, False)
        if chain:
            faces = _chained([_face(v, "wild", not cut, i > 0) for i, v in enumerate(chain)])
            shown: list[Part] = [Group(tuple(faces))] if cut else faces
            item: list[Part] = [_WILD, " ", *shown]
            if flagged:
                item += [" (", _COMPLICATION, ")"]
            items.append(item)
        if bonus:
            items.append([_CHARACTER_POINT, " ", *_chained([Face(self._bonus_die(v)) for v in bonus])])
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
    def _bonus(self) -> algebra.Die:
        """The character point's die (0 without one)."""
        if not self.character_point:
            return algebra.Die.constant(0)
        return WILD_DIE.exact() if self.character_point_explodes else D6.die

    def joint(self, code: Code) -> tuple[dict[tuple, PMF], float]:
        tail = self._bonus() + code.pips
        if not self.wild:
            total = D6.die.repeat(code.dice) + tail
            return {(False, 0): total.pmf}, total.truncated
        normal = D6.die.repeat(code.dice - 1) + tail
        out: dict[tuple, PMF] = {}
        by_added, left = WILD_DIE.by_added
        for k, chance, wild in by_added:  # the Wild Die's explosions: k sixes, then one of 1..5
            if k == 0 and self.complication != "none":  # a first 1 is a complication
                kept, rest = wild.given(lambda v: v != 1)
                out[(False, 0)] = (normal + rest).pmf.scale_mass(chance * kept)
                out[(True, 0)] = self._complicated(code, normal, tail).pmf.scale_mass(chance * (1 - kept))
            else:
                out[(False, k)] = (normal + wild).pmf.scale_mass(chance)
        return out, tail.truncated + left

    def _complicated(self, code: Code, normal: algebra.Die, tail: algebra.Die) -> algebra.Die:
        """The total when the Wild Die's first throw is a 1 (``normal``: the other dice and ``tail``): counted as
        it is, or the Wild Die and the highest other die removed."""
        if self.complication == "remove_highest":
            return algebra.Pool.of(D6.die, code.dice - 1).lowest(code.dice - 2) + tail
        return normal + 1

    def joint_cost(self, code: Code) -> tuple[Cost, int, int]:
        """What :meth:`joint` will cost (``(Cost, rows, span of the totals)``), estimated without computing it."""
        bonus = 1 + (5 * 16 if self.character_point_explodes else 5 if self.character_point else 0)
        n = code.dice - 1 if self.wild else code.dice
        cost, length = D6.die.repeat_cost(max(n, 0))
        cost = cost + convolve_cost(length, bonus)  # the character point's die and the pips
        length += bonus - 1
        if not self.wild:
            return cost, length, length
        keys = len(WILD_DIE.by_added[0]) + 1  # each number of sixes the Wild Die throws, and a complication
        cost = cost + Cost(keys * convolve_cost(length, 5).work, 4 * length)
        if self.complication == "remove_highest" and n > 0:
            cost = cost + D6.die.keep_cost(n, n - 1) + convolve_cost(5 * n - 4, bonus)
        length += 4
        return cost, keys * length, length + 6 * keys

    # ------------------------------------------------------------ bulk
    def sample(self, code: Code, n: int, gen: np.random.Generator) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        k = code.dice - 1 if self.wild else code.dice
        normal = D6.faces_of((n, k), gen) if k else np.zeros((n, 0), dtype=np.int64)
        total = normal.sum(axis=1)
        if self.wild:
            first, wild_total, explosions = WILD_DIE.sample(n, gen)
            flagged = first == 1 if self.complication != "none" else np.zeros(n, dtype=bool)
            total = total + wild_total
            if self.complication == "remove_highest":
                cut = PoolSample.of(normal).lowest(k - 1).total
                total = np.where(flagged, cut, total)
        else:
            flagged = np.zeros(n, dtype=bool)
            explosions = np.zeros(n, dtype=np.int64)
        if self.character_point:
            if self.character_point_explodes:
                total = total + WILD_DIE.sample(n, gen)[1]
            else:
                total = total + D6.faces_of(n, gen)
        return total + code.pips, {"complication": flagged, "explosions": explosions}


def spend_character_point(roll: Any, seed: Any = None, explodes: bool = False) -> Any:
    """The roll with one character-point die added after it (+1D, text ``003``): not cumulative, so a
    roll that already has one is refused. ``explodes``: the die is re-rolled and added on a 6."""
    from diceengine.rng import python_rng
    from diceengine.rolls import Roll

    plan = roll._plan
    record = roll._record
    if not isinstance(getattr(plan, "dice_model", None), WildDice):  # before its record is read: a d6wild one
        raise DiceValueError(N_("only a d6wild roll takes a character point"))
    normal, chain, bonus, removed, flagged, pips = record[0]
    if bonus:
        raise DiceValueError(N_("a character point adds one die to a roll, not more (not cumulative)"))
    dice = replace(plan.dice_model, character_point=True, character_point_explodes=explodes)
    r = python_rng(seed).random
    extra = WILD_DIE.roll(r) if explodes else [WILD_DIE.face(r)]
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
