"""The states of play of the FFG dice and the d20 pool (texts 004 and 001), as mutmut's survivors showed them
undefended (issue 16, second pass): every refusal says what is wrong and leaves the state as it was; the
boundaries of each rule (equal skills, a pool spent to zero, a success exactly at the difficulty)."""

from __future__ import annotations

import pytest
from diceengine.systems.d20pool import play as pool
from diceengine.systems.d20pool.play import PoolState
from diceengine.systems.ffg import DicePool, play
from diceengine.systems.ffg.play import CharacterSheet, DestinyState, Encounter, MinionGroup

import diceengine as de


def refused(rule, state, *args, **kwargs) -> str:
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
    assert refused(play.add_minions, state, MinionGroup(name="troopers", size=2, wound_threshold=1)) == \
        "there is already a group named 'troopers'"
    assert refused(play.hit_minions, state, "jawas", 3) == "no minion group named 'jawas' (known: troopers)"
    assert refused(play.hit_minions, Encounter(), "jawas", 3) == "no minion group named 'jawas' (known: none)"
    assert refused(play.hit_minions, state, "troopers", -1) == "damage is not negative"
    assert refused(play.critical_on_minions, state, "troopers", 0) == \
        "a single-target attack inflicts one critical injury; only an area attack inflicts more"
    assert refused(play.critical_on_minions, state, "troopers", 2) == \
        "a single-target attack inflicts one critical injury; only an area attack inflicts more"
    down = play.critical_on_minions(state, "troopers", 9, area=True).state
    assert down.minions["troopers"].incapacitated == 4  # no more than stand
    assert refused(play.hit_minions, down, "troopers", 12) == "every minion of troopers is already down"
    assert refused(play.critical_on_minions, down, "troopers") == "every minion of troopers is already down"
    assert refused(play.minion_check, down, "troopers", 3, "ranged") == "every minion of troopers is down"


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
    assert refused(play.spend_destiny, state, "players", "bonus", "2a") == \
        "no light side token for the players to spend"
    assert refused(play.spend_destiny, state, "gm", "bonus", "2a") == "no dark side token for the game master to spend"
    dark = play.destiny_from_roll(light=0, dark=0, party="dark")
    assert refused(play.spend_destiny, dark, "gm", "bonus", "2a") == "no light side token for the game master to spend"
    assert refused(play.spend_destiny, dark, "players", "bonus", "2a") == "no dark side token for the players to spend"
    for by, choice in (("npc", "bonus"), ("players", "luck")):
        assert refused(play.spend_destiny, state, by, choice, "2a") == \
            "destiny is spent by 'players' or 'gm', as a 'bonus' or a 'penalty'"
    msg = refused(play.spend_destiny, play.destiny_from_roll(1, 1), "players", "bonus", {"abilty": 2})
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
    assert refused(play.assist, "2a vs 1d", 1, 2) == "only a helper with an equal or higher skill can assist"


def test_initiative_and_its_check():
    state = Encounter()
    checks = {"trooper": (1, 2), "Kira": (1, 2), "officer": (0, 5)}
    assert play.roll_initiative(state, checks, ["Kira"]).state.initiative == ["Kira", "trooper", "officer"]
    assert play.roll_initiative(state, checks).state.initiative == ["trooper", "Kira", "officer"]
    assert refused(play.roll_initiative, state, {}) == "initiative needs at least one check"
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
    assert refused(play.buy_characteristic, sheet, "luck") == "Kira has no characteristic 'luck'"
    assert refused(play.sheet_check, sheet, "luck", "gunnery") == "Kira has no characteristic 'luck'"
    poor = sheet.model_copy(update={"xp": 29})
    assert refused(play.buy_characteristic, poor, "agility") == "raising agility to 3 costs 30 XP, Kira has 29"
    assert refused(play.buy_skill, poor.model_copy(update={"xp": 9}), "gunnery") == \
        "rank 2 in gunnery costs 10 XP, Kira has 9"
    assert refused(play.buy_skill, poor.model_copy(update={"xp": 9}), "stealth") == \
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


