"""Tests written for the mutants of ``diceengine/algebra/die.py`` and ``diceengine/algebra/throw.py`` that survived
their mutation run (session 37: every mutant of both modules judged), each seen failing on the mutant it is for.
Expected values are enumerated here from the definitions of the operations (docs/algebra.md) or are the catalogue's
own words, never read from the algebra."""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest

from diceengine.algebra import Die, Throw
from diceengine.errors import DiceValueError
from diceengine.i18n import translate_error
from diceengine.pmf import PMF


def _is(die: Die, expected: dict[int, Fraction]) -> None:
    """``die`` has exactly these outcomes with these chances (to 1e-12)."""
    assert die.outcomes() == sorted(k for k, p in expected.items() if p), die
    for k, p in expected.items():
        assert die.probability(k) == pytest.approx(float(p), abs=1e-12), k


def _refused(call: object, english: str, french: str) -> None:
    """``call()`` raises the engine's value error with this whole message in English and in French."""
    with pytest.raises(DiceValueError) as info:
        call()  # type: ignore[operator]
    assert str(translate_error(info.value, "en")) == english
    assert str(translate_error(info.value, "fr")) == french


# ------------------------------------------------------------------ refusals, whole


def test_a_die_without_faces_is_refused_in_both_languages() -> None:
    english, french = "a die needs at least one face", "un dé a au moins une face"
    _refused(lambda: Die.uniform(0), english, french)
    _refused(lambda: Die(PMF.point(0, 0.0)), english, french)
    _refused(lambda: Die.mix([]), english, french)
    _refused(lambda: Die.mix([(1, 0.0), (Die.uniform(6), 0.0)]), english, french)  # weights summing to nothing
    _refused(lambda: Throw.of([]), english, french)


def test_a_negative_weight_is_refused_and_a_zero_weight_is_a_face_never_shown() -> None:
    _refused(lambda: Die.from_weights({1: 1.0, 2: -0.5}), "a weight cannot be negative",
             "un poids ne peut pas être négatif")
    _is(Die.from_weights({1: 0, 2: 1, 3: 3}), {2: Fraction(1, 4), 3: Fraction(3, 4)})


def test_an_unknown_comparison_and_an_operand_not_a_whole_number_are_refused_whole() -> None:
    _refused(lambda: Die.uniform(6).compare("~", 3), "unknown comparison '~'", "comparaison inconnue : '~'")
    _refused(lambda: Die.uniform(6) * 2.5, "expected a die or a whole number, not 2.5",  # type: ignore[operator]
             "attendu un dé ou un nombre entier, pas 2.5")
    _refused(lambda: Die.uniform(6) * "3",  # type: ignore[operator]
             "expected a die or a whole number, not '3'", "attendu un dé ou un nombre entier, pas '3'")


# ------------------------------------------------------------------ values


def test_a_fair_die_gives_each_face_exactly_one_over_its_sides() -> None:
    """The float a user compares a face's chance with: ``1 / sides``, to the last bit."""
    for sides in range(1, 101):
        die = Die.uniform(sides)
        assert all(die.probability(face) == 1 / sides for face in range(1, sides + 1)), sides


def test_a_number_taken_from_a_die_shifts_it_down() -> None:
    _is(Die.uniform(6) - 3, {k - 3: Fraction(1, 6) for k in range(1, 7)})
    _is(10 - Die.uniform(4), {10 - k: Fraction(1, 4) for k in range(1, 5)})


def _divided(xs: list[int], ys: list[int]) -> dict[int, Fraction]:
    """``x / y`` truncated toward zero (as AnyDice and C divide), a division by zero 0: every pair enumerated."""
    out: dict[int, Fraction] = {}
    for x, y in itertools.product(xs, ys):
        q = 0 if y == 0 else abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        out[q] = out.get(q, Fraction(0)) + Fraction(1, len(xs) * len(ys))
    return out


