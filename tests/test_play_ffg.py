"""FFG in play (text 004): the destiny pool, stormtrooper minions losing members and skill, assistance,
initiative."""

from __future__ import annotations

import pytest
from diceengine.systems.ffg import NarrativeOutcome, play
from diceengine.systems.ffg.play import CharacterSheet, Encounter, MinionGroup

import diceengine as de


def roundtrip(state: Encounter) -> Encounter:
    back = Encounter.model_validate_json(state.model_dump_json())
    assert back == state
    return back


def refused(rule, state, *args, **kwargs) -> None:
    before = state.model_dump_json()
    with pytest.raises(de.DiceError):
        rule(state, *args, **kwargs)
    assert state.model_dump_json() == before


def troopers(**kw) -> MinionGroup:
    """The text's squad: four stormtroopers, soak 5, wound threshold 5."""
    return MinionGroup(name="stormtroopers", size=4, soak=5, wound_threshold=5, group_skills=["ranged_heavy"], **kw)


@pytest.mark.parametrize("damage, down", [(10, 0), (11, 1), (15, 1), (16, 2), (20, 2)])
def test_the_texts_stormtrooper_hits(damage, down):
    state = play.add_minions(Encounter(), troopers()).state
    state = play.hit_minions(state, "stormtroopers", damage).state
    assert state.minions["stormtroopers"].standing == 4 - down


def test_stormtrooper_minions_lose_members_and_skill():
    state = roundtrip(play.add_minions(Encounter(), troopers()).state)
    refused(play.add_minions, state, troopers())  # one group by that name

    # four standing: ranks 3 in their group skill; Agility 3 -> three yellow dice against average
    step = play.minion_check(state, "stormtroopers", 3, "ranged_heavy", "average")
    assert step.check == "3p vs 2d" and step.system == "ffg"
    assert play.minion_check(state, "stormtroopers", 3, "vigilance", "average").check == "3a vs 2d"  # not a group skill

    state = roundtrip(play.hit_minions(state, "stormtroopers", 11).state)  # 11 - 5 soak = 6 wounds: one falls
    assert state.minions["stormtroopers"].standing == 3
    assert play.minion_check(state, "stormtroopers", 3, "ranged_heavy", 2).check == "1a2p vs 2d"

    state = roundtrip(play.critical_on_minions(state, "stormtroopers").state)  # a critical: one more
    assert state.minions["stormtroopers"].standing == 2
    assert play.minion_check(state, "stormtroopers", 3, "ranged_heavy", 2).check == "2a1p vs 2d"
    refused(play.critical_on_minions, state, "stormtroopers", criticals=2)  # only an area attack scores two

    state = roundtrip(play.hit_minions(state, "stormtroopers", 4).state)  # soaked entirely
    assert state.minions["stormtroopers"].standing == 2 and state.minions["stormtroopers"].wounds == 6
    state = roundtrip(play.hit_minions(state, "stormtroopers", 10).state)  # 11 wounds pooled: two thresholds exceeded
    group = state.minions["stormtroopers"]
    assert (group.standing, group.skill_rank) == (1, 0)
    assert play.minion_check(state, "stormtroopers", 3, "ranged_heavy", 2).check == "3a vs 2d"

    state = roundtrip(play.critical_on_minions(state, "stormtroopers", criticals=2, area=True).state)
    assert state.minions["stormtroopers"].standing == 0
    refused(play.minion_check, state, "stormtroopers", 3, "ranged_heavy", 2)
    refused(play.hit_minions, state, "stormtroopers", 12)
    refused(play.hit_minions, state, "jawas", 12)


