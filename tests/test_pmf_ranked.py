"""One die of a rank among identical dice (``diceengine.pmf.ranked_die``, issue 33): the highest, the lowest or a die
near an end, as a binomial tail over the faces. It is what ``keep_sum`` answers when one die is kept and
``window_sum`` when the window is one die; each is checked against every throw (exact fractions, enumerated here)
and against the general order-statistics DP (``keep_dp`` / ``keep_window``), which it replaces on those inputs."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de
from diceengine.errors import DiceLimitError
from diceengine.pmf import PMF, keep_dp, keep_sum, keep_window, ranked_die, window_sum
from tests.helpers import assert_estimate_bounds_work, clear_engine_caches

UNEVEN = {-2: Fraction(1, 10), 0: Fraction(3, 10), 1: Fraction(1, 5), 4: Fraction(2, 5)}


def enumerate_rank(faces: dict[int, Fraction], n: int, rank: int) -> dict[int, Fraction]:
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = Fraction(1)
        for v in throw:
            p *= faces[v]
        out[sorted(throw)[rank]] += p
    return {k: v for k, v in out.items() if v}


def close(got: dict[int, float], want: dict[int, Fraction], tol: float = 1e-13) -> None:
    assert set(got) == set(want)
    for k, q in want.items():
        assert got[k] == pytest.approx(float(q), abs=tol)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_every_rank_against_every_throw(n):
    faces = [(v, float(q)) for v, q in UNEVEN.items()]
    for rank in range(n):
        close(dict(ranked_die(faces, n, rank).items()), enumerate_rank(UNEVEN, n, rank))


def _units(faces: list[tuple[int, float]]) -> list[tuple[int, float, PMF]]:
    return [(v, q, PMF.point(v)) for v, q in faces]


@pytest.mark.parametrize("sides, n", [(6, 2), (20, 2), (8, 3), (100, 4), (10, 12), (4, 40)])
def test_keep_one_as_the_general_dp(sides, n):
    faces = [(v, 1 / sides) for v in range(1, sides + 1)]
    for highest in (True, False):
        fast = dict(keep_sum(faces, n, 1, highest).items())
        general = dict(keep_dp(_units(faces), n, 1, highest).items())
        assert set(fast) == set(general)
        for k, q in general.items():
            assert fast[k] == pytest.approx(q, abs=1e-12)


@pytest.mark.parametrize("n, lo", [(3, 1), (5, 2), (9, 1), (9, 7), (20, 6), (20, 13)])
def test_a_window_of_one_die_as_the_general_dp(n, lo):
    faces = [(v, float(q)) for v, q in UNEVEN.items()]
    fast = dict(window_sum(faces, n, lo, lo + 1).items())
    general = dict(keep_window(_units(faces), n, lo, lo + 1).items())
    assert set(fast) == set(general)
    for k, q in general.items():
        assert fast[k] == pytest.approx(q, abs=1e-12)


def test_shares_of_a_truncated_total_and_faces_of_no_chance():
    faces = [(1, 0.3), (2, 0.0), (5, 0.3), (7, 0.3), (9, 0.0)]  # 0.9 in all: each face's share of it
    want = enumerate_rank({1: Fraction(1, 3), 5: Fraction(1, 3), 7: Fraction(1, 3)}, 4, 3)
    close(dict(ranked_die(faces, 4, 3).items()), want)
    close(dict(keep_sum(faces, 4, 1, True).items()), want)


@pytest.mark.parametrize("expression, sides, n, rank", [("2d6dl1", 6, 2, 1), ("3d8dh2", 8, 3, 0),
                                                        ("2d20kl1", 20, 2, 0), ("5d6dl2dh2", 6, 5, 2)])
def test_dice_terms_against_every_throw(expression, sides, n, rank):
    clear_engine_caches()
    want = enumerate_rank({v: Fraction(1, sides) for v in range(1, sides + 1)}, n, rank)
    close(de.distribution(expression).marginal("total"), want)


def test_a_re_rolled_die_kept_against_every_throw():
    # 3d8ro1dh2: a 1 re-rolled once (1/64 a 1, 9/64 each other face), the lowest die kept
    face = {1: Fraction(1, 64), **{v: Fraction(9, 64) for v in range(2, 9)}}
    clear_engine_caches()
    close(de.distribution("3d8ro1dh2").marginal("total"), enumerate_rank(face, 3, 0))


@pytest.mark.parametrize("expression", ["2d6dl1", "40d4kh1", "9d10kl1", "9d10dl7dh1", "3d4!kh1"])
def test_the_estimate_bounds_the_work_counted(expression):
    assert_estimate_bounds_work(expression)


def test_the_same_support_check_as_the_dp():
    with pytest.raises(DiceLimitError):
        keep_sum([(0, 0.5), (10**7, 0.5)], 3, 1, True)
    with pytest.raises(DiceLimitError):
        window_sum([(0, 0.5), (10**7, 0.5)], 3, 1, 2)


def test_faces_of_no_chance_at_all_as_the_dp():
    # no face has any chance (shares of a total of 0): the DP's answer, never a NaN
    faces = [(1, 0.0), (2, 0.0), (3, 0.0)]
    assert keep_sum(faces, 3, 1, True).items() == keep_dp(_units(faces), 3, 1, True).items()
    assert not any(math.isnan(q) for _, q in window_sum(faces, 3, 1, 2).items())


@pytest.mark.parametrize("faces", [[(v, float(q)) for v, q in UNEVEN.items()],
                                   [(v, 1 / 8) for v in range(1, 9)],
                                   [(1, 0.3), (2, 0.0), (5, 0.3), (7, 0.3), (9, 0.0)],
                                   [(v, (v % 5 + 1) / 96.0) for v in range(-3, 29)]])
def test_a_small_support_worked_value_by_value_as_in_arrays(faces, monkeypatch):
    """A support of at most ``SMALL_SPAN`` values is worked out on Python floats (a first question's numpy calls
    cost more): every rank of 1 to 7 dice gives what the arrays give (the same tail formula, both ways)."""
    from diceengine import pmf_rank

    span = max(v for v, _ in faces) - min(v for v, _ in faces) + 1
    assert span <= pmf_rank.SMALL_SPAN
    for n in range(1, 8):
        for rank in range(n):
            small = ranked_die(faces, n, rank)
            monkeypatch.setattr(pmf_rank, "SMALL_SPAN", 0)
            arrays = ranked_die(faces, n, rank)
            monkeypatch.undo()
            assert small.offset == arrays.offset and len(small.p) == len(arrays.p)
            assert max(abs(small.p - arrays.p)) <= 1e-15, (n, rank)
