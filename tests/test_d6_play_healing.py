"""Classic D6 in play between fights (text 000): a wound treated by a medpac, a medical droid or a bacta
tank; the end of an adventure (Force points returned when spent heroically, one more when dramatically
appropriate, skill points awarded); skill points spent to raise skills, at the text's costs."""

from __future__ import annotations

import pytest
from diceengine.systems.d6 import play
from diceengine.systems.d6.play import D6Character, D6Scene
from diceengine.systems.d6.rules import Wound

from tests.helpers import refused, roundtrip


def scene(**roark) -> D6Scene:
    codes = {"blaster": "5D+1", "dodge": "4D+1", "repulsorlift_repair": "2D+2", "strength": "3D",
             "technical": "2D+2", "perception": "3D"}
    r = D6Character(name="Roark", codes=codes, force_points=3, **roark)
    jana = D6Character(name="Jana", codes={"blaster": "5D+2", "strength": "3D", "perception": "3D"})
    return D6Scene(characters={"Roark": r, "Jana": jana})


@pytest.mark.parametrize("means", ["medpac", "medical_droid", "bacta_tank"])
def test_000_a_mortally_wounded_character_treated_lives_and_acts(means):
    """000: « il de bonnes chances de perdre la vie .et vite - à moins que quelqu'un ne le conduise jusqu'à
    un Droïd médical ou à un caisson de régénération, ou encore qu'on le soigne avec un medpac »; « Il ne
    peut rien faire tant qu'il n'a pas été soigné »."""
    state = roundtrip(scene())
    state = roundtrip(play.take_damage(state, "Roark", 12, 4).state)  # 12 against 4: mortally wounded
    assert state.characters["Roark"].health == Wound.MORTALLY_WOUNDED
    refused(play.declare, state, "Roark", 1, match="until healed")
    assert play.death_check(state, "Roark").check == "2D vs 1"
    refused(play.treat, state, "Roark", "kolto", match="treatment")
    state = roundtrip(play.treat(state, "Roark", means).state)
    roark = state.characters["Roark"]
    assert (roark.health, roark.mortal_round) == (Wound.HEALTHY, None)
    refused(play.death_check, state, "Roark", match="not mortally wounded")  # no more death roll
    state = roundtrip(play.end_round(state).state)
    state = roundtrip(play.declare(state, "Roark", 1).state)
    assert play.act(state, "Roark", "blaster", 10).check == "5D+1 vs 10"  # no -1D left


def test_000_treatment_ends_the_wounded_penalty_and_refuses_the_dead_and_the_unhurt():
    """000: « chaque fois qu'il utilisera une compétence ou un attribut par la suite, ses codes seront
    réduits de 1D » until the wound is treated; stuns are no wound; the dead are past treatment."""
    state = roundtrip(play.take_damage(scene(), "Roark", 9, 7).state)  # 9 against 7: wounded
    state = roundtrip(play.end_round(state).state)
    assert play.act(play.declare(state, "Roark", 1).state, "Roark", "blaster", 10).check == "4D+1 vs 10"
    state = roundtrip(play.treat(state, "Roark", "medpac").state)
    assert play.act(play.declare(state, "Roark", 1).state, "Roark", "blaster", 10).check == "5D+1 vs 10"
    refused(play.treat, state, "Roark", match="no wound")
    stunned = play.take_damage(state, "Roark", 3, 7).state
    refused(play.treat, stunned, "Roark", match="no wound")
    dead = scene(health=Wound.MORTALLY_WOUNDED, mortal_round=1, dead=True)
    refused(play.treat, dead, "Roark", "bacta_tank", match="dead")
    refused(play.treat, state, "Nobody", match="no character")


def test_000_force_points_come_back_at_the_end_of_the_adventure_by_how_they_were_spent():
    """000: evil, « vous perdez définitivement votre point »; neutral, lost; heroic, « A la fin de
    l'aventure, vous le récupérerez »; heroic and dramatic, « non seulement vous récupérerez votre point
    de Force à la fin de l'aventure, mais le maître de jeu pourra également vous récompenser en vous en
    donnant un autre »."""
    state = roundtrip(scene())  # 3 Force points
    for use in ("heroic", "dramatic", "neutral"):
        state = roundtrip(play.spend_force_point(state, "Roark", use).state)
        state = roundtrip(play.end_round(state).state)
    roark = state.characters["Roark"]
    assert (roark.force_points, roark.force_points_returning, roark.force_points_dramatic) == (0, 2, 1)
    after = roundtrip(play.end_adventure(state, "Roark").state)  # heroic 1 + dramatic 1 + its reward 1
    assert after.characters["Roark"].force_points == 3
    assert (after.characters["Roark"].force_points_returning, after.characters["Roark"].force_points_dramatic) == (0, 0)
    stingy = roundtrip(play.end_adventure(state, "Roark", dramatic_reward=False).state)
    assert stingy.characters["Roark"].force_points == 2  # the game master « pourra »: his call
    # « le maître de jeu peut vous récompenser en vous donnant des points de Force supplémentaires »
    assert play.end_adventure(state, "Roark", force_points=1).state.characters["Roark"].force_points == 4
    # the next adventure starts afresh: nothing more comes back
    assert play.end_adventure(after, "Roark").state.characters["Roark"].force_points == 3
    refused(play.end_adventure, state, "Roark", skill_points=-1, match="not negative")
    heroic = play.spend_force_point(scene(), "Roark", "heroic").state  # no reward beyond the point itself
    assert play.end_adventure(heroic, "Roark").state.characters["Roark"].force_points == 3
    evil = play.spend_force_point(scene(), "Roark", "evil").state
    assert play.end_adventure(evil, "Roark").state.characters["Roark"].force_points == 2  # lost for good


