"""The exact odds' edges that session 35's sampled mutation run (``python -m tests.mutation diceengine/pmf*.py
diceengine/distributions.py diceengine/compare.py systems/standard/exact.py systems/standard/term/{exact,pooled,
each_die}.py systems/standard/evaluate/pooled.py --sample 10 --seed 35``) found unchecked. Expected values are
enumerated or counted by hand here (the notation's rules, arithmetic written out), never read from the engine."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems.standard.exact import MAX_PAIRS, close, combine, show
from diceengine.systems.standard.term.pooled import run

import diceengine as de
from diceengine.api import distribution
from diceengine.distributions import Distribution
from diceengine.errors import DiceError, DiceLimitError
from diceengine.i18n import translate_error
from diceengine.limits import PYTHON_STEP
from diceengine.parts import Face, Group
from diceengine.pmf import PMF, ranked_die_cost


@pytest.mark.parametrize(("value", "written"), [
    (7, "7"), (-3, "-3"), (Fraction(15, 2), "7.5"), (Fraction(-1009, 20), "-50.45"), (Fraction(1, 8), "0.125"),
    (Fraction(2, 3), "2/3"), (Fraction(6, 3), "2"), (2.5, "2.5"),
])
def test_a_value_is_shown_as_a_player_reads_it(value: object, written: str) -> None:
    # 1009/20 = 50.45 (20 = 2^2 * 5: two decimals); 1/8 = 0.125; 2/3 has no finite decimal expansion
    assert show(value) == written


def test_too_many_pairs_for_an_exact_operation_are_refused_in_both_languages() -> None:
    side = int(MAX_PAIRS ** 0.5) + 1  # side * side pairs: just past the most
    big = PMF(1, np.full(side, 1.0 / side))
    with pytest.raises(DiceLimitError) as caught:
        combine(big, big, lambda a, b: a * b)
    assert str(caught.value) == f"too many possible results for exact odds (at most {MAX_PAIRS:,} pairs)"
    assert str(translate_error(caught.value, "fr")) == (
        f"trop de résultats possibles pour des probabilités exactes (au plus {MAX_PAIRS:,} paires)")


def test_floats_near_zero_are_equal_up_to_an_absolute_rounding() -> None:
    # below 1 the tolerance is absolute (1e-9); above, relative to the larger value
    assert close(1e-12, 0)
    assert close(0.0, -5e-10)
    assert not close(0.0, 1e-8)
    assert close(1e6, 1e6 + 1e-4)
    assert not close(1e6, 1e6 + 1e-2)
    assert close(3, 3) and not close(3, 4)


def test_a_distribution_sampled_draws_its_outcomes_by_their_chances() -> None:
    # 2d6 enumerated: the chance of each total; a fixed seed, so the same draw every run
    exact = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    n = 36_000
    drawn = distribution("2d6").sample(n, seed=35)
    counts = Counter(drawn["total"].tolist())
    assert set(counts) == set(exact)
    for total, ways in exact.items():
        p = ways / 36
        assert abs(counts[total] - n * p) < 6 * (n * p * (1 - p)) ** 0.5, total


def test_an_empty_distribution_has_nothing_to_draw() -> None:
    empty = Distribution(int, {"total": np.array([], dtype=np.int64)}, np.array([]))
    with pytest.raises(DiceError, match=r"^this distribution has no outcome to draw$"):
        empty.sample(3, seed=1)


@pytest.mark.parametrize(("n", "rank"), [(10, 5), (9, 0), (12, 8)])
def test_a_ranked_die_on_a_small_support_is_estimated_from_the_values_it_walks(n: int, rank: int) -> None:
    # a support of 30 values (the value-by-value path, under SMALL_SPAN): each of its values sums
    # min(rank + 1, n - rank) binomial terms in Python, after each face is read once
    span = 30
    terms = min(rank + 1, n - rank)
    assert ranked_die_cost(span, n, rank, 1, span).work >= PYTHON_STEP * (span + span * terms)


def test_a_ranked_die_on_a_large_support_is_estimated_from_its_faces_and_cells() -> None:
    # in arrays: each face is read once in Python, then each array pass walks every value of the span
    faces = span = 10_000
    for n, rank in ((4, 3), (8, 2)):
        terms = min(rank + 1, n - rank)
        assert ranked_die_cost(faces, n, rank, 1, span).work >= PYTHON_STEP * faces + terms * span


class _SecondHighest:
    """A multiset evaluator that reads ranks: the face of the die ranked second from the top (states 0..6)."""

    order = "highest"

    def size(self, sizes: tuple[int, ...]) -> int:
        return 7

    def initial(self) -> int:
        return 0

    def next_state(self, state, outcome, seen, counts):  # type: ignore[no-untyped-def]
        (before,), (now,) = seen, counts
        return np.where((before <= 1) & (1 < before + now), outcome, state)

    def final(self, state):  # type: ignore[no-untyped-def]
        return state


def test_a_pooled_score_visits_the_faces_in_its_evaluators_order() -> None:
    rows = np.array(list(itertools.product(range(1, 7), repeat=4)), dtype=np.int64)  # 4 dice: not the median
    got = run(_SecondHighest(), rows, list(range(1, 7)))  # type: ignore[arg-type]
    assert got.tolist() == [sorted(r)[-2] for r in rows.tolist()]


def _written(parts: list) -> str:
    """The dice of a roll's parts written out: a face as its value, text as it is, the groups left out."""
    return "".join(str(p.die.value) if isinstance(p, Face) else p for p in parts if not isinstance(p, Group))


