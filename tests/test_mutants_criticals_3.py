"""Critical counts of marked dice inside groups that keep or drop (:class:`CriticalGroup`) and the joint odds of a
total and its counts (:class:`CriticalPlan`): shapes the other tests leave out (mutmut survivors, seed 3).

Expected odds come from enumeration written here: every face of every die (itertools.product, exact fractions),
the items' values ranked by the roll's rule (a stable sort: of equal values the later item ranks higher), the
marks of the kept items counted.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

import diceengine as de
from diceengine import api
from diceengine.limits import MAX_WORK

Row = tuple[Any, int, int]
#: one item of a group: its dice's sides, and (value, cs, cf) of the faces it throws
Item = tuple[Sequence[int], Callable[[tuple[int, ...]], Row]]


def joint(expr: str, **options: Any) -> dict[Row, float]:
    """``{(total, critical successes, critical failures): probability}`` of the engine (duplicate rows added)."""
    out: dict[Row, float] = {}
    for o, p in de.distribution(expr, **options).items():
        key = (o.total, o.critical_successes or 0, o.critical_failures or 0)
        out[key] = out.get(key, 0.0) + p
    return out


def ranked_window(values: Sequence[Any], lo: int, hi: int) -> list[bool]:
    """The items whose rank (lowest first, the later of equal values higher) is in ``lo..hi-1``."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    return [i in set(order[lo:hi]) for i in range(len(values))]


def enumerated(items: Sequence[Item], kept: Callable[[list[Any]], list[bool]]) -> dict[Row, Fraction]:
    """Every face of every item's dice; the group keeps the items ``kept`` chooses by their values."""
    sides = [s for faces, _ in items for s in faces]
    total = 1
    for s in sides:
        total *= s
    out: dict[Row, Fraction] = {}
    for combo in itertools.product(*(range(1, s + 1) for s in sides)):
        rows, at = [], 0
        for faces, fn in items:
            rows.append(fn(combo[at:at + len(faces)]))
            at += len(faces)
        chosen = [r for r, k in zip(rows, kept([r[0] for r in rows])) if k]
        key = (sum(r[0] for r in chosen), sum(r[1] for r in chosen), sum(r[2] for r in chosen))
        out[key] = out.get(key, Fraction(0)) + Fraction(1, total)
    return out


def assert_joint(actual: dict[Row, float], expected: dict[Row, Fraction], tol: float = 1e-12) -> None:
    for key in set(actual) | set(expected):
        a, e = actual.get(key, 0.0), float(expected.get(key, 0))
        assert abs(a - e) <= tol, f"P{key} = {a}, expected {e}"


def d4(cs: bool = False, cf: bool = False) -> Item:
    return (4,), lambda c: (c[0], int(cs and c[0] == 4), int(cf and c[0] == 1))


# ------------------------------------------------------------------------------------------ windows of ranks
def test_keeping_the_lowest_two_of_three_items():
    """``kl2`` of three: a window at the bottom that is not one item (the states keep the lowest values)."""
    items = [d4(cs=True), d4(), d4(cf=True)]
    expected = enumerated(items, lambda v: ranked_window(v, 0, 2))
    assert_joint(joint("{1d4cs4, 1d4, 1d4cf1}kl2"), expected)


def test_a_window_in_the_middle_keeps_the_second_lowest():
    """``dl1dh2`` of four keeps rank 1 only: of the two lowest values followed, the higher one."""
    items = [d4(cs=True), d4(), d4(cf=True), d4(cs=True, cf=True)]
    expected = enumerated(items, lambda v: ranked_window(v, 1, 2))
    assert_joint(joint("{1d4cs4, 1d4, 1d4cf1, 1d4cs4cf1}dl1dh2"), expected)


# ------------------------------------------------------------------------------------------ the plan's rows
def test_two_marked_terms_give_each_outcome_once():
    """Two marked dice: two combinations of their counts give one critical success (4 and a lower face, or the
    other way round); the distribution lists each outcome once, with both combinations' odds."""
    dist = de.distribution("1d4cs4 + 1d4cs4")
    keys = [(o.total, o.critical_successes) for o, _ in dist.items()]
    assert len(keys) == len(set(keys))
    expected: dict[tuple[int, int], Fraction] = {}
    for a, b in itertools.product(range(1, 5), repeat=2):
        key = (a + b, int(a == 4) + int(b == 4))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 16)
    assert set(keys) == set(expected)
    for o, p in dist.items():
        assert abs(p - float(expected[(o.total, o.critical_successes)])) < 1e-15


