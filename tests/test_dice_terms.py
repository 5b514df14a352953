"""One dice term of the standard notation: its scripted text, Markdown and JSON, rerolls (``r``, ``ro``,
``ra``), unique dice, listed faces, success counts, and the caps on rerolls, each against enumeration or
scripted dice."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine.limits import MAX_EXPLOSIONS, MAX_REROLLS
from tests.helpers import Scripted, assert_close, chi2_passes, enumerate_dice


def scripted(expr: str, faces: list[int], sides: int = 6, **options) -> de.Roll:
    return de.roll(expr, seed=Scripted(faces, sides), **options)


# each die: (value, kept, exploded, rerolled, added, critical)
K, X, R, A = "kept", "exploded", "rerolled", "added"


def die(value: int, *flags: str, critical: str | None = None) -> tuple:
    return (value, K in flags, X in flags, R in flags, A in flags, critical)


TEXTS = [
    # expression, faces thrown, sides, the text after "expr: ", the dice
    ("2d6!", [6, 5, 1], 6, "[6!+5, 1] = 12", [die(6, K, X), die(5, K, A), die(1, K)]),
    ("3d6!", [6, 3, 1, 2], 6, "[6!+3, 1, 2] = 12", [die(6, K, X), die(3, K, A), die(1, K), die(2, K)]),
    ("2d6!!", [6, 6, 2, 3], 6, "[6!+6!+2, 3] = 17", [die(6, K, X), die(6, K, X, A), die(2, K, A), die(3, K)]),
    ("2d6!p", [6, 6, 1, 4], 6, "[6!+5!+0, 4] = 15", [die(6, K, X), die(5, K, X, A), die(0, K, A), die(4, K)]),
    ("2d6!!p", [6, 6, 1, 4], 6, "[6!+5!+0, 4] = 15", [die(6, K, X), die(5, K, X, A), die(0, K, A), die(4, K)]),
    ("2d6!>=5", [5, 6, 1, 3], 6, "[5!+6!+1, 3] = 15", [die(5, K, X), die(6, K, X, A), die(1, K, A), die(3, K)]),
    ("2d6!5", [5, 6, 2], 6, "[5!+6, 2] = 13", [die(5, K, X), die(6, K, A), die(2, K)]),
    ("2d6e5", [5, 5, 1, 2], 6, "[5!+5!+1, 2] = 13", [die(5, K, X), die(5, K, X, A), die(1, K, A), die(2, K)]),
    ("3d6!kh2", [6, 2, 5, 4], 6, "[6!+2, 5, ~4~] = 13", [die(6, K, X), die(2, K, A), die(5, K), die(4)]),
    ("3d6!kl1", [6, 2, 5, 4], 6, "[~6!+2~, ~5~, 4] = 4", [die(6, X), die(2, A), die(5), die(4, K)]),
    ("3d6r1", [1, 1, 4, 2, 5], 6, "[~1~r ~1~r 4, 2, 5] = 11",
     [die(1, R), die(1, R), die(4, K), die(2, K), die(5, K)]),
    ("2d6rr1", [1, 3, 1, 1, 2], 6, "[~1~r 3, ~1~r ~1~r 2] = 5",
     [die(1, R), die(3, K), die(1, R), die(1, R), die(2, K)]),
    ("2d6r", [1, 3, 2], 6, "[~1~r 3, 2] = 5", [die(1, R), die(3, K), die(2, K)]),
    ("2d6ro<3", [2, 2, 1, 5], 6, "[~2~r 2, ~1~r 5] = 7", [die(2, R), die(2, K), die(1, R), die(5, K)]),
    ("2d6ro", [1, 1, 4], 6, "[~1~r 1, 4] = 5", [die(1, R), die(1, K), die(4, K)]),
    ("2d6r>4", [5, 6, 2, 4], 6, "[~5~r ~6~r 2, 4] = 6", [die(5, R), die(6, R), die(2, K), die(4, K)]),
    ("3d6r1kh2", [1, 6, 2, 3], 6, "[~1~r 6, ~2~, 3] = 9", [die(1, R), die(6, K), die(2), die(3, K)]),
    ("4d6u", [2, 4, 2, 3, 4, 1], 6, "[2, 4, ~2~r 3, ~4~r 1] = 10",
     [die(2, K), die(4, K), die(2, R), die(3, K), die(4, R), die(1, K)]),
    ("3d6uo", [2, 2, 2, 5], 6, "[2, ~2~r 2, 5] = 9", [die(2, K), die(2, R), die(2, K), die(5, K)]),
    ("3d6u=6", [6, 3, 3, 6, 1], 6, "[6, 3, 3] = 12", [die(6, K), die(3, K), die(3, K)]),
    ("3d6u=6", [6, 6, 1, 3], 6, "[6, ~6~r 1, 3] = 10", [die(6, K), die(6, R), die(1, K), die(3, K)]),
    ("3d6>=5f1", [5, 1, 3], 6, "[5*, 1_, 3] = 0", [die(5, K), die(1, K), die(3, K)]),
    ("3d6>4", [5, 4, 6], 6, "[5*, 4, 6*] = 2", [die(5, K), die(4, K), die(6, K)]),
    ("3d6<3", [1, 3, 2], 6, "[1*, 3, 2*] = 2", [die(1, K), die(3, K), die(2, K)]),
    ("3d6<=3", [1, 3, 4], 6, "[1*, 3*, 4] = 2", [die(1, K), die(3, K), die(4, K)]),
    ("3d6=3", [1, 3, 3], 6, "[1, 3*, 3*] = 2", [die(1, K), die(3, K), die(3, K)]),
    ("4d6>=1f<=1", [1, 2, 3, 4], 6, "[1*, 2*, 3*, 4*] = 4", [die(1, K), die(2, K), die(3, K), die(4, K)]),
    ("3d6>3f<3", [1, 2, 6], 6, "[1_, 2_, 6*] = -1", [die(1, K), die(2, K), die(6, K)]),
    ("3d6!>=5>=5", [5, 6, 2, 1, 6, 3], 6, "[5!+6!+2**, 1, 6!+3*] = 3",
     [die(5, K, X), die(6, K, X, A), die(2, K, A), die(1, K), die(6, K, X), die(3, K, A)]),
    ("2d6!!6>=8", [6, 3, 4], 6, "[6!+3*, 4] = 1", [die(6, K, X), die(3, K, A), die(4, K)]),
    ("2d6!>=5>=5f1", [6, 1, 1], 6, "[6!+1, 1_] = -1", [die(6, K, X), die(1, K, A), die(1, K)]),
    ("3d6kh2>=3", [1, 5, 3], 6, "[~1~, 5*, 3*] = 2", [die(1), die(5, K), die(3, K)]),
    ("4d6kh2>=3", [1, 5, 3, 6], 6, "[~1~, 5*, ~3~, 6*] = 2", [die(1), die(5, K), die(3), die(6, K)]),
    ("3d6r1>=4", [1, 4, 5, 2], 6, "[~1~r 4*, 5*, 2] = 2", [die(1, R), die(4, K), die(5, K), die(2, K)]),
    ("3d20cs>=19cf1", [20, 1, 15], 20, "[20(cs), 1(cf), 15] = 36",
     [die(20, K, critical="success"), die(1, K, critical="failure"), die(15, K)]),
    ("2d20cs", [20, 19], 20, "[20(cs), 19] = 39", [die(20, K, critical="success"), die(19, K)]),
    ("2d20cf", [1, 2], 20, "[1(cf), 2] = 3", [die(1, K, critical="failure"), die(2, K)]),
    ("2d20cf<=2", [1, 2], 20, "[1(cf), 2(cf)] = 3", [die(1, K, critical="failure"), die(2, K, critical="failure")]),
    ("3d20cs>=19>=10", [20, 5, 12], 20, "[20(cs)*, 5, 12*] = 2",
     [die(20, K, critical="success"), die(5, K), die(12, K)]),
    ("3d20kh2cs", [20, 5, 12], 20, "[20(cs), ~5~, 12] = 32", [die(20, K, critical="success"), die(5), die(12, K)]),
    ("3d20kl1cs", [20, 5, 12], 20, "[~20(cs)~, 5, ~12~] = 5", [die(20, critical="success"), die(5, K), die(12)]),
    ("2d20!cs", [20, 20, 3, 4], 20, "[20(cs)!+20(cs)!+3, 4] = 47",
     [die(20, K, X, critical="success"), die(20, K, X, A, critical="success"), die(3, K, A), die(4, K)]),
    ("4d6sd", [2, 4, 3, 4], 6, "[4, 4, 3, 2] = 13", [die(2, K), die(4, K), die(3, K), die(4, K)]),
    ("4d6s", [2, 4, 3, 1], 6, "[1, 2, 3, 4] = 10", [die(2, K), die(4, K), die(3, K), die(1, K)]),
    ("4d6sa", [2, 4, 3, 1], 6, "[1, 2, 3, 4] = 10", [die(2, K), die(4, K), die(3, K), die(1, K)]),
    ("3d6!sd", [2, 6, 1, 3], 6, "[6!+1, 3, 2] = 12", [die(2, K), die(6, K, X), die(1, K, A), die(3, K)]),
    ("3d6!s", [2, 6, 1, 3], 6, "[2, 3, 6!+1] = 12", [die(2, K), die(6, K, X), die(1, K, A), die(3, K)]),
    ("4d6sd>3", [2, 4, 3, 5], 6, "[5*, 4*, 3, 2] = 2", [die(2, K), die(4, K), die(3, K), die(5, K)]),
    ("4d6kh3sd", [2, 4, 3, 5], 6, "[5, 4, 3, ~2~] = 12", [die(2), die(4, K), die(3, K), die(5, K)]),
    ("4d6dl1dh1", [2, 4, 3, 4], 6, "[~2~, 4, 3, ~4~] = 7", [die(2), die(4, K), die(3, K), die(4)]),
    ("4d6dl1", [2, 4, 3, 4], 6, "[~2~, 4, 3, 4] = 11", [die(2), die(4, K), die(3, K), die(4, K)]),
    ("4d6dh1", [2, 4, 3, 5], 6, "[2, 4, 3, ~5~] = 9", [die(2, K), die(4, K), die(3, K), die(5)]),
    ("4d6kl2", [2, 4, 3, 5], 6, "[2, ~4~, 3, ~5~] = 5", [die(2, K), die(4), die(3, K), die(5)]),
    ("4d6kh4", [2, 4, 3, 5], 6, "[2, 4, 3, 5] = 14", [die(2, K), die(4, K), die(3, K), die(5, K)]),
    ("4d6kh0", [2, 4, 3, 5], 6, "[~2~, ~4~, ~3~, ~5~] = 0", [die(2), die(4), die(3), die(5)]),
    ("3d6kh2[fire]", [1, 5, 3], 6, "[~1~, 5, 3] (fire) = 8", [die(1), die(5, K), die(3, K)]),
    ("3d6[fire]", [1, 5, 3], 6, "[1, 5, 3] (fire) = 9", [die(1, K), die(5, K), die(3, K)]),
    ("1d6[fire]", [4], 6, "[4] (fire) = 4", [die(4, K)]),
    ("3d6>4[ice]", [1, 5, 3], 6, "[1, 5*, 3] (ice) = 1", [die(1, K), die(5, K), die(3, K)]),
    ("2d6![ice]", [6, 1, 3], 6, "[6!+1, 3] (ice) = 10", [die(6, K, X), die(1, K, A), die(3, K)]),
    ("1d6ra6", [6, 2], 6, "[6!+2] = 8", [die(6, K, X), die(2, K, A)]),
    ("1d6ra6", [6, 6], 6, "[6!+6] = 12", [die(6, K, X), die(6, K, A)]),
    ("2d6ra1", [3, 1, 1], 6, "[3, 1!+1] = 5", [die(3, K), die(1, K, X), die(1, K, A)]),
    ("2d6mi3", [1, 5], 6, "[3, 5] = 8", [die(3, K), die(5, K)]),
    ("2d6ma4", [1, 5], 6, "[1, 4] = 5", [die(1, K), die(4, K)]),
    ("2d6min3", [2, 6], 6, "[3, 6] = 9", [die(3, K), die(6, K)]),
    ("2d6max2", [2, 6], 6, "[2, 2] = 4", [die(2, K), die(2, K)]),
    ("1d1", [1], 1, "[1] = 1", [die(1, K)]),
    ("1dF", [1, ], 3, "[-1] = -1", [die(-1, K)]),
    ("3dF", [1, 2, 3], 3, "[-1, 0, 1] = 0", [die(-1, K), die(0, K), die(1, K)]),
    ("4dF.1", [1, 2, 5, 6], 6, "[-1, 0, 0, 1] = 0", [die(-1, K), die(0, K), die(0, K), die(1, K)]),
    ("1d%", [100], 100, "[100] = 100", [die(100, K)]),
    ("0d6", [], 6, "[] = 0", []),
]


@pytest.mark.parametrize("expr, faces, sides, text, dice", TEXTS, ids=[f"{t[0]}-{t[1]}" for t in TEXTS])
def test_a_scripted_roll_reads_as_the_notation_says(expr, faces, sides, text, dice):
    r = scripted(expr, faces, sides)
    assert str(r) == f"{expr}: {text}"
    assert r.render("plain") == str(r)  # the text from the parts walk is the same line
    assert [(d.value, d.kept, d.exploded, d.rerolled, d.added, d.critical) for d in r.dice] == dice
    label = expr[expr.index("[") + 1:expr.index("]")] if "[" in expr else None
    assert all(d.label == label for d in r.dice)
    assert all(d.kind == ("dF.1" if "F.1" in expr else "dF" if "F" in expr else f"d{sides}") for d in r.dice)
    assert all(d.sides == sides for d in r.dice)


def test_markdown_marks_each_kind_of_die():
    r = scripted("3d6r1!kh2>=4", [1, 6, 2, 3, 5], 6)
    # a re-rolled 1, then 6 explodes (+2): unit 8, with 3 and 5; keep the two highest units (8 and 5)
    assert str(r) == "3d6r1!kh2>=4: [~1~r 6!+2*, ~3~, 5*] = 2"
    assert r.render("markdown") == "`3d6r1!kh2>=4`: [~~1~~r ***6***!+**2**\\*, ~~3~~, **5**\\*] = **2**"


def test_sorted_text_of_a_term_with_rerolls():
    r = scripted("3d6r1sd", [1, 2, 5, 4], 6)
    assert str(r) == "3d6r1sd: [5, 4, ~1~r 2] = 11"
    r = scripted("3d6r1s", [1, 2, 5, 4], 6)
    assert str(r) == "3d6r1s: [~1~r 2, 4, 5] = 11"


def test_a_critical_on_a_dropped_or_failed_die_is_still_marked():
    r = scripted("3d20kh1cf>=10", [1, 20, 5], 20)
    assert str(r) == "3d20kh1cf>=10: [~1~, 20(cf), ~5~] = 20"
    r = scripted("3d20kh1cs<=5", [1, 20, 5], 20)
    assert str(r) == "3d20kh1cs<=5: [~1(cs)~, 20, ~5(cs)~] = 20"
    assert r.render("markdown").count("(cs)") == 2


# ---------------------------------------------------------------- exact odds against enumeration

D6_FACES = range(1, 7)


def exact(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal("total")


def convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] = out.get(x + y, 0) + p * q
    return out


def test_reroll_and_add_once():
    # ra6: a 6 throws one more die, added, which never explodes further
    expected = {v: Fraction(1, 6) for v in range(1, 6)}
    for f in D6_FACES:
        expected[6 + f] = expected.get(6 + f, 0) + Fraction(1, 36)
    assert_close(exact("1d6ra6"), expected)
    assert_close(exact("2d6ra6"), convolve(expected, expected))
    assert chi2_passes(de.sample("1d6ra6", 20_000, seed=3)["total"], expected)
    low = {v: Fraction(1, 6) for v in range(2, 7)}
    for f in D6_FACES:
        low[1 + f] = low.get(1 + f, 0) + Fraction(1, 36)
    assert_close(exact("1d6ra1"), low)
    assert_close(exact("1d6ra<3"), {v: Fraction(1, 6) * (3 <= v <= 6)
                                    + sum(Fraction(1, 36) for a in (1, 2) for b in D6_FACES if a + b == v)
                                    for v in range(2, 9)})


def test_ra_with_keep_and_success():
    one = {(v,): Fraction(1, 6) for v in range(1, 6)}
    for f in D6_FACES:
        one[(6, f)] = Fraction(1, 36)
    # 2d6ra6kh1: the unit with the higher sum
    expected: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(one.items(), one.items()):
        v = max(sum(a), sum(b))
        expected[v] = expected.get(v, 0) + p * q
    assert_close(exact("2d6ra6kh1"), expected)
    # 2d6ra6>=5: every face of a unit counts
    succ: dict[int, Fraction] = {}
    for (a, p), (b, q) in itertools.product(one.items(), one.items()):
        v = sum(f >= 5 for f in a + b)
        succ[v] = succ.get(v, 0) + p * q
    assert_close(exact("2d6ra6>=5"), succ)
    assert chi2_passes(de.sample("2d6ra6>=5", 20_000, seed=4)["total"], succ)


@pytest.mark.parametrize("expr, faces", [
    ("1d6mi3", [3, 3, 3, 4, 5, 6]), ("1d6ma2", [1, 2, 2, 2, 2, 2]), ("1d6min2max5", [2, 2, 3, 4, 5, 5]),
    ("1dF.1", [-1, 0, 0, 0, 0, 1]), ("1dF", [-1, 0, 1]), ("1d6mi-1", [1, 2, 3, 4, 5, 6]),
])
def test_listed_faces(expr, faces):
    one = {}
    for f in faces:
        one[f] = one.get(f, 0) + Fraction(1, len(faces))
    assert_close(exact(expr), one)
    three = convolve(convolve(one, one), one)
    assert_close(exact("3" + expr[1:]), three)
    assert chi2_passes(de.sample("3" + expr[1:], 20_000, seed=8)["total"], three)


@pytest.mark.parametrize("expr, faces, value", [
    ("3d6mi3kh2", [3, 3, 3, 4, 5, 6], lambda v: sum(sorted(v)[1:])),
    ("3d6ma4>=4", [1, 2, 3, 4, 4, 4], lambda v: sum(f >= 4 for f in v)),
    ("3d6mi2r2", [3, 4, 5, 6], sum),  # a clamped face is re-rolled as any face
    ("3dF.1kl2", [-1, 0, 0, 0, 0, 1], lambda v: sum(sorted(v)[:2])),
    ("3dF.1>=1f-1", [-1, 0, 0, 0, 0, 1], lambda v: sum((f >= 1) - (f == -1) for f in v)),
    ("3d6mi2ro2", None, None),
])
def test_listed_faces_with_other_modifiers(expr, faces, value):
    if faces is None:
        # ro2 on a die whose 1 and 2 both show 2: a 2 (2 faces in 6) is thrown again once
        one = {2: Fraction(2, 6) * Fraction(2, 6)}
        for f in (3, 4, 5, 6):
            one[f] = Fraction(1, 6) + Fraction(2, 6) * Fraction(1, 6)
        expected = convolve(convolve(one, one), one)
    else:
        expected = enumerate_dice([faces] * 3, value)
    assert_close(exact(expr), expected)
    assert chi2_passes(de.sample(expr, 20_000, seed=9)["total"], expected)


@pytest.mark.parametrize("expr, must", [("3d6u", set(D6_FACES)), ("3d6u=6", {6}), ("3d6u>4", {5, 6}), ("2d3u", {1, 2, 3})])
def test_unique_dice(expr, must):
    n, sides = int(expr[0]), int(expr[2])
    # each die is thrown until its face (among those that must be unique) differs from the earlier ones
    states = {(): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple, Fraction] = {}
        for seen, p in states.items():
            banned = {f for f in seen if f in must}
            allowed = [f for f in range(1, sides + 1) if f not in banned]
            for f in allowed:
                key = seen + (f,)
                nxt[key] = nxt.get(key, 0) + p / len(allowed)
        states = nxt
    expected: dict[int, Fraction] = {}
    for faces, p in states.items():
        expected[sum(faces)] = expected.get(sum(faces), 0) + p
    assert_close(exact(expr), expected)
    assert chi2_passes(de.sample(expr, 20_000, seed=10)["total"], expected)
    rng = random.Random(3)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(3000)], expected)
    kept: dict[int, Fraction] = {}
    for faces, p in states.items():
        v = max(faces)
        kept[v] = kept.get(v, 0) + p
    assert_close(exact(expr + "kh1"), kept)
    if expr[4:]:  # a success count after a compare point (after a bare u, >=3 would be u's point)
        succ: dict[int, Fraction] = {}
        for faces, p in states.items():
            v = sum(f >= 3 for f in faces)
            succ[v] = succ.get(v, 0) + p
        assert_close(exact(expr + ">=3"), succ)


def test_unique_once():
    # 3d6uo: a face already shown is thrown again once, whatever comes
    states = {(): Fraction(1)}
    for _ in range(3):
        nxt: dict[tuple, Fraction] = {}
        for seen, p in states.items():
            for f in D6_FACES:
                if f in seen:
                    for g in D6_FACES:
                        nxt[seen + (g,)] = nxt.get(seen + (g,), 0) + p / 36
                else:
                    nxt[seen + (f,)] = nxt.get(seen + (f,), 0) + p / 6
        states = nxt
    expected: dict[int, Fraction] = {}
    for faces, p in states.items():
        expected[sum(faces)] = expected.get(sum(faces), 0) + p
    assert_close(exact("3d6uo"), expected)
    assert chi2_passes(de.sample("3d6uo", 20_000, seed=11)["total"], expected)
    rng = random.Random(4)
    assert chi2_passes([de.roll("3d6uo", seed=rng).total for _ in range(3000)], expected)


@pytest.mark.parametrize("expr, hit, once", [("1d6r1", {1}, False), ("1d6r<3", {1, 2}, False),
                                             ("1d6r>=5", {5, 6}, False), ("1d6r=2", {2}, False),
                                             ("1d6r>4", {5, 6}, False), ("1d6r<=2", {1, 2}, False),
                                             ("1d6ro>=5", {5, 6}, True), ("1d6ro1", {1}, True),
                                             ("1d6ro<=3", {1, 2, 3}, True), ("1d6r", {1}, False),
                                             ("1d6ro", {1}, True)])
def test_rerolls(expr, hit, once):
    if once:
        one = {f: Fraction(1, 6) * (f not in hit) + Fraction(len(hit), 36) for f in D6_FACES}
    else:
        one = {f: Fraction(1, 6 - len(hit)) for f in D6_FACES if f not in hit}
    assert_close(exact(expr), one)
    three = convolve(convolve(one, one), one)
    assert_close(exact("3" + expr[1:]), three)
    assert chi2_passes(de.sample("3" + expr[1:], 20_000, seed=12)["total"], three)
    rng = random.Random(6)
    assert chi2_passes([de.roll("3" + expr[1:], seed=rng).total for _ in range(3000)], three)
    if expr.endswith(("r", "ro")):
        return  # after a bare r / ro, >=4 would be the re-roll's point
    succ = {}
    for combo in itertools.product(one.items(), repeat=3):
        v = sum(f >= 4 for f, _ in combo)
        succ[v] = succ.get(v, 0) + combo[0][1] * combo[1][1] * combo[2][1]
    assert_close(exact("3" + expr[1:] + ">=4"), succ)


@pytest.mark.parametrize("expr, value", [
    ("3d6>=4", lambda v: sum(f >= 4 for f in v)), ("3d6>4", lambda v: sum(f > 4 for f in v)),
    ("3d6<=2", lambda v: sum(f <= 2 for f in v)), ("3d6<2", lambda v: sum(f < 2 for f in v)),
    ("3d6=6", lambda v: sum(f == 6 for f in v)), ("3d6>=5f<=2", lambda v: sum((f >= 5) - (f <= 2) for f in v)),
    ("3d6>=2f<3", lambda v: sum(1 if f >= 2 else -(f < 3) for f in v)),
    ("3d6>5f=1", lambda v: sum((f > 5) - (f == 1) for f in v)),
    ("3d6>=4f>5", lambda v: sum(1 if f >= 4 else 0 for f in v)),
    ("3d6<3f>=5", lambda v: sum((f < 3) - (f >= 5) for f in v)),
])
def test_success_counts(expr, value):
    expected = enumerate_dice([D6_FACES] * 3, value)
    assert_close(exact(expr), expected)
    assert chi2_passes(de.sample(expr, 20_000, seed=13)["total"], expected)
    rng = random.Random(7)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(3000)], expected)


def test_re_rolls_past_their_cap_draw_among_the_faces_left():
    # 10,000 dice: one re-roll recorded per die (MAX_THROWS), then a die still showing 3 is drawn among
    # 1, 2, 4, 5, 6 directly (two ranges of faces): the same distribution as re-rolling until it misses
    plan = api.plan("10000d6r3")
    assert plan.root.term.spec.reroll_cap == 1
    totals = de.sample("10000d6r3", 400, seed=5)["total"]
    mean, sd = 10_000 * 18 / 5, (10_000 * (sum(f * f for f in (1, 2, 4, 5, 6)) / 5 - 3.6 ** 2)) ** 0.5
    assert abs(totals.mean() - mean) < 4 * sd / 400 ** 0.5
    assert totals.std() == pytest.approx(sd, rel=0.2)


class Rigged(np.random.Generator):
    """A numpy generator whose ``integers`` always answers the lowest (or highest) value asked for and records
    each call: a die that keeps clashing, or keeps exploding. Runaway loops stop with an error, not a hang."""

    def __init__(self, high: bool = False) -> None:
        super().__init__(np.random.PCG64(0))
        self.high = high
        self.calls: list[tuple] = []

    def integers(self, low, high=None, size=None, **kwargs):  # type: ignore[override]
        self.calls.append((low, high, size))
        if len(self.calls) > 5 * MAX_EXPLOSIONS:
            raise RuntimeError("runaway loop: the generator was asked too many times")
        value = high - 1 if self.high else low
        return value if size is None else np.full(size, value, dtype=np.int64)


def test_unique_die_clashing_every_time_is_drawn_among_free_faces_after_max_rerolls() -> None:
    """``2d6u`` with a generator always showing 1: the second die shows 1 MAX_REROLLS times (its first face and
    MAX_REROLLS - 1 throws again, all re-rolled: MAX_REROLLS recorded, as a roll records them), then is drawn among
    the faces the first die does not show (2..6; the rigged draw picks the first: 2)."""
    gen = Rigged()
    total = de.sample("2d6u", 1, seed=gen)["total"]
    assert total.tolist() == [1 + 2]
    # one draw of both dice, MAX_REROLLS - 1 throws of the clashing die, one draw among the free faces
    assert len(gen.calls) == 1 + (MAX_REROLLS - 1) + 1
    assert gen.calls[-1][:2] == (0, 5)  # 5 free faces
    # a roll throws the same: the two first faces, MAX_REROLLS - 1 more ones, then the first free face
    roll = de.roll("2d6u", seed=Scripted([1] * (1 + MAX_REROLLS) + [1], sides=6))
    assert [d.value for d in roll.dice if d.rerolled] == [1] * MAX_REROLLS
    assert roll.total == 1 + 2


def test_unique_point_die_falls_back_to_faces_not_forbidden() -> None:
    """``3d6u=1``: only 1s must be unique. All throws show 1: the second and the third die each fall back
    (after MAX_REROLLS faces re-rolled) to the faces other than a 1 already shown, 2..6: the first, 2. Total 1 + 2 + 2."""
    gen = Rigged()
    assert de.sample("3d6u=1", 1, seed=gen)["total"].tolist() == [5]
    assert len(gen.calls) == 1 + 2 * MAX_REROLLS


def test_explosions_ranked_per_die_stop_at_max_explosions() -> None:
    """``explosions="dice"``: a die showing 6 every throw explodes MAX_EXPLOSIONS times (README: at most 200
    explosions from one die), so 1 + MAX_EXPLOSIONS sixes, one dropped by ``dl1``."""
    gen = Rigged(high=True)
    total = de.sample("1d6!dl1", 1, seed=gen, explosions="dice")["total"]
    assert total.tolist() == [6 * MAX_EXPLOSIONS]
    assert len(gen.calls) == 1 + MAX_EXPLOSIONS


def _die(value: int, kept: bool = True, exploded: bool = False, added: bool = False,
         critical: str | None = None) -> dict:
    return {"kind": "d6", "sides": 6, "value": value, "kept": kept, "exploded": exploded, "rerolled": False,
            "added": added, "wild": False, "face": None, "label": None, "critical": critical}


def test_json_of_kept_and_dropped_dice() -> None:
    """``3d6kh2`` throwing 6, 2, 3: the 2 is dropped; every die a d6, no critical mark (null)."""
    roll = de.roll("3d6kh2", seed=Scripted([6, 2, 3]))
    assert json.loads(roll.model_dump_json())["dice"] == [_die(6), _die(2, kept=False), _die(3)]


def test_json_of_an_exploding_unit() -> None:
    """``2d6!`` throwing 6, 2, 3: the 6 explodes and adds the 2; the 3 stands alone."""
    roll = de.roll("2d6!", seed=Scripted([6, 2, 3]))
    assert json.loads(roll.model_dump_json())["dice"] == [_die(6, exploded=True), _die(2, added=True), _die(3)]


def test_dice_dropped_when_ranked_one_by_one_keep_their_explosion() -> None:
    """``3d6!dh1`` with ``explosions="dice"`` throwing 6 (explodes: +2), 3, 4: every die ranked on its own, the
    6 is dropped and still shown exploded: ``[~6!~+2, 3, 4] = 9``."""
    roll = de.roll("3d6!dh1", seed=Scripted([6, 2, 3, 4]), explosions="dice")
    first = roll.dice[0]
    assert (first.value, first.kept, first.exploded) == (6, False, True)
    assert (roll.dice[1].value, roll.dice[1].kept, roll.dice[1].added) == (2, True, True)
    assert str(roll) == "3d6!dh1: [~6!~+2, 3, 4] = 9"
    assert json.loads(roll.model_dump_json())["dice"][0] == _die(6, kept=False, exploded=True)


def test_markdown_marks_a_critical_success_bold_italic() -> None:
    """``1d20cs>=19`` throwing 19: a critical success (not the natural maximum) is written ``***19***``."""
    roll = de.roll("1d20cs>=19", seed=Scripted([19], 20))
    assert "***19***" in roll.render("markdown")
    assert 'class="die die-d20 kept critical"' in roll.render("html")


def test_html_marks_successes_of_dice_ranked_one_by_one() -> None:
    """``3d6!kh2>=4`` with ``explosions="dice"`` throwing 6 (explodes: +2), 3, 5: the two highest dice, 6 and 5,
    are kept and each a success (total 2); the 2 and the 3 are dropped."""
    roll = de.roll("3d6!kh2>=4", seed=Scripted([6, 2, 3, 5]), explosions="dice")
    assert roll.outcome.total == 2
    html = roll.render("html")
    assert html.count(" success\">") == 2
    assert ">6!*</span>" in html and ">5*</span>" in html
    assert "\\*" in roll.render("markdown")


def test_exact_odds_of_unique_dice_follow_up_to_max_states() -> None:
    """The exact odds of unique dice follow at most MAX_UNIQUE_STATES (200,000) states: one die of 200,000
    faces is exactly at the bound (one state per face) and still computed, uniform; one more face is refused.
    Through the plan (``api.plan(...).distribution()``): ``de.distribution`` refuses both earlier, on its
    work budget, so the bound of the term itself only shows there."""
    dist = api.plan("1d200000u").distribution()
    probs = np.asarray(dist.probabilities)
    assert len(probs) == 200_000
    assert np.allclose(probs, 1 / 200_000)
    with pytest.raises(de.DiceLimitError) as err:
        api.plan("1d200001u").distribution()
    assert "too many dice for exact odds of unique dice" in str(err.value)


def exact_std(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


def check_three_ways(expr: str, expected: dict, n: int = 20_000, seed: int = 16, tol: float = 1e-12) -> None:
    """Exact odds equal ``expected``; a seeded sample and seeded rolls follow it (chi-square)."""
    assert_close(exact_std(expr), expected, tol)
    assert chi2_passes(de.sample(expr, n, seed=seed)["total"], expected)
    rng = random.Random(seed)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(4000)], expected)


# ---------------------------------------------------------------- re-roll once on several faces


def test_reroll_once_on_several_faces():
    # ro<3: a first 1 or 2 is thrown again once, and the second face stays whatever it is
    expected = {v: Fraction(1, 6) * (v >= 3) + Fraction(2, 6) * Fraction(1, 6) for v in D6_FACES}
    assert sum(expected.values()) == 1
    check_three_ways("1d6ro<3", expected)
    assert exact_std("1d6ro<3")[1] == pytest.approx(1 / 18, abs=1e-15)


def test_reroll_until_on_several_faces():
    expected = {v: Fraction(1, 4) for v in range(3, 7)}
    check_three_ways("1d6r<3", expected)


def test_plain_rolls_follow_the_faces():
    r = de.roll("4d6kh3", seed=Scripted([1, 6, 5, 2]))
    assert r.total == 13 and [d.kept for d in r.dice] == [False, True, True, True]
    r = de.roll("4d6kl1", seed=Scripted([3, 6, 2, 2]))
    assert r.total == 2 and sum(d.kept for d in r.dice) == 1 and [d.value for d in r.dice if d.kept] == [2]
    r = de.roll("4d6dh1", seed=Scripted([3, 6, 2, 2]))
    assert r.total == 7 and [d.kept for d in r.dice] == [True, False, True, True]
    r = de.roll("8d10>=7f1", seed=Scripted([10, 10, 1, 1, 9, 8, 7, 4], 10))
    assert r.total == 5 - 2
