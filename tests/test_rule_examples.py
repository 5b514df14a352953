"""The worked examples of the rule texts, replayed through the engine with the dice the texts give."""

from __future__ import annotations

import random

import pytest
from diceengine.systems import d6, d20pool, ffg
from diceengine.systems.ffg.dice import FACES

import diceengine as de


class Dice(random.Random):
    """A generator that throws the given faces, in order: ``(face, sides)`` pairs."""

    def __init__(self, *throws: tuple[int, int]) -> None:
        super().__init__(0)
        self.values = [(face - 0.5) / sides for face, sides in throws]

    def random(self) -> float:
        return self.values.pop(0)


def d6s(*faces: int) -> list[tuple[int, int]]:
    return [(f, 6) for f in faces]


def test_roark_and_the_imperial_wrestle_for_the_controls():
    # 3D (Roark, a player character) against 2D+2: Roark rolls 8, the GM 11 for the Imperial
    r = de.roll("3D vs 2D+2", system="d6", seed=Dice(*d6s(2, 3, 3, 4, 5)))
    assert (r.total, r.total - r.margin, r.success) == (8, 11, False)
    # the GM grants Roark +2: 8 + 2 = 10 against the Imperial's 9
    r = de.roll("3D+2 vs 2D+2", system="d6", seed=Dice(*d6s(2, 3, 3, 3, 4)))
    assert (r.total, r.total - r.margin, r.success) == (10, 9, True)


def test_roark_repairs_the_repulsors():
    r = de.roll("2D+2 vs 10", system="d6", seed=Dice(*d6s(4, 6)))
    assert r.total == 12 and r.success and str(r) == "2D+2 vs 10: 4 + 6 + 2 = 12, success by 2"


def test_jana_misses_the_dodging_roark():
    # Jana's blaster 5D+2 at short range (10); Roark's dodge 4D+1 rolls 14: her 22 is not enough
    throws = d6s(4, 4, 4, 4, 4) + d6s(4, 3, 3, 3)  # Jana 20 + 2 = 22; Roark 13 + 1 = 14
    r = de.roll("5D+2 vs 10 + 4D+1", system="d6", seed=Dice(*throws))
    assert r.total == 22 and r.total - r.margin == 24 and not r.success
    assert d6.reaction_difficulty(10, 14) == 24


def test_roark_doubles_his_strength_with_a_force_point():
    assert d6.modified_code("3D", force_point=True, strength_vs_damage=True, wounded=True) == d6.Code(6, 0)
    assert d6.force_point_outcome("neutral") == (True, False, False, False)


def test_boba_fett_hits_the_crate():
    # base difficulty 15, three-quarters cover: the GM's 4D roll of 15 brings it to 30
    r = de.roll("4D", system="d6", seed=Dice(*d6s(3, 4, 4, 4)))
    assert r.total == 15
    assert [d6.cover_result(x, 15, r.total) for x in (14, 15, 29, 30)] == ["miss", "cover", "cover", "hit"]
    # the whole shot as one expression: Fett's roll against 15 plus the cover dice
    shot = de.distribution("5D vs 15+4D", system="d6").chance("success")
    assert shot < de.distribution("5D vs 15", system="d6").chance("success")


def test_wild_die_explodes_and_flags():
    r = de.roll("4D+2 vs 15", system="d6wild", seed=Dice(*d6s(3, 5, 1, 6, 4)))
    assert str(r) == "4D+2 vs 15: 3 + 5 + 1 + wild 6!+4 + 2 = 21, success by 6"  # the design card's line
    assert (r.explosions, r.complication) == (1, False)
    r = de.roll("3D", system="d6wild", seed=Dice(*d6s(5, 6, 1)))
    assert r.complication and r.total == 12
    r = de.roll("3D", system="d6wild", seed=Dice(*d6s(5, 6, 1)), complication="remove_highest")
    assert r.complication and r.total == 5


def test_force_powers_of_the_d20_text():
    # a Jedi's Force lightning (opposed alignment) with 3 successes: 5 + 1 - 2 = 4 PF
    r = de.roll("2d20<=12", system="d20pool", seed=Dice((1, 20), (15, 20)))
    assert r.successes == 2  # a natural 1 is two successes
    assert d20pool.force_power_cost(3, "opposed") == (4, 0)
    # a dark side user's Force grip with 5 successes: 5 - 1 - 4 -> 1 PF and 1 Impulsion
    r = de.roll("3d20<=12 spec 3", system="d20pool", seed=Dice((1, 20), (9, 20), (20, 20)))
    assert (r.successes, r.complications) == (5, 0)  # 4 for the 1 with a specialisation, a 20 is a plain failure
    assert d20pool.force_power_cost(r.successes, "matching") == (1, 1)
    r = de.roll("2d20<=12 vs 1", system="d20pool", seed=Dice((20, 20), (3, 20)))
    assert (r.successes, r.complications, r.success, r.impulsion) == (1, 1, True, 0)


def ffg_throw(*faces: tuple[str, str]) -> Dice:
    """Throws of narrative dice by face text, in the pool's order (positive dice first)."""
    throws = []
    for die, face in faces:
        index = FACES[die].index(face)
        throws.append((index + 1, len(FACES[die])))
    return Dice(*throws)


def test_ffg_cancellation_examples():
    # 5 successes and 3 failures: a success of 2; 2 advantages and 5 threats: a threat of 3
    seed = ffg_throw(("proficiency", "SS"), ("proficiency", "SS"), ("ability", "SA"), ("ability", "A"),
                     ("difficulty", "FF"), ("difficulty", "TT"), ("difficulty", "FT"), ("difficulty", "TT"))
    r = de.roll("2p2a vs 4d", system="ffg", seed=seed)
    assert (r.success, r.advantage) == (2, -3)
    # no triumph and a despair: one critical failure and one failure, which cancels one success;
    # the despair itself stays
    seed = ffg_throw(("ability", "SS"), ("challenge", "X"))
    r = de.roll("1a vs 1c", system="ffg", seed=seed)
    assert (r.success, r.despair, r.succeeded) == (1, 1, True)


def test_ffg_pools_of_the_text():
    # Intellect 5 and Computers 4: four yellow dice and one green
    assert ffg.build_pool(5, 4).expression == "1a4p"
    # skill 5 and Intellect 4: still four yellow and one green
    assert ffg.build_pool(4, 5).expression == "1a4p"
    # rank 1 in a career skill 5 XP, outside the career 10; rank 2: 10 and 15
    assert (ffg.skill_cost(0), ffg.skill_cost(0, career=False)) == (5, 10)
    assert (ffg.skill_cost(1), ffg.skill_cost(1, career=False)) == (10, 15)
    # Brawn 2 -> 3 costs 30; three ranks of Grit on one tree 10 + 15 + 20 = 45
    assert ffg.characteristic_cost(2) == 30
    assert sum(ffg.talent_cost(t) for t in (2, 3, 4)) == 45


@pytest.mark.parametrize("damage, down", [(10, 0), (11, 1), (15, 1), (16, 2), (20, 2)])
def test_the_rebel_shoots_four_stormtroopers(damage, down):
    assert ffg.minions_defeated(damage, soak=5, wound_threshold=5, group_size=4) == down
