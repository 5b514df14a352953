"""Exact distributions (``diceengine.pmf``): the PMF's algebra, convolution, the dynamic programmes that keep
or drop dice (``keep_sum``, ``keep_dp``, ``keep_window``, ``rank_dp``) and their cost estimates, each against
enumeration written here."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine import pmf as pmf_module
from diceengine.pmf import PMF, convolve, keep_dp, keep_dp_cost, keep_sum, keep_sum_cost, keep_window, rank_dp

from .helpers import assert_close, enumerate_dice


def enumerate_kept(faces: dict[int, float], n: int, lo: int, hi: int, highest: bool) -> Counter:
    """Sum of the dice ranked ``lo`` .. ``hi - 1`` (highest first or lowest first) over every throw."""
    out: Counter = Counter()
    for throw in itertools.product(faces, repeat=n):
        p = 1.0
        for v in throw:
            p *= faces[v]
        if p:
            out[sum(sorted(throw, reverse=highest)[lo:hi])] += p
    return out


def as_counter(pmf: PMF) -> Counter:
    return Counter(dict(pmf.items()))


def assert_same(got: Counter, want: Counter) -> None:
    assert set(got) == set(want)
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12)


# a die whose two highest faces cannot come up: at the third key the rest of the mass is all in it (the
# binomial share of that key is exactly 1 and every split but "all of them" weighs exactly 0); at the fourth,
# no mass is left at all (no share to divide)
FACES = {1: 0.25, 2: 0.25, 3: 0.5, 4: 0.0, 5: 0.0}


@pytest.mark.parametrize("n", [2, 3])
def test_rank_dp_past_a_key_of_probability_zero(n):
    units = [(v, q, PMF.point(v)) for v, q in FACES.items()]
    keep_all = rank_dp(units, n, lambda state, key, below, count: (None, count))
    assert_same(as_counter(keep_all), enumerate_kept(FACES, n, 0, n, True))
    # the two lowest: the rule counts the dice below
    lowest = rank_dp(units, n, lambda state, key, below, count: (None, max(0, min(count, 2 - below))))
    assert_same(as_counter(lowest), enumerate_kept(FACES, n, 0, 2, False))


@pytest.mark.parametrize(("lo", "hi", "highest"), [(0, 1, True), (0, 2, False), (1, 3, True), (0, 3, False)])
def test_keep_window_and_keep_sum_past_a_key_of_probability_zero(lo, hi, highest):
    units = [(v, q, PMF.point(v)) for v, q in FACES.items()]
    want = enumerate_kept(FACES, 3, lo, hi, highest)
    assert_same(as_counter(keep_window(units, 3, lo, hi, highest_first=highest)), want)
    if lo == 0:
        assert_same(as_counter(keep_sum(list(FACES.items()), 3, hi, highest)), want)
        reordered = {5: 0.0, 4: 0.0, 3: 0.5, 2: 0.25, 1: 0.25}   # the zero key visited first instead
        assert_same(as_counter(keep_sum(list(reordered.items()), 3, hi, not highest)),
                    enumerate_kept(FACES, 3, lo, hi, not highest))


def test_dice_without_any_key_have_no_mass():
    assert keep_window([], 2, 0, 1).mass == 0.0
    assert rank_dp([], 2, lambda state, key, below, count: (None, count)).mass == 0.0


def test_keeping_nothing_costs_the_same_whatever_the_scores():
    """Keeping no die (or fewer than none) fills one cell per state, however wide a die's scores."""
    def cost(keep: int, span: int) -> tuple[float, float]:
        c = keep_dp_cost(6, 4, keep, span)
        return c.work, c.cells

    assert cost(0, 20) == cost(0, 1) == cost(-2, 20)
    assert cost(9, 20) == cost(4, 20)   # keeping more dice than thrown
    assert cost(2, 20) > cost(1, 20) > cost(0, 20)