# ---------------------------------------------------------------- d20 pool: Impulsion, Menace, Force points


def test_beginning_checks_refusals():
    state = PoolState(impulsion=0, menace=2)
    assert refused(pool.begin_check, state, "Kael", 9, 3, 1, impulsion_dice=1) == \
        "the extra dice cost 1 Impulsion, the pool holds 0"
    assert refused(pool.begin_check, state, "trooper", 9, 3, 1, impulsion_dice=1, menace_dice=1, npc=True) == \
        "the extra dice cost 3 Menace, the pool holds 2"
    for impulsion, menace in ((-1, 0), (0, -1), (2, 2)):
        assert refused(pool.begin_check, state, "Kael", 9, 3, 1, impulsion_dice=impulsion, menace_dice=menace) == \
            "at most 3 extra dice, bought with Impulsion or Menace"
    busy = pool.begin_check(state, "Kael", 9, 3, 1).state
    assert refused(pool.begin_check, busy, "Vess", 9, 3, 1) == "Kael's check is not resolved yet"
    assert refused(pool.begin_force_power, PoolState(force_points={"Vess": 0}), "Vess", "grip", 8, 2) == \
        "Vess has no Force points"
    msg = refused(pool.begin_force_power, PoolState(force_points={"Vess": 3}), "Vess", "grip", 8, 2, alignment="grey")
    assert msg == "an alignment is one of matching, opposed, neutral, not 'grey'"


def test_beginning_checks_pays_exactly():
    state = PoolState(impulsion=3, menace=3)
    step = pool.begin_check(state, "Kael", 9, 3, 2, impulsion_dice=2)  # 1 + 2 = the whole pool
    assert step.state.impulsion == 0 and step.state.menace == 3 and step.check == "4d20<=12 vs 2"
    assert step.state.pending == pool.PendingCheck(who="Kael", expression="4d20<=12 vs 2", difficulty=2)
    step = pool.begin_check(state, "trooper", 9, 3, 1, menace_dice=1, impulsion_dice=1, npc=True)
    assert step.state.menace == 0 and step.state.impulsion == 3 and step.state.pending.npc is True
    assert step.check == "4d20<=12 vs 1" and step.system == "d20pool"
    step = pool.begin_check(state, "trooper", 9, 3, 1, specialisation=True, npc=True)
    assert step.state.menace == 3 and step.check == "2d20<=12 spec 3 vs 1"
    step = pool.begin_check(state, "Kael", 9, 3, 0, impulsion_dice=1, menace_dice=2)  # Impulsion pays the first
    assert (step.state.impulsion, step.state.menace) == (2, 3 + 2 + 3)


def test_a_force_power_with_a_specialisation_and_menace_dice():
    step = pool.begin_force_power(PoolState(force_points={"Vess": 3}, menace=1), "Vess", "grip", 8, 2,
                                  specialisation=True, menace_dice=1)
    assert step.check == "3d20<=10 spec 2 vs 1" and step.state.menace == 1 + 1


def test_force_powers_begin_and_resolve():
    state = PoolState(force_points={"Vess": 1})
    step = pool.begin_force_power(state, "Vess", "grip", 8, 2, base_cost=2)
    pending = step.state.pending
    assert (pending.power, pending.alignment, pending.base_cost, pending.difficulty) == ("grip", "neutral", 2, 1)
    assert step.check == "2d20<=10 vs 1" and step.system == "d20pool"
    # two successes: 2 - 1 = 1 Force point, exactly what Vess holds
    after = pool.resolve(step.state, successes=2).state
    assert after.force_points == {"Vess": 0} and after.impulsion == 0 and after.pending is None
    # no success: the power fails, nothing is paid; complications still give Menace
    after = pool.resolve(step.state, successes=0, complications=1).state
    assert after.force_points == {"Vess": 1} and after.menace == 2 and after.pending is None
    msg = refused(pool.resolve, step.state, successes=1)  # 2 Force points
    assert msg == "grip costs 2 Force points, Vess holds 1"
    matching = pool.begin_force_power(PoolState(force_points={"Vess": 9}), "Vess", "grip", 8, 2,
                                      alignment="matching").state
    assert matching.pending.alignment == "matching"
    # matching: 5 - 1 = 4, less one per success beyond the first, never below 1 (text 001: 5 successes give
    # 1 Force point and 1 Impulsion); four successes reach 1 with none left over
    after = pool.resolve(matching, successes=4).state
    assert after.force_points == {"Vess": 8} and after.impulsion == 0
    after = pool.resolve(matching, successes=5).state
    assert after.force_points == {"Vess": 8} and after.impulsion == 1


