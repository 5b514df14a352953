"""Talents bought by tier under the FFG narrative dice (rule text ``004``, « TalentsEdit »), on a
:class:`~diceengine.systems.ffg.sheet.CharacterSheet`.

- A talent costs 5 XP times its tier (:func:`~diceengine.systems.ffg.talent_cost`): the text's Grit
  example, « trois niveaux de Grain d'un arbre de spécialisation pour un coût total de 45 points
  (10+15+20 = 45). Ensuite, ils ont acheté un niveau de grain sur un autre arbre de spécialisation au
  coût de 10 points », is tiers 2, 3 and 4, then tier 2.
- « doivent être déverrouillés dans l'ordre où ils apparaissent »: a talent of tier 2 or more needs one
  of the tier above already bought on the same tree (the text does not draw the trees' links: the
  nearest reading).
- « Le joueur ne peut acheter un talent sur l'arbre une fois (mais peut l'acheter à nouveau, s'il
  apparaît d'ailleurs sur le schéma) »: each place (tree, tier, column) once; « Lorsque l'arbre est
  rempli, le personnage ne peut plus acheter de talents » follows (5 tiers of 4 columns).
- « Les niveaux du talent s'empilent »: :meth:`CharacterSheet.ranks`; Grit adds one to the strain
  threshold per rank (:attr:`CharacterSheet.strain_threshold`).
"""

from __future__ import annotations

from diceengine.i18n import N_

from ..play import Step, refuse
from ..rulebook import rule, rule_table
from .rules import talent_cost
from .sheet import CharacterSheet, Talent

__all__ = ["TALENT_RULES", "TALENT_SUMMARIES", "buy_talent"]


@rule(N_("Buy a talent on a specialisation tree for 5 x its tier in XP, in the tree's order."))
def buy_talent(sheet: CharacterSheet, talent: str, tree: str, tier: int, column: int = 1) -> Step[CharacterSheet]:
    """Buy ``talent`` at its place on the specialisation ``tree`` (``tier`` 1 to 5, ``column`` 1 to 4) for
    5 x the tier in XP: « Plus le diagramme est bas, plus les Talents deviennent chers »; unlocked in order
    (a talent of the tier above on the same tree first), each place once."""
    if not 1 <= tier <= 5 or not 1 <= column <= 4:
        raise refuse(N_("a talent's place is tier 1 to 5 and column 1 to 4, not tier {tier}, column {place}"),
                     tier=tier, place=column)
    on_tree = [t for t in sheet.talents if t.tree == tree]
    if any(t.tier == tier and t.column == column for t in on_tree):
        raise refuse(N_("{name} already bought the talent at tier {tier}, column {place} of {tree}"),
                     name=sheet.name, tier=tier, place=column, tree=tree)
    if tier > 1 and not any(t.tier == tier - 1 for t in on_tree):
        raise refuse(N_("a tier {tier} talent of {tree} is unlocked by one of tier {above} first"), tier=tier,
                     tree=tree, above=tier - 1)
    cost = talent_cost(tier)
    if cost > sheet.xp:
        raise refuse(N_("{talent} at tier {tier} costs {cost} XP, {name} has {xp}"), talent=talent, tier=tier,
                     cost=cost, name=sheet.name, xp=sheet.xp)
    bought = Talent(name=talent, tree=tree, tier=tier, column=column)
    return Step(sheet.model_copy(update={"xp": sheet.xp - cost, "talents": [*sheet.talents, bought]}))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
TALENT_RULES, TALENT_SUMMARIES = rule_table(
    buy_talent,
)
