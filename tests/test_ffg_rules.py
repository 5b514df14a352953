"""FFG rules (text 004): building a pool by the text, upgrades, the destiny pool, initiative and its ties,
critical injuries, characteristics and skills within their bounds, and the refusals of each rule."""

from __future__ import annotations

import random

import pytest
from diceengine.systems import ffg

import diceengine as de
from tests.test_ffg import PUBLISHED

SIDES = {die: len(faces) for die, faces in PUBLISHED.items()}


class Faces(random.Random):
    """A seed that throws the given (die, face number 1..sides) in order."""

    def __init__(self, faces: list[tuple[str, int]]) -> None:
        super().__init__(0)
        self._draws = [(f - 0.5) / SIDES[d] for d, f in faces]

    def random(self) -> float:
        return self._draws.pop(0)


def message(call) -> str:
    with pytest.raises(de.DiceError) as info:
        call()
    return info.value.message


def test_upgrades_on_the_difficulty_side():
    pool = ffg.DicePool(difficulty=2)
    assert pool.upgrade(1, "difficulty") == ffg.DicePool(difficulty=1, challenge=1)
    # two purple dice upgraded, then none left: the third upgrade adds a purple die
    assert pool.upgrade(3, "difficulty") == ffg.DicePool(difficulty=1, challenge=2)
    assert ffg.DicePool(challenge=2).downgrade(1, "difficulty") == ffg.DicePool(difficulty=1, challenge=1)
    assert ffg.DicePool(challenge=2).downgrade(5, "difficulty") == ffg.DicePool(difficulty=2)
    assert ffg.DicePool(ability=1, proficiency=1).downgrade() == ffg.DicePool(ability=2)
    # the ability side is the default and leaves the difficulty alone
    assert ffg.DicePool(ability=1, difficulty=1).upgrade() == ffg.DicePool(proficiency=1, difficulty=1)
    assert ffg.DicePool(ability=1, difficulty=1).upgrade(2) == ffg.DicePool(ability=1, proficiency=1, difficulty=1)
    assert ffg.DicePool(proficiency=1, challenge=1).downgrade() == ffg.DicePool(ability=1, challenge=1)


def test_build_pool_by_the_text():
    # 004: green dice = the higher of characteristic and skill, the lower number of them upgraded
    for char in range(1, 7):
        for skill in range(6):
            pool = ffg.build_pool(char, skill)
            assert (pool.ability, pool.proficiency) == (max(char, skill) - min(char, skill), min(char, skill))
    pool = ffg.build_pool(3, 1, "hard", boost=1, setback=2, force=1)
    assert pool == ffg.DicePool(2, 1, 1, 3, 0, 2, 1)
    assert ffg.build_pool(2, 0, "formidable").difficulty == 5
    assert ffg.build_pool(2, 0, "Daunting").difficulty == 4
    assert ffg.build_pool(2, 0, "easy") == ffg.DicePool(ability=2, difficulty=1)
    assert ffg.build_pool(2, 0, 0) == ffg.DicePool(ability=2)
    assert ffg.build_pool(2, 0, 5).difficulty == 5
    assert ffg.build_pool(2, 1, opponent=(1, 0)) == ffg.DicePool(ability=1, proficiency=1, difficulty=1)
    assert ffg.build_pool(2, 1, opponent=(6, 5)) == ffg.DicePool(ability=1, proficiency=1, difficulty=1, challenge=5)
    # 1 green 1 yellow; two upgrades: 0 green 2 yellow, then a green added; one downgrade: 2 green 1 yellow
    assert ffg.build_pool(2, 1, 2, upgrades=2, downgrades=1) == ffg.DicePool(ability=2, proficiency=1, difficulty=2)


