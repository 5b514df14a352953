"""FFG in play (text 004, ``diceengine.systems.ffg.play``): the destiny pool, stormtrooper minions losing members
and skill, assistance, initiative, character sheets, and the refusals of each rule of play."""

from __future__ import annotations

import pytest
from diceengine.systems.ffg import DicePool, NarrativeOutcome, play
from diceengine.systems.ffg.play import CharacterSheet, DestinyState, Encounter, MinionGroup

import diceengine as de
from tests.helpers import refused, roundtrip


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


def refusal(rule, state, *args, **kwargs) -> str:
    """The rule refuses with the engine's error and leaves ``state`` as it was; the message."""
    before = state.model_dump_json() if hasattr(state, "model_dump_json") else None
    with pytest.raises(de.DiceValueError) as info:
        rule(state, *args, **kwargs)
    if before is not None:
        assert state.model_dump_json() == before
    return info.value.message


def squad(size: int = 4, **kw) -> Encounter:
    """The text's stormtroopers (soak 5, wound threshold 5) in an encounter."""
    group = MinionGroup(name="troopers", size=size, soak=5, wound_threshold=5, group_skills=["ranged"], **kw)
    return play.add_minions(Encounter(), group).state


# ---------------------------------------------------------------- FFG: minion groups


def test_minion_group_counters():
    group = MinionGroup(name="g", size=8, wound_threshold=3)
    assert (group.defeated_by_wounds, group.standing, group.skill_rank) == (0, 8, 5)  # at most 5 ranks
    assert group.model_copy(update={"wounds": 3}).standing == 8  # a full threshold, not exceeded
    assert group.model_copy(update={"wounds": 4}).standing == 7
    assert group.model_copy(update={"wounds": 7}).standing == 6
    assert group.model_copy(update={"wounds": 4, "incapacitated": 2}).skill_rank == 4
    assert group.model_copy(update={"wounds": 30}).standing == 0
    assert group.model_copy(update={"wounds": 30}).skill_rank == 0
    assert group.model_copy(update={"incapacitated": 7}).skill_rank == 0
    assert MinionGroup(name="g", size=1, wound_threshold=3).skill_rank == 0
    assert MinionGroup(name="g", size=3, wound_threshold=3).skill_rank == 2


def test_minion_rules_refuse_with_reasons():
    state = squad()
    assert refusal(play.add_minions, state, MinionGroup(name="troopers", size=2, wound_threshold=1)) ==\
        "there is already a group named 'troopers'"
    assert refusal(play.hit_minions, state, "jawas", 3) == "no minion group named 'jawas' (known: troopers)"
    assert refusal(play.hit_minions, Encounter(), "jawas", 3) == "no minion group named 'jawas' (known: none)"
    assert refusal(play.hit_minions, state, "troopers", -1) == "damage is not negative"
    assert refusal(play.critical_on_minions, state, "troopers", 0) ==\
        "a single-target attack inflicts one critical injury; only an area attack inflicts more"
    assert refusal(play.critical_on_minions, state, "troopers", 2) ==\
        "a single-target attack inflicts one critical injury; only an area attack inflicts more"
    down = play.critical_on_minions(state, "troopers", 9, area=True).state
    assert down.minions["troopers"].incapacitated == 4  # no more than stand
    assert refusal(play.hit_minions, down, "troopers", 12) == "every minion of troopers is already down"
    assert refusal(play.critical_on_minions, down, "troopers") == "every minion of troopers is already down"
    assert refusal(play.minion_check, down, "troopers", 3, "ranged") == "every minion of troopers is down"


def test_hits_and_criticals_on_minions():
    state = squad()
    assert play.hit_minions(state, "troopers", 0).state.minions["troopers"].wounds == 0
    state = play.hit_minions(state, "troopers", 8).state  # 3 wounds
    state = play.hit_minions(state, "troopers", 8).state  # 6: one threshold exceeded
    assert state.minions["troopers"].wounds == 6 and state.minions["troopers"].standing == 3
    # another group is untouched; the encounter keeps both
    state = play.add_minions(state, MinionGroup(name="jawas", size=3, wound_threshold=2)).state
    state = play.critical_on_minions(state, "jawas", 2, area=True).state
    assert (state.minions["jawas"].standing, state.minions["troopers"].standing) == (1, 3)
    assert list(state.minions) == ["troopers", "jawas"]


def test_minion_checks():
    state = squad(size=3)
    # three standing: 2 ranks; agility 3 vs an opponent (3, 1): 2 purple 1 red; boost and setback pass through
    step = play.minion_check(state, "troopers", 3, "ranged", opponent=(3, 1), boost=1, setback=2)
    assert step.check == "1a2p1b vs 2d1c2s" and step.system == "ffg"
    assert play.minion_check(state, "troopers", 3, "ranged").check == "1a2p"  # difficulty 0 by default
    assert play.minion_check(state, "troopers", 2, "stealth", "hard").check == "2a vs 3d"


# ---------------------------------------------------------------- FFG: destiny, help, initiative, sheets