def test_000_skill_points_raise_skills_at_the_number_before_the_d():
    """000: « Augmenter une compétence de 2D, coûte au moins 2 points de compétences. Augmenter une
    compétence de 5D+1 coûte au moins 5 points de compétence. Augmenter une compétence de 3D+2 coûte 3
    points »; « Si vous voulez faire passer à 3D une de vos compétences qui est à 2D, cela vous coûte 6
    points »; « passer de 4D à 5D coûtera 12 points »."""
    state = roundtrip(play.end_adventure(scene(), "Roark", skill_points=20).state)
    assert state.characters["Roark"].skill_points == 20
    step = play.advance_skill(state, "Roark", "blaster")  # 5D+1 -> 5D+2: 5 points
    assert step.check is None
    state = roundtrip(step.state)
    assert (state.characters["Roark"].codes["blaster"], state.characters["Roark"].skill_points) == ("5D+2", 15)
    state = roundtrip(play.advance_skill(state, "Roark", "Repulsorlift Repair").state)  # 2D+2 -> 3D: 2 points
    assert (state.characters["Roark"].codes["repulsorlift_repair"], state.characters["Roark"].skill_points) == ("3D", 13)
    state = roundtrip(play.advance_skill(state, "Roark", "dodge", pips=2).state)  # 4D+1 -> 4D+2 -> 5D: 4 + 4
    assert (state.characters["Roark"].codes["dodge"], state.characters["Roark"].skill_points) == ("5D", 5)
    # « pourvu que vous ne dépensiez pas plus de points que vous n'en avez »: 5D+2 -> 6D costs 5, 6D -> 6D+1 costs 6
    refused(play.advance_skill, state, "Roark", "blaster", pips=2, match="costs 11")
    state = roundtrip(play.advance_skill(state, "Roark", "blaster").state)
    assert (state.characters["Roark"].codes["blaster"], state.characters["Roark"].skill_points) == ("6D", 0)
    # « vous ne pouvez jamais augmenter ceux de vos attributs »
    rich = play.end_adventure(state, "Roark", skill_points=30).state
    refused(play.advance_skill, rich, "Roark", "technical", match="attribute")
    refused(play.advance_skill, rich, "Roark", "Strength", match="attribute")
    refused(play.advance_skill, rich, "Roark", "blaster", pips=0, match="at least one pip")
    refused(play.advance_skill, rich, "Roark", "sabacc", match="no code")


@pytest.mark.parametrize("code, pips, cost", [("2D", 3, 6), ("4D", 3, 12), ("5D", 3, 15), ("2D", 1, 2),
                                              ("5D+1", 1, 5), ("3D+2", 1, 3)])
def test_000_the_text_s_costs(code, pips, cost):
    """000: « augmenter une compétence d'un D coûte trois fois le nombre qui précède son "D" (passer de 4D
    à 5D coûtera 12 points de compétence; de 5D à 6D, 15 points; etc,) »."""
    c = D6Character(name="R", codes={"skill": code}, skill_points=cost)
    state = D6Scene(characters={"R": c})
    after = play.advance_skill(state, "R", "skill", pips=pips).state.characters["R"]
    assert after.skill_points == 0
    refused(play.advance_skill, state.model_copy(update={"characters": {"R": c.model_copy(update={
        "skill_points": cost - 1})}}), "R", "skill", pips=pips, match=f"costs {cost}")


def test_000_a_character_wounded_and_treated_in_the_same_round_stays_down_until_the_next():
    """000: « Un personnage « blessé » tombe à terre et ne peut rien faire pendant le reste de ce round »: the
    hit's effect for the round of the wound, which a medpac given in that round does not undo; the next round
    they act, without the -1D."""
    state = roundtrip(play.take_damage(scene(), "Roark", 9, 7).state)  # 9 against 7: wounded
    state = roundtrip(play.treat(state, "Roark", "medpac").state)
    assert state.characters["Roark"].health == Wound.HEALTHY
    refused(play.declare, state, "Roark", 1, match="rest of it")
    state = roundtrip(play.end_round(state).state)
    assert play.act(play.declare(state, "Roark", 1).state, "Roark", "blaster", 10).check == "5D+1 vs 10"
