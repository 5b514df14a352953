"""Points 3 and 4 of issue 10: a work budget for exact odds, estimated before the work; bounded rolls and
samples. Nothing here is timed: the estimates are checked against the work the primitives count, and
wall time is measured in benchmarks/bounds.py."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from benchmarks.bounds import CASES, KINDS, expression_of, largest_accepted
from diceengine import api
from diceengine import pmf as pmf_module
from diceengine.limits import MAX_CELLS, MAX_THROWS, MAX_WORK, PYTHON_STEP
from diceengine.pmf import PMF, WORK, convolve, keep_dp, keep_sum
from tests.helpers import clear_engine_caches

ISSUE_TABLE = [(e, s, o) for _, call, e, s, o in CASES if call == "distribution"]


@pytest.mark.parametrize("expression, system, options", ISSUE_TABLE)
def test_the_issue_table_answers_or_refuses_before_working(expression, system, options):
    prepared = api.plan(expression, system, **options)
    try:
        cost = prepared.exact_cost()
    except de.DiceLimitError:  # a support wider than any table: refused by the estimate itself
        cost = None
    if cost is not None and cost.work <= MAX_WORK and cost.cells <= MAX_CELLS:
        WORK.work = 0
        dist = de.distribution(expression, system, **options)
        assert abs(dist.probabilities.sum() + dist.truncated - 1) < 1e-9
        assert WORK.work <= cost.work
        return
    WORK.work = 0
    with pytest.raises(de.DiceLimitError) as err:
        de.distribution(expression, system, **options)
    assert WORK.work == 0  # refused before any convolution, table or loop
    assert "sample()" in str(err.value) or "possible results" in str(err.value)


def test_refusals_say_why_and_suggest_sample():
    with pytest.raises(de.DiceLimitError, match=r"work budget.*sample\(\)"):
        de.distribution("d10000!<7955")
    with pytest.raises(de.DiceLimitError, match=r"MiB.*sample\(\)"):
        de.distribution("8D-1 vs 1000D", system="d6wild")
    with pytest.raises(de.DiceLimitError, match="possible results"):
        de.distribution("d1000000+d1000000+d1000000")
    # a product with two possible results is two results, however far apart (was 7.45 GiB)
    assert de.distribution("d2*1000000000").marginal() == {1_000_000_000: 0.5, 2_000_000_000: 0.5}
    # the same expressions roll and sample
    de.roll("d10000!<7955", seed=1)
    assert len(de.sample("8D-1 vs 1000D", 10, system="d6wild", seed=1)["total"]) == 10


@pytest.mark.parametrize("kind, system, template, options", KINDS, ids=[k[0] for k in KINDS])
def test_the_largest_accepted_expression_of_each_kind_stays_within_its_estimate(kind, system, template, options):
    n = largest_accepted(system, template, options)
    assert n >= 1
    expression = expression_of(template, n)
    cost = api.plan(expression, system, **options).exact_cost()
    assert cost.work <= MAX_WORK and cost.cells <= MAX_CELLS
    WORK.work = 0
    dist = de.distribution(expression, system, **options)
    assert WORK.work <= cost.work  # the estimate is an upper bound of the counted work
    assert len(dist.probabilities) * (len(dist.columns) + 1) <= cost.cells  # and of the table it builds
    with pytest.raises(de.DiceLimitError):  # one step further is refused
        de.distribution(expression_of(template, 2 * n + 1), system, **options)


def test_one_roll_is_bounded():
    r = de.roll("9999d100000r>=66", seed=1)  # each die would need about 1500 re-rolls
    assert len(r.dice) <= 2 * 9999 and len(str(r)) < 40 * MAX_THROWS
    assert all(d.value < 66 for d in r.dice if d.kept)
    de.roll("10000d2!", seed=1)  # 20,000 dice on average: accepted
    with pytest.raises(de.DiceLimitError, match="throw about"):
        de.roll("10000d3!<3")  # 30,000 on average
    for text in ("5000d6!<6", "10000d6!<6"):
        with pytest.raises(de.DiceLimitError):
            de.roll(text)
    # the re-roll cap keeps the distribution: the kept face is uniform among the allowed faces
    values = de.sample("9999d10r>=3", 3, seed=2)["total"]
    assert ((values >= 9999) & (values <= 2 * 9999)).all()


def test_a_sample_is_drawn_in_chunks_of_bounded_size(monkeypatch):
    prepared = api.plan("9999d6ro<=2")
    seen: list[int] = []
    original = type(prepared).sample

    def spy(self, n, rng):  # type: ignore[no-untyped-def]
        seen.append(n)
        return original(self, n, rng)

    monkeypatch.setattr(type(prepared), "sample", spy)
    s = de.sample("9999d6ro<=2", 1000, seed=3)
    assert len(s["total"]) == 1000 and sum(seen) == 1000
    assert max(seen) * prepared.dice_per_roll <= api.CHUNK_DICE


# ---------------------------------------------------------------- keep / drop with explosions (issue 11)
EACH = {"explosions": "dice"}


@pytest.mark.parametrize("expression", ["5d10!kh2kl2", "3d10!kh2kl2", "6d6!kh5kl5", "9d6!dl4", "4d6!dh1dl1",
                                        "5d10ra10kh2", "6d6ra6kh3"])  # ra: one added die at most
def test_every_die_ranked_is_estimated_from_the_states_it_follows(expression):
    # explosions="dice": the estimate walks the states the odds follow, so it is the work they count, not a
    # bound a hundred times over it (5d10!kh2kl2 was refused at 9 times the budget and takes about 0.1 s)
    clear_engine_caches()  # a plan cached by an earlier test would answer without counting its work
    cost = api.plan(expression, **EACH).exact_cost()
    assert cost.work <= MAX_WORK and cost.cells <= MAX_CELLS
    WORK.work = 0
    dist = de.distribution(expression, **EACH)
    assert abs(dist.probabilities.sum() + dist.truncated - 1) < 1e-9
    assert WORK.work <= cost.work <= 1.1 * WORK.work


def _chains(sides: int, depth: int) -> tuple[list[tuple[tuple[int, ...], Fraction]], Fraction]:
    """One die exploding on its maximum, as the chains of faces it throws (at most ``depth`` explosions), and
    the mass of the longer chains left out."""
    chains = [((sides,) * k + (last,), Fraction(1, sides) ** (k + 1)) for k in range(depth + 1)
              for last in range(1, sides)]
    return chains, 1 - sum(q for _, q in chains)


def _middle_ranks(values: list[int], keeps: list[tuple[str, int]]) -> int:
    """Roll20's keep highest / keep lowest, each choosing among all the values; a value counts if both keep it."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    kept = set(range(len(values)))
    for kind, k in keeps:
        k = min(k, len(values))
        kept &= set(order[len(values) - k:]) if kind == "kh" else set(order[:k])
    return sum(values[i] for i in kept)