def test_resolving_plain_checks():
    state = pool.begin_check(PoolState(impulsion=1, menace=1), "Kael", 9, 3, 2).state
    assert pool.resolve(state, successes=2).state.impulsion == 1  # exactly the difficulty: nothing beyond it
    assert pool.resolve(state, successes=3).state.impulsion == 2
    assert pool.resolve(state, successes=3, complications=2).state.menace == 1 + 4
    assert pool.resolve(state, successes=3, complications=2, complications_as_menace=False).state.menace == 1
    three = state.model_copy(update={"menace_per_complication": 3})
    assert pool.resolve(three, successes=0, complications=2).state.menace == 1 + 6
    capped = state.model_copy(update={"impulsion_cap": 2})
    assert pool.resolve(capped, successes=9).state.impulsion == 2
    assert pool.resolve(state, successes=9).state.impulsion == 1 + 7
    assert refused(pool.resolve, PoolState(), 2) == "no check to resolve: begin one first"
    assert refused(pool.resolve, state, -1) == "successes and complications are not negative"
    assert refused(pool.resolve, state, 1, -1) == "successes and complications are not negative"


def test_the_pools_refuse_what_they_cannot_pay():
    state = PoolState(impulsion=2, menace=2)
    assert pool.spend_impulsion(state, 2).state.impulsion == 0
    assert pool.spend_impulsion(state, 1).state.impulsion == 1   # one point: the least that can be spent
    assert refused(pool.spend_impulsion, state, 3) == "the party holds 2 Impulsion, not 3"
    assert refused(pool.spend_impulsion, state, 0) == "spend at least one point"
    assert pool.spend_menace(state, 1).state.menace == 1
    assert refused(pool.spend_menace, state, 3) == "the game master holds 2 Menace, not 3"
    assert refused(pool.spend_menace, state, 0) == "spend at least one point"
    assert pool.add_menace(state, 1).state.menace == 3
    assert refused(pool.add_menace, state, 0) == "add at least one point"
    assert refused(pool.drop_check, state) == "no check to drop"
    gained = pool.gain_force_points(pool.gain_force_points(state, "Vess", 2).state, "Vess", 1).state
    assert gained.force_points == {"Vess": 3}
    assert pool.gain_force_points(gained, "Kael", 1).state.force_points == {"Vess": 3, "Kael": 1}
    assert refused(pool.gain_force_points, state, "Vess", 0) == "gain at least one point"


def test_a_power_resolved_for_someone_without_force_points_is_refused():
    # a state edited by hand (JSON): the character has no entry in force_points; they hold 0, not nothing
    state = PoolState(force_points={}, pending=pool.PendingCheck(who="Vess", expression="2d20<=10", difficulty=1,
                                                                 power="grip"))
    assert refused(pool.resolve, state, successes=2).endswith("Vess holds 0")


def test_upgrades_name_their_side():
    pool = DicePool(ability=2, difficulty=1)
    assert pool.upgrade(1, "difficulty") == DicePool(ability=2, challenge=1)
    assert pool.downgrade(1, "difficulty") == pool  # no red die to turn back: ignored
    with pytest.raises(KeyError):
        pool.upgrade(1, "dificulty")  # a misspelt side is an error, not the difficulty side by default