@pytest.mark.parametrize("call, msg", [
    (lambda: ffg.build_pool(0, 1), "a characteristic is 1 to 6, not 0"),
    (lambda: ffg.build_pool(7, 1), "a characteristic is 1 to 6, not 7"),
    (lambda: ffg.build_pool(3, 6), "a skill rank is 0 to 5, not 6"),
    (lambda: ffg.build_pool(3, -1), "a skill rank is 0 to 5, not -1"),
    (lambda: ffg.build_pool(3, 1, opponent=(7, 1)), "the opponent's characteristic is 1 to 6, not 7"),
    (lambda: ffg.build_pool(3, 1, opponent=(2, 6)), "the opponent's skill rank is 0 to 5, not 6"),
    (lambda: ffg.build_pool(3, 1, "impossible"),
     "unknown difficulty 'impossible' (known: simple, easy, average, hard, daunting, formidable)"),
    (lambda: ffg.build_pool(3, 1, 6), "a difficulty is 0 to 5 purple dice, not 6"),
    (lambda: ffg.build_pool(3, 1, -1), "a difficulty is 0 to 5 purple dice, not -1"),
    (lambda: ffg.DestinyPool(0, 2).spend("light"), "no light side token to spend"),
    (lambda: ffg.DestinyPool(2, 0).spend("dark"), "no dark side token to spend"),
    (lambda: ffg.DestinyPool(2, 2).spend("grey"), "side is 'light' or 'dark', not 'grey'"),
    (lambda: ffg.destiny_pool(0), "1 to 60 players roll for the destiny pool"),
    (lambda: ffg.destiny_pool(61), "1 to 60 players roll for the destiny pool"),
    (lambda: ffg.minions_defeated(10, 5, 0, 4), "a wound threshold is at least 1 and a group is not negative"),
    (lambda: ffg.minions_defeated(10, 5, 5, -1), "a wound threshold is at least 1 and a group is not negative"),
    (lambda: ffg.characteristic_cost(0), "a characteristic is at least 1, not 0"),
    (lambda: ffg.characteristic_cost(6), "a characteristic cannot go above 6"),
    (lambda: ffg.characteristic_cost(5, created=False), "a characteristic cannot go above 5 at creation"),
    (lambda: ffg.skill_cost(-1), "a skill rank is 0 to 5, not -1"),
    (lambda: ffg.skill_cost(5), "a skill cannot go above rank 5"),
    (lambda: ffg.talent_cost(0), "talent tiers are 1 to 5"),
    (lambda: ffg.talent_cost(6), "talent tiers are 1 to 5"),
])
def test_rule_errors_say_what_is_wrong(call, msg):
    assert message(call) == msg


def test_rule_bounds_are_accepted():
    assert ffg.build_pool(1, 0) == ffg.DicePool(ability=1)
    assert ffg.build_pool(6, 5) == ffg.DicePool(ability=1, proficiency=5)
    assert ffg.characteristic_cost(1) == 20
    assert ffg.characteristic_cost(4, created=False) == 50  # 4 -> 5 at creation: 5 x 10
    assert [ffg.skill_cost(r) for r in range(5)] == [5, 10, 15, 20, 25]
    assert [ffg.skill_cost(r, career=False) for r in range(5)] == [10, 15, 20, 25, 30]
    assert [ffg.talent_cost(t) for t in range(1, 6)] == [5, 10, 15, 20, 25]
    assert ffg.minions_defeated(30, 5, 1, 0) == 0  # an empty group loses nobody
    assert ffg.minions_defeated(7, 5, 1, 9) == 1  # 2 wounds over a threshold of 1: one full threshold exceeded
    assert ffg.minions_defeated(3, 5, 5, 4) == 0  # soak never gives wounds back
    assert len(_destiny(1)) == 1 and len(_destiny(60)) == 60


def _destiny(players: int) -> list[int]:
    faces = [("force", 1)] * players
    pool = ffg.destiny_pool(players, seed=Faces(faces))
    assert pool == ffg.DestinyPool(0, players)
    return [0] * players


