"""A count of successes over the dice kept (``diceengine.pmf.kept_scores``, issue 33: ``6d100kl4>=76f1``): the
order-statistics DP over the bands of faces of one score, not the general keep DP over every face. Checked against
every throw (enumerated here), the general DP (``keep_dp`` / ``keep_window``) and, when installed, icepool."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de
from diceengine.pmf import PMF, keep_dp, keep_window, kept_scores
from tests.helpers import assert_estimate_bounds_work, clear_engine_caches


def score(face: int, target: int, fail: int | None) -> int:
    """Roll20's reading: a success at ``target`` or more (at most ``-target`` when negative), a failure on ``fail``."""
    hit = face >= target if target > 0 else face <= -target
    return 1 if hit else -1 if face == fail else 0


def enumerate_kept(sides: int, n: int, lo: int, hi: int, target: int, fail: int | None,
                   first: dict[int, Fraction] | None = None) -> dict[int, Fraction]:
    """Every throw of ``n`` dice: the scores of the dice ranked ``lo`` to ``hi - 1`` by face (lowest first)."""
    die = first or {f: Fraction(1, sides) for f in range(1, sides + 1)}
    out: Counter = Counter()
    for throw in itertools.product(die, repeat=n):
        p = Fraction(1)
        for f in throw:
            p *= die[f]
        out[sum(score(f, target, fail) for f in sorted(throw)[lo:hi])] += p
    return {k: v for k, v in out.items() if v}


def close(got: dict[int, float], want: dict, tol: float = 1e-12) -> None:
    assert set(got) == set(want)
    for k, q in want.items():
        assert got[k] == pytest.approx(float(q), abs=tol)


# (expression, sides, n, ranks kept lo..hi lowest first, target, fail)
TERMS = [("4d6kh3>=4", 6, 4, 1, 4, 4, None), ("5d6kl2>=5f1", 6, 5, 0, 2, 5, 1), ("5d8dl1dh1>=6f2", 8, 5, 1, 4, 6, 2),
         ("4d10dh1>=8f1", 10, 4, 0, 3, 8, 1), ("6d4kh4>=3f1", 4, 6, 2, 6, 3, 1), ("4d10dl2>=7", 10, 4, 2, 4, 7, None),
         ("4d12kl3<=3", 12, 4, 0, 3, -3, None), ("5d8dl1dh1>=6f1", 8, 5, 1, 4, 6, 1)]


@pytest.mark.parametrize("expression, sides, n, lo, hi, target, fail", TERMS)
def test_terms_against_every_throw(expression, sides, n, lo, hi, target, fail):
    want = enumerate_kept(sides, n, lo, hi, target, fail)
    clear_engine_caches()
    close(de.distribution(expression).marginal("total"), want)


def test_a_re_rolled_die_against_every_throw():
    # 4d8ro1kl2>=6f1: a 1 re-rolled once (1/64 a 1, 9/64 each other face), the two lowest kept
    first = {1: Fraction(1, 64), **{f: Fraction(9, 64) for f in range(2, 9)}}
    clear_engine_caches()
    close(de.distribution("4d8ro1kl2>=6f1").marginal("total"), enumerate_kept(8, 4, 0, 2, 6, 1, first))


def _units(sides: int, target: int, fail: int | None) -> list[tuple[int, int, float]]:
    return [(f, score(f, target, fail), 1 / sides) for f in range(1, sides + 1)]


@pytest.mark.parametrize("sides, n, lo, hi", [(100, 6, 0, 4), (20, 7, 3, 7), (10, 9, 2, 6), (6, 12, 0, 1),
                                              (12, 10, 4, 5), (8, 5, 0, 5)])
def test_as_the_general_dp(sides, n, lo, hi):
    units = _units(sides, (3 * sides) // 4, 1)
    fast = dict(kept_scores(units, n, lo, hi).items())
    table = [(f, q, PMF.point(s)) for f, s, q in units]
    general = keep_dp(table, n, hi - lo, lo > 0) if lo == 0 or hi == n else keep_window(table, n, lo, hi)
    close(fast, dict(general.items()))


def test_keys_out_of_order_and_of_no_chance():
    # keys given in any order, a key of no chance between two of one score (the bands are not merged across it)
    units = [(5, 1, 0.25), (1, -1, 0.25), (3, 0, 0.0), (2, 1, 0.25), (4, 1, 0.25)]
    die = {1: Fraction(1, 4), 2: Fraction(1, 4), 4: Fraction(1, 4), 5: Fraction(1, 4)}
    scores = {1: -1, 2: 1, 4: 1, 5: 1}
    out: Counter = Counter()
    for throw in itertools.product(die, repeat=4):
        out[sum(scores[f] for f in sorted(throw)[1:3])] += Fraction(1, 256)
    close(dict(kept_scores(units, 4, 1, 3).items()), out)


def test_against_icepool():
    icepool = pytest.importorskip("icepool")
    # a face read as face * 100 + its score: ranked as the face, the kept scores' sum read back from the kept sum
    die = icepool.d(100).map(lambda f: f * 100 + (1 if f >= 76 else -1 if f == 1 else 0))
    peer = die.lowest(6, 4).map(lambda s: (s + 50) % 100 - 50)
    want = {int(k): float(v) for k, v in zip(peer.outcomes(), peer.probabilities())}
    clear_engine_caches()
    got = de.distribution("6d100kl4>=76f1").marginal("total")
    assert set(got) == {k for k, v in want.items() if v > 0}
    for k, q in want.items():
        assert got.get(k, 0.0) == pytest.approx(q, abs=1e-9)


@pytest.mark.parametrize("expression", ["6d100kl4>=76f1", "4d6kh3>=4", "5d8dl1dh1>=6f2", "30d10kh10>=8f1",
                                        "20d20dl5dh5>=15", "4d8ro1kl2>=6f1"])
def test_the_estimate_bounds_the_work_counted(expression):
    assert_estimate_bounds_work(expression)
