"""Classic D6 in play (texts 000 and 002, ``diceengine.systems.d6.play``): scenes replayed from the texts
(Roark firing three times while running then dodging, Hiro and Fett behind the crate), and each rule of play's
refusals, checks and the state it leaves."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from diceengine.systems import play as _play
from diceengine.systems.d6 import Wound, play
from diceengine.systems.d6.play import D6Character, D6Scene, Reaction
from diceengine.systems.d6wild.play import WildCharacter

import diceengine as de
from diceengine.cli import main
from tests.helpers import refused, roundtrip


def plain(dice: int, pips: int = 0) -> dict[int, Fraction]:
    out = {pips: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for t, p in out.items():
            for f in range(1, 7):
                nxt[t + f] = nxt.get(t + f, Fraction(0)) + p / 6
        out = nxt
    return out


def roark_scene() -> D6Scene:
    roark = D6Character(name="Roark", codes={"blaster": "5D+1", "dodge": "4D+1", "strength": "3D",
                                             "perception": "3D", "technical": "2D+2"}, force_points=2)
    jana = D6Character(name="Jana", codes={"blaster": "5D+2", "strength": "2D+2", "perception": "3D+1"})
    troopers = {f"trooper {i}": D6Character(name=f"trooper {i}", player=False,
                                            codes={"blaster": "4D", "strength": "2D", "perception": "2D"})
                for i in range(1, 5)}
    return D6Scene(characters={"Roark": roark, "Jana": jana, **troopers})


def test_roark_fires_three_times_while_running_then_dodges():
    state = roundtrip(roark_scene())

    # ---- round 1: three shots while running: 5D+1 - 2D (two extra uses) - 1D (running) = 2D+1 each
    refused(play.declare, state, "Roark", 3, movement="run", metres=12)  # running covers 10 m
    refused(play.declare, state, "Roark", 3, movement="run", metres=10, turn=180)  # at most 90°
    state = roundtrip(play.declare(state, "Roark", 3, movement="run", metres=10, turn=90).state)
    for _ in range(3):
        step = play.attack(state, "Roark", "trooper 1", "blaster", "short")
        assert step.check == "2D+1 vs 10" and step.system == "d6"
        state = roundtrip(step.state)
    refused(play.act, state, "Roark", "blaster", 10)  # three declared, three taken
    refused(play.react, state, "Roark", "dodge", match="0D")  # 4D+1 - 3D - 1D: nothing left to roll
    six = play.declare(roark_scene(), "Roark", 6).state  # six shots: 5D+1 - 5D leaves no die
    refused(play.act, six, "Roark", "blaster", 10)

    # ---- round 2: Jana fires at short range, Roark dodges (the text: 14, difficulty 24)
    state = roundtrip(play.end_round(state).state)
    assert state.round == 2 and state.characters["Roark"].movement == "stand"
    state = play.declare(state, "Roark", 0).state
    state = play.declare(state, "Jana", 1).state
    refused(play.record_reaction, state, "Roark", "dodge", 14)  # no dodge made yet
    step = play.react(state, "Roark", "dodge")
    assert step.check == "4D+1"
    refused(play.react, step.state, "Roark", "dodge", match="not recorded")  # one roll at a time
    refused(play.record_reaction, step.state, "Roark", "melee_parry", 14)  # it was a dodge
    state = roundtrip(play.record_reaction(step.state, "Roark", "dodge", 14).state)
    refused(play.record_reaction, state, "Roark", "dodge", 15)  # recorded once
    step = play.attack(state, "Jana", "Roark", "blaster", "short")
    assert step.check == "5D+2 vs 24"  # she rolls 22: a near miss
    state = roundtrip(step.state)

    # the next segment: four troopers fire; Roark dodges again, one more use (-1D), rolls 11
    state = roundtrip(play.next_segment(state).state)
    for i in range(1, 5):
        state = play.declare(state, f"trooper {i}", 1).state
    # the dodge of the last segment is over
    assert play.attack(state, "trooper 1", "Roark", "blaster", "short").check == "4D vs 10"
    step = play.react(state, "Roark", "dodge")
    assert step.check == "3D+1"
    state = roundtrip(play.record_reaction(step.state, "Roark", "dodge", 11).state)
    for i in range(1, 5):
        step = play.attack(state, f"trooper {i}", "Roark", "blaster", "short")
        assert step.check == "4D vs 21"  # one dodge raises all four difficulties
        if i < 4:
            state = step.state
    # the fourth hits: 4D of damage against Roark's Strength 3D, never modified
    assert play.damage(state, "trooper 4", "Roark", weapon="4D").check == "4D vs 3D"
    state = roundtrip(play.take_damage(step.state, "Roark", 12, 7).state)  # the text: 7 to 12 is wounded
    roark = state.characters["Roark"]
    assert roark.health == Wound.WOUNDED and roark.prone and roark.wounded_round == 2
    refused(play.react, state, "Roark", "dodge", match="wounded this round")  # nothing more this round

    # ---- round 3: prone and wounded; standing up is an action, no movement with it
    state = roundtrip(play.end_round(state).state)
    refused(play.declare, state, "Roark", 1, movement="walk", metres=3)
    refused(play.declare, state, "Roark", 1, movement="walk", metres=3, stand_up=True)
    step = play.declare(state, "Roark", 1, stand_up=True)
    state = roundtrip(step.state)
    assert not state.characters["Roark"].prone
    step = play.act(state, "Roark", "blaster", "short")
    assert step.check == "3D+1 vs short"  # 5D+1 - 1D (standing up) - 1D (wounded); short range is 10
    assert step.distribution().chance("success") == pytest.approx(
        float(sum(p for t, p in plain(3, 1).items() if t >= 10)), abs=1e-12)
    state = roundtrip(step.state)

    # wounded again: incapacitated; hurt again: mortally wounded, and the death roll each round
    state = roundtrip(play.take_damage(state, "Roark", 10, 9).state)
    assert state.characters["Roark"].health == Wound.INCAPACITATED
    refused(play.declare, state, "Roark", 1)
    refused(play.death_check, state, "Roark")
    state = roundtrip(play.take_damage(state, "Roark", 9, 8).state)
    assert state.characters["Roark"].health == Wound.MORTALLY_WOUNDED
    assert play.death_check(state, "Roark").check == "2D vs 1"  # cannot die at the end of this round
    state = play.end_round(state).state
    step = play.death_check(state, "Roark")
    assert step.check == "2D vs 2" and step.distribution().chance("success") == pytest.approx(1.0)
    state = play.end_round(state).state
    step = play.death_check(state, "Roark")
    assert step.check == "2D vs 3" and step.distribution().chance("success") == pytest.approx(35 / 36)
    assert not play.record_death_roll(state, "Roark", 3).state.characters["Roark"].dead
    state = roundtrip(play.record_death_roll(state, "Roark", 2).state)
    assert state.characters["Roark"].dead
    refused(play.take_damage, state, "Roark", 5, 5)


def test_stuns_last_this_round_and_the_next_and_stack():
    state = play.take_damage(roark_scene(), "Roark", 8, 10).state  # Strength higher: stunned
    state = play.take_damage(state, "Roark", 3, 9).state  # twice
    state = roundtrip(play.declare(state, "Roark", 1).state)
    assert play.act(state, "Roark", "blaster", 10).check == "3D+1 vs 10"
    assert play.damage(state, "Jana", "Roark", weapon="4D").check == "4D vs 3D"  # Strength untouched
    state = play.declare(play.end_round(state).state, "Roark", 1).state
    assert play.act(state, "Roark", "blaster", 10).check == "3D+1 vs 10"  # still both, to the end of round 2
    state = play.take_damage(state, "Roark", 2, 9).state  # a third, in round 2: until the end of round 3
    state = play.declare(play.end_round(state).state, "Roark", 1).state
    assert play.act(state, "Roark", "blaster", 10).check == "4D+1 vs 10"
    state = play.declare(play.end_round(state).state, "Roark", 1).state
    assert play.act(state, "Roark", "blaster", 10).check == "5D+1 vs 10"


def test_force_points_double_every_code_for_the_round():
    state = play.spend_force_point(roark_scene(), "Roark", "heroic").state
    roark = state.characters["Roark"]
    assert (roark.force_points, roark.force_points_returning, roark.dark_side_points) == (1, 1, 0)
    refused(play.spend_force_point, state, "Roark", "neutral")  # one is enough for the round
    state = play.declare(state, "Roark", 2).state
    assert play.act(state, "Roark", "blaster", 20).check == "9D+2 vs 20"  # 10D+2, less 1D for two uses
    assert play.react(state, "Roark", "dodge").check == "6D+2"  # 8D+2 - 2D
    state = play.spend_force_point(play.end_round(state).state, "Roark", "evil").state
    assert state.characters["Roark"].dark_side_points == 1
    refused(play.spend_force_point, play.end_round(state).state, "Roark", "neutral")  # none left


def brawl_scene(mode: str = "add") -> D6Scene:
    kara = D6Character(name="Kara", codes={"brawling": "4D", "brawling_parry": "3D", "dodge": "3D", "strength": "3D",
                                           "perception": "2D"})
    thug = D6Character(name="thug", player=False, weapon="1D+2",
                       codes={"melee": "4D", "melee_parry": "3D+2", "brawling": "3D", "strength": "3D",
                              "perception": "2D"})
    ben = D6Character(name="Ben", weapon="lightsaber",
                      codes={"lightsaber": "5D", "control": "4D", "sense": "5D+1", "melee_parry": "3D",
                             "strength": "2D", "perception": "4D"})
    return D6Scene(characters={"Kara": kara, "thug": thug, "Ben": ben}, reactions=mode)


def test_which_parry_stops_what():
    state = brawl_scene()
    for name in state.characters:
        state = play.declare(state, name, 1).state
    refused(play.react, state, "Kara", "melee_parry")  # no weapon in hand
    refused(play.react, state, "thug", "brawling_parry")  # a weapon in hand
    refused(play.attack, state, "Kara", "thug", "melee", 10, kind="melee")
    step = play.react(state, "Kara", "brawling_parry")
    assert step.check == "2D"  # 3D, less 1D: the reaction is a second use
    parried = play.record_reaction(step.state, "Kara", "brawling_parry", 12).state
    assert play.attack(parried, "thug", "Kara", "melee", 10, kind="melee").check == "4D vs 10"  # armed: not stopped
    assert play.attack(parried, "thug", "Kara", "brawling", 5, kind="brawling").check == "3D vs 17"
    dodged = play.record_reaction(play.react(state, "Kara", "dodge").state, "Kara", "dodge", 15).state
    assert play.attack(dodged, "thug", "Kara", "melee", 10, kind="melee").check == "4D vs 10"  # no dodge in melee
    weapon = play.record_reaction(play.react(state, "thug", "melee_parry").state, "thug", "melee_parry", 9).state
    assert play.attack(weapon, "Kara", "thug", "brawling", 5, kind="brawling").check == "4D vs 14"
    # damage: bare hands = Strength; a melee weapon = its code plus Strength; a lightsaber = Control
    assert play.damage(state, "Kara", "thug", "brawling").check == "3D vs 3D"
    assert play.damage(state, "thug", "Kara", "melee").check == "4D+2 vs 3D"
    assert play.damage(state, "Ben", "thug", "lightsaber").check == "4D vs 3D"
    refused(play.damage, state, "Kara", "thug", "lightsaber")

    # the lightsaber parries with Sense or the weapon parry, the better; sending a bolt back is two uses
    assert play.react(state, "Ben", "lightsaber_parry").check == "4D+1"  # Sense 5D+1, second use
    step = play.react(state, "Ben", "deflect")
    assert step.check == "3D+1" and step.state.characters["Ben"].uses == 3
    deflected = play.record_reaction(step.state, "Ben", "deflect", 13).state
    shooter = D6Character(name="trooper", player=False, codes={"blaster": "4D", "strength": "2D", "perception": "2D"})
    deflected = deflected.model_copy(update={"characters": {**deflected.characters, "trooper": shooter}})
    deflected = play.declare(deflected, "trooper", 1).state
    assert play.attack(deflected, "trooper", "Ben", "blaster", 10).check == "4D vs 23"


def test_parry_bonuses_when_reactions_replace_the_difficulty():
    state = brawl_scene("replace")
    for name in state.characters:
        state = play.declare(state, name, 1).state
    step = play.react(state, "Kara", "brawling_parry")
    assert step.check == "3D"  # text 002: the action she had left
    parried = play.record_reaction(step.state, "Kara", "brawling_parry", 12).state
    refused(play.act, parried, "Kara", "brawling", 5)  # that action is spent
    assert play.attack(parried, "thug", "Kara", "melee", 10, kind="melee").check == "4D+10 vs 12"
    weapon = play.record_reaction(play.react(state, "thug", "melee_parry").state, "thug", "melee_parry", 9).state
    assert play.attack(weapon, "Kara", "thug", "brawling", 4, kind="brawling").check == "4D vs 14"  # 9 + 5


def hiro_scene() -> D6Scene:
    hiro = D6Character(name="Hiro", codes={"blaster": "4D", "dodge": "4D", "strength": "3D", "perception": "3D+1",
                                           "lifting": "2D"})
    leia = D6Character(name="Leia", codes={"blaster": "4D", "perception": "3D", "strength": "2D"})
    fett = D6Character(name="Fett", player=False, codes={"blaster": "6D", "perception": "4D", "strength": "3D+1"})
    return D6Scene(characters={"Hiro": hiro, "Leia": leia, "Fett": fett}, reactions="replace")


def test_hiro_and_fett_behind_the_crate():
    state = roundtrip(hiro_scene())

    # group initiative: each group's best Perception rolls; wounds count, Force points do not
    assert play.group_initiative_check(state, ["Hiro", "Leia"]).check == "3D+1"
    hurt = play.take_damage(state, "Hiro", 9, 6).state
    assert play.group_initiative_check(hurt, ["Hiro", "Leia"]).check == "2D+1"
    state = roundtrip(play.group_order(state, {"rebels": ["Leia", "Hiro"], "hunter": ["Fett"]}, "hunter").state)
    assert state.order == ["Fett", "Hiro", "Leia"]

    state = roundtrip(play.take_cover(state, "Hiro", "total").state)
    state = play.declare(state, "Fett", 2).state
    refused(play.attack, state, "Fett", "Hiro", "blaster", 15, match="total cover")  # the crate must go first
    state = roundtrip(play.take_cover(state, "Hiro", "peeking").state)  # he looks out: 3/4 cover
    step = play.attack(state, "Fett", "Hiro", "blaster", 15)
    assert step.check == "5D vs 15+4D"  # two shots declared; the cover dice join the difficulty
    want = sum(p * q for a, p in plain(5).items() for b, q in plain(4, 15).items() if a >= b)
    assert step.distribution().chance("success") == pytest.approx(float(want), abs=1e-12)
    # the game master rolls the 4D: 15, so 30 to hit Hiro; 15 to 29 hits the crate
    step = play.attack(state, "Fett", "Hiro", "blaster", 15, cover_roll=15)
    assert step.check == "5D vs 30"
    state = roundtrip(step.state)
    assert [play.cover_outcome(t, 15, 15) for t in (14, 15, 29, 30)] == ["miss", "cover", "cover", "hit"]
    assert play.hit_cover("5D", "2D") == "5D vs 2D"  # the shot against the crate's Strength

    # Hiro dodges with his one action: the roll replaces the difficulty, even when lower
    state = play.declare(state, "Hiro", 1).state
    step = play.react(state, "Hiro", "dodge")
    assert step.check == "4D"
    state = roundtrip(play.record_reaction(step.state, "Hiro", "dodge", 8).state)
    assert play.attack(state, "Fett", "Hiro", "blaster", 15).check == "5D vs 8+4D"
    refused(play.act, state, "Hiro", "blaster", 15)  # the dodge took his action


def test_movement_preparation_actions_without_a_roll_and_low_gravity():
    state = hiro_scene()
    refused(play.declare, state, "Hiro", 1, movement="walk", metres=6)
    refused(play.declare, state, "Hiro", 1, movement="crawl", metres=1)  # standing
    state = play.declare(state, "Hiro", 1, movement="walk", metres=5, drop_prone=True).state
    assert state.characters["Hiro"].prone
    state = play.declare(play.end_round(state).state, "Hiro", 1, movement="crawl", metres=2).state
    assert play.act(state, "Hiro", "blaster", 10).check == "3D vs 10"  # crawling: -1D

    # drawing a weapon is an action without a roll (text 002)
    drawn = play.declare(hiro_scene(), "Leia", 1, draw_weapon=True).state
    assert play.act(drawn, "Leia", "blaster", 10).check == "3D vs 10"
    refused(play.act, play.act(drawn, "Leia", "blaster", 10).state, "Leia", "blaster", 10)

    # a round of preparation: +1D on the single use of the next round, lost to two uses or a reaction
    prepared = play.prepare(hiro_scene(), "Hiro").state
    refused(play.declare, prepared, "Hiro", 1)
    nxt = play.end_round(prepared).state
    assert play.act(play.declare(nxt, "Hiro", 1).state, "Hiro", "blaster", 15).check == "5D vs 15"
    assert play.act(play.declare(nxt, "Hiro", 2).state, "Hiro", "blaster", 15).check == "3D vs 15"
    reacted = play.react(prepared.model_copy(update={"reactions": "add"}), "Hiro", "dodge").state  # text 000 lets him
    reacted = play.declare(play.end_round(reacted).state, "Hiro", 1).state
    assert play.act(reacted, "Hiro", "blaster", 15).check == "4D vs 15"

    # a prone target: the scene's prone_dice (the text names no number; 0 unless the table sets one)
    prone = play.declare(hiro_scene(), "Hiro", 0, drop_prone=True).state
    prone = play.declare(prone, "Fett", 1).state
    assert play.attack(prone, "Fett", "Hiro", "blaster", 10).check == "6D vs 10"
    prone = prone.model_copy(update={"prone_dice": 1})
    assert play.attack(prone, "Fett", "Hiro", "blaster", 10).check == "6D vs 10+1D"

    low = hiro_scene().model_copy(update={"low_gravity": True})
    low = play.declare(low, "Hiro", 1).state
    assert play.act(low, "Hiro", "lifting").check == "3D"
    refused(play.declare, low, "Nobody", 1)


def test_dice_rule_lists_and_runs_the_rules_of_play(capsys):
    for system, names in [("d6", ["declare", "attack", "react", "take_damage", "group_order"]),
                          ("d6wild", ["declare", "react", "take_damage", "spend_force_point", "initiative"]),
                          ("d20pool", ["begin_check", "begin_force_power", "resolve"]),
                          ("ffg", ["spend_destiny", "hit_minions", "initiative_order"])]:
        assert main(["rule", system]) == 0
        out = capsys.readouterr().out
        # dice rule shows each rule with its arguments as a game master reads them (issue 36)
        assert f"rules of {system}:" in out and all(re.search(rf"^  {n}( |$)", out, re.MULTILINE) for n in names), system
    state = play.declare(roark_scene(), "Roark", 3, movement="run", metres=10).state
    assert main(["rule", "d6", "attack", f"state={state.model_dump_json()}", "attacker=Roark", "target=Jana",
                 "skill=blaster", "difficulty=short", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["check"] == "2D+1 vs 10" and out["state"]["characters"]["Roark"]["taken"] == 1
    assert D6Scene.model_validate(out["state"]) == play.attack(state, "Roark", "Jana", "blaster", "short").state
    assert main(["rule", "d6", "act", f"state={state.model_dump_json()}", "name=Jana", "skill=blaster"]) == 2
    assert "not declared" in capsys.readouterr().err
    assert main(["rule", "d6", "act", "state={}", "name=Jana", "skill=blaster"]) == 2
    assert "not a valid D6Scene" in capsys.readouterr().err


def test_grenades_and_dodges():
    state = roark_scene()
    state = play.declare(play.declare(state, "Jana", 1).state, "Roark", 0).state
    # the throw aims at a place: range difficulty, no dodge against it
    state = play.record_reaction(play.react(state, "Roark", "dodge").state, "Roark", "dodge", 9).state
    step = play.attack(state, "Jana", "Roark", "blaster", "short", kind="grenade")
    assert step.check == "5D+2 vs 10"
    # the game master's 4D against the distance (5), raised by Roark's dodge; he ends the segment prone
    blast = play.grenade_blast(step.state, "Roark", 5)
    assert blast.check == "4D vs 14" and blast.state.characters["Roark"].prone
    assert blast.distribution().chance("success") == pytest.approx(
        float(sum(p for t, p in plain(4).items() if t >= 14)), abs=1e-12)
    later = play.next_segment(step.state).state
    assert play.grenade_blast(later, "Roark", 5).check == "4D vs 5"  # that dodge was for its segment


def test_nonsense_is_refused_with_the_engines_error():
    state = play.declare(roark_scene(), "Roark", 1).state
    refused(play.attack, state, "Roark", "Jana", "blaster", 10, kind="orbital")
    refused(play.attack, state, "Roark", "Jana", "blaster", "far away")
    refused(play.react, state, "Roark", "somersault")
    refused(play.record_reaction, state, "Roark", "somersault", 12)
    refused(play.spend_force_point, state, "Roark", "selfish")
    refused(play.take_cover, state, "Roark", "behind Jana")
    refused(play.damage, state, "Roark", "Jana", "ranged")  # no weapon given
    refused(play.act, state, "Roark", "juggling", 10)  # no such code
    refused(play.declare, state, "Jana", -1)
    refused(play.declare, state, "Jana", 1, movement="fly")
    refused(play.group_order, state, {"a": ["Roark"]}, "b")


def test_a_check_the_system_cannot_roll_is_refused_at_once():
    state = play.declare(roark_scene(), "Roark", 1).state
    refused(play.act, state, "Roark", "blaster", "moderate", match="unknown difficulty")  # d6 ranges only
    assert play.act(state, "Roark", "blaster", "2D+2").check == "5D+1 vs 2D+2"  # an opposed roll


def test_mutually_affecting_actions_go_by_their_rolls():
    state = roark_scene()
    # the text: Jana 19, Roark 17: Jana fires first, and her hit stops Roark's shot
    state = roundtrip(play.action_order(state, {"Roark": 17, "Jana": 19}).state)
    assert state.order == ["Jana", "Roark"]
    assert play.action_order(state, {"Roark": 15, "trooper 1": 15}).state.order == ["Roark", "trooper 1"]
    refused(play.action_order, state, {"Roark": 15, "Jana": 15}, match="roll again")  # two player characters
    refused(play.action_order, state, {"trooper 1": 12, "trooper 2": 12}, match="roll again")
    refused(play.action_order, state, {"Han": 12})


def han(**kw) -> D6Character:
    return D6Character(name="Han", codes={"blaster": "4D+1", "dodge": "3D", "strength": "3D", "perception": "3D+2",
                                          "brawling_parry": "3D"}, **kw)


def vader(**kw) -> D6Character:
    return D6Character(name="Vader", player=False, codes={"lightsaber": "6D", "sense": "5D", "control": "5D",
                                                          "strength": "4D", "perception": "4D", "melee_parry": "4D+1"},
                       weapon="lightsaber", **kw)


def scene(h: D6Character | None = None, v: D6Character | None = None, **kw) -> D6Scene:
    return D6Scene(characters={"Han": h or han(), "Vader": v or vader()}, **kw)


def message(rule, *args, **kwargs) -> str:
    with pytest.raises(de.DiceValueError) as info:
        rule(*args, **kwargs)
    return info.value.message


# ---------------------------------------------------------------- classic D6: refusals


def test_declare_refusals():
    s = scene()
    assert message(play.declare, s, "Luke", 1) == "no character named 'Luke' (known: Han, Vader)"
    assert message(play.declare, s, "Han", -1) == "uses and metres are not negative"
    assert message(play.declare, s, "Han", 1, metres=-1) == "uses and metres are not negative"
    assert message(play.declare, s, "Han", 1, movement="fly") == "movement is one of stand, walk, run, crawl"
    assert message(play.declare, s, "Han", 1, movement="walk", metres=6) == "walk covers at most 5 m a round, not 6"
    assert message(play.declare, s, "Han", 1, movement="run", metres=11) == "run covers at most 10 m a round, not 11"
    assert message(play.declare, s, "Han", 1, movement="crawl") == "Han is standing: only a prone character crawls"
    assert message(play.declare, s, "Han", 1, stand_up=True) == \
        "standing up is for a prone character, who cannot move in the same round"
    assert message(play.declare, s, "Han", 1, movement="run", turn=-91) == \
        "a running character turns at most 90° in a round"
    prone = scene(han(prone=True))
    assert message(play.declare, prone, "Han", 1, movement="walk") == "Han is prone: standing up comes first"
    assert message(play.declare, prone, "Han", 1, movement="walk", stand_up=True) == \
        "standing up is for a prone character, who cannot move in the same round"
    assert message(play.declare, scene(han(has_declared=True)), "Han", 1) == "Han has already declared this round"
    assert message(play.declare, scene(han(preparing_round=1)), "Han", 1) == "Han spends this round preparing"
    assert message(play.prepare, scene(han(has_declared=True)), "Han") == "Han has already declared this round"


def test_declare_counts_the_actions_without_a_roll():
    s = scene(han(prone=True))
    c = play.declare(s, "Han", 2, stand_up=True, draw_weapon=True, set_stun=True).state.characters["Han"]
    assert (c.declared, c.uses, c.taken, c.has_declared, c.prone, c.movement) == (5, 5, 3, True, False, "stand")
    c = play.declare(scene(), "Han", 1, movement="run", metres=10, turn=90, drop_prone=True).state.characters["Han"]
    assert (c.declared, c.taken, c.prone, c.movement) == (1, 0, True, "run")
    c = play.declare(scene(han(prone=True)), "Han", 1, movement="crawl", metres=2).state.characters["Han"]
    assert (c.prone, c.movement) == (True, "crawl")
    assert message(play.declare, scene(han(prone=True)), "Han", 1, movement="crawl", metres=3) == \
        "crawl covers at most 2 m a round, not 3"


def test_able_refusals():
    assert message(play.declare, scene(han(dead=True)), "Han", 1) == "Han is dead"
    assert message(play.declare, scene(han(health=Wound.INCAPACITATED)), "Han", 1) == \
        "Han is incapacitated and can do nothing until healed"
    assert message(play.declare, scene(han(health=Wound.MORTALLY_WOUNDED)), "Han", 1) == \
        "Han is mortally wounded and can do nothing until healed"
    assert message(play.declare, scene(han(health=Wound.WOUNDED, wounded_round=1)), "Han", 1) == \
        "Han was wounded this round: down, and can do nothing for the rest of it"
    # wounded in an earlier round: acts, at -1D
    s = play.declare(scene(han(health=Wound.WOUNDED, wounded_round=1), round=2), "Han", 1).state
    assert play.act(s, "Han", "blaster", 10).check == "3D+1 vs 10"


def test_use_refusals():
    s = scene()
    assert message(play.act, s, "Han", "blaster") == "Han has not declared this round"
    s = play.declare(s, "Han", 1).state
    s = play.act(s, "Han", "blaster").state
    assert message(play.act, s, "Han", "blaster") == "Han has no declared use left this round"
    assert message(play.act, play.declare(scene(), "Han", 1).state, "Han", "piloting") == \
        "Han has no code for 'piloting' (known: blaster, dodge, strength, perception, brawling_parry)"
    s = play.declare(scene(han(stuns=[2, 2, 2])), "Han", 2).state
    assert message(play.act, s, "Han", "dodge") == \
        "Han's dodge is reduced to -1D: a code reduced to 0D cannot be rolled"
    assert message(play.act, play.declare(scene(), "Han", 1).state, "Han", "blaster", "far") == \
        "unknown difficulty 'far' (known: bout_portant, courte, courte_portee, long, longue, longue_portee, " \
        "medium, moyenne, moyenne_portee, point_blank, portee_courte, portee_longue, portee_moyenne, short)"


def test_the_code_of_a_use():
    # text 000: -1D per use after the first, -1D running, -1D wounded, -1D per stun; a Force point doubles
    s = play.declare(scene(han(stuns=[1], force_point_round=1)), "Han", 2, movement="run").state
    assert play.act(s, "Han", "blaster", 10).check == "5D+2 vs 10"   # 8D+2 - 1 - 1 - 1
    s = play.declare(scene(han(health=Wound.WOUNDED)), "Han", 1).state
    assert play.act(s, "Han", "blaster").check == "3D+1"
    # a stun of the previous round is over
    s = play.declare(scene(han(stuns=[1]), round=2), "Han", 1).state
    assert play.act(s, "Han", "blaster").check == "4D+1"
    # preparing: +1D to the single use of the next round, lost after a reaction
    s = play.end_round(play.prepare(scene(), "Han").state).state
    assert play.act(play.declare(s, "Han", 1).state, "Han", "blaster").check == "5D+1"
    assert play.act(play.declare(s, "Han", 2).state, "Han", "blaster").check == "3D+1"
    prepared = scene(han(preparing_round=1, reacted_round=1), round=2)
    assert play.act(play.declare(prepared, "Han", 1).state, "Han", "blaster").check == "4D+1"
    prepared = scene(han(preparing_round=1, reacted_round=2, has_declared=True, declared=1), round=2)
    assert play.act(prepared, "Han", "blaster").check == "4D+1"
    prepared = scene(han(preparing_round=1, reacted_round=0), round=2)
    assert play.act(play.declare(prepared, "Han", 1).state, "Han", "blaster").check == "5D+1"
    # low gravity: +1D to lifting and climbing/jumping
    lg = scene(D6Character(name="Han", codes={"lifting": "2D", "climbing_jumping": "2D"}), low_gravity=True)
    lg = play.declare(lg, "Han", 2).state
    assert play.act(lg, "Han", "Climbing Jumping").check == "2D"   # 2D - 1D + 1D
    assert play.act(scene(low_gravity=False, h=D6Character(name="Han", codes={"lifting": "2D"}, has_declared=True,
                                                           declared=1)), "Han", "lifting").check == "2D"


def test_attack_refusals():
    s = play.declare(scene(), "Han", 1).state
    assert message(play.attack, s, "Han", "Vader", "blaster", 10, kind="laser") == \
        "the kind of attack is one of ranged, grenade, brawling, melee, lightsaber, not 'laser'"
    assert message(play.attack, s, "Han", "Vader", "blaster", 10, kind="melee") == "Han has no melee weapon in hand"
    assert message(play.attack, s, "Han", "Vader", "blaster", 10, kind="lightsaber") == "Han has no lightsaber in hand"
    v = play.declare(scene(), "Vader", 1).state
    assert message(play.attack, v, "Vader", "Han", "lightsaber", 10, kind="melee") == \
        "Vader has no melee weapon in hand"
    hid = scene(v=vader(cover="total"))
    assert message(play.attack, play.declare(hid, "Han", 1).state, "Han", "Vader", "blaster", 10) == \
        "Vader is behind total cover: destroy or pierce it first (hit_cover)"
    assert message(play.attack, s, "Han", "Vader", "blaster", 10, cover_roll=4) == "Vader has no cover to roll"
    assert message(play.attack, s, "Han", "Vader", "blaster", "far away") == (
        "a difficulty is a number or a range (point_blank, short, medium, long, bout_portant, courte, moyenne, "
        "longue, courte_portee, portee_courte, portee_moyenne, moyenne_portee, longue_portee, portee_longue), "
        "not 'far away'")


def test_attack_checks():
    s = play.declare(scene(v=vader(cover="half")), "Han", 3).state
    step = play.attack(s, "Han", "Vader", "blaster", "Point Blank")
    assert step.check == "2D+1 vs 5+2D"
    assert step.system == "d6" and step.state.characters["Han"].taken == 1
    assert play.attack(s, "Han", "Vader", "blaster", "medium", cover_roll=7).check == "2D+1 vs 22"
    assert play.attack(s, "Han", "Vader", "blaster", " 12 ", kind="grenade").check == "2D+1 vs 12"
    peek = play.declare(scene(v=vader(cover="peeking", prone=True)), "Han", 1).state
    assert play.attack(peek, "Han", "Vader", "blaster", 10).check == "4D+1 vs 10+4D"
    prone = play.declare(scene(v=vader(prone=True), prone_dice=2), "Han", 1).state
    assert play.attack(prone, "Han", "Vader", "blaster", 10).check == "4D+1 vs 10+2D"
    assert play.attack(prone, "Han", "Vader", "blaster", 10, kind="grenade").check == "4D+1 vs 10"
    assert play.attack(prone, "Han", "Vader", "blaster", 10, cover_roll=5).check == "4D+1 vs 15"
    # three-quarters cover: 4D; quarter 1D
    q = play.declare(scene(v=vader(cover="three_quarters")), "Han", 1).state
    assert play.attack(q, "Han", "Vader", "blaster", 10).check == "4D+1 vs 10+4D"
    q = play.declare(scene(v=vader(cover="quarter")), "Han", 1).state
    assert play.attack(q, "Han", "Vader", "blaster", 10).check == "4D+1 vs 10+1D"
    assert play.attack(q, "Han", "Vader", "blaster", 10, kind="brawling").check == "4D+1 vs 10"


def _reacted(kind: str, total: int, segment: int = 1, mode: str = "add", **hk) -> D6Scene:
    return scene(v=vader(reactions=[Reaction(kind=kind, total=total, segment=segment)]), reactions=mode,
                 h=han(has_declared=True, declared=2, uses=2, **hk))


def test_reactions_against_attacks():
    # "add" (text 000): the reaction's roll raises the difficulty in its segment
    assert play.attack(_reacted("dodge", 9), "Han", "Vader", "blaster", 10).check == "3D+1 vs 19"
    assert play.attack(_reacted("dodge", 9, segment=2), "Han", "Vader", "blaster", 10).check == "3D+1 vs 10"
    assert play.attack(_reacted("dodge", 9), "Han", "Vader", "blaster", 10, kind="grenade").check == "3D+1 vs 10"
    assert play.attack(_reacted("dodge", 9), "Han", "Vader", "brawling_parry", 10, kind="brawling").check == \
        "2D vs 10"
    assert play.attack(_reacted("melee_parry", 9), "Han", "Vader", "strength", 10, kind="brawling").check == \
        "2D vs 19"
    # "replace" (text 002): the roll replaces the difficulty for the round, with the parry bonuses
    r = _reacted("dodge", 9, segment=1, mode="replace")
    assert play.attack(r.model_copy(update={"segment": 3}), "Han", "Vader", "blaster", 10).check == "3D+1 vs 9"
    assert play.attack(_reacted("melee_parry", 9, mode="replace"), "Han", "Vader", "strength", 10,
                       kind="brawling").check == "2D vs 14"     # +5 to a weapon parry against bare hands
    armed = _reacted("brawling_parry", 9, mode="replace", weapon="vibroblade")
    assert play.attack(armed, "Han", "Vader", "strength", 10, kind="melee").check == "2D+10 vs 9"
    sabre = _reacted("brawling_parry", 9, mode="replace", weapon="lightsaber")  # a lightsaber is a weapon too
    assert play.attack(sabre, "Han", "Vader", "strength", 10, kind="lightsaber").check == "2D+10 vs 9"
    assert play.attack(_reacted("brawling_parry", 9, mode="add", weapon="vibroblade"), "Han", "Vader", "strength",
                       10, kind="melee").check == "2D vs 10"    # text 000: bare hands parry bare hands only
    assert play.attack(_reacted("melee_parry", 9, mode="replace", weapon="vibroblade"), "Han", "Vader",
                       "strength", 10, kind="melee").check == "2D vs 9"
    # the latest reaction that stops the attack counts
    two = scene(v=vader(reactions=[Reaction(kind="dodge", total=5, segment=1),
                                   Reaction(kind="dodge", total=12, segment=1)]), h=han(has_declared=True, declared=1))
    assert play.attack(two, "Han", "Vader", "blaster", 10).check == "4D+1 vs 22"


def test_react_refusals_and_checks():
    s = scene()
    assert message(play.react, s, "Han", "duck") == \
        "a reaction is one of dodge, brawling_parry, melee_parry, lightsaber_parry, blaster_parry, deflect, not 'duck'"
    assert message(play.react, scene(han(pending_reaction="dodge")), "Han") == \
        "Han's dodge is not recorded yet (record_reaction)"
    assert message(play.react, scene(han(weapon="vibroblade")), "Han", "brawling_parry") == \
        "Han has a weapon in hand: a weapon parry, not a bare-handed one"
    assert message(play.react, s, "Han", "melee_parry") == "Han has no melee weapon in hand"
    assert message(play.react, s, "Vader", "melee_parry") == "a lightsaber parries with lightsaber_parry"
    assert message(play.react, s, "Han", "lightsaber_parry") == "Han has no lightsaber in hand"
    assert message(play.react, s, "Han", "deflect") == "Han has no lightsaber in hand"
    nothing = scene(v=D6Character(name="Vader", codes={"strength": "3D"}, weapon="lightsaber"))
    assert message(play.react, nothing, "Vader", "lightsaber_parry") == "Vader has neither Sense nor a weapon parry"
    # a dodge is one more use: 3D - 1D (the second use of the round)
    step = play.react(play.declare(s, "Han", 1).state, "Han")
    assert step.check == "2D" and step.system == "d6"
    c = step.state.characters["Han"]
    assert (c.uses, c.taken, c.declared, c.reacted_round, c.pending_reaction, c.has_declared) == \
        (2, 1, 2, 1, "dodge", True)
    # a lightsaber parry: the better of Sense (5D) and the weapon parry (4D+1); deflect: Sense, two uses
    assert play.react(s, "Vader", "lightsaber_parry").check == "5D"
    v = play.react(s, "Vader", "deflect")
    assert v.check == "4D" and v.state.characters["Vader"].uses == 2
    # "replace": a reaction takes an action left first
    r = scene(reactions="replace", h=han(has_declared=True, declared=2, uses=2, taken=1))
    c = play.react(r, "Han").state.characters["Han"]
    assert (c.uses, c.taken, c.declared) == (2, 2, 2)
    c = play.react(r, "Vader", "deflect").state.characters["Vader"]
    assert (c.uses, c.taken, c.declared) == (2, 2, 2)
    r = scene(reactions="replace", v=vader(has_declared=True, declared=2, uses=2, taken=1))
    c = play.react(r, "Vader", "deflect").state.characters["Vader"]
    assert (c.uses, c.taken, c.declared) == (3, 3, 3)


def test_record_reaction():
    s = play.react(scene(segment=2), "Han").state
    assert message(play.record_reaction, s, "Han", "melee_parry", 9) == \
        "Han has made no melee_parry to record (but a dodge)"
    assert message(play.record_reaction, scene(), "Han", "dodge", 9) == "Han has made no dodge to record"
    assert message(play.record_reaction, scene(), "Han", "roll", 9) == \
        "a reaction is one of dodge, brawling_parry, melee_parry, lightsaber_parry, blaster_parry, deflect, not 'roll'"
    c = play.record_reaction(s, "Han", "dodge", 9).state.characters["Han"]
    assert c.reactions == [Reaction(kind="dodge", total=9, segment=2)] and c.pending_reaction is None
    assert play.next_segment(s).state.segment == 3


def test_grenade_blast():
    s = scene(v=vader(reactions=[Reaction(kind="dodge", total=8, segment=1)]))
    step = play.grenade_blast(s, "Vader", "short")
    assert step.check == "4D vs 18" and step.system == "d6" and step.state.characters["Vader"].prone
    step = play.grenade_blast(s.model_copy(update={"reactions": "replace"}), "Vader", 15)
    assert step.check == "4D vs 8"
    step = play.grenade_blast(scene(), "Vader", 15)
    assert step.check == "4D vs 15" and not step.state.characters["Vader"].prone


def test_cover():
    s = play.take_cover(scene(), "Han", "total").state
    assert s.characters["Han"].cover == "total"
    assert message(play.take_cover, scene(), "Han", "wall") == \
        "cover is one of none, quarter, half, three_quarters, peeking, total"
    assert [play.cover_outcome(a, 10, 5) for a in (9, 10, 14, 15)] == ["miss", "cover", "cover", "hit"]
    assert play.hit_cover("4d+1", "2D") == "4D+1 vs 2D"


def test_damage_checks():
    s = scene(h=han(weapon="vibroblade"))
    assert message(play.damage, s, "Han", "Vader") == "a shot's damage is the weapon's code: give weapon"
    assert message(play.damage, s, "Han", "Vader", kind="lightsaber") == "Han has no lightsaber in hand"
    assert message(play.damage, scene(), "Han", "Vader", kind="melee") == "Han has no melee weapon in hand"
    assert message(play.damage, scene(), "Vader", "Han", kind="melee") == "Vader has no melee weapon in hand"
    assert message(play.damage, s, "Han", "Vader", kind="kick") == \
        "the kind of attack is one of ranged, grenade, brawling, melee, lightsaber, not 'kick'"
    step = play.damage(s, "Han", "Vader", weapon="4D+2")
    assert (step.check, step.system) == ("4D+2 vs 4D", "d6")
    assert play.damage(s, "Han", "Vader", kind="brawling").check == "3D vs 4D"
    s = scene(h=han(weapon="1D+1"))
    assert play.damage(s, "Han", "Vader", kind="melee").check == "4D+1 vs 4D"
    assert play.damage(s, "Vader", "Han", kind="lightsaber").check == "5D vs 3D"
    # a Force point doubles the character's codes, not a weapon's
    f = scene(h=han(weapon="1D+1", force_point_round=1), v=vader(force_point_round=1))
    assert play.damage(f, "Han", "Vader", kind="melee").check == "7D+1 vs 8D"
    assert play.damage(f, "Han", "Vader", weapon="4D").check == "4D vs 8D"
    assert play.damage(f, "Vader", "Han", kind="lightsaber").check == "10D vs 6D"
    assert play.damage(f.model_copy(update={"round": 2}), "Vader", "Han", kind="lightsaber").check == "5D vs 3D"


def test_take_damage():
    s = scene(round=3)
    assert message(play.take_damage, scene(h=han(dead=True)), "Han", 10, 1) == "Han is dead"
    c = play.take_damage(s, "Han", 5, 6).state.characters["Han"]   # stunned: -1D to the end of next round
    assert (c.stuns, c.health) == ([4], Wound.HEALTHY)
    c = play.take_damage(s, "Han", 6, 6).state.characters["Han"]   # wounded: falls this round
    assert (c.health, c.prone, c.wounded_round, c.mortal_round) == (Wound.WOUNDED, True, 3, None)
    c = play.take_damage(s, "Han", 12, 6).state.characters["Han"]
    assert (c.health, c.prone, c.wounded_round, c.mortal_round) == (Wound.INCAPACITATED, True, None, None)
    c = play.take_damage(s, "Han", 18, 6).state.characters["Han"]
    assert (c.health, c.prone, c.mortal_round) == (Wound.MORTALLY_WOUNDED, True, 3)
    again = scene(h=han(health=Wound.MORTALLY_WOUNDED, mortal_round=1), round=3)
    c = play.take_damage(again, "Han", 18, 6).state.characters["Han"]
    assert (c.health, c.mortal_round, c.prone) == (Wound.MORTALLY_WOUNDED, 1, False)
    c = play.take_damage(scene(h=han(health=Wound.WOUNDED, wounded_round=1), round=2), "Han", 6, 6
                         ).state.characters["Han"]
    assert (c.health, c.wounded_round) == (Wound.INCAPACITATED, 1)


def test_death():
    assert message(play.death_check, scene(), "Han") == "Han is not mortally wounded"
    assert message(play.record_death_roll, scene(), "Han", 5) == "Han is not mortally wounded"
    s = scene(h=han(health=Wound.MORTALLY_WOUNDED, mortal_round=2), round=4)
    assert message(play.death_check, scene(h=han(mortal_round=2, dead=True)), "Han") == "Han is not mortally wounded"
    assert message(play.record_death_roll, scene(h=han(mortal_round=2, dead=True)), "Han", 9) == \
        "Han is not mortally wounded"
    step = play.death_check(s, "Han")
    assert (step.check, step.system) == ("2D vs 3", "d6")
    assert not play.record_death_roll(s, "Han", 3).state.characters["Han"].dead
    assert play.record_death_roll(s, "Han", 2).state.characters["Han"].dead


def test_end_round():
    c = han(has_declared=True, declared=3, uses=4, taken=2, movement="run", prone=True, pending_reaction="dodge",
            reactions=[Reaction(kind="dodge", total=5, segment=1)], stuns=[1, 2, 3])
    s = play.end_round(scene(h=c, round=2, segment=3)).state
    assert (s.round, s.segment) == (3, 1)
    n = s.characters["Han"]
    assert (n.declared, n.uses, n.taken, n.has_declared, n.movement, n.prone, n.pending_reaction, n.reactions,
            n.stuns) == (0, 0, 0, False, "stand", True, None, [], [3])


def test_spend_force_point():
    s = scene(h=han(force_points=2))
    assert message(play.spend_force_point, scene(), "Han", "heroic") == "Han has no Force point"
    assert message(play.spend_force_point, s, "Han", "selfish") == \
        "a use of the Force is one of evil, neutral, heroic, dramatic, not 'selfish'"
    once = play.spend_force_point(s, "Han", "evil").state
    c = once.characters["Han"]
    assert (c.force_points, c.force_point_round, c.dark_side_points, c.force_points_returning) == (1, 1, 1, 0)
    assert message(play.spend_force_point, once, "Han", "heroic") == "Han already relies on the Force this round"
    c = play.spend_force_point(s, "Han", "dramatic").state.characters["Han"]
    assert (c.dark_side_points, c.force_points_returning) == (0, 1)
    c = play.spend_force_point(s, "Han", "neutral").state.characters["Han"]
    assert (c.force_points, c.dark_side_points, c.force_points_returning) == (1, 0, 0)


def test_initiative_of_the_scene():
    s = scene()
    assert play.action_order(s, {"Han": 12, "Vader": 12}).state.order == ["Han", "Vader"]
    assert play.action_order(s, {"Han": 11, "Vader": 12}).state.order == ["Vader", "Han"]
    two = D6Scene(characters={"Han": han(), "Leia": D6Character(name="Leia", codes={"perception": "4D"})})
    assert message(play.action_order, two, {"Han": 9, "Leia": 9}) == "tied, roll again: Han and Leia"
    assert message(play.action_order, s, {"Luke": 9}) == "no character named 'Luke' (known: Han, Vader)"
    assert message(play.group_initiative_check, s, []) == "a group has at least one member"
    step = play.group_initiative_check(s, ["Han", "Vader"])
    assert (step.check, step.system) == ("4D", "d6")
    w = scene(v=vader(health=Wound.WOUNDED, stuns=[1]))
    assert play.group_initiative_check(w, ["Han", "Vader"]).check == "2D"
    assert play.group_initiative_check(w, ["Han", "Vader"]).state == w  # the check alone: the scene unchanged
    w = scene(v=vader(health=Wound.WOUNDED, stuns=[1, 1, 1]))
    assert message(play.group_initiative_check, w, ["Vader"]) == \
        "Vader's Perception is reduced to 0: a code reduced to 0D cannot be rolled"
    order = play.group_order(two.model_copy(update={"characters": {**two.characters, "Vader": vader()}}),
                             {"rebels": ["Han", "Leia"], "empire": ["Vader"]}, "empire").state.order
    assert order == ["Vader", "Leia", "Han"]
    assert message(play.group_order, s, {"rebels": ["Han"]}, "empire") == "no group named 'empire'"


def test_step_of_play():
    step = _play.Step(scene())
    assert message(step.roll) == "this step calls for no roll"
    step = _play.rolling(scene(), "3D vs 10", "d6")
    assert step.options == {} and step.system == "d6"
    assert step.roll(seed=1).outcome.margin is not None
    assert step.sample(10, seed=1)["total"].shape == (10,)
    # the seed reaches the dice: the same rolls as the engine's with that seed (30 of them: no chance match)
    assert [step.roll(seed=s).outcome for s in range(30)] == [de.roll("3D vs 10", "d6", seed=s).outcome
                                                               for s in range(30)]
    assert list(step.sample(50, seed=3)["total"]) == list(de.sample("3D vs 10", 50, "d6", seed=3)["total"])
    assert list(_play.Step(scene(), "1d20").sample(50, seed=4)["total"]) == \
        list(de.sample("1d20", 50, seed=4)["total"])  # no system named: the standard notation
    assert step.distribution().chance("success") > 0
    assert _play.Step(scene(), "1d6").distribution().mean() == pytest.approx(3.5)
    assert message(_play.one_of, "x", ("a", "b"), "a letter") == "a letter is one of a, b, not 'x'"
    _play.one_of("a", ("a", "b"), "a letter")
    with pytest.raises(de.DiceError):
        _play.rolling(scene(), "3D vs far", "d6")
    # the check is read with its options: one d20 is a pool only with one_die
    with pytest.raises(de.DiceError, match="one_die"):
        _play.rolling(scene(), "1d20<=10", "d20pool")
    one = _play.rolling(scene(), "1d20<=10", "d20pool", {"one_die": True})
    assert one.options == {"one_die": True}
    assert one.roll(seed=2).outcome == de.roll("1d20<=10", "d20pool", seed=2, one_die=True).outcome  # options kept
    assert list(one.sample(30, seed=2)["successes"]) == list(de.sample("1d20<=10", 30, "d20pool", seed=2,
                                                                        one_die=True)["successes"])


# ---------------------------------------------------------------- D6 with the Wild Die


def luke(**kw) -> WildCharacter:
    return WildCharacter(name="Luke", codes={"blaster": "4D+1", "dodge": "3D+2", "strength": "3D", "perception": "3D"},
                         **kw)


def test_preparing_leaves_no_use_whatever_the_state_held():
    """Preparing is the round's only action: even a state that still counts uses declared (edited by hand,
    or loaded) leaves none to act with."""
    stale = scene(han(declared=2, has_declared=False))
    prepared = play.prepare(stale, "Han").state
    assert prepared.characters["Han"].declared == 0
    assert message(play.act, prepared, "Han", "blaster") == "Han has no declared use left this round"


def test_group_initiative_down_to_one_die_is_rolled():
    """A group whose best Perception is 1D (or 2D wounded) rolls it; 0D is refused."""
    def luke(perception: str, **kw) -> D6Character:
        return D6Character(name="Han", codes={"perception": perception, "blaster": "4D"}, **kw)

    assert play.group_initiative_check(scene(luke("1D+1")), ["Han"]).check == "1D+1"
    assert play.group_initiative_check(scene(luke("2D", health=Wound.WOUNDED)), ["Han"]).check == "1D"
    zero = luke("1D+2", health=Wound.WOUNDED)
    assert message(play.group_initiative_check, scene(zero), ["Han"]) == \
        "Han's Perception is reduced to 2: a code reduced to 0D cannot be rolled"