def test_the_destiny_pool_flips_for_a_party_of_either_affiliation():
    state = roundtrip(play.destiny_from_roll(light=2, dark=1))  # three players' Force dice

    # a player spends a light token on their own check: a green die upgraded
    step = play.spend_destiny(state, "players", "bonus", "2a1p vs 2d")
    assert step.check == "1a2p vs 2d"
    state = roundtrip(step.state)
    assert (state.destiny.light, state.destiny.dark) == (1, 2)
    # the game master spends a dark token against the player's check: a purple die upgraded to red
    step = play.spend_destiny(state, "gm", "penalty", "2a vs 2d")
    assert step.check == "2a vs 1d1c"
    state = roundtrip(step.state)
    assert (state.destiny.light, state.destiny.dark) == (2, 1)
    # the players hinder an NPC's check: no purple die there, so one is added
    step = play.spend_destiny(state, "players", "penalty", {"ability": 3})
    assert step.check == "3a vs 1d"
    state = roundtrip(step.state)
    assert step.distribution().chance("succeeded") == pytest.approx(
        de.distribution("3a vs 1d", "ffg").chance("succeeded"))
    state = roundtrip(play.spend_destiny(state, "players", "bonus", "2a").state)
    assert (state.destiny.light, state.destiny.dark) == (0, 3)
    refused(play.spend_destiny, state, "players", "bonus", "2a")  # no light token left

    # a party of villains holds the dark tokens
    dark = play.destiny_from_roll(light=1, dark=0, party="dark")
    refused(play.spend_destiny, dark, "players", "bonus", "2a")
    step = play.spend_destiny(dark, "gm", "bonus", "2a vs 2d")  # the game master's NPC check
    assert step.check == "1a1p vs 2d" and (step.state.destiny.light, step.state.destiny.dark) == (0, 1)


def test_a_session_rolls_its_destiny_pool():
    scene = play.roll_destiny(4, seed=11)
    force = de.roll("4f", "ffg", seed=11).outcome  # the same four Force dice
    assert (scene.destiny.light, scene.destiny.dark, scene.destiny.party) == (force.light, force.dark, "light")
    assert play.roll_destiny(4, "dark", seed=11).destiny.party == "dark"
    with pytest.raises(de.DiceError):
        play.roll_destiny(0)


def test_assistance_and_initiative():
    assert play.assist("2a1p vs 2d", helper_skill=1, skill=1) == "2a1p1b vs 2d"
    assert play.assist("2a1p vs 2d", helper_skill=3, skill=1, npc_helps_antagonist=True) == "2a1p vs 2d1s"
    with pytest.raises(de.DiceError):
        play.assist("2a1p vs 2d", helper_skill=0, skill=1)
    assert play.initiative_check(3, 2) == "1a2p"  # Vigilance, simple: no purple die

    def check(s, a):
        return NarrativeOutcome(s, a, 0, 0, 0, 0, s > 0)

    state = Encounter()
    checks = {"trooper": check(1, 2), "Kira": check(1, 2), "officer": check(3, 0)}
    state = roundtrip(play.roll_initiative(state, checks, players=["Kira"]).state)
    assert state.initiative == ["officer", "Kira", "trooper"]
    assert play.roll_initiative(state, checks, ["Kira"], players_first=False).state.initiative == \
        ["officer", "trooper", "Kira"]
    refused(play.roll_initiative, state, {})


def test_a_seventh_characteristic_point_is_refused():
    sheet = CharacterSheet(name="Kira", characteristics={"brawn": 5, "agility": 3}, career_skills=["gunnery"],
                           xp=200)
    step = play.buy_characteristic(sheet, "brawn")  # 5 -> 6 costs 6 x 10
    assert step.state.characteristics["brawn"] == 6 and step.state.xp == 140
    sheet = step.state
    before = sheet.model_dump_json()
    with pytest.raises(de.DiceError):
        play.buy_characteristic(sheet, "brawn")  # a seventh point
    assert sheet.model_dump_json() == before
    assert CharacterSheet.model_validate_json(before) == sheet
    creating = CharacterSheet(name="Kira", characteristics={"brawn": 5}, xp=200, created=False)
    with pytest.raises(de.DiceError):
        play.buy_characteristic(creating, "brawn")  # at most 5 at creation
    # the text: agility 2 -> 3 costs 30; ranks: 5 x rank, +5 outside the career
    assert play.buy_characteristic(CharacterSheet(name="x", characteristics={"agility": 2}, xp=30),
                                   "agility").state.xp == 0
    with pytest.raises(de.DiceError):
        play.buy_characteristic(CharacterSheet(name="x", characteristics={"agility": 2}, xp=29), "agility")
    sheet = play.buy_skill(sheet, "gunnery").state
    sheet = play.buy_skill(sheet, "gunnery").state
    assert sheet.skills["gunnery"] == 2 and sheet.xp == 140 - 5 - 10
    sheet = play.buy_skill(sheet, "stealth").state
    assert sheet.xp == 125 - 10
    assert play.sheet_check(sheet, "agility", "gunnery", "hard").check == "1a2p vs 3d"
    full = sheet.model_copy(update={"skills": {"gunnery": 5}})
    with pytest.raises(de.DiceError):
        play.buy_skill(full, "gunnery")
