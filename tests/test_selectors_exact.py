"""Exact odds of keep / drop the peers write and a window of ranks cannot express (issue 11): avrae's d20
operators joining rank and value selectors (``4d6kh1kl1``, ``kh1k>4``, ``ph1p<2``, ``k3kh1``, several
operators in a row), and several keep / drop when every die thrown is ranked (``explosions="dice"``).

Expected values come from brute-force enumeration with the selection written again here, as d20's
``SetOperator`` does it (``d20/dice.py``: a stable sort for ``hN`` / ``lN``, the selectors of one operator
joined, each operator choosing among the dice still kept), and, for Roll20's several keep / drop, as
rpg-dice-roller documents them (each chooses among all the dice, a die counts if none drops it).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import assert_close, chi2_passes

D20 = {"dialect": "d20"}
EACH = {"explosions": "dice"}
Groups = list[tuple[str, list[tuple[str, int]]]]


def d20_kept(values: Sequence[int], groups: Groups) -> list[int]:
    """Indices d20 keeps: each operator ``k`` drops what none of its selectors choose, ``p`` drops what they
    choose; ``h`` / ``l`` sort the dice still kept (Python's stable sort, ``reverse=True`` for ``h``)."""
    kept = list(range(len(values)))

    def select(sels: list[tuple[str, int]]) -> set[int]:
        out: set[int] = set()
        for kind, n in sels:
            if kind == "h":
                out.update(sorted(kept, key=lambda i: values[i], reverse=True)[:n])
            elif kind == "l":
                out.update(sorted(kept, key=lambda i: values[i])[:n])
            elif kind == "<":
                out.update(i for i in kept if values[i] < n)
            elif kind == ">":
                out.update(i for i in kept if values[i] > n)
            else:
                out.update(i for i in kept if values[i] == n)
        return out

    for mode, sels in groups:
        if mode == "k":
            for i in list(kept):  # d20 selects again for each die, among the dice still kept
                if i not in select(sels):
                    kept.remove(i)
        else:
            for i in select(sels):
                kept.remove(i)
    return kept


def roll20_kept(values: Sequence[int], keeps: list[tuple[str, int]]) -> list[int]:
    """Indices kept by Roll20 / rpg-dice-roller's keep / drop: each chooses among all the dice (ties: any)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    n = len(values)
    alive = set(range(n))
    for kind, k in keeps:
        k = min(k, n)
        if kind == "kh":
            alive -= set(order[:n - k])
        elif kind == "kl":
            alive -= set(order[k:])
        elif kind == "dh":
            alive -= set(order[n - k:])
        else:
            alive -= set(order[:k])
    return sorted(alive)


def enumerate_term(dice: int, die: list[tuple[tuple[int, ...], Fraction]],
                   value: Callable[[list[int]], Any]) -> dict[Any, Fraction]:
    """Exact distribution of ``value(every face thrown, die by die)``; ``die`` lists one die's throws (a
    chain of faces) with their probability."""
    out: dict[Any, Fraction] = {}
    for combo in itertools.product(die, repeat=dice):
        p = Fraction(1)
        faces: list[int] = []
        for chain, q in combo:
            p *= q
            faces.extend(chain)
        key = value(faces)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def plain(sides: int) -> list[tuple[tuple[int, ...], Fraction]]:
    return [((f,), Fraction(1, sides)) for f in range(1, sides + 1)]


def reroll_once(sides: int, on: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """A die re-rolled once when it shows ``on``: the face that stands (d20's ro)."""
    out: Counter[tuple[int, ...]] = Counter()
    for f in range(1, sides + 1):
        for g in range(1, sides + 1):
            out[(g if f == on else f,)] += Fraction(1, sides * sides)
    return list(out.items())


def clamped(sides: int, least: int) -> list[tuple[tuple[int, ...], Fraction]]:
    return [((max(f, least),), Fraction(1, sides)) for f in range(1, sides + 1)]


def exploding(sides: int, depth: int, penetrate: bool = False) -> list[tuple[tuple[int, ...], Fraction]]:
    """One die exploding on its maximum, chains of at most ``depth`` explosions (each added die counting one
    less when penetrating)."""
    out = []
    for k in range(depth + 1):
        for last in range(1, sides):
            chain = (sides,) + tuple(sides - penetrate for _ in range(k - 1)) + (last - penetrate,) if k else (last,)
            out.append((chain, Fraction(1, sides) ** (k + 1)))
    return out


def d20_total(groups: Groups, score: Callable[[int], int] = lambda v: v) -> Callable[[list[int]], int]:
    return lambda faces: sum(score(faces[i]) for i in d20_kept(faces, groups))


def roll20_total(keeps: list[tuple[str, int]], score: Callable[[int], int] = lambda v: v) \
        -> Callable[[list[int]], int]:
    return lambda faces: sum(score(faces[i]) for i in roll20_kept(faces, keeps))


def exact(expr: str, **options: Any) -> dict[Any, float]:
    return de.distribution(expr, **options).marginal()


# ------------------------------------------------------------------ d20's operators on dice
SELECTIONS = [
    ("4d6kh1kl1", 4, plain(6), [("k", [("h", 1), ("l", 1)])]),
    ("4d6kh1k>4", 4, plain(6), [("k", [("h", 1), (">", 4)])]),
    ("4d6ph1p<2", 4, plain(6), [("p", [("h", 1), ("<", 2)])]),
    ("5d4k3kh1", 5, plain(4), [("k", [("=", 3), ("h", 1)])]),
    ("4d6p1kh2", 4, plain(6), [("p", [("=", 1)]), ("k", [("h", 2)])]),
    ("5d4kh3pl1kh1kl1", 5, plain(4), [("k", [("h", 3)]), ("p", [("l", 1)]), ("k", [("h", 1), ("l", 1)])]),
    ("5d5k>1kh2kl1", 5, plain(5), [("k", [(">", 1), ("h", 2), ("l", 1)])]),
    ("4d6kl3ph1p6", 4, plain(6), [("k", [("l", 3)]), ("p", [("h", 1), ("=", 6)])]),
    ("4d6pl1ph1pl1", 4, plain(6), [("p", [("l", 1), ("h", 1), ("l", 1)])]),
    ("3d6ro1kh1kl1", 3, reroll_once(6, 1), [("k", [("h", 1), ("l", 1)])]),
    ("4d6mi3kh1kl1", 4, clamped(6, 3), [("k", [("h", 1), ("l", 1)])]),
    ("2d20kh1kl1", 2, plain(20), [("k", [("h", 1), ("l", 1)])]),
]


@pytest.mark.parametrize("expr, dice, die, groups", SELECTIONS, ids=[s[0] for s in SELECTIONS])
def test_d20_operators_match_enumeration(expr, dice, die, groups):
    assert_close(exact(expr, **D20), enumerate_term(dice, die, d20_total(groups)))


def test_d20_operators_with_success_counts_match_enumeration():
    groups: Groups = [("k", [("h", 2), ("l", 1)])]
    expected = enumerate_term(5, plain(6), d20_total(groups, lambda v: int(v >= 4) - int(v <= 1)))
    assert_close(exact("5d6kh2kl1>=4f1", **D20), expected)


def test_d20_operators_on_exploding_units_match_enumeration():
    # explosions="unit": an exploding die and the dice it adds are one die for keep / drop, ranked by their sum
    depth = 10
    units = [((sum(chain),), q) for chain, q in exploding(6, depth)]
    expected = enumerate_term(3, units, d20_total([("k", [("h", 1), ("l", 1)])]))
    assert_close(exact("3d6!kh1kl1", **D20), expected, tol=3 * 6.0 ** -(depth + 1))


def test_equal_dice_are_chosen_as_d20_chooses_them():
    # what d20 1.1.2 answers: its selectors of one operator pick the first thrown among equal dice
    assert de.roll("(3, 3)kh1kl1", **D20).total == 3
    assert de.roll("(3, 3, 1)ph1pl1", **D20).total == 3
    assert de.roll("(5, 5, 2, 2)kh1kl1", **D20).total == 7
    assert exact("(3, 3)kh1kl1", **D20) == {3: 1.0}
    # two dice showing the same face: one is kept; 6 is (6, 6), (1, 5), (5, 1), (2, 4) or (4, 2)
    odds = exact("2d6kh1kl1", **D20)
    assert abs(odds[6] - 5 / 36) < 1e-15 and abs(odds[3] - 3 / 36) < 1e-15  # 3: (3, 3), (1, 2), (2, 1)


@pytest.mark.parametrize("expr", ["4d6kh1kl1", "5d4kh3pl1kh1kl1", "4d6p1kh2", "3d6!kh1kl1", "5d6kh2kl1>=4f1"])
def test_one_roll_keeps_what_d20_keeps(expr):
    groups = {"4d6kh1kl1": [("k", [("h", 1), ("l", 1)])],
              "5d4kh3pl1kh1kl1": [("k", [("h", 3)]), ("p", [("l", 1)]), ("k", [("h", 1), ("l", 1)])],
              "4d6p1kh2": [("p", [("=", 1)]), ("k", [("h", 2)])],
              "3d6!kh1kl1": [("k", [("h", 1), ("l", 1)])],
              "5d6kh2kl1>=4f1": [("k", [("h", 2), ("l", 1)])]}[expr]
    for seed in range(300):
        r = de.roll(expr, seed=seed, **D20)
        if "!" in expr:  # units: an exploding die and its added dice, ranked by their sum
            units: list[list[Any]] = []
            for d in r.dice:
                if d.added:
                    units[-1].append(d)
                else:
                    units.append([d])
            sums = [sum(d.value for d in u) for u in units]
            kept = set(d20_kept(sums, groups))
            assert [all(d.kept for d in u) for u in units] == [i in kept for i in range(len(units))]
            assert r.total == sum(sums[i] for i in kept)
            continue
        values = [d.value for d in r.dice]
        kept = set(d20_kept(values, groups))
        assert [d.kept for d in r.dice] == [i in kept for i in range(len(values))]
        if ">=" not in expr:
            assert r.total == sum(values[i] for i in kept)


@pytest.mark.parametrize("expr", ["4d6kh1kl1", "4d6ph1p<2", "5d4kh3pl1kh1kl1", "3d6!kh1kl1", "5d6kh2kl1>=4f1",
                                  "(1d4, 1d6, 2, 1d8)kh1kl1"])
def test_samples_pass_a_chi_square_against_the_exact_odds(expr):
    totals = de.sample(expr, 60_000, seed=11, **D20)["total"]
    assert chi2_passes(totals, exact(expr, **D20))


def test_a_wrong_tie_rule_fails_the_chi_square():
    # Roll20's reading of 2d6kh1kl1 keeps both equal dice: the chi-square against d20's odds must see it
    import numpy as np

    gen = np.random.default_rng(5)
    dice = gen.integers(1, 7, size=(60_000, 2))
    both = dice.sum(axis=1)
    assert not chi2_passes(both, exact("2d6kh1kl1", **D20))


def test_d20_operators_on_sets_match_enumeration():
    groups: Groups = [("k", [("h", 1), ("l", 1)])]
    faces = [range(1, 5), range(1, 7), [2], range(1, 9)]
    expected: dict[int, Fraction] = {}
    for combo in itertools.product(*faces):
        key = d20_total(groups)(list(combo))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 4 * 6 * 8)
    assert_close(exact("(1d4, 1d6, 2, 1d8)kh1kl1", **D20), expected)
    groups = [("p", [("h", 1), ("<", 3)])]
    expected = {}
    for combo in itertools.product(range(1, 5), range(1, 5), [2, 5]):
        key = d20_total(groups)(list(combo))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 32)
    assert_close(exact("(1d4, 1d4, 3*1d2-1)ph1p<3", **D20), expected)


