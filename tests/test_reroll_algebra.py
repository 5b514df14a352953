"""Re-roll written once (:mod:`diceengine.algebra.rerolls`): the standard term's re-rolls against ``Die.reroll`` on
generated cases, the algebra's steps against enumerations written here, and a roll and a sample throwing the same
faces up to the cap."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine.algebra import Die, Pool
from diceengine.algebra.rerolls import (
    expected_rerolls,
    rank_choice,
    ranks_left,
    reroll_masses,
    roll_reroll,
    sample_rank_reroll,
    sample_reroll,
)
from diceengine.errors import DiceValueError
from tests.helpers import Scripted, assert_close

_TESTS: dict[str, Callable[[int, int], bool]] = {
    "": lambda f, v: f == v, "<": lambda f, v: f < v, "<=": lambda f, v: f <= v, ">": lambda f, v: f > v,
    ">=": lambda f, v: f >= v, "!=": lambda f, v: f != v,
}


def _cases(n: int) -> list[tuple[str, list[int], Callable[[int], bool], bool, int, int | None]]:
    """``(expression, faces, re-rolled?, once, dice, kept highest)``: dice of a range or listed faces, one or two
    re-roll points, once or until, some kept highest (generated from a fixed seed: the same cases every run)."""
    gen = random.Random(35)
    out = []
    while len(out) < n:
        if gen.random() < 0.5:
            sides = gen.randint(2, 12)
            faces, die = list(range(1, sides + 1)), f"d{sides}"
        else:
            faces = sorted(gen.choice(range(-2, 9)) for _ in range(gen.randint(2, 6)))
            die = "d{" + ",".join(map(str, faces)) + "}"
        once = gen.random() < 0.5
        points = [(gen.choice(list(_TESTS)), gen.randint(1, max(1, max(faces)))) for _ in range(gen.randint(1, 2))]

        def hit(f: int, points: list = points) -> bool:
            return any(_TESTS[op](f, v) for op, v in points)

        if not once and all(map(hit, faces)):
            continue  # refused: the die never stops (its own test)
        count = gen.randint(1, 3)
        keep = gen.randint(1, count) if count > 1 and gen.random() < 0.4 else None
        letters = "ro" if once else "r"
        text = f"{count}{die}" + "".join(f"{letters}{op}{v}" for op, v in points) + (f"kh{keep}" if keep else "")
        out.append((text, faces, hit, once, count, keep))
    return out


@pytest.mark.parametrize("expr, faces, hit, once, count, keep", _cases(60), ids=lambda c: c if isinstance(c, str) else "")
def test_the_terms_re_roll_is_the_algebras(expr, faces, hit, once, count, keep):
    """The term's exact odds and ``Die.reroll`` (summed, or its highest kept by the algebra's pool) agree."""
    die = Die.of(faces).reroll(hit, depth=1 if once else None)
    expected = Pool.of(die, count).highest(keep) if keep else die.repeat(count)
    assert_close(de.distribution(expr).marginal(), dict(expected.items()), tol=1e-12)


def _enumerate_once_or_until(faces: list[int], hit: Callable[[int], bool], depth: int | None) -> dict[int, Fraction]:
    """One die's kept face, by following every sequence of throws (``depth`` re-rolls at most; None: until)."""
    if depth is None:
        kept = [f for f in faces if not hit(f)]
        return {f: Fraction(kept.count(f), len(kept)) for f in set(kept)}
    out: dict[int, Fraction] = {}

    def follow(mass: Fraction, left: int) -> None:
        for f in faces:
            if hit(f) and left:
                follow(mass / len(faces), left - 1)
            else:
                out[f] = out.get(f, Fraction(0)) + mass / len(faces)

    follow(Fraction(1), depth)
    return out


@pytest.mark.parametrize("faces", [[1, 2, 3, 4, 5, 6], [1, 1, 2, 5, 5, 5], [-1, 0, 0, 1]])
@pytest.mark.parametrize("depth", [1, 2, 3, None])
def test_the_masses_match_an_enumeration(faces, depth):
    hit = {min(faces), max(faces) - 1}.__contains__
    values = sorted(set(faces))
    p = np.array([faces.count(v) / len(faces) for v in values])
    got = reroll_masses(p, np.array([hit(v) for v in values]), depth)
    assert_close(dict(zip(values, got.tolist())), _enumerate_once_or_until(faces, hit, depth))


