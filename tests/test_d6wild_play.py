"""D6 with the Wild Die in play (text 003, ``diceengine.systems.d6wild.play``): damage bands across two rounds
with a stun running out, character and Force points, unconsciousness, and each rule of play's refusals and checks."""

from __future__ import annotations

import pytest
from diceengine.systems import d6wild
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild import play as wplay
from diceengine.systems.d6wild.play import Stun, WildCharacter, WildScene

import diceengine as de
from tests.helpers import refused, roundtrip
from tests.test_d6wild import chance_at_least, wild_code


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
    # a shot is no physical effort (text 003, issue 36): rolled at -2D; a punch is, refused
    assert play.act(state, "trooper", "blaster", 10).check == "2D vs 10"
    refused(play.act, state, "trooper", "brawling", 10)
    refused(play.act, state, "trooper", "blaster", 10, physical=True)  # the game master says this one is
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


def message(rule, *args, **kwargs) -> str:
    with pytest.raises(de.DiceValueError) as info:
        rule(*args, **kwargs)
    return info.value.message


# ---------------------------------------------------------------- D6 with the Wild Die


def luke(**kw) -> WildCharacter:
    return WildCharacter(name="Luke", codes={"blaster": "4D+1", "dodge": "3D+2", "strength": "3D", "perception": "3D"},
                         **kw)


def trooper(**kw) -> WildCharacter:
    return WildCharacter(name="Trooper", player=False, codes={"blaster": "4D", "strength": "2D", "perception": "2D"},
                         **kw)


def wscene(lk: WildCharacter | None = None, tr: WildCharacter | None = None, **kw) -> WildScene:
    return WildScene(characters={"Luke": lk or luke(), "Trooper": tr or trooper()}, **kw)


def test_wild_refusals():
    s = wscene()
    assert message(wplay.declare, s, "Leia", 1) == "no character named 'Leia' (known: Luke, Trooper)"
    assert message(wplay.declare, wscene(luke(declared=2)), "Luke", 1) == \
        "Luke has already declared 2 action(s) this round"
    assert message(wplay.declare, s, "Luke", 0) == "a round has at least one declared action"
    assert message(wplay.act, s, "Luke", "blaster") == "Luke has not declared any action this round"
    assert message(wplay.act, wscene(luke(declared=2, taken=2)), "Luke", "blaster") == \
        "Luke has taken all 2 declared action(s) this round"
    assert message(wplay.act, wscene(luke(declared=1)), "Luke", "blaster", character_point=True) == \
        "Luke has no character point left"
    assert message(wplay.act, wscene(luke(declared=4)), "Luke", "dodge") == \
        "Luke's dodge is reduced to 2: a code reduced to 0D cannot be rolled"
    assert message(wplay.declare, wscene(luke(worst=4)), "Luke", 1) == "Luke is incapacitated and can do nothing"
    assert message(wplay.declare, wscene(luke(worst=5)), "Luke", 1) == "Luke is mortally wounded and can do nothing"
    assert message(wplay.declare, wscene(luke(stuns_taken=3)), "Luke", 1) == "Luke is unconscious and can do nothing"
    assert message(wplay.react, wscene(luke(reacted=True)), "Luke") == \
        "Luke's reaction roll already stands for every attack this round"
    assert message(wplay.record_reaction, s, "Luke", 9) == "Luke has made no reaction this round"
    assert message(wplay.record_reaction, wscene(luke(reacted=True, reaction=8)), "Luke", 9) == \
        "Luke's reaction is already recorded this round"
    assert message(wplay.spend_character_point, s, "Luke") == "Luke has no character point left"
    assert message(wplay.spend_force_point, s, "Luke") == "Luke has no Force point"
    assert message(wplay.spend_force_point, wscene(luke(force_points=1, force_point_round=1)), "Luke") == \
        "Luke already spent a Force point this round (not cumulative)"
    assert message(wplay.award_character_points, s, "Luke", -1) == "hours of play are not negative"
    # parse_code refuses a code without dice before damage's own check can
    assert message(wplay.damage, s, "Luke", "0D+3") == "the code is 0D+3: a code reduced to 0D cannot be rolled"
    added = wscene(tr=trooper(reacted=True, reaction=11), reaction_mode="add", lk=luke(declared=1))
    assert message(wplay.attack, added, "Luke", "Trooper", "blaster", "moderate") == \
        "with reaction_mode 'add' the difficulty is a number"
    two = WildScene(characters={"Luke": luke(), "Leia": WildCharacter(name="Leia", codes={"perception": "3D"})})
    assert message(wplay.roll_initiative, two, {"Luke": 10, "Leia": 10}) == "tied, roll again: Luke and Leia"


def test_wild_unconscious():
    assert not luke(stuns_taken=2).unconscious and luke(stuns_taken=3).unconscious
    assert not WildCharacter(name="X", codes={}, stuns_taken=5).unconscious   # no Strength code
    assert luke(wounds=2).fallen and not luke(wounds=1).fallen
    assert luke().out_of_action is None
    assert luke(worst=3).out_of_action is None


