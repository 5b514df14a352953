"""D6 with the Wild Die in play (text 003): damage bands across two rounds with a stun running out, one
reaction roll for every attack of the round, character points and Force points."""

from __future__ import annotations

import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild.play import WildCharacter, WildScene

import diceengine as de
from tests.test_ruleset_fixes import chance_at_least, wild_code


def roundtrip(state: WildScene) -> WildScene:
    back = WildScene.model_validate_json(state.model_dump_json())
    assert back == state
    return back


def refused(rule, state, *args, match: str | None = None, **kwargs) -> None:
    before = state.model_dump_json()
    with pytest.raises(de.DiceError, match=match):
        rule(state, *args, **kwargs)
    assert state.model_dump_json() == before


def scene() -> WildScene:
    kel = WildCharacter(name="Kel", codes={"blaster": "4D+2", "dodge": "3D+1", "strength": "3D", "perception": "3D"},
                        character_points=1, force_points=1)
    trooper = WildCharacter(name="trooper", player=False,
                            codes={"blaster": "4D", "dodge": "2D", "strength": "2D", "perception": "2D"})
    return WildScene(characters={"Kel": kel, "trooper": trooper})


def test_damage_bands_across_two_rounds_with_a_stun_running_out():
    state = roundtrip(scene())
    assert play.initiative_checks(state) == {"Kel": "3D", "trooper": "2D"}
    refused(play.roll_initiative, state, {"Kel": 9, "trooper": 9, "droid": 9}, players=["Kel", "droid"])
    state = roundtrip(play.roll_initiative(state, {"Kel": 9, "trooper": 9}).state)
    assert state.order == ["Kel", "trooper"]  # the player character wins the tie

    # ---- round 1: Kel declares two actions (-1D each), the trooper one
    refused(play.act, state, "Kel", "blaster", 15)  # nothing declared yet
    state = roundtrip(play.declare(state, "Kel", 2).state)
    refused(play.declare, state, "Kel", 3)  # once per round
    state = play.declare(state, "trooper", 1).state
    step = play.attack(state, "Kel", "trooper", "blaster", "moderate")
    assert step.check == "3D+2 vs moderate" and step.system == "d6wild"
    state = roundtrip(step.state)
    # the trooper fires at Kel, who dodges with the action he has left (-1D)
    step = play.react(state, "Kel", "dodge")
    assert step.check == "2D+1"
    state = roundtrip(play.record_reaction(step.state, "Kel", 13).state)
    refused(play.react, state, "Kel", "dodge")  # one reaction roll stands for the whole round
    refused(play.react, step.state, "Kel", "dodge")  # even before its total is recorded
    refused(play.record_reaction, state, "Kel", 15)  # recorded once
    refused(play.act, state, "Kel", "blaster", 10)  # both declared actions taken
    step = play.attack(state, "trooper", "Kel", "blaster", "easy")
    assert step.check == "4D vs 13"  # the dodge replaces the difficulty
    state = roundtrip(step.state)
    # the exact odds of that shot, by enumeration: 4D with a Wild Die against 13
    want = chance_at_least(wild_code(4), {13: 1})
    assert step.distribution().chance("success") == pytest.approx(want, abs=1e-6)

    # the trooper hits; damage 4D against Kel's Strength 3D
    step = play.damage(state, "Kel", "4D")
    assert step.check == "4D vs 3D"
    state = roundtrip(play.take_damage(state, "Kel", -2).state)  # light stun: -1D to the end of round 1
    state = roundtrip(play.take_damage(state, "Kel", 3).state)  # stun: -1D to the end of round 2
    kel = state.characters["Kel"]
    assert kel.penalty(1) == 2 and not kel.unconscious and kel.stuns_taken == 2

    # ---- round 2: the light stun is over, the stun still runs
    state = roundtrip(play.end_round(state).state)
    assert state.round == 2 and [s.kind for s in state.characters["Kel"].stuns] == ["stun"]
    state = play.declare(state, "Kel", 1).state
    step = play.attack(state, "Kel", "trooper", "blaster", 10)
    assert step.check == "3D+2 vs 10"  # 4D+2 - 1D (stun), no dodge this round
    state = roundtrip(step.state)
    step = play.damage(state, "trooper", "4D", armour="1D")
    assert step.check == "4D vs 3D"  # Strength 2D + armour 1D
    state = roundtrip(play.take_damage(state, "trooper", 5).state)  # wounded: -1D until healed
    state = play.declare(state, "trooper", 1).state
    assert play.attack(state, "trooper", "Kel", "blaster", 10).check == "3D vs 10"

    # ---- round 3: every stun has run out
    state = roundtrip(play.end_round(state).state)
    assert state.characters["Kel"].stuns == [] and state.characters["Kel"].penalty(3) == 0
    state = play.declare(state, "Kel", 1).state
    step = play.attack(state, "Kel", "trooper", "blaster", 10, character_point=True)
    assert step.check == "4D+2 vs 10" and step.options == {"character_point": True}
    assert step.state.characters["Kel"].character_points == 0
    state = roundtrip(step.state)
    state = roundtrip(play.take_damage(state, "trooper", 8).state)  # wounded twice: falls, -2D
    trooper = state.characters["trooper"]
    assert trooper.fallen and trooper.penalty(3) == 2
    state = play.declare(state, "trooper", 1).state
    refused(play.act, state, "trooper", "blaster", 10)  # a shot is physical effort (text 003)
    assert play.act(state, "trooper", "blaster", 10, physical=False).check == "2D vs 10"
    state = roundtrip(play.take_damage(state, "trooper", 10).state)  # incapacitated: nothing more
    refused(play.act, state, "trooper", "blaster", 10)


