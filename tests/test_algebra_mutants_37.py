"""Tests written for the mutants of the die algebra's other modules (``symbols.py``, ``symbol_boxes.py``, ``pool.py``,
``chains.py``, ``multiset.py``, ``diceengine/pmf_rank.py``) that survived their mutation run (session 37, a draw of
each module), each seen failing on the mutant it is for. Expected values are enumerated here, or are the
catalogue's own words, never read from the algebra."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from diceengine.algebra import Die, Evaluator, Pool, SortedPairs, SymbolDie, SymbolPool, Symbols, Throw
from diceengine.algebra.multiset import compare_sorted, evaluate
from diceengine.algebra.symbol_boxes import Box, Factor
from diceengine.algebra.symbols import SETUP_CELLS, _Kept
from diceengine.errors import DiceError
from diceengine.i18n import translate_error
from diceengine.pmf import WORK, ranked_die, ranked_die_cost
from diceengine.pmf_core import MAX_SUPPORT
from diceengine.pmf_rank import SMALL_SPAN

NAMES = ("success", "advantage")


def _refused(call: object, english: str, french: str | None = None) -> None:
    """``call()`` raises one of the engine's errors with this whole message (and this French one when given)."""
    with pytest.raises(DiceError) as info:
        call()  # type: ignore[operator]
    assert str(translate_error(info.value, "en")) == english
    if french is not None:
        assert str(translate_error(info.value, "fr")) == french


# ------------------------------------------------------------------ symbol dice


def test_a_symbol_die_draws_labels_and_keeps_its_name_through_a_map() -> None:
    die = SymbolDie.of(NAMES, [(0, 0), (1, 0), (1, 1), (0, 2)], name="ability")
    assert die.labels == (0, 1, 2, 3)  # by default, each face's index
    assert [die.face(lambda r=r: r) for r in (0.0, 0.26, 0.5, 0.99)] == [0, 1, 2, 3]
    mapped = die.map(lambda v: (v[0] + v[1], 0))
    assert (mapped.name, mapped.labels) == ("ability", (0, 1, 2, 3))
    assert mapped.faces == ((0, 0), (1, 0), (2, 0), (2, 0))


def test_a_symbol_pool_and_symbol_values_refuse_whole() -> None:
    plain, other = SymbolDie.of(NAMES, [(1, 0)]), SymbolDie.of(("success",), [(1,)])
    _refused(lambda: SymbolPool([]), "the pool has no dice")
    _refused(lambda: SymbolPool([plain, other]), "the dice of a pool count the same symbols")
    _refused(lambda: plain.value + other.value, "values over different symbols cannot be added")
    _refused(lambda: plain.value.repeat(-2), "a pool has a number of dice, not -2")
    _refused(lambda: Symbols.from_weights(NAMES, {(1, 0): 0.0}), "a die needs at least one face",
             "un dé a au moins une face")


def test_a_symbol_pool_past_the_budget_is_refused_naming_its_odds() -> None:
    faces = list(itertools.product(range(3), repeat=5))[:60]
    pool = SymbolPool([SymbolDie.of(("a", "b", "c", "d", "e"), faces)] * 20)
    with pytest.raises(DiceError) as info:
        pool.sum()
    assert str(info.value).startswith("this pool's odds would ")


def test_symbol_values_keep_their_names_and_only_their_outcomes() -> None:
    blank = Symbols.from_weights(NAMES, {(0, 0): 1.0})
    assert blank.names == NAMES and blank.items() == [((0, 0), 1.0)]
    # an outcome of weight 0 is no outcome, and its symbol is never shown
    some = Symbols.from_weights(NAMES, {(1, 0): 1.0, (0, 3): 0.0})
    assert some.items() == [((1, 0), 1.0)]
    assert some.marginal("advantage").outcomes() == [0] and some.marginal("advantage").max() == 0
    # a symbol no factor names is a column of whole zeros, as every column is
    assert some.columns()[0]["advantage"].dtype == np.int64


def test_a_map_past_the_budget_is_refused_naming_the_map() -> None:
    wide = Symbols(NAMES, [Factor((0, 1), [Box((0, 0), np.zeros((1000, 700)))])])  # 700,000 rows to read
    with pytest.raises(DiceError) as info:
        wide.map(lambda v: v)
    assert str(info.value).startswith("this map would take about ")


