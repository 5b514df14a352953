"""D6 states of play (``systems/d6_play.py``, ``systems/d6wild_play.py``, ``systems/_play.py``): what
mutmut's survivors showed undefended (issue 16): each refusal's message (user-visible), the exact
checks the rules call for, and the states they leave. Expected values from texts ``000``, ``002``, ``003``.
"""

from __future__ import annotations

import pytest
from diceengine.systems import play as _play
from diceengine.systems.d6 import Wound, play
from diceengine.systems.d6.play import D6Character, D6Scene, Reaction
from diceengine.systems.d6wild import play as wplay
from diceengine.systems.d6wild.play import Stun, WildCharacter, WildScene

import diceengine as de


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