def test_exact_fractions_with_a_marked_die():
    """Division kept exact: the totals are fractions (the plan's rows read off a table, not a dense array)."""
    dist = de.distribution("1d4cs4 / 3 + 1d2", division="exact")
    expected: dict[tuple[Fraction, int], Fraction] = {}
    for a, b in itertools.product(range(1, 5), range(1, 3)):
        key = (Fraction(a, 3) + b, int(a == 4))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 8)
    got = {(Fraction(o.total), o.critical_successes): p for o, p in dist.items()}
    assert set(got) == set(expected)
    for key, p in got.items():
        assert abs(p - float(expected[key])) < 1e-15
    assert any(Fraction(o.total).denominator == 3 for o, _ in dist.items())


def test_sparse_whole_totals_with_a_marked_die():
    """Totals far apart (held sparse, not as a dense array) stay whole numbers."""
    dist = de.distribution("1d4cs4 * 1000 + 1d2")
    got = {(o.total, o.critical_successes): p for o, p in dist.items()}
    expected = {(1000 * a + b, int(a == 4)): 1 / 8 for a in range(1, 5) for b in range(1, 3)}
    assert set(got) == set(expected)
    assert all(type(o.total) is int for o, _ in dist.items())
    for key, p in got.items():
        assert abs(p - expected[key]) < 1e-15


# ------------------------------------------------------------------------------------------ the work budget
def test_the_estimate_holds_the_table_of_total_and_counts():
    """The plan's estimate of cells bounds the table it builds: one row per (total, successes, failures), four
    numbers each (the three columns and the probability)."""
    expr = "1d20cs20cf1 + 1d100"
    cost = api.plan(expr).exact_cost()
    dist = de.distribution(expr)
    outcomes = {(a + b, int(a == 20), int(a == 1)) for a in range(1, 21) for b in range(1, 101)}
    assert len(dist) == len(outcomes)  # 317: totals 3..119 without a mark, 21..120 with 20, 2..101 with 1
    assert len(dist) * (len(dist.columns) + 1) <= cost.cells


def test_a_wide_group_keeping_two_is_estimated_by_the_two_values_it_follows():
    """Eighteen items, ``kh2``: the joint follows only the two highest (value, marks) of the items seen, a few
    states, and is accepted; estimating it as if every item were followed (2 x 2**17 states) refuses it.

    Expected by hand: the marked first item shows ``a``, ``k`` of the 17 others show 2 (binomial); the two
    highest values sum to 4, 3 or 2 as two, one or no item shows 2; the marked 2 is kept only when at most one
    later item shows 2 (of equal values the later ranks higher)."""
    n = 17
    expected: dict[Row, Fraction] = {}
    for a in (1, 2):
        for k in range(n + 1):
            p = Fraction(math.comb(n, k), 2 ** n) / 2
            twos = k + (a == 2)
            key = (4 if twos >= 2 else 3 if twos == 1 else 2, int(a == 2 and k <= 1), 0)
            expected[key] = expected.get(key, Fraction(0)) + p
    expr = "{1d2cs2, " + ", ".join(["1d2"] * n) + "}kh2"
    assert_joint(joint(expr), expected)


def test_a_group_whose_joint_takes_seconds_is_refused_up_front():
    """``{1d80cs80, 1d80, 1d80, 1d80}kh2``: the joint follows the two highest (value, mark) of the items seen, some
    3,300 states, each against the 80 faces of each later item, about half a million Python steps that build and
    sort tuples: seconds (over the budget of about 1 s), refused before any work."""
    expr = "{1d80cs80, 1d80, 1d80, 1d80}kh2"
    assert api.plan(expr).exact_cost().work > MAX_WORK
    with pytest.raises(de.DiceLimitError, match="sample"):
        de.distribution(expr)


def test_a_group_keeping_one_of_many_wide_items_is_refused_up_front():
    """``kh1`` of eight d16000: each of the 128,000 (value, mark) rows is weighed against the seven other items (a
    bisection each), then the kept rows gathered: about a million Python steps, some 1.5 s on a loaded 2-core
    machine (measured once, not here), over the budget of about 1 s: refused before any work."""
    expr = "{1d16000cs16000, " + ", ".join(["1d16000"] * 7) + "}kh1"
    assert api.plan(expr).exact_cost().work > MAX_WORK
    with pytest.raises(de.DiceLimitError, match="sample"):
        de.distribution(expr)


def test_three_items_of_two_values_each_are_accepted():
    """``{1d2cs2*36, 1d2*36, 1d2*36}kh2``: eight ways to throw, a handful of states; the exact odds are given, not
    refused (the estimate follows each item's range, 36..72, and stays within the budget)."""
    expected: dict[Row, Fraction] = {}
    for faces in itertools.product((1, 2), repeat=3):
        values = [36 * f for f in faces]
        kept = ranked_window(values, 1, 3)
        key = (sum(v for v, k in zip(values, kept) if k), int(kept[0] and faces[0] == 2), 0)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 8)
    assert_joint(joint("{1d2cs2*36, 1d2*36, 1d2*36}kh2"), expected)