def test_the_set_ups_kept_count_their_cells() -> None:
    """The set-ups of symbol pools kept hold at most SETUP_CELLS cells in all, and the count kept is their sum."""
    kept = _Kept()
    die = SymbolDie.of(NAMES, [(0, 0), (1, 0), (1, 1), (2, 0), (0, 2)])
    for n in range(1, 40):
        kept.get(((die, n),), 2)
    held = sum(cells for _, cells in kept.found.values())
    assert 0 < held == kept.cells <= SETUP_CELLS


def test_symbol_values_written_and_compared() -> None:
    value = Symbols.from_weights(NAMES, {(1, 0): 1.0, (0, 1): 3.0})
    assert repr(value) == "Symbols(('success', 'advantage'), {(0, 1): 0.75, (1, 0): 0.25})"
    nearly = Symbols.from_weights(NAMES, {(1, 0): 1.0, (0, 1): 3.0, (2, 2): 4e-13})
    assert nearly.same(value) and value.same(nearly)  # an outcome of chance 1e-13 (within the tolerance) is none
    assert not nearly.same(value, tolerance=1e-14)


def test_a_factor_of_several_boxes_lists_every_row() -> None:
    factor = Factor((0, 1), [Box.of({(1, 0): 0.25, (1, 1): 0.25}), Box.of({(4, 2): 0.5})])
    value = Symbols(NAMES, [factor])
    assert sorted(value.items()) == [((1, 0), 0.25), ((1, 1), 0.25), ((4, 2), 0.5)]


# ------------------------------------------------------------------ pools


def _enumerate(dice: list[range], read: object) -> dict[int, Fraction]:
    """``read`` of the throw sorted highest first, over every throw of fair dice with these faces."""
    out: Counter[int] = Counter()
    for throw in itertools.product(*dice):
        out[read(sorted(throw, reverse=True))] += 1  # type: ignore[operator]
    total = sum(out.values())
    return {k: Fraction(c, total) for k, c in out.items()}


def _is(die: Die, expected: dict[int, Fraction]) -> None:
    assert die.outcomes() == sorted(k for k, p in expected.items() if p), die
    for k, p in expected.items():
        assert die.probability(k) == pytest.approx(float(p), abs=1e-12), k


def test_a_window_counts_from_the_highest_by_default_and_the_middle_leans_high() -> None:
    four = Pool.of(Die.uniform(6), 4)
    d6s = [range(1, 7)] * 4
    _is(four.window(0, 2), _enumerate(d6s, lambda s: s[0] + s[1]))
    _is(four.window(1, 3), _enumerate(d6s, lambda s: s[1] + s[2]))
    _is(four.middle(1), _enumerate(d6s, lambda s: s[1]))  # three left over: the higher one of the middle two
    mixed = Pool([Die.uniform(6), Die.uniform(6), Die.uniform(6), Die.uniform(4)])
    _is(mixed.middle(1), _enumerate([range(1, 7)] * 3 + [range(1, 5)], lambda s: s[1]))


def test_mixed_dice_read_by_rank_lowest_first_and_by_position() -> None:
    """A d6 and a d4 (not identical: read rank by rank); ranks are 1-based, highest first unless told."""
    mixed = Pool([Die.uniform(6), Die.uniform(4)])
    faces = [range(1, 7), range(1, 5)]
    _is(mixed.lowest(1), _enumerate(faces, lambda s: s[-1]))
    _is(mixed.positions([2]), _enumerate(faces, lambda s: s[1]))
    _is(mixed.positions([1, 2, 3]), _enumerate(faces, lambda s: s[0] + s[1]))  # a rank past the pool counts nothing
    _is(mixed.ranked([1, 0]), _enumerate(faces, lambda s: s[0]))


def test_a_pool_refuses_whole() -> None:
    _refused(lambda: Pool.of(Die.uniform(6), -1), "a pool has a number of dice, not -1")
    mixed = Pool([Die.uniform(6), Die.uniform(4)])
    _refused(lambda: mixed.ranked([1, 0], order="middle"), "a pool is sorted 'highest' or 'lowest' first, not 'middle'")
    _refused(lambda: mixed.ranked([1, 0, 0]), "one weight a die")


