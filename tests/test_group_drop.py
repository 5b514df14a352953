"""rpg-dice-roller's drop shorthand on groups (issue 24): ``{19d23}d1`` drops the lowest die of the roll the group
holds, ``{a, b}d1`` the lowest item; exact odds against an enumeration, samples against the exact odds."""

from __future__ import annotations

import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice


def test_bare_d_on_a_group_of_one_roll_drops_its_lowest_dice():
    d5 = range(1, 6)
    expected = enumerate_dice([d5] * 4, lambda f: sum(sorted(f)[2:]))
    assert_close(de.distribution("{4d5}d2").marginal(), expected)
    r = de.roll("{19d23}d1", seed=3)  # rpg-dice-roller's group test
    values = [d.value for d in r.dice]
    assert len(values) == 19 and r.total == sum(values) - min(values)
    assert sum(not d.kept for d in r.dice) == 1
    assert chi2_passes(de.sample("{4d5}d2", 4000, seed=2)["total"], de.distribution("{4d5}d2").marginal())


def test_bare_d_on_a_group_of_items_drops_the_lowest_item():
    expected = enumerate_dice([range(1, 7), range(1, 9)], max)
    assert_close(de.distribution("{1d6, 1d8}d").marginal(), expected)
    assert_close(de.distribution("{1d6, 1d8}d1").marginal(), expected)


def test_a_parenthesis_then_d_is_still_computed_dice():
    assert de.distribution("(1d4)d6").mean() == pytest.approx(2.5 * 3.5)
