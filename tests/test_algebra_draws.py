"""The die algebra rolled and sampled (issue 33): ``Die.sample`` / ``Die.roll``, ``Pool.sample`` / ``Pool.roll`` and the
keep readers of their draws (``PoolRoll``, ``PoolSample``), held to enumerations and brute-force sorts written here.

Frequencies are read from one large sample under a fixed seed (the test is deterministic) and each is held to its
exact chance within 5 binomial standard errors."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import diceengine as de
from diceengine.algebra import Die, Pool
from diceengine.algebra.draws import PoolRoll, PoolSample, window_sums
from diceengine.i18n import translate_error
from diceengine.limits import MAX_SAMPLE

ORDERS = ("highest", "lowest")
WINDOWS = [(lo, hi, order) for lo in range(-1, 6) for hi in range(-1, 7) for order in ORDERS]


def brute_kept(faces: tuple[int, ...], lo: int, hi: int, order: str) -> tuple[bool, ...]:
    """Which dice the ranks ``lo`` to ``hi - 1`` keep, by counting for each die the dice ranked before it: the rule
    of docs/algebra.md (of equal faces the later die ranks higher, as the standard notation's keep ranks them)."""
    n = len(faces)
    out = []
    for i in range(n):
        below = sum((faces[j], j) < (faces[i], i) for j in range(n))  # its rank, lowest first
        rank = n - 1 - below if order == "highest" else below
        out.append(lo <= rank < hi)
    return tuple(out)


def exact_chances(dice: list[list[int]], read) -> dict[int, Fraction]:
    """The chance of each value of ``read(faces)`` over every throw of fair dice with these faces (enumerated)."""
    counts = Counter(read(faces) for faces in product(*dice))
    total = math.prod(len(d) for d in dice)
    return {v: Fraction(c, total) for v, c in counts.items()}


def assert_frequencies(drawn: np.ndarray, chances: dict[int, Fraction]) -> None:
    """Each value's frequency within 5 binomial standard errors of its chance; nothing drawn that cannot be."""
    n = len(drawn)
    seen = Counter(drawn.tolist())
    assert set(seen) <= set(chances), set(seen) - set(chances)
    for value, p in chances.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen.get(value, 0) / n - float(p)) <= 5 * sigma + 1e-12, (value, seen.get(value, 0) / n, float(p))


# ------------------------------------------------------------------ reproducible
@pytest.mark.parametrize("seed", [0, 7, 2**40])
def test_a_seed_and_its_generator_give_the_same_draws(seed):
    die = Die.of([1, 2, 2, 5]) + Die.uniform(3)
    pool = Pool([Die.uniform(4), Die.uniform(6), Die.uniform(4), Die.of([-1, 0, 1])])
    gen = np.random.default_rng
    assert np.array_equal(die.sample(500, seed), die.sample(500, seed))
    assert np.array_equal(die.sample(500, seed), die.sample(500, gen(seed)))
    assert die.roll(seed) == die.roll(gen(seed)) == int(die.sample(1, seed)[0])
    assert np.array_equal(pool.sample(300, seed).faces, pool.sample(300, gen(seed)).faces)
    assert pool.roll(seed) == pool.roll(gen(seed))
    assert pool.roll(seed).faces == tuple(pool.sample(1, seed).faces[0].tolist())  # a roll: a sample of one
    assert isinstance(die.roll(seed), int) and all(isinstance(f, int) for f in pool.roll(seed).faces)


def test_one_generator_moves_on_between_draws():
    gen = np.random.default_rng(3)
    die = Die.uniform(1000)
    assert not np.array_equal(die.sample(50, gen), die.sample(50, gen))


# ------------------------------------------------------------------ against enumerations
def test_a_die_samples_its_exact_distribution():
    die = Die.of([1, 2, 2, 5]) - Die.uniform(3)
    want = exact_chances([[1, 2, 2, 5], [1, 2, 3]], lambda f: f[0] - f[1])
    drawn = die.sample(200_000, 11)
    assert drawn.shape == (200_000,) and drawn.dtype.kind == "i"
    assert_frequencies(drawn, want)


def test_a_fair_die_with_gaps_samples_its_faces():
    # equally likely outcomes, not consecutive, some below zero
    assert_frequencies(Die.of([-2, 0, 5, 9]).sample(100_000, 3), {f: Fraction(1, 4) for f in (-2, 0, 5, 9)})


def test_a_fair_die_draws_as_numpy_draws_integers():
    # the faces the engine's own dice draw (numpy's integers on the range of faces), whatever the seed
    for seed in (0, 1, 99):
        assert np.array_equal(Die.uniform(6).sample(1000, seed), np.random.default_rng(seed).integers(1, 7, 1000))


