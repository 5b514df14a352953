"""The state of a classic D6 scene (rule texts ``000`` and ``002``): its characters (codes, wounds,
stuns, declared uses, movement, reactions, cover, Force points), the scene's round and segment, and the
helpers the rules of play (:mod:`diceengine.systems.d6.play`) share: finding a character, the code of
a skill use with every penalty of the round, and the check it rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from diceengine.i18n import N_

from ..play import PlayState, named, recast, refuse
from .codes import Code, code_named
from .rules import Health, Wound
from .shared import RANGE_DIFFICULTIES

__all__ = ["ATTACK_KINDS", "COVER_DICE", "MOVE_METRES", "STOPS", "CodedCharacter", "D6Character", "D6Scene", "Reaction",
           "force_factor", "rollable"]

Movement = Literal["stand", "walk", "run", "crawl"]
AttackKind = Literal["ranged", "grenade", "brawling", "melee", "lightsaber"]
ReactionKind = Literal["dodge", "brawling_parry", "melee_parry", "lightsaber_parry", "blaster_parry", "deflect"]
CoverLevel = Literal["none", "quarter", "half", "three_quarters", "peeking", "total"]

#: movement allowed in a round, in metres
MOVE_METRES = {"stand": 0, "walk": 5, "run": 10, "crawl": 2}
#: cover dice added to the difficulty (text 002)
COVER_DICE = {"none": 0, "quarter": 1, "half": 2, "three_quarters": 4, "peeking": 4}
#: what each reaction stops
STOPS: dict[str, tuple[str, ...]] = {
    "dodge": ("ranged", "grenade"), "brawling_parry": ("brawling",),  # grenade: the blast (grenade_blast)
    "melee_parry": ("brawling", "melee", "lightsaber"), "lightsaber_parry": ("brawling", "melee", "lightsaber"),
    "blaster_parry": ("ranged",), "deflect": ("ranged",),
}
LOW_GRAVITY_SKILLS = ("lifting", "climbing_jumping")
ATTACK_KINDS = ("ranged", "grenade", "brawling", "melee", "lightsaber")


class Reaction(PlayState):
    """A reaction roll: what it stops, and when it was made."""

    kind: ReactionKind
    total: int
    segment: int


class CodedCharacter(PlayState):
    """A character of a D6 scene (both D6 rulesets): its name, whether a player plays it, its codes by skill."""

    name: str
    player: bool = True
    codes: dict[str, str]

    def code(self, skill: str) -> Code:
        """The character's code for ``skill`` (any case, spaces or underscores)."""
        return code_named(self.codes, self.name, skill)


class D6Character(CodedCharacter):
    """One character of a fight of texts ``000`` / ``002``. ``codes`` holds attributes and skills
    (``"strength"``, ``"perception"``, ``"blaster"``, ``"dodge"``, ``"melee_parry"``, ``"sense"``...);
    ``weapon`` the damage code of the melee weapon in hand (``"lightsaber"`` for one)."""

    weapon: str | None = None
    health: Wound = Wound.HEALTHY
    stuns: list[int] = Field(default_factory=list)
    wounded_round: int | None = None
    mortal_round: int | None = None
    dead: bool = False
    declared: int = Field(default=0, ge=0)
    uses: int = Field(default=0, ge=0)
    taken: int = Field(default=0, ge=0)
    has_declared: bool = False
    movement: Movement = "stand"
    prone: bool = False
    preparing_round: int | None = None
    reacted_round: int | None = None
    pending_reaction: ReactionKind | None = None
    reactions: list[Reaction] = Field(default_factory=list)
    cover: CoverLevel = "none"
    force_points: int = Field(default=0, ge=0)
    dark_side_points: int = Field(default=0, ge=0)
    force_points_returning: int = Field(default=0, ge=0)
    force_points_dramatic: int = Field(default=0, ge=0)
    force_point_round: int | None = None
    skill_points: int = Field(default=0, ge=0)

    @property
    def armed(self) -> bool:
        return self.weapon is not None

    def stun_dice(self, round_: int) -> int:
        """Stuns still running this round (each -1D)."""
        return sum(1 for until in self.stuns if until >= round_)

    def penalty(self, round_: int) -> int:
        """Dice lost on every skill roll this round: a wound, and each stun still running (:attr:`Health.penalty`)."""
        return Health(self.health, self.stun_dice(round_)).penalty