def test_wild_checks():
    s = wplay.declare(wscene(luke(stuns=[Stun(kind="stun", until_round=1), Stun(kind="light stun", until_round=0)],
                                  wounds=1)), "Luke", 2).state
    assert s.characters["Luke"].declared == 2 and s.characters["Luke"].taken == 0
    step = wplay.act(s, "Luke", "blaster", "moderate")
    assert (step.check, step.system, step.options) == ("1D+1 vs moderate", "d6wild", {})   # 4D+1 - 1 - 1 - 1
    assert step.state.characters["Luke"].taken == 1
    cp = wplay.act(wscene(luke(declared=1, character_points=2)), "Luke", "blaster", character_point=True)
    assert (cp.check, cp.options, cp.state.characters["Luke"].character_points) == ("4D+1", {"character_point": True},
                                                                                     1)
    fp = wplay.act(wscene(luke(declared=2, force_point_round=1, wounds=3)), "Luke", "blaster", 10, physical=False)
    assert fp.check == "5D+2 vs 10"   # 8D+2 - 1 - 2
    # a reaction uses an action left, or adds one
    r = wplay.react(wscene(luke(declared=2, taken=1)), "Luke")
    assert (r.check, r.system, r.options) == ("2D+2", "d6wild", {})
    c = r.state.characters["Luke"]
    assert (c.declared, c.taken, c.reacted) == (2, 2, True)
    r = wplay.react(wscene(luke(declared=1, taken=1, character_points=1)), "Luke", character_point=True)
    assert (r.check, r.options) == ("2D+2", {"character_point": True})
    c = r.state.characters["Luke"]
    assert (c.declared, c.taken, c.character_points) == (2, 2, 0)
    rec = wplay.record_reaction(r.state, "Luke", 14).state
    assert rec.characters["Luke"].reaction == 14


def test_wild_attacks_and_damage():
    replaced = wscene(tr=trooper(reacted=True, reaction=11), lk=luke(declared=1))
    assert wplay.attack(replaced, "Luke", "Trooper", "blaster", 15).check == "4D+1 vs 11"
    added = replaced.model_copy(update={"reaction_mode": "add"})
    assert wplay.attack(added, "Luke", "Trooper", "blaster", "15").check == "4D+1 vs 26"
    assert wplay.attack(added, "Luke", "Trooper", "blaster", -2).check == "4D+1 vs 9"
    assert wplay.attack(wscene(lk=luke(declared=1)), "Luke", "Trooper", "blaster", 15).check == "4D+1 vs 15"
    step = wplay.damage(wscene(), "Trooper", "5D", armour="1D")
    assert (step.check, step.system) == ("5D vs 3D", "d6wild")
    assert wplay.damage(wscene(), "Trooper", "5D", armour=2).check == "5D vs 2D+2"
    assert wplay.damage(wscene(), "Trooper", "5D", armour="+1").check == "5D vs 2D+1"
    assert wplay.damage(wscene(), "Trooper", "5D").check == "5D vs 2D"


def test_wild_take_damage():
    s = wscene(round=2)
    c = wplay.take_damage(s, "Luke", -1).state.characters["Luke"]
    assert (c.stuns, c.stuns_taken) == ([Stun(kind="light stun", until_round=2)], 1)
    c = wplay.take_damage(s, "Luke", 3).state.characters["Luke"]
    assert (c.stuns, c.stuns_taken) == ([Stun(kind="stun", until_round=3)], 1)
    c = wplay.take_damage(s, "Luke", 4).state.characters["Luke"]
    assert (c.wounds, c.worst) == (1, 3)
    c = wplay.take_damage(wscene(luke(wounds=2, worst=3)), "Luke", 8).state.characters["Luke"]
    assert (c.wounds, c.worst) == (3, 4)
    c = wplay.take_damage(wscene(luke(worst=5)), "Luke", 8).state.characters["Luke"]
    assert (c.wounds, c.worst) == (1, 5)
    assert wplay.take_damage(s, "Luke", 9).state.characters["Luke"].worst == 4
    assert wplay.take_damage(s, "Luke", 16).state.characters["Luke"].worst == 6
    assert wplay.take_damage(wscene(luke(worst=6)), "Luke", 13).state.characters["Luke"].worst == 6


def test_wild_rounds_points_and_initiative():
    c = luke(declared=2, taken=1, reacted=True, reaction=9,
             stuns=[Stun(kind="stun", until_round=2), Stun(kind="light stun", until_round=1)])
    s = wplay.end_round(wscene(c)).state
    n = s.characters["Luke"]
    assert s.round == 2 and (n.declared, n.taken, n.reacted, n.reaction) == (0, 0, False, None)
    assert n.stuns == [Stun(kind="stun", until_round=2)]
    assert luke(stuns=[Stun(kind="stun", until_round=2)], wounds=5).penalty(2) == 3
    assert luke(stuns=[Stun(kind="stun", until_round=2)]).penalty(3) == 0
    f = wplay.spend_force_point(wscene(luke(force_points=2)), "Luke", anger=True).state.characters["Luke"]
    assert (f.force_points, f.force_point_round, f.dark_side_points) == (1, 1, 1)
    f = wplay.spend_force_point(wscene(luke(force_points=2)), "Luke").state.characters["Luke"]
    assert f.dark_side_points == 0
    assert wplay.spend_character_point(wscene(luke(character_points=2)), "Luke").state.characters["Luke"] \
        .character_points == 1
    assert wplay.award_character_points(wscene(luke(character_points=2)), "Luke", 3).state.characters["Luke"] \
        .character_points == 5
    assert wplay.initiative_checks(wscene()) == {"Luke": "3D", "Trooper": "2D"}
    assert wplay.roll_initiative(wscene(), {"Luke": 10, "Trooper": 10}).state.order == ["Luke", "Trooper"]
    assert wplay.roll_initiative(wscene(), {"Luke": 10, "Trooper": 10}, players=["Trooper"]).state.order == \
        ["Trooper", "Luke"]
