"""The die algebra's edges that its mutation run (``python -m tests.mutation diceengine/algebra/*.py``) found
unchecked: each expected value enumerated here, from the definitions of the operations (docs/algebra.md), never
from the algebra itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from diceengine.algebra import Die, Pool, Throw
from diceengine.algebra.chains import sample_steps
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.limits import MAX_EXPLOSIONS


def _is(die: Die, expected: dict[int, Fraction]) -> None:
    """``die`` has exactly these outcomes with these chances (to 1e-12)."""
    assert die.outcomes() == sorted(k for k, p in expected.items() if p), die
    for k, p in expected.items():
        assert die.probability(k) == pytest.approx(float(p), abs=1e-12), k


def test_a_re_roll_named_by_a_function_is_a_re_roll_named_by_its_faces() -> None:
    # a d6 re-rolled once on a 1: the 1 stays only when thrown twice (1/36); every other face 1/6 + 1/36
    expected = {1: Fraction(1, 36), **{k: Fraction(1, 6) + Fraction(1, 36) for k in range(2, 7)}}
    _is(Die.uniform(6).reroll(lambda v: v == 1), expected)
    _is(Die.uniform(6).reroll([1]), expected)


@pytest.mark.parametrize("value", [True, np.bool_(False), 2.5, "3"])
def test_only_a_die_or_a_whole_number_is_an_operand(value: object) -> None:
    with pytest.raises(DiceValueError, match="expected a die or a whole number"):
        Die.uniform(6) * value  # type: ignore[operator]


def test_what_an_explosion_left_out_stays_out_through_a_sum_and_a_re_roll() -> None:
    exploding = Die.uniform(6).explode(depth=None)
    assert 0 < exploding.truncated < 1e-6
    for changed in (exploding + Die.uniform(4), exploding.reroll([1])):
        assert changed.truncated == exploding.truncated
        assert sum(p for _, p in changed.items()) == pytest.approx(1 - exploding.truncated, abs=1e-15)


def test_clip_with_one_bound_leaves_the_other_side_alone() -> None:
    _is(Die.uniform(6).clip(hi=4), {1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 2)})
    _is(Die.uniform(6).clip(lo=3), {3: Fraction(1, 2), 4: Fraction(1, 6), 5: Fraction(1, 6), 6: Fraction(1, 6)})


def test_an_unknown_comparison_is_named_in_the_refusal() -> None:
    with pytest.raises(DiceValueError, match="unknown comparison '~'"):
        Die.uniform(6).compare("~", 3)


def test_an_explosion_adds_at_most_two_throws_by_default() -> None:
    # a d6 exploding on 6: enumerate the first throw and at most two more (the last one stands, 6 or not)
    expected: dict[int, Fraction] = {}
    for throws in itertools.product(range(1, 7), repeat=3):
        used = 1
        while used < 3 and throws[used - 1] == 6:
            used += 1
        total = sum(throws[:used])
        expected[total] = expected.get(total, Fraction(0)) + Fraction(1, 6 ** 3)
    _is(Die.uniform(6).explode(), expected)
    assert Die.uniform(6).explode().max() == 18


def test_an_explosion_on_no_face_is_the_die_itself() -> None:
    for depth in (None, 1, 3):
        assert Die.uniform(6).explode(on=[7], depth=depth).same(Die.uniform(6))


def test_zero_copies_sum_to_zero_and_a_one_sided_die_is_allowed() -> None:
    _is(Die.uniform(6).repeat(0), {0: Fraction(1)})
    _is(Die.uniform(1), {1: Fraction(1)})
    _is(Die.uniform(6).repeat(-1), {-k: Fraction(1, 6) for k in range(1, 7)})


def test_same_tells_equal_dice_from_different_ones() -> None:
    assert Die.uniform(6).same(Die.of([1, 2, 3, 4, 5, 6]))
    assert Die.uniform(4).same(Die.uniform(4) + 0)
    assert not Die.uniform(6).same(Die.uniform(4))
    assert not Die.uniform(6).same(Die.uniform(6) + 1)


def test_the_lowest_zero_dice_total_zero() -> None:
    _is(Pool.of(Die.uniform(6), 3).lowest(0), {0: Fraction(1)})
    _is(Pool.of(Die.uniform(6), 3).highest(0), {0: Fraction(1)})


def test_the_highest_of_a_mixed_pool_by_enumeration() -> None:
    dice = [range(1, 5), range(1, 7), range(1, 9)]
    total = 4 * 6 * 8
    for keep in (1, 2):
        expected: dict[int, Fraction] = {}
        for faces in itertools.product(*dice):
            k = sum(sorted(faces, reverse=True)[:keep])
            expected[k] = expected.get(k, Fraction(0)) + Fraction(1, total)
        _is(Pool([Die.uniform(4), Die.uniform(6), Die.uniform(8)]).highest(keep), expected)


@pytest.mark.slow
def test_a_pool_of_exactly_the_most_sorted_rolls_is_listed() -> None:
    # two different dice of 1,000 faces: 1,000 x 1,000 = 1,000,000 sorted rolls, the most a pool may list
    from diceengine.algebra.pool import MAX_SORTED_OUTCOMES

    assert MAX_SORTED_OUTCOMES == 1_000_000
    rolls = Pool([Die.uniform(1000), Die.uniform(1000) + 1000]).sorted_outcomes()
    assert sum(1 for _ in rolls) == 1_000_000
    with pytest.raises(DiceLimitError):
        next(Pool([Die.uniform(1000), Die.uniform(1001) + 1000]).sorted_outcomes())


def test_a_throw_explodes_on_its_highest_face_by_default() -> None:
    assert Throw.of([1, 2, 3, 4, 5, 6]).explode().explode_on == frozenset({6})
    assert Throw.of([2, 4, 9]).explode().explode_on == frozenset({9})
    with pytest.raises(DiceValueError, match="a die needs at least one face"):
        Throw.of([])


def test_an_unbounded_explosion_may_add_exactly_the_most_throws() -> None:
    def draws(sixes: int):
        left = [sixes]

        def draw(n: int) -> np.ndarray:
            left[0] -= 1
            return np.full(n, 6 if left[0] > 0 else 1)
        return draw

    def explodes(faces: np.ndarray) -> np.ndarray:
        return faces == 6

    # the first 6, then MAX_EXPLOSIONS added throws, the last a 1: allowed
    steps = list(sample_steps(np.array([6]), draws(MAX_EXPLOSIONS), explodes, None))
    assert len(steps) == MAX_EXPLOSIONS
    # one 6 more: one throw past the most, refused
    with pytest.raises(DiceLimitError):
        list(sample_steps(np.array([6]), draws(MAX_EXPLOSIONS + 1), explodes, None))


def test_added_throws_stop_at_the_depth_or_are_refused_past_the_most_explosions() -> None:
    """A die that always explodes: ``depth`` throws added at most; with no depth, refused past MAX_EXPLOSIONS
    (one roll and a sample alike), naming what exploded."""
    import numpy as np
    import pytest

    from diceengine.algebra.chains import roll_steps, sample_steps
    from diceengine.errors import DiceLimitError
    from diceengine.limits import MAX_EXPLOSIONS

    assert list(roll_steps(6, lambda: 6, lambda f: f == 6, 3)) == [6, 6, 6]
    with pytest.raises(DiceLimitError, match=f"deeper than {MAX_EXPLOSIONS} dice in one die"):
        list(roll_steps(6, lambda: 6, lambda f: f == 6, None))
    rounds = list(sample_steps(np.array([6, 1, 6]), lambda n: np.full(n, 6), lambda a: a == 6, 2))
    assert [a.tolist() for a, _ in rounds] == [[0, 2], [0, 2]]
    with pytest.raises(DiceLimitError, match=f"deeper than {MAX_EXPLOSIONS} dice in one die"):
        list(sample_steps(np.array([6]), lambda n: np.full(n, 6), lambda a: a == 6, None))