class D6Scene(PlayState):
    """A fight: round and segment, characters by name, the reaction reading, the table's options."""

    round: int = Field(default=1, ge=1)
    segment: int = Field(default=1, ge=1)
    characters: dict[str, D6Character]
    reactions: Literal["add", "replace"] = "add"
    low_gravity: bool = False
    prone_dice: int = Field(default=0, ge=0)
    order: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- helpers


def _who(state: D6Scene, name: str) -> D6Character:
    return named(state.characters, name)


def _put(state: D6Scene, c: D6Character, **update: object) -> D6Scene:
    return recast(state, c.model_copy(update=update))


def _able(state: D6Scene, c: D6Character) -> None:
    if c.dead:
        raise refuse(N_("{name} is dead"), name=c.name)
    if c.health >= Wound.INCAPACITATED:
        raise refuse(N_("{name} is {health} and can do nothing until healed"), name=c.name, health=[str(c.health)])
    if c.wounded_round == state.round:
        raise refuse(N_("{name} was wounded this round: down, and can do nothing for the rest of it"), name=c.name)


def _difficulty(value: int | str) -> int:
    text = str(value).strip().lower().replace(" ", "_")
    if text in RANGE_DIFFICULTIES:
        return RANGE_DIFFICULTIES[text]
    try:
        return int(text)
    except ValueError:
        raise refuse(N_("a difficulty is a number or a range ({ranges}), not {value}"),
                     ranges=", ".join(RANGE_DIFFICULTIES), value=repr(value)) from None


def _code(state: D6Scene, c: D6Character, skill: str, uses: int, single: bool = False,
          hurrying: bool = False) -> Code:
    """The code rolled for ``skill`` with ``uses`` skill uses counted this round (``hurrying``: the code
    halved first, text ``002``)."""
    code = (c.code(skill).halved() if hurrying else c.code(skill)) * force_factor(c.force_point_round, state.round)
    dice = -(max(uses, 1) - 1)
    dice -= int(c.movement in ("run", "crawl"))
    dice -= c.penalty(state.round)
    prepared = c.preparing_round == state.round - 1 and c.reacted_round not in (state.round - 1, state.round)
    if single and prepared and uses == 1:
        dice += 1
    if state.low_gravity and skill.lower().replace(" ", "_") in LOW_GRAVITY_SKILLS:
        dice += 1
    return rollable(c, skill, code + Code(dice, 0))


def force_factor(force_point_round: int | None, round_: int) -> int:
    """2 in the round a character relies on the Force (every code of the character doubled: texts ``000``
    and ``003``), else 1."""
    return 2 if force_point_round == round_ else 1


def rollable(c: CodedCharacter, skill: str, code: Code) -> Code:
    """``code``, ``c``'s ``skill`` with the round's penalties, unless it is reduced to 0D: a code reduced to 0D
    cannot be rolled (both D6 rulesets)."""
    if code.dice < 1:
        raise refuse(N_("{name}'s {skill} is reduced to {code}: a code reduced to 0D cannot be rolled"), name=c.name,
                     skill=skill, code=str(code))
    return code


def _check(code: Code, difficulty: int | str | None, dice: int = 0, bonus: int = 0) -> str:
    """The text of a check: ``code`` (plus an attack ``bonus``) against ``difficulty`` (plus ``dice`` rolled
    with it), or the code alone."""
    actor = f"{code}{bonus:+d}" if bonus else str(code)
    if difficulty is None:
        return actor
    return f"{actor} vs {difficulty}" + (f"+{dice}D" if dice else "")
