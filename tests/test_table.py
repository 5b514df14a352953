"""The game table (diceengine.table): the scenes of the play tests played through a Table give the play layer's
states, rolls and their exact odds, secret rolls, re-rolls, undo, pools and turns, keys, the log as JSON, and
the fairness test (a test of the test: it flags a loaded die and passes fair dice at its stated rate)."""

from __future__ import annotations

import json
import math
import random
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from diceengine.systems.d20pool.play import PoolState
from diceengine.systems.ffg import play as ffg_play
from diceengine.systems.ffg.play import CharacterSheet, Encounter
from pydantic_core import to_jsonable_python

import diceengine as de
from diceengine import table as T
from diceengine.registry import get_system
from tests.test_d6_play import roark_scene
from tests.test_d6wild_play import scene as wild_scene
from tests.test_ffg_play import troopers

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def seated(system: str, scene=None, seed: int | None = 1, players=("Kira", "Jax")):
    table, keys = T.new_table("game", system, "GM", list(players), scene=scene, seed=seed, time=WHEN)
    return table, keys


def unchanged(op, table, *args, error=de.DiceError, match=None, **kwargs):
    """A refused step: the engine's error, the table as it was."""
    before = table.model_dump_json()
    with pytest.raises(error, match=match):
        op(table, *args, **kwargs)
    assert table.model_dump_json() == before


def play_through(system: str, start, steps):
    """Run each (rule, arguments, expected check) on the play layer and through a Table, side by side: after
    every step the table's scene is the play layer's state, its log the rule with the state before and after."""
    rules = get_system(system).rules_of_play().RULES
    table, _ = seated(system, start)
    state = start
    for name, kwargs, check in steps:
        if check is RuntimeError:  # a step the texts refuse: both refuse, nothing changes
            with pytest.raises(de.DiceError):
                rules[name](state, **kwargs)
            unchanged(T.rule, table, "GM", name, args=to_jsonable_python(kwargs))
            continue
        step = rules[name](state, **kwargs)
        table = T.rule(table, "GM", name, args=to_jsonable_python(kwargs), time=WHEN)
        entry = table.log[-1]
        assert T.state_of(table) == step.state
        assert (entry.kind, entry.rule, entry.check, entry.check_system) == ("rule", name, step.check, step.system)
        assert entry.check == check
        assert entry.before.scene == state.model_dump(mode="json") and entry.after.scene == table.play.scene
        if step.check is not None:  # the check it calls for rolls through the table with its options
            table = T.roll(table, "Kira", step.check, step.system, **entry.check_options)
            dist, field = step.distribution(), _chance_field(step)
            want = dist.chance(field) if field in dist.fields else None
            assert table.log[-1].odds.chance == (pytest.approx(want) if want is not None else None)
        state = step.state
    return table, state


def _chance_field(step) -> str:
    return "succeeded" if step.system == "ffg" else "success"


def ffg_scene():
    group = troopers()
    return ffg_play.destiny_from_roll(light=2, dark=1), [
        ("add_minions", {"group": group}, None),
        ("add_minions", {"group": group}, RuntimeError),  # one group by that name
        ("minion_check", {"name": "stormtroopers", "characteristic": 3, "skill": "ranged_heavy",
                          "difficulty": "average"}, "3p vs 2d"),
        ("hit_minions", {"name": "stormtroopers", "damage": 11}, None),
        ("minion_check", {"name": "stormtroopers", "characteristic": 3, "skill": "ranged_heavy", "difficulty": 2},
         "1a2p vs 2d"),
        ("critical_on_minions", {"name": "stormtroopers"}, None),
        ("critical_on_minions", {"name": "stormtroopers", "criticals": 2}, RuntimeError),
        ("hit_minions", {"name": "stormtroopers", "damage": 10}, None),
        ("spend_destiny", {"by": "players", "choice": "bonus", "pool": "2a1p vs 2d"}, "1a2p vs 2d"),
        ("spend_destiny", {"by": "gm", "choice": "penalty", "pool": "2a vs 2d"}, "2a vs 1d1c"),
        ("spend_destiny", {"by": "players", "choice": "penalty", "pool": {"ability": 3}}, "3a vs 1d"),
        ("spend_destiny", {"by": "players", "choice": "bonus", "pool": "2a"}, "1a1p"),
        ("spend_destiny", {"by": "players", "choice": "bonus", "pool": "2a"}, RuntimeError),  # no light token
    ]


