"""The end of an adventure in classic D6 (rule text ``000``): Force points returned when used
heroically, one more when dramatically appropriate, skill points awarded and spent to raise skills.
Part of the state of play (:mod:`diceengine.systems.d6.play`, whose ``RULES`` list them).
"""

from __future__ import annotations

from diceengine.i18n import N_

from ..play import Step, refuse
from ..rulebook import rule
from .scene import D6Scene, _put, _who
from .shared import advance, advance_cost

__all__ = ["ATTRIBUTES", "advance_skill", "end_adventure"]

#: the attributes, never raised by skill points (English and French names)
ATTRIBUTES = frozenset({"dexterity", "knowledge", "mechanical", "perception", "strength", "technical",
                        "dexterite", "savoir", "mecanique", "vigueur", "technique"})


@rule(N_("The end of an adventure: Force points spent heroically returned, skill points awarded."))
def end_adventure(state: D6Scene, name: str, skill_points: int = 0, dramatic_reward: bool = True,
                  force_points: int = 0) -> Step[D6Scene]:
    """The end of the adventure for one character (text ``000``): each Force point spent heroically is
    returned (« A la fin de l'aventure, vous le récupérerez »); spent heroically and dramatically, « le
    maître de jeu pourra également vous récompenser en vous en donnant un autre » (``dramatic_reward``,
    the game master's call); ``force_points`` more as a reward (« le maître de jeu peut vous récompenser
    en vous donnant des points de Force supplémentaires »); ``skill_points`` awarded (« A la fin d'une
    aventure, le maître de jeu peut vous attribuer un certain nombre de points de compétence »)."""
    c = _who(state, name)
    if skill_points < 0 or force_points < 0:
        raise refuse(N_("points awarded are not negative"))
    if c.dead:
        raise refuse(N_("{name} is dead"), name=name)
    back = c.force_points_returning + (c.force_points_dramatic if dramatic_reward else 0) + force_points
    return Step(_put(state, c, force_points=c.force_points + back, force_points_returning=0,
                     force_points_dramatic=0, force_point_round=None, skill_points=c.skill_points + skill_points))


@rule(N_("Skill points spent to raise a skill: each pip costs the number before the D."))
def advance_skill(state: D6Scene, name: str, skill: str, pips: int = 1) -> Step[D6Scene]:
    """Skill points spent to raise a skill by ``pips`` (text ``000``: « vous devez dépenser autant de points
    de compétence que le nombre se trouvant avant le "D" », each pip at the code it raises: 2D to 3D
    costs 6); never an attribute (« vous ne pouvez jamais augmenter ceux de vos attributs »), never more
    points than the character has."""
    c = _who(state, name)
    key = skill.lower().replace(" ", "_").replace("-", "_")
    if key in ATTRIBUTES:
        raise refuse(N_("{skill} is an attribute: skill points never raise attributes (text 000)"), skill=skill)
    if pips < 1:
        raise refuse(N_("a skill is raised by at least one pip, not {pips}"), pips=pips)
    code = c.code(skill)
    cost = advance_cost(code, pips)
    if cost > c.skill_points:
        raise refuse(N_("{name} has {points} skill point(s): raising {skill} by {pips} pip(s) costs {cost}"),
                     name=name, points=c.skill_points, skill=skill, pips=pips, cost=cost)
    return Step(_put(state, c, codes={**c.codes, key: str(advance(code, pips))}, skill_points=c.skill_points - cost))
