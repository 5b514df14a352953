"""The state of play of the FFG narrative dice (rule text ``004``): the destiny pool, minion groups, the
initiative order of an encounter.

- The destiny pool: the party's tokens are of its affiliation's colour (light for heroes, dark for a
  party of villains), the game master's of the other; a token spent flips to the other side. The
  spender chooses a bonus to one's own check (a green die upgraded, or added when there is none) or a
  penalty to the opposition's effort (a purple die upgraded, or added). :func:`spend_destiny`.
- Minion groups: one wound pool for the group; each hit adds damage minus soak; one minion falls each
  time the wounds exceed a full wound threshold (the stormtrooper example: soak 5, threshold 5, a hit
  of 11 takes one out, 15 still one, 16 to 20 two); a critical injury incapacitates one (an area attack:
  one per critical scored). The group's skill rank is the number still standing minus one, at most 5
  (« plus il y a de serviteurs incapables, plus le rang de compétence maximum du groupe sera bas »:
  the published rule). :func:`hit_minions`, :func:`critical_on_minions`, :func:`minion_check`.
- Assistance: a helper with equal or higher skill adds a boost die; an NPC helping the antagonist adds
  a setback die to the player character's check. :func:`assist`.
- A character sheet (:class:`CharacterSheet`): characteristics 1-6 (at most 5 at creation), skills 0-5,
  experience spent on them at the text's costs (:func:`buy_characteristic`, :func:`buy_skill`), and the
  pool of a check (:func:`sheet_check`); the class lives in :mod:`~diceengine.systems.ffg.sheet`.
- Harm on a sheet (:mod:`~diceengine.systems.ffg.harm`): wounds, strain (a rival takes it as wounds, a
  nemesis or a player character keeps it), critical injuries rolled d100 + 10 a critical already
  suffered and recorded on the sheet; strain on a minion group becomes its wounds (:func:`strain_on_minions`).
- Talents bought by tier on specialisation trees (:mod:`~diceengine.systems.ffg.talents`): 5 XP x the
  tier, in the tree's order; Grit's ranks stack onto the strain threshold.
- Initiative: Cool or Vigilance checks, more successes then more advantage first; ties between a player
  character and an NPC go to the player character (the published rule) when ``players_first``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from diceengine.i18n import N_

from ..play import PlayState, Step, refuse
from ..rulebook import rule, rule_table
from . import harm, talents
from .harm import *  # the rules of harm and of talents are this state of play's too (in RULES, importable from here)
from .rules import (
    MAX_SKILL,
    DicePool,
    build_pool,
    characteristic_cost,
    initiative_order,
    skill_cost,
)
from .sheet import CharacterSheet, Talent
from .talents import *

__all__ = [
    "RULES",
    "RULE_SUMMARIES",
    "CharacterSheet",
    "DestinyState",
    "Encounter",
    "MinionGroup",
    "Talent",
    "add_minions",
    "assist",
    "buy_characteristic",
    "buy_skill",
    "critical_on_minions",
    "destiny_from_roll",
    "hit_minions",
    "initiative_check",
    "minion_check",
    "roll_destiny",
    "roll_initiative",
    "sheet_check",
    "spend_destiny",
    "strain_on_minions",
]
__all__ += harm.__all__
__all__ += talents.__all__

Side = Literal["light", "dark"]


class DestinyState(PlayState):
    """Destiny tokens, and the colour of the party's (the other colour is the game master's)."""

    light: int = Field(default=0, ge=0)
    dark: int = Field(default=0, ge=0)
    party: Side = "light"


class MinionGroup(PlayState):
    """A group of minions: one soak, one wound threshold each, wounds pooled, skills of the group."""

    name: str
    size: int = Field(ge=1)
    soak: int = Field(default=0, ge=0)
    wound_threshold: int = Field(ge=1)
    wounds: int = Field(default=0, ge=0)
    incapacitated: int = Field(default=0, ge=0)
    group_skills: list[str] = Field(default_factory=list)

    @property
    def defeated_by_wounds(self) -> int:
        """Minions taken out by the pooled wounds: one per full wound threshold exceeded."""
        return 0 if self.wounds <= 0 else (self.wounds - 1) // self.wound_threshold

    @property
    def standing(self) -> int:
        return max(0, self.size - self.defeated_by_wounds - self.incapacitated)

    @property
    def skill_rank(self) -> int:
        """Ranks in the group's skills: the minions still standing minus one, at most 5."""
        return max(0, min(MAX_SKILL, self.standing - 1))