@pytest.mark.parametrize("expression", ["4d6mt", "5d10mt", "6d6even", "3d8odd"])
def test_the_parts_of_a_pooled_score_read_as_its_text(expression: str) -> None:
    for seed in range(5):
        rolled = de.roll(expression, seed=seed)
        text = str(rolled)
        dice = text[text.index(": ") + 2:text.rindex(" = ")]
        assert _written(rolled.parts()) == f": {dice} = ", text


def test_a_dropped_pooled_group_drops_every_die_in_its_json() -> None:
    # {...}kh1 keeps the higher item: 20 beats any 2d6 + 1d8 kept two (at most 14), so the pooled group is dropped,
    # and with it all three of its dice; against 1 the group is kept, and only its lowest die is dropped
    for seed in range(3):
        dropped = json.loads(de.roll("{{2d6+1d8}k2, 20}kh1", seed=seed).model_dump_json())
        assert len(dropped["dice"]) == 3
        assert [d["kept"] for d in dropped["dice"]] == [False, False, False]
        kept = json.loads(de.roll("{{2d6+1d8}k2, 1}kh1", seed=seed).model_dump_json())
        assert sorted(d["kept"] for d in kept["dice"]) == [False, True, True]


@pytest.mark.parametrize("expression", ["2d6mt", "4d6mt", "3d10even"])
def test_a_pooled_scores_estimate_bounds_the_table_of_its_evaluation(expression: str) -> None:
    # the evaluation visits each face once and, at each, every way to split the dice into those placed before,
    # those showing the face and those left (counted here), in each of at least one state
    from diceengine import api

    count, sides = (int(x) for x in expression.rstrip("mtevn").split("d"))
    splits = sum(1 for before in range(count + 1) for now in range(count + 1) if before + now <= count)
    cost = api.plan(expression).exact_cost()
    assert cost.work >= sides * splits
    assert cost.cells >= splits


@pytest.mark.parametrize("rows", [10, 200])
def test_an_outcome_of_chance_zero_is_left_out_of_a_distribution(rows: int) -> None:
    # every third outcome has chance 0: small and large distributions alike hold only the others
    chances = np.array([0.0 if v % 3 == 0 else 1.0 for v in range(rows)])
    chances /= chances.sum()
    dist = Distribution(int, {"total": np.arange(rows, dtype=np.int64)}, chances)
    assert len(dist) == sum(1 for v in range(rows) if v % 3)
    assert dist.columns["total"].tolist() == [v for v in range(rows) if v % 3]
    assert (dist.probabilities > 0).all()
