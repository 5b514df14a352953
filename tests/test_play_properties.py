"""Random walks through the rules of play: every action gives a new state or the engine's error, an
error leaves the state as it was, every state survives JSON, every check is rollable."""

from __future__ import annotations

from typing import Any

from diceengine.systems.d6 import play as d6_play
from diceengine.systems.d6wild import play as d6wild_play
from diceengine.systems.d20pool import play as d20pool_play
from diceengine.systems.ffg import play as ffg_play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine.api import plan
from tests.conftest import examples
from tests.test_d6_play import brawl_scene, roark_scene
from tests.test_d6wild_play import scene as wild_scene

NAMES = st.sampled_from(["Roark", "Jana", "trooper 1", "Kara", "thug", "Ben", "nobody"])
SKILLS = st.sampled_from(["blaster", "dodge", "strength", "brawling", "melee", "sense", "lifting", "juggling"])
DIFFICULTIES = st.one_of(st.integers(-5, 40), st.sampled_from(["short", "long", "moderate", "3D", "x", "10+2D"]))
SMALL = st.integers(-3, 30)

D6_ACTIONS = st.one_of(
    st.tuples(st.just(d6_play.declare), NAMES, st.integers(-1, 6),
              st.fixed_dictionaries({"movement": st.sampled_from(["stand", "walk", "run", "crawl", "fly"]),
                                     "metres": st.integers(-1, 12), "stand_up": st.booleans(),
                                     "drop_prone": st.booleans(), "turn": st.integers(0, 180)})),
    st.tuples(st.just(d6_play.act), NAMES, SKILLS, DIFFICULTIES),
    st.tuples(st.just(d6_play.attack), NAMES, NAMES, SKILLS, DIFFICULTIES,
              st.sampled_from(["ranged", "grenade", "brawling", "melee", "lightsaber", "orbital"])),
    st.tuples(st.just(d6_play.react), NAMES,
              st.sampled_from(["dodge", "brawling_parry", "melee_parry", "lightsaber_parry", "deflect", "x"])),
    st.tuples(st.just(d6_play.record_reaction), NAMES, st.sampled_from(["dodge", "melee_parry", "deflect"]), SMALL),
    st.tuples(st.just(d6_play.take_damage), NAMES, SMALL, SMALL),
    st.tuples(st.just(d6_play.damage), NAMES, NAMES, st.sampled_from(["ranged", "brawling", "melee", "lightsaber"]),
              st.sampled_from([None, "4D", "0D", "x"])),
    st.tuples(st.just(d6_play.take_cover), NAMES, st.sampled_from(["none", "half", "peeking", "total", "tree"])),
    st.tuples(st.just(d6_play.grenade_blast), NAMES, DIFFICULTIES),
    st.tuples(st.just(d6_play.spend_force_point), NAMES, st.sampled_from(["evil", "heroic", "bad"])),
    st.tuples(st.just(d6_play.death_check), NAMES),
    st.tuples(st.just(d6_play.record_death_roll), NAMES, st.integers(2, 12)),
    st.tuples(st.just(d6_play.prepare), NAMES),
    st.tuples(st.just(d6_play.next_segment)),
    st.tuples(st.just(d6_play.end_round)),
)

WILD_NAMES = st.sampled_from(["Kel", "trooper", "nobody"])
WILD_ACTIONS = st.one_of(
    st.tuples(st.just(d6wild_play.declare), WILD_NAMES, st.integers(-1, 6)),
    st.tuples(st.just(d6wild_play.act), WILD_NAMES, SKILLS, DIFFICULTIES, st.booleans()),
    st.tuples(st.just(d6wild_play.attack), WILD_NAMES, WILD_NAMES, SKILLS, DIFFICULTIES),
    st.tuples(st.just(d6wild_play.react), WILD_NAMES, SKILLS),
    st.tuples(st.just(d6wild_play.record_reaction), WILD_NAMES, SMALL),
    st.tuples(st.just(d6wild_play.take_damage), WILD_NAMES, st.integers(-5, 20)),
    st.tuples(st.just(d6wild_play.damage), WILD_NAMES, st.sampled_from(["4D", "0D", "x"]),
              st.sampled_from([0, 2, "1D", "y"])),
    st.tuples(st.just(d6wild_play.spend_force_point), WILD_NAMES, st.booleans()),
    st.tuples(st.just(d6wild_play.spend_character_point), WILD_NAMES),
    st.tuples(st.just(d6wild_play.end_round)),
)

