"""Experience in play under the d20 pool (rule text ``001``, « VI - Points d'expériences et améliorations
de personnage »): the characters of a scene (:attr:`PoolState.characters`) earn experience, spend it
at the text's costs, give it away, and lose it when they die.

The text's numbers, and what each one means here:

- « Augmenter votre caractéristique : 50XP »: one point of an attribute, 50 XP; « la valeur maximale
  des caractéristiques est de 13 » (:func:`raise_attribute`);
- « Augmenter votre compétence : 30XP »: one point of a discipline (the text's « compétence »), 30 XP;
  « la valeur maximale d'une compétence est de 5 » (:func:`raise_discipline`);
- « Choisir une nouvelle spécialité : 30 XP » (:func:`new_specialisation`), « Changer une spécialité
  existante : 10 XP » (:func:`change_specialisation`);
- « Acquérir des points d'Impulsion : 5 XP par point d'impulsion »: the points join the party's pool,
  :attr:`PoolState.impulsion` (:func:`buy_impulsion`);
- experience is « normalisée et la même pour chaque joueur » with no limit (:func:`award_xp`);
- « Un personnage mort perd l'intégralité de ses points d'expérience non dépensés » (:func:`character_dies`);
- experience given to another character, « tels que des PNJ ou des autres personnages joueurs. Il n'y a
  pas de limite à ce don » (:func:`give_xp`).

Readings where the text is silent: a dead character earns, spends, gives and receives nothing (its
experience is lost, so none can reach it); an NPC receiving experience is a character of the scene
(:func:`add_character`); Impulsion bought never passes the scene's ``impulsion_cap`` (refused rather
than paid for and lost).
"""

from __future__ import annotations

from typing import Literal

from diceengine.i18n import N_

from ..play import Step, named, recast, refuse
from ..rulebook import rule, rule_table
from .rules import MAX_ATTRIBUTE, MAX_DISCIPLINE, xp_cost
from .state import Character, PoolState

__all__ = [
    "EXPERIENCE_RULES",
    "EXPERIENCE_SUMMARIES",
    "add_character",
    "award_xp",
    "buy_impulsion",
    "change_specialisation",
    "character_dies",
    "give_xp",
    "new_specialisation",
    "raise_attribute",
    "raise_discipline",
]


def _living(state: PoolState, who: str) -> Character:
    character = named(state.characters, who)
    if character.dead:
        raise refuse(N_("{name} is dead: a dead character loses its unspent experience, and gains or spends none"),
                     name=who)
    return character


def _pay(character: Character, cost: int) -> Character:
    if cost > character.xp:
        raise refuse(N_("{name} has {xp} XP, not the {cost} this costs"), name=character.name, xp=character.xp,
                     cost=cost)
    return character.model_copy(update={"xp": character.xp - cost})


@rule(N_("A character joins the scene, to earn, spend and receive experience."))
def add_character(state: PoolState, character: Character) -> Step[PoolState]:
    """A character (a player's or an NPC) joins the scene, to earn, spend and receive experience."""
    if character.name in state.characters:
        raise refuse(N_("there is already a character named {name}"), name=repr(character.name))
    return Step(recast(state, character))


@rule(N_("Experience, the same for every living character (or for one alone); no limit."))
def award_xp(state: PoolState, xp: int, who: str | None = None) -> Step[PoolState]:
    """« Celle-ci sera normalisée et la même pour chaque joueur, indépendamment des réussites personnelles
    (sauf exception où dans certaines situations, le personnage ne peut compter que sur lui-même) »: ``xp``
    to every living character, or to ``who`` alone (the exception). « Il n'y a aucune limite au nombre de
    points d'expérience que vous pouvez recevoir ou garder de côté »: no cap."""
    if xp < 1:
        raise refuse(N_("gain at least one point"))
    if who is not None:
        character = _living(state, who)
        return Step(recast(state, character.model_copy(update={"xp": character.xp + xp})))
    living = [c for c in state.characters.values() if not c.dead]
    if not living:
        raise refuse(N_("no living character to award experience to"))
    return Step(recast(state, *(c.model_copy(update={"xp": c.xp + xp}) for c in living)))


@rule(N_("Raise an attribute one point for 50 XP; at most 13."))
def raise_attribute(state: PoolState, who: str, attribute: str) -> Step[PoolState]:
    """« Augmenter votre caractéristique : 50XP » — one point for 50 XP; « la valeur maximale des
    caractéristiques est de 13 »."""
    if attribute not in _living(state, who).attributes:
        raise refuse(N_("{name} has no attribute {attribute}"), name=who, attribute=repr(attribute))
    return _raise(state, who, "attribute", attribute, MAX_ATTRIBUTE)