def test_a_pool_past_the_budget_is_refused_naming_its_odds() -> None:
    big = Pool.of(Die.uniform(1000), 200)
    for call in (lambda: big.highest(100), lambda: big.window(3, 150)):
        with pytest.raises(DiceError) as info:
            call()
        assert str(info.value).startswith("this pool's odds would take about ")


# ------------------------------------------------------------------ explosions


def test_an_explosion_that_never_stops_is_refused_whole() -> None:
    _refused(lambda: Die.uniform(6).explode(on=range(1, 7), depth=None),
             "every face explodes: the die never stops")
    # a die exploding 99 times in 100 goes on past 200 explosions before its chance left is negligible
    _refused(lambda: Die.from_weights({1: 1, 2: 99}).explode(on=[2], depth=None),
             "more than 200 explosions of one die")


def test_the_chains_of_a_throw_start_with_no_throw_added_and_end_with_an_empty_part() -> None:
    parts = list(Throw.of(range(1, 7)).explode([6], depth=None).chains())
    assert [k for k, _ in parts[:3]] == [0, 1, 2] and parts[-1][0] == -1
    assert dict(parts[0][1].items()) == pytest.approx({k: 1 / 6 for k in range(1, 6)})
    still = list(Throw.of(range(1, 7)).explode([7]).chains())  # nothing explodes: nothing left out
    assert [k for k, _ in still] == [0, -1]
    # with a depth nothing is left out: no last part (algebra.chains.chains, since keyed_chains)
    assert [k for k, _ in Throw.of(range(1, 7)).explode([7], depth=2).chains()] == [0]
    assert still[-1][1].mass == 0 and list(still[-1][1].items()) == []
    none_added = Throw.of(range(1, 7)).explode([6], depth=0)  # no throw may be added: the die as it is
    assert [k for k, _ in none_added.chains()] == [0]
    assert [(k, chance) for k, chance, _ in none_added.by_added[0]] == [(0, pytest.approx(1.0))]


# ------------------------------------------------------------------ multiset


def test_sorted_pairs_refuse_whole() -> None:
    _refused(lambda: SortedPairs("~"), "unknown comparison '~'", "comparaison inconnue : '~'")
    three = Pool.of(Die.uniform(6), 3)
    _refused(lambda: evaluate(SortedPairs(">"), three), "sorted pairs compare two pools, not 1")


def test_a_comparison_of_sorted_pools_is_kept_as_a_value() -> None:
    attack, defence = Pool.of(Die.uniform(6), 3), Pool.of(Die.uniform(6), 2)
    first = compare_sorted(attack, defence, ">")
    assert compare_sorted(attack, defence, ">") is first


# ------------------------------------------------------------------ the die of one rank


def test_the_work_of_a_ranked_die_is_added_to_the_work_counted() -> None:
    faces = [(v, 1 / 6) for v in range(1, 7)]
    before = WORK.work = 12345.0
    ranked_die(faces, 3, 2)
    ranked_die(faces, 3, 2)
    assert WORK.work == pytest.approx(before + 2 * ranked_die_cost(6, 3, 2, 1, 6).work)


def test_a_ranked_die_spans_up_to_the_largest_support() -> None:
    """Two faces MAX_SUPPORT - 1 apart span MAX_SUPPORT outcomes, the most exact odds hold; one more is refused."""
    top = ranked_die([(1, 0.5), (MAX_SUPPORT, 0.5)], 2, 1)  # the higher of two: 1 only when both show 1
    assert top.prob(1) == pytest.approx(0.25) and top.prob(MAX_SUPPORT) == pytest.approx(0.75)
    _refused(lambda: ranked_die([(0, 0.5), (MAX_SUPPORT, 0.5)], 2, 1),
             f"too many possible results for exact odds ({MAX_SUPPORT + 1}, at most {MAX_SUPPORT})")