def test_an_exploding_die_samples_its_chains():
    # a d4 thrown again and added on a 4, at most two more throws: every chain enumerated
    want: dict[int, Fraction] = {}
    for chain in product(range(1, 5), repeat=3):
        used = 1 if chain[0] < 4 else 2 if chain[1] < 4 else 3
        total = sum(chain[:used])
        want[total] = want.get(total, Fraction(0)) + Fraction(1, 64)
    assert_frequencies(Die.uniform(4).explode(depth=2).sample(200_000, 5), want)


@pytest.mark.parametrize("lo,hi,order", [(0, 2, "highest"), (0, 3, "lowest"), (1, 3, "highest"), (1, 2, "lowest"),
                                         (0, 1, "highest"), (0, 4, "lowest")])
def test_a_pool_samples_each_window_of_its_exact_keep(lo, hi, order):
    faces = [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4], [0, 2, 2]]
    pool = Pool([Die.of(f) for f in faces])
    sample = pool.sample(120_000, 29)
    assert sample.faces.shape == (120_000, 4)
    for column, listed in enumerate(faces):
        assert set(sample.faces[:, column].tolist()) == set(listed)  # each column its own die, in throw order

    def kept_sum(throw):
        ranked = sorted(throw, reverse=order == "highest")
        return sum(ranked[max(0, lo):max(0, hi)])

    want = exact_chances(faces, kept_sum)
    assert_frequencies(sample.window(lo, hi, order).total, want)
    exact = pool.window(lo, hi, order)  # the exact reading of the same window
    assert max(abs(exact.probability(v) - float(p)) for v, p in want.items()) < 1e-12


# ------------------------------------------------------------------ which dice a keep keeps
def test_the_roll_keeps_what_a_brute_force_sort_keeps_ties_included():
    checked = 0
    for faces in product(range(1, 4), repeat=4):  # three faces on four dice: ties in most throws
        roll = PoolRoll.of(faces)
        assert roll.kept == (True,) * 4 and roll.total == sum(faces)
        for lo, hi, order in WINDOWS:
            kept = roll.window(lo, hi, order)
            want = brute_kept(faces, lo, hi, order)
            assert kept.kept == want, (faces, lo, hi, order)
            assert kept.total == sum(f for f, k in zip(faces, want) if k)
            checked += 1
        for n in range(-1, 6):
            assert roll.highest(n).kept == brute_kept(faces, 0, n, "highest")
            assert roll.lowest(n).kept == brute_kept(faces, 0, n, "lowest")
    assert checked == 81 * len(WINDOWS)


def test_ties_the_later_die_ranks_higher():
    # docs/algebra.md's examples: 4d6kh3 on 3, 3, 5, 6 drops the first 3; removing the highest of 5, 5, 1 the second 5
    assert PoolRoll.of([3, 3, 5, 6]).highest(3).kept == (False, True, True, True)
    assert PoolRoll.of([5, 5, 1]).lowest(2).kept == (True, False, True)
    assert PoolRoll.of([2, 2]).highest(1).kept == (False, True)
    assert PoolRoll.of([2, 2]).lowest(1).kept == (True, False)


@pytest.mark.parametrize("expression,read", [
    ("5d4kh3", lambda r: r.highest(3)), ("5d3kl2", lambda r: r.lowest(2)), ("4d4dh1", lambda r: r.lowest(3)),
    ("6d3dh2dl1", lambda r: r.window(2, 5, "highest")), ("2d2kh1", lambda r: r.highest(1)),
])
def test_the_roll_keeps_what_the_standard_notation_keeps(expression, read):
    for seed in range(150):
        rolled = de.roll(expression, seed=seed)
        faces = [d.value for d in rolled.dice]
        kept = read(PoolRoll.of(faces))
        assert kept.kept == tuple(d.kept for d in rolled.dice), (expression, seed, faces)
        assert kept.total == rolled.total


def test_the_sample_keeps_what_the_roll_keeps_on_the_same_faces():
    rows = np.array(list(product(range(1, 4), repeat=4)) + [[1, 1, 1, 1], [3, 3, 3, 3]], dtype=np.int64)
    rows = np.vstack([rows, Pool.of(Die.uniform(3), 4).sample(500, 1).faces])
    sample = PoolSample.of(rows)
    assert sample.kept.all() and np.array_equal(sample.total, rows.sum(axis=1))
    for lo, hi, order in WINDOWS:
        read = sample.window(lo, hi, order)
        kept, total = read.kept, read.total
        for row, marks, t in zip(rows.tolist(), kept.tolist(), total.tolist(), strict=True):
            want = PoolRoll.of(row).window(lo, hi, order)
            assert (tuple(marks), t) == (want.kept, want.total), (row, lo, hi, order)
    one = PoolSample.of(rows[:, :1])
    assert np.array_equal(one.highest(1).total, rows[:, 0]) and not one.lowest(0).kept.any()


