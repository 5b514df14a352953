"""Unique dice with more dice than faces (rpg-dice-roller's ``12dFu``): once every face is shown, a die keeps the
face it shows (rpg-dice-roller re-rolls it 1000 times and keeps the last: the same, uniform face). Exact odds
against an enumeration of the rule written here, rolls, a chi-square of samples against the odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes

FUDGE = (-1, 0, 1)
FUDGE_1 = (-1, 0, 0, 0, 0, 1)


def by_total(expr: str) -> dict:
    return de.distribution(expr).marginal()


def unique_rule(sides: tuple[int, ...], count: int, must=lambda f: True) -> dict:
    """rpg-dice-roller's UniqueModifier, die by die: a die whose face an earlier die shows (and meeting the
    point) is thrown again until it differs, which lands uniformly on the free sides; with no free side, it
    keeps its face (uniform on all the sides)."""
    states = {(): Fraction(1)}
    for _ in range(count):
        nxt: dict = {}
        for seen, p in states.items():
            taken = [i for i, f in enumerate(sides) if f in seen and must(f)]
            free = [i for i in range(len(sides)) if i not in taken]
            for i in range(len(sides)):
                if i in taken and free:
                    continue  # thrown again: placed below, on the free sides
                q = Fraction(1, len(sides))
                nxt[seen + (sides[i],)] = nxt.get(seen + (sides[i],), Fraction(0)) + p * q
            if taken and free:
                for i in free:
                    q = Fraction(len(taken), len(sides)) / len(free)
                    nxt[seen + (sides[i],)] = nxt.get(seen + (sides[i],), Fraction(0)) + p * q
        states = nxt
    out: dict = {}
    for faces, p in states.items():
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + p
    return out


def test_twelve_fudge_dice_unique_as_rpg_dice_roller_reads_them():
    # the first three dice show -1, 0 and +1 (sum 0); the nine others keep their faces: 9dF
    nine: dict = {}
    for fs in itertools.product(FUDGE, repeat=9):
        nine[sum(fs)] = nine.get(sum(fs), Fraction(0)) + Fraction(1, 3 ** 9)
    assert_close(by_total("12dFu"), nine)
    assert_close(by_total("12dFu"), unique_rule(FUDGE, 12))


@pytest.mark.parametrize("expr, sides, count, must", [
    ("4dFu", FUDGE, 4, None), ("5dFu", FUDGE, 5, None), ("4dF.2u", FUDGE, 4, None),
    ("5dF.1u", FUDGE_1, 5, None), ("4d3u", (1, 2, 3), 4, None), ("5d2u", (1, 2), 5, None),
    ("3dFu", FUDGE, 3, None),  # as many dice as faces: all different, as before
    ("5dFu>=0", FUDGE, 5, lambda f: f >= 0),  # -1 free: never stuck
])
def test_the_exact_odds_match_the_rule(expr, sides, count, must):
    assert_close(by_total(expr), unique_rule(sides, count, must or (lambda f: True)))


def test_rolls_keep_the_face_once_every_face_is_shown():
    for seed in range(40):
        r = de.roll("6dFu", seed=seed)
        kept = [d.value for d in r.dice if not d.rerolled]
        assert len(kept) == 6 and r.total == sum(kept)
        assert sorted(kept[:3]) == [-1, 0, 1]
        # no re-roll once the three faces are shown
        after = r.dice[[i for i, d in enumerate(r.dice) if not d.rerolled][2] + 1:]
        assert not any(d.rerolled for d in after)


@pytest.mark.parametrize("expr", ["12dFu", "5dF.1u", "4d3u", "7dFu", "5d2u"])
def test_samples_agree_with_the_exact_odds(expr):
    exact = by_total(expr)
    assert chi2_passes(de.sample(expr, 6000, seed=4)["total"], exact), expr


def test_unique_once_is_unchanged():
    # uo: thrown once more at most, whatever is left
    def rule(count):
        states = {(): Fraction(1)}
        for _ in range(count):
            nxt: dict = {}
            for seen, p in states.items():
                for f in FUDGE:
                    if f in seen:
                        for g in FUDGE:
                            nxt[seen + (g,)] = nxt.get(seen + (g,), Fraction(0)) + p / 9
                    else:
                        nxt[seen + (f,)] = nxt.get(seen + (f,), Fraction(0)) + p / 3
            states = nxt
        out: dict = {}
        for faces, p in states.items():
            out[sum(faces)] = out.get(sum(faces), Fraction(0)) + p
        return out
    assert_close(by_total("5dFuo"), rule(5))
