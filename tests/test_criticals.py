"""Critical marks (``cs`` / ``cf``, issue 11): the kept dice marked are counted in the outcome; the joint odds
of total and counts against enumeration (dice alone, and marked dice inside groups that keep or drop,
``CriticalGroup``), rerolled dice, samples by chi-square, one roll, and the work estimate that refuses up front."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from diceengine.systems.standard import StandardOutcome

import diceengine as de
from diceengine import api
from diceengine.limits import MAX_WORK
from diceengine.pmf import WORK
from tests.helpers import assert_close, chi2_passes, enumerate_dice

Row = tuple[int, int, int]


def d(s: int) -> list[int]:
    return list(range(1, s + 1))


def joint(expr: str, **options: Any) -> dict[Row, float]:
    """``{(total, critical successes, critical failures): probability}`` (0 for a field the plan has not)."""
    dist = de.distribution(expr, **options)
    out: dict[Row, float] = {}
    for o, p in dist.items():
        key = (o.total, o.critical_successes or 0, o.critical_failures or 0)
        out[key] = out.get(key, 0.0) + p
    return out


def enumerate_rows(faces: Sequence[Sequence[int]], row: Callable[[tuple[int, ...]], Row]) -> dict[Row, Fraction]:
    return enumerate_dice(faces, row)


def marks(kept: Sequence[int], success: Callable[[int], bool], failure: Callable[[int], bool]) -> tuple[int, int]:
    """Critical successes and failures among the kept faces (a face meeting both is a success)."""
    return sum(map(success, kept)), sum(1 for v in kept if failure(v) and not success(v))


def highest(combo: tuple[int, ...], k: int) -> list[int]:
    return sorted(combo)[len(combo) - k:]


CASES: list[tuple[str, dict[str, Any], list[list[int]], Callable[[tuple[int, ...]], Row]]] = [
    ("3d20cs>=19cf1", {}, [d(20)] * 3,
     lambda c: (sum(c), *marks(c, lambda v: v >= 19, lambda v: v == 1))),
    ("2d20kh1cs20", {}, [d(20)] * 2, lambda c: (max(c), int(max(c) == 20), 0)),
    ("4d6kh3cs6cf1", {}, [d(6)] * 4,
     lambda c: (sum(highest(c, 3)), *marks(highest(c, 3), lambda v: v == 6, lambda v: v == 1))),
    ("5d6>=4f1cs6cf<=2", {}, [d(6)] * 5,
     lambda c: (sum(v >= 4 for v in c) - sum(v == 1 for v in c), *marks(c, lambda v: v == 6, lambda v: v <= 2))),
    ("1d20cs20+5 - 1d4cf1", {}, [d(20), d(4)],
     lambda c: (c[0] + 5 - c[1], int(c[0] == 20), int(c[1] == 1))),
    ("2*1d6cs>4 * 1d4cf<2", {}, [d(6), d(4)],
     lambda c: (2 * c[0] * c[1], int(c[0] > 4), int(c[1] < 2))),
    ("{1d8cs8+1, 1d6cs6}", {}, [d(8), d(6)], lambda c: (c[0] + 1 + c[1], int(c[0] == 8) + int(c[1] == 6), 0)),
    ("3d6cs6cf1dl1", {}, [d(6)] * 3,
     lambda c: (sum(highest(c, 2)), *marks(highest(c, 2), lambda v: v == 6, lambda v: v == 1))),
    ("4d6kh1kl1cs6cf1", {"dialect": "d20"}, [d(6)] * 4,
     lambda c: (max(c) + min(c) if max(c) != min(c) else max(c),
                *marks([max(c), min(c)] if max(c) != min(c) else [max(c)], lambda v: v == 6, lambda v: v == 1))),
    ("4dFcs1cf-1", {}, [[-1, 0, 1]] * 4, lambda c: (sum(c), *marks(c, lambda v: v == 1, lambda v: v == -1))),
    ("3d6mi2cs6cf2", {}, [d(6)] * 3,
     lambda c: (sum(max(v, 2) for v in c), *marks([max(v, 2) for v in c], lambda v: v == 6, lambda v: v == 2))),
]


@pytest.mark.parametrize("expr, options, faces, row", CASES, ids=[c[0] for c in CASES])
def test_the_joint_odds_of_total_and_criticals_match_enumeration(expr, options, faces, row):
    assert_close(joint(expr, **options), enumerate_rows(faces, row))


def test_rerolled_dice_do_not_count():
    # 2d6ro1cs1cf1: a 1 is thrown again once; the struck 1 is not kept, the new face counts (a 1 again: a
    # critical success, since cs1 is tested first)
    per_die: dict[tuple[int, int, int], Fraction] = {}
    for first in d(6):
        for second in d(6):
            face = second if first == 1 else first
            key = (face, int(face == 1), 0)
            per_die[key] = per_die.get(key, Fraction(0)) + Fraction(1, 36)
    expected: dict[Row, Fraction] = {}
    for (a, pa), (b, pb) in itertools.product(per_die.items(), repeat=2):
        key = (a[0] + b[0], a[1] + b[1], 0)
        expected[key] = expected.get(key, Fraction(0)) + pa * pb
    assert_close(joint("2d6ro1cs1cf1"), expected)


def test_a_critical_with_advantage_is_the_number_a_game_master_knows():
    dist = de.distribution("2d20kh1cs20")
    assert abs(dist.chance("critical_successes") - (1 - (19 / 20) ** 2)) < 1e-15
    assert abs(de.distribution("1d20cs>=19").chance("critical_successes") - 0.1) < 1e-15
    assert abs(de.distribution("1d20cs>=19+5").probability(lambda o: o.critical_successes and o.total >= 24) - 0.1) \
        < 1e-15


@pytest.mark.parametrize("expr, options", [(c[0], c[1]) for c in CASES])
def test_samples_of_total_and_criticals_pass_a_chi_square(expr, options):
    s = de.sample(expr, 40_000, seed=21, **options)
    zeros, fields = [0] * 40_000, set(s)
    rows = zip(s["total"].tolist(), s["critical_successes"] if "critical_successes" in fields else zeros,
               s["critical_failures"] if "critical_failures" in fields else zeros)
    assert chi2_passes([(int(t), int(a), int(b)) for t, a, b in rows], joint(expr, **options))


def test_a_sample_that_forgets_the_failures_fails_the_chi_square():
    s = de.sample("3d20cs>=19cf1", 40_000, seed=21)
    rows = [(int(t), int(a), 0) for t, a in zip(s["total"], s["critical_successes"])]
    assert not chi2_passes(rows, joint("3d20cs>=19cf1"))


@pytest.mark.parametrize("expr", ["3d20cs>=19cf1", "4d6kh3cs6cf1", "1d20cs20+5 - 1d4cf1", "5d6>=4f1cs6cf<=2",
                                  "2d6ro1cs1cf1"])
def test_one_roll_counts_its_kept_marked_faces(expr):
    success, failure = {"3d20cs>=19cf1": (lambda v: v >= 19, lambda v: v == 1),
                        "4d6kh3cs6cf1": (lambda v: v == 6, lambda v: v == 1),
                        "1d20cs20+5 - 1d4cf1": (lambda v: v == 20, lambda v: v == 1),
                        "5d6>=4f1cs6cf<=2": (lambda v: v == 6, lambda v: v <= 2),
                        "2d6ro1cs1cf1": (lambda v: v == 1, lambda v: v == 1)}[expr]
    seen = set()
    for seed in range(400):
        r = de.roll(expr, seed=seed)
        kept = [die.value for die in r.dice if die.kept]
        if expr.startswith("1d20"):  # the d20 carries cs, the d4 cf
            expected = (int(kept[0] == 20), int(kept[1] == 1))
        else:
            expected = marks(kept, success, failure)
        assert (r.critical_successes, r.critical_failures) == expected
        seen.add(expected)
    assert len(seen) >= 2  # the seeds met criticals


def test_the_fields_are_there_only_with_marks():
    r = de.roll("3d20cs>=19", seed=2)
    assert set(r.fields()) == {"total", "critical_successes"}
    assert '"critical_failures"' not in r.model_dump_json()
    assert set(de.sample("3d20cs>=19", 5, seed=1)) == {"total", "critical_successes"}
    assert de.distribution("3d20cf1").fields == ["total", "critical_failures"]
    # without marks nothing changes: the outcome, the sample, the distribution, the JSON
    plain = de.roll("1d20+5", seed=1)
    assert type(plain.outcome) is StandardOutcome and plain.fields() == {"total": plain.total}
    assert '"outcome":{"total":' + str(plain.total) + '}' in plain.model_dump_json()
    assert set(de.sample("1d20+5", 5, seed=1)) == {"total"} and de.distribution("1d20+5").fields == ["total"]


@pytest.mark.parametrize("expr", ["(1d4)d20cs20", "(1d4cs4)d6", "2d(1d6cf1+2)"])
def test_marks_whose_counts_are_not_given_keep_the_total_alone(expr):
    # computed dice (marked, or marks in the count or the sides): the marks are shown, the outcome is the total
    # alone (README, standard notation); explosions and groups that keep: tests/test_criticals_exploding.py
    assert de.roll(expr, seed=1).fields().keys() == {"total"}
    assert de.distribution(expr).fields == ["total"]
    assert set(de.sample(expr, 5, seed=1)) == {"total"}


@pytest.mark.parametrize("expr", ["3d20cs>=19cf1", "4d6kh3cs6cf1", "1d20cs20+5 - 1d4cf1", "10d20cs20cf1",
                                  "2*1d6cs>4 * 1d4cf<2"])
def test_estimates_bound_the_work_done(expr):
    cost = api.plan(expr).exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert WORK.work <= cost.work


def test_too_many_rows_are_refused_before_working():
    WORK.work = 0
    with pytest.raises(de.DiceLimitError):
        de.distribution("200d20cs20cf1")
    assert WORK.work == 0
    assert de.roll("200d20cs20cf1", seed=1).critical_successes >= 0


GroupRow = tuple[Any, int, int]


#: one item of a group: its dice's sides, and (value, cs, cf) of the faces it throws
Item = tuple[Sequence[int], Callable[[tuple[int, ...]], GroupRow]]


def group_joint(expr: str, **options: Any) -> dict[GroupRow, float]:
    """``{(total, critical successes, critical failures): probability}`` of the engine (duplicate rows added)."""
    out: dict[GroupRow, float] = {}
    for o, p in de.distribution(expr, **options).items():
        key = (o.total, o.critical_successes or 0, o.critical_failures or 0)
        out[key] = out.get(key, 0.0) + p
    return out


def ranked_window(values: Sequence[Any], lo: int, hi: int) -> list[bool]:
    """The items whose rank (lowest first, the later of equal values higher) is in ``lo..hi-1``."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    return [i in set(order[lo:hi]) for i in range(len(values))]


