"""The die algebra's count (:mod:`diceengine.algebra.counts`): the cases its mutation run (session 36, every mutant
of the module) showed no test held. Each expected value is counted here, face by face, as the peers count (a
success scores its weight, a doubled success the doubled weight, a failure that is no success the failure weight)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from functools import partial

import numpy as np

from diceengine.algebra import Count, point

FACES = list(range(1, 7))


def written(face: int, success: Callable[[int], bool] | None, failure: Callable[[int], bool] | None = None,
            double: Callable[[int], bool] | None = None, weights: tuple[int, int, int] = (1, -1, 2)) -> int:
    """One face counted here, independently of the algebra."""
    if success is not None and success(face):
        return weights[2] if double is not None and double(face) else weights[0]
    return weights[1] if failure is not None and failure(face) else 0


def test_weights_other_than_one_are_added_in_full() -> None:
    # a doubled success worth 3 (2 more than a success), a failure worth -2, a success worth 2
    for weights in [(1, -1, 3), (1, -2, 2), (2, -1, 4), (2, -2, 5), (1, 2, 3)]:
        rule = Count(point(">=", 5), point("=", 1), point("=", 6), weights=weights)
        expected = [written(v, lambda f: f >= 5, lambda f: f == 1, lambda f: f == 6, weights) for v in FACES]
        assert rule.scores(np.array(FACES)).tolist() == expected, weights
        assert [rule.score(v) for v in FACES] == expected, weights


def test_the_roll_s_cheapest_scorer_sums_to_the_weights() -> None:
    for weights in [(2, -1, 4), (3, -1, 6), (2, 1, 4), (1, 1, 2), (1, -1, 2)]:
        rule = Count(point(">=", 5), weights=weights)  # no failure, no doubled success
        expected = sum(written(v, lambda f: f >= 5, weights=weights) for v in FACES)
        assert sum(map(rule.scorer(), FACES)) == expected, weights


def test_scores_are_integers_even_without_a_success_test() -> None:
    for rule in [Count(None, point("=", 1)), Count(point(">=", 5)), Count(None)]:
        got = rule.scores(np.array(FACES))
        assert got.dtype.kind == "i", rule
        assert all(type(v) is int for v in got.tolist())


def test_a_doubled_test_without_a_success_test_scores_only_failures() -> None:
    rule = Count(None, point("=", 1), point("=", 6))
    assert rule.scores(np.array(FACES)).tolist() == [-1, 0, 0, 0, 0, 0]
    assert [rule.score(v) for v in FACES] == [-1, 0, 0, 0, 0, 0]


def test_with_weights_keeps_a_given_doubled_weight() -> None:
    rule = Count(point(">=", 5), point("=", 1), point("=", 6)).with_weights(3, 5, 7)
    assert [rule.score(v) for v in FACES] == [5, 0, 0, 0, 3, 7]
    assert rule.bounds() == (0, 7)


def test_a_partial_of_one_face_is_asked_face_by_face() -> None:
    def among(face: int, faces: tuple[int, ...]) -> bool:
        return face in faces  # of one face only: an array's truth is ambiguous

    rule = Count(partial(among, faces=(2, 6)), partial(among, faces=(1,)))
    assert rule.scores(np.array(FACES)).tolist() == [-1, 1, 0, 0, 0, 1]


def test_an_answer_of_another_shape_is_asked_face_by_face() -> None:
    rule = Count(lambda v: np.array([v >= 5]))  # wraps its answer: shape (1, n) for n faces
    assert rule.scores(np.array(FACES)).tolist() == [0, 0, 0, 0, 1, 1]


def test_a_test_of_one_face_keeps_the_array_s_shape() -> None:
    rule = Count(lambda v: v in (2, 6), lambda v: v == 1 and True)
    grid = np.array(FACES).reshape(2, 3)
    assert rule.scores(grid).tolist() == [[-1, 1, 0], [0, 0, 1]]


def test_counts_naming_the_same_faces_are_equal_and_hashable() -> None:
    assert Count([6, 5]) == Count({5, 6}) == Count(frozenset({5, 6}))
    assert hash(Count([6, 5])) == hash(Count({5, 6}))
    assert len({Count([6, 5]), Count({6, 5})}) == 1
    assert Count(point(">=", 5)) == Count(point(">=", 5))  # absent tests compared as absent
    assert hash(Count(point(">=", 5), None, None)) == hash(Count(point(">=", 5)))
    assert Count([5, 6]) != Count([5])


def test_a_count_s_test_of_named_faces_survives_pickling() -> None:
    hits = pickle.loads(pickle.dumps(Count({5, 6}).hits))
    assert [bool(hits(v)) for v in FACES] == [False, False, False, False, True, True]


def test_a_test_reading_an_array_s_attributes_is_asked_the_whole_array() -> None:
    rule = Count(lambda v: v.real >= 5, lambda v: v.real == 1)  # ints and numpy arrays alike have .real
    assert rule.scores(np.array(FACES)).tolist() == [-1, 0, 0, 0, 1, 1]
