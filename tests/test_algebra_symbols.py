"""The die algebra's symbol dice (diceengine.algebra.symbols) against a brute-force enumeration written here: every
face of every die combined (itertools.product), with exact fractions."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import diceengine as de
from diceengine.algebra import Die, SymbolDie, SymbolPool, Symbols

NAMES = ("s", "a", "t", "e", "l", "d")
# FFG-like dice written here: (success, advantage, triumph, despair, light, dark)
GREEN = [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0),
         (0, 1, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0), (0, 2, 0, 0, 0, 0)]
YELLOW = [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0),
          (1, 0, 1, 0, 0, 0)]  # the last: a triumph, one more success
RED = [(0, 0, 0, 0, 0, 0), (-1, 0, 0, 0, 0, 0), (-2, 0, 0, 0, 0, 0), (0, -1, 0, 0, 0, 0), (-1, -1, 0, 0, 0, 0),
       (-1, 0, 0, 1, 0, 0)]  # the last: a despair, one more failure
WHITE = [(0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 1, 0), (0, 0, 0, 0, 2, 0)]


def enumerate_pool(dice: list[list[tuple[int, ...]]]) -> dict[tuple[int, ...], Fraction]:
    """Every combination of faces, each as likely as the others."""
    out: dict[tuple[int, ...], Fraction] = {}
    chance = Fraction(1, math.prod(len(d) for d in dice))
    for combo in product(*dice):
        v = tuple(sum(x) for x in zip(*combo, strict=True))
        out[v] = out.get(v, Fraction(0)) + chance
    return out


def same(got: Symbols, want: dict[tuple[int, ...], Fraction]) -> None:
    items = dict(got.items())
    assert len(items) == len(got.items())  # one row an outcome
    assert set(items) == set(want)
    for v, p in want.items():
        assert items[v] == pytest.approx(float(p), abs=1e-14), v


POOLS = {
    "plain": [GREEN, GREEN, RED],
    "one rare kind": [YELLOW, YELLOW, YELLOW, GREEN],
    "two rare kinds": [YELLOW, YELLOW, RED, RED, RED, GREEN],
    "two factors": [YELLOW, RED, WHITE, WHITE],
    "Force alone": [WHITE, WHITE, WHITE],
    # a die whose every face counts one success (a constant), and one whose faces are all below zero
    "constant and negative": [[(1, 0, 0, 0, 0, 0)] * 3, [(-2, -1, 0, 0, 0, 0), (-1, -3, 0, 0, 0, 0)], GREEN],
    # a coin counting only its own symbol, a rare face counting -1 on it, three rare kinds in one factor
    "coins": [[(0, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0)]] * 3 + [[(0, 0, 0, 0, 0, 0), (0, 0, 0, -1, 0, 0)] * 2
                                                             + [(0, 1, 0, 0, 0, 0)]] * 2,
    "three rare kinds": [YELLOW, YELLOW, RED, RED, [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0)]],
    "a rare face below the others": [[(2, 0, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0), (-4, 0, 0, 2, 0, 0)]] * 3 + [RED],
    "nothing counted": [[(0, 0, 0, 0, 0, 0)] * 4, GREEN],
    # the rare face alone counts a symbol of its own and one shared with another die
    "a rare face on a shared symbol": [[(0, 0, 0, 0, 0, 0), (1, 0, 1, 0, 0, 0)]] * 2 + [[(0, 0, 0, 0, 0, 0),
                                                                                     (1, 0, 0, 0, 0, 0),
                                                                                     (2, 0, 0, 0, 0, 0)]] * 2,
    # faces far apart: a die is added as one shifted copy a face (a sparse kernel), not as one convolution
    "wide faces": [[(0, 0, 0, 0, 0, 0), (12, 0, 0, 0, 0, 0), (0, 12, 0, 0, 0, 0), (12, 12, 1, 0, 0, 0)]] * 3
                  + [YELLOW, RED],
}


@pytest.mark.parametrize("name", list(POOLS))
def test_a_pool_sums_to_the_enumeration(name):
    dice = POOLS[name]
    made = {id(faces): SymbolDie.of(NAMES, faces) for faces in dice}
    pool = SymbolPool([made[id(faces)] for faces in dice])
    got = pool.sum()
    same(got, enumerate_pool(dice))
    assert sum(p for _, p in got.items()) == pytest.approx(1.0, abs=1e-14)
    cost = pool.sum_cost()
    assert cost.cells >= len(got.items()) * (len(NAMES) + 1) and cost.work > 0


def test_the_same_faces_in_different_dice_are_one_kind():
    a, b = SymbolDie.of(NAMES, YELLOW), SymbolDie.of(NAMES, YELLOW)
    same(SymbolPool([a, b, a]).sum(), enumerate_pool([YELLOW] * 3))


def test_cancellation_is_a_map_of_each_face_and_of_the_sum():
    # printed symbols (success, failure, advantage, threat) cancelled to (net success, net advantage): linear, so the
    # pool of cancelled dice sums to the cancelled sum of the printed dice
    printed = [(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 1), (2, 0, 1, 0), (0, 0, 0, 2), (1, 1, 1, 1)]
    names = ("success", "failure", "advantage", "threat")

    def cancel(v):
        return (v[0] - v[1], v[2] - v[3])

    die = SymbolDie.of(names, printed)
    cancelled = die.map(cancel, ("success", "advantage"))
    assert cancelled.faces == tuple(cancel(f) for f in printed) and cancelled.names == ("success", "advantage")
    want: dict[tuple[int, ...], Fraction] = {}
    for v, p in enumerate_pool([printed] * 3).items():
        want[cancel(v)] = want.get(cancel(v), Fraction(0)) + p
    same(SymbolPool([cancelled] * 3).sum(), want)
    same(SymbolPool([die] * 3).sum().map(cancel, ("success", "advantage")), want)


def test_a_marginal_is_an_integer_die():
    dice = [YELLOW, RED, RED, WHITE]
    got = SymbolPool([SymbolDie.of(NAMES, f) for f in dice]).sum()
    for i, name in enumerate(NAMES):
        want: dict[int, Fraction] = {}
        for v, p in enumerate_pool(dice).items():
            want[v[i]] = want.get(v[i], Fraction(0)) + p
        die = got.marginal(name)
        assert isinstance(die, Die)
        assert dict(die.items()) == pytest.approx({k: float(p) for k, p in want.items()}, abs=1e-14)
        assert got.mean(name) == pytest.approx(float(sum(k * p for k, p in want.items())), abs=1e-12)
    assert SymbolPool([SymbolDie.of(NAMES, GREEN)]).sum().marginal("l").items() == [(0, 1.0)]
    with pytest.raises(de.DiceValueError):
        got.marginal("x")


def test_values_add_and_repeat_as_independent_throws():
    green, red, white = (Symbols.of(NAMES, f) for f in (GREEN, RED, WHITE))
    same(green + red + white, enumerate_pool([GREEN, RED, WHITE]))
    same(white + (green + red), enumerate_pool([WHITE, GREEN, RED]))  # factors merged whatever the order
    same(red.repeat(3), enumerate_pool([RED] * 3))
    # a pool's sum (its symbols laid out with the streamed ones first) added to a value, both ways round
    pooled = SymbolPool([SymbolDie.of(NAMES, f) for f in (YELLOW, RED, RED)]).sum()
    same(pooled + green + white, enumerate_pool([YELLOW, RED, RED, GREEN, WHITE]))
    same(Symbols.of(NAMES, YELLOW) + pooled, enumerate_pool([YELLOW, YELLOW, RED, RED]))
    assert red.repeat(0).items() == [((0,) * 6, 1.0)]
    assert (red + white).same(white + red) and not red.same(white)
    with pytest.raises(de.DiceValueError):
        red.repeat(-1)
    with pytest.raises(de.DiceValueError):
        red + Symbols.of(("s",), [(1,)])


def test_probability_of_one_outcome():
    got = SymbolPool([SymbolDie.of(NAMES, f) for f in (YELLOW, RED, WHITE)]).sum()
    want = enumerate_pool([YELLOW, RED, WHITE])
    for v, p in want.items():
        assert got.probability(v) == pytest.approx(float(p), abs=1e-15)
    assert got.probability((9, 9, 9, 9, 9, 9)) == 0.0
    assert got.probability({"s": 0, "d": 1}) == pytest.approx(float(want.get((0, 0, 0, 0, 0, 1), 0)))
    assert Symbols.of(NAMES, GREEN).probability({"l": 1}) == 0.0  # a symbol no die counts


def test_faces_by_name_and_weights():
    die = SymbolDie.of(("success", "advantage"), [{}, {"success": 1}, {"success": 1, "advantage": 2}])
    assert die.faces == ((0, 0), (1, 0), (1, 2))
    weighted = Symbols.from_weights(("x",), {(0,): 3, (2,): 1})
    assert sorted(weighted.items()) == [((0,), 0.75), ((2,), 0.25)]


@pytest.mark.parametrize("make", [
    lambda: SymbolDie.of(("s", "a"), [(1,)]),                        # a count missing
    lambda: SymbolDie.of(("s",), [{"x": 1}]),                        # an unknown symbol
    lambda: SymbolDie.of(("s",), []),                                # no face
    lambda: SymbolPool([]),                                          # no die
    lambda: SymbolPool([SymbolDie.of(("s",), [(1,)]), SymbolDie.of(("a",), [(1,)])]),  # other symbols
    lambda: Symbols.from_weights(("s",), {(1,): -1.0, (2,): 2.0}),   # a negative weight
    lambda: Symbols.from_weights(("s",), {(1,): 0.0}),               # no weight
])
def test_what_means_nothing_is_refused(make):
    with pytest.raises(de.DiceValueError):
        make()


def test_a_roll_records_each_face_as_the_engine_draws_it():
    dice = [SymbolDie.of(NAMES, f) for f in (GREEN, YELLOW, RED, WHITE)]
    pool = SymbolPool(dice)
    draws = [0.99, 0.0, 0.5, 0.3]
    total, faces = pool.roll(iter(draws).__next__)
    assert faces == [int(r * len(d.faces)) for r, d in zip(draws, dice, strict=True)] == [7, 0, 3, 1]
    assert total == tuple(sum(x) for x in zip(GREEN[7], YELLOW[0], RED[3], WHITE[1], strict=True))
    # every combination of faces of a small pool reads back its sum
    small = SymbolPool([dice[1], dice[2]])
    for i, j in product(range(6), range(6)):
        total, faces = small.roll(iter([(i + 0.5) / 6, (j + 0.5) / 6]).__next__)
        assert faces == [i, j] and total == tuple(a + b for a, b in zip(YELLOW[i], RED[j], strict=True))


@pytest.mark.parametrize("wide", [False, True])
def test_a_sample_is_the_sum_of_the_same_draws(wide):
    # each run of the same die drawn as one (n, k) block of face indices, in the pool's order; ``wide``: counts too
    # large to share one int64 (each symbol summed on its own)
    scale = 10**7 if wide else 1
    faces = {name: [tuple(x * scale for x in f) for f in fs] for name, fs in (("g", GREEN), ("r", RED), ("w", WHITE))}
    dice = {name: SymbolDie.of(NAMES, fs) for name, fs in faces.items()}
    order = ["g", "g", "r", "w", "w", "w", "g"]
    got = SymbolPool([dice[n] for n in order]).sample(3000, np.random.default_rng(5))
    rng = np.random.default_rng(5)
    total = np.zeros((3000, 6), dtype=np.int64)
    for name, k in (("g", 2), ("r", 1), ("w", 3), ("g", 1)):
        idx = rng.integers(0, len(faces[name]), size=(3000, k))
        total += np.array(faces[name], dtype=np.int64)[idx].sum(axis=1)
    for i, name in enumerate(NAMES):
        assert (got[name] == total[:, i]).all(), name


def test_a_pool_past_the_budget_is_refused_before_any_work():
    ring = SymbolDie.of(("x", "y", "z"), [(i, j, k) for i in range(4) for j in range(4) for k in range(4)])
    pool = SymbolPool([ring] * 300)
    with pytest.raises(de.DiceLimitError):
        pool.sum()


def test_a_refusal_is_said_in_french():
    from diceengine.i18n import translate_error

    with pytest.raises(de.DiceValueError) as caught:
        SymbolDie.of(("s", "a"), [(1,)])
    assert str(caught.value) == "a face has one count for each of the 2 symbols"
    assert str(translate_error(caught.value, "fr")) == "une face a un compte pour chacun des 2 symboles"


def _random_die(rng, symbols: int) -> list[tuple[int, ...]]:
    """A die of 2 to 5 faces: mostly small counts, often a symbol no other face counts, sometimes a constant."""
    kind = rng.random()
    if kind < 0.15:  # every face the same
        return [tuple(rng.randint(-2, 2) for _ in range(symbols))] * rng.randint(1, 3)
    faces = [tuple(rng.choice((0, 0, 1, 2, -1)) if rng.random() < 0.6 else 0 for _ in range(symbols))
             for _ in range(rng.randint(2, 5))]
    if kind < 0.6:  # one face alone counts one symbol (a rare face)
        axis = rng.randrange(symbols)
        faces = [tuple(0 if i == axis else x for i, x in enumerate(f)) for f in faces]
        i = rng.randrange(len(faces))
        faces[i] = tuple(rng.choice((1, 2, -1)) if j == axis else x for j, x in enumerate(faces[i]))
    return faces


def test_generated_pools_sum_to_the_enumeration():
    # 300 pools made by a seeded generator (the same pools every run), each against the enumeration
    rng = random.Random(33)
    for _ in range(300):
        symbols = rng.randint(1, 4)
        kinds = [_random_die(rng, symbols) for _ in range(rng.randint(1, 3))]
        dice = [rng.choice(kinds) for _ in range(rng.randint(1, 5))]
        names = tuple("wxyz"[:symbols])
        made = {id(f): SymbolDie.of(names, f) for f in kinds}
        pool = SymbolPool([made[id(f)] for f in dice])
        got = pool.sum()
        same(got, enumerate_pool(dice))
        assert pool.sum_cost().cells >= len(got.items()) * (symbols + 1)  # the estimate bounds the rows


def test_a_value_past_the_budget_is_refused():
    # values added, mapped or listed check the work budget too (a pool's sum checks it before any work)
    wide = Symbols.of(("x", "y"), [(i, j) for i in range(0, 3000, 7) for j in range(0, 3000, 11)])
    with pytest.raises(de.DiceLimitError):
        wide + wide
    spread = [Symbols.of(("a", "b", "c", "d"), [tuple(v if k == axis else 0 for k in range(4)) for v in range(150)])
              for axis in range(4)]
    apart = spread[0] + spread[1] + spread[2] + spread[3]  # four independent factors: 150 ** 4 rows
    with pytest.raises(de.DiceLimitError):
        apart.columns()
    with pytest.raises(de.DiceLimitError):
        apart.map(lambda v: v)


def test_pools_of_one_shape_share_their_set_up_roll_and_small_sum():
    # a ruleset makes a pool for each plan: what the pool's odds, roll and small sum need is made once for the shape
    die, other = SymbolDie.of(NAMES, YELLOW), SymbolDie.of(NAMES, RED)
    one, two = SymbolPool([die, die, other]), SymbolPool([die, die, other])
    assert one.sum_cost() is two.sum_cost()
    assert one.roller is two.roller
    assert one.sum() is two.sum()
    same(two.sum(), enumerate_pool([YELLOW, YELLOW, RED]))
    assert SymbolPool([die, other, die]).roller is not one.roller  # another order of the dice: another shape


def test_a_shared_sum_is_not_changed_by_its_readers():
    die = SymbolDie.of(NAMES, GREEN)
    cols, probs = SymbolPool([die] * 2).sum().columns()
    cols["s"] += 5  # a reader's own rows: the next reader's are new
    probs[:] = 0
    same(SymbolPool([die] * 2).sum(), enumerate_pool([GREEN, GREEN]))
    with pytest.raises(ValueError):  # the masses kept are read-only
        SymbolPool([die] * 2).sum().factors[0].boxes[0].grid[(0,) * 2] = 1.0


def test_a_set_up_past_its_budget_is_not_kept():
    # the kernels of a pool refused by the budget would hold tens of MiB: made for the refusal, then let go
    from diceengine.algebra import symbols

    ring = SymbolDie.of(("x", "y", "z"), [(i, j, k) for i in range(4) for j in range(4) for k in range(4)])
    pool = SymbolPool([ring] * 300)
    with pytest.raises(de.DiceLimitError):
        pool.sum()
    kept = symbols._setup.__self__
    assert (pool.shape, 3) not in kept.found
    assert kept.cells <= symbols.SETUP_CELLS
    small = SymbolPool([ring] * 2)
    small.sum()
    assert (small.shape, 3) in kept.found


def test_the_plan_cache_counts_a_shared_die_without_walking_it():
    # a die is a ruleset's constant shared by every plan: counted its declared bytes, whatever its faces
    import sys

    from diceengine.plan_cache import footprint

    small, wide = SymbolDie.of(("x",), [(1,), (2,)]), SymbolDie.of(("x",), [(v,) for v in range(1000)])
    for die in (small, wide):
        held = [die, die]
        assert footprint(held) == sys.getsizeof(held) + SymbolDie.__footprint_shared__
    # a pool holds its dice only: one of wide dice counts what one of small dice counts (up to a dictionary's growth),
    # where walking the wide die's faces would count tens of KiB
    assert abs(footprint(SymbolPool([wide] * 3)) - footprint(SymbolPool([small] * 3))) < 64
    assert footprint(wide.faces) > 50_000


def test_the_algebra_exports_each_name_on_first_use():
    from diceengine import algebra

    namespace: dict[str, object] = {}
    exec("from diceengine.algebra import *", namespace)  # noqa: S102 (the star import itself is what is tested)
    assert set(algebra.__all__) <= set(namespace)
    assert namespace["SymbolPool"] is SymbolPool and namespace["Die"] is Die
    assert set(algebra.__all__) <= set(dir(algebra))
    with pytest.raises(AttributeError):
        algebra.Nothing  # noqa: B018
