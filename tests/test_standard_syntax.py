"""The standard notation's syntax nodes and a dice term's checks: every spelling in any case, compare points,
defaults, descriptions and labels, group modifiers as written, a term's refusals and the bounds of its dice
and scores."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from diceengine.systems.standard.nodes import Compare

import diceengine as de
from tests.helpers import Scripted


@pytest.mark.parametrize("op, value, holds", [
    ("=", 3, {3}), ("==", 3, {3}), (">=", 3, {3, 4, 5, 6}), (">", 3, {4, 5, 6}), ("<=", 3, {1, 2, 3}),
    ("<", 3, {1, 2}), ("!=", 3, {1, 2, 4, 5, 6}), ("<>", 3, {1, 2, 4, 5, 6}), (">=", -1, {1, 2, 3, 4, 5, 6}),
])
def test_a_compare_point_tests_what_it_says(op, value, holds):
    point = Compare.of(op, value)
    assert {x for x in range(1, 7) if point.test(x)} == holds
    assert {x for x in range(1, 7) if point.predicate()(x)} == holds
    values = np.arange(1, 7)
    assert set(values[point.test(values)].tolist()) == holds
    assert str(point) == f"{op}{value}"


@pytest.mark.parametrize("upper, lower, faces, sides", [
    ("4D6KH3", "4d6kh3", [1, 6, 5, 2], 6), ("4d6K3", "4d6k3", [1, 6, 5, 2], 6), ("4d6D1", "4d6d1", [1, 6, 5, 2], 6),
    ("4d6KL1", "4d6kl1", [3, 6, 5, 2], 6), ("4d6DH1", "4d6dh1", [3, 6, 5, 2], 6), ("4d6DL2", "4d6dl2", [3, 6, 5, 2], 6),
    ("3d6PH1", "3d6dh1", [1, 6, 5], 6), ("3d6PL1", "3d6dl1", [1, 6, 5], 6),
    ("2d6E6", "2d6!6", [1, 6, 5], 6), ("2d6e6", "2d6!6", [1, 6, 5], 6),
    ("3d6RR1", "3d6r1", [1, 6, 5, 2], 6), ("3d6RO1", "3d6ro1", [1, 1, 5, 2], 6), ("2d6RA6", "2d6ra6", [1, 6, 5], 6),
    ("3d6MI2", "3d6min2", [1, 6, 5], 6), ("3d6MA5", "3d6max5", [1, 6, 5], 6), ("3d6Min2", "3d6mi2", [1, 6, 5], 6),
    ("3d6MAX5", "3d6ma5", [1, 6, 5], 6), ("3d6U", "3d6u", [1, 1, 6, 5], 6), ("3d6UO", "3d6uo", [1, 1, 1, 5], 6),
    ("3d6SD", "3d6sd", [1, 6, 5], 6), ("3d6SA", "3d6s", [1, 6, 5], 6), ("2d20CS", "2d20cs", [20, 3], 20),
    ("2d20CF", "2d20cf", [1, 3], 20), ("2DF", "2dF", [1, 3], 3), ("2DF.1", "2dF.1", [1, 6], 6),
    ("2df.1", "2dF.1", [1, 6], 6), ("D%", "1d100", [14], 100), ("1d6!!P", "1d6!!p", [6, 6, 2], 6),
    ("1d6!P", "1d6!p", [6, 6, 2], 6), ("MAX(1d6, 2)", "max(1d6, 2)", [1], 6), ("Floor(1d6/2)", "floor(1d6/2)", [5], 6),
    ("ABS(1d6-4)", "abs(1d6-4)", [1], 6), ("Round(1d6/4)", "round(1d6/4)", [2], 6),
    ("ceil(1d6/4)", "ceil(1d6/4)", [5], 6), ("MIN(1d6, 2)", "min(1d6, 2)", [1], 6),
])
def test_every_spelling_in_any_case(upper, lower, faces, sides):
    a = de.roll(upper, seed=Scripted(faces, sides))
    b = de.roll(lower, seed=Scripted(faces, sides))
    assert a.total == b.total
    assert str(a).split(": ", 1)[1] == str(b).split(": ", 1)[1]
    assert [tuple(d) for d in a.dice] == [tuple(d) for d in b.dice]


@pytest.mark.parametrize("expr, faces, total, text", [
    ("3d6mi-1", [1, 6, 5], 12, "[1, 6, 5] = 12"),
    ("3d6ma-1", [1, 6, 5], -3, "[-1, -1, -1] = -3"),
    ("3d6!>=5", [5, 1, 2, 3], 11, "[5!+1, 2, 3] = 11"),
    ("3d6!=2", [2, 1, 2, 3, 4], 12, "[2!+1, 2!+3, 4] = 12"),
    ("3d6>=-1", [1, 2, 3], 3, "[1*, 2*, 3*] = 3"),
    ("3d6cs1", [1, 2, 1], 4, "[1(cs), 2, 1(cs)] = 4"),
    ("3d6cf>=5", [5, 6, 1], 12, "[5(cf), 6(cf), 1] = 12"),
    ("4d6u=6", [6, 6, 6, 2, 2, 2], 16, "[6, ~6~r ~6~r 2, 2, 2] = 12"),
    ("3d6r", [1, 1, 2, 3, 4], 9, "[~1~r ~1~r 2, 3, 4] = 9"),
    ("3d6ro", [1, 1, 3, 4], 8, "[~1~r 1, 3, 4] = 8"),
    ("3d6ra", [1, 1, 3, 4], 9, "[1!+1, 3, 4] = 9"),
])
def test_points_and_defaults(expr, faces, total, text):
    r = de.roll(expr, seed=Scripted(faces))
    assert str(r) == f"{expr}: {text}"
    if "u=6" not in expr:
        assert r.total == total


@pytest.mark.parametrize("expr, description", [
    ("1d20 /* block */", "block"), ("1d20 /*block", "block"), ("1d20 // note ", "note"), ("1d20 # hash", "hash"),
    ("1d20 to hit", "to hit"), ("1d20 #", None), ("1d20 //", None), ("1d20 /**/", None),
    ("1d20 # a # b", "a # b"), ("1d20 // a // b", "a // b"), ("1d20 /* a */ b */", "a */ b"),
    ("1d20 //note", "note"), ("1d20 /*note*/", "note"), ("1d20 #note", "note"),   # no space after the marker
])
def test_descriptions(expr, description):
    r = de.roll(expr, seed=1)
    assert r.description == description
    assert r.total == de.roll("1d20", seed=1).total


def test_labels_are_stripped():
    r = de.roll("3d6[ fire ] + 2[ bonus  ]", seed=Scripted([1, 6, 5]))
    assert [d.label for d in r.dice] == ["fire"] * 3
    assert str(r) == "3d6[ fire ] + 2[ bonus  ]: [1, 6, 5] (fire) + 2 (bonus) = 14"


@pytest.mark.parametrize("expr, shown", [
    ("{1d6, 1d8}kh", "kh"), ("{1d6, 1d8}KH1", "kh1"), ("{1d6, 1d8}k1", "k1"), ("{1d6, 1d8}kl1", "kl1"),
    ("{1d6, 1d8}dh1", "dh1"), ("{1d6, 1d8}dl1", "dl1"), ("{1d6, 1d8}k", "k"), ("{1d6, 1d8}>=3f<2sd", ">=3f<2sd"),
])
def test_group_modifiers_as_written(expr, shown):
    r = de.roll(expr, seed=1)
    assert str(r).split(" = ")[-2].endswith("}" + shown)


def test_d20_group_modifiers_as_written():
    assert str(de.roll("(1d6, 1d6)ph1", seed=Scripted([1, 6]), dialect="d20")) == \
        "(1d6, 1d6)ph1: ([1] = 1, ~[6] = 6~)ph1 = 1"
    assert str(de.roll("(1, 2, 3)k<3", dialect="d20")) == "(1, 2, 3)k<3: (1, 2, ~3~)k<3 = 3"
    assert str(de.roll("(1, 2, 3)p>1", dialect="d20")) == "(1, 2, 3)p>1: (1, ~2~, ~3~)p>1 = 1"
    assert str(de.roll("(1, 2, 3)pl1", dialect="d20")) == "(1, 2, 3)pl1: (~1~, 2, 3)pl1 = 5"


# ---------------------------------------------------------------- a term's refusals


@pytest.mark.parametrize("expr, kind, column, message", [
    ("1d100!>1", de.DiceLimitError, 5, "1d100!>1 explodes too often: chains longer than 200 dice would be too likely"),
    ("d100!>1", de.DiceLimitError, 4, "d100!>1 explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100!>1r1>=5f1", de.DiceLimitError, 5,
     "3d100!>1r=1>=5f=1 explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100!>1ro<3cs>=99cf2sd", de.DiceLimitError, 5,
     "3d100!>1ro<3cs>=99cf=2sd explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100!!p>1", de.DiceLimitError, 5, "3d100!!p>1 explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100e>1", de.DiceLimitError, 5, "3d100!>1 explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100!>1s", de.DiceLimitError, 5, "3d100!>1sa explodes too often: chains longer than 200 dice would be too likely"),
    ("3d100!>1kh2", de.DiceLimitError, 5,
     "3d100!>1kh2 explodes too often: chains longer than 200 dice would be too likely"),
    ("3d6mi2!>1", de.DiceLimitError, 6, "this die would explode on every face and never stop"),
    ("3d100mi2!>2", de.DiceLimitError, 8,
     "3d100min2!>2 explodes too often: chains longer than 200 dice would be too likely"),
    ("10000d3!<3", de.DiceLimitError, 0,
     "10000d3!<3 would throw about 30,000 dice in one roll (at most 20,000 with re-rolls and explosions)"),
    ("1d1!", de.DiceLimitError, 3, "this die would explode on every face and never stop"),
    ("1d6r<7", de.DiceLimitError, 3, "this die would be re-rolled on every face and never stop"),
    ("2d6!ra6", de.DiceSyntaxError, 4, "an explosion and a re-roll-and-add (ra) on one dice term"),
    ("2d6r1ro2", de.DiceSyntaxError, 5, ("more than one re-roll on one dice term (several re-roll points: all r, or "
                                        "all ro, on dice of at most 100,000 faces)")),
    ("2d6ra1ra2", de.DiceSyntaxError, 6, "more than one re-roll on one dice term"),
    ("2d6!!!", de.DiceSyntaxError, 5, "more than one explosion on one dice term"),
    ("3d6>3>4", de.DiceSyntaxError, 5, "more than one success count on one dice term"),
    ("3d6>3f1f2", de.DiceSyntaxError, 7, "more than one failure count on one dice term"),
    ("3d6f1", de.DiceSyntaxError, 3, "a failure count (f) needs a success count before it (e.g. 8d10>=7f1)"),
    ("3d6uu", de.DiceSyntaxError, 4, "more than one unique on one dice term"),
    ("3d6ss", de.DiceSyntaxError, 4, "more than one sort on one dice term"),
    ("3d6!r1u", de.DiceValueError, 6, "unique dice (u) cannot also explode or be re-rolled"),
    ("3d6r1u", de.DiceValueError, 5, "unique dice (u) cannot also explode or be re-rolled"),
    ("3d6u>4", de.DiceValueError, None, None),
    ("1d0", de.DiceValueError, 0, "a die needs at least one side"),
    ("1 + 1d1000001", de.DiceLimitError, 4, "too many sides: 1000001 (at most 1000000)"),
    ("1 + 10001d6", de.DiceLimitError, 4, "too many dice: 10001 (at most 10000 in one roll)"),
])
def test_a_terms_refusals(expr, kind, column, message):
    if message is None:  # 3 dice among 2 faces that must be unique, but other faces are free: accepted
        assert de.roll(expr, seed=1).total >= 3
        return
    with pytest.raises(kind) as err:
        de.roll(expr)
    assert str(err.value).splitlines()[0] == message
    assert err.value.column == column


def test_dice_bounds_of_a_term():
    assert de.roll("10000d1").total == 10000
    assert de.roll("1d1000000", seed=1).total <= 1_000_000
    assert de.roll("6d6u", seed=2).total == 21
    assert de.roll("7d6uo", seed=2).total >= 7
    assert de.roll("7d6u=6", seed=2).total >= 7
    assert de.roll("1d6ro<7", seed=Scripted([1, 6])).total == 6
    assert de.roll("1d6!7", seed=Scripted([6])).total == 6  # no face explodes: a plain die
    assert de.distribution("1d6!7").marginal("total") == pytest.approx({v: 1 / 6 for v in range(1, 7)})


def test_d20_reads_k3_and_kh3_apart_whatever_was_prepared_first():
    # bug found here: the plan cache keyed k3 and kh3 as one meaning, so in d20's dialect 4d6k3 (the dice
    # showing 3) rolled as 4d6kh3 (the three highest) once 4d6kh3 had been prepared, and the other way round
    faces = [1, 6, 5, 2]
    for first, second in (("4d6kh3", "4d6k3"), ("4d6k2", "4d6kh2")):
        a = de.roll(first, seed=Scripted(faces), dialect="d20")
        b = de.roll(second, seed=Scripted(faces), dialect="d20")
        expected = {"4d6kh3": 13, "4d6k3": 0, "4d6k2": 2, "4d6kh2": 11}
        assert (a.total, b.total) == (expected[first], expected[second])
    assert de.distribution("4d6k3", dialect="d20").mean() == pytest.approx(4 * 3 / 6)
    top3 = [sum(sorted(c)[1:]) for c in itertools.product(range(1, 7), repeat=4)]
    assert de.distribution("4d6kh3", dialect="d20").mean() == pytest.approx(sum(top3) / 1296)
    # and the text of a group shows what was typed: kh, kh1 and k1 are one rule, three spellings
    for spelled in ("kh", "kh1", "k1", "KH1"):
        r = de.roll("{1d6, 1d6}" + spelled, seed=Scripted([2, 5]))
        assert str(r) == f"{{1d6, 1d6}}{spelled}: {{~[2] = 2~, [5] = 5}}{spelled.lower()} = 5"


# ---------------------------------------------------------------- a term's greatest score (the integer rule)

MAX_VALUE = 2**53 - 1


def _scaled(term: str, hi: int, extra: int) -> str:
    """``term`` times ``MAX_VALUE // hi`` (written with constants of at most 10^9), plus ``extra``."""
    k = MAX_VALUE // hi
    k1, k2, r = 10**9, k // 10**9, k % 10**9
    return f"({term})*{k1}*{k2} + ({term})*{r} + {extra}"


