"""Standard notation: the behaviours a one-line bug could break unnoticed (issue 16).

Every expected value is enumerated here from the rule of the modifier, never read from the engine;
each expression is checked in the three evaluations (roll, sample, exact odds), because a mistake in
a piece they share cannot be seen by comparing them with each other.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import diceengine as de

from .helpers import Scripted, assert_close, chi2_passes, enumerate_dice

D6 = range(1, 7)




def exact(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


def keep(vals: tuple[int, ...], k: int, highest: bool = True) -> list[int]:
    ordered = sorted(vals, reverse=highest)
    return ordered[:k]


def check_three_ways(expr: str, expected: dict, n: int = 20_000, seed: int = 16, tol: float = 1e-12) -> None:
    """Exact odds equal ``expected``; a seeded sample and seeded rolls follow it (chi-square)."""
    assert_close(exact(expr), expected, tol)
    assert chi2_passes(de.sample(expr, n, seed=seed)["total"], expected)
    rng = random.Random(seed)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(4000)], expected)


# ---------------------------------------------------------------- re-roll once on several faces


def test_reroll_once_on_several_faces():
    # ro<3: a first 1 or 2 is thrown again once, and the second face stays whatever it is
    expected = {v: Fraction(1, 6) * (v >= 3) + Fraction(2, 6) * Fraction(1, 6) for v in D6}
    assert sum(expected.values()) == 1
    check_three_ways("1d6ro<3", expected)
    assert exact("1d6ro<3")[1] == pytest.approx(1 / 18, abs=1e-15)


def test_reroll_until_on_several_faces():
    expected = {v: Fraction(1, 4) for v in range(3, 7)}
    check_three_ways("1d6r<3", expected)


# ---------------------------------------------------------------- keep/drop with other modifiers


def test_keep_with_reroll():
    # r1 makes each die uniform on 2..6; then the two highest of three are kept
    expected = enumerate_dice([range(2, 7)] * 3, lambda v: sum(keep(v, 2)))
    check_three_ways("3d6r1kh2", expected)
    # re-roll once, then keep the lowest: each die is 1 with 1/36, v >= 2 with 1/6 + 1/36
    one_die = {v: Fraction(1, 6) * (v >= 2) + Fraction(1, 36) for v in D6}
    expected_low: dict[int, Fraction] = {}
    for combo in itertools.product(D6, repeat=3):
        p = one_die[combo[0]] * one_die[combo[1]] * one_die[combo[2]]
        total = sum(keep(combo, 1, highest=False))
        expected_low[total] = expected_low.get(total, Fraction(0)) + p
    check_three_ways("3d6ro1kl1", expected_low)


def compound_units() -> dict[int, Fraction]:
    """The sum of one compounding d6 (``!!``), truncated where the chain mass is negligible."""
    out: dict[int, Fraction] = {}
    for sixes in range(20):
        for last in range(1, 6):
            out[6 * sixes + last] = Fraction(1, 6) ** sixes * Fraction(1, 6)
    return out


def test_compound_then_count():
    # 3d6!!6>=8: a unit succeeds when its compounded sum is >= 8: a 6 then anything but a 1
    p = Fraction(5, 36)
    assert sum(q for v, q in compound_units().items() if v >= 8) == pytest.approx(float(p), abs=1e-14)
    expected = {k: Fraction(3 if k in (1, 2) else 1) * p**k * (1 - p) ** (3 - k) for k in range(4)}
    check_three_ways("3d6!!6>=8", expected, tol=1e-11)


def test_explode_then_count_counts_every_face():
    # 1d6!>=5: every face of the chain that is >= 5 counts: successes = number of explosions + (last >= 5)
    # a chain is k exploding faces (5 or 6, each 1/3) then a face 1..4 (never a success)
    expected = {k: Fraction(1, 3) ** k * Fraction(2, 3) for k in range(30)}
    assert_close(exact("1d6!>=5>=5"), expected, 1e-11)
    assert chi2_passes(de.sample("1d6!>=5>=5", 20_000, seed=4)["total"], expected)


def test_keep_with_success_count_in_every_evaluation():
    # 4d6kh2<3: the two highest dice are kept, each counts when below 3
    expected = enumerate_dice([D6] * 4, lambda v: sum(1 for f in keep(v, 2) if f < 3))
    check_three_ways("4d6kh2<3", expected)
    expected_low = enumerate_dice([D6] * 4, lambda v: sum(1 for f in keep(v, 2, False) if f >= 5))
    check_three_ways("4d6kl2>=5", expected_low)


def test_keep_with_failures_counted():
    expected = enumerate_dice([range(1, 11)] * 3,
                              lambda v: sum((f >= 7) - (f == 1) for f in keep(v, 2)))
    check_three_ways("3d10kh2>=7f1", expected)


@pytest.mark.parametrize("expr, k, highest", [
    ("4d6kh2", 2, True), ("4d6kh1", 1, True), ("4d6kl2", 2, False), ("5d6kh3", 3, True), ("4d6dh2", 2, False),
    ("4d6dl2", 2, True), ("4d6kh3", 3, True), ("4d6kl3", 3, False),
])
def test_keep_fewer_than_all_but_one(expr, k, highest):
    n = int(expr[0])
    expected = enumerate_dice([D6] * n, lambda v: sum(keep(v, k, highest)))
    check_three_ways(expr, expected)


@pytest.mark.parametrize("expr, kept", [
    ("2d6dl2", 0), ("2d6dh2", 0), ("2d6dl3", 0), ("2d6kh0", 0), ("2d6kl0", 0), ("2d6dl0", 2), ("2d6dh0", 2),
    ("2d6kh2", 2), ("2d6kh5", 2), ("2d6kl2", 2), ("2d6dl1", 1), ("2d6dh1", 1), ("2d6kl1", 1),
])
def test_keep_drop_boundaries(expr, kept):
    highest = expr[3:5] in ("kh", "dl")
    expected = enumerate_dice([D6] * 2, lambda v: sum(keep(v, kept, highest)))
    check_three_ways(expr, expected, n=5000)
    r = de.roll(expr, seed=5)
    assert sum(d.kept for d in r.dice) == kept


@pytest.mark.parametrize("expr, k, lowest", [("5d6kl2", 2, True), ("5d6dh2", 3, True), ("5d6kh2", 2, False),
                                             ("5d6dl2", 3, False), ("5d6r1kl2", 2, True), ("5d6!dh2", 3, True)])
def test_which_dice_are_marked_kept(expr, k, lowest):
    for seed in range(40):
        r = de.roll(expr, seed=seed)
        if "!" in expr or "r" in expr[3:]:
            # one unit per die: its first face that was not re-rolled, plus the faces it added
            units: list[list] = []
            for d in r.dice:
                if d.rerolled:
                    continue
                if d.added:
                    units[-1].append(d)
                else:
                    units.append([d])
            sums = [sum(d.value for d in u) for u in units]
            kept = [s for s, u in zip(sums, units) if all(d.kept for d in u)]
            assert all(all(d.kept for d in u) or not any(d.kept for d in u) for u in units)
        else:
            sums = [d.value for d in r.dice]
            kept = [d.value for d in r.dice if d.kept]
        assert sorted(kept) == sorted(sorted(sums, reverse=not lowest)[:k])
        assert r.total == sum(kept)


# ---------------------------------------------------------------- explosion bound


def test_explosion_chain_exactly_at_the_bound():
    # 200 explosions from one die are allowed, the 201st is refused (README: 200 explosions from one die)
    r = de.roll("1d6!", seed=Scripted([6] * 200 + [1]))
    assert r.total == 1201
    assert sum(d.exploded for d in r.dice) == 200
    with pytest.raises(de.DiceLimitError):
        de.roll("1d6!", seed=Scripted([6] * 201 + [1]))
    r = de.roll("1d6!!", seed=Scripted([6] * 200 + [2]))
    assert r.total == 1202


def test_compound_and_count_agree_with_the_rule_on_one_roll():
    r = de.roll("3d6!!6>=8", seed=Scripted([6, 1, 6, 2, 3]))  # units 7, 8, 3
    assert r.total == 1
    r = de.roll("3d6!>=5", seed=Scripted([6, 5, 1, 2, 5, 4]))  # no count: the faces add up
    assert r.total == 6 + 5 + 1 + 2 + 5 + 4


def test_plain_rolls_follow_the_faces():
    r = de.roll("4d6kh3", seed=Scripted([1, 6, 5, 2]))
    assert r.total == 13 and [d.kept for d in r.dice] == [False, True, True, True]
    r = de.roll("4d6kl1", seed=Scripted([3, 6, 2, 2]))
    assert r.total == 2 and sum(d.kept for d in r.dice) == 1 and [d.value for d in r.dice if d.kept] == [2]
    r = de.roll("4d6dh1", seed=Scripted([3, 6, 2, 2]))
    assert r.total == 7 and [d.kept for d in r.dice] == [True, False, True, True]
    r = de.roll("8d10>=7f1", seed=Scripted([10, 10, 1, 1, 9, 8, 7, 4], 10))
    assert r.total == 5 - 2



def test_rerolled_faces_do_not_rank_a_die():
    # die one: 1, 1, 1 re-rolled, then 3; die two: 4. The highest kept is 4, whatever was re-rolled.
    r = de.roll("2d6r1kh1", seed=Scripted([1, 1, 1, 3, 4]))
    assert r.total == 4
    assert [d.value for d in r.dice if d.kept] == [4]
    r = de.roll("2d6r1kl1", seed=Scripted([1, 4, 3]))
    assert r.total == 3
