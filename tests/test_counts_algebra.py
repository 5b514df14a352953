"""The die algebra's count (:mod:`diceengine.algebra.counts`) against enumeration written here, and the standard
term's success / failure / doubled counts held to it (the count is written once: issue 33)."""

from __future__ import annotations

import operator
import pickle
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine import api
from diceengine.algebra import Count, Die, Pool, point
from diceengine.errors import DiceValueError
from diceengine.i18n import translate_error
from tests.helpers import enumerate_dice, exact_totals
from tests.test_quick_path import _specs

#: each comparison as the test written here (independent of the algebra's table)
WRITTEN: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda f, v: f >= v, ">": lambda f, v: f > v, "<=": lambda f, v: f <= v, "<": lambda f, v: f < v,
    "=": lambda f, v: f == v, "==": lambda f, v: f == v, "!=": lambda f, v: f != v, "<>": lambda f, v: f != v,
}


def counted(face: int, success: Callable[[int], bool], failure: Callable[[int], bool] | None = None,
            double: Callable[[int], bool] | None = None) -> int:
    """One face counted as the peers count it (python-dice, rpg-dice-roller; docs/notation.md): a success 1, a
    doubled success 2, a failure that is no success -1."""
    if success(face):
        return 2 if double is not None and double(face) else 1
    return -1 if failure is not None and failure(face) else 0


def assert_matches(die: Die, expected: dict[int, Fraction]) -> None:
    got = dict(die.items())
    for v in set(got) | set(expected):
        assert abs(got.get(v, 0.0) - float(expected.get(v, 0))) <= 1e-12, (v, got.get(v), expected.get(v))


# ------------------------------------------------------------------ one die, every test kind
CASES = [
    # faces, success, failure, double
    ([1, 2, 3, 4, 5, 6], (">=", 5), None, None),
    ([1, 2, 3, 4, 5, 6], (">=", 5), ("=", 1), None),
    ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], (">=", 8), ("<=", 2), ("=", 10)),
    ([-2, -1, 0, 1, 2], (">", 0), ("<", 0), (">=", 2)),          # negative faces
    ([-3, -3, 0, 4, 4, 4], ("<=", -3), (">", 0), ("=", -3)),      # listed faces, repeated; counting down
    ([1, 2, 3, 4], (">=", 1), ("<=", 2), None),                  # every face meets both points: all successes
    ([1, 2, 3, 4], ("!=", 3), ("=", 3), ("<>", 1)),
    ([5, 5, 5], ("<", 0), ("=", 5), None),                       # no success: only failures
]


def written_tests(case: tuple) -> tuple[Callable[[int], bool] | None, ...]:
    return tuple(None if p is None else (lambda f, op=p[0], v=p[1]: WRITTEN[op](f, v)) for p in case)


@pytest.mark.parametrize(("faces", "success", "failure", "double"), CASES)
def test_a_die_counted_matches_enumeration(faces: list[int], success: tuple, failure: tuple | None,
                                           double: tuple | None) -> None:
    s, f, d = written_tests((success, failure, double))
    expected = enumerate_dice([faces], lambda roll: counted(roll[0], s, f, d))
    die = Die.of(faces).count(point(*success), None if failure is None else point(*failure),
                              None if double is None else point(*double))
    assert_matches(die, expected)


@pytest.mark.parametrize(("faces", "success", "failure", "double"), CASES)
def test_the_three_interpretations_agree_face_by_face(faces: list[int], success: tuple, failure: tuple | None,
                                                      double: tuple | None) -> None:
    s, f, d = written_tests((success, failure, double))
    rule = Count(point(*success), None if failure is None else point(*failure), None if double is None else
                 point(*double))
    values = np.array(faces, dtype=np.int64)
    written = [counted(v, s, f, d) for v in faces]
    assert [rule.score(v) for v in faces] == written                    # one face (a roll)
    assert [rule.score(np.int64(v)) for v in faces] == written          # a face read from an array
    assert rule.scores(values).tolist() == written                      # an array (a sample)
    assert rule.scores(values.reshape(1, -1)).tolist() == [written]     # any shape
    assert sum(map(rule.scorer(), faces)) == sum(written)               # the roll's cheapest function sums alike
    lo, hi = rule.bounds()
    assert lo <= min(written) and max(written) <= hi


@pytest.mark.parametrize(("faces", "success", "failure", "double"), CASES[:5])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_pool_counted_matches_enumeration(faces: list[int], success: tuple, failure: tuple | None,
                                            double: tuple | None, n: int) -> None:
    s, f, d = written_tests((success, failure, double))
    other = [0, 1, 2, 9]  # a second kind of die in the pool
    dice = [faces] * n + [other]
    expected = enumerate_dice(dice, lambda roll: sum(counted(v, s, f, d) for v in roll))
    pool = Pool([Die.of(fs) for fs in dice])
    got = pool.count(point(*success), None if failure is None else point(*failure),
                     None if double is None else point(*double))
    assert_matches(got, expected)


