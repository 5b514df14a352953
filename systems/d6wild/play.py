"""The state of play of D6 with the Wild Die (rule text ``003``): a scene's rounds, each character's
declared actions and movement, reaction, stuns and unconsciousness, wounds, character points and Force
points. The scene and its characters are defined in :mod:`diceengine.systems.d6wild.scene`.

A round goes: each character :func:`declare` s a number of actions (-1D on every action per action
after the first, the movement left by the table of multiple actions); :func:`act` returns the exact
check of the next action (the code less the round's penalties, the stuns still running and the
wounds); a :func:`react` ion (dodge, parry) uses an action left or adds one, and its roll, recorded by
:func:`record_reaction`, stands for every attack the character suffers this round (:func:`attack`);
:func:`damage` gives the check of a damage roll against Strength (its margin is damage minus Strength)
and :func:`take_damage` applies the band; :func:`end_round` lets the stuns that were due run out.

Bands (damage minus Strength): below 0 light stun (-1D to the end of this round), 0-3 stun (-1D to the
end of this round and the next), 4-8 wounded (-1D until healed; wounded twice: falls, -2D), 9-12
incapacitated, 13-15 mortally wounded, 16+ killed. Stunned as many times as the Strength code has dice:
unconscious 2D6 minutes (the knocking-out :func:`take_damage` step rolls them, :func:`record_unconscious`
keeps them; a round is five seconds, as texts ``000`` and ``002`` say); he wakes when they have run
(:func:`end_round`, :func:`pass_minutes`), his stuns counted afresh.

The movement of the round is kept with its declared actions (100%, 80%, 60%, 40%, 20%, then 0%; a
reaction that adds an action takes the next step): :func:`move` is one of the declared actions and
covers a share of it.

Wounded twice, a character « tombe et ne peut plus entreprendre d'actions réclamant des efforts
physiques, et subit une pénalité de 2D aux autres actions ». Physical effort, as a game master reads it
(:data:`PHYSICAL_SKILLS`): Strength and its skills (athletics, climbing and jumping, brawling, endurance,
lifting, swimming), movement (:func:`move`, running), melee and brawling (melee weapons, melee parry,
lightsaber, brawling parry); :func:`act`, :func:`attack`, :func:`react` and :func:`move` refuse them (and any
action the game master names physical, ``physical=True``). Every other action is rolled at -2D: a blaster
shot, a dodge from the ground, a throw, piloting, a computer (``physical=False`` lets the game master allow
one of the listed skills at -2D).

Character points: +1D to one roll (the ``character_point`` option of the check), never two on one roll;
the counter is kept here (one per hour of play: :func:`award_character_points`). A Force point doubles
every roll left to the character this round (« doubler tous les tirages restants à effectuer par le
personnage dans le round (sauf points de personnage) »): every check, and the Strength roll against
damage (:func:`damage`), not the character-point die; one per round; spent in anger, vengeance or for
a personal goal it becomes a dark side point.

Between sessions: :func:`advance_skill` (x character points a pip, x days of training with a teacher
and 2x without when the skill was not used), :func:`train`, and :func:`treat` for wounds
(:mod:`~diceengine.systems.d6wild.advancement`).

Readings chosen where the text is silent (documented options): the reaction roll replaces the
attacker's difficulty (``reaction_mode="replace"``, the 2nd-edition habit; ``"add"`` adds it, as text
``000`` does); a third wound incapacitates; light stuns count with stuns toward unconsciousness (as
:class:`~diceengine.systems.d6wild.WildHealth` does); the round's penalties apply to the doubled code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from diceengine.i18n import N_

from ..d6.codes import Code, parse_code
from ..d6.scene import _check, force_factor
from ..play import Step, in_order, player_names, refuse, rolling
from ..rulebook import rule, rule_table
from .advancement import advance_skill, train, treat
from .rules import WildWound, after_reaction, damage_result, initiative, multiple_actions
from .scene import (
    PHYSICAL_SKILLS,
    ROUNDS_PER_MINUTE,
    Stun,
    WildCharacter,
    WildScene,
    _able,
    _physical,
    _put,
    _rolled_code,
    _spend_point,
    _who,
)

__all__ = [
    "PHYSICAL_SKILLS",
    "RULES",
    "RULE_SUMMARIES",
    "Stun",
    "WildCharacter",
    "WildScene",
    "act",
    "advance_skill",
    "attack",
    "award_character_points",
    "damage",
    "declare",
    "end_round",
    "initiative_checks",
    "move",
    "pass_minutes",
    "react",
    "record_reaction",
    "record_unconscious",
    "roll_initiative",
    "spend_character_point",
    "spend_force_point",
    "take_damage",
    "train",
    "treat",
]


@rule(N_("Spend a character point after a roll."))
def spend_character_point(state: WildScene, name: str) -> Step[WildScene]:
    """Spend a character point after a roll, before the game master gives the result: the counter goes
    down; add the die to the roll with :func:`~diceengine.systems.d6wild.spend_character_point`."""
    c = _who(state, name)
    return Step(_put(state, c, **_spend_point(c, True)))


@rule(N_("Declare the round's actions: every action loses 1D per action after the first."))
def declare(state: WildScene, name: str, actions: int) -> Step[WildScene]:
    """Declare the round's actions: every action loses 1D per action after the first, and the movement
    the round leaves is kept with them (« TABLE DES ACTIONS MULTIPLES ... Capacité de mouvement »:
    100%, 80%, 60%, 40%, 20%, then 0%: :func:`move`). Once per round."""
    c = _who(state, name)
    _able(c)
    if c.declared:
        raise refuse(N_("{name} has already declared {n} action(s) this round"), name=name, n=c.declared)
    _, movement = multiple_actions(actions)  # refuses fewer than one
    return Step(_put(state, c, declared=actions, taken=0, movement=movement))


def _next_action(c: WildCharacter, name: str, skill: str, physical: bool | None) -> None:
    """Refuse the next declared action to a character who cannot take it (out of action, too hurt for a physical
    effort, no declared action left)."""
    _able(c)
    _physical(c, skill, physical)
    if not c.declared:
        raise refuse(N_("{name} has not declared any action this round"), name=name)
    if c.taken >= c.declared:
        raise refuse(N_("{name} has taken all {n} declared action(s) this round"), name=name, n=c.declared)


@rule(N_("The next declared action: the check of a skill against a difficulty."))
def act(state: WildScene, name: str, skill: str, difficulty: int | str | None = None,
        character_point: bool = False, physical: bool | None = None) -> Step[WildScene]:
    """The next declared action: the check of ``skill`` (with the round's penalties, running stuns and
    wounds, doubled after a Force point this round) against ``difficulty`` (a number, a name of the
    ladder or an opposing code). ``character_point`` spends one: +1D on this roll. Wounded twice, an
    action of physical effort is refused (:data:`PHYSICAL_SKILLS`: Strength and its skills, movement, melee
    and brawling, lifting; or ``physical`` as the game master says) and any other is rolled at -2D."""
    c = _who(state, name)
    _next_action(c, name, skill, physical)
    code = _rolled_code(state, c, skill, multiple_actions(c.declared)[0])
    new = _put(state, c, taken=c.taken + 1, **_spend_point(c, character_point))
    return rolling(new, _check(code, difficulty), "d6wild", {"character_point": True} if character_point else None)


@rule(N_("A reaction (dodge, parry): it uses an action left, or adds one."))
def react(state: WildScene, name: str, skill: str = "dodge", character_point: bool = False,
          physical: bool | None = None) -> Step[WildScene]:
    """A reaction (dodge, parry): it uses an action left, or adds one (every roll of the rest of the round
    loses one more die). Its roll stands for every attack of the round: one per round. A character
    wounded twice cannot parry (melee and brawling are physical effort) and dodges at -2D."""
    c = _who(state, name)
    _able(c)
    _physical(c, skill, physical)
    if c.reacted:
        raise refuse(N_("{name}'s reaction roll already stands for every attack this round"), name=name)
    declared, penalty = after_reaction(c.declared, c.taken)
    code = _rolled_code(state, c, skill, penalty)
    movement = multiple_actions(declared)[1] if declared else c.movement  # « palier suivant dans la table »
    new = _put(state, c, declared=declared, taken=c.taken + 1, reacted=True, movement=min(movement, c.movement),
               **_spend_point(c, character_point))
    return Step(new, str(code), "d6wild", {"character_point": True} if character_point else {})


@rule(N_("The rolled total of a reaction."))
def record_reaction(state: WildScene, name: str, total: int) -> Step[WildScene]:
    """The rolled total of the reaction :func:`react` called for."""
    c = _who(state, name)
    if not c.reacted:
        raise refuse(N_("{name} has made no reaction this round"), name=name)
    if c.reaction is not None:
        raise refuse(N_("{name}'s reaction is already recorded this round"), name=name)
    return Step(_put(state, c, reaction=total))


@rule(N_("An attack as the attacker's next action, against the target's reaction."))
def attack(state: WildScene, attacker: str, target: str, skill: str, difficulty: int | str,
           character_point: bool = False, physical: bool | None = None) -> Step[WildScene]:
    """An attack as the attacker's next action: the target's reaction roll this round replaces the
    difficulty (or is added to it: ``reaction_mode``)."""
    t = _who(state, target)
    if t.reaction is not None:
        if state.reaction_mode == "replace":
            difficulty = t.reaction
        else:
            if not str(difficulty).lstrip("-").isdigit():
                raise refuse(N_("with reaction_mode 'add' the difficulty is a number"))
            difficulty = int(difficulty) + t.reaction
    return act(state, attacker, skill, difficulty, character_point, physical)


@rule(N_("The damage roll against the target's Strength (plus armour)."))
def damage(state: WildScene, target: str, weapon: str, armour: str | int = 0) -> Step[WildScene]:
    """The damage roll against the target's Strength (plus armour): the check's margin is damage minus
    Strength, the number :func:`take_damage` takes. The Strength roll is never modified by penalties, but
    a Force point the target spent this round doubles it (« doubler tous les tirages restants à effectuer
    par le personnage dans le round »); the armour is not doubled."""
    t = _who(state, target)
    text = str(armour).strip()
    strength = t.code("strength") * force_factor(t.force_point_round, state.round)
    resist = strength + (Code(0, int(text)) if text.lstrip("+-").isdigit() else parse_code(text))
    dmg = parse_code(weapon)
    if dmg.dice < 1:
        raise refuse(N_("a damage code has at least 1D"))
    return Step(state, f"{dmg} vs {resist}", "d6wild")


@rule(N_("Apply damage minus Strength to the target."))
def take_damage(state: WildScene, target: str, margin: int) -> Step[WildScene]:
    """Apply damage minus Strength to the target (the bands of the module docstring). The stun that
    brings the stuns taken to the Strength code's dice knocks the character out: the step's check is
    the 2D6 minutes he stays unconscious (:func:`record_unconscious`)."""
    t = _who(state, target)
    band = damage_result(margin, 0)
    if band in (WildWound.LIGHT_STUN, WildWound.STUN):
        until = state.round + (0 if band == WildWound.LIGHT_STUN else 1)
        stun = Stun(kind="light stun" if band == WildWound.LIGHT_STUN else "stun", until_round=until)
        new = _put(state, t, stuns=[*t.stuns, stun], stuns_taken=t.stuns_taken + 1)
        if new.characters[target].unconscious and not t.unconscious:
            # « Un personnage sonné un nombre de fois supérieur ou égal à son code de Vigueur est
            # inconscient 2D6 minutes »: the minutes to roll (record_unconscious)
            return rolling(new, "2d6", "standard")
        return Step(new)
    if band == WildWound.WOUNDED:
        wounds = t.wounds + 1
        worst = max(t.worst, WildWound.INCAPACITATED if wounds >= 3 else WildWound.WOUNDED)
        return Step(_put(state, t, wounds=wounds, worst=int(worst)))
    return Step(_put(state, t, worst=int(max(t.worst, band))))


@rule(N_("The next round: declarations and reactions cleared."))
def end_round(state: WildScene) -> Step[WildScene]:
    """The next round: declarations, reactions and movement cleared, stuns that ran to this round's end
    gone, a Force point's doubling over; an unconscious character whose minutes have run wakes."""
    return Step(_rounds_pass(state, 1))