def test_the_estimate_of_a_ranked_die_grows_with_its_span() -> None:
    """Worked the same way (value by value up to SMALL_SPAN outcomes, in arrays past it), a die spanning more
    outcomes never costs less to rank, nor one with more faces; every estimate is positive."""
    for n in range(1, 13):
        for rank in range(n):
            for faces in (2, 6, 20):
                for spans in (range(faces, SMALL_SPAN + 1), range(SMALL_SPAN + 1, 160)):
                    costs = [ranked_die_cost(faces, n, rank, 1, span) for span in spans]
                    assert all(c.work > 0 and c.cells > 0 for c in costs)
                    assert all(a.work < b.work and a.cells < b.cells for a, b in itertools.pairwise(costs)), (n, rank)
            for span in (SMALL_SPAN, 100):
                wider = [ranked_die_cost(f, n, rank, 1, span) for f in range(2, span + 1)]
                assert all(a.work < b.work for a, b in itertools.pairwise(wider))


def test_a_die_is_placed_whole_at_its_last_outcome() -> None:
    """Read best first, a die is placed by its lowest outcome at the latest, even when its chances left do not add
    up to it to the last bit (a d3: 1 - 1/3 - 1/3 is a little more than 1/3): no chance is left for an outcome
    below, which it never shows."""
    for other in (Die.constant(0), Die.of([0, 5])):
        highest = Pool([Die.uniform(3), other]).highest(1)
        assert 0 not in highest.outcomes(), highest
        assert highest.probability(0) == 0.0


def test_a_sum_of_boxes_past_the_memory_budget_is_refused_for_its_memory() -> None:
    """A box of 5.76 million cells plus one of a single cell: little work, but the sum's tables (three arrays of its
    size) are past the memory budget: refused, saying so."""
    big = Box((0, 0), np.zeros((2400, 2400)))
    big.grid[0, 0] = 1.0
    with pytest.raises(DiceError) as info:
        big.add(Box.of({(0, 0): 1.0}))
    assert str(info.value).startswith("this sum would need about ")


def test_the_rows_of_two_large_factors_are_refused_for_their_work() -> None:
    """Two independent symbols of 5,000 outcomes each: 25 million rows to list, past the work budget (refused for
    the work, before the tables are made)."""
    side = Box((0,), np.full(5000, 1 / 5000))
    value = Symbols(NAMES, [Factor((0,), [side]), Factor((1,), [side])])
    with pytest.raises(DiceError) as info:
        value.columns()
    assert str(info.value).startswith("these odds would take about ")


class _Broken(Evaluator):
    """An evaluator made wrong on purpose, in one of four ways."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self.order = "middle" if fault == "order" else "highest"

    def size(self, sizes: tuple[int, ...]) -> int:
        return 3

    def initial(self) -> int:
        return 3 if self.fault == "initial" else 0

    def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                   counts: tuple[np.ndarray, ...]) -> np.ndarray:
        if self.fault == "shape":
            return state[:1]
        return state + 3 if self.fault == "above" else state


def test_an_evaluator_that_breaks_its_contract_is_refused_whole() -> None:
    two = Pool.of(Die.uniform(6), 2)
    _refused(lambda: evaluate(_Broken("order"), two), "a pool is sorted 'highest' or 'lowest' first, not 'middle'")
    _refused(lambda: evaluate(_Broken("initial"), two), "the evaluator's initial state 3 is not one of its 3 states")
    _refused(lambda: evaluate(_Broken("shape"), two), "the evaluator must give one state for each case")
    _refused(lambda: evaluate(_Broken("above"), two), "the evaluator left its 3 states")
    assert evaluate(_Broken("none"), two).outcomes() == [0]


def test_an_evaluation_leaves_out_what_its_dice_left_out() -> None:
    exploding = Die.uniform(6).explode(depth=None)
    counted = evaluate(SortedPairs(">"), Pool.of(exploding, 2), Pool.of(Die.uniform(6), 1))
    assert counted.truncated == pytest.approx(2 * exploding.truncated, rel=1e-12, abs=0)


def test_an_evaluation_past_the_budget_is_refused_naming_it() -> None:
    thirty = Pool.of(Die.uniform(100), 30)
    with pytest.raises(DiceError) as info:
        evaluate(SortedPairs(">"), thirty, thirty)
    assert str(info.value).startswith("this multiset evaluation would take about ")