def test_keep_sum_cost_counts_the_steps_of_its_loops():
    """keep_sum visits, for each face, each count of kept dice showing it (0..keep), each moving the rows of the
    dice placed: the estimate grows with the faces, each step costing work in proportion to the array it shifts."""
    for faces, n, keep in ((1, 1, 1), (3, 2, 1), (6, 4, 3), (10, 7, 2)):
        cheap = keep_sum_cost(faces, n, keep, 0, 1)  # a small array: the steps' fixed cost mostly
        more, most = keep_sum_cost(2 * faces, n, keep, 0, 1), keep_sum_cost(3 * faces, n, keep, 0, 1)
        assert most.work - more.work == pytest.approx(more.work - cheap.work)  # each face its steps
        assert more.work > cheap.work
        wide = keep_sum_cost(faces, n, keep, 0, 100_001)
        # doubling the array nearly doubles the work of every step (from a base in arrays too: one die kept of a
        # support of at most SMALL_SPAN values, and a small problem of a few kept, are worked out in Python floats)
        wider = keep_sum_cost(faces, n, keep, 0, 200_001)
        base = keep_sum_cost(faces, n, keep, 0, 150)
        assert (wider.work - base.work) == pytest.approx(2 * (wide.work - base.work), rel=1e-3)
        assert wide.work > 10 * cheap.work


def test_keep_dp_estimate_holds_its_table():
    """Six keys scoring 1 to 6 (each a single value): the estimate for a score span of 6 holds the table
    built (one row per count of dice placed, the sums of the dice kept), and the odds are enumerated."""
    units = [(v, 1 / 6, PMF.point(v)) for v in range(1, 7)]
    for n, keep in ((3, 2), (6, 3), (8, 8)):
        result = keep_dp(units, n, keep, True)
        cost = keep_dp_cost(6, n, keep, 6)
        assert cost.cells >= len(result.p) * (n + 1)
        if n <= 6:
            want = enumerate_kept(dict.fromkeys(range(1, 7), 1 / 6), n, 0, keep, True)
            assert dict(result.items()) == pytest.approx(dict(want), abs=1e-12)


# ---------------------------------------------------------------- PMF: the mass functions themselves


def as_dict(d: PMF) -> dict[int, float]:
    return {int(v): float(q) for v, q in zip(d.values, d.p)}


def test_a_pmf_trims_its_zero_ends():
    d = PMF(5, np.array([0.0, 0.0, 0.25, 0.0, 0.75, 0.0]))
    assert d.offset == 7 and list(d.p) == [0.25, 0.0, 0.75]
    assert list(d.values) == [7, 8, 9]
    assert d.items() == [(7, 0.25), (9, 0.75)]  # zero masses are not items
    empty = PMF(9, np.zeros(4))
    assert empty.offset == 0 and list(empty.p) == [0.0] and empty.mass == 0.0
    assert repr(PMF(2, np.array([0.5, 0.5]))) == "PMF({2: 0.5, 3: 0.5})"


def test_points_counts_and_mappings():
    assert PMF.point(4).items() == [(4, 1.0)]
    assert PMF.point(-3, 0.25).items() == [(-3, 0.25)]
    d = PMF.from_counts([3, 1, 3, 3])
    assert d.items() == [(1, 0.25), (3, 0.75)]
    assert PMF.from_counts([2, 5], weight=0.1).items() == [(2, 0.1), (5, 0.1)]
    assert PMF.from_counts([]).mass == 0.0
    m = PMF.from_mapping({-2: 0.5, 4: 0.125, 1: 0.375})
    assert m.items() == [(-2, 0.5), (1, 0.375), (4, 0.125)]
    assert PMF.from_mapping({}).mass == 0.0


def test_moments_and_lookups():
    d = PMF.from_mapping({1: 0.5, 4: 0.5})
    assert d.mass == 1.0 and d.mean() == 2.5
    half = d.scale_mass(0.5)
    assert half.mass == 0.5 and half.mean() == 2.5  # the mean of a partial mass is normalised
    assert half.items() == [(1, 0.25), (4, 0.25)]
    assert d.prob(4) == 0.5 and d.prob(1) == 0.5 and d.prob(2) == 0.0
    assert d.prob(0) == 0.0 and d.prob(5) == 0.0 and d.prob(-100) == 0.0
    assert d.shift(3).items() == [(4, 0.5), (7, 0.5)]


def test_sums_differences_and_negation_against_enumeration():
    a = PMF.from_mapping({1: 0.2, 2: 0.3, 5: 0.5})
    b = PMF.from_mapping({-1: 0.6, 3: 0.4})
    plus: dict[int, float] = {}
    minus: dict[int, float] = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        plus[x + y] = plus.get(x + y, 0.0) + p * q
        minus[x - y] = minus.get(x - y, 0.0) + p * q
    assert_close(as_dict(a + b), plus)
    assert_close(as_dict(a - b), minus)
    assert (-a).items() == [(-5, 0.5), (-2, 0.3), (-1, 0.2)]


