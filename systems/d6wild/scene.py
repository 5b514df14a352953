"""The state of a scene of D6 with the Wild Die (rule text ``003``): its characters (codes, declared
actions and the movement they leave, reaction, stuns and unconsciousness, wounds, character and Force
points, advancement in training), the scene's round, and the helpers the rules of play
(:mod:`diceengine.systems.d6wild.play`) share: finding a character, the code of an action with every
penalty of the round, and the check it rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from diceengine.i18n import N_

from ..d6.codes import Code
from ..d6.scene import CodedCharacter, force_factor, rollable
from ..play import PlayState, named, recast, refuse
from .rules import WildHealth, WildWound

__all__ = ["PHYSICAL_SKILLS", "ROUNDS_PER_MINUTE", "Stun", "Training", "WildCharacter", "WildScene"]

#: rounds in a minute: a round is five seconds (texts ``000`` and ``002``; ``003`` gives no length)
ROUNDS_PER_MINUTE = 12


class Stun(PlayState):
    """A stun running until the end of round ``until_round``."""

    kind: Literal["light stun", "stun"]
    until_round: int


class Training(PlayState):
    """A skill raised one pip between sessions, paid for, not used in play: ``days_left`` of training
    before the pip is added (text ``003``: x days with a teacher, 2x without)."""

    skill: str
    days_left: int = Field(ge=1)


class WildCharacter(CodedCharacter):
    """One character of a scene of text ``003``."""

    declared: int = Field(default=0, ge=0)
    taken: int = Field(default=0, ge=0)
    reacted: bool = False
    reaction: int | None = None
    stuns: list[Stun] = Field(default_factory=list)
    stuns_taken: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0)
    worst: int = 0
    character_points: int = Field(default=0, ge=0)
    force_points: int = Field(default=0, ge=0)
    dark_side_points: int = Field(default=0, ge=0)
    force_point_round: int | None = None
    movement: int = Field(default=100, ge=0, le=100)
    moved: int = Field(default=0, ge=0, le=100)
    unconscious_until: int | None = None
    points_in_skills: int = Field(default=0, ge=0)
    training: list[Training] = Field(default_factory=list)

    @property
    def unconscious(self) -> bool:
        """Stunned as many times as the Strength code has dice."""
        strength = self.code("strength").dice if "strength" in self.codes else 0
        return 0 < strength <= self.stuns_taken

    @property
    def fallen(self) -> bool:
        """Wounded twice: down, no physical effort (:attr:`WildHealth.fallen`)."""
        return WildHealth(0, 0, self.wounds).fallen

    @property
    def out_of_action(self) -> str | None:
        """Why the character can do nothing at all, or ``None``."""
        if self.worst >= WildWound.INCAPACITATED:
            return str(WildWound(self.worst))
        if self.unconscious:
            return "unconscious"
        return None

    def penalty(self, round_: int) -> int:
        """Dice lost on every roll now: stuns still running, then -1D wounded (-2D wounded twice)."""
        running = sum(1 for s in self.stuns if s.until_round >= round_)
        return running + WildHealth(0, 0, self.wounds).penalty  # the wounds' dice


class WildScene(PlayState):
    """A scene: the round, the characters by name, the initiative order, the reaction reading."""

    round: int = Field(default=1, ge=1)
    characters: dict[str, WildCharacter]
    order: list[str] = Field(default_factory=list)
    reaction_mode: Literal["replace", "add"] = "replace"


def _who(state: WildScene, name: str) -> WildCharacter:
    return named(state.characters, name)


def _put(state: WildScene, character: WildCharacter, **update: object) -> WildScene:
    return recast(state, character.model_copy(update=update))


#: the states :attr:`WildCharacter.out_of_action` names beyond the catalogued wounds (said in the user's language)
_OUT_OF_ACTION = (N_("unconscious"), N_("killed"))


def _able(c: WildCharacter) -> None:
    why = c.out_of_action
    if why:
        raise refuse(N_("{name} is {why} and can do nothing"), name=c.name, why=[why])


def _rolled_code(state: WildScene, c: WildCharacter, skill: str, round_penalty: int) -> Code:
    code = c.code(skill) * force_factor(c.force_point_round, state.round)
    return rollable(c, skill, code - Code(round_penalty + c.penalty(state.round), 0))


#: the actions of physical effort, refused to a character wounded twice (text ``003``: « tombe et ne peut plus
#: entreprendre d'actions réclamant des efforts physiques »), a game master's reading of « efforts physiques »:
#: Strength (Vigueur) and its skills (athletics, climbing and jumping, brawling, endurance, lifting, swimming),
#: movement (running), melee and brawling (melee weapons, melee parry, lightsaber, brawling parry). Every other
#: action (a blaster shot, a dodge, a throw, Mechanical, Perception, Knowledge, Technical skills) is rolled at
#: -2D (:meth:`WildCharacter.penalty`); the game master names any other physical with ``physical=True``.
PHYSICAL_SKILLS = frozenset({
    "strength", "athletics", "climbing_jumping", "brawling", "brawling_parry", "endurance", "stamina", "lifting",
    "swimming", "running", "melee_weapons", "melee_combat", "melee", "melee_parry", "lightsaber",
    "vigueur", "athletisme", "combat_a_mains_nues", "levage", "natation", "course", "armes_de_melee",
    "parade_de_melee", "sabre_laser",
})


def _physical(c: WildCharacter, skill: str, physical: bool | None) -> None:
    """Refuse an action of physical effort (:data:`PHYSICAL_SKILLS`, or ``physical`` as the game master says) to a
    character wounded twice (text ``003``: « tombe et ne peut plus entreprendre d'actions réclamant des efforts
    physiques »); his other actions are rolled at -2D."""
    key = skill.lower().replace(" ", "_").replace("-", "_")
    if c.fallen and (physical if physical is not None else key in PHYSICAL_SKILLS):
        raise refuse(N_("{name} was wounded twice: down, and refused any action of physical effort ({skill})"),
                     name=c.name, skill=skill)


def _spend_point(c: WildCharacter, character_point: bool) -> dict[str, object]:
    if not character_point:
        return {}
    if c.character_points < 1:
        raise refuse(N_("{name} has no character point left"), name=c.name)
    return {"character_points": c.character_points - 1}