# ------------------------------------------------------------------ several keep / drop, every die ranked
EACH_DIE = [
    ("3d6!kh2dl1", {}, lambda: exploding(6, 9), roll20_total([("kh", 2), ("dl", 1)])),
    ("3d6!dh1dl1", {}, lambda: exploding(6, 9), roll20_total([("dh", 1), ("dl", 1)])),
    ("3d4!kl2dh1", {}, lambda: exploding(4, 12), roll20_total([("kl", 2), ("dh", 1)])),
    ("3d6!pdh1dl1", {}, lambda: exploding(6, 9, penetrate=True), roll20_total([("dh", 1), ("dl", 1)])),
    ("3d6!>=6dh1dl1>=4", {}, lambda: exploding(6, 9),
     roll20_total([("dh", 1), ("dl", 1)], lambda v: int(v >= 4))),
    ("2d6!kh1kl1", {}, lambda: exploding(6, 9), roll20_total([("kh", 1), ("kl", 1)])),
    # keep / drop that each bind for some count of dice thrown (none is redundant)
    ("4d6!kh3dh1", {}, lambda: exploding(6, 7), roll20_total([("kh", 3), ("dh", 1)])),
    ("3d6!kh2kl2", {}, lambda: exploding(6, 9), roll20_total([("kh", 2), ("kl", 2)])),
    ("4d4!kl3dl1", {}, lambda: exploding(4, 9), roll20_total([("kl", 3), ("dl", 1)])),
    ("3d6!kh2dl1dh1", {}, lambda: exploding(6, 9), roll20_total([("kh", 2), ("dl", 1), ("dh", 1)])),
    ("3d6e6kh1kl1", D20, lambda: exploding(6, 9), d20_total([("k", [("h", 1), ("l", 1)])])),
    ("3d4e4kh3pl1", D20, lambda: exploding(4, 12), d20_total([("k", [("h", 3)]), ("p", [("l", 1)])])),
    ("2d6e6k>4kh1", D20, lambda: exploding(6, 9), d20_total([("k", [(">", 4), ("h", 1)])])),
    ("3d6e6ph1p<2", D20, lambda: exploding(6, 9), d20_total([("p", [("h", 1), ("<", 2)])])),
    ("3d6e6kl1k6", D20, lambda: exploding(6, 9), d20_total([("k", [("l", 1), ("=", 6)])])),
    ("3d4e4kh2kl1", D20, lambda: exploding(4, 12), d20_total([("k", [("h", 2), ("l", 1)])])),
    ("3d4e4ph1pl1>=3", D20, lambda: exploding(4, 12), d20_total([("p", [("h", 1), ("l", 1)])],
                                                                  lambda v: int(v >= 3))),
]


