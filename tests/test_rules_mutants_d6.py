"""Classic D6 (rule text ``000``): behaviour that the mutation run of ``systems/d6`` found untested, each
expectation enumerated here from the text."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from diceengine.systems.d6 import Wound, play
from diceengine.systems.d6 import fight as F
from diceengine.systems.d6.play import D6Character, D6Scene

from tests.helpers import chi2_passes, refused


def totals(dice: int, pips: int = 0) -> Counter:
    out: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        out[sum(faces) + pips] += 1 / 6 ** dice
    return out


@pytest.mark.parametrize("players", [(True, False), (False, True)])
def test_d6_duel_tied_attack_goes_to_the_player_character(players):
    """Text 000: on a tied opposed roll the player character beats the non-player character. Range 0 (every
    shot hits) and damage 5D+2 against Strength 1D (7 or more against 6 or less: at least wounded) make the
    first to act the only one hit, so who is hit shows who won the attack rolls, ties included."""
    same = {"attack": "2D", "damage": "5D+2", "strength": "1D"}
    setup = F.D6Setup(a=[F.D6Fighter(name="a", player=players[0], **same)],
                      b=[F.D6Fighter(name="b", player=players[1], **same)], range=0)
    twod = totals(2)
    tie = sum(p * p for p in twod.values())
    ahead = (1 - tie) / 2
    a_first = ahead + tie if players[0] else ahead
    n = 40_000
    battle = F.D6Battle(setup, n)
    battle.step(np.random.default_rng(5))
    hit_a = battle.level[0] >= Wound.WOUNDED
    hit_b = battle.level[1] >= Wound.WOUNDED
    assert not (hit_a & hit_b).any() and (hit_a | hit_b).all()
    assert chi2_passes(hit_b.tolist(), {True: a_first, False: 1 - a_first})


def test_a_treatment_refused_says_who_and_why():
    """Text 000: the dead are past treatment; a stun is no wound."""
    codes = {"blaster": "5D+1", "strength": "3D"}
    dead = D6Scene(characters={"Roark": D6Character(name="Roark", codes=codes, health=Wound.MORTALLY_WOUNDED,
                                                    mortal_round=1, dead=True)})
    refused(play.treat, dead, "Roark", "bacta_tank", match=r"^Roark is dead$")
    unhurt = D6Scene(characters={"Roark": D6Character(name="Roark", codes=codes)})
    refused(play.treat, unhurt, "Roark", match=r"^Roark has no wound to treat$")
