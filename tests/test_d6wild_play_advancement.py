"""D6 with the Wild Die in play between sessions (text 003): character points raise a skill one pip, x
points for a skill at xD, at once if the skill was used, after x days of training with a teacher or 2x
without otherwise; never an attribute nor the movement; a wound treated."""

from __future__ import annotations

import pytest
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild.play import WildCharacter, WildScene

from tests.helpers import refused, roundtrip


def scene(points: int = 10) -> WildScene:
    kel = WildCharacter(name="Kel", character_points=points,
                        codes={"blaster": "4D+2", "dodge": "3D+1", "astrogation": "2D", "strength": "3D",
                               "perception": "3D"})
    return WildScene(characters={"Kel": kel})


def test_003_a_used_skill_gains_its_pip_for_x_points_at_once():
    """003: « Entre deux séances par la dépense de x points de personnage pour gagner 1 bonus (y) : si la
    compétence à été utilisée »; « On notera le nombre de points de personnages dépensés »."""
    state = roundtrip(scene())
    state = roundtrip(play.advance_skill(state, "Kel", "blaster", used=True).state)  # 4D+2 -> 5D: 4 points
    kel = state.characters["Kel"]
    assert (kel.codes["blaster"], kel.character_points, kel.points_in_skills, kel.training) == ("5D", 6, 4, [])
    state = roundtrip(play.advance_skill(state, "Kel", "blaster", used=True).state)  # 5D -> 5D+1: 5 points
    kel = state.characters["Kel"]
    assert (kel.codes["blaster"], kel.character_points, kel.points_in_skills) == ("5D+1", 1, 9)
    refused(play.advance_skill, state, "Kel", "blaster", used=True, match="costs 5")


@pytest.mark.parametrize("teacher, days", [(True, 3), (False, 6)])
def test_003_an_unused_skill_needs_x_days_of_training_with_a_teacher_2x_without(teacher, days):
    """003: « si elle n'a pas été utilisée apprentissage de x jours nécessaire avec un professeur »; « si
    elle n'a pas été utilisée apprentissage de 2x jours nécessaire sans un professeur »: Dodge 3D+1, x = 3."""
    state = roundtrip(play.advance_skill(scene(), "Kel", "dodge", used=False, teacher=teacher).state)
    kel = state.characters["Kel"]
    assert (kel.codes["dodge"], kel.character_points, kel.points_in_skills) == ("3D+1", 7, 3)  # paid, not yet raised
    assert [(t.skill, t.days_left) for t in kel.training] == [("dodge", days)]
    refused(play.advance_skill, state, "Kel", "dodge", used=False, match="already training")
    refused(play.train, state, "Kel", 0, match="at least 1")
    refused(play.train, state, "Kel", 1, skill="blaster", match="not training")
    state = roundtrip(play.train(state, "Kel", days - 1).state)
    assert state.characters["Kel"].codes["dodge"] == "3D+1" and state.characters["Kel"].training[0].days_left == 1
    state = roundtrip(play.train(state, "Kel", 1).state)
    kel = state.characters["Kel"]
    assert (kel.codes["dodge"], kel.training) == ("3D+2", [])
    refused(play.train, state, "Kel", 1, match="no skill")


def test_003_two_skills_in_training_each_at_its_own_pace():
    state = play.advance_skill(scene(), "Kel", "astrogation", used=False).state  # 2D: 2 points, 4 days alone
    state = roundtrip(play.advance_skill(state, "Kel", "dodge", used=False, teacher=True).state)  # 3 days
    state = roundtrip(play.train(state, "Kel", 3, skill="dodge").state)
    kel = state.characters["Kel"]
    assert (kel.codes["dodge"], kel.codes["astrogation"], [t.skill for t in kel.training]) == \
        ("3D+2", "2D", ["astrogation"])
    state = roundtrip(play.train(state, "Kel", 5).state)  # the first in training; more days than needed
    assert state.characters["Kel"].codes["astrogation"] == "2D+1"


def test_003_neither_attributes_nor_movement_by_experience():
    """003: « Il n'est pas possible d'augmenter les caractéristiques ni le mouvement par l'expérience »."""
    for name in ("strength", "Perception", "Dextérité".replace("é", "e"), "move"):
        refused(play.advance_skill, scene(), "Kel", name, used=True, match="neither the attributes")
    refused(play.advance_skill, scene(), "Kel", "sabacc", used=True, match="no code")
    refused(play.advance_skill, scene(points=1), "Kel", "astrogation", used=True, match="costs 2")


def test_003_a_wound_lasts_until_healed():
    """003: « personnage blessé (pénalité de 1D à toutes les actions jusqu'à guérison) »; wounded twice,
    -2D; treated, none."""
    state = roundtrip(scene())
    state = roundtrip(play.take_damage(state, "Kel", 5).state)
    state = roundtrip(play.take_damage(state, "Kel", 6).state)  # wounded twice: -2D
    assert state.characters["Kel"].penalty(1) == 2
    assert play.act(play.declare(state, "Kel", 1).state, "Kel", "dodge", 10, physical=False).check \
        == "1D+1 vs 10"
    refused(play.treat, state, "Kel", "kolto", match="treatment")
    state = roundtrip(play.treat(state, "Kel", "bacta_tank").state)
    kel = state.characters["Kel"]
    assert (kel.wounds, kel.worst, kel.penalty(1), kel.fallen) == (0, 0, 0, False)
    assert play.act(play.declare(state, "Kel", 1).state, "Kel", "blaster", 10).check == "4D+2 vs 10"
    refused(play.treat, state, "Kel", match="no wound")
    refused(play.treat, play.take_damage(state, "Kel", 1).state, "Kel", match="no wound")  # a stun
    out = roundtrip(play.treat(play.take_damage(state, "Kel", 14).state, "Kel", "medical_droid").state)
    assert out.characters["Kel"].out_of_action is None  # mortally wounded, treated: acts again
    refused(play.treat, play.take_damage(state, "Kel", 16).state, "Kel", match="killed")
