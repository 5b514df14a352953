"""The die algebra's multiset evaluation (diceengine/algebra/multiset.py) against brute force: every roll of small
pools enumerated here, die by die, sorted and read in Python, its chance the product of the faces' chances."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from diceengine.algebra import Die, Evaluator, Pool, SortedPairs, compare_sorted, evaluate
from diceengine.errors import DiceLimitError, DiceValueError

D4, D6 = Die.uniform(4), Die.uniform(6)
LOADED = Die.from_weights({1: 1, 2: 3, 5: 2})  # uneven chances, a gap in its faces
SIGNED = Die.of([-1, 0, 0, 2])

OPS: dict[str, Callable[[int, int], bool]] = {
    ">": operator.gt, "<": operator.lt, "==": operator.eq, ">=": operator.ge, "<=": operator.le, "!=": operator.ne,
}


def enumerate_rolls(*pools: Sequence[Die]) -> list[tuple[list[list[int]], float]]:
    """Every roll of the pools: each pool's faces (in die order) and the roll's chance."""
    dice = [die for pool in pools for die in pool]
    out = []
    for faces in itertools.product(*[die.items() for die in dice]):
        chance = float(np.prod([p for _, p in faces]))
        values, split, at = [v for v, _ in faces], [], 0
        for pool in pools:
            split.append(values[at:at + len(pool)])
            at += len(pool)
        out.append((split, chance))
    return out


def brute(read: Callable[..., int], *pools: Sequence[Die]) -> dict[int, float]:
    """The distribution of ``read(*rolls)`` over every roll."""
    out: dict[int, float] = {}
    for rolls, chance in enumerate_rolls(*pools):
        value = read(*rolls)
        out[value] = out.get(value, 0.0) + chance
    return out


def assert_die(die: Die, expected: dict[int, float]) -> None:
    got = dict(die.items())
    for outcome in set(got) | set(expected):
        assert got.get(outcome, 0.0) == pytest.approx(expected.get(outcome, 0.0), abs=1e-12), outcome


def pairs_holding(op: str, highest: bool) -> Callable[[list[int], list[int]], int]:
    test = OPS[op]

    def read(a: list[int], b: list[int]) -> int:
        sa, sb = sorted(a, reverse=highest), sorted(b, reverse=highest)
        return sum(1 for x, y in zip(sa, sb) if test(x, y))  # zip: as many pairs as the smaller pool has dice

    return read


POOLS = [
    ([D6] * 3, [D6] * 3),  # RISK, 3 a side
    ([D6] * 3, [D6] * 2),  # RISK's usual battle
    ([D6], [D6] * 3),
    ([D4, D6, D6], [LOADED, D4]),  # pools of mixed dice
    ([SIGNED] * 2, [D4, SIGNED, LOADED]),
    ([D4] * 4, [D4] * 4),
]


@pytest.mark.parametrize("a, b", POOLS)
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("order", ["highest", "lowest"])
def test_sorted_pairs_against_every_roll(a: list[Die], b: list[Die], op: str, order: str) -> None:
    got = compare_sorted(Pool(a), Pool(b), op, order)
    assert_die(got, brute(pairs_holding(op, order == "highest"), a, b))


def test_risk_three_against_three_is_the_papers_answer() -> None:
    # the attacker's wins: ties go to the defender; enumerated above too, here through the evaluator itself
    got = evaluate(SortedPairs(">"), Pool.of(D6, 3), Pool.of(D6, 3))
    assert_die(got, brute(pairs_holding(">", True), [D6] * 3, [D6] * 3))
    assert got.mean() == pytest.approx(51642 / 6**6, abs=1e-12)  # icepool 2.1.3 gives this mean too


def test_empty_pools_pair_nothing() -> None:
    assert_die(compare_sorted(Pool([]), Pool.of(D6, 3)), {0: 1.0})
    assert_die(compare_sorted(Pool([]), Pool([])), {0: 1.0})


class Distinct(Evaluator):
    """How many different outcomes a pool shows (a state: the count so far)."""

    def size(self, sizes: tuple[int, ...]) -> int:
        return sizes[0] + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                   counts: tuple[np.ndarray, ...]) -> np.ndarray:
        return state + (counts[0] > 0)


class RankedSum(Evaluator):
    """The sum of the dice at ranks ``ranks`` (0-based, in ``order``), offset so that states start at 0."""

    def __init__(self, ranks: set[int], order: str, low: int, high: int) -> None:
        self.ranks, self.order, self.low, self.high = ranks, order, low, high

    def size(self, sizes: tuple[int, ...]) -> int:
        return len(self.ranks) * (self.high - self.low) + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                   counts: tuple[np.ndarray, ...]) -> np.ndarray:
        taken = sum(((seen[0] <= r) & (r < seen[0] + counts[0])).astype(np.int64) for r in self.ranks)
        return state + taken * (outcome - self.low)

    def final(self, state: np.ndarray) -> np.ndarray:
        return state + len(self.ranks) * self.low


class Matches(Evaluator):
    """How many outcomes both pools show, visited lowest first (two pools, one state: the count)."""

    order = "lowest"

    def size(self, sizes: tuple[int, ...]) -> int:
        return min(sizes) + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                   counts: tuple[np.ndarray, ...]) -> np.ndarray:
        return state + ((counts[0] > 0) & (counts[1] > 0))


@pytest.mark.parametrize("dice", [[D6] * 4, [D4, D6, LOADED], [SIGNED, SIGNED, D4, D4], [LOADED]])
def test_a_generic_evaluator_counts_distinct_outcomes(dice: list[Die]) -> None:
    assert_die(evaluate(Distinct(), Pool(dice)), brute(lambda roll: len(set(roll)), dice))


@pytest.mark.parametrize("ranks", [{0}, {1}, {0, 2}, {1, 2, 3}])
@pytest.mark.parametrize("order", ["highest", "lowest"])
def test_a_generic_evaluator_reads_ranks(ranks: set[int], order: str) -> None:
    dice = [D4, SIGNED, D6, LOADED]
    got = evaluate(RankedSum(ranks, order, -1, 6), Pool(dice))
    assert_die(got, brute(lambda roll: sum(sorted(roll, reverse=order == "highest")[r] for r in ranks), dice))


def test_a_generic_evaluator_reads_two_pools() -> None:
    a, b = [D4, D6, D6], [D4, LOADED]
    assert_die(evaluate(Matches(), Pool(a), Pool(b)), brute(lambda x, y: len(set(x) & set(y)), a, b))


def test_the_ranked_sum_agrees_with_the_pools_own_keep() -> None:
    # two ways of the algebra to the same odds (the keep family is itself held to enumeration in test_algebra)
    assert evaluate(RankedSum({0, 1, 2}, "highest", 1, 6), Pool.of(D6, 5)).same(Pool.of(D6, 5).highest(3), 1e-12)


def test_an_exploded_die_keeps_what_its_truncation_left_out() -> None:
    die = D6.explode(depth=None)
    got = compare_sorted(Pool.of(die, 2), Pool.of(D6, 2))
    assert got.truncated == pytest.approx(2 * die.truncated)
    assert sum(p for _, p in got.items()) == pytest.approx(1 - got.truncated, abs=1e-15)


def test_refusals() -> None:
    with pytest.raises(DiceValueError):
        compare_sorted(Pool.of(D6, 2), Pool.of(D6, 2), "~")
    with pytest.raises(DiceValueError):
        compare_sorted(Pool.of(D6, 2), Pool.of(D6, 2), ">", "sideways")
    with pytest.raises(DiceValueError):
        evaluate(SortedPairs(), Pool.of(D6, 2))  # pairs need two pools

    class Runaway(Distinct):
        def size(self, sizes: tuple[int, ...]) -> int:
            return 2

        def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                       counts: tuple[np.ndarray, ...]) -> np.ndarray:
            return state + 1  # past its two states at the third outcome

    with pytest.raises(DiceValueError):
        evaluate(Runaway(), Pool.of(D6, 1))

    class Misshapen(Distinct):
        def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                       counts: tuple[np.ndarray, ...]) -> np.ndarray:
            return state[:1]

    with pytest.raises(DiceValueError):
        evaluate(Misshapen(), Pool.of(D6, 3))


def test_past_the_budget_is_refused_before_any_table() -> None:
    with pytest.raises(DiceLimitError):
        compare_sorted(Pool.of(D6, 1000), Pool.of(D6, 1000))
    with pytest.raises(DiceLimitError):
        compare_sorted(Pool.of(Die.uniform(1000), 40), Pool.of(D6, 40))


def test_kept_answers_are_told_apart_by_the_dice_chances() -> None:
    fair, loaded = Die.of([1, 2, 3]), Die.of([1, 2, 3, 3])
    first = compare_sorted(Pool.of(fair, 2), Pool.of(fair, 2))
    assert compare_sorted(Pool.of(fair, 2), Pool.of(fair, 2)).same(first, 0.0)  # asked again: kept
    other = compare_sorted(Pool.of(loaded, 2), Pool.of(fair, 2))  # same faces, other chances: not the kept answer
    assert_die(other, brute(pairs_holding(">", True), [loaded] * 2, [fair] * 2))
    assert_die(compare_sorted(Pool.of(fair, 2), Pool.of(fair, 2), "<"), brute(pairs_holding("<", True), [fair] * 2,
                                                                             [fair] * 2))


def test_refusals_are_said_in_french_too() -> None:
    from diceengine.i18n import translate_error

    with pytest.raises(DiceValueError) as info:
        compare_sorted(Pool.of(D6, 2), Pool.of(D6, 2), ">", "sideways")
    assert info.value.message == "a pool is sorted 'highest' or 'lowest' first, not 'sideways'"
    translate_error(info.value, "fr")
    assert info.value.message == "une réserve se trie par 'highest' ou 'lowest' d'abord, pas 'sideways'"