def enumerated(items: Sequence[Item], kept: Callable[[list[Any]], list[bool]]) -> dict[GroupRow, Fraction]:
    """Every face of every item's dice; the group keeps the items ``kept`` chooses by their values."""
    sides = [s for faces, _ in items for s in faces]
    total = 1
    for s in sides:
        total *= s
    out: dict[GroupRow, Fraction] = {}
    for combo in itertools.product(*(range(1, s + 1) for s in sides)):
        rows, at = [], 0
        for faces, fn in items:
            rows.append(fn(combo[at:at + len(faces)]))
            at += len(faces)
        chosen = [r for r, k in zip(rows, kept([r[0] for r in rows])) if k]
        key = (sum(r[0] for r in chosen), sum(r[1] for r in chosen), sum(r[2] for r in chosen))
        out[key] = out.get(key, Fraction(0)) + Fraction(1, total)
    return out


def assert_joint(actual: dict[GroupRow, float], expected: dict[GroupRow, Fraction], tol: float = 1e-12) -> None:
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
    assert_joint(group_joint("{1d4cs4, 1d4, 1d4cf1}kl2"), expected)


def test_a_window_in_the_middle_keeps_the_second_lowest():
    """``dl1dh2`` of four keeps rank 1 only: of the two lowest values followed, the higher one."""
    items = [d4(cs=True), d4(), d4(cf=True), d4(cs=True, cf=True)]
    expected = enumerated(items, lambda v: ranked_window(v, 1, 2))
    assert_joint(group_joint("{1d4cs4, 1d4, 1d4cf1, 1d4cs4cf1}dl1dh2"), expected)


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
    expected: dict[GroupRow, Fraction] = {}
    for a in (1, 2):
        for k in range(n + 1):
            p = Fraction(math.comb(n, k), 2 ** n) / 2
            twos = k + (a == 2)
            key = (4 if twos >= 2 else 3 if twos == 1 else 2, int(a == 2 and k <= 1), 0)
            expected[key] = expected.get(key, Fraction(0)) + p
    expr = "{1d2cs2, " + ", ".join(["1d2"] * n) + "}kh2"
    assert_joint(group_joint(expr), expected)


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
    expected: dict[GroupRow, Fraction] = {}
    for faces in itertools.product((1, 2), repeat=3):
        values = [36 * f for f in faces]
        kept = ranked_window(values, 1, 3)
        key = (sum(v for v, k in zip(values, kept) if k), int(kept[0] and faces[0] == 2), 0)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 8)
    assert_joint(group_joint("{1d2cs2*36, 1d2*36, 1d2*36}kh2"), expected)