def test_division_truncates_toward_zero_and_a_division_by_zero_is_zero_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "divide by zero" warning would be raised
        _is(Die.constant(7) // Die.of([0, 2, -2]), _divided([7], [0, 2, -2]))
        _is(Die.of([-7, 7, 0]) // Die.of([0, 3]), _divided([-7, 7, 0], [0, 3]))
        _is(10 // Die.of([3, -3, 0]), _divided([10], [3, -3, 0]))
        _is(-9 // Die.of([2, 4]), _divided([-9], [2, 4]))


def test_clip_with_one_bound_leaves_outcomes_far_beyond_the_other_side_alone() -> None:
    _is(Die.uniform(200).clip(lo=5), {5: Fraction(5, 200), **{k: Fraction(1, 200) for k in range(6, 201)}})
    _is((-Die.uniform(200)).clip(hi=-5), {-5: Fraction(5, 200), **{-k: Fraction(1, 200) for k in range(6, 201)}})


def test_a_mixture_spans_only_its_parts_outcomes() -> None:
    mixed = Die.mix([(5, 1.0), (Die.of([6, 7]), 1.0)])
    _is(mixed, {5: Fraction(1, 2), 6: Fraction(1, 4), 7: Fraction(1, 4)})
    assert (mixed.min(), mixed.max()) == (5, 7)


def test_a_die_is_written_with_its_first_twelve_outcomes() -> None:
    assert repr(Die.uniform(2)) == "Die({1: 0.5, 2: 0.5})"
    twelve = ", ".join(f"{k}: {float(Fraction(1, 12)):.6g}" for k in range(1, 13))
    assert repr(Die.uniform(12)) == "Die({" + twelve + "})"
    thirteen = ", ".join(f"{k}: {float(Fraction(1, 13)):.6g}" for k in range(1, 13))
    assert repr(Die.uniform(13)) == "Die({" + thirteen + ", ...})"


# ------------------------------------------------------------------ what an explosion left out


@pytest.fixture(scope="module")
def left_out() -> tuple[Die, Die]:
    """Two dice exploding without end (a d6 on 6, a d4 on 4): each leaves out a different chance."""
    a, b = Die.uniform(6).explode(depth=None), Die.uniform(4).explode(depth=None)
    assert 0 < b.truncated < a.truncated < 1e-6 or 0 < a.truncated < b.truncated < 1e-6
    return a, b


def _leaves(die: Die, truncated: float) -> None:
    """``die`` leaves out ``truncated`` (to rounding) and its outcomes hold the rest."""
    assert die.truncated == pytest.approx(truncated, rel=1e-12, abs=0)
    assert die.pmf.mass == pytest.approx(1 - truncated, abs=1e-15)


def test_what_explosions_left_out_adds_up_through_every_operation(left_out: tuple[Die, Die]) -> None:
    """An operation on dice that left out chances leaves out their sum (the union bound the algebra keeps): through a
    sum, a difference, a product, a comparison, a number added, a negation, a clip, a count and copies summed."""
    a, b = left_out
    both = a.truncated + b.truncated
    for die in (a + b, a - b, a * b, a.combine(b, np.maximum), a.compare(">", b)):
        _leaves(die, both)
    for die in (a + 3, -a, a.clip(2, 9), a.count({6}), a * 2):
        _leaves(die, a.truncated)
    _leaves(a.repeat(3), 3 * a.truncated)


def test_a_mixture_leaves_out_its_parts_share_weighted(left_out: tuple[Die, Die]) -> None:
    a, b = left_out
    _leaves(Die.mix([(a, 2.0), (b, 1.0)]), (2 * a.truncated + b.truncated) / 3)
    _leaves(Die.mix([(a, 3.0), (7, 1.0)]), 3 * a.truncated / 4)


# ------------------------------------------------------------------ Throw


def test_a_throw_keeps_a_range_and_sorts_listed_faces() -> None:
    """A range stays a range (a d1000 is not listed face by face); listed faces are sorted, so the draw ``r`` picks
    the ``int(r * n)``-th lowest."""
    assert Throw.of(range(1, 1001)).faces == range(1, 1001)
    listed = Throw.of([3, 1, 2, 2])
    assert listed.faces == (1, 2, 2, 3)
    assert [listed.face(lambda r=r: r) for r in (0.0, 0.3, 0.6, 0.9)] == [1, 2, 2, 3]


def test_a_throw_explodes_on_the_faces_named() -> None:
    d6 = Throw.of(range(1, 7))
    assert d6.explode().explode_on == {6}
    assert d6.explode([1, 2]).explode_on == {1, 2}
    assert d6.explode(lambda v: v % 2 == 0).explode_on == {2, 4, 6}


def test_a_range_with_a_step_is_drawn_among_its_faces() -> None:
    evens = Throw.of(range(2, 13, 2))
    faces = evens.faces_of(3000, np.random.default_rng(37))
    assert set(faces.tolist()) == {2, 4, 6, 8, 10, 12}
    first, total, _ = evens.explode([12], depth=1).sample(3000, np.random.default_rng(37))
    assert set(first.tolist()) == {2, 4, 6, 8, 10, 12}
    assert set(total.tolist()) == {2, 4, 6, 8, 10} | {12 + k for k in (2, 4, 6, 8, 10, 12)}


def test_the_added_throws_of_a_sample_are_counts() -> None:
    """Whole numbers, as a count is read (``np.bincount`` of them gives how many throws added each number)."""
    _, _, added = Throw.of(range(1, 7)).explode(depth=2).sample(2000, np.random.default_rng(37))
    assert added.dtype.kind == "i"
    assert np.bincount(added).sum() == 2000 and added.max() <= 2


def test_the_chains_of_a_penetrating_throw_count_each_added_throw_one_less() -> None:
    """A d6 exploding once on 6, penetrating: no throw added (1-5), or one added and counted one less (6 + x - 1)."""
    throw = Throw.of(range(1, 7)).explode([6], depth=1, penetrate=True)
    parts = {k: dict(masses.items()) for k, masses in throw.chains() if masses.mass > 0}
    assert set(parts) == {0, 1}
    assert parts[0] == pytest.approx({k: 1 / 6 for k in range(1, 6)})
    assert parts[1] == pytest.approx({6 + x - 1: 1 / 36 for x in range(1, 7)})