def d20pool_scene():
    return PoolState(impulsion=2, force_points={"Kael": 6, "Vess": 5}), [
        ("begin_force_power", {"who": "Kael", "power": "éclair de Force", "attribute": 9, "discipline": 3,
                               "alignment": "opposed", "impulsion_dice": 1}, "3d20<=12 vs 1"),
        ("begin_check", {"who": "Vess", "attribute": 8, "discipline": 2, "difficulty": 1}, RuntimeError),
        ("resolve", {"successes": 3}, None),
        ("begin_force_power", {"who": "Vess", "power": "poigne de Force", "attribute": 8, "discipline": 2,
                               "alignment": "matching", "impulsion_dice": 2}, RuntimeError),
        ("begin_force_power", {"who": "Vess", "power": "poigne de Force", "attribute": 8, "discipline": 2,
                               "alignment": "matching", "impulsion_dice": 1}, "3d20<=10 vs 1"),
        ("resolve", {"successes": 5, "complications": 1}, None),
        ("spend_impulsion", {"points": 2}, RuntimeError),
        ("begin_check", {"who": "Kael", "attribute": 9, "discipline": 3, "difficulty": 2, "menace_dice": 2},
         "4d20<=12 vs 2"),
        ("resolve", {"successes": 4}, None),
        ("begin_check", {"who": "inquisiteur", "attribute": 10, "discipline": 4, "difficulty": 1,
                         "specialisation": True, "menace_dice": 2, "npc": True}, "4d20<=14 spec 4 vs 1"),
        ("resolve", {"successes": 6}, None),
        ("spend_menace", {"points": 2}, None),
    ]


def d6_scene():
    shot = {"attacker": "Roark", "target": "trooper 1", "skill": "blaster", "difficulty": "short"}
    return roark_scene(), [
        ("declare", {"name": "Roark", "uses": 3, "movement": "run", "metres": 12}, RuntimeError),
        ("declare", {"name": "Roark", "uses": 3, "movement": "run", "metres": 10, "turn": 90}, None),
        ("attack", shot, "2D+1 vs 10"),
        ("attack", shot, "2D+1 vs 10"),
        ("attack", shot, "2D+1 vs 10"),
        ("act", {"name": "Roark", "skill": "blaster", "difficulty": 10}, RuntimeError),
        ("end_round", {}, None),
        ("declare", {"name": "Roark", "uses": 0}, None),
        ("declare", {"name": "Jana", "uses": 1}, None),
        ("react", {"name": "Roark", "kind": "dodge"}, "4D+1"),
        ("record_reaction", {"name": "Roark", "kind": "dodge", "total": 14}, None),
        ("attack", {"attacker": "Jana", "target": "Roark", "skill": "blaster", "difficulty": "short"}, "5D+2 vs 24"),
        ("next_segment", {}, None),
        ("declare", {"name": "trooper 4", "uses": 1}, None),
        ("react", {"name": "Roark", "kind": "dodge"}, "3D+1"),
        ("record_reaction", {"name": "Roark", "kind": "dodge", "total": 11}, None),
        ("attack", {"attacker": "trooper 4", "target": "Roark", "skill": "blaster", "difficulty": "short"},
         "4D vs 21"),
        ("take_damage", {"target": "Roark", "damage_total": 12, "strength_total": 7}, None),
        ("react", {"name": "Roark", "kind": "dodge"}, RuntimeError),  # wounded this round
    ]