class Encounter(PlayState):
    """An FFG scene: the destiny pool, minion groups by name, the initiative order."""

    destiny: DestinyState = DestinyState()
    minions: dict[str, MinionGroup] = Field(default_factory=dict)
    initiative: list[str] = Field(default_factory=list)


@rule(N_("A new encounter whose destiny pool holds the points the players' Force dice showed."))
def destiny_from_roll(light: int, dark: int, party: Side = "light") -> Encounter:
    """A new encounter whose destiny pool holds the light and dark points the players' Force dice showed
    (:func:`~diceengine.systems.ffg.destiny_pool` rolls them)."""
    return Encounter(destiny=DestinyState(light=light, dark=dark, party=party))


@rule(N_("A new encounter whose destiny pool each player rolled one Force die for."))
def roll_destiny(players: int, party: Side = "light", seed: Any = None) -> Encounter:
    """A new encounter whose destiny pool each player rolled one Force die for (text ``004``)."""
    from .rules import destiny_pool

    rolled = destiny_pool(players, seed)
    return destiny_from_roll(rolled.light, rolled.dark, party)


def _pool(pool: DicePool | str | Mapping[str, int]) -> DicePool:
    if isinstance(pool, DicePool):
        return pool
    if isinstance(pool, Mapping):
        try:
            return DicePool(**{k: int(v) for k, v in pool.items()})
        except TypeError as err:
            raise refuse(N_("not a dice pool: {error}"), error=str(err)) from None
    from diceengine.api import plan

    counts = plan(str(pool), "ffg").counts  # type: ignore[attr-defined]
    return DicePool(**counts)


@rule(N_("Spend a destiny token: it flips to the other side."))
def spend_destiny(state: Encounter, by: Literal["players", "gm"], choice: Literal["bonus", "penalty"],
                  pool: DicePool | str | Mapping[str, int]) -> Step[Encounter]:
    """Spend a destiny token: the players spend their colour's, the game master the other; it flips.
    ``choice="bonus"``: ``pool`` is the spender's own check, one green die is upgraded (added when
    none); ``"penalty"``: ``pool`` is the opposition's effort, one purple die upgraded (or added).
    Returns the check to roll."""
    destiny = state.destiny
    if by not in ("players", "gm") or choice not in ("bonus", "penalty"):
        raise refuse(N_("destiny is spent by 'players' or 'gm', as a 'bonus' or a 'penalty'"))
    colour = destiny.party if by == "players" else ("dark" if destiny.party == "light" else "light")
    other = "dark" if colour == "light" else "light"
    if getattr(destiny, colour) < 1:
        if by == "players":
            raise refuse(N_("no {colour} side token for the players to spend"), colour=colour)
        raise refuse(N_("no {colour} side token for the game master to spend"), colour=colour)
    flipped = destiny.model_copy(update={colour: getattr(destiny, colour) - 1, other: getattr(destiny, other) + 1})
    check = _pool(pool)
    check = check.upgrade(1) if choice == "bonus" else check.upgrade(1, "difficulty")
    return Step(state.model_copy(update={"destiny": flipped}), check.expression, "ffg")


@rule(N_("A minion group joins the encounter."))
def add_minions(state: Encounter, group: MinionGroup) -> Step[Encounter]:
    """A minion group joins the encounter."""
    if group.name in state.minions:
        raise refuse(N_("there is already a group named {name}"), name=repr(group.name))
    return Step(state.model_copy(update={"minions": {**state.minions, group.name: group}}))


