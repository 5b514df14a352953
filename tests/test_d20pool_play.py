"""The d20 pool in play (text 001, ``diceengine.systems.d20pool.play``): Impulsion and Menace pools, a party
spending Impulsion on a Force power, checks begun and resolved, and the refusals of each rule of play."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pydantic
import pytest
from diceengine.systems.d20pool import play
from diceengine.systems.d20pool import play as pool
from diceengine.systems.d20pool.play import PoolState

import diceengine as de
from diceengine.cli import main
from tests.helpers import refused, roundtrip


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


def refusal(rule, state, *args, **kwargs) -> str:
    """The rule refuses with the engine's error and leaves ``state`` as it was; the message."""
    before = state.model_dump_json() if hasattr(state, "model_dump_json") else None
    with pytest.raises(de.DiceValueError) as info:
        rule(state, *args, **kwargs)
    if before is not None:
        assert state.model_dump_json() == before
    return info.value.message


# ---------------------------------------------------------------- d20 pool: Impulsion, Menace, Force points


def test_beginning_checks_refusals():
    state = PoolState(impulsion=0, menace=2)
    assert refusal(pool.begin_check, state, "Kael", 9, 3, 1, impulsion_dice=1) ==\
        "the extra dice cost 1 Impulsion, the pool holds 0"
    assert refusal(pool.begin_check, state, "trooper", 9, 3, 1, impulsion_dice=1, menace_dice=1, npc=True) ==\
        "the extra dice cost 3 Menace, the pool holds 2"
    for impulsion, menace in ((-1, 0), (0, -1), (2, 2)):
        assert refusal(pool.begin_check, state, "Kael", 9, 3, 1, impulsion_dice=impulsion, menace_dice=menace) ==\
            "at most 3 extra dice, bought with Impulsion or Menace"
    busy = pool.begin_check(state, "Kael", 9, 3, 1).state
    assert refusal(pool.begin_check, busy, "Vess", 9, 3, 1) == "Kael's check is not resolved yet"
    assert refusal(pool.begin_force_power, PoolState(force_points={"Vess": 0}), "Vess", "grip", 8, 2) ==\
        "Vess has no Force points"
    msg = refusal(pool.begin_force_power, PoolState(force_points={"Vess": 3}), "Vess", "grip", 8, 2, alignment="grey")
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
    msg = refusal(pool.resolve, step.state, successes=1)  # 2 Force points
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
    assert refusal(pool.resolve, PoolState(), 2) == "no check to resolve: begin one first"
    assert refusal(pool.resolve, state, -1) == "successes and complications are not negative"
    assert refusal(pool.resolve, state, 1, -1) == "successes and complications are not negative"


def test_the_pools_refuse_what_they_cannot_pay():
    state = PoolState(impulsion=2, menace=2)
    assert pool.spend_impulsion(state, 2).state.impulsion == 0
    assert pool.spend_impulsion(state, 1).state.impulsion == 1   # one point: the least that can be spent
    assert refusal(pool.spend_impulsion, state, 3) == "the party holds 2 Impulsion, not 3"
    assert refusal(pool.spend_impulsion, state, 0) == "spend at least one point"
    assert pool.spend_menace(state, 1).state.menace == 1
    assert refusal(pool.spend_menace, state, 3) == "the game master holds 2 Menace, not 3"
    assert refusal(pool.spend_menace, state, 0) == "spend at least one point"
    assert pool.add_menace(state, 1).state.menace == 3
    assert refusal(pool.add_menace, state, 0) == "add at least one point"
    assert refusal(pool.drop_check, state) == "no check to drop"
    gained = pool.gain_force_points(pool.gain_force_points(state, "Vess", 2).state, "Vess", 1).state
    assert gained.force_points == {"Vess": 3}
    assert pool.gain_force_points(gained, "Kael", 1).state.force_points == {"Vess": 3, "Kael": 1}
    assert refusal(pool.gain_force_points, state, "Vess", 0) == "gain at least one point"


def test_a_power_resolved_for_someone_without_force_points_is_refused():
    # a state edited by hand (JSON): the character has no entry in force_points; they hold 0, not nothing
    state = PoolState(force_points={}, pending=pool.PendingCheck(who="Vess", expression="2d20<=10", difficulty=1,
                                                                 power="grip"))
    assert refusal(pool.resolve, state, successes=2).endswith("Vess holds 0")