def d6wild_scene():
    return wild_scene(), [
        ("roll_initiative", {"perception": {"Kel": 9, "trooper": 9}}, None),
        ("act", {"name": "Kel", "skill": "blaster", "difficulty": 15}, RuntimeError),  # nothing declared yet
        ("declare", {"name": "Kel", "actions": 2}, None),
        ("declare", {"name": "Kel", "actions": 3}, RuntimeError),
        ("declare", {"name": "trooper", "actions": 1}, None),
        ("attack", {"attacker": "Kel", "target": "trooper", "skill": "blaster", "difficulty": "moderate"},
         "3D+2 vs moderate"),
        ("react", {"name": "Kel", "skill": "dodge"}, "2D+1"),
        ("record_reaction", {"name": "Kel", "total": 13}, None),
        ("attack", {"attacker": "trooper", "target": "Kel", "skill": "blaster", "difficulty": "easy"}, "4D vs 13"),
        ("take_damage", {"target": "Kel", "margin": -2}, None),
        ("take_damage", {"target": "Kel", "margin": 3}, None),
        ("end_round", {}, None),
        ("declare", {"name": "Kel", "actions": 1}, None),
        ("attack", {"attacker": "Kel", "target": "trooper", "skill": "blaster", "difficulty": 10}, "3D+2 vs 10"),
        ("end_round", {}, None),
        ("declare", {"name": "Kel", "actions": 1}, None),
        ("attack", {"attacker": "Kel", "target": "trooper", "skill": "blaster", "difficulty": 10,
                    "character_point": True}, "4D+2 vs 10"),
    ]


SCENES = {"ffg": ffg_scene, "d20pool": d20pool_scene, "d6": d6_scene, "d6wild": d6wild_scene}


@pytest.mark.parametrize("system", sorted(SCENES))
def test_a_scene_of_each_ruleset_through_the_table_gives_the_play_layers_states(system):
    start, steps = SCENES[system]()
    table, state = play_through(system, start, steps)
    assert T.state_of(table) == state
    assert table.version == len(table.log) and [e.seq for e in table.log] == list(range(1, table.version + 1))
    back = T.import_log(T.export_log(table))
    assert back == table
    assert T.state_of(back) == state


def test_the_scenes_end_where_the_play_tests_say():
    """The states the play tests assert, read from the tables (an independent check of the driver)."""
    table, _ = play_through("ffg", *ffg_scene())
    scene = T.state_of(table)
    assert scene.minions["stormtroopers"].standing == 1 and (scene.destiny.light, scene.destiny.dark) == (0, 3)
    table, _ = play_through("d20pool", *d20pool_scene())
    pool = T.state_of(table)
    assert (pool.impulsion, pool.menace, pool.force_points) == (3, 0, {"Kael": 2, "Vess": 4})
    table, _ = play_through("d6wild", *d6wild_scene())
    assert T.state_of(table).characters["Kel"].character_points == 0 and T.state_of(table).round == 3


def test_a_roll_logs_the_dice_the_outcome_and_the_exact_odds_before_it():
    table, _ = seated("standard")
    table = T.roll(table, "Kira", "1d6", seed=3)
    entry = table.log[-1]
    face = de.roll("1d6", seed=3).total  # the same seed, the same die
    assert entry.outcome == {"total": face} and [d["value"] for d in entry.dice] == [face]
    # by hand: P(less) = (face - 1) / 6, P(equal) = 1 / 6
    assert entry.odds.below == pytest.approx((face - 1) / 6) and entry.odds.at == pytest.approx(1 / 6)
    assert entry.odds.percentile == pytest.approx((face - 0.5) / 6) and entry.odds.chance is None
    table = T.roll(table, "Jax", "2d6 >= 7", "d6") if False else T.roll(table, "Jax", "3D vs 10", "d6", seed=1)
    odds = table.log[-1].odds
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c >= 10)
    assert odds.chance == pytest.approx(hits / 216) and odds.field == "total"
    unchanged(T.roll, table, "Nobody", "1d6", error=T.TableAccessError, match="Nobody")
    unchanged(T.roll, table, "Kira", "1d6 +", error=de.DiceSyntaxError)