def test_mixtures():
    a = PMF.from_mapping({2: 0.25})
    b = PMF.from_mapping({5: 0.5, 6: 0.25})
    assert a.mix(b).items() == [(2, 0.25), (5, 0.5), (6, 0.25)]
    assert b.mix(a).items() == [(2, 0.25), (5, 0.5), (6, 0.25)]
    assert a.mix(PMF.from_mapping({2: 0.5})).items() == [(2, 0.75)]
    empty = PMF.point(0, 0.0)
    assert empty.mix(b).offset == 5 and len(empty.mix(b).p) == 2  # the empty start does not stretch to 0
    assert b.mix(empty) is b


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6])
def test_power_is_the_sum_of_n_copies(n):
    die = PMF.from_mapping({0: 0.5, 1: 0.25, 3: 0.25})
    expected: dict[int, float] = {}
    for combo in itertools.product(die.items(), repeat=n):
        total = sum(v for v, _ in combo)
        expected[total] = expected.get(total, 0.0) + float(np.prod([p for _, p in combo]))
    assert_close(as_dict(die.power(n)), expected if n else {0: 1.0})


def test_combine_and_map_against_enumeration():
    a = PMF.from_mapping({-2: 0.5, 3: 0.5})
    b = PMF.from_mapping({1: 0.25, 4: 0.75})
    expected: dict[int, float] = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        expected[x * y] = expected.get(x * y, 0.0) + p * q
    assert_close(as_dict(a.combine(b, np.multiply)), expected)
    assert_close(as_dict(a.map(lambda v: v * v)), {4: 0.5, 9: 0.5})
    assert_close(as_dict(b.map(lambda v: -3 * v)), {-3: 0.25, -12: 0.75})


