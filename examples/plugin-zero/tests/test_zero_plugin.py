"""The zero plug-in, tested as a user's package: found through its entry point, and its rolls, samples and exact
odds against an enumeration of every face written here from its rule (a face meeting the point counts zero)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from importlib.metadata import entry_points

import pytest
from dice_zero import Zero

import diceengine as de


def zeroed(sides: int, hit) -> list[int]:
    """The faces of a dM after ``z``: a face meeting ``hit`` is 0."""
    return [0 if hit(f) else f for f in range(1, sides + 1)]


def clamp_min(faces: list[int], low: int) -> list[int]:
    return [max(f, low) for f in faces]


def odds(faces: list[int], count: int, score) -> dict[int, float]:
    """score(dice) -> its probability, over every throw of ``count`` dice of ``faces``."""
    found: Counter = Counter(score(throw) for throw in itertools.product(faces, repeat=count))
    total = len(faces) ** count
    return {k: v / total for k, v in found.items()}


def exploding(faces: list[int], on: int, depth: int = 40) -> dict[int, float]:
    """One die of ``faces`` exploding on the face ``on`` (its value after the map): the chains to ``depth``."""
    out: Counter = Counter()

    def chain(total: int, p: float, left: int) -> None:
        for f in faces:
            q = p / len(faces)
            if f == on and left:
                chain(total + f, q, left - 1)
            else:
                out[total + f] += q
    chain(0, 1.0, depth)
    return dict(out)


D6Z1 = zeroed(6, lambda f: f == 1)
CASES = {
    "3d6z1": odds(D6Z1, 3, sum),
    "3d6z": odds(D6Z1, 3, sum),                                           # bare: the lowest face
    "4d6z<=2kh3": odds(zeroed(6, lambda f: f <= 2), 4, lambda t: sum(sorted(t)[1:])),
    "5d6z1>=1": odds(D6Z1, 5, lambda t: sum(1 for f in t if f >= 1)),     # the dice that did not come up zero
    "4d6z1mi2": odds(clamp_min(D6Z1, 2), 4, sum),                         # zeroed, then raised to 2
    "4d6mi3z3": odds([0 if f == 3 else f for f in clamp_min(list(range(1, 7)), 3)], 4, sum),  # 1-3 raised, then 0
    "4d6z3mi3": odds(clamp_min(zeroed(6, lambda f: f == 3), 3), 4, sum),  # the order written: 3 zeroed, then raised
    "2d10z>=(4+5)": odds(zeroed(10, lambda f: f >= 9), 2, sum),           # a computed point
    "1d4z1!": exploding(zeroed(4, lambda f: f == 1), 4),                  # explodes on the highest face left
}


def test_the_modifier_is_found_through_its_entry_point():
    (ep,) = [ep for ep in entry_points(group="diceengine.modifiers") if ep.name == "z"]
    assert ep.load() is Zero
    assert de.roll("4d6z1", seed=1).expression == "4d6z1"


@pytest.mark.parametrize("expression", list(CASES))
def test_exact_odds_are_the_enumeration(expression):
    want = CASES[expression]
    got: Counter = Counter()
    for outcome, p in de.distribution(expression).items():
        got[outcome.total] += p
    assert set(got) <= set(want)  # an explosion's longest chains are left out, below 1e-12 in all
    for total, p in want.items():
        assert got[total] == pytest.approx(p, abs=1e-12), (expression, total)


@pytest.mark.parametrize("expression", list(CASES))
def test_samples_follow_the_enumeration(expression):
    # a seeded sample: the same draws every run; each frequency within 6 standard deviations of the enumeration
    n = 100_000
    want = CASES[expression]
    totals = Counter(de.sample(expression, n, seed=11)["total"].tolist())
    assert set(totals) <= set(want)
    for total, p in want.items():
        assert abs(totals[total] / n - p) <= 6 * math.sqrt(p * (1 - p) / n) + 1e-9, (expression, total)


@pytest.mark.parametrize("expression", ["3d6z1", "4d6z<=2kh3", "4d6z1mi2"])
def test_every_roll_shows_the_mapped_faces(expression):
    faces = {"3d6z1": set(D6Z1), "4d6z<=2kh3": set(zeroed(6, lambda f: f <= 2)),
             "4d6z1mi2": set(clamp_min(D6Z1, 2))}[expression]
    for seed in range(200):
        roll = de.roll(expression, seed=seed)
        assert {d.value for d in roll.dice} <= faces
        assert roll.total == sum(d.value for d in roll.dice if d.kept)
        assert roll.total in CASES[expression]
        assert str(roll).startswith(f"{expression}: [")


def test_the_highest_face_left_is_the_critical_one():
    # cs without a point marks the highest face of the die as it is after z: 8 on a d10 whose 9 and 10 are zero
    want: Counter = Counter()
    for throw in itertools.product(zeroed(10, lambda f: f >= 9), repeat=2):
        want[sum(1 for f in throw if f == 8)] += 1 / 100
    got: Counter = Counter()
    for outcome, p in de.distribution("2d10z>=9cs").items():
        got[outcome.critical_successes] += p
    assert got.keys() == want.keys()
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12)


def test_misspelt_letters_are_refused_with_a_guess():
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6zz1")
    assert "did you mean z?" in str(err.value)
    assert err.value.column == 3