def test_the_tables_seed_sequence_makes_the_game_reproducible():
    def game(seed):
        table, _ = seated("d6", seed=seed)
        for who in ("Kira", "Jax", "GM", "Kira"):
            table = T.roll(table, who, "4D+1", time=WHEN)
        return [e.outcome for e in table.log if e.kind == "roll"]

    assert game(7) == game(7) and game(7) != game(8)
    table, _ = seated("d6", seed=None)
    assert T.roll(table, "Kira", "2D", seed=5).log[-1].outcome == T.roll(table, "Kira", "2D", seed=5).log[-1].outcome


def test_a_secret_roll_is_read_by_the_game_master_only():
    table, _keys = seated("standard")
    table = T.roll(table, "Kira", "1d20", secret=True)
    table = T.roll(table, "Jax", "1d20")
    for reader in ("Kira", "Jax"):  # a blind roll: not even its roller reads it
        seen = T.view(table, reader)
        hidden = seen.log[3]
        assert hidden.secret and hidden.redacted and hidden.member == "Kira"
        assert hidden.outcome is None and hidden.dice is None and hidden.text is None and hidden.odds is None
        assert hidden.expression is None and seen.log[4].outcome is not None
        assert all(m.key_hash == "" for m in seen.members.values())
        exported = json.loads(T.export_log(seen))["table"]["log"][3]
        assert exported["secret"] and exported["outcome"] is None and exported["dice"] is None
        assert T.luck(seen)["Kira"].rolls == 0 and T.fairness(seen).rolls == 1
    assert T.view(table, "GM").log[3].outcome is not None and T.luck(table)["Kira"].rolls == 1
    unchanged(T.view, table, "Eve", error=T.TableAccessError)


def test_member_keys_are_128_random_bits_kept_as_hashes():
    table, keys = seated("standard")
    assert set(keys) == {"GM", "Kira", "Jax"} and len(set(keys.values())) == 3
    for name, key in keys.items():
        assert len(key) == 22  # 16 bytes, URL-safe base64
        assert T.authenticate(table, key) == name
        assert key not in table.model_dump_json()
        assert table.members[name].key_hash == __import__("hashlib").sha256(key.encode()).hexdigest()
    with pytest.raises(T.TableAccessError):
        T.authenticate(table, keys["Kira"][:-1] + ("A" if keys["Kira"][-1] != "A" else "B"))
    with pytest.raises(T.TableAccessError):
        T.authenticate(table, "")
    joined, key = T.join(table, "Lea")
    assert T.authenticate(joined, key) == "Lea" and joined.members["Lea"].role == "player"
    unchanged(T.join, joined, "Lea", match="already")
    unchanged(T.join, joined, "", match="name")
    unchanged(T.join, joined, "Zed", role="admin")


def test_a_reroll_keeps_the_first_roll_marked():
    table, _ = seated("standard")
    table = T.roll(table, "Kira", "2d6")
    table = T.roll(table, "Jax", "1d8")
    table = T.reroll(table, "Kira")
    first, second = table.log[3], table.log[5]
    assert first.rerolled_by == 6 and second.reroll_of == 4 and second.expression == "2d6" and second.member == "Kira"
    assert T.import_log(T.export_log(table)).log[3].rerolled_by == 6  # derived again from the log
    table = T.reroll(table, "Kira")  # the re-roll is now the last roll
    assert table.log[-1].reroll_of == 6 and table.log[5].rerolled_by == 7
    table = T.undo(table, "GM")  # the second re-roll undone: the first re-roll stands again, unmarked
    assert table.log[6].undone_by == 8 and table.log[5].rerolled_by is None
    unchanged(T.reroll, table, "GM", match="no roll")
    secret = T.reroll(T.roll(table, "GM", "1d4", secret=True), "GM")
    assert secret.log[-1].secret


def test_undo_restores_the_state_of_play_and_keeps_the_log():
    table, _ = seated("ffg", ffg_play.destiny_from_roll(light=1, dark=1))
    before = table.play
    table = T.flip(table, "Kira", "destiny.light", "destiny.dark")
    assert T.state_of(table).destiny.model_dump() == {"light": 0, "dark": 2, "party": "light"}
    table = T.roll(table, "Kira", "2a")
    table = T.undo(table, "GM")  # the roll
    assert table.log[-2].undone_by == table.version and table.play == T.flip(
        seated("ffg", ffg_play.destiny_from_roll(light=1, dark=1))[0], "Kira", "destiny.light", "destiny.dark").play
    table = T.undo(table, "GM")  # the flip
    assert table.play == before and [e.kind for e in table.log[-4:]] == ["flip", "roll", "undo", "undo"]
    unchanged(T.undo, table, "GM", match="no step")
    unchanged(T.undo, table, "Kira", error=T.TableAccessError, match="game master")
    assert T.import_log(T.export_log(table)) == table


