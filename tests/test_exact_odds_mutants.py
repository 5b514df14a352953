"""The standard term's exact odds on the paths their mutation run (``python -m tests.mutation
systems/standard/term/exact.py``) found unchecked, each against an enumeration written here: criticals marked on
exploding dice with a critical failure alone, and dice re-rolled once when they repeat a face (``uo``)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de


def exploding_chain(sides: int, depth: int) -> dict[int, Fraction]:
    """One die that explodes on its highest face: ``k`` highest faces then a lower face ``f`` total
    ``k * sides + f``, with chance ``(1 / sides) ** (k + 1)`` (chains longer than ``depth`` left out)."""
    out: dict[int, Fraction] = {}
    for k in range(depth + 1):
        for f in range(1, sides):
            out[k * sides + f] = Fraction(1, sides) ** (k + 1)
    return out


def sum_of(dice: list[dict[int, Fraction]]) -> Counter:
    total: Counter = Counter()
    for values in itertools.product(*(d.items() for d in dice)):
        p = Fraction(1)
        for _, q in values:
            p *= q
        total[sum(v for v, _ in values)] += p
    return total


@pytest.mark.parametrize("expression, sides, count", [("2d4!cf1", 4, 2), ("3d6!cf1", 6, 3), ("1d4!cf<2", 4, 1)])
def test_a_critical_failure_alone_on_exploding_dice_leaves_their_totals(expression, sides, count):
    """A critical failure marks dice and changes no total: the totals are those of the exploding dice."""
    want = sum_of([exploding_chain(sides, 8)] * count)
    got = de.distribution(expression).marginal("total")
    for total in range(count, 3 * sides):  # totals whose every chain is within the depth enumerated
        assert got.get(total, 0.0) == pytest.approx(float(want[total]), abs=1e-12), total


def unique_once(sides: int, count: int) -> Counter:
    """``count`` dice thrown one after the other, each thrown once more when it shows a face an earlier die shows
    (the second throw kept whatever it shows): the chance of each total."""
    out: Counter = Counter()

    def walk(seen: tuple[int, ...], p: Fraction) -> None:
        if len(seen) == count:
            out[sum(seen)] += p
            return
        for f in range(1, sides + 1):
            if f not in seen:
                walk(seen + (f,), p / sides)
            else:
                for g in range(1, sides + 1):
                    walk(seen + (g,), p / sides / sides)

    walk((), Fraction(1))
    return out


@pytest.mark.parametrize("sides, count", [(4, 3), (6, 2), (3, 3)])
def test_dice_rerolled_once_when_they_repeat_a_face_against_every_throw(sides, count):
    want = unique_once(sides, count)
    got = de.distribution(f"{count}d{sides}uo").marginal("total")
    assert set(got) == set(want)
    for total, p in want.items():
        assert got[total] == pytest.approx(float(p), abs=1e-12), total


@pytest.mark.parametrize("expression, total", [("0d6+3", 3), ("0d6", 0), ("0d10!+1", 1)])
def test_no_dice_sum_to_nothing(expression, total):
    """An empty sum is 0: zero dice add nothing to the constant beside them."""
    assert de.distribution(expression).marginal("total") == {total: 1.0}


@pytest.mark.parametrize("expression", ["4d6cs6dl1dh1", "5d4cs4cf1dl1dh2"])
def test_criticals_marked_on_a_window_of_middle_dice_leave_its_sum(expression):
    """Criticals marked (``cs`` / ``cf``) change no total: the middle dice's sum, over every throw."""
    n, sides = int(expression[0]), int(expression[2])
    low, high = 1, int(expression[-1])
    want: Counter = Counter()
    for throw in itertools.product(range(1, sides + 1), repeat=n):
        want[sum(sorted(throw)[low:n - high])] += Fraction(1, sides**n)
    got = de.distribution(expression).marginal("total")
    assert set(got) == set(want)
    for total, p in want.items():
        assert got[total] == pytest.approx(float(p), abs=1e-12), total