def _group(state: Encounter, name: str) -> MinionGroup:
    if name not in state.minions:
        raise refuse(N_("no minion group named {name} (known: {known})"), name=repr(name),
                     known=", ".join(state.minions) or "none")
    return state.minions[name]


def _with_group(state: Encounter, group: MinionGroup) -> Encounter:
    return state.model_copy(update={"minions": {**state.minions, group.name: group}})


@rule(N_("A hit on a minion group: damage minus soak joins the group's wounds."))
def hit_minions(state: Encounter, name: str, damage: int) -> Step[Encounter]:
    """A hit on a minion group: damage minus soak joins the group's wounds; minions fall one per full
    wound threshold exceeded."""
    group = _group(state, name)
    if group.standing == 0:
        raise refuse(N_("every minion of {name} is already down"), name=name)
    if damage < 0:
        raise refuse(N_("damage is not negative"))
    wounds = max(0, damage - group.soak)
    return Step(_with_group(state, group.model_copy(update={"wounds": group.wounds + wounds})))


@rule(N_("Strain on a minion group: it becomes wounds; minions cannot use strain."))
def strain_on_minions(state: Encounter, name: str, strain: int, voluntary: bool = False) -> Step[Encounter]:
    """Strain on a minion group: « Les Sbires et les Rivaux ne se fatiguent pas. Au lieu de cela, la tension
    infligée est convertie en blessures » — it joins the group's wounds (soak does not apply). « Les Sbires
    ne peuvent pas utiliser des capacités ou invoquer des effets qui utilisent la tension »: a group's own
    use of strain (``voluntary``) is refused."""
    group = _group(state, name)
    if voluntary:
        raise refuse(N_("minions cannot use abilities or effects that cost strain"))
    if strain < 1:
        raise refuse(N_("strain is at least one point"))
    if group.standing == 0:
        raise refuse(N_("every minion of {name} is already down"), name=name)
    return Step(_with_group(state, group.model_copy(update={"wounds": group.wounds + strain})))


@rule(N_("A critical injury on a minion group."))
def critical_on_minions(state: Encounter, name: str, criticals: int = 1, area: bool = False) -> Step[Encounter]:
    """A critical injury incapacitates one minion; an area attack incapacitates one per critical scored
    (a single-target attack scores one)."""
    group = _group(state, name)
    if criticals < 1 or (criticals > 1 and not area):
        raise refuse(N_("a single-target attack inflicts one critical injury; only an area attack inflicts more"))
    if group.standing == 0:
        raise refuse(N_("every minion of {name} is already down"), name=name)
    down = min(criticals, group.standing)
    return Step(_with_group(state, group.model_copy(update={"incapacitated": group.incapacitated + down})))


@rule(N_("The check of a minion group."))
def minion_check(state: Encounter, name: str, characteristic: int, skill: str, difficulty: int | str = 0,
                 opponent: tuple[int, int] | None = None, boost: int = 0, setback: int = 0) -> Step[Encounter]:
    """The check of a minion group: its characteristic, and ranks in ``skill`` if it is one of the group's
    skills (the number standing minus one). Refused when none stands."""
    group = _group(state, name)
    if group.standing == 0:
        raise refuse(N_("every minion of {name} is down"), name=name)
    ranks = group.skill_rank if skill in group.group_skills else 0
    pool = build_pool(characteristic, ranks, difficulty, boost, setback, opponent=opponent)
    return Step(state, pool.expression, "ffg")


@rule(N_("A check with help: a boost die, or a setback die when an NPC helps the antagonist."))
def assist(pool: DicePool | str | Mapping[str, int], helper_skill: int, skill: int,
           npc_helps_antagonist: bool = False) -> str:
    """A check with help: a helper whose skill is equal or higher adds a boost die to a character's
    check; an NPC helping the antagonist (with equal or higher skill) adds a setback die to the player
    character's check. Refused when the helper's skill is lower. Returns the check."""
    if helper_skill < skill:
        raise refuse(N_("only a helper with an equal or higher skill can assist"))
    check = _pool(pool)
    if npc_helps_antagonist:
        return replace(check, setback=check.setback + 1).expression
    return replace(check, boost=check.boost + 1).expression