def _rounds_pass(state: WildScene, rounds: int) -> WildScene:
    nxt = state.round + rounds
    chars = {}
    for name, c in state.characters.items():
        update: dict[str, object] = {"declared": 0, "taken": 0, "reacted": False, "reaction": None,
                                     "movement": 100, "moved": 0,
                                     "stuns": [s for s in c.stuns if s.until_round >= nxt]}
        if c.unconscious_until is not None and nxt >= c.unconscious_until:  # awake: the count starts afresh
            update.update(unconscious_until=None, stuns_taken=0)
        chars[name] = c.model_copy(update=update)
    return state.model_copy(update={"round": nxt, "characters": chars})


@rule(N_("Spend a Force point: every roll left to the character this round is doubled."))
def spend_force_point(state: WildScene, name: str, anger: bool = False) -> Step[WildScene]:
    """Spend a Force point: every roll left to the character this round is doubled (not a character-point
    die); not cumulative. Spent in anger, vengeance or for a personal goal it becomes a dark side point."""
    c = _who(state, name)
    _able(c)
    if c.force_points < 1:
        raise refuse(N_("{name} has no Force point"), name=name)
    if c.force_point_round == state.round:
        raise refuse(N_("{name} already spent a Force point this round (not cumulative)"), name=name)
    return Step(_put(state, c, force_points=c.force_points - 1, force_point_round=state.round,
                     dark_side_points=c.dark_side_points + int(anger)))