@pytest.mark.parametrize("expr, options, die, value", EACH_DIE, ids=[e[0] for e in EACH_DIE])
def test_every_die_ranked_with_several_keep_drop_matches_enumeration(expr, options, die, value):
    chains = die()
    left = 1 - float(sum(q for _, q in chains))  # the chains longer than enumerated
    got = exact(expr, **EACH, **options)
    dice = int(expr[0])
    assert_close(got, enumerate_term(dice, chains, value), tol=dice * left + 1e-12)


@pytest.mark.parametrize("expr, options", [(e[0], e[1]) for e in EACH_DIE])
def test_every_die_ranked_samples_pass_a_chi_square(expr, options):
    totals = de.sample(expr, 60_000, seed=12, **EACH, **options)["total"]
    assert chi2_passes(totals, exact(expr, **EACH, **options))


def test_d20_operators_in_a_row_rank_the_dice_thrown_not_the_dice_asked_for():
    # 3d4e4kh3pl1 in d20: keep the 3 highest of the dice thrown, then drop the lowest of those; with an
    # explosion four dice or more are thrown, so this is not the window of ranks of three dice
    for seed in range(200):
        r = de.roll("3d4e4kh3pl1", seed=seed, **EACH, **D20)
        values = [d.value for d in r.dice]
        kept = set(d20_kept(values, [("k", [("h", 3)]), ("p", [("l", 1)])]))
        assert r.total == sum(values[i] for i in kept)