def test_supports_past_the_bound_are_refused():
    limit = pmf_module.MAX_SUPPORT
    assert limit == 2_000_000
    assert PMF.from_counts([0, limit - 1]).items() == [(0, 0.5), (limit - 1, 0.5)]
    with pytest.raises(de.DiceLimitError) as err:
        PMF.from_counts([0, limit])
    assert str(err.value) == f"too many possible results for exact odds ({limit + 1}, at most {limit})"
    with pytest.raises(de.DiceLimitError):
        PMF.from_mapping({0: 0.5, limit: 0.5})
    assert PMF.from_mapping({0: 0.5, limit - 1: 0.5}).mass == 1.0
    with pytest.raises(de.DiceLimitError):
        PMF.from_mapping({0: 0.5, 1: 0.5}).power(limit)  # limit + 1 possible totals, refused before any work
    assert PMF.from_mapping({0: 0.5, 2: 0.5}).power(3).items() == [(0, 0.125), (2, 0.375), (4, 0.375), (6, 0.125)]
    wide = PMF.from_mapping({0: 0.5, 1_000_000: 0.5})
    with pytest.raises(de.DiceLimitError):
        wide.map(lambda v: 2 * v + v // 1_000_000)  # 0 and 2,000,001: a support of 2,000,002
    pair = PMF.from_mapping({1: 0.5, 2: 0.5})
    tall = PMF.from_mapping({1: 0.5, 999_999: 0.5})  # 999,999 values: 1,999,998 pairs
    assert tall.combine(pair, np.multiply).items() == [(1, 0.25), (2, 0.25), (999_999, 0.25), (1_999_998, 0.25)]
    with pytest.raises(de.DiceLimitError):
        tall.combine(pair, lambda x, y: 3 * x * y)  # 3 .. 5,999,994: too wide a result
    with pytest.raises(de.DiceLimitError):
        PMF.from_mapping({1: 0.5, 1_000_001: 0.5}).combine(pair, np.add)  # 2,000,002 pairs


def test_sum_of_supports_past_the_bound_is_refused():
    half = pmf_module.MAX_SUPPORT // 2
    a = PMF.from_mapping({0: 0.5, half: 0.5})  # half + 1 values
    b = PMF.from_mapping({0: 0.5, half - 2: 0.5})  # half - 1 values
    assert len((a + b).p) == 2 * half - 1
    with pytest.raises(de.DiceLimitError):
        a + PMF.from_mapping({0: 0.5, half: 0.5})  # checked on the sum of lengths: 2 * half + 2
    with pytest.raises(de.DiceLimitError):
        a.mix(PMF.from_mapping({-half: 1.0}))  # -half .. half: 2 * half + 1 values


# ---------------------------------------------------------------- convolution


def test_convolution_is_exact_when_small_and_close_by_fft_when_large():
    n = 2000  # 2000 x 2000 = 4,000,000 products: still the direct sum, exact in integers
    out = convolve(np.ones(n), np.ones(n))
    expected = np.concatenate([np.arange(1, n + 1), np.arange(n - 1, 0, -1)]).astype(float)
    assert np.array_equal(out, expected)
    rng = np.random.default_rng(1)
    a, b = rng.random(2100), rng.random(2100)  # past 4,000,000: by FFT, to rounding, never negative
    assert np.allclose(convolve(a, b), np.convolve(a, b), rtol=1e-9, atol=1e-9)
    c = np.array([1.0, 0, 0, 0] * 600)
    d = np.zeros(2000)
    d[0] = 1.0
    fft = convolve(c, d)
    assert len(fft) == len(c) + len(d) - 1 and (fft >= 0).all()
    assert np.allclose(fft[:len(c)], c, atol=1e-12)


def test_convolution_of_a_short_and_a_long_array_stays_direct_or_refuses():
    ones = np.ones(1_000_000)
    out = convolve(np.ones(50), ones)  # 50,000,000 products: the direct sum, exact
    assert out[0] == 1.0 and out[49] == 50.0 and out[500_000] == 50.0 and len(out) == 1_000_049
    with pytest.raises(de.DiceLimitError) as err:
        convolve(np.ones(51), ones)
    assert str(err.value).splitlines()[0] == "too many possible results for exact odds"


# ---------------------------------------------------------------- keep the highest / lowest


def _kept_sum(faces: list[tuple[int, float]], n: int, window: tuple[int, int]) -> dict[int, float]:
    """The sum of the dice ranked window[0]..window[1]-1 (lowest first) among n dice, by enumeration."""
    out: dict[int, float] = {}
    for combo in itertools.product(faces, repeat=n):
        values = sorted(v for v, _ in combo)
        total = sum(values[window[0]:window[1]])
        out[total] = out.get(total, 0.0) + float(np.prod([p for _, p in combo]))
    return out


UNEVEN = [(-1, 0.1), (0, 0.2), (2, 0.3), (5, 0.4)]


@pytest.mark.parametrize("n, keep", [(1, 1), (3, 1), (3, 2), (4, 2), (4, 0), (3, 3), (3, 5), (4, 3)])
@pytest.mark.parametrize("highest", [True, False])
def test_keep_sum_against_enumeration(n, keep, highest):
    k = max(0, min(keep, n))
    window = (n - k, n) if highest else (0, k)
    assert_close(as_dict(keep_sum(UNEVEN, n, keep, highest)), _kept_sum(UNEVEN, n, window), 1e-12)


def test_keep_sum_of_positive_faces_and_of_negative_faces():
    d4 = [(v, 0.25) for v in range(1, 5)]
    assert_close(as_dict(keep_sum(d4, 3, 2, True)), _kept_sum(d4, 3, (1, 3)))
    negative = [(-3, 0.5), (-1, 0.5)]
    assert_close(as_dict(keep_sum(negative, 3, 2, False)), _kept_sum(negative, 3, (0, 2)))
    assert_close(as_dict(keep_sum(negative, 3, 1, True)), _kept_sum(negative, 3, (2, 3)))
    assert keep_sum([], 3, 2, True).items() == [(0, 1.0)]


def _units(faces: list[tuple[int, float]]) -> list[tuple[int, float, PMF]]:
    """keep_dp's units when a die's score is its value plus ten when it is 5 (key: the value)."""
    return [(v, p, PMF.point(v + (10 if v == 5 else 0))) for v, p in faces]


def _kept_score(faces, n, window):
    out: dict[int, float] = {}
    for combo in itertools.product(faces, repeat=n):
        values = sorted(v for v, _ in combo)
        total = sum(v + (10 if v == 5 else 0) for v in values[window[0]:window[1]])
        out[total] = out.get(total, 0.0) + float(np.prod([p for _, p in combo]))
    return out


@pytest.mark.parametrize("n, keep", [(1, 1), (3, 1), (3, 2), (4, 2), (3, 0), (2, 4)])
@pytest.mark.parametrize("highest", [True, False])
def test_keep_dp_against_enumeration(n, keep, highest):
    k = max(0, min(keep, n))
    window = (n - k, n) if highest else (0, k)
    assert_close(as_dict(keep_dp(_units(UNEVEN), n, keep, highest)), _kept_score(UNEVEN, n, window), 1e-12)


@pytest.mark.parametrize("n, lo, hi", [(3, 1, 2), (4, 1, 3), (4, 0, 2), (4, 2, 4), (5, 1, 4), (4, 2, 2)])
def test_keep_window_against_enumeration(n, lo, hi):
    assert_close(as_dict(keep_window(_units(UNEVEN), n, lo, hi)), _kept_score(UNEVEN, n, (lo, hi)), 1e-12)
    # ranks counted from the highest: the window (lo, hi) of the reversed order
    assert_close(as_dict(keep_window(_units(UNEVEN), n, lo, hi, highest_first=True)),
                 _kept_score(UNEVEN, n, (n - hi, n - lo)), 1e-12)


def test_keep_window_with_a_die_score_that_is_a_distribution():
    # a d4 whose key is its face and whose score is 0 or 1 with equal chance (a coin per die)
    units = [(v, 0.25, PMF.from_mapping({0: 0.5, 1: 0.5})) for v in range(1, 5)]
    # whatever the ranks, two kept dice score Binomial(2, 1/2)
    assert_close(as_dict(keep_window(units, 4, 1, 3)), {0: 0.25, 1: 0.5, 2: 0.25})
    assert_close(as_dict(keep_dp(units, 3, 1, True)), {0: 0.5, 1: 0.5})


def test_units_with_zero_probability_are_skipped():
    faces = [(1, 0.5), (2, 0.0), (3, 0.5)]
    expected = _kept_sum([(1, 0.5), (3, 0.5)], 3, (1, 3))
    assert_close(as_dict(keep_sum(faces, 3, 2, True)), expected)
    assert_close(as_dict(keep_dp([(v, p, PMF.point(v)) for v, p in faces], 3, 2, True)), expected)


def test_exact_keep_odds_of_dice_terms_match_enumeration_fraction():
    # the engine's 4d6kh3 through these primitives against an enumeration in fractions
    expected = enumerate_dice([range(1, 7)] * 4, lambda v: sum(sorted(v)[1:]))
    got = de.distribution("4d6kh3").marginal("total")
    assert_close(got, {k: float(Fraction(q)) for k, q in expected.items()}, 1e-12)


def test_a_map_onto_exactly_the_largest_support_is_accepted():
    limit = pmf_module.MAX_SUPPORT
    half = PMF.from_mapping({0: 0.5, limit // 2 - 1: 0.5})
    stretched = half.map(lambda v: 2 * v + v // (limit // 2 - 1))  # 0 and limit - 1: exactly limit values
    assert stretched.items() == [(0, 0.5), (limit - 1, 0.5)]


def test_wider_scores_count_more_work():
    narrow = [(v, 0.25, PMF.point(v)) for v in range(1, 5)]
    wide = [(v, 0.25, PMF.from_mapping({0: 0.5, 9: 0.5})) for v in range(1, 5)]
    pmf_module.WORK.work = 0.0
    keep_dp(narrow, 3, 2, True)
    little = pmf_module.WORK.work
    pmf_module.WORK.work = 0.0
    keep_dp(wide, 3, 2, True)
    assert pmf_module.WORK.work > little


def test_from_mapping_the_same_in_a_list_or_in_place(monkeypatch):
    """A small support is summed in a Python list, a large one in an array in place: the same masses (each value's
    chances added in the same order)."""
    from diceengine import pmf_core

    mapping = {-3: 0.125, 0: 0.25, 2: 0.0, 5: 0.5, 7: 0.125}
    listed = PMF.from_mapping(mapping)
    monkeypatch.setattr(pmf_core, "_LISTED", 0)
    in_place = PMF.from_mapping(mapping)
    assert (listed.offset, listed.p.tolist()) == (in_place.offset, in_place.p.tolist()) == \
        (-3, [0.125, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.125])