@pytest.mark.parametrize("dice, sides, depth, options", [
    (3, 4, 8, EACH), (3, 10, 3, EACH), (4, 4, 3, EACH),  # every die thrown ranked
    (3, 4, 8, {}), (4, 4, 3, {}),                          # each die and its explosions one unit
])
def test_keep_highest_and_lowest_with_explosions_match_enumeration(dice, sides, depth, options):
    keeps = [("kh", 2), ("kl", 2)]
    chains, left = _chains(sides, depth)
    expected: dict[int, Fraction] = {}
    for combo in itertools.product(chains, repeat=dice):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        if options:  # every face thrown is a die
            values = [f for chain, _ in combo for f in chain]
        else:        # a die's faces summed
            values = [sum(chain) for chain, _ in combo]
        total = _middle_ranks(values, keeps)
        expected[total] = expected.get(total, Fraction(0)) + p
    dist = de.distribution(f"{dice}d{sides}!kh2kl2", **options)
    got = dist.marginal()
    tol = dice * float(left) + dist.truncated + 1e-12
    for value in set(got) | set(expected):
        assert abs(got.get(value, 0.0) - float(expected.get(value, 0))) <= tol, value


def test_keep_highest_and_lowest_that_keep_nothing():
    # four dice or more thrown: the two highest and the two lowest are four distinct dice (enumerated above for
    # 4d4!kh2kl2): the total is 0, exactly, without following a single die
    for options in ({}, EACH):
        for expression in ("5d10!kh2kl2", "12d20!kh2kl2"):
            cost = api.plan(expression, **options).exact_cost()
            assert cost.work <= MAX_WORK
            WORK.work = 0
            dist = de.distribution(expression, **options)
            assert dist.marginal() == pytest.approx({0: 1.0}, abs=1e-12) and WORK.work <= cost.work
    assert de.distribution("12d20!kh2kl2").truncated == 0.0  # nothing left out in units: the rank is empty


def test_every_die_ranked_too_long_is_still_refused_before_working():
    # 6d20!kh5kl5 with every die ranked: about 3 times the budget (benchmarks/cost_fit.py: several seconds)
    WORK.work = 0
    with pytest.raises(de.DiceLimitError, match="sample"):
        de.distribution("6d20!kh5kl5", **EACH)
    assert WORK.work == 0


# ---------------------------------------------------------------- huge dice: the Python loops of the units (issue 22)
@pytest.mark.parametrize("expression, sides", [("D100000![]", 100_000), ("d100000!>99990", 100_000),
                                                ("d60000ro<=30000!", 60_000), ("2d30000!", 30_000)])