@rule(N_("Raise a discipline one point for 30 XP; at most 5."))
def raise_discipline(state: PoolState, who: str, discipline: str) -> Step[PoolState]:
    """« Augmenter votre compétence : 30XP » — one point of a discipline for 30 XP (a discipline the
    character does not list is at 0); « la valeur maximale d'une compétence est de 5 »."""
    return _raise(state, who, "discipline", discipline, MAX_DISCIPLINE)


def _raise(state: PoolState, who: str, kind: Literal["attribute", "discipline"], trait: str, cap: int
           ) -> Step[PoolState]:
    """One point more of a living character's ``trait`` (an attribute or a discipline, at 0 when unlisted), paid
    in XP at its price by ``kind``, never above ``cap``."""
    character = _living(state, who)
    traits = character.attributes if kind == "attribute" else character.disciplines
    current = traits.get(trait, 0)
    if current >= cap:
        raise refuse(N_("{name}'s {what} is {value}: the most it can be is {cap}"), name=who, what=trait,
                     value=current, cap=cap)
    paid = _pay(character, xp_cost(kind, current))
    return Step(recast(state, paid.model_copy(update={f"{kind}s": {**traits, trait: current + 1}})))


@rule(N_("Choose a new specialisation for 30 XP."))
def new_specialisation(state: PoolState, who: str, specialisation: str) -> Step[PoolState]:
    """« Choisir une nouvelle spécialité : 30 XP » (one the character does not have yet)."""
    character = _living(state, who)
    if specialisation in character.specialisations:
        raise refuse(N_("{name} already has the specialisation {specialisation}"), name=who,
                     specialisation=repr(specialisation))
    paid = _pay(character, xp_cost("new_specialisation"))
    paid = paid.model_copy(update={"specialisations": [*character.specialisations, specialisation]})
    return Step(recast(state, paid))


@rule(N_("Change an existing specialisation for 10 XP."))
def change_specialisation(state: PoolState, who: str, old: str, new: str) -> Step[PoolState]:
    """« Changer une spécialité existante : 10 XP »: ``old`` (held) becomes ``new`` (not held)."""
    character = _living(state, who)
    if old not in character.specialisations:
        raise refuse(N_("{name} has no specialisation {specialisation}"), name=who, specialisation=repr(old))
    if new in character.specialisations:
        raise refuse(N_("{name} already has the specialisation {specialisation}"), name=who,
                     specialisation=repr(new))
    paid = _pay(character, xp_cost("change_specialisation"))
    paid = paid.model_copy(update={"specialisations": [new if s == old else s for s in character.specialisations]})
    return Step(recast(state, paid))


@rule(N_("Buy Impulsion for the party: 5 XP a point."))
def buy_impulsion(state: PoolState, who: str, points: int) -> Step[PoolState]:
    """« Acquérir des points d'Impulsion : 5 XP par point d'impulsion »: the points join the party's
    Impulsion; refused when they would pass the scene's ``impulsion_cap``."""
    if points < 1:
        raise refuse(N_("spend at least one point"))
    character = _living(state, who)
    if state.impulsion_cap is not None and state.impulsion + points > state.impulsion_cap:
        raise refuse(N_("the Impulsion pool is capped at {cap}: {points} more would pass it"),
                     cap=state.impulsion_cap, points=points)
    paid = _pay(character, xp_cost("impulsion", points=points))
    return Step(recast(state, paid, impulsion=state.impulsion + points))


@rule(N_("Give experience to another character (an NPC or a player's), for nothing back."))
def give_xp(state: PoolState, giver: str, receiver: str, xp: int) -> Step[PoolState]:
    """« vous pouvez aussi donner ceux-ci à d'autres personnages, tels que des PNJ ou des autres personnages
    joueurs. Il n'y a pas de limite à ce don de point d'expérience et cette fonction ne vous donne en retour
    rien d'autre que la gratitude du receveur »: any part of the giver's unspent XP, nothing back."""
    if xp < 1:
        raise refuse(N_("spend at least one point"))
    if giver == receiver:
        raise refuse(N_("a character gives experience to another character, not to itself"))
    source, target = _living(state, giver), _living(state, receiver)
    source = _pay(source, xp)
    return Step(recast(state, source, target.model_copy(update={"xp": target.xp + xp})))


@rule(N_("A dead character loses all its unspent experience."))
def character_dies(state: PoolState, who: str) -> Step[PoolState]:
    """« Un personnage mort perd l'intégralité de ses points d'expérience non dépensés »: its XP goes to 0
    (what it bought stays on its sheet), and it earns, spends, gives and receives no more."""
    character = _living(state, who)
    return Step(recast(state, character.model_copy(update={"xp": 0, "dead": True})))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
EXPERIENCE_RULES, EXPERIENCE_SUMMARIES = rule_table(
    add_character, award_xp, raise_attribute, raise_discipline, new_specialisation, change_specialisation,
    buy_impulsion, give_xp, character_dies,
)
