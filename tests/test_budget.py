"""Points 3 and 4 of issue 10: a work budget for exact odds, estimated before the work; bounded rolls and
samples. Nothing here is timed: the estimates are checked against the work the primitives count, and
wall time is measured in benchmarks/bounds.py."""

from __future__ import annotations

import pytest

import diceengine as de
from benchmarks.bounds import CASES, KINDS, expression_of, largest_accepted
from diceengine import api
from diceengine.limits import MAX_CELLS, MAX_THROWS, MAX_WORK
from diceengine.pmf import WORK

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
        de.distribution("d2*1000000000")
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