def test_character_points_force_points_and_unconsciousness():
    state = play.declare(scene(), "Kel", 1).state
    refused(play.act, play.declare(scene().model_copy(update={"characters": {
        "Kel": scene().characters["Kel"].model_copy(update={"character_points": 0})}}), "Kel", 1).state,
        "Kel", "blaster", 10, character_point=True)
    # a Force point spent in anger: the roll doubled, a dark side point
    step = play.spend_force_point(state, "Kel", anger=True)
    kel = step.state.characters["Kel"]
    assert (kel.force_points, kel.dark_side_points) == (0, 1)
    state = roundtrip(step.state)
    refused(play.spend_force_point, state, "Kel")  # none left
    two = state.model_copy(update={"characters": {**state.characters, "Kel": state.characters["Kel"].model_copy(
        update={"force_points": 1})}})
    refused(play.spend_force_point, two, "Kel", match="not cumulative")  # never two in a round
    assert play.spend_force_point(play.end_round(two).state, "Kel").state.characters["Kel"].force_points == 0
    step = play.act(state, "Kel", "blaster", 20, character_point=True)
    assert step.check == "8D+4 vs 20" and step.options == {"character_point": True}
    # doubled code, the character-point die not doubled: 8D+4 with a Wild Die plus one plain die
    want = chance_at_least({k + 4: p for k, p in wild_code(8, character_point=True).items()}, {20: 1})
    assert step.distribution().chance("success") == pytest.approx(want, abs=1e-6)
    state = play.end_round(step.state).state
    state = play.declare(state, "Kel", 1).state
    assert play.act(state, "Kel", "blaster", 20).check == "4D+2 vs 20"  # the doubling lasted one round
    state = roundtrip(play.award_character_points(state, "Kel", 3).state)
    assert state.characters["Kel"].character_points == 3
    # a character point after the roll: the counter here, the die on the roll
    roll = de.roll(play.act(state, "Kel", "blaster", 20).check, "d6wild", seed=3)
    state = roundtrip(play.spend_character_point(state, "Kel").state)
    assert state.characters["Kel"].character_points == 2
    spent = d6wild.spend_character_point(roll, seed=4)
    assert spent.total > roll.total and len(spent.dice) == len(roll.dice) + 1

    # three stuns against Strength 3D: unconscious
    for margin in (-1, 0, 2):
        state = play.take_damage(state, "Kel", margin).state
    assert state.characters["Kel"].unconscious
    refused(play.act, state, "Kel", "blaster", 10)
    refused(play.take_damage, state, "Lando", 3)


def test_a_reaction_beyond_the_declared_actions_adds_one():
    state = play.declare(scene(), "Kel", 1).state
    state = play.attack(state, "Kel", "trooper", "blaster", 10).state
    step = play.react(state, "Kel", "dodge")  # no action left: one more, -1D from now on
    assert step.check == "2D+1" and step.state.characters["Kel"].declared == 2
    added = scene().model_copy(update={"reaction_mode": "add"})
    refused(play.record_reaction, added, "Kel", 11)  # no reaction made
    added = play.record_reaction(play.react(play.declare(added, "trooper", 1).state, "Kel").state, "Kel", 11).state
    assert play.attack(added, "trooper", "Kel", "blaster", 10).check == "4D vs 21"