@rule(N_("A move as the next declared action, within the movement the table of multiple actions leaves."))
def move(state: WildScene, name: str, percent: int = 100) -> Step[WildScene]:
    """A move (« une action (le plus souvent soit un déplacement, soit une action liée à un tirage de
    compétence) »): the next declared action, covering ``percent`` of the character's movement, within
    what the table of multiple actions leaves the round (« Capacité de mouvement »: 1 action 100%,
    2 80%, 3 60%, 4 40%, 5 20%, more 0%), less what he has already moved this round."""
    c = _who(state, name)
    _next_action(c, name, "running", None)
    if percent < 1 or c.moved + percent > c.movement:
        raise refuse(N_("{name} may move {left} per cent of the movement this round (the table of multiple "
                        "actions), not {percent}"), name=name, left=c.movement - c.moved, percent=percent)
    return Step(_put(state, c, taken=c.taken + 1, moved=c.moved + percent))


@rule(N_("The 2D6 minutes a character knocked out by stuns stays unconscious."))
def record_unconscious(state: WildScene, name: str, minutes: int) -> Step[WildScene]:
    """The 2D6 minutes a character knocked out by stuns stays unconscious (« inconscient 2D6 minutes »):
    he wakes when they have run (:func:`end_round`, :func:`pass_minutes`; a round is five seconds)."""
    c = _who(state, name)
    if not c.unconscious:
        raise refuse(N_("{name} is not unconscious"), name=name)
    if c.unconscious_until is not None:
        raise refuse(N_("{name}'s minutes unconscious are already recorded"), name=name)
    if not 2 <= minutes <= 12:
        raise refuse(N_("2D6 minutes are 2 to 12, not {minutes}"), minutes=minutes)
    return Step(_put(state, c, unconscious_until=state.round + minutes * ROUNDS_PER_MINUTE))


