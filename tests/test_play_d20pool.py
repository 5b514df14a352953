"""The d20 pool in play (text 001): Impulsion and Menace pools, a party spending Impulsion on a Force power."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pydantic
import pytest
from diceengine.systems.d20pool import play
from diceengine.systems.d20pool.play import PoolState

import diceengine as de
from diceengine.cli import main


def roundtrip(state: PoolState) -> PoolState:
    """A bot stores the state as JSON between messages: nothing is lost."""
    back = PoolState.model_validate_json(state.model_dump_json())
    assert back == state
    return back


def refused(rule, state, *args, **kwargs) -> None:
    """An illegal action raises the engine's error and leaves the state as it was."""
    before = state.model_dump_json()
    with pytest.raises(de.DiceError):
        rule(state, *args, **kwargs)
    assert state.model_dump_json() == before


def success_chance(dice: int, threshold: int, difficulty: int) -> Fraction:
    """Enumerate every face of every die: a 1 is 2 successes, <= threshold 1, a 20 none."""
    hits = 0
    for faces in product(range(1, 21), repeat=dice):
        s = sum(2 if f == 1 else 1 if f <= threshold and f != 20 else 0 for f in faces)
        hits += s >= difficulty
    return Fraction(hits, 20 ** dice)


def test_the_party_spends_impulsion_on_a_force_power():
    state = PoolState(impulsion=2, force_points={"Kael": 6, "Vess": 5})
    roundtrip(state)

    # Kael, a Jedi, calls Force lightning (opposed to his alignment), buying a third die with Impulsion
    step = play.begin_force_power(state, "Kael", "éclair de Force", attribute=9, discipline=3,
                                  alignment="opposed", impulsion_dice=1)
    assert step.check == "3d20<=12 vs 1" and step.system == "d20pool"
    assert step.state.impulsion == 1 and step.state.pending.power == "éclair de Force"
    assert step.distribution().chance("success") == pytest.approx(float(success_chance(3, 12, 1)), abs=1e-12)
    assert state.impulsion == 2 and state.pending is None  # the old state is untouched
    state = roundtrip(step.state)

    refused(play.begin_check, state, "Vess", 8, 2, 1)  # one check at a time
    # the text: 3 successes, opposed: 5 + 1 - 2 = 4 PF
    state = roundtrip(play.resolve(state, successes=3).state)
    assert state.force_points == {"Kael": 2, "Vess": 5} and state.impulsion == 1 and state.pending is None

    # Vess, a dark side user, Force grip (matching); two extra dice would cost 1 + 2 = 3 Impulsion: refused
    refused(play.begin_force_power, state, "Vess", "poigne de Force", 8, 2, alignment="matching",
            impulsion_dice=2)
    step = play.begin_force_power(state, "Vess", "poigne de Force", 8, 2, alignment="matching", impulsion_dice=1)
    assert step.check == "3d20<=10 vs 1" and step.state.impulsion == 0
    state = roundtrip(step.state)
    # the text: 5 successes, matching: 5 - 1 - 4 = 1 PF + 1 Impulsion; a complication gives Menace
    state = roundtrip(play.resolve(state, successes=5, complications=1).state)
    assert state.force_points["Vess"] == 4 and state.impulsion == 1 and state.menace == 2

    refused(play.spend_impulsion, state, 2)  # the pool holds 1
    refused(play.resolve, state, 2)  # nothing pending

    # Kael has 2 PF: a power that would cost him 3 is refused when resolved, and the check stays pending
    state = play.begin_force_power(state, "Kael", "soin", 9, 3, alignment="neutral", base_cost=5).state
    refused(play.resolve, state, successes=3)  # 5 - 2 = 3 PF
    dropped = play.drop_check(state)
    assert dropped.check is None
    with pytest.raises(de.DiceError, match="no roll"):
        dropped.roll(seed=1)
    state = roundtrip(dropped.state)

    # a plain check: two dice bought with Menace (1 + 2 given to the game master), successes beyond 2
    step = play.begin_check(state, "Kael", 9, 3, 2, menace_dice=2)
    assert step.check == "4d20<=12 vs 2" and step.state.menace == 2 + 3 and step.state.impulsion == 1
    state = roundtrip(play.resolve(step.state, successes=4).state)
    assert state.impulsion == 1 + 2 and state.menace == 5

    # an NPC's extra dice come out of the Menace pool; its extra successes are not the party's Impulsion
    step = play.begin_check(state, "inquisiteur", 10, 4, 1, specialisation=True, menace_dice=2, npc=True)
    assert step.check == "4d20<=14 spec 4 vs 1" and step.state.menace == 2
    state = roundtrip(play.resolve(step.state, successes=6).state)
    assert state.impulsion == 3 and state.menace == 2
    refused(play.begin_check, state, "inquisiteur", 10, 4, 1, menace_dice=2, npc=True)  # 3 Menace, 2 held
    refused(play.spend_menace, state, 3)
    assert play.spend_menace(state, 2).state.menace == 0


def test_the_pools_never_go_below_zero():
    with pytest.raises(pydantic.ValidationError):
        PoolState(impulsion=-1)
    state = PoolState()
    refused(play.begin_check, state, "A", 8, 2, 1, impulsion_dice=1)
    refused(play.begin_force_power, state, "A", "x", 8, 2)  # no Force points at all
    refused(play.begin_check, state, "A", 8, 2, 1, impulsion_dice=2, menace_dice=2)  # five extra dice
    capped = PoolState(impulsion_cap=3, impulsion=2)
    step = play.begin_check(capped, "A", 10, 2, 0)
    assert play.resolve(step.state, successes=4).state.impulsion == 3


def test_the_rules_runner_plays_a_state(capsys):
    state = PoolState(impulsion=2).model_dump_json()
    assert main(["rule", "d20pool", "begin_check", f"state={state}", "who=Kael", "attribute=9", "discipline=3",
                 "difficulty=2", "impulsion_dice=1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["check"] == "3d20<=12 vs 2" and out["state"]["impulsion"] == 1
    assert main(["rule", "d20pool", "spend_impulsion", f"state={state}", "points=3"]) == 2
    assert "holds 2" in capsys.readouterr().err
    assert main(["rule", "d20pool"]) == 0
    assert "begin_force_power" in capsys.readouterr().out