def test_pools_flip_and_never_go_below_zero():
    table, _ = seated("ffg", ffg_play.destiny_from_roll(light=1, dark=0))
    table = T.flip(table, "GM", "destiny.light", "destiny.dark")
    unchanged(T.flip, table, "GM", "destiny.light", "destiny.dark", match="holds 0")
    unchanged(T.flip, table, "GM", "destiny.dark", "destiny.dark")
    unchanged(T.flip, table, "GM", "destiny.grey", "destiny.dark", match="no pool")
    unchanged(T.flip, table, "GM", "destiny.party", "destiny.dark", match="no pool")  # a colour, not a count
    unchanged(T.flip, table, "Eve", "destiny.dark", "destiny.light", error=T.TableAccessError)
    pool, _ = seated("d20pool", PoolState(impulsion=1, force_points={"Kael": 2}))
    pool = T.adjust(pool, "Kira", "force_points.Kael", -2)
    assert T.state_of(pool).force_points == {"Kael": 0}
    unchanged(T.adjust, pool, "Kira", "impulsion", -2, match="holds 1")
    own, _ = seated("standard")
    own = T.adjust(own, "GM", "hero_points", 3)  # the table's own counter
    assert own.play.pools == {"hero_points": 3}
    own = T.flip(T.adjust(own, "GM", "spent", 0), "Kira", "hero_points", "spent", tokens=2)
    assert own.play.pools == {"hero_points": 1, "spent": 2}
    unchanged(T.adjust, own, "Kira", "villain_points", 1, match="no pool")  # only the game master makes one


def test_turns_and_rounds():
    table, _ = seated("standard")
    unchanged(T.next_turn, table, "GM", match="initiative")
    unchanged(T.set_order, table, "Kira", ["Kira"], error=T.TableAccessError)
    unchanged(T.set_order, table, "GM", ["Kira", "Kira"])
    table = T.set_order(table, "GM", ["Jax", "Kira", "trooper"])
    seen = []
    for _ in range(4):
        seen.append((table.play.round, table.play.order[table.play.turn]))
        table = T.next_turn(table, "Kira")
    assert seen == [(1, "Jax"), (1, "Kira"), (1, "trooper"), (2, "Jax")]
    table = T.next_round(table, "GM")
    assert (table.play.round, table.play.turn) == (3, 0)
    assert T.undo(table, "GM").play.round == 2


def test_characters_and_their_rules():
    sheet = CharacterSheet(name="Kira", characteristics={"brawn": 5, "agility": 3}, career_skills=["gunnery"], xp=200)
    table, _ = seated("ffg", Encounter())
    table = T.add_character(table, "Kira", sheet, owner="Kira")
    unchanged(T.add_character, table, "Jax", sheet.model_copy(update={"name": "Lo"}), owner="Kira",
              error=T.TableAccessError)
    unchanged(T.add_character, table, "GM", sheet, match="already")
    table = T.rule(table, "Kira", "buy_characteristic", "Kira", {"characteristic": "brawn"})
    assert T.state_of(table, "Kira") == ffg_play.buy_characteristic(sheet, "brawn").state
    unchanged(T.rule, table, "Kira", "buy_characteristic", "Kira", {"characteristic": "brawn"}, match="above 6")
    unchanged(T.rule, table, "Jax", "buy_skill", "Kira", {"skill": "gunnery"}, error=T.TableAccessError)
    table = T.rule(table, "GM", "sheet_check", "Kira", {"characteristic": "agility", "skill": "gunnery",
                                                       "difficulty": "hard"})
    assert table.log[-1].check == "3a vs 3d"
    unchanged(T.rule, table, "Kira", "hit_minions", "Kira", {"name": "x", "damage": 1}, match="Encounter")
    unchanged(T.rule, table, "Kira", "buy_skill", None, {"skill": "gunnery"}, match="CharacterSheet")
    unchanged(T.rule, table, "Kira", "buy_skill", "Nobody", {"skill": "gunnery"}, match="Nobody")