@pytest.mark.parametrize("term, hi", [
    ("1d6", 6), ("3d6", 18), ("1d6!", 201 * 6), ("2d6!", 2 * 201 * 6), ("4d6!kh2", 2 * 201 * 6),
    ("1d6ra6", 12), ("3d6!>=5>=5", 3 * 201), ("3d6!>=5", 3 * 201 * 6), ("3d6>=5", 3), ("3d6!!5>=5", 3), ("4d6kh3", 18), ("1d20!>=20", 201 * 20),
    ("2d6mi3", 12), ("2d6ma2", 4),
])
def test_a_terms_greatest_score_counts_explosions_to_their_limit(term, hi):
    # the greatest value of the expression is exactly MAX_VALUE: accepted; one more: refused, before any die
    k = MAX_VALUE // hi
    room = MAX_VALUE - hi * k
    de.roll(_scaled(term, hi, room), seed=1)
    with pytest.raises(de.DiceLimitError):
        de.roll(_scaled(term, hi, room + 1), seed=1)


@pytest.mark.parametrize("term, lo", [("3d6>=5f1", -3), ("3d6!>=5>=5f1", -3 * 201), ("-3d6", -18)])
def test_a_terms_least_score(term, lo):
    k = MAX_VALUE // -lo
    room = MAX_VALUE + lo * k
    de.roll(f"-({_scaled(term, -lo, 0)}) + {room}".replace("+ 0)", ")"), seed=1)  # -(lo * k) + room = MAX
    with pytest.raises(de.DiceLimitError):
        de.roll(f"-({_scaled(term, -lo, 0)}) + {room + 1}".replace("+ 0)", ")"), seed=1)


@pytest.mark.parametrize("expr, throws", [
    ("5000d5000u", "25,005,000"), ("141d141u", "20,022"), ("141d141uo", "20,022"), ("6667d3!<3", "20,001"),
])
def test_dice_one_roll_would_throw(expr, throws):
    # on average: a unique die among s faces after c others is thrown about c / (s - c + 1) more times; an
    # exploding die 1 / (1 - q) times
    with pytest.raises(de.DiceLimitError) as err:
        de.roll(expr)
    assert str(err.value).splitlines()[0] == (f"{expr} would throw about {throws} dice in one roll (at most "
                                              "20,000 with re-rolls and explosions)")
    assert err.value.column == 0


@pytest.mark.parametrize("expr", ["140d140u", "100d100uo", "6666d3!<3", "10000d2ra<3", "10000d6ro<6", "10000d2r<2",
                                  "2d10000u=1"])
def test_rolls_just_within_the_throws_bound(expr):
    r = de.roll(expr, seed=1)
    n = int(expr.split("d")[0])
    assert sum(1 for d in r.dice if not d.rerolled and not d.added) == n
