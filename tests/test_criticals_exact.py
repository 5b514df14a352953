"""Critical marks (``cs`` / ``cf``, issue 11): the kept dice marked are counted in the outcome
(``critical_successes``, ``critical_failures``) by a roll, a sample and the exact joint distribution.

Expected values come from brute-force enumeration of the faces written here (which dice a keep / drop keeps,
which faces a mark meets), and from the closed forms a game master knows (a natural 20 with advantage:
1 - (19/20)^2 = 9.75%).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from diceengine.systems.standard import StandardOutcome

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import assert_close, chi2_passes

from .helpers import enumerate_dice

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
    # alone (README, standard notation); explosions and groups that keep: tests/test_criticals_2.py
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
