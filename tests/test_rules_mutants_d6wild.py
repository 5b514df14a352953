"""D6 with the Wild Die (rule text ``003``): behaviour that the mutation run of ``systems/d6wild`` found
untested, each expectation read from the text or enumerated here."""

from __future__ import annotations

import pytest
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild.play import WildCharacter, WildScene

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import clear_engine_caches, refused, roundtrip


def test_a_skill_written_with_a_hyphen_or_spaces_is_the_same_skill():
    """« space transports » and « Space-Transports » name the skill ``space_transports``: put in training
    under one spelling, it is trained under the other (2D, unused, with a teacher: 2 days, then 2D+1)."""
    kel = WildCharacter(name="Kel", character_points=10, codes={"space_transports": "2D", "strength": "3D"})
    state = roundtrip(play.advance_skill(WildScene(characters={"Kel": kel}), "Kel", "space transports",
                                         used=False, teacher=True).state)
    assert [(t.skill, t.days_left) for t in state.characters["Kel"].training] == [("space_transports", 2)]
    state = roundtrip(play.train(state, "Kel", 2, skill="Space-Transports").state)
    kel = state.characters["Kel"]
    assert (kel.codes["space_transports"], kel.training, kel.character_points) == ("2D+1", [], 8)


@pytest.mark.parametrize("complication", ["none", "flag", "remove_highest"])
@pytest.mark.parametrize("expression", ["4D", "6D+2", "3D vs 15"])
def test_the_exact_cost_follows_the_work_counted(expression, complication):
    """The estimate of the exact odds' cost stays within a quarter of the work they count
    (``diceengine.pmf.WORK``): a complication that removes the highest die adds the order statistic of the
    normal dice (about three times the work of 4D), which the other readings of the Wild Die's 1 do not.
    Ratios measured on this code: 1.01 to 1.05 (work units are counted, not timed)."""
    clear_engine_caches()
    cost = api.plan(expression, "d6wild", complication=complication).exact_cost()
    WORK.work = 0
    de.distribution(expression, "d6wild", complication=complication)
    assert 0.75 * WORK.work <= cost.work <= 1.25 * WORK.work, (cost.work, WORK.work)


def test_refusals_of_training_and_unconscious_minutes_say_who():
    """Text 003: one pip of a skill in training at a time; « inconscient 2D6 minutes », recorded once."""
    kel = WildCharacter(name="Kel", character_points=10, codes={"dodge": "3D+1", "strength": "3D"})
    state = play.advance_skill(WildScene(characters={"Kel": kel}), "Kel", "dodge", used=False).state
    refused(play.advance_skill, state, "Kel", "dodge", used=False, match=r"^Kel is already training dodge$")
    out = WildCharacter(name="Kel", codes={"strength": "3D"}, stuns_taken=3, unconscious_until=40)   # 3 stuns on 3D
    refused(play.record_unconscious, WildScene(characters={"Kel": out}), "Kel", 5,
            match=r"^Kel's minutes unconscious are already recorded$")
