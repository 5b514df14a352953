"""FFG narrative dice (text 004): exact odds against every face combination, samples, rules."""

from __future__ import annotations

import itertools
import random

import pytest
from diceengine.systems import ffg
from diceengine.systems.ffg.dice import FACES

import diceengine as de
from tests.helpers import chi2_passes

LETTER = {"a": "ability", "p": "proficiency", "b": "boost", "d": "difficulty", "c": "challenge", "s": "setback",
          "f": "force"}


def brute(dice):
    """Every face combination, read symbol by symbol."""
    rows = {}
    total = 1
    for die in dice:
        total *= len(FACES[die])
    for faces in itertools.product(*(FACES[d] for d in dice)):
        text = "".join(faces)
        succ = text.count("S") + text.count("R")
        fail = text.count("F") + text.count("X")
        key = (succ - fail, text.count("A") - text.count("T"), text.count("R"), text.count("X"),
               text.count("L"), text.count("D"), succ - fail > 0)
        rows[key] = rows.get(key, 0) + 1 / total
    return rows


POOLS = ["a", "p", "b", "d", "c", "s", "f", "2a1p", "1p1c", "1a1d1b1s", "1p1c1f", "2p2c", "1f1f1a1c", "3a1d"]


@pytest.mark.parametrize("pool", POOLS)
def test_exact_odds_match_every_face_combination(pool):
    dice = []
    for count, letter in __import__("re").findall(r"(\d*)([a-z])", pool):
        dice += [LETTER[letter]] * int(count or 1)
    want = brute(dice)
    got = {tuple(o): p for o, p in de.distribution(pool, system="ffg").items()}
    assert set(got) == {k for k, p in want.items() if p > 0}
    for key, p in want.items():
        assert got[key] == pytest.approx(p, abs=1e-14)


def test_published_means():
    a = de.distribution("1a", system="ffg")
    assert a.mean("success") == pytest.approx(0.625) and a.mean("advantage") == pytest.approx(0.625)
    p = de.distribution("1p", system="ffg")
    assert p.mean("success") == pytest.approx(10 / 12) and p.mean("advantage") == pytest.approx(8 / 12)
    assert p.mean("triumph") == pytest.approx(1 / 12)
    c = de.distribution("1c", system="ffg")
    assert c.mean("despair") == pytest.approx(1 / 12)
    f = de.distribution("1f", system="ffg")
    assert f.mean("light") == pytest.approx(8 / 12) and f.mean("dark") == pytest.approx(8 / 12)


@pytest.mark.parametrize("pool", ["2a1p1b vs 2d1s", "3a2p vs 3d", "1p1c2f", "2p2c1b1s"])
def test_samples_and_rolls_match_exact(pool):
    dist = de.distribution(pool, system="ffg")
    s = de.sample(pool, 60_000, system="ffg", seed=4)
    for field in ("success", "advantage", "triumph", "despair", "light", "dark"):
        assert chi2_passes(s[field], dist.marginal(field)), field
    pairs = list(zip(s["success"].tolist(), s["advantage"].tolist()))
    joint = {}
    for o, p in dist.items():
        joint[(o.success, o.advantage)] = joint.get((o.success, o.advantage), 0) + p
    assert chi2_passes(pairs, joint)
    rolls = [de.roll(pool, system="ffg", seed=i).success for i in range(4000)]
    assert chi2_passes(rolls, dist.marginal("success"))


def test_notation_forms_are_the_same_pool():
    base = de.distribution("2a1p1b vs 2d1s", system="ffg").marginal("success")
    for text in ["2A1P1B VS 2D1S", "2a + 1p + 1b vs 2d + 1s", "2 ability 1 proficiency 1 boost vs 2 difficulty 1 setback",
                 "aapb vs dds", "2 abilities 1 proficiency 1 boost vs 2 difficulties 1 setback"]:
        assert de.distribution(text, system="ffg").marginal("success") == pytest.approx(base)


def test_roll_shows_each_die_and_the_net_result():
    r = de.roll("2a1p1b vs 2d1s", system="ffg", seed=6)
    assert len(r.dice) == 7 and all(d.face for d in r.dice)
    assert r.succeeded == (r.success > 0)
    text = str(r)
    assert "proficiency" in text and "difficulty" in text and ("succeeded" in text or "failed" in text)


