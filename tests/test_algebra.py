"""The die algebra against brute-force enumeration written here (every face sequence with its chance)."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diceengine.algebra import Die, Pool, Throw
from diceengine.errors import DiceLimitError, DiceValueError
from tests.helpers import enumerate_dice

Faces = Sequence[int]


def assert_matches(die: Die, expected: dict[int, Fraction], tol: float = 1e-12) -> None:
    got = dict(die.items())
    for v in set(got) | set(expected):
        assert abs(got.get(v, 0.0) - float(expected.get(v, 0))) <= tol, (v, got.get(v), expected.get(v))


def die_of(faces: Faces) -> Die:
    return Die.of(faces)


small_faces = st.lists(st.integers(-3, 7), min_size=1, max_size=4)


@given(st.lists(small_faces, min_size=1, max_size=3), st.data())
@settings(max_examples=60, deadline=None)
def test_ranks_of_a_mixed_pool_match_enumeration(dice: list[list[int]], data: st.DataObject) -> None:
    n = len(dice)
    weights = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    highest = data.draw(st.booleans())

    def reading(roll: tuple[int, ...]) -> int:
        ranked = sorted(roll, reverse=highest)
        return sum(w * v for w, v in zip(weights, ranked, strict=True))

    got = Pool([die_of(f) for f in dice]).ranked(weights, "highest" if highest else "lowest")
    assert_matches(got, enumerate_dice(dice, reading))


@pytest.mark.parametrize("n,keep", [(1, 1), (3, 2), (4, 3), (5, 1), (5, 4)])
@pytest.mark.parametrize("highest", [True, False])
def test_keep_of_identical_dice_matches_enumeration(n: int, keep: int, highest: bool) -> None:
    faces = [1, 2, 2, 5]  # a listed die with a repeated face

    def reading(roll: tuple[int, ...]) -> int:
        return sum(sorted(roll, reverse=highest)[:keep])

    pool = Pool.of(die_of(faces), n)
    expected = enumerate_dice([faces] * n, reading)
    assert_matches(pool.highest(keep) if highest else pool.lowest(keep), expected)
    # the general ranked reading (another algorithm) agrees with the fast keep
    weights = [1] * keep + [0] * (n - keep)
    assert_matches(pool.ranked(weights, "highest" if highest else "lowest"), expected)


def test_middle_and_positions() -> None:
    faces = list(range(1, 7))
    assert_matches(Pool.of(Die.uniform(6), 3).middle(1), enumerate_dice([faces] * 3, lambda r: sorted(r)[1]))
    assert_matches(Pool.of(Die.uniform(6), 4).middle(2), enumerate_dice([faces] * 4, lambda r: sum(sorted(r)[1:3])))
    # AnyDice's {1, 1, 3}@4d6: the highest counted twice and the third highest; a rank past the pool adds nothing
    assert_matches(Pool.of(Die.uniform(6), 4).positions([1, 1, 3, 9]),
                   enumerate_dice([faces] * 4, lambda r: 2 * max(r) + sorted(r, reverse=True)[2]))
    assert_matches(Pool.of(Die.uniform(6), 3).positions([1], order="lowest"), enumerate_dice([faces] * 3, min))


def test_count_and_sum() -> None:
    faces_a, faces_b = [1, 2, 3, 4], [0, 5, 5]
    pool = Pool([die_of(faces_a), die_of(faces_a), die_of(faces_b)])
    assert_matches(pool.count({2, 5}), enumerate_dice([faces_a, faces_a, faces_b], lambda r: sum(v in (2, 5) for v in r)))
    assert_matches(pool.sum(), enumerate_dice([faces_a, faces_a, faces_b], sum))


def test_sorted_outcomes_list_every_sorted_roll() -> None:
    faces_a, faces_b = [1, 2, 3], [2, 4]
    expected: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for roll in itertools.product(faces_a, faces_a, faces_b):
        expected[tuple(sorted(roll, reverse=True))] += Fraction(1, 18)
    got = dict(Pool([die_of(faces_a), die_of(faces_a), die_of(faces_b)]).sorted_outcomes())
    assert set(got) == set(expected)
    for k, p in expected.items():
        assert abs(got[k] - float(p)) < 1e-12


def _chain_enumeration(faces: Faces, on: set[int], depth: int, penetrate: bool) -> dict[int, Fraction]:
    """An explosion followed throw by throw: every sequence of throws, each throw 1/len(faces)."""
    out: dict[int, Fraction] = defaultdict(Fraction)

    def follow(total: int, mass: Fraction, k: int) -> None:
        for f in faces:
            value = f - 1 if penetrate and k else f
            m = mass / len(faces)
            if f in on and k < depth:
                follow(total + value, m, k + 1)
            else:
                out[total + value] += m

    follow(0, Fraction(1), 0)
    return dict(out)


@pytest.mark.parametrize("faces,on,depth", [([1, 2, 3, 4, 5, 6], {6}, 2), ([1, 2, 3], {2, 3}, 3), ([0, 1, 1], {1}, 4)])
@pytest.mark.parametrize("penetrate", [False, True])
def test_explode_to_a_depth_matches_enumeration(faces: list[int], on: set[int], depth: int, penetrate: bool) -> None:
    assert_matches(die_of(faces).explode(on, depth=depth, penetrate=penetrate),
                   _chain_enumeration(faces, on, depth, penetrate))


def test_unbounded_explosion_is_truncated_and_says_so() -> None:
    d = Die.uniform(6).explode(depth=None)
    deep = _chain_enumeration(list(range(1, 7)), {6}, 30, False)
    assert_matches(d, deep, tol=1e-13)
    assert 0 < d.truncated < 1e-12
    assert abs(sum(v * p for v, p in d.items()) - 3.5 * 6 / 5) < 1e-10
    with pytest.raises(DiceValueError):
        Die.constant(3).explode(depth=None)


@pytest.mark.parametrize("depth", [1, 2, 5])
def test_reroll_to_a_depth_matches_enumeration(depth: int) -> None:
    faces, on = [1, 2, 3, 4], {1, 2}
    out: dict[int, Fraction] = defaultdict(Fraction)

    def follow(mass: Fraction, k: int) -> None:
        for f in faces:
            if f in on and k < depth:
                follow(mass / 4, k + 1)
            else:
                out[f] += mass / 4

    follow(Fraction(1), 0)
    assert_matches(die_of(faces).reroll(on, depth=depth), out)
    assert_matches(die_of(faces).reroll(on, depth=None), {3: Fraction(1, 2), 4: Fraction(1, 2)})


def test_arithmetic_compare_and_map() -> None:
    a, b = [-2, 1, 3], [1, 2, 4, 4]
    da, db = die_of(a), die_of(b)
    assert_matches(da + db, enumerate_dice([a, b], lambda r: r[0] + r[1]))
    assert_matches(da - db, enumerate_dice([a, b], lambda r: r[0] - r[1]))
    assert_matches(da * db, enumerate_dice([a, b], lambda r: r[0] * r[1]))
    assert_matches(da // db, enumerate_dice([a, b], lambda r: int(r[0] / r[1])))  # toward zero
    assert_matches(3 - da, enumerate_dice([a], lambda r: 3 - r[0]))
    assert_matches(abs(da), enumerate_dice([a], lambda r: abs(r[0])))
    for op, fn in [("<", lambda x, y: x < y), (">=", lambda x, y: x >= y), ("!=", lambda x, y: x != y)]:
        assert_matches(da.compare(op, db), enumerate_dice([a, b], lambda r, fn=fn: int(fn(r[0], r[1]))))
    assert abs(da.chance(">", db) - float(enumerate_dice([a, b], lambda r: int(r[0] > r[1]))[1])) < 1e-12
    # a function that throws a die in place of some outcomes
    mapped = da.map(lambda v: db if v > 0 else v)
    expected = enumerate_dice([a, b], lambda r: r[1] if r[0] > 0 else r[0])
    assert_matches(mapped, expected)
    assert_matches(da.clip(0, 2), enumerate_dice([a], lambda r: min(max(r[0], 0), 2)))


def test_repeat_by_a_number_and_by_a_die() -> None:
    d4 = [1, 2, 3, 4]
    assert_matches(Die.uniform(4).repeat(3), enumerate_dice([d4] * 3, sum))
    # d2 copies of d4: one or two d4, each half the time
    expected: dict[int, Fraction] = defaultdict(Fraction)
    for n in (1, 2):
        for k, p in enumerate_dice([d4] * n, sum).items():
            expected[k] += p / 2
    assert_matches(Die.uniform(4).repeat(Die.uniform(2)), expected)


def test_refusals() -> None:
    with pytest.raises(DiceValueError):
        Die.uniform(0)
    with pytest.raises(DiceValueError):
        Die.from_weights({1: -1.0})
    with pytest.raises(DiceValueError):
        Die.uniform(6).compare("<=>", 3)
    with pytest.raises(DiceLimitError):
        list(Pool.of(Die.uniform(100), 20).sorted_outcomes())
    with pytest.raises(DiceLimitError):
        Pool([Die.uniform(100 + i) for i in range(12)]).highest(3)


def _all(items: Iterable[tuple[int, float]]) -> float:
    return sum(p for _, p in items)


def test_every_die_sums_to_one() -> None:
    for d in [Pool.of(Die.uniform(6), 5).middle(3), Die.uniform(10).explode(depth=None), Die.of([1, 1, 2]).repeat(7)]:
        assert abs(_all(d.items()) + d.truncated - 1.0) < 1e-12


# ---------------------------------------------------------------- a throw: the three interpretations of one definition


def _scripted(draws: list[float]) -> Callable[[], float]:
    it = iter(draws)
    return lambda: next(it)


def test_a_throw_rolls_its_chain_from_the_draws() -> None:
    wild = Throw.of(range(1, 7)).explode({6})
    # 0.9 -> 6, 0.95 -> 6, 0.1 -> 1: two explosions, then it stops
    assert wild.roll(_scripted([0.9, 0.95, 0.1])) == [6, 6, 1]
    assert wild.total([6, 6, 1]) == 13
    capped = Throw.of(range(1, 7)).explode({6}, depth=1, penetrate=True)
    assert capped.roll(_scripted([0.99, 0.99, 0.0])) == [6, 6]
    assert capped.total([6, 6]) == 11
    listed = Throw.of([1, 1, 4])  # a listed die draws by index, as every die of the engine
    assert [listed.face(_scripted([x])) for x in (0.0, 0.6, 0.7)] == [1, 1, 4]


@pytest.mark.parametrize("throw", [
    Throw.of(range(1, 7)).explode({6}),
    Throw.of([0, 1, 1, 3]).explode({3}, depth=3, penetrate=True),
    Throw.of(range(1, 5)).explode({3, 4}, depth=2),
])
def test_roll_sample_and_exact_of_a_throw_agree(throw: Throw) -> None:
    exact = dict(throw.exact().items())
    gen = np.random.default_rng(5)
    n = 200_000
    _, totals, added = throw.sample(n, gen)
    rng = np.random.default_rng(6)
    rolled = np.array([throw.total(throw.roll(rng.random)) for _ in range(20_000)])
    for values, size in ((totals, n), (rolled, 20_000)):
        for v, p in exact.items():
            seen = float(np.count_nonzero(values == v)) / size
            assert abs(seen - p) <= 5 * math.sqrt(p * (1 - p) / size) + 1e-9, (v, seen, p)
        assert set(np.unique(values)) <= set(exact)
    # the chains by added throws weigh what the sample's added throws count
    by_k = {k: part.mass for k, part in throw.chains() if k >= 0}
    for k, mass in by_k.items():
        seen = float(np.count_nonzero(added == k)) / n
        assert abs(seen - mass) <= 5 * math.sqrt(mass * (1 - mass) / n) + 1e-9


def test_a_throw_is_refused_past_the_explosion_limit() -> None:
    sure = Throw.of([6, 6]).explode({6})
    with pytest.raises(DiceValueError):
        sure.exact()
    with pytest.raises(DiceLimitError):
        sure.roll(lambda: 0.5)
    with pytest.raises(DiceLimitError):
        sure.sample(10, np.random.default_rng(1))

def test_sorted_outcomes_of_many_dice_keep_their_chances() -> None:
    # 1000 coins: the sorted roll with k ones has the binomial chance C(1000, k) / 2**1000 (the multinomial
    # coefficient outgrows a float, and (1/2)**1000 alone nears its smallest value)
    got = dict(Pool.of(Die.uniform(2), 1000).sorted_outcomes(order="lowest"))
    assert len(got) == 1001
    for k in (0, 1, 300, 500, 1000):
        roll = tuple([1] * k + [2] * (1000 - k))
        want = Fraction(math.comb(1000, k), 2**1000)
        assert got[roll] == pytest.approx(float(want), rel=1e-9, abs=1e-300)
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-9)
    # 300 d3: every sorted roll, its chances summing to the whole
    total = sum(p for _, p in Pool.of(Die.uniform(3), 300).sorted_outcomes())
    assert total == pytest.approx(1.0, abs=1e-9)