POOL_ACTIONS = st.one_of(
    st.tuples(st.just(d20pool_play.begin_check), st.sampled_from(["Kael", "npc"]), st.integers(-1, 14),
              st.integers(-1, 6), st.integers(-1, 6), st.booleans(), st.integers(-1, 4), st.integers(-1, 4),
              st.booleans()),
    st.tuples(st.just(d20pool_play.begin_force_power), st.sampled_from(["Kael", "Vess"]), st.just("power"),
              st.integers(0, 13), st.integers(0, 5), st.sampled_from(["matching", "opposed", "neutral", "grey"])),
    st.tuples(st.just(d20pool_play.resolve), st.integers(-1, 12), st.integers(-1, 3)),
    st.tuples(st.just(d20pool_play.drop_check)),
    st.tuples(st.just(d20pool_play.spend_impulsion), st.integers(-1, 5)),
    st.tuples(st.just(d20pool_play.spend_menace), st.integers(-1, 5)),
    st.tuples(st.just(d20pool_play.add_menace), st.integers(-1, 5)),
)

GROUPS = st.sampled_from(["squad", "jawas"])
FFG_ACTIONS = st.one_of(
    st.tuples(st.just(ffg_play.spend_destiny), st.sampled_from(["players", "gm", "droid"]),
              st.sampled_from(["bonus", "penalty", "x"]), st.sampled_from(["2a1p vs 2d", "3a", "1c"])),
    st.tuples(st.just(ffg_play.hit_minions), GROUPS, st.integers(-2, 40)),
    st.tuples(st.just(ffg_play.critical_on_minions), GROUPS, st.integers(-1, 5), st.booleans()),
    st.tuples(st.just(ffg_play.minion_check), GROUPS, st.integers(0, 7), st.sampled_from(["ranged_heavy", "cool"]),
              st.sampled_from([0, 3, 6, "hard", "impossible"])),
)


def walk(state: Any, actions: list[tuple]) -> None:
    for rule, *args in actions:
        kwargs = args.pop() if args and isinstance(args[-1], dict) else {}
        before = state.model_dump_json()
        try:
            step = rule(state, *args, **kwargs)
        except de.DiceError:
            assert state.model_dump_json() == before  # refused: nothing changed
            continue
        assert state.model_dump_json() == before  # rules return new states
        assert type(step.state).model_validate_json(step.state.model_dump_json()) == step.state
        if step.check is not None:
            plan(step.check, step.system, **step.options)  # the check is rollable as given
        state = step.state


PROPERTY = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.lists(D6_ACTIONS, max_size=25), st.sampled_from(["add", "replace"]))
def test_d6_walks(actions, mode):
    scene = roark_scene()
    scene = scene.model_copy(update={"reactions": mode,
                                     "characters": {**scene.characters, **brawl_scene().characters}})
    walk(scene, actions)


@PROPERTY
@given(st.lists(WILD_ACTIONS, max_size=25))
def test_d6wild_walks(actions):
    walk(wild_scene(), actions)


@PROPERTY
@given(st.lists(POOL_ACTIONS, max_size=20))
def test_d20pool_walks(actions):
    walk(d20pool_play.PoolState(impulsion=3, menace=2, force_points={"Kael": 5}), actions)


@PROPERTY
@given(st.lists(FFG_ACTIONS, max_size=20))
def test_ffg_walks(actions):
    squad = ffg_play.MinionGroup(name="squad", size=4, soak=5, wound_threshold=5, group_skills=["ranged_heavy"])
    walk(ffg_play.add_minions(ffg_play.destiny_from_roll(2, 1), squad).state, actions)
