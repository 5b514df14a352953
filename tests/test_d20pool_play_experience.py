"""Experience in play under the d20 pool (text 001, section VI), from the text's own numbers: an attribute
point 50 XP (at most 13), a discipline point 30 XP (at most 5), a new specialisation 30, changing one 10,
Impulsion 5 XP a point; the same experience for everyone; a dead character loses its unspent XP;
experience given away for nothing back. Every step goes through JSON; every illegal action is the
engine's error and leaves the state as it was."""

from __future__ import annotations

import json

import pytest
from diceengine.systems.d20pool import play
from diceengine.systems.d20pool.play import Character, PoolState

from diceengine.cli import main
from diceengine.i18n import translate_error
from tests.helpers import refused, roundtrip


def party() -> PoolState:
    state = PoolState(impulsion=1)
    state = roundtrip(play.add_character(state, Character(
        name="Kael", attributes={"Forme": 8, "Dextérité": 12}, disciplines={"Combat": 4, "Sens": 2},
        specialisations=["Natation"])).state)
    state = roundtrip(play.add_character(state, Character(name="Vess", attributes={"Esprit": 9})).state)
    return state


def test_experience_is_the_same_for_every_player_and_has_no_limit():
    state = party()
    refused(play.add_character, state, Character(name="Kael"))  # one Kael
    # « normalisée et la même pour chaque joueur »
    state = roundtrip(play.award_xp(state, 120).state)
    assert {n: c.xp for n, c in state.characters.items()} == {"Kael": 120, "Vess": 120}
    # « sauf exception où ... le personnage ne peut compter que sur lui-même »
    state = roundtrip(play.award_xp(state, 40, who="Vess").state)
    assert state.characters["Vess"].xp == 160 and state.characters["Kael"].xp == 120
    # « aucune limite au nombre de points d'expérience que vous pouvez recevoir ou garder de côté »
    state = roundtrip(play.award_xp(state, 10 ** 6).state)
    assert state.characters["Kael"].xp == 10 ** 6 + 120
    refused(play.award_xp, state, 0)
    refused(play.award_xp, state, 5, who="Nobody")


def test_each_improvement_costs_what_the_text_says():
    state = roundtrip(play.award_xp(party(), 200, who="Kael").state)
    # « Augmenter votre caractéristique : 50XP »: one point, 50 XP
    state = roundtrip(play.raise_attribute(state, "Kael", "Forme").state)
    kael = state.characters["Kael"]
    assert kael.attributes["Forme"] == 9 and kael.xp == 150
    # « Augmenter votre compétence : 30XP »; a discipline not listed starts at 0
    state = roundtrip(play.raise_discipline(state, "Kael", "Combat").state)
    state = roundtrip(play.raise_discipline(state, "Kael", "Pilotage").state)
    kael = state.characters["Kael"]
    assert kael.disciplines == {"Combat": 5, "Sens": 2, "Pilotage": 1} and kael.xp == 90
    # « Choisir une nouvelle spécialité : 30 XP »
    state = roundtrip(play.new_specialisation(state, "Kael", "Arbalète Wookie").state)
    assert state.characters["Kael"].specialisations == ["Natation", "Arbalète Wookie"]
    assert state.characters["Kael"].xp == 60
    # « Changer une spécialité existante : 10 XP »
    state = roundtrip(play.change_specialisation(state, "Kael", "Natation", "Médecine").state)
    assert state.characters["Kael"].specialisations == ["Médecine", "Arbalète Wookie"]
    assert state.characters["Kael"].xp == 50
    # « Acquérir des points d'Impulsion : 5 XP par point d'impulsion »: into the party's pool
    state = roundtrip(play.buy_impulsion(state, "Kael", 4).state)
    assert state.impulsion == 1 + 4 and state.characters["Kael"].xp == 50 - 20
    assert state.characters["Vess"].xp == 0  # nobody else paid

    refused(play.new_specialisation, state, "Kael", "Médecine")  # already held
    refused(play.change_specialisation, state, "Kael", "Natation", "Pilotage")  # no longer held
    refused(play.change_specialisation, state, "Kael", "Médecine", "Arbalète Wookie")  # already held
    refused(play.raise_attribute, state, "Kael", "Raison")  # not on the sheet
    refused(play.raise_attribute, state, "Kael", "Dextérité")  # 30 XP, not 50
    refused(play.buy_impulsion, state, "Kael", 7)  # 35 XP, not 30
    refused(play.buy_impulsion, state, "Kael", 0)
    state = roundtrip(play.buy_impulsion(state, "Kael", 6).state)  # exactly 30
    assert state.characters["Kael"].xp == 0 and state.impulsion == 11


