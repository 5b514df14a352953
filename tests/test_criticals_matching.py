"""A roll's counts of critical marks count the dice marked ``cs`` / ``cf`` only: the dice a matching term marks as
matched (``m``, critical ``"match"``) are neither, as the exact odds count them."""

from __future__ import annotations

import pytest

import diceengine as de


@pytest.mark.parametrize("seed", range(120))
def test_matched_dice_are_no_critical_failures(seed: int) -> None:
    # 3d2m always has a matched pair; the d6 alone carries the marks: cs on a 6, cf on a 1 (its rule, written here)
    roll = de.roll("3d2m+1d6cs6cf1", seed=seed)
    d6 = roll.dice[-1].value
    assert [d.critical for d in roll.dice[:3]].count("match") >= 2
    assert (roll.fields()["critical_successes"], roll.fields()["critical_failures"]) == (int(d6 == 6), int(d6 == 1))


def test_the_roll_stays_within_the_exact_odds() -> None:
    odds = de.distribution("3d2m+1d6cs6cf1")
    assert sorted(odds.marginal("critical_failures")) == [0, 1]
    assert odds.marginal("critical_failures")[1] == pytest.approx(1 / 6, abs=1e-12)
