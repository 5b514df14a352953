"""Classic D6 (rule text ``000``): behaviour that the mutation run of ``systems/d6`` found untested, each
expectation enumerated here from the text."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from diceengine.systems.d6 import Wound
from diceengine.systems.d6 import fight as F

from tests.helpers import chi2_passes


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