@rule(N_("Minutes pass: stuns run out, and the unconscious whose minutes have run wake."))
def pass_minutes(state: WildScene, minutes: int) -> Step[WildScene]:
    """Time passes out of the rounds (twelve rounds of five seconds a minute): stuns run out, and an
    unconscious character whose 2D6 minutes have run wakes (his stuns counted afresh)."""
    if minutes < 1:
        raise refuse(N_("minutes passing are at least 1, not {minutes}"), minutes=minutes)
    return Step(_rounds_pass(state, minutes * ROUNDS_PER_MINUTE))


@rule(N_("Character points at the end of a session: about one per hour of play."))
def award_character_points(state: WildScene, name: str, hours: int) -> Step[WildScene]:
    """Character points at the end of a session: about one per hour of play."""
    c = _who(state, name)
    if hours < 0:
        raise refuse(N_("hours of play are not negative"))
    return Step(_put(state, c, character_points=c.character_points + hours))


@rule(N_("The Perception check each character rolls for initiative."))
def initiative_checks(state: WildScene) -> dict[str, str]:
    """The Perception check each character rolls for initiative."""
    return {name: str(c.code("perception")) for name, c in state.characters.items()}


@rule(N_("The order of the round from the Perception totals."))
def roll_initiative(state: WildScene, perception: Mapping[str, int],
                    players: Sequence[str] | None = None) -> Step[WildScene]:
    """The order of the round from the Perception totals (highest first; a player character before an NPC
    on a tie; two of a kind roll again: refused until they have)."""
    return in_order(state, initiative(perception, player_names(state) if players is None else players))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    declare, act, react, record_reaction, attack, damage, take_damage, end_round, spend_force_point,
    spend_character_point, award_character_points, move, record_unconscious, pass_minutes, advance_skill, train,
    treat, initiative_checks, roll_initiative,
)
