"""The standard evaluators' logic written once (session 38): the operators' one table of numpy functions, a
group's one scoring of its items, computed dice's one walk of their (count, sides) pairs, a marked node's odds
given its counts, a group's modifiers written by the modifier table. Each held to an enumeration written here,
and the roll and the sample held to the exact support."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de


def _odds(expression: str, **options: object) -> dict:
    return {row.total: p for row, p in de.distribution(expression, **options).items()}


def _enumerated(faces: list[range], value) -> dict:
    """The distribution of ``value(*throw)`` over every throw of the dice listed, equally likely."""
    counts = Counter(value(*throw) for throw in itertools.product(*faces))
    total = sum(counts.values())
    return {v: c / total for v, c in counts.items()}


def _same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for v, p in want.items():
        assert got[v] == pytest.approx(p, abs=1e-12), v


D4, D6, D8 = range(1, 5), range(1, 7), range(1, 9)


def _score(v: int) -> int:
    return 1 if v >= 4 else (-1 if v == 1 else 0)


@pytest.mark.parametrize("expression, faces, value", [
    # kept window, then scored: the two highest of 1d6, 1d4, 2
    ("{1d6, 1d4, 2}kh2>=4f1", [D6, D4], lambda a, b: sum(map(_score, sorted([a, b, 2])[1:]))),
    ("{1d6, 1d4, 2}kh2", [D6, D4], lambda a, b: sum(sorted([a, b, 2])[1:])),
    ("{1d6, 1d4}>=4f1", [D6, D4], lambda a, b: _score(a) + _score(b)),
    ("{1d6, 1d4, 1d8}dl1dh1", [D6, D4, D8], lambda a, b, c: sorted([a, b, c])[1]),
    ("{1d6, 1d4}", [D6, D4], lambda a, b: a + b),
])
def test_group_odds_against_enumeration(expression, faces, value):
    _same(_odds(expression), _enumerated(faces, value))


@pytest.mark.parametrize("expression, faces, value", [
    ("(1d4, 1d6, 1d8)k>3", [D4, D6, D8], lambda *t: sum(v for v in t if v > 3)),  # kept by value
    ("(1d4, 1d6, 1d8)k>3>=5", [D4, D6, D8], lambda *t: sum(v >= 5 for v in t if v > 3)),
    ("(1d4, 1d6, 1d8)kh1", [D4, D6, D8], lambda *t: max(t)),
])
def test_d20_group_odds_against_enumeration(expression, faces, value):
    _same(_odds(expression, dialect="d20"), _enumerated(faces, value))


@pytest.mark.parametrize("expression, value", [
    ("1d6 % 1d4", lambda a, b: a % b), ("1d6 // 1d4", lambda a, b: a // b), ("1d6 / 1d4", lambda a, b: a // b),
    ("1d6 + 0 >= 1d4 + 0", lambda a, b: int(a >= b)), ("1d6 + 0 != 1d4 + 0", lambda a, b: int(a != b)),
    ("1d6 * 1d4", lambda a, b: a * b), ("1d6 - 1d4", lambda a, b: a - b), ("1d6 ^ 1d4", lambda a, b: a ** b),
    ("max(1d6, 1d4)", max), ("min(1d6, 1d4)", min),
])
def test_operators_against_enumeration(expression, value):
    _same(_odds(expression), _enumerated([D6, D4], value))


def test_exact_division_gives_fractions_exactly():
    got = _odds("(1d6 + 0.5) / 1d4", division="exact")
    want = _enumerated([D6, D4], lambda a, b: (a + Fraction(1, 2)) / b)
    _same(got, {v.numerator if v.denominator == 1 else v: p for v, p in want.items()})
    assert all(type(v) in (int, Fraction) for v in got)


def test_computed_dice_against_enumeration():
    want: Counter = Counter()
    for count in D4:
        for throw in itertools.product(D6, repeat=count):
            want[sum(throw)] += Fraction(1, 4) / 6 ** count
    _same(_odds("(1d4)d6"), {v: float(p) for v, p in want.items()})


def test_marked_group_counts_against_enumeration():
    """The kept item's critical marks: the highest of two d6 (the later of equal ones), a six a success."""
    dist = de.distribution("{d6cs6, d6cs6}kh1")
    got: Counter = Counter()
    for row, p in dist.items():
        got[(row.total, row.critical_successes)] += p
    want = _enumerated([D6, D6], lambda a, b: (max(a, b), int(max(a, b) == 6)))
    _same(dict(got), want)


@pytest.mark.parametrize("expression, options", [
    ("{1d6, 1d4, 2}kh2>=4f1", {}), ("(1d4, 1d6, 1d8)k>3", {"dialect": "d20"}), ("1d6 % 1d4 + (1d3)d4", {}),
    ("(1d6 + 0.5) / 1d4 >= 1", {"division": "exact"}), ("{d6cs6, d6cs6}kh1 - 1d4 // 2", {}),
])
def test_rolls_and_samples_within_the_exact_support(expression, options):
    support = set(_odds(expression, **options))
    for seed in range(40):
        assert de.roll(expression, seed=seed, **options).total in support
    sampled = de.sample(expression, 2000, seed=3, **options)["total"]
    assert all(any(math.isclose(float(v), float(s), abs_tol=1e-9) for s in support) for v in set(sampled.tolist()))


@pytest.mark.parametrize("expression, text", [
    ("{1d6, 1d4, 2}kh2>=4f1sd", "kh2>=4f=1sd"), ("(1d4, 1d6)k>3", "k>3"), ("{1d6, 1d4}dl1", "dl1"),
    ("(1d6, 1d6)p1", "p1"),
])
def test_group_modifiers_written_as_typed(expression, text):
    """A group's modifiers are written by the modifier table, as a dice term's (f1 spelt f=1)."""
    line = str(de.roll(expression, seed=1, dialect="d20"))
    assert f"}}{text} = " in line or f"){text} = " in line, line