def test_rules_that_make_a_state_or_give_a_value():
    table, _ = seated("ffg", scene=None)
    unchanged(T.rule, table, "GM", "hit_minions", args={"name": "x", "damage": 1}, match="none yet")
    table = T.rule(table, "GM", "roll_destiny", args={"players": 3})  # its seed from the table's sequence
    seed = table.log[-1].args["seed"]
    assert T.state_of(table) == ffg_play.roll_destiny(3, seed=seed)
    table = T.rule(table, "GM", "assist", args={"pool": "2a1p vs 2d", "helper_skill": 1, "skill": 1})
    assert table.log[-1].check == "2a1p1b vs 2d" and table.play == table.log[-1].before
    wild, _ = seated("d6wild", wild_scene())
    wild = T.rule(wild, "GM", "initiative_checks")
    assert wild.log[-1].result == {"Kel": "3D", "trooper": "2D"}


def test_bad_input_names_the_problem_and_changes_nothing():
    table, _ = seated("ffg", Encounter())
    unchanged(T.rule, table, "GM", "fly", match="fly")
    unchanged(T.rule, table, "Eve", "add_minions", args={"group": {}}, error=T.TableAccessError)
    unchanged(T.rule, table, "GM", "add_minions", args={"group": {"name": "x"}}, match="group")
    unchanged(T.rule, table, "GM", "add_minions", args={"squad": {}}, match="squad")
    unchanged(T.rule, table, "GM", "hit_minions", args={"name": "x"}, match="damage")
    unchanged(T.rule, table, "GM", "hit_minions", args={"name": "x", "damage": "lots"}, match="damage")
    plain, _ = seated("standard")
    unchanged(T.rule, plain, "GM", "anything", match="no rules of play")
    with pytest.raises(de.DiceError):
        T.new_table("x", "no-such-system", "GM")
    with pytest.raises(T.TableError):
        T.new_table("x", "ffg", "GM", scene={"destiny": {}})  # a scene is a state, not loose JSON
    with pytest.raises(T.TableError):
        T.new_table("x", "ffg", "GM", scene=PoolState())  # another ruleset's state


def test_the_log_as_json_refuses_another_version_or_a_broken_log():
    table, _ = seated("standard")
    table = T.reroll(T.roll(table, "Kira", "3d6"), "Kira")
    text = T.export_log(table)
    assert T.import_log(text) == table
    document = json.loads(text)
    with pytest.raises(T.TableFormatError, match="format 99"):
        T.import_log(json.dumps({**document, "format": 99}))
    with pytest.raises(T.TableFormatError, match="not a table"):
        T.import_log('{"kind": "something else"}')
    with pytest.raises(T.TableFormatError, match="not a table"):
        T.import_log("{not json")
    broken = json.loads(text)
    del broken["table"]["log"][2]
    with pytest.raises(T.TableFormatError, match="steps"):
        T.import_log(json.dumps(broken))
    forward = json.loads(text)
    forward["table"]["log"][3]["reroll_of"] = 9
    with pytest.raises(T.TableFormatError):
        T.import_log(json.dumps(forward))
    wrong = json.loads(text)
    wrong["table"]["log"][3]["kind"] = "teleport"
    with pytest.raises(T.TableFormatError, match="kind"):
        T.import_log(json.dumps(wrong))


# ---- the fairness test, and a test of the test


def test_chi2_survival_function_against_closed_forms():
    for x in (0.01, 0.5, 1.0, 3.84, 10.0, 40.0):
        assert T.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
        assert T.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
        assert T.chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9)
    # critical values of the published tables: the 5 % and 1 % points
    assert T.chi2_sf(18.307, 10) == pytest.approx(0.05, abs=2e-5)
    assert T.chi2_sf(37.566, 20) == pytest.approx(0.01, abs=2e-5)
    assert T.chi2_sf(0.0, 3) == 1.0 and T.chi2_sf(1e6, 3) == 0.0 and T.chi2_sf(5.0, 0) == 1.0


