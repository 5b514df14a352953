"""The percentile plug-in, tested as a user's package: found through its entry point, its grammar read from
its own package, and its odds against an enumeration of every face written here from the rules."""

from __future__ import annotations

import itertools
import json
import random
from importlib import resources
from importlib.metadata import entry_points

import numpy as np
import pytest
from dice_percentile import PercentileSystem

import diceengine as de

EXTRAS = {"": (1, min), " bonus": (2, min), " bonus 2": (3, min), " penalty": (2, max), " penalty 2": (3, max)}


def level(roll: int, skill: int) -> str:
    """The rules, written again: 01 critical; 100 a fumble, 96-100 too under a skill of 50; a fifth of the
    skill extreme, half hard, the skill regular (rounded down)."""
    if roll == 1:
        return "critical"
    if roll == 100 or (skill < 50 and roll >= 96):
        return "fumble"
    if 5 * roll <= skill:
        return "extreme"
    if 2 * roll <= skill:
        return "hard"
    return "regular" if roll <= skill else "failure"


RANK = {"fumble": -1, "failure": 0, "regular": 1, "hard": 2, "extreme": 3, "critical": 4}


def enumerate_check(skill: int, extra: str) -> dict[int, float]:
    """d100 value -> probability, over every face of every tens die and of the units die."""
    tens, keep = EXTRAS[extra]
    counts: dict[int, int] = {}
    for faces in itertools.product(range(10), repeat=tens + 1):
        *tens_faces, units = faces
        values = [100 if t == 0 and units == 0 else 10 * t + units for t in tens_faces]
        kept = keep(values)
        counts[kept] = counts.get(kept, 0) + 1
    total = 10 ** (tens + 1)
    return {v: c / total for v, c in counts.items()}


class Faces(random.Random):
    """Throws the given ten-sided faces (0-9) in order: tens dice first, then the units die."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self._draws = [(f + 0.5) / 10 for f in faces]

    def random(self) -> float:
        return self._draws.pop(0)


def test_found_through_its_entry_point_with_its_own_grammar():
    (ep,) = [ep for ep in entry_points(group="diceengine.systems") if ep.name == "percentile"]
    assert ep.value == "dice_percentile:PercentileSystem"
    system = de.systems()["percentile"]
    assert type(system) is PercentileSystem and system.grammar_package is None  # default: its own package
    beside = resources.files("dice_percentile").joinpath("percentile.lark").read_text(encoding="utf-8")
    assert system.grammar_source() == beside and "%override ?start: check" in beside


@pytest.mark.parametrize("skill", [1, 12, 40, 49, 50, 60, 99, 100])
@pytest.mark.parametrize("extra", list(EXTRAS))
def test_exact_odds_are_the_enumeration(skill, extra):
    expected = enumerate_check(skill, extra)
    for difficulty, needed in (("", 1), (" vs hard", 2), (" vs extreme", 3)):
        dist = de.distribution(f"d100<={skill}{extra}{difficulty}", system="percentile")
        assert dist.marginal("roll") == pytest.approx(expected, abs=1e-12)
        for value, p in dist.marginal("level").items():
            assert p == pytest.approx(sum(q for v, q in expected.items() if RANK[level(v, skill)] == value), abs=1e-12)
        assert dist.chance("success") == pytest.approx(
            sum(q for v, q in expected.items() if RANK[level(v, skill)] >= needed), abs=1e-12)


def test_hand_counted_chances():
    # one die a hundred faces: a skill of 60 succeeds on 01-60, hard on 01-30, extreme on 01-12
    assert de.distribution("d100<=60", system="percentile").chance("success") == pytest.approx(0.60)
    assert de.distribution("d100<=60 vs hard", system="percentile").chance("success") == pytest.approx(0.30)
    assert de.distribution("d100<=60 vs extreme", system="percentile").chance("success") == pytest.approx(0.12)
    # under 50, 96 to 100 fumble: 5 faces in 100
    fumble = de.distribution("d100<=40", system="percentile").probability(lambda o: o.level == -1)
    assert fumble == pytest.approx(0.05)
    assert de.distribution("d100<=50", system="percentile").probability(lambda o: o.level == -1) == pytest.approx(0.01)


def test_bonus_and_penalty_dice_keep_the_best_and_the_worst():
    # tens 2 and 5, units 3: 23 with a bonus die, 53 with a penalty die
    bonus = de.roll("d100<=45 bonus", system="percentile", seed=Faces([2, 5, 3]))
    assert (bonus.roll, bonus.level, bonus.success) == (23, 1, True)
    assert str(bonus) == "d100<=45 bonus: [20, ~50~, 3] = 23, regular success"
    penalty = de.roll("d100<=45 penalty", system="percentile", seed=Faces([2, 5, 3]))
    assert (penalty.roll, penalty.success) == (53, False)
    assert [d.kept for d in penalty.dice] == [False, True, True] and [d.added for d in penalty.dice] == [False, True, False]
    # 00 and 0 read 100: a bonus die's 30 is better, a penalty die keeps the fumble
    assert de.roll("d100<=60 bonus", system="percentile", seed=Faces([0, 3, 0])).roll == 30
    worst = de.roll("d100<=60 penalty", system="percentile", seed=Faces([0, 3, 0]))
    assert (worst.roll, worst.level) == (100, -1)
    assert str(de.roll("d100<=50 vs hard", system="percentile", seed=Faces([3, 1]))) == \
        "d100<=50 vs hard: [30, 1] = 31, regular success, falls short of hard"


def test_rolls_agree_with_their_dice():
    rng = random.Random(7)
    for _ in range(300):
        skill, extra = rng.randint(1, 100), rng.choice(list(EXTRAS))
        r = de.roll(f"d100<={skill}{extra}", system="percentile", seed=rng)
        *tens, units = r.dice
        (kept,) = [d for d in tens if d.kept]
        assert r.roll == (kept.value + units.value or 100) and RANK[level(r.roll, skill)] == r.level
        assert len(tens) == EXTRAS[extra][0]
        assert json.loads(r.model_dump_json()) == json.loads(r.model().model_dump_json())


def test_samples_follow_the_exact_odds():
    n = 200_000
    for expression in ("d100<=40 bonus 2", "d100<=70 penalty"):
        drawn = de.sample(expression, n, system="percentile", seed=11)
        exact = de.distribution(expression, system="percentile").marginal("level")
        observed = np.array([np.count_nonzero(drawn["level"] == v) for v in exact])
        expected = n * np.array(list(exact.values()))
        chi2 = float(((observed - expected) ** 2 / expected).sum())
        assert chi2 < 25.0, (expression, chi2)  # 5 degrees of freedom at most: p < 0.0002 beyond 25


@pytest.mark.parametrize("expression", ["d100<=0", "d100<=101", "d100<=50 bonus 3", "d100<=50 penalty 0",
                                        "d100<=50 bonus 99999999999", "2d6", "d100<=50 vs easy", "d100<=5/0"])
def test_bad_checks_get_the_engines_errors(expression):
    with pytest.raises(de.DiceError) as err:
        de.roll(expression, system="percentile")
    assert err.value.column is not None and "^" in str(err.value)


def test_catalogue_and_ladder_parse():
    system = de.systems()["percentile"]
    for _, expression in system.catalogue():
        de.distribution(expression, system="percentile")
    characters, difficulties = system.ladder()
    for (_, character), (_, difficulty) in itertools.product(characters, difficulties):
        de.roll(f"{character} vs {difficulty}", system="percentile", seed=1)
