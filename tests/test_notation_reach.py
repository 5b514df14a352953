"""The notation's new reach: dice with listed faces (``d{1,2,4,8}``), numbers computed in modifiers
(``4d6kh(1+2)``), and questions comparing two rolls (``P(4d6kh3 > 3d6)``), exact, sampled and rolled, each
against a brute-force enumeration written here."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diceengine as de


def enumerate_dice(dice: Sequence[Sequence[int]], reading: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    size = 1
    for d in dice:
        size *= len(d)
    for roll in itertools.product(*dice):
        out[reading(roll)] += Fraction(1, size)
    return dict(out)


def exact(expr: str) -> dict[int, float]:
    return {o.total: p for o, p in de.distribution(expr).items()}


def assert_close(got: dict[int, float], expected: dict[int, Fraction], tol: float = 1e-9) -> None:
    for k in set(got) | set(expected):
        assert abs(got.get(k, 0.0) - float(expected.get(k, 0))) <= tol, (k, got.get(k), expected.get(k))


def assert_sampled(expr: str, expected: dict[int, Fraction], n: int = 60_000) -> None:
    totals = de.sample(expr, n, seed=11)["total"]
    for k, p in expected.items():
        q = float(p)
        seen = float(np.count_nonzero(totals == k)) / n
        assert abs(seen - q) <= 5 * (q * (1 - q) / n) ** 0.5 + 1e-9, (expr, k, seen, q)
    assert set(np.unique(totals).tolist()) <= set(expected)


D6 = list(range(1, 7))


@pytest.mark.parametrize("expr, dice, reading", [
    ("d{1,2,4,8}", [[1, 2, 4, 8]], sum),
    ("3d{-1,0,1}", [[-1, 0, 1]] * 3, sum),
    ("2d{1,1,3}+1", [[1, 1, 3]] * 2, lambda r: sum(r) + 1),           # a face listed twice is twice as likely
    ("3d{0,5,5,10}kh2", [[0, 5, 5, 10]] * 3, lambda r: sum(sorted(r)[1:])),
    ("4d{-2,1,3}>=1", [[-2, 1, 3]] * 4, lambda r: sum(v >= 1 for v in r)),
])
def test_listed_faces_match_enumeration(expr: str, dice: list[list[int]], reading: Callable) -> None:
    expected = enumerate_dice(dice, reading)
    assert_close(exact(expr), expected)
    assert_sampled(expr, expected)
    for seed in range(20):
        assert de.roll(expr, seed=seed).total in expected


def test_listed_faces_explode_on_their_highest_face() -> None:
    # d{1,2,4}!: a 4 explodes; the chain enumerated to a depth where what is left weighs < 1e-12
    expected: dict[int, Fraction] = defaultdict(Fraction)

    def follow(total: int, mass: Fraction, depth: int) -> None:
        for f in (1, 2, 4):
            if f == 4 and depth < 30:
                follow(total + f, mass / 3, depth + 1)
            else:
                expected[total + f] += mass / 3

    follow(0, Fraction(1), 0)
    assert_close(exact("d{1,2,4}!"), {k: v for k, v in expected.items()}, tol=1e-12)


@pytest.mark.parametrize("computed, literal", [
    ("4d6kh(1+2)", "4d6kh3"),
    ("5d10cs<=(3+2)", "5d10cs<=5"),
    ("5d10>=(10-3)", "5d10>=7"),
    ("6d6dl(2*2//2)", "6d6dl2"),
    ("3d6!>=(4+1)", "3d6!>=5"),
    ("4d6r(-1+2)", "4d6r1"),
    ("4d6k(2)", "4d6k2"),
])
def test_a_computed_number_reads_as_its_value(computed: str, literal: str) -> None:
    assert exact(computed) == exact(literal)
    assert de.roll(computed, seed=3).total == de.roll(literal, seed=3).total


@pytest.mark.parametrize("bad, column", [("4d6kh(1d3)", 6), ("4d6kh(3-5)", 6), ("4d6kh(10**10)", 6)])
def test_a_computed_number_is_whole_and_without_dice(bad: str, column: int) -> None:
    with pytest.raises(de.DiceError) as err:
        de.roll(bad)
    assert err.value.column == column


def test_the_question_compares_totals_exactly() -> None:
    # P(4d6kh3 > 3d6): every roll of the seven dice
    expected = enumerate_dice([D6] * 7, lambda r: int(sum(sorted(r[:4])[1:]) > sum(r[4:])))
    got = exact("P(4d6kh3 > 3d6)")
    assert_close(got, expected, tol=1e-12)
    assert_sampled("P(4d6kh3 > 3d6)", expected)
    r = de.roll("P(4d6kh3 > 3d6)", seed=2)
    assert r.total in (0, 1)


@pytest.mark.parametrize("expr, dice, reading", [
    ("P(1d20+5 >= 15)", [list(range(1, 21))], lambda r: int(r[0] + 5 >= 15)),
    ("P(2d6 = 7)", [D6] * 2, lambda r: int(sum(r) == 7)),
    ("P((1d6!) < 2d4)", None, None),  # a side ending in ! is parenthesised (! < 2 would be its point)
    ("p(3d6 <= 2d6+3)", [D6] * 5, lambda r: int(sum(r[:3]) <= sum(r[3:]) + 3)),
    ("P((3d6>=5) > 1)", [D6] * 3, lambda r: int(sum(v >= 5 for v in r) > 1)),
    ("P(1d{1,4,4} <> 1d4)", [[1, 4, 4], [1, 2, 3, 4]], lambda r: int(r[0] != r[1])),
])
def test_questions_match_enumeration(expr: str, dice: list[list[int]] | None, reading: Callable | None) -> None:
    if dice is None:
        # an exploding d6 against 2d4: the explosion followed 12 deep (what is left weighs 6**-12)
        chain: dict[int, Fraction] = defaultdict(Fraction)
        for depth in range(12):
            for last in range(1, 6):
                chain[6 * depth + last] += Fraction(1, 6 ** (depth + 1))
        two_d4 = enumerate_dice([[1, 2, 3, 4]] * 2, sum)
        p = sum(pa * pb for a, pa in chain.items() for b, pb in two_d4.items() if a < b)
        expected = {1: p, 0: 1 - p}
    else:
        assert reading is not None
        expected = enumerate_dice(dice, reading)
    assert_close(exact(expr), expected)


def test_outside_a_question_a_comparator_after_dice_still_counts_successes() -> None:
    # the peers' reading (Roll20, rpg-dice-roller) stays: 3d6 >= 5 counts the dice showing 5 or more
    assert exact("3d6 >= 5") == exact("3d6>=5")
    assert_close(exact("3d6 >= 5"), enumerate_dice([D6] * 3, lambda r: sum(v >= 5 for v in r)))


faces = st.lists(st.integers(-4, 9), min_size=1, max_size=5)


@given(faces, faces, st.integers(1, 3), st.integers(1, 2), st.sampled_from([">", ">=", "<", "<=", "=", "<>"]))
@settings(max_examples=40, deadline=None)
def test_generated_questions_of_listed_dice(a: list[int], b: list[int], n: int, m: int, op: str) -> None:
    ops = {">": int.__gt__, ">=": int.__ge__, "<": int.__lt__, "<=": int.__le__, "=": int.__eq__, "<>": int.__ne__}
    expr = f"P({n}d{{{','.join(map(str, a))}}} {op} {m}d{{{','.join(map(str, b))}}})"
    expected = enumerate_dice([a] * n + [b] * m, lambda r: int(ops[op](sum(r[:n]), sum(r[n:]))))
    assert_close(exact(expr), expected)
