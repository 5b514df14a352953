"""The D6 tie options against a FIXED difficulty (a number or a named one): text 000 says a roll "supérieur ou
égal" to the difficulty factor succeeds, so a total equal to the number is a success whatever the ``tie`` option
(the option decides only ties against a rolled difficulty). Exact odds from an enumeration written here, a roll on
scripted dice that meets the number, and samples whose every row reads ``success == (margin >= 0)``."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import diceengine as de
from tests.helpers import Scripted, assert_close, chi2_passes

TIES = ("actor", "opponent", "reroll")
D6 = range(1, 7)
#: throws of the Wild Die enumerated: what is left (6 ** -24) is far below the tolerance
WILD_DEPTH = 24


def plain_totals(dice: int, pips: int) -> dict[int, Fraction]:
    """Every total of ``dice`` six-sided dice plus ``pips``, with its probability."""
    out: dict[int, Fraction] = {}
    for faces in itertools.product(D6, repeat=dice):
        t = sum(faces) + pips
        out[t] = out.get(t, Fraction(0)) + Fraction(1, 6 ** dice)
    return out


def wild_chain() -> dict[tuple[int, bool, int], Fraction]:
    """The Wild Die alone (text 003): a 6 is thrown again and added, again and again; a first 1 flags a
    complication. ``(value, complication, explosions) -> probability``, enumerated to WILD_DEPTH throws."""
    out: dict[tuple[int, bool, int], Fraction] = {}
    for first in D6:
        if first != 6:
            out[(first, first == 1, 0)] = Fraction(1, 6)
            continue
        for sixes in range(1, WILD_DEPTH):
            for last in range(1, 6):
                key = (6 * sixes + last, False, sixes)
                out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** (sixes + 1))
    return out


def check_rows(totals: dict, difficulty: int) -> dict[tuple, Fraction]:
    """``(total, success, margin)`` rows of a check against a number: success when total >= difficulty."""
    return {(t, t >= difficulty, t - difficulty): p for t, p in totals.items()}


def wild_rows(dice: int, pips: int, difficulty: int) -> dict[tuple, Fraction]:
    """``(total, complication, explosions, success, margin)`` of a d6wild check (complication flagged only)."""
    out: dict[tuple, Fraction] = {}
    for (t, p), ((w, comp, n), q) in itertools.product(plain_totals(dice - 1, pips).items(), wild_chain().items()):
        total = t + w
        key = (total, comp, n, total >= difficulty, total - difficulty)
        out[key] = out.get(key, Fraction(0)) + p * q
    return out


@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("expr, dice, pips, difficulty", [
    ("2D vs 7", 2, 0, 7), ("3D+1 vs short", 3, 1, 10), ("1D vs 4", 1, 0, 4), ("2D-1 vs point blank", 2, -1, 5),
])
def test_d6_fixed_difficulty_exact_odds_ignore_the_tie_option(expr, dice, pips, difficulty, tie):
    got = {tuple(o): p for o, p in de.distribution(expr, system="d6", tie=tie).items()}
    assert_close(got, check_rows(plain_totals(dice, pips), difficulty), tol=1e-14)


@pytest.mark.parametrize("tie", TIES)
@pytest.mark.parametrize("expr, dice, pips, difficulty", [("2D vs 7", 2, 0, 7), ("3D+1 vs easy", 3, 1, 10)])
def test_d6wild_fixed_difficulty_exact_odds_ignore_the_tie_option(expr, dice, pips, difficulty, tie):
    got = {tuple(o): p for o, p in de.distribution(expr, system="d6wild", tie=tie).items()}
    assert_close(got, wild_rows(dice, pips, difficulty), tol=1e-12)


@pytest.mark.parametrize("system", ["d6", "d6wild"])
@pytest.mark.parametrize("tie", TIES)
def test_a_roll_meeting_the_number_succeeds_whatever_the_tie_option(system, tie):
    # 3 + 4 against 7: a tie with the number is a success by 0, and nothing is rolled again
    r = de.roll("2D vs 7", system=system, seed=Scripted([3, 4]), tie=tie)
    assert (r.total, r.outcome.margin, r.outcome.success) == (7, 0, True)
    assert str(r).endswith("= 7, success by 0")
    assert len(r.dice) == 2
    r = de.roll("2D vs 8", system=system, seed=Scripted([3, 4]), tie=tie)
    assert (r.outcome.margin, r.outcome.success) == (-1, False)


@pytest.mark.parametrize("system", ["d6", "d6wild"])
@pytest.mark.parametrize("tie", TIES)
def test_samples_and_rolls_against_a_number_agree_with_the_exact_odds(system, tie):
    expr = "2D+1 vs 8"
    exact = de.distribution(expr, system=system, tie=tie)
    s = de.sample(expr, 20_000, system=system, seed=5, tie=tie)
    assert (s["success"] == (s["margin"] >= 0)).all()
    assert (s["margin"] == s["total"] - 8).all()
    assert chi2_passes(s["margin"], exact.marginal("margin"))
    rolls = [de.roll(expr, system=system, seed=i, tie=tie).outcome for i in range(1500)]
    assert all(o.success == (o.margin >= 0) and o.margin == o.total - 8 for o in rolls)
    assert chi2_passes([o.success for o in rolls], exact.marginal("success"))
