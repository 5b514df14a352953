"""Talents bought by tier under the FFG narrative dice (text 004), from the text's Grit example: three
ranks of Grit on one tree for 10 + 15 + 20 = 45 XP, one more on another tree for 10, stacking to +4
strain. Every step goes through JSON; every illegal action is the engine's error and leaves the sheet
as it was."""

from __future__ import annotations

from diceengine.systems.ffg import play
from diceengine.systems.ffg.play import CharacterSheet

from diceengine.i18n import translate_error
from tests.helpers import refused, roundtrip


def test_the_grit_example():
    sheet = roundtrip(CharacterSheet(name="Kira", characteristics={"willpower": 3}, strain_base=10, xp=200))
    assert sheet.strain_threshold == 13
    # the tree's top row first (tier 1, 5 XP), then Grit down the tree at tiers 2, 3 and 4
    sheet = roundtrip(play.buy_talent(sheet, "Toughened", "Bodyguard", 1).state)
    assert sheet.xp == 195
    spent = sheet.xp
    for tier in (2, 3, 4):
        sheet = roundtrip(play.buy_talent(sheet, "Grit", "Bodyguard", tier).state)
    # « trois niveaux de Grain d'un arbre de spécialisation pour un coût total de 45 points (10+15+20 = 45) »
    assert spent - sheet.xp == 45
    # « Ensuite, ils ont acheté un niveau de grain sur un autre arbre ... au coût de 10 points »
    sheet = roundtrip(play.buy_talent(sheet, "Quick Strike", "Mercenary Soldier", 1).state)
    spent = sheet.xp
    sheet = roundtrip(play.buy_talent(sheet, "Grit", "Mercenary Soldier", 2, column=3).state)
    assert spent - sheet.xp == 10
    # « Ils s'empileraient cumulativement comme quatre niveaux de grain (accordant un total de +4 à la souche) »
    assert sheet.ranks("Grit") == 4 and sheet.ranks("grit") == 4
    assert sheet.strain_threshold == 13 + 4
    assert sheet.xp == 200 - 5 - 45 - 5 - 10


def test_talents_are_unlocked_in_order_and_each_place_bought_once():
    sheet = CharacterSheet(name="Kira", characteristics={}, xp=100)
    # « doivent être déverrouillés dans l'ordre où ils apparaissent »
    err = refused(play.buy_talent, sheet, "Grit", "Bodyguard", 2)
    assert str(translate_error(err, "en")) == "a tier 2 talent of Bodyguard is unlocked by one of tier 1 first"
    sheet = roundtrip(play.buy_talent(sheet, "Toughened", "Bodyguard", 1).state)
    refused(play.buy_talent, sheet, "Grit", "Other tree", 2)  # tier 1 of another tree does not unlock it
    refused(play.buy_talent, sheet, "Grit", "Bodyguard", 3)  # no tier 2 yet
    # « Le joueur ne peut acheter un talent sur l'arbre une fois »
    refused(play.buy_talent, sheet, "Toughened", "Bodyguard", 1)
    sheet = roundtrip(play.buy_talent(sheet, "Toughened", "Bodyguard", 1, column=2).state)  # elsewhere: again
    assert sheet.ranks("Toughened") == 2
    refused(play.buy_talent, sheet, "Grit", "Bodyguard", 6)
    refused(play.buy_talent, sheet, "Grit", "Bodyguard", 1, column=5)


def test_a_full_tree_sells_no_more_talents_and_xp_is_never_overspent():
    sheet = CharacterSheet(name="Kira", characteristics={}, xp=5 * 4 * (1 + 2 + 3 + 4 + 5))  # the whole tree: 300
    for tier in range(1, 6):
        for column in range(1, 5):
            sheet = play.buy_talent(sheet, f"t{tier}{column}", "Bodyguard", tier, column).state
    sheet = roundtrip(sheet)
    assert sheet.xp == 0 and len(sheet.talents) == 20
    # « Lorsque l'arbre est rempli, le personnage ne peut plus acheter de talents »: every place is taken
    rich = sheet.model_copy(update={"xp": 1000})
    for tier in range(1, 6):
        for column in range(1, 5):
            refused(play.buy_talent, rich, "Grit", "Bodyguard", tier, column)
    # never more XP than the sheet holds
    poor = CharacterSheet(name="Kira", characteristics={}, xp=19)
    poor = play.buy_talent(poor, "a", "T", 1).state  # 14 left
    poor = play.buy_talent(poor, "b", "T", 2).state  # 4 left
    err = refused(play.buy_talent, poor, "c", "T", 3)
    assert str(translate_error(err, "fr")) == "c au rang 3 coûte 15 XP, Kira en a 4"