def test_triumph_counts_once_and_is_not_cancelled():
    # a proficiency triumph against a challenge despair: net 0 success, one of each
    dist = de.distribution("1p1c", system="ffg")
    both = [o for o, _ in dist.items() if o.triumph and o.despair]
    assert both and all(o.success == 0 and o.advantage == 0 for o in both)


def test_bad_pools():
    for bad in ["", "2x", "vs 2d", "2a vs", "61a", "0a"]:
        with pytest.raises(de.DiceError):
            de.roll(bad, system="ffg")


def test_pool_from_a_character():
    # characteristic 3, ranks 2: two yellow and one green; average difficulty
    pool = ffg.build_pool(3, 2, "average")
    assert (pool.ability, pool.proficiency, pool.difficulty) == (1, 2, 2)
    assert ffg.build_pool(2, 4).ability == 2 and ffg.build_pool(2, 4).proficiency == 2
    assert ffg.build_pool(5, 4).expression == "1a4p"
    # opposed: the opponent's characteristic 3 and ranks 1 give two purple and one red
    opp = ffg.build_pool(2, 2, opponent=(3, 1))
    assert (opp.difficulty, opp.challenge) == (2, 1)
    assert opp.expression == "2p vs 2d1c"
    assert 0 < opp.distribution().chance("succeeded") < 1


def test_upgrades_and_downgrades():
    pool = ffg.DicePool(ability=1)
    up = pool.upgrade(3)  # green -> yellow, then no green left: add one, then upgrade it
    assert (up.ability, up.proficiency) == (0, 2)
    assert ffg.build_pool(2, 0, upgrades=1, downgrades=2).proficiency == 0  # extra downgrades are ignored
    assert ffg.build_pool(2, 0, upgrades=1, downgrades=2).ability == 2
    hard = ffg.build_pool(2, 1, 3, difficulty_upgrades=2, difficulty_downgrades=1)
    assert (hard.difficulty, hard.challenge) == (2, 1)
    assert ffg.build_pool(2, 1, "simple", difficulty_upgrades=1).difficulty == 1


def test_destiny_pool():
    # four players roll faces 1 (dark), 7 (two dark), 8 (light), 12 (two light) of the published table
    faces = iter([(f - 0.5) / 12 for f in (1, 7, 8, 12)])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert ffg.destiny_pool(4, seed=rng) == ffg.DestinyPool(light=3, dark=3)
    pool = ffg.build_pool(2, 1, 2)
    spent, upgraded = ffg.DestinyPool(2, 1).spend("light", pool)
    assert spent == ffg.DestinyPool(1, 2) and upgraded.proficiency == pool.proficiency + 1
    spent, harder = ffg.DestinyPool(2, 1).spend("dark", pool)
    assert spent == ffg.DestinyPool(3, 0) and harder.challenge == 1
    with pytest.raises(de.DiceError):
        ffg.DestinyPool(0, 1).spend("light")


def test_stormtrooper_minions():
    # four stormtroopers, soak 5, wound threshold 5
    assert ffg.minions_defeated(10, 5, 5, 4) == 0
    assert ffg.minions_defeated(11, 5, 5, 4) == 1
    assert ffg.minions_defeated(15, 5, 5, 4) == 1
    assert [ffg.minions_defeated(d, 5, 5, 4) for d in range(16, 21)] == [2] * 5
    assert ffg.minions_defeated(100, 5, 5, 4) == 4


def test_critical_injury_and_initiative():
    faces = iter([36.5 / 100])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert ffg.critical_injury(10, seed=rng) == 37 + 10
    def check(success, advantage):
        return ffg.NarrativeOutcome(success, advantage, 0, 0, 0, 0, success > 0)

    checks = {"Greedo": check(1, 3), "Han": check(2, -1), "Leia": check(2, 1), "Chewie": check(0, 4)}
    assert ffg.initiative_order(checks) == ["Leia", "Han", "Greedo", "Chewie"]


def test_advancement():
    assert ffg.characteristic_cost(2) == 30  # 2 -> 3 costs 3 x 10
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(5, created=False)
    assert ffg.characteristic_cost(5) == 60
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(6)
    assert ffg.skill_cost(0) == 5 and ffg.skill_cost(1) == 10 and ffg.skill_cost(1, career=False) == 15
    with pytest.raises(de.DiceError):
        ffg.skill_cost(5)
    assert [ffg.talent_cost(t) for t in (2, 3, 4)] == [10, 15, 20]  # Grit: 10 + 15 + 20 = 45
    assert ffg.talent_cost(5) == 25  # Dedication
