"""The core's evaluation code under mutation (issue 16): samples, the parser's errors, the exact-odds primitives.

Expected values come from the rule written in each test (enumeration, arithmetic by hand), the catalogue's
messages (user-visible text) or the README; never from the engine's own tables.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine import pmf as pmf_module
from diceengine.pmf import PMF, convolve, keep_dp, keep_sum, keep_window

from .helpers import assert_close, enumerate_dice

# ---------------------------------------------------------------- samples


def test_a_sample_is_a_mapping_of_its_fields():
    s = de.sample("3d6", 5, seed=1)
    assert list(s) == ["total"] and len(s) == 1 and s.n == 5
    assert s.system == "standard" and s.expression == "3d6"
    assert s.mean() == pytest.approx(float(np.mean(s["total"])))
    assert repr(s) == "<Sample standard '3d6': n=5, fields=['total']>"
    wild = de.sample("3D", 4, system="d6wild", seed=1)
    assert list(wild) == ["total", "complication", "explosions"] and len(wild) == 3
    assert wild.mean("explosions") == pytest.approx(float(np.mean(wild["explosions"])))
    assert wild.mean("total") != wild.mean("explosions") or (wild["total"] == wild["explosions"]).all()
    assert repr(wild) == "<Sample d6wild '3D': n=4, fields=['total', 'complication', 'explosions']>"


def test_a_missing_sample_field_names_the_fields():
    s = de.sample("3D", 3, system="d6wild", seed=1)
    with pytest.raises(de.DiceError) as err:
        s["nope"]
    assert str(err.value) == "this sample has no field 'nope' (fields: total, complication, explosions)"
    assert not isinstance(err.value, KeyError)


# ---------------------------------------------------------------- parser: messages and carets


@pytest.mark.parametrize("expr, system, column, message", [
    ("3d6 +", "standard", 5, "the expression ends too early: expected '(', '+', '-', 'd', '{', a number or function"),
    ("(3d6", "standard", 4, "the expression ends too early: expected ')' or ','"),
    ("3d6>", "standard", 4, "the expression ends too early: expected '-' or a number"),
    ("3d6 )", "standard", 4, "unexpected ')': expected description or the end of the expression"),
    ("1d6 + ſ", "standard", 6, "unexpected character 'ſ': expected '(', '+', '-', 'd', '{', a number or function"),
    ("profİciencies", "standard", 4, "unexpected character 'İ': letters are ASCII letters here"),
    ("2a1p vs", "ffg", 7, "the expression ends too early: expected a die letter (a p b d c s f) or name or a number"),
    ("2a1p vs q", "ffg", 8, "unexpected character 'q': expected a die letter (a p b d c s f) or name or a number"),
    ("   ", "standard", 0, "empty expression"),
])
def test_syntax_errors_say_what_was_expected_and_where(expr, system, column, message):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr, system=system)
    assert err.value.column == column
    assert str(err.value).splitlines()[0] == message


@pytest.mark.parametrize("expr, system, column, message", [
    # bug found here: a fault right after a word that holds an accent the grammar spells blamed the accent
    ("compétence!", "ffg", 10, "unexpected character '!': expected "),
    ("4D vs très!", "d6wild", 10, "unexpected character '!': expected "),
    # the look-alike is searched in the word at the fault only, not in the words before it
    ("4D vs très facİle", "d6wild", 14, "unexpected character 'İ': expected a name"),
    ("capacité vs !", "ffg", 12, "unexpected character '!': expected a die letter"),
])
def test_the_fault_near_accented_words(expr, system, column, message):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr, system=system)
    assert err.value.column == column and err.value.expression == expr
    lines = str(err.value).splitlines()
    assert lines[0].startswith(message)
    assert lines[1:] == ["  " + expr, "  " + " " * column + "^"]


def test_terminal_names_in_messages():
    # the catalogue's names of terminals: a comparison, a label, the end of the expression
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("3d6 3")
    first = str(err.value).splitlines()[0]
    assert first.startswith("unexpected '3': expected '%', '*', '+', '-', '/', '//', 'e', 'f', ")
    assert "a comparison (>=, >, <=, <, =)" in first and "a label in brackets" in first
    assert "the end of the expression" in first
    assert "bang, clamp, critical" in first  # regex terminals: their lower-case names


def test_an_expression_that_is_not_a_string():
    with pytest.raises(de.DiceError) as err:
        de.roll(5)  # type: ignore[arg-type]
    assert str(err.value) == "an expression must be a string, not int"


def test_length_and_depth_messages():
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("1" * 1001)
    assert str(err.value).splitlines()[0] == "expression too long: 1001 characters (at most 1000)"
    assert de.roll("1d6 " + "a" * 996).description == "a" * 996  # exactly 1000 characters
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("-" * 64 + "1")
    assert str(err.value).splitlines()[0] == "expression nested too deeply (more than 64 levels)"
    assert err.value.column == 64  # the caret under the node past the bound: the number
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("+".join(["1"] * 65))
    assert err.value.column in (0, 2)


def test_a_value_error_inside_the_tree_points_at_its_node():
    # a node that refuses its children while the tree is built (a keep/drop point other than < or >)
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6k=3", dialect="d20")
    assert err.value.column is not None and err.value.column > 0


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


def test_the_default_algebra_is_integer_arithmetic():
    # what a system that overrides only `leaf` gets: + - * floor-division and negation of whole numbers
    from diceengine.arith import Algebra, fold
    from diceengine.parser import parse
    from diceengine.registry import get_system

    d6 = get_system("d6")
    for text, value in (("2*3+8/3-(-1)", 2 * 3 + 8 // 3 + 1), ("7*5", 35), ("9/2*4", 16), ("-(2*7)", -14)):
        assert fold(parse(text, d6), Algebra()) == value, text
    with pytest.raises(de.DiceError, match="division by zero") as err:
        fold(parse("1+4/0", d6), Algebra())
    assert err.value.column == 3
    with pytest.raises(de.DiceError, match="dice are not allowed here"):
        fold(parse("2+3D", d6), Algebra())


@pytest.mark.parametrize(("system", "expr", "options"),
                         [("d6", "3D vs 10", {}), ("d6wild", "4D+2 vs 15", {}), ("d6wild", "1D", {}),
                          ("d6wild", "3D+1", {"wild": False}), ("d20pool", "3d20<=12 spec 3 vs 2", {}),
                          ("ffg", "2a1p vs 2d", {}), ("standard", "4d6kh3cs6cf1", {}), ("standard", "3d6!", {})])
def test_sampled_counts_are_whole_numbers(system, expr, options):
    # every field of a sample is a count, a total or a verdict: int64 or bool arrays, never floats
    s = de.sample(expr, 500, system, seed=2, **options)
    for name, column in s.items():
        assert column.dtype in (np.int64, np.bool_), (name, column.dtype)
    if system == "d6wild" and not options:
        assert s["explosions"].max() >= 1  # a six rolled on the Wild Die in 500 rolls: the count is there


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


@pytest.mark.parametrize(("expr", "sides"), [("2d6", (6, 6)), ("1d4+1d6", (4, 6)), ("1d20+1d4+1d8", (20, 4, 8))])
def test_variance_and_standard_deviation_against_enumeration(expr, sides):
    totals = [sum(faces) for faces in itertools.product(*[range(1, s + 1) for s in sides])]
    mean = sum(totals) / len(totals)
    var = sum((t - mean) ** 2 for t in totals) / len(totals)
    dist = de.distribution(expr)
    assert dist.variance() == pytest.approx(var, rel=1e-12)
    assert dist.stdev() == pytest.approx(var ** 0.5, rel=1e-12)


def test_standard_deviation_of_another_field():
    # a success count of 3d6>=5: binomial(3, 1/3), variance 3 * 1/3 * 2/3
    dist = de.distribution("3d6>=5")
    assert dist.stdev("total") == pytest.approx((3 * 1 / 3 * 2 / 3) ** 0.5, rel=1e-12)


@pytest.mark.parametrize(("expr", "options"), [("3d20^4", {}), ("max(1d6+1000, 1d4+1000)", {}), ("abs(5*1d250)", {}),
                                               ("round((1d6+2000)/3)", {"division": "exact"}),
                                               ("1d20cs20^3", {}), ("2d6", {})])
def test_exact_whole_totals_are_integer_columns(expr, options):
    # however the engine holds a distribution (dense, or sparse when its values are far apart), whole-number
    # totals come out as int64 columns, as in samples; fractions stay exact (Python numbers)
    dist = de.distribution(expr, **options)
    assert dist.columns["total"].dtype == np.int64
    assert de.distribution("1d6/4", division="exact").columns["total"].dtype == object