# ------------------------------------------------------------------ honest costs, clean refusals
@pytest.mark.parametrize("expr, options", [
    ("4d6kh1kl1", D20), ("5d4kh3pl1kh1kl1", D20), ("10d10kh2k>8pl1", D20), ("3d6!kh1kl1", D20),
    ("4d6!dh1dl1", EACH), ("6d6!kh3dl1", EACH), ("3d6e6kh1kl1", {**D20, **EACH}), ("10d6!dl2", EACH),
    ("4d6e6kh1k>4", {**D20, **EACH}), ("4d6e6ph1p<2", {**D20, **EACH}), ("3d4e4kh3pl1", {**D20, **EACH}),
])
def test_estimates_bound_the_work_done(expr, options):
    cost = api.plan(expr, **options).exact_cost()
    WORK.work = 0
    de.distribution(expr, **options)
    assert WORK.work <= cost.work


@pytest.mark.parametrize("expr, options", [("40d20kh5kl5pl2kh3", D20), ("6d10e10kh3pl1k>2", {**D20, **EACH}),
                                           ("30d10!dh3dl3", EACH)])
def test_too_large_is_refused_before_working_and_still_rolls(expr, options):
    WORK.work = 0
    with pytest.raises(de.DiceLimitError, match="sample"):
        de.distribution(expr, **options)
    assert WORK.work == 0
    assert de.roll(expr, seed=1, **options).total >= 0
    assert len(de.sample(expr, 10, seed=1, **options)["total"]) == 10