def test_a_count_takes_the_faces_it_names_or_any_function() -> None:
    faces = [-1, 0, 1, 2, 3, 4, 6]
    expected = enumerate_dice([faces, faces], lambda r: sum(counted(v, lambda x: x in (2, 6), lambda x: x < 1,
                                                                    lambda x: x == 6) for v in r))
    pool = Pool.of(Die.of(faces), 2)
    assert_matches(pool.count({2, 6}, failure=lambda x: x < 1, double=[6]), expected)
    # a function of one face only (not of an array) is asked face by face
    assert_matches(pool.count(lambda x: x in (2, 6), failure=lambda x: x in (-1, 0), double=lambda x: x == 6 and
                              True), expected)
    rule = Count(lambda x: x in (2, 6), [-1, 0], lambda x: x == 6 and True)
    assert rule.scores(np.array(faces)).tolist() == [rule.score(v) for v in faces] == [-1, -1, 0, 1, 0, 0, 2]


def test_weights_score_a_success_a_failure_and_a_doubled_success() -> None:
    rule = Count(point(">=", 5), point("=", 1), point("=", 6), weights=(10, -7, 25))
    faces = list(range(1, 7))
    assert [rule.score(v) for v in faces] == [-7, 0, 0, 0, 10, 25]
    assert rule.scores(np.array(faces)).tolist() == [-7, 0, 0, 0, 10, 25]
    assert rule.bounds() == (-7, 25)
    assert [rule.with_weights(3, 5).score(v) for v in faces] == [5, 0, 0, 0, 3, 6]
    marks = Count(None, point("=", 1))  # no success: the failures alone
    assert [marks.score(v) for v in faces] == [-1, 0, 0, 0, 0, 0]
    assert marks.scores(np.array(faces)).tolist() == [-1, 0, 0, 0, 0, 0]


def test_a_count_survives_pickling_and_is_a_value() -> None:
    rule = Count(point(">=", 8), frozenset({1}), point("=", 10))
    back = pickle.loads(pickle.dumps(rule))
    assert [back.score(v) for v in range(1, 11)] == [-1, 0, 0, 0, 0, 0, 0, 1, 1, 2]
    assert back == rule == Count(point(">=", 8), frozenset({1}), point("=", 10)) and hash(back) == hash(rule)
    assert rule != Count(point(">=", 8), frozenset({1}), point("=", 9))
    assert rule != Count(point(">=", 8), frozenset({1}), point("=", 10), weights=(1, -1, 3))


def test_point_is_each_comparison() -> None:
    for op, written in WRITTEN.items():
        test = point(op, 3)
        assert [bool(test(v)) for v in range(-1, 7)] == [written(v, 3) for v in range(-1, 7)], op
        assert test(np.arange(-1, 7)).tolist() == [written(v, 3) for v in range(-1, 7)], op


def test_an_unknown_comparison_is_refused_in_both_languages() -> None:
    with pytest.raises(DiceValueError) as caught:
        point("=>", 3)
    assert str(caught.value) == "unknown comparison '=>'"
    assert str(translate_error(caught.value, "fr")) == "comparaison inconnue : '=>'"


# ------------------------------------------------------------------ the standard term reads the algebra's count
def spec_of(text: str) -> Any:
    """The term spec of an expression of one dice term (as its plan holds it; with critical marks, its tallied
    copy beside it)."""
    [spec] = [s for s in _specs(api.plan(text)) if s.tally is None]
    return spec


POINTS = (">=", ">", "<=", "<", "=")


@st.composite
def counted_terms(draw: st.DrawFn) -> tuple[str, int, int, tuple, tuple | None, tuple | None]:
    """``NdM`` with a success count, maybe a failure count and doubled successes."""
    n, sides = draw(st.integers(1, 4)), draw(st.sampled_from([2, 4, 6, 10]))
    success = (draw(st.sampled_from(POINTS)), draw(st.integers(1, sides)))
    failure = (draw(st.sampled_from(POINTS)), draw(st.integers(1, sides))) if draw(st.booleans()) else None
    double = ("=" if draw(st.booleans()) else ">=", draw(st.integers(1, sides))) if draw(st.booleans()) else None
    text = f"{n}d{sides}{success[0]}{success[1]}"
    if failure is not None:
        text += f"f{failure[0]}{failure[1]}"
    if double is not None:
        text += f"dbl{double[0]}{double[1]}"
    return text, n, sides, success, failure, double


