"""Advancement and healing in D6 with the Wild Die (rule text ``003``): character points spent between
sessions to raise a skill one pip, at once when it was used, after training otherwise; a wound healed.
Part of the state of play (:mod:`diceengine.systems.d6wild.play`, whose ``RULES`` list them).

Healing: the text says only that a wound's -1D lasts « jusqu'à guérison » and lists First Aid and
Medicine among the skills; text ``000`` names the means (a medpac, a medical droid, a bacta tank) and
neither gives a roll or a time. The reading here, as in classic D6: treated, the wounds end (a killed
character is past it); any roll or delay is the game master's, outside the rule.
"""

from __future__ import annotations

from diceengine.i18n import N_

from ..d6.codes import skill_key
from ..d6.healing import TREATMENTS, Treatment
from ..d6.shared import advance, advance_cost
from ..play import Step, one_of, refuse
from ..rulebook import rule
from .rules import WildWound, training_days
from .scene import Training, WildScene, _put, _who

__all__ = ["ATTRIBUTES", "TREATMENTS", "advance_skill", "train", "treat"]

#: the six attributes (« Il n'est pas possible d'augmenter les caractéristiques ni le mouvement par
#: l'expérience »), English and French names, and the movement
ATTRIBUTES = frozenset({"dexterity", "perception", "strength", "knowledge", "mechanical", "technical",
                        "dexterite", "vigueur", "savoir", "mecanique", "technique", "move", "movement",
                        "mouvement"})


@rule(N_("Character points spent to raise a skill one pip: at once if it was used, else after training."))
def advance_skill(state: WildScene, name: str, skill: str, used: bool, teacher: bool = False) -> Step[WildScene]:
    """Between sessions, « la dépense de x points de personnage pour gagner 1 bonus (y) » (x the number
    before the D): « si la compétence à été utilisée », the pip now; if not, « apprentissage de x jours
    nécessaire avec un professeur », « de 2x jours nécessaire sans un professeur » (the pip after
    :func:`train`). The points go to the count spent on skills (« On notera le nombre de points de
    personnages dépensés dans les compétences »). Never an attribute nor the movement; one pip of a
    skill in training at a time."""
    c = _who(state, name)
    key = skill_key(skill)
    if key in ATTRIBUTES:
        raise refuse(N_("{skill} cannot be raised by experience: neither the attributes nor the movement (text 003)"),
                     skill=skill)
    code = c.code(skill)
    if any(t.skill == key for t in c.training):
        raise refuse(N_("{name} is already training {skill}"), name=name, skill=skill)
    cost = advance_cost(code, 1)
    if cost > c.character_points:
        raise refuse(N_("{name} has {points} character point(s): one pip of {skill} costs {cost}"), name=name,
                     points=c.character_points, skill=skill, cost=cost)
    update: dict[str, object] = {"character_points": c.character_points - cost,
                                 "points_in_skills": c.points_in_skills + cost}
    if used:
        update["codes"] = {**c.codes, key: str(advance(code))}
    else:
        update["training"] = [*c.training, Training(skill=key, days_left=training_days(code, False, teacher))]
    return Step(_put(state, c, **update))


@rule(N_("Days of training on a skill: when they are done, the pip paid for is added."))
def train(state: WildScene, name: str, days: int, skill: str | None = None) -> Step[WildScene]:
    """``days`` of training on ``skill`` (the first in training when not named): when its days are done,
    the pip paid for is added."""
    c = _who(state, name)
    if days < 1:
        raise refuse(N_("days of training are at least 1, not {days}"), days=days)
    if not c.training:
        raise refuse(N_("{name} is training no skill"), name=name)
    key = c.training[0].skill if skill is None else skill_key(skill)
    found = [t for t in c.training if t.skill == key]
    if not found:
        raise refuse(N_("{name} is not training {skill}"), name=name, skill=skill)
    left = found[0].days_left - days
    rest = [t for t in c.training if t.skill != key]
    if left > 0:
        return Step(_put(state, c, training=[Training(skill=key, days_left=left) if t.skill == key else t
                                             for t in c.training]))
    return Step(_put(state, c, training=rest, codes={**c.codes, key: str(advance(c.code(key)))}))


@rule(N_("A wound treated by a medpac, a medical droid or a bacta tank: the wounds end."))
def treat(state: WildScene, name: str, means: Treatment = "medpac") -> Step[WildScene]:
    """A wounded, incapacitated or mortally wounded character treated: the wounds end (text ``003``: « pénalité
    de 1D à toutes les actions jusqu'à guérison »; the means are text ``000``'s), no roll; killed, refused."""
    one_of(means, TREATMENTS, "a treatment")
    c = _who(state, name)
    if c.worst >= WildWound.KILLED:
        raise refuse(N_("{name} is killed"), name=name)
    if c.worst < WildWound.WOUNDED and not c.wounds:
        raise refuse(N_("{name} has no wound to treat"), name=name)
    return Step(_put(state, c, wounds=0, worst=0))