def test_spending_destiny_without_a_pool():
    assert ffg.DestinyPool(1, 0).spend("light") == (ffg.DestinyPool(0, 1), None)
    assert ffg.DestinyPool(0, 1).spend("dark") == (ffg.DestinyPool(1, 0), None)
    # one die upgraded, not two: the players' green die turns yellow, the game master's purple die red
    assert ffg.DestinyPool(1, 0).spend("light", ffg.DicePool(ability=2, difficulty=2)) == (
        ffg.DestinyPool(0, 1), ffg.DicePool(ability=1, proficiency=1, difficulty=2))
    assert ffg.DestinyPool(0, 1).spend("dark", ffg.DicePool(ability=2, difficulty=2)) == (
        ffg.DestinyPool(1, 0), ffg.DicePool(ability=2, difficulty=1, challenge=1))
    assert ffg.DestinyPool(0, 1).spend("dark", ffg.DicePool(ability=1)) == (
        ffg.DestinyPool(1, 0), ffg.DicePool(ability=1, difficulty=1))


def test_initiative_ties_and_pairs():
    checks = {"Trooper": (1, 0), "Han": (1, 0), "Leia": (1, 1), "Droid": (0, 5)}
    assert ffg.initiative_order(checks, players=["Han"]) == ["Leia", "Han", "Trooper", "Droid"]
    assert ffg.initiative_order(checks, players=["Han"], players_first=False) == ["Leia", "Trooper", "Han", "Droid"]
    assert ffg.initiative_order(checks) == ["Leia", "Trooper", "Han", "Droid"]
    assert ffg.initiative_order({"a": (-1, 3), "b": (0, -2)}) == ["b", "a"]


def test_critical_injury_without_a_modifier():
    assert ffg.critical_injury(seed=_d100(64)) == 64


def _d100(face: int) -> random.Random:
    class D100(random.Random):
        def random(self) -> float:
            return (face - 0.5) / 100

    return D100(0)


def test_ffg_bounds_of_characteristics_and_skills():
    for bad in [{"characteristic": 0, "skill": 1}, {"characteristic": 7, "skill": 1}, {"characteristic": 2, "skill": 6},
                {"characteristic": 2, "skill": -1}, {"characteristic": 2, "skill": 1, "opponent": (7, 0)},
                {"characteristic": 2, "skill": 1, "opponent": (3, 6)}, {"characteristic": 2, "skill": 1, "opponent": (0, 1)}]:
        with pytest.raises(de.DiceError):
            ffg.build_pool(**bad)
    assert ffg.build_pool(6, 5, 5).expression == "1a5p vs 5d"
    assert ffg.build_pool(1, 0, opponent=(1, 0)).expression == "1a vs 1d"
    for bad in (0, -3, 6, 7):
        with pytest.raises(de.DiceError):
            ffg.characteristic_cost(bad)
    assert ffg.characteristic_cost(1) == 20 and ffg.characteristic_cost(2) == 30  # the text: 2 -> 3 costs 30
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(5, created=False)
    for bad in (-1, 5):
        with pytest.raises(de.DiceError):
            ffg.skill_cost(bad)
    assert ffg.skill_cost(0) == 5 and ffg.skill_cost(1) == 10 and ffg.skill_cost(1, career=False) == 15


def test_ffg_initiative_by_cool_or_vigilance_with_the_tie_rule():
    from diceengine.systems.ffg import NarrativeOutcome

    def check(s, a):
        return NarrativeOutcome(s, a, 0, 0, 0, 0, s > 0)

    checks = {"trooper": check(2, 1), "Kira": check(2, 1), "Oskara": check(3, 0), "officer": check(1, 4)}
    assert ffg.initiative_order(checks, players=("Kira", "Oskara")) == ["Oskara", "Kira", "trooper", "officer"]
    assert ffg.initiative_order(checks, players=("Kira", "Oskara"), players_first=False)[:3] ==\
        ["Oskara", "trooper", "Kira"]  # without the published tie rule: the order given
    assert ffg.initiative_order({"a": (0, 0), "b": (1, -2)}) == ["b", "a"]  # plain (success, advantage) pairs
    assert "initiative_order" in ffg.RULES