def test_a_huge_exploding_die_is_estimated_from_the_loops_it_runs(expression, sides):
    # the odds of one unit (a die and its explosions) walk every face in Python: listed (and re-rolled), split
    # into exploding or not, tabled; then every cell of the chains' sums is read and placed, and the scores
    # tabled once more; and all of the unit's odds are followed twice, truncated() asking for them again. The
    # estimate counted them once, under the real work (D100000! was estimated at a third of the budget and
    # takes about 0.7 s, as much as 0.65 of the budget's work: 2.6 million steps of a Python loop).
    clear_engine_caches()
    cost = api.plan(expression).exact_cost()
    WORK.work = 0
    dist = api.plan(expression).distribution()
    support = dist.probabilities.size  # the distinct sums a unit's chains reach, at least
    units = 4 * sides + 2 * support    # the faces walked four times, the sums read and placed
    assert cost.work >= 2 * units * PYTHON_STEP  # twice: distribution() and truncated()
    assert WORK.work <= cost.work  # and the loops the odds count stay within the estimate
    assert 0 < dist.truncated < 1e-9 and abs(dist.probabilities.sum() + dist.truncated - 1) < 1e-9


def test_a_huge_die_with_listed_faces_is_estimated_from_its_loops():
    # a per-die minimum lists the faces (1000000 of them for d1000000mi2): the odds then walk them in Python, not
    # in numpy; the estimate took the numpy pass (0.03 of the budget for about 1.25 of it, a couple of seconds)
    clear_engine_caches()
    cost = api.plan("d100000mi2").exact_cost()
    WORK.work = 0
    dist = de.distribution("d100000mi2")
    assert dist.marginal()[2] == pytest.approx(2 / 100_000) and dist.marginal()[3] == pytest.approx(1 / 100_000)
    assert cost.work >= 4 * 100_000 * PYTHON_STEP  # the faces counted, tabled, placed, the scores tabled
    assert WORK.work <= cost.work
    WORK.work = 0
    with pytest.raises(de.DiceLimitError, match="work budget"):
        de.distribution("d1000000mi2")
    assert WORK.work == 0
    de.roll("d1000000mi2", seed=1)  # it still rolls and samples
    assert (de.sample("d1000000mi2", 10, seed=1)["total"] >= 2).all()


def test_huge_dice_over_the_budget_are_refused_before_working():
    # the neighbours of D100000! twice over (``d100000!>99990`` now fits: its chains are followed once, 2.1e8 of
    # work, the mass they leave out read from their weights alone; ``d200000!>199990`` is its neighbour over)
    for expression in ("d200000!", "d150000!", "d200000!>199990", "2d100000!", "d100000!cs"):
        WORK.work = 0
        with pytest.raises(de.DiceLimitError, match="sample"):
            de.distribution(expression)
        assert WORK.work == 0


# ---------------------------------------------------------------- the work counter


def test_the_work_counter_adds_up_the_work_done():
    work = pmf_module.WORK
    a, b = np.ones(10), np.ones(20)
    work.work = 0.0
    convolve(a, b)
    once = work.work
    assert once >= 10 * 20  # at least one operation per product
    convolve(a, b)
    assert work.work == pytest.approx(2 * once)  # counted again, added
    big = np.ones(2100)
    work.work = 0.0
    convolve(big, big)  # by FFT: at least a pass over the transform's length per operand
    assert work.work >= 3 * 4096
    faces = [(v, 1 / 6) for v in range(1, 7)]
    work.work = 0.0
    keep_sum(faces, 4, 3, True)
    first = work.work
    assert first >= 6 * 4  # at least one step per face and die
    keep_sum(faces, 4, 3, True)
    assert work.work == pytest.approx(2 * first)
    units = [(v, 1 / 6, PMF.point(v)) for v in range(1, 7)]
    work.work = 0.0
    keep_dp(units, 4, 3, True)
    first = work.work
    assert first >= 6 * 4
    keep_dp(units, 4, 3, True)
    assert work.work == pytest.approx(2 * first)


def test_exact_odds_count_their_work_within_their_estimate():
    from diceengine import api

    for expr in ("4d6kh3", "3d6!", "5d10dl2", "4d6!kh2>=4", "10d6ro1kh3", "3d6>=4f1", "1d6*1d8", "{1d6, 1d8}kh1"):
        api.PLANS.clear()
        cost = api.plan(expr).exact_cost()
        pmf_module.WORK.work = 0.0
        de.distribution(expr)
        assert 0 < pmf_module.WORK.work <= cost.work, expr


def test_work_counts_add_up_across_calls():
    # the counter is a running total (the budget tests read a difference): two computations count twice one
    from tests.helpers import clear_engine_caches

    for expr, options in (("4d6kh1kl1", {"dialect": "d20"}), ("6d6kh2", {})):
        clear_engine_caches()
        pmf_module.WORK.work = 0.0
        de.distribution(expr, **options)
        once = pmf_module.WORK.work
        clear_engine_caches()
        de.distribution(expr, **options)
        assert once > 0 and pmf_module.WORK.work == pytest.approx(2 * once), expr
