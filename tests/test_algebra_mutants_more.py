"""The die algebra's edges that session 35's sampled mutation run (``python -m tests.mutation diceengine/algebra/*.py
--sample 10 --seed 35``) found unchecked. Each expected value is enumerated here from the operations' definitions
(the docstrings of :mod:`diceengine.algebra`), never read from the algebra itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from diceengine import algebra
from diceengine.algebra import Die, Pool, SymbolDie, Symbols, Throw
from diceengine.algebra.chains import chains_total, roll_steps
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import translate_error
from diceengine.limits import MAX_EXPLOSIONS
from diceengine.pmf import PMF


def _exploding_d6(depth: int) -> dict[int, dict[int, Fraction]]:
    """A d6 exploding on 6 with at most ``depth`` added throws, enumerated: for each number of throws added, the
    chance of each total."""
    parts: dict[int, dict[int, Fraction]] = {}
    for throws in itertools.product(range(1, 7), repeat=depth + 1):
        used = 1
        while used <= depth and throws[used - 1] == 6:
            used += 1
        part = parts.setdefault(used - 1, {})
        total = sum(throws[:used])
        part[total] = part.get(total, Fraction(0)) + Fraction(1, 6 ** (depth + 1))
    return parts


def test_an_unknown_name_of_the_algebra_is_refused_by_name() -> None:
    with pytest.raises(AttributeError, match=r"^module 'diceengine\.algebra' has no attribute 'Dice'$"):
        algebra.Dice  # noqa: B018


def test_a_name_of_the_algebra_read_twice_is_the_same_value() -> None:
    # the package imports a name from its module on first use and keeps it: the second read finds it kept
    from diceengine.algebra.throw import Throw as real

    saved = algebra.__dict__.pop("Throw", None)
    try:
        assert algebra.Throw is real
        assert algebra.__dict__["Throw"] is real
        assert algebra.Throw is real
    finally:
        if saved is not None:
            algebra.Throw = saved  # type: ignore[misc]


def test_a_throws_chains_by_added_throws_match_the_enumeration() -> None:
    expected = _exploding_d6(2)
    got = list(Throw.of(range(1, 7)).explode(depth=2).chains())
    assert [k for k, _ in got] == [0, 1, 2]
    for k, masses in got:
        assert dict(masses.items()) == pytest.approx({t: float(p) for t, p in expected[k].items()}, abs=1e-15)


def test_the_first_throw_of_a_chain_may_be_another_die() -> None:
    # a d6 exploding on 6 once, its first throw a die showing 5 or 6 (a face kept after re-rolls, say)
    d6 = PMF.from_counts(range(1, 7))
    total, left = chains_total(d6, frozenset({6}), 1, False, first=PMF.from_counts([5, 6]))
    expected = {5: Fraction(1, 2), **{6 + k: Fraction(1, 12) for k in range(1, 7)}}
    assert left == 0
    assert dict(total.items()) == pytest.approx({t: float(p) for t, p in expected.items()}, abs=1e-15)


def test_the_variance_of_a_die_matches_the_enumeration() -> None:
    faces = [1, 1, 2, 5, 9]
    mean = Fraction(sum(faces), len(faces))
    variance = sum((Fraction(f) - mean) ** 2 for f in faces) / len(faces)
    assert Die.of(faces).variance() == pytest.approx(float(variance), abs=1e-12)
    # the sum of two independent d6: each d6's variance is 35/12
    assert (Die.uniform(6) + Die.uniform(6)).variance() == pytest.approx(35 / 6, abs=1e-12)


@pytest.mark.parametrize("read", ["highest", "window"])
def test_what_exploding_dice_left_out_adds_up_over_a_pool(read: str) -> None:
    # each die leaves out t; n dice leave out about n * t (1 - (1 - t) ** n to within t ** 2)
    die = Die.uniform(6).explode(depth=None)
    t = die.truncated
    assert 0 < t < 1e-9
    pool = Pool.of(die, 3)
    kept = pool.highest(2) if read == "highest" else pool.window(1, 2)
    assert kept.truncated == pytest.approx(1 - (1 - t) ** 3, rel=1e-6)
    assert sum(p for _, p in kept.items()) == pytest.approx(1 - 3 * t, abs=1e-15)


def test_too_deep_an_explosion_is_refused_in_both_languages() -> None:
    with pytest.raises(DiceLimitError) as caught:
        list(roll_steps(6, lambda: 6, lambda f: f == 6, None))
    assert str(caught.value) == f"explosion deeper than {MAX_EXPLOSIONS} dice in one die"
    assert str(translate_error(caught.value, "fr")) == f"explosion de plus de {MAX_EXPLOSIONS} dés dans un dé"


def test_the_sorted_rolls_of_a_mixed_pool_merge_the_same_roll_thrown_two_ways() -> None:
    # a d2 and a d3: (2, 1) is the d2 on 2 and the d3 on 1, or the d2 on 1 and the d3 on 2
    expected: dict[tuple[int, ...], Fraction] = {}
    for a, b in itertools.product(range(1, 3), range(1, 4)):
        key = tuple(sorted((a, b), reverse=True))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 6)
    got = dict(Pool([Die.uniform(2), Die.uniform(3)]).sorted_outcomes())
    assert got == pytest.approx({k: float(p) for k, p in expected.items()}, abs=1e-15)


def test_symbols_whose_rows_would_not_fit_the_tables_budget_are_refused() -> None:
    # two independent symbols of 3,000 outcomes each: 9,000,000 rows of two counts and a chance (27 million cells,
    # over the 16 million of MAX_CELLS, while their work is within the budget): refused before any row is made
    names = ("a", "b")
    wide = Symbols.from_weights(names, {(i, 0): 1.0 for i in range(3000)}) + Symbols.from_weights(
        names, {(0, j): 1.0 for j in range(3000)})
    with pytest.raises(DiceLimitError, match=r"^these odds would need about [\d,]+ MiB of tables"):
        wide.columns()


def test_a_symbol_die_with_a_label_missing_is_refused_in_both_languages() -> None:
    with pytest.raises(DiceValueError) as caught:
        SymbolDie.of(("s",), [(1,), (0,)], labels=["hit"])
    assert str(caught.value) == "a die has one label a face"
    assert str(translate_error(caught.value, "fr")) == "un dé a une étiquette par face"
