"""Who acts when in a classic D6 scene (rule texts ``000`` and ``002``): the order of actions that affect
each other, by their rolls (text ``000``), and text ``002``'s group initiative, rolled by each group's best
Perception. Part of the state of play (:mod:`diceengine.systems.d6.play`, whose ``RULES`` list them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from diceengine.i18n import N_

from ..play import Step, in_order, player_names, refuse
from ..rulebook import rule
from .codes import Code
from .scene import D6Scene, _who
from .shared import order_by_rolls

__all__ = ["action_order", "group_initiative_check", "group_order"]


@rule(N_("The order of actions that affect each other, from the same skill's rolls (text 000)."))
def action_order(state: D6Scene, rolls: Mapping[str, int]) -> Step[D6Scene]:
    """Text ``000``: when actions affect each other, the same skill rolls set the order, highest first; a
    player character before an NPC on a tie; two of a kind roll again (refused until they have)."""
    for name in rolls:
        _who(state, name)
    return in_order(state, order_by_rolls(rolls, player_names(state)))


@rule(N_("A group's initiative roll, by its member with the highest Perception (text 002)."))
def group_initiative_check(state: D6Scene, members: Sequence[str]) -> Step[D6Scene]:
    """A group's initiative roll (text ``002``): its member with the highest Perception rolls it, wound
    penalties applying, no Force point or character point."""
    if not members:
        raise refuse(N_("a group has at least one member"))
    chars = [_who(state, m) for m in members]
    best = max(chars, key=lambda c: c.code("perception").in_pips)
    code = best.code("perception") - Code(best.penalty(state.round), 0)
    if code.dice < 1:
        raise refuse(N_("{name}'s Perception is reduced to {code}: a code reduced to 0D cannot be rolled"),
                     name=best.name, code=str(code))
    return Step(state, str(code), "d6")


@rule(N_("The order of the round: the group chosen by the initiative's winner acts first."))
def group_order(state: D6Scene, groups: Mapping[str, Sequence[str]], first: str) -> Step[D6Scene]:
    """The order of the round: the group the winner of the initiative chose acts first, then the others;
    within a group, the highest Perception first."""
    if first not in groups:
        raise refuse(N_("no group named {name}"), name=repr(first))
    order: list[str] = []
    for group in [first, *[g for g in groups if g != first]]:
        members = [_who(state, m) for m in groups[group]]
        order += [c.name for c in sorted(members, key=lambda c: -c.code("perception").in_pips)]
    return Step(state.model_copy(update={"order": order}))