def test_the_caps_13_and_5():
    state = roundtrip(play.award_xp(party(), 500).state)
    # « la valeur maximale des caractéristiques est de 13 »: Dextérité 12 -> 13, then no more
    state = roundtrip(play.raise_attribute(state, "Kael", "Dextérité").state)
    assert state.characters["Kael"].attributes["Dextérité"] == 13
    err = refused(play.raise_attribute, state, "Kael", "Dextérité")
    assert str(translate_error(err, "en")) == "Kael's Dextérité is 13: the most it can be is 13"
    assert str(translate_error(err, "fr")) == "Dextérité de Kael vaut 13 : la valeur maximale est 13"
    # « la valeur maximale d'une compétence est de 5 »: Combat 4 -> 5, then no more
    state = roundtrip(play.raise_discipline(state, "Kael", "Combat").state)
    refused(play.raise_discipline, state, "Kael", "Combat")
    assert state.characters["Kael"].xp == 500 - 50 - 30
    # a sheet beyond the caps is not a valid state
    with pytest.raises(ValueError):
        Character(name="X", attributes={"Forme": 14})
    with pytest.raises(ValueError):
        Character(name="X", disciplines={"Combat": 6})


def test_impulsion_bought_never_passes_the_scene_cap():
    state = roundtrip(play.award_xp(party().model_copy(update={"impulsion_cap": 3}), 100).state)
    refused(play.buy_impulsion, state, "Vess", 3)  # 1 + 3 > 3
    state = roundtrip(play.buy_impulsion(state, "Vess", 2).state)
    assert state.impulsion == 3 and state.characters["Vess"].xp == 90


def test_experience_given_to_another_character():
    state = roundtrip(play.award_xp(party(), 70).state)
    state = roundtrip(play.add_character(state, Character(name="Old Ben (PNJ)")).state)
    # « donner ceux-ci à d'autres personnages, tels que des PNJ ... Il n'y a pas de limite à ce don »
    state = roundtrip(play.give_xp(state, "Kael", "Old Ben (PNJ)", 70).state)  # all of it
    assert state.characters["Kael"].xp == 0 and state.characters["Old Ben (PNJ)"].xp == 70
    state = roundtrip(play.give_xp(state, "Vess", "Kael", 25).state)
    assert {n: c.xp for n, c in state.characters.items()} == {"Kael": 25, "Vess": 45, "Old Ben (PNJ)": 70}
    assert state.impulsion == 1  # « rien d'autre que la gratitude du receveur »
    refused(play.give_xp, state, "Kael", "Vess", 26)  # more than Kael holds
    refused(play.give_xp, state, "Kael", "Kael", 5)
    refused(play.give_xp, state, "Kael", "Vess", 0)
    refused(play.give_xp, state, "Kael", "Nobody", 5)


def test_a_dead_character_loses_its_unspent_experience():
    state = roundtrip(play.award_xp(party(), 80).state)
    state = roundtrip(play.raise_attribute(state, "Kael", "Forme").state)  # 30 left unspent
    # « Un personnage mort perd l'intégralité de ses points d'expérience non dépensés »
    state = roundtrip(play.character_dies(state, "Kael").state)
    kael = state.characters["Kael"]
    assert kael.dead and kael.xp == 0 and kael.attributes["Forme"] == 9  # what was bought stays
    assert state.characters["Vess"].xp == 80
    for rule, args in ((play.raise_discipline, ("Kael", "Sens")), (play.buy_impulsion, ("Kael", 1)),
                       (play.give_xp, ("Vess", "Kael", 5)), (play.give_xp, ("Kael", "Vess", 1)),
                       (play.award_xp, (5, "Kael")), (play.character_dies, ("Kael",))):
        refused(rule, state, *args)
    # experience for everyone now reaches the living only
    state = roundtrip(play.award_xp(state, 10).state)
    assert state.characters["Kael"].xp == 0 and state.characters["Vess"].xp == 90
    state = roundtrip(play.character_dies(state, "Vess").state)
    refused(play.award_xp, state, 10)  # nobody left alive


def test_experience_rules_run_from_the_command_line(capsys):
    state = play.award_xp(party(), 60).state
    assert main(["rule", "d20pool", "buy_impulsion", f"state={state.model_dump_json()}", "who=Vess",
                 "points=2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"]["impulsion"] == 3 and out["state"]["characters"]["Vess"]["xp"] == 50
    assert main(["rule", "d20pool", "--lang", "fr"]) == 0
    listing = capsys.readouterr().out
    for name in play.EXPERIENCE_RULES:
        assert name in listing
    assert "Acheter de l'Impulsion pour le groupe : 5 XP le point." in listing