@given(counted_terms())
@settings(max_examples=60, deadline=None)
def test_the_terms_exact_odds_are_the_algebras_count(term: tuple) -> None:
    text, n, sides, success, failure, double = term
    s, f, d = written_tests((success, failure, double))
    expected = enumerate_dice([range(1, sides + 1)] * n, lambda roll: sum(counted(v, s, f, d) for v in roll))
    algebra = Pool.of(Die.uniform(sides), n).count(point(*success), None if failure is None else point(*failure),
                                                   None if double is None else point(*double))
    assert_matches(algebra, expected)
    term_die = exact_totals(text)
    for v in set(term_die) | set(algebra.outcomes()):
        assert abs(term_die.get(v, 0.0) - algebra.probability(v)) <= 1e-12, (text, v)


@given(counted_terms(), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_a_terms_roll_scores_each_face_by_the_algebras_count(term: tuple, seed: int) -> None:
    text, _, _, success, failure, double = term
    s, f, d = written_tests((success, failure, double))
    roll = de.roll(text, seed=seed)
    faces = [die.value for die in roll.dice]
    assert roll.total == sum(counted(v, s, f, d) for v in faces)


def test_the_terms_score_functions_read_the_algebras_count() -> None:
    from diceengine.systems.standard.term import scores

    rng = random.Random(36)
    for _ in range(200):
        sides = rng.choice([4, 6, 10, 20])
        success = (rng.choice(POINTS), rng.randint(1, sides))
        failure = (rng.choice(POINTS), rng.randint(1, sides)) if rng.random() < 0.6 else None
        double = (">=", rng.randint(1, sides)) if rng.random() < 0.4 else None
        text = f"3d{sides}{success[0]}{success[1]}" + (f"f{failure[0]}{failure[1]}" if failure else "") + \
            (f"dbl{double[0]}{double[1]}" if double else "")
        spec = spec_of(text)
        s, f, d = written_tests((success, failure, double))
        faces = np.arange(-2, sides + 3)
        written = [counted(int(v), s, f, d) for v in faces]
        assert [scores.face_score(spec, int(v)) for v in faces] == written, text
        assert scores.base_array(spec, faces).tolist() == written, text
        assert scores.score_array(spec, faces).tolist() == written, text
        assert spec.success_range == (min([0, 1] + ([-1] if failure else [])), 2 if double else 1)


@pytest.mark.parametrize("text", ["4d6cs>=5cf<=2", "3d20cs>=19cf<=2", "4d10cf<=3", "5d6cs=6", "4d6cs>=3cf<=4"])
def test_critical_marks_read_the_algebras_count(text: str) -> None:
    """``cs`` / ``cf``: a face meeting both points is a critical success (the same rule as a success count)."""
    from diceengine.systems.standard.term import scores

    spec = spec_of(text)
    cs = None if spec.crit_success is None else (spec.crit_success.op, spec.crit_success.value)
    cf = None if spec.crit_failure is None else (spec.crit_failure.op, spec.crit_failure.value)
    s, f = written_tests((cs, cf))
    for v in range(22):
        mark = counted(v, s or (lambda _: False), f)
        assert scores.critical(spec, v) == {1: "success", -1: "failure", 0: None}[mark], (text, v)
    tallied = scores.with_tally(spec)
    _, _, ws, wf = tallied.tally[:4]
    values = np.arange(0, 22)
    marks = [counted(int(v), s or (lambda _: False), f) for v in values]
    folded = [ws if m == 1 else wf if m == -1 else 0 for m in marks]
    assert scores.mark_array(tallied, values).tolist() == folded
    assert [scores.score_of(tallied, int(v)) for v in values] == [int(v) + w for v, w in zip(values, folded,
                                                                                             strict=True)]


def test_the_comparisons_written_here_are_python_s() -> None:
    # the independent table above, checked against the operators themselves
    table: Sequence[tuple[str, Callable[[int, int], bool]]] = [(">=", operator.ge), ("<", operator.lt),
                                                                 ("!=", operator.ne), ("=", operator.eq)]
    for op, fn in table:
        assert all(WRITTEN[op](a, b) == fn(a, b) for a in range(-2, 3) for b in range(-2, 3))


def test_the_algebra_page_runs_as_written() -> None:
    """docs/algebra.md: each ``expression  # -> value`` line of each of its examples holds."""
    import ast
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "algebra.md").read_text(encoding="utf-8")
    checked = 0
    for block in [part.split("```", 1)[0] for part in page.split("```python\n")[1:]]:
        lines, namespace = block.splitlines(), {}
        for stmt in ast.parse(block).body:
            source = ast.get_source_segment(block, stmt)
            _, sep, expected = lines[stmt.end_lineno - 1].partition("# ->")
            if sep and isinstance(stmt, ast.Expr):
                assert eval(compile(source, "docs", "eval"), namespace) == ast.literal_eval(
                    expected.split("  (")[0].strip()), source
                checked += 1
            else:
                exec(compile(source, "docs", "exec"), namespace)  # noqa: S102
    assert checked >= 14
