"""D6 with the Wild Die in play (text 003): the movement the table of multiple actions leaves the round,
kept with its actions; unconsciousness for 2D6 minutes after as many stuns as the Strength code has
dice, and waking when the minutes have run."""

from __future__ import annotations

import pytest
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild.play import WildCharacter, WildScene

from tests.helpers import refused, roundtrip


def scene() -> WildScene:
    kel = WildCharacter(name="Kel", codes={"blaster": "4D+2", "dodge": "3D+1", "strength": "3D", "perception": "3D"})
    trooper = WildCharacter(name="trooper", player=False,
                            codes={"blaster": "4D", "dodge": "2D", "strength": "2D", "perception": "2D"})
    return WildScene(characters={"Kel": kel, "trooper": trooper})


# the text's table, written out: « 1 - 100% / 2 1D 80% / 3 2D 60% / 4 3D 40% / 5 4D 20% / ...+1... 0% »
TABLE = {1: 100, 2: 80, 3: 60, 4: 40, 5: 20, 6: 0, 7: 0}


@pytest.mark.parametrize("actions, movement", TABLE.items())
def test_003_the_movement_of_the_round_is_kept_with_its_declared_actions(actions, movement):
    """003: « TABLE DES ACTIONS MULTIPLES / Nombre d'actions déclarées / Pénalité à TOUTES les actions du
    round / Capacité de mouvement »."""
    state = roundtrip(play.declare(scene(), "Kel", actions).state)
    assert state.characters["Kel"].movement == movement
    if movement:
        after = roundtrip(play.move(state, "Kel", movement).state)
        kel = after.characters["Kel"]
        assert (kel.moved, kel.taken) == (movement, 1)  # a move is one of the declared actions
        # nothing left of the round's movement (one action: nothing left at all)
        refused(play.move, after, "Kel", 1, match="0 per cent" if actions > 1 else "all 1")
    refused(play.move, state, "Kel", movement + 1, match=f" {movement} per cent")


def test_003_moving_and_shooting_share_the_round():
    """003: « Il effectue une action (le plus souvent soit un déplacement, soit une action liée à un
    tirage de compétence) »: two actions, a move at 80% and a shot at -1D."""
    state = roundtrip(play.declare(scene(), "Kel", 2).state)
    refused(play.move, state, "trooper", 10, match="not declared")
    state = roundtrip(play.move(state, "Kel", 50).state)
    state = roundtrip(play.move(state, "Kel", 30).state)  # 50 + 30: the 80% the table leaves
    refused(play.act, state, "Kel", "blaster", 10, match="all 2")  # the two actions are taken
    state = roundtrip(play.declare(scene(), "Kel", 2).state)
    state = roundtrip(play.move(state, "Kel", 80).state)
    assert play.act(state, "Kel", "blaster", 10).check == "3D+2 vs 10"
    # the next round gives the whole movement back
    state = roundtrip(play.end_round(state).state)
    assert (state.characters["Kel"].movement, state.characters["Kel"].moved) == (100, 0)


def test_003_a_reaction_that_adds_an_action_takes_the_next_step_of_the_table():
    """003: « Sinon c'est une action supplémentaire (palier suivant dans la table des actions multiples) »:
    a reaction after the one declared action makes two, 80% of the movement."""
    state = roundtrip(play.declare(scene(), "Kel", 1).state)
    state = roundtrip(play.move(state, "Kel", 50).state)
    state = roundtrip(play.react(state, "Kel", "dodge").state)
    kel = state.characters["Kel"]
    assert (kel.declared, kel.movement, kel.moved) == (2, 80, 50)
    # a reaction using an action left does not change the table's step
    state = roundtrip(play.declare(scene(), "Kel", 2).state)
    assert play.react(state, "Kel", "dodge").state.characters["Kel"].movement == 80


def test_003_stunned_as_often_as_the_strength_dice_unconscious_2d6_minutes_then_awake():
    """003: « Un personnage sonné un nombre de fois supérieur ou égal à son code de Vigueur est inconscient
    2D6 minutes »: Kel's Strength is 3D, his third stun knocks him out; 7 minutes are 84 rounds of five
    seconds; then he wakes."""
    state = roundtrip(scene())
    for margin in (-2, 1):  # a light stun and a stun: still awake, no minutes to roll
        step = play.take_damage(state, "Kel", margin)
        assert step.check is None
        state = roundtrip(step.state)
    refused(play.record_unconscious, state, "Kel", 7, match="not unconscious")
    step = play.take_damage(state, "Kel", 0)  # the third stun
    assert (step.check, step.system) == ("2d6", "standard")
    got = step.distribution().marginal("total")
    assert got == pytest.approx({t: (6 - abs(t - 7)) / 36 for t in range(2, 13)})  # two plain dice, no Wild Die
    state = roundtrip(step.state)
    refused(play.declare, state, "Kel", 1, match="unconscious")
    refused(play.record_unconscious, state, "Kel", 13, match="2 to 12")
    refused(play.record_unconscious, state, "Kel", 1, match="2 to 12")
    state = roundtrip(play.record_unconscious(state, "Kel", 7).state)
    assert state.characters["Kel"].unconscious_until == 1 + 7 * 12
    refused(play.record_unconscious, state, "Kel", 7, match="already recorded")
    # a fourth stun while out rolls no new minutes
    assert play.take_damage(state, "Kel", 2).check is None
    refused(play.pass_minutes, state, 0, match="at least 1")
    state = roundtrip(play.pass_minutes(state, 6).state)  # 6 minutes: 72 rounds, still out
    assert state.round == 73 and state.characters["Kel"].unconscious
    for _ in range(11):
        state = roundtrip(play.end_round(state).state)
    assert state.round == 84 and state.characters["Kel"].unconscious
    state = roundtrip(play.end_round(state).state)  # round 85: the 84 rounds have run
    kel = state.characters["Kel"]
    assert not kel.unconscious and (kel.stuns_taken, kel.unconscious_until, kel.stuns) == (0, None, [])
    assert play.act(play.declare(state, "Kel", 1).state, "Kel", "blaster", 10).check == "4D+2 vs 10"


def test_003_minutes_unrecorded_keep_the_character_out():
    """Until the 2D6 are recorded, no time wakes the character."""
    state = scene()
    for margin in (0, 0, 0):
        state = play.take_damage(state, "Kel", margin).state
    state = roundtrip(play.pass_minutes(state, 12).state)
    assert state.characters["Kel"].unconscious