def test_every_face_re_rolled_until_is_refused():
    with pytest.raises(DiceValueError, match="never stops"):
        reroll_masses(np.full(4, 0.25), np.ones(4, dtype=bool), None)
    with pytest.raises(DiceValueError, match="never stops"):
        Die.uniform(3).reroll([1, 2, 3], depth=None)
    assert_close(dict(Die.uniform(3).reroll([1, 2, 3], depth=2).items()), {1: 1 / 3, 2: 1 / 3, 3: 1 / 3})


@pytest.mark.parametrize("q, depth", [(0.0, 5), (1 / 6, 1), (1 / 6, 100), (0.5, 3), (0.9, 2), (1.0, 4)])
def test_expected_rerolls_is_the_sum_of_the_chances_of_each_re_roll(q, depth):
    """The k-th re-roll happens when the k first throws are re-rolled: chance q ** k."""
    assert expected_rerolls(q, depth) == pytest.approx(sum(q ** k for k in range(1, depth + 1)), rel=1e-12)


class _Draws:
    """Faces given in order, each draw counted."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.calls = list(faces), 0

    def __call__(self) -> int:
        self.calls += 1
        return self.faces.pop(0)


@pytest.mark.parametrize("first, thrown, once, cap, kept, gone", [
    (3, [1, 2], False, 100, 3, []),                        # kept at once
    (1, [2, 1, 5], False, 100, 5, [1, 2, 1]),              # until a face misses
    (1, [2, 6], True, 100, 2, [1]),                        # once: the throw stands, re-rolled or not
    (1, [1, 1, 1, 1], False, 3, 9, [1, 1, 1]),             # the cap: three thrown away, then a kept face drawn
    (1, [1], False, 1, 9, [1]),                            # a cap of 1: the first thrown away, then the kept draw
])
def test_the_roll_step(first, thrown, once, cap, kept, gone):
    draw = _Draws(thrown)
    face, away = roll_reroll(first, draw, lambda f: f < 3, once, cap, lambda: 9)
    assert (face, away) == (kept, gone)
    assert draw.calls == len(gone) - (face == 9)  # a throw after each face thrown away, but the kept draw


def _rolled(script: list[list[int]], cap: int) -> list[tuple[int, int]]:
    """``(face kept, faces thrown)`` of each die of ``script`` (its throws, the first included) by the roll step,
    re-rolled under 3 (9: the kept face drawn past the cap)."""
    out = []
    for seq in script:
        draw = _Draws(seq[1:])
        face, _ = roll_reroll(seq[0], draw, lambda f: f < 3, False, cap, lambda: 9)
        out.append((face, 1 + draw.calls + (face == 9)))
    return out


def _sampled(script: list[list[int]], cap: int) -> list[tuple[int, int]]:
    """:func:`_rolled` by the sample step, all the dice at once."""
    values = np.array([seq[0] for seq in script])
    active, rounds, throws = [np.flatnonzero(values < 3)], [0], [1] * len(script)

    def draw_many(k: int) -> np.ndarray:
        rounds[0] += 1
        assert k == len(active[0])
        for i in active[0]:
            throws[i] += 1
        return np.array([script[i][rounds[0]] for i in active[0]])

    def again(idx: np.ndarray, new: np.ndarray) -> np.ndarray:
        active[0] = idx[new < 3]
        return new < 3

    sample_reroll(values, values < 3, draw_many, again, False, cap, lambda idx: np.full(len(idx), 9))
    return [(int(v), n + (v == 9)) for v, n in zip(values, throws)]


@pytest.mark.parametrize("cap", [1, 2, 3, 10])
def test_the_sample_step_throws_what_the_roll_step_throws(cap):
    """Dice re-rolled 0 to 4 times, until and capped: each die's kept face and number of throws as a roll's."""
    script = [[3], [1, 4], [1, 2, 5], [2, 2, 2, 6], [1, 1, 1, 1, 1, 6]]
    assert _sampled(script, cap) == _rolled(script, cap)


class _Always(random.Random):
    """A generator whose every draw is the lowest face."""

    def random(self) -> float:
        return 0.0


class _Low(np.random.Generator):
    """A numpy generator whose every draw is the lowest value asked for, its calls counted."""

    def __init__(self) -> None:
        super().__init__(np.random.PCG64(0))
        self.calls = 0

    def integers(self, low, high=None, size=None, **kwargs):  # type: ignore[override]
        self.calls += 1
        return low if size is None else np.full(size, low, dtype=np.int64)


def test_a_roll_and_a_sample_re_roll_to_the_same_cap():
    """``5000d6r1``: 20,000 throws a roll at most, so each die records 3 re-rolls (the cap), then draws its face
    among 2..6. Always showing 1: a roll records three 1s a die and keeps 2; a sample draws the first faces, two
    rounds of throws, then the kept faces: four calls, the same total."""
    spec = de.api.plan("5000d6r1").root.term.spec
    assert spec.reroll_cap == 3
    roll = de.roll("5000d6r1", seed=_Always())
    assert sum(d.rerolled for d in roll.dice) == 3 * 5000 and roll.total == 2 * 5000
    gen = _Low()
    assert de.sample("5000d6r1", 1, seed=gen)["total"].tolist() == [2 * 5000]
    assert gen.calls == 1 + (spec.reroll_cap - 1) + 1


def test_a_roll_shows_each_face_thrown_away():
    assert str(de.roll("2d6ro1", seed=Scripted([1, 1, 3]))) == "2d6ro1: [~1~r 1, 3] = 4"
    assert str(de.roll("1d6r<3", seed=Scripted([1, 2, 2, 5]))) == "1d6r<3: [~1~r ~2~r ~2~r 5] = 5"


@pytest.mark.parametrize("keys, lowest, n, chosen", [
    ([3, 1, 4, 1], True, 1, [1]), ([3, 1, 4, 1], True, 2, [1, 3]), ([3, 1, 4, 4], False, 1, [2]),
    ([5, 5, 5], False, 2, [0, 1]), ([2, 6], True, 0, []),
])
def test_the_ranks_chosen_are_the_lowest_or_highest_the_earlier_first(keys, lowest, n, chosen):
    assert rank_choice(keys, lowest, n) == chosen


def test_the_ranks_in_bulk():
    """Each row without the dice re-rolled (the lowest, the highest), then their new faces; or a die added."""
    values = np.array([[4, 1, 6], [2, 2, 5]])
    fresh = np.array([[9], [8]])
    assert sample_rank_reroll(values.copy(), fresh, False, True).tolist() == [[4, 6, 9], [2, 5, 8]]
    assert sample_rank_reroll(values.copy(), fresh, False, False).tolist() == [[1, 4, 9], [2, 2, 8]]
    assert sample_rank_reroll(values.copy(), fresh, True, True).tolist() == [[1, 4, 6, 9], [2, 2, 5, 8]]
    assert [ranks_left(False, True, 2, 5), ranks_left(False, False, 2, 5), ranks_left(True, True, 1, 5)] == \
        [(2, 5), (0, 3), (0, 5)]


@pytest.mark.parametrize("depth", [1, 3, None])
def test_the_masses_in_python_floats_are_the_arrays_masses(depth):
    """A small support is worked in Python floats, a large one in numpy arrays: one formula, the same answer."""
    gen = random.Random(depth or 0)
    for _ in range(20):
        weights = [gen.random() for _ in range(gen.randint(2, 9))]
        p = [w / sum(weights) for w in weights]
        hit = [gen.random() < 0.5 for _ in p]
        if all(hit):
            hit[0] = False
        listed = reroll_masses(p, hit, depth)
        arrays = reroll_masses(np.array(p), np.array(hit), depth)
        assert isinstance(listed, list) and isinstance(arrays, np.ndarray)
        assert np.allclose(listed, arrays, rtol=0, atol=1e-15)


@pytest.mark.parametrize("expr, depth", [("1d2000ro<=500", 1), ("1d2000r>1500", None), ("2d1500r1r1500", None)])
def test_a_die_of_many_faces_re_rolls_as_the_algebras(expr, depth):
    """Past :data:`~diceengine.systems.standard.term.chains.SMALL_SUPPORT` faces the term's re-roll works on arrays."""
    count, rest = expr.split("d", 1)
    sides = int(rest.split("r")[0])
    hit = {"1d2000ro<=500": lambda f: f <= 500, "1d2000r>1500": lambda f: f > 1500,
           "2d1500r1r1500": lambda f: f in (1, 1500)}[expr]
    die = Die.uniform(sides).reroll(hit, depth=depth).repeat(int(count))
    assert_close(de.distribution(expr).marginal(), dict(die.items()), tol=1e-12)
