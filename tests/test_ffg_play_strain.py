"""Harm in play under the FFG narrative dice (text 004): wounds and the wound thresholds of rivals and
nemeses, strain (minions and rivals turn it into wounds, nemeses and players keep it and recover it),
critical injuries recorded on the character (the percentile roll, +10 for each injury already suffered).
Every step goes through JSON; every illegal action is the engine's error and leaves the state as it was."""

from __future__ import annotations

import json

import pytest
from diceengine.systems.ffg import play
from diceengine.systems.ffg.play import CharacterSheet, Encounter, MinionGroup

from diceengine.cli import main
from diceengine.i18n import translate_error
from tests.helpers import refused, roundtrip


def officer() -> CharacterSheet:
    """A rival: Brawn 2 on a species' minimum of 10 (wound threshold 12), soak 3."""
    return CharacterSheet(name="Officer", kind="rival", characteristics={"brawn": 2, "willpower": 3},
                          wound_base=10, strain_base=10, soak=3)


def inquisitor() -> CharacterSheet:
    """A nemesis: Brawn 3 + 12 = wound threshold 15, Willpower 4 + 11 = strain threshold 15, soak 4."""
    return CharacterSheet(name="Inquisitor", kind="nemesis", characteristics={"brawn": 3, "willpower": 4},
                          wound_base=12, strain_base=11, soak=4)


def test_wound_thresholds_are_the_species_minimum_plus_brawn():
    # « Les points de blessure sont un attribut dérivé basé sur un minimum racial plus le Brawn »
    assert officer().wound_threshold == 12 and inquisitor().wound_threshold == 15
    # « Strain est un attribut dérivé basé sur un minimum racial plus la Volonté »; rivals have none
    assert inquisitor().strain_threshold == 15 and officer().strain_threshold is None
    assert CharacterSheet(name="x", characteristics={"brawn": 2}).wound_threshold is None


def test_a_rival_suffers_wounds_and_can_die_past_its_threshold():
    sheet = roundtrip(officer())
    # damage minus soak: 8 - 3 = 5 wounds; a hit under the soak does nothing
    sheet = roundtrip(play.suffer_wounds(sheet, 8).state)
    assert sheet.wounds == 5
    sheet = roundtrip(play.suffer_wounds(sheet, 3).state)
    assert sheet.wounds == 5
    # 12 wounds is the threshold, not past it; 13 is past it: « peuvent mourir si leur seuil est dépassé »
    sheet = roundtrip(play.suffer_wounds(sheet, 3 + 7).state)
    assert sheet.wounds == 12 and not sheet.out_of_action
    sheet = roundtrip(play.suffer_wounds(sheet, 4).state)
    assert sheet.wounds == 13 and sheet.out_of_action
    refused(play.suffer_wounds, sheet, 10)  # out of the fight
    refused(play.suffer_wounds, officer(), -1)
    refused(play.suffer_wounds, CharacterSheet(name="x", characteristics={}), 5)  # no threshold given


def test_a_rivals_strain_becomes_wounds():
    # « Les Sbires et les Rivaux ne se fatiguent pas. Au lieu de cela, la tension infligée est convertie
    # en blessures » — and soak does not apply to it
    sheet = roundtrip(play.suffer_strain(officer(), 4).state)
    assert (sheet.wounds, sheet.strain) == (4, 0)
    # « Lorsque les rivaux utilisent des capacités ... qui souffrent de fatigue, ils sont convertis en
    # blessures »: the same
    sheet = roundtrip(play.suffer_strain(sheet, 9).state)
    assert (sheet.wounds, sheet.strain) == (13, 0) and sheet.out_of_action
    # « Étant donné que les Sbires et les rivaux ne prennent pas de tension, il ne peut pas être récupéré »
    err = refused(play.recover_strain, officer(), 2)
    assert str(translate_error(err, "fr")) == "Officer est un rival : les rivaux ne prennent pas de tension, " \
                                              "aucune n'est donc récupérée"
    refused(play.suffer_strain, officer(), 0)