@rule(N_("The initiative order of the encounter from each one's Cool or Vigilance check."))
def roll_initiative(state: Encounter, checks: Mapping[str, Any], players: Sequence[str] = (),
                    players_first: bool = True) -> Step[Encounter]:
    """The initiative order of the encounter from each one's Cool or Vigilance check (outcomes or
    ``(success, advantage)`` pairs); ties to player characters first when ``players_first``."""
    if not checks:
        raise refuse(N_("initiative needs at least one check"))
    order = initiative_order(checks, players, players_first)
    return Step(state.model_copy(update={"initiative": order}))


@rule(N_("The Cool or Vigilance check a character rolls for initiative."))
def initiative_check(characteristic: int, skill: int, difficulty: int | str = "simple") -> str:
    """The Cool or Vigilance check a character rolls for initiative (simple: no purple dice)."""
    return build_pool(characteristic, skill, difficulty).expression


@rule(N_("Raise a characteristic one level for the next level x 10 XP."))
def buy_characteristic(sheet: CharacterSheet, characteristic: str) -> Step[CharacterSheet]:
    """Raise a characteristic one level for the next level x 10 XP; never above 6 (5 at creation), never
    more XP than the sheet holds."""
    if characteristic not in sheet.characteristics:
        raise refuse(N_("{name} has no characteristic {characteristic}"), name=sheet.name,
                     characteristic=repr(characteristic))
    current = sheet.characteristics[characteristic]
    cost = characteristic_cost(current, sheet.created)
    if cost > sheet.xp:
        raise refuse(N_("raising {characteristic} to {rank} costs {cost} XP, {name} has {xp}"),
                     characteristic=characteristic, rank=current + 1, cost=cost, name=sheet.name, xp=sheet.xp)
    return Step(sheet.model_copy(update={"xp": sheet.xp - cost,
                                         "characteristics": {**sheet.characteristics, characteristic: current + 1}}))


@rule(N_("Buy the next rank of a skill."))
def buy_skill(sheet: CharacterSheet, skill: str) -> Step[CharacterSheet]:
    """Buy the next rank of a skill: 5 x the rank, +5 outside the career; at most rank 5."""
    current = sheet.skills.get(skill, 0)
    cost = skill_cost(current, skill in sheet.career_skills)
    if cost > sheet.xp:
        raise refuse(N_("rank {rank} in {skill} costs {cost} XP, {name} has {xp}"), rank=current + 1, skill=skill,
                     cost=cost, name=sheet.name, xp=sheet.xp)
    return Step(sheet.model_copy(update={"xp": sheet.xp - cost, "skills": {**sheet.skills, skill: current + 1}}))


@rule(N_("The pool of a check from the character sheet."))
def sheet_check(sheet: CharacterSheet, characteristic: str, skill: str, difficulty: int | str = 2,
                boost: int = 0, setback: int = 0) -> Step[CharacterSheet]:
    """The pool of a check from the sheet (see :func:`~diceengine.systems.ffg.build_pool`)."""
    if characteristic not in sheet.characteristics:
        raise refuse(N_("{name} has no characteristic {characteristic}"), name=sheet.name,
                     characteristic=repr(characteristic))
    pool = build_pool(sheet.characteristics[characteristic], sheet.skills.get(skill, 0), difficulty, boost, setback)
    return Step(sheet, pool.expression, "ffg")


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    spend_destiny, add_minions, hit_minions, critical_on_minions, minion_check, assist, roll_initiative,
    initiative_check, destiny_from_roll, roll_destiny, buy_characteristic, buy_skill, sheet_check,
    strain_on_minions, *HARM_RULES.values(), *TALENT_RULES.values(),
)