def test_spending_destiny_refusals():
    state = play.destiny_from_roll(light=0, dark=0)
    assert state.destiny == DestinyState(light=0, dark=0, party="light")
    assert refusal(play.spend_destiny, state, "players", "bonus", "2a") ==\
        "no light side token for the players to spend"
    assert refusal(play.spend_destiny, state, "gm", "bonus", "2a") == "no dark side token for the game master to spend"
    dark = play.destiny_from_roll(light=0, dark=0, party="dark")
    assert refusal(play.spend_destiny, dark, "gm", "bonus", "2a") == "no light side token for the game master to spend"
    assert refusal(play.spend_destiny, dark, "players", "bonus", "2a") == "no dark side token for the players to spend"
    for by, choice in (("npc", "bonus"), ("players", "luck")):
        assert refusal(play.spend_destiny, state, by, choice, "2a") ==\
            "destiny is spent by 'players' or 'gm', as a 'bonus' or a 'penalty'"
    msg = refusal(play.spend_destiny, play.destiny_from_roll(1, 1), "players", "bonus", {"abilty": 2})
    assert msg.startswith("not a dice pool: ") and "abilty" in msg


def test_spending_destiny_on_each_kind_of_pool():
    state = play.destiny_from_roll(light=1, dark=1, party="dark")
    step = play.spend_destiny(state, "players", "penalty", DicePool(ability=2, difficulty=1, challenge=1))
    assert step.check == "2a vs 2c" and step.system == "ffg"
    assert (step.state.destiny.light, step.state.destiny.dark) == (2, 0)
    step = play.spend_destiny(state, "gm", "bonus", {"proficiency": "1", "ability": 1})
    assert step.check == "2p" and (step.state.destiny.light, step.state.destiny.dark) == (0, 2)
    assert step.state.destiny.party == "dark"


def test_assistance():
    assert play.assist("2a vs 1d", helper_skill=2, skill=2) == "2a1b vs 1d"  # an equal skill helps
    assert play.assist({"ability": 1, "setback": 1}, 3, 2, npc_helps_antagonist=True) == "1a vs 2s"
    assert play.assist(DicePool(proficiency=1), 3, 2) == "1p1b"
    assert refusal(play.assist, "2a vs 1d", 1, 2) == "only a helper with an equal or higher skill can assist"


def test_initiative_and_its_check():
    state = Encounter()
    checks = {"trooper": (1, 2), "Kira": (1, 2), "officer": (0, 5)}
    assert play.roll_initiative(state, checks, ["Kira"]).state.initiative == ["Kira", "trooper", "officer"]
    assert play.roll_initiative(state, checks).state.initiative == ["trooper", "Kira", "officer"]
    assert refusal(play.roll_initiative, state, {}) == "initiative needs at least one check"
    assert play.initiative_check(2, 1) == "1a1p"
    assert play.initiative_check(2, 1, "hard") == "1a1p vs 3d"


def test_roll_destiny_defaults_to_a_light_party():
    assert play.roll_destiny(2, seed=5).destiny.party == "light"
    with pytest.raises(de.DiceValueError) as info:
        play.roll_destiny(61)
    assert info.value.message == "1 to 60 players roll for the destiny pool"


def test_character_sheet_refusals_and_costs():
    sheet = CharacterSheet(name="Kira", characteristics={"agility": 2}, skills={"gunnery": 1},
                           career_skills=["gunnery"], xp=30)
    assert refusal(play.buy_characteristic, sheet, "luck") == "Kira has no characteristic 'luck'"
    assert refusal(play.sheet_check, sheet, "luck", "gunnery") == "Kira has no characteristic 'luck'"
    poor = sheet.model_copy(update={"xp": 29})
    assert refusal(play.buy_characteristic, poor, "agility") == "raising agility to 3 costs 30 XP, Kira has 29"
    assert refusal(play.buy_skill, poor.model_copy(update={"xp": 9}), "gunnery") ==\
        "rank 2 in gunnery costs 10 XP, Kira has 9"
    assert refusal(play.buy_skill, poor.model_copy(update={"xp": 9}), "stealth") ==\
        "rank 1 in stealth costs 10 XP, Kira has 9"  # outside the career: 5 x 1 + 5
    step = play.buy_skill(sheet, "gunnery")  # exactly the XP held... 10 of 30
    assert step.state.skills == {"gunnery": 2} and step.state.xp == 20 and step.check is None
    step = play.buy_skill(sheet.model_copy(update={"xp": 10}), "stealth")
    assert step.state.skills == {"gunnery": 1, "stealth": 1} and step.state.xp == 0
    step = play.buy_characteristic(sheet, "agility")
    assert step.state.characteristics == {"agility": 3} and step.state.xp == 0


def test_sheet_checks():
    sheet = CharacterSheet(name="Kira", characteristics={"agility": 3}, skills={"gunnery": 1})
    step = play.sheet_check(sheet, "agility", "gunnery")
    assert step.check == "2a1p vs 2d" and step.system == "ffg" and step.state == sheet  # average by default
    assert play.sheet_check(sheet, "agility", "stealth", "easy", boost=1, setback=2).check == "3a1b vs 1d2s"


def test_upgrades_name_their_side():
    pool = DicePool(ability=2, difficulty=1)
    assert pool.upgrade(1, "difficulty") == DicePool(ability=2, challenge=1)
    assert pool.downgrade(1, "difficulty") == pool  # no red die to turn back: ignored
    with pytest.raises(KeyError):
        pool.upgrade(1, "dificulty")  # a misspelt side is an error, not the difficulty side by default