def test_window_sums_in_place_or_not_add_the_places_of_each_sorted_row():
    """``window_sums`` (a sample's total, and the standard notation's bulk keep with ``scratch``): every place window
    of every row of three d4, against Python's own sort written here; without ``scratch`` the faces are left as they
    were, with it the sum is the same."""
    rows = np.array(list(product(range(1, 5), repeat=3)), dtype=np.int64)
    for first in range(4):
        for last in range(first, 4):
            want = [sum(sorted(row)[first:last]) for row in rows.tolist()]
            kept = rows.copy()
            assert window_sums(kept, (first, last)).tolist() == want and np.array_equal(kept, rows)
            assert window_sums(rows.copy(), (first, last), scratch=True).tolist() == want, (first, last)


def test_an_empty_pool_rolls_and_samples_nothing():
    assert Pool([]).roll(1) == PoolRoll((), (), 0) and Pool([]).roll(1).total == 0
    assert Pool([]).sample(4, 1).faces.shape == (4, 0) and Pool([]).sample(4, 1).highest(2).total.tolist() == [0] * 4
    assert Die.constant(3).sample(0, 1).shape == (0,)


# ------------------------------------------------------------------ refusals
@pytest.mark.parametrize("call", [
    lambda: Die.uniform(6).sample(-1, 1), lambda: Die.uniform(6).sample(2.5, 1), lambda: Die.uniform(6).sample(True, 1),
    lambda: Pool.of(Die.uniform(6), 3).sample(-1, 1), lambda: Pool.of(Die.uniform(6), 3).sample("10", 1),
])
def test_a_number_of_rolls_that_is_none_is_refused(call):
    with pytest.raises(de.DiceError) as err:
        call()
    assert "the number of rolls must be a non-negative integer" in str(translate_error(err.value, "en"))
    assert "le nombre de jets est un entier positif ou nul" in str(translate_error(err.value, "fr"))


def test_a_sample_past_the_limit_is_refused_before_it_is_drawn():
    pool = Pool([Die.uniform(sides) for sides in range(2, 12)])  # ten dice, each of its own kind
    with pytest.raises(de.DiceLimitError) as err:
        pool.sample(MAX_SAMPLE // 10 + 1, 1)
    assert f"(at most {MAX_SAMPLE // 10})" in str(translate_error(err.value, "en"))
    with pytest.raises(de.DiceLimitError):
        Die.uniform(6).sample(MAX_SAMPLE + 1, 1)


@pytest.mark.parametrize("call", [
    lambda: Pool.of(Die.uniform(6), 3).window(0, 2, "middle"), lambda: PoolRoll.of([1, 2]).window(0, 1, "up"),
    lambda: PoolSample.of(np.ones((2, 2), dtype=np.int64)).window(0, 1, "High"),
    lambda: Pool.of(Die.uniform(6), 3).roll(1).window(0, 1, None),
])
def test_an_order_other_than_highest_or_lowest_is_refused(call):
    with pytest.raises(de.DiceValueError) as err:
        call()
    assert "a pool is sorted 'highest' or 'lowest' first" in str(translate_error(err.value, "en"))
    assert "une réserve" in str(translate_error(err.value, "fr"))


@pytest.mark.parametrize("seed", ["7", 1.5, -3, object()])
def test_a_bad_seed_is_refused(seed):
    for call in (lambda: Die.uniform(6).roll(seed), lambda: Die.uniform(6).sample(3, seed),
                 lambda: Pool.of(Die.uniform(6), 2).roll(seed), lambda: Pool.of(Die.uniform(6), 2).sample(3, seed)):
        with pytest.raises(de.DiceError):
            call()


def test_a_sample_of_a_pool_is_a_table():
    with pytest.raises(de.DiceValueError) as err:
        PoolSample.of(np.array([1, 2, 3]))
    assert "one row a roll and one column a die" in str(translate_error(err.value, "en"))
    assert "une ligne par jet" in str(translate_error(err.value, "fr"))


# ------------------------------------------------------------------ the Wild Die's complication
def test_a_wild_die_complication_removes_the_highest_other_die_the_later_of_equals():
    # text 003's "remove the highest die", under the algebra's rule for equal dice (brute force here)
    seen = 0
    for seed in range(400):
        rolled = de.roll("4D", "d6wild", seed=seed, complication="remove_highest")
        if not rolled.outcome.complication:
            continue
        normal = [d for d in rolled.dice if d.kind == "d6"]
        faces = [d.value for d in normal]
        last_highest = max(i for i, f in enumerate(faces) if f == max(faces))
        assert [d.kept for d in normal] == [i != last_highest for i in range(len(faces))], (seed, faces)
        assert rolled.total == sum(faces) - faces[last_highest]
        seen += 1
    assert seen > 40