class Loaded(random.Random):
    """A seeded generator biased on purpose: high faces come up more often than they should."""

    def random(self) -> float:
        return super().random() ** 0.6


def rolled(expression: str, n: int, seed, system: str = "standard", member: str = "Kira"):
    table, _ = seated(system, seed=None)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    for _ in range(n):
        table = T.roll(table, member, expression, seed=rng, time=WHEN)
    return table


def test_the_fairness_test_flags_a_loaded_die():
    table = rolled("2d6", 300, Loaded(4))
    fit = T.fairness(table)
    assert fit.rolls == 300 and fit.p_value < 1e-4 and fit.groups[0].tested
    assert T.luck(table)["Kira"].mean > 0.6
    assert T.fairness(table, method="g").p_value < 1e-4
    assert T.fairness(rolled("3D vs 12", 300, Loaded(5), "d6")).p_value < 1e-4


def test_the_fairness_test_passes_fair_dice_at_its_stated_rate():
    """Fair dice over many seeds: the p-value falls below 5 % about 5 % of the time (a binomial bound), and is
    spread over (0, 1) (a tenth below 0.1 and above 0.9, roughly)."""
    seeds = 160
    p_values = []
    for seed in range(seeds):
        table = rolled("2d6", 60, seed)
        table = T.roll(table, "Jax", "1d20", seed=seed)
        p_values.append(T.fairness(table).p_value)
    below = sum(p < 0.05 for p in p_values)
    assert 1 <= below <= 18, below  # 8 expected; 18 is over 3.5 standard deviations above
    assert 4 <= sum(p < 0.1 for p in p_values) <= 30 and 4 <= sum(p > 0.9 for p in p_values) <= 30
    lucky = [T.luck(rolled("1d6", 40, 1000 + s))["Kira"].mean for s in range(40)]
    assert abs(sum(lucky) / len(lucky) - 0.5) < 0.03


def test_fairness_by_member_and_expression_and_bins():
    table = rolled("1d6", 120, 1)
    table = T.roll(table, "Jax", "1d6", seed=Loaded(2))
    fit = T.fairness(table, member="Kira", expression="1d6")
    group = fit.groups[0]
    # 120 rolls of a d6: each face expects 20, six bins, five degrees of freedom
    assert (fit.rolls, group.dof, len(group.bins), sum(group.observed)) == (120, 5, 6, 120)
    assert group.expected == pytest.approx([20.0] * 6)
    by_hand = sum((o - 20) ** 2 / 20 for o in group.observed)
    assert group.statistic == pytest.approx(by_hand) and fit.p_value == pytest.approx(T.chi2_sf(by_hand, 5))
    few = T.fairness(table, member="Jax")
    assert few.rolls == 1 and few.dof == 0 and few.p_value == 1.0 and not few.groups[0].tested
    small = T.fairness(rolled("1d6", 12, 3))  # 2 expected per face: faces pooled so that each bin expects 5
    assert all(e >= 5 for e in small.groups[0].expected) and sum(small.groups[0].observed) == 12
    with pytest.raises(de.DiceError):
        T.fairness(table, method="t")


def test_luck_is_the_mean_percentile():
    six = [s for s in range(200) if de.roll("1d6", seed=s).total == 6][:3]
    one = next(s for s in range(200) if de.roll("1d6", seed=s).total == 1)
    table, _ = seated("standard")
    for seed in six:
        table = T.roll(table, "Kira", "1d6", seed=seed)
    table = T.roll(table, "Jax", "1d6", seed=one)
    luck = T.luck(table)
    assert luck["Kira"].rolls == 3 and luck["Kira"].mean == pytest.approx(float(Fraction(11, 12)))
    assert luck["Jax"].mean == pytest.approx(1 / 12) and luck["GM"].rolls == 0 and luck["GM"].mean is None
