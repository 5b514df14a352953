"""Classic D6 in play (texts 000 and 002): Roark firing three times while running then dodging, Hiro and
Fett behind the crate, stuns over two rounds, wounds stacking, parries, the lightsaber, movement."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from diceengine.systems.d6 import Wound, play
from diceengine.systems.d6.play import D6Character, D6Scene

import diceengine as de
from diceengine.cli import main


def roundtrip(state: D6Scene) -> D6Scene:
    back = D6Scene.model_validate_json(state.model_dump_json())
    assert back == state
    return back


def refused(rule, state, *args, match: str | None = None, **kwargs) -> None:
    before = state.model_dump_json()
    with pytest.raises(de.DiceError, match=match):
        rule(state, *args, **kwargs)
    assert state.model_dump_json() == before


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
        assert "rules of play" in out and all(f"  {n}(" in out for n in names), system
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