def test_a_nemesis_and_a_player_keep_and_recover_strain():
    # « les Némésis prennent et récupèrent la tension comme le font les Personnages du joueur »
    for sheet in (inquisitor(), inquisitor().model_copy(update={"kind": "player", "name": "Kira"})):
        sheet = roundtrip(play.suffer_strain(sheet, 6).state)
        assert (sheet.strain, sheet.wounds) == (6, 0)
        sheet = roundtrip(play.recover_strain(sheet, 2).state)
        assert sheet.strain == 4
        sheet = roundtrip(play.suffer_strain(sheet, 11).state)  # 15: at the threshold, still up
        assert sheet.strain == 15 and not sheet.out_of_action
        sheet = roundtrip(play.suffer_strain(sheet, 1).state)  # « avant de s'effondrer »: past it
        assert sheet.out_of_action
        sheet = roundtrip(play.recover_strain(sheet, 40).state)  # never below none
        assert sheet.strain == 0 and not sheet.out_of_action
        refused(play.recover_strain, sheet, 0)
    refused(play.suffer_strain, CharacterSheet(name="x", characteristics={}), 2)  # no strain threshold given


def test_strain_on_minions_becomes_wounds_and_minions_cannot_use_strain():
    # the text's stormtroopers: four, soak 5, wound threshold 5
    state = roundtrip(play.add_minions(Encounter(), MinionGroup(name="troopers", size=4, soak=5,
                                                               wound_threshold=5)).state)
    # a hit of 6 is soaked down to 1 wound: nobody falls; 6 strain is 6 wounds: one falls
    hit = roundtrip(play.hit_minions(state, "troopers", 6).state)
    assert hit.minions["troopers"].standing == 4
    state = roundtrip(play.strain_on_minions(state, "troopers", 6).state)
    assert state.minions["troopers"].wounds == 6 and state.minions["troopers"].standing == 3
    # « Les Sbires ne peuvent pas utiliser des capacités ou invoquer des effets qui utilisent la tension »
    refused(play.strain_on_minions, state, "troopers", 2, voluntary=True)
    refused(play.strain_on_minions, state, "troopers", 0)
    refused(play.strain_on_minions, state, "nobody", 2)
    state = roundtrip(play.strain_on_minions(state, "troopers", 14).state)  # 20 wounds: three down
    assert state.minions["troopers"].standing == 1
    state = roundtrip(play.strain_on_minions(state, "troopers", 1).state)
    assert state.minions["troopers"].standing == 0
    refused(play.strain_on_minions, state, "troopers", 1)  # all down


def test_critical_injuries_are_recorded_with_a_running_modifier():
    sheet = roundtrip(officer())
    # the percentile dice: « "01" est égal à 1 et "00" est égal à 100 »
    step = play.critical_injury_check(sheet)
    assert (step.check, step.system) == ("1d100", "standard")
    odds = step.distribution().marginal()
    assert odds == pytest.approx({n: 0.01 for n in range(1, 101)})
    sheet = roundtrip(step.state)
    refused(play.critical_injury_check, sheet)  # one roll at a time
    refused(play.record_critical, sheet, 0)
    refused(play.record_critical, sheet, 101)
    sheet = roundtrip(play.record_critical(sheet, 37).state)
    assert sheet.criticals == [37] and sheet.critical_pending is None
    refused(play.record_critical, sheet, 50)  # none asked for
    # +10 per critical injury already suffered: the second roll is d100+10, 11 to 110
    step = play.critical_injury_check(sheet)
    assert step.check == "1d100+10"
    assert step.distribution().marginal() == pytest.approx({n: 0.01 for n in range(11, 111)})
    sheet = roundtrip(step.state)
    err = refused(play.record_critical, sheet, 10)
    assert str(translate_error(err, "en")) == "a critical injury roll of d100+10 is 11 to 110, not 10"
    sheet = roundtrip(play.record_critical(sheet, 110).state)
    # a third, with the weapon's bonus of 5 as well: d100+25
    step = play.critical_injury_check(sheet, bonus=5)
    assert step.check == "1d100+25"
    sheet = roundtrip(play.record_critical(step.state, int(step.roll(seed=3).total)).state)
    assert len(sheet.criticals) == 3 and 26 <= sheet.criticals[-1] <= 125
    refused(play.critical_injury_check, sheet, bonus=-1)


def test_harm_rules_run_from_the_command_line(capsys):
    assert main(["rule", "ffg", "suffer_strain", f"sheet={officer().model_dump_json()}",
                 "strain=3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"]["wounds"] == 3 and out["state"]["strain"] == 0
    assert main(["rule", "ffg", "--lang", "fr"]) == 0
    listing = capsys.readouterr().out
    for name in ("suffer_wounds", "suffer_strain", "recover_strain", "critical_injury_check", "record_critical",
                 "strain_on_minions", "buy_talent"):
        assert name in listing
    assert "Consigner la blessure critique tirée sur le personnage." in listing
