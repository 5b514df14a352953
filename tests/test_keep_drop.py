"""Keep and drop (``kh`` / ``kl`` / ``dh`` / ``dl``, windows of ranks, avrae's d20 operators ``k`` / ``p``
with selectors, several in a row): exact odds against enumeration, which dice a roll marks kept, tie rules,
samples by chi-square, and the work estimate."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import factorial
from typing import Any

import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import Scripted, assert_close, chi2_passes, enumerate_dice

D20 = {"dialect": "d20"}


class ScriptedFaces(random.Random):
    """A generator (a ``random.Random``, accepted as a seed) that throws the given faces in order (``sides``:
    one number for every die, or one per die)."""

    def __init__(self, faces: list[int], sides: int | list[int]) -> None:
        super().__init__(0)
        each = sides if isinstance(sides, list) else [sides] * len(faces)
        self._draws = [(f - 0.5) / s for f, s in zip(faces, each)]

    def random(self) -> float:
        return self._draws.pop(0)


def d20_kept(values: tuple[int, ...], ops: list[tuple[str, list[tuple[str, int]]]]) -> list[bool]:
    """Which dice stay kept: each operator chooses among the dice still kept (d20's rule)."""
    kept = [True] * len(values)
    for mode, selectors in ops:
        alive = [i for i in range(len(values)) if kept[i]]
        ranked = sorted(alive, key=lambda i: values[i])
        # d20 sorts highest-first with a stable sort: among equal faces the earliest die is both the
        # highest and the lowest (d20 1.1.2: `(1,1,1,1)kh1kl1` = 1, `(5,5,2,2)kh1kl1` = 7)
        descending = sorted(alive, key=lambda i: values[i], reverse=True)
        chosen: set[int] = set()
        for kind, n in selectors:
            if kind == "h":
                chosen.update(descending[:n])
            elif kind == "l":
                chosen.update(ranked[:n])
            elif kind == "=":
                chosen.update(i for i in alive if values[i] == n)
            elif kind == "<":
                chosen.update(i for i in alive if values[i] < n)
            else:
                chosen.update(i for i in alive if values[i] > n)
        for i in alive:
            if (i in chosen) != (mode == "k"):
                kept[i] = False
    return kept


# expression on 4d6 (or 3d6) and its operators
CASES = [
    ("4d6k6", [("k", [("=", 6)])]),
    ("4d6k<3", [("k", [("<", 3)])]),
    ("4d6k>4", [("k", [(">", 4)])]),
    ("4d6p>4", [("p", [(">", 4)])]),
    ("4d6p<2", [("p", [("<", 2)])]),
    ("4d6p1p2", [("p", [("=", 1), ("=", 2)])]),
    ("4d6k1k2", [("k", [("=", 1), ("=", 2)])]),
    ("4d6k>1p6", [("k", [(">", 1)]), ("p", [("=", 6)])]),
    ("4d6kh3", [("k", [("h", 3)])]),
    ("4d6kl1", [("k", [("l", 1)])]),
    ("4d6ph1", [("p", [("h", 1)])]),
    ("4d6pl2", [("p", [("l", 2)])]),
    ("4d6dh1", [("p", [("h", 1)])]),  # Roll20's dh / dl read as d20's ph / pl
    ("4d6dl1", [("p", [("l", 1)])]),
    ("4d6kh5", [("k", [("h", 5)])]),
    ("4d6kh3pl1", [("k", [("h", 3)]), ("p", [("l", 1)])]),
    ("4d6kl3ph1", [("k", [("l", 3)]), ("p", [("h", 1)])]),
    ("4d6kh2pl3", [("k", [("h", 2)]), ("p", [("l", 3)])]),
    ("4d6pl1kh2", [("p", [("l", 1)]), ("k", [("h", 2)])]),
    ("4d6ph1kl5", [("p", [("h", 1)]), ("k", [("l", 5)])]),
    ("4d6kh1kl1", [("k", [("h", 1), ("l", 1)])]),
    ("4d6ph1pl1", [("p", [("h", 1), ("l", 1)])]),
    ("4d6p1kh2", [("p", [("=", 1)]), ("k", [("h", 2)])]),
    ("4d6ph5p1", [("p", [("h", 5), ("=", 1)])]),
    ("4d6k>2kh2", [("k", [(">", 2), ("h", 2)])]),
    ("4d6kl2p<2", [("k", [("l", 2)]), ("p", [("<", 2)])]),
]


def enumerated(n: int, ops, score=lambda v: v) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for combo in itertools.product(range(1, 7), repeat=n):
        kept = d20_kept(combo, ops)
        total = sum(score(v) for v, k in zip(combo, kept) if k)
        out[total] = out.get(total, Fraction(0)) + Fraction(1, 6**n)
    return out


@pytest.mark.parametrize("expr, ops", CASES, ids=[c[0] for c in CASES])
def test_d20_keep_and_drop_in_the_three_evaluations(expr, ops):
    n = int(expr[0])
    # every combination of faces, thrown by scripted dice: the total and the kept dice
    for combo in itertools.product(range(1, 7), repeat=n):
        r = de.roll(expr, seed=ScriptedFaces(list(combo), 6), **D20)
        kept = d20_kept(combo, ops)
        assert r.total == sum(v for v, k in zip(combo, kept) if k), combo
        assert sorted(d.value for d in r.dice if d.kept) == sorted(v for v, k in zip(combo, kept) if k), combo
    expected = enumerated(n, ops)
    assert chi2_passes(de.sample(expr, 20_000, seed=11, **D20)["total"], expected)
    assert_close(de.distribution(expr, **D20).marginal("total"), expected)  # unions of selectors included


@pytest.mark.parametrize("expr, ops, success", [
    ("4d6kh3>=4", [("k", [("h", 3)])], lambda v: int(v >= 4)),
    ("4d6k<4>=2", [("k", [("<", 4)])], lambda v: int(v >= 2)),
    ("4d6p6>4f1", [("p", [("=", 6)])], lambda v: 1 if v > 4 else -1 if v == 1 else 0),
    ("4d6kh1kl1>3", [("k", [("h", 1), ("l", 1)])], lambda v: int(v > 3)),
])
def test_d20_keep_then_count_successes(expr, ops, success):
    expected = enumerated(4, ops, success)
    for combo in itertools.product(range(1, 7), repeat=4):
        kept = d20_kept(combo, ops)
        assert de.roll(expr, seed=ScriptedFaces(list(combo), 6), **D20).total ==\
            sum(success(v) for v, k in zip(combo, kept) if k), combo
    assert chi2_passes(de.sample(expr, 20_000, seed=12, **D20)["total"], expected)
    if "kh1kl1" not in expr:
        assert_close(de.distribution(expr, **D20).marginal("total"), expected)


def test_roll20_reading_refuses_d20_spellings():
    for expr, shown in (("4d6k<3", "k<3"), ("4d6p2", "p2"), ("4d6p>4", "p>4")):
        with pytest.raises(de.DiceValueError) as err:
            de.roll(expr)
        assert str(err.value).splitlines()[0] == (f"{shown} is d20's notation (keep / drop dice by value): "
                                                  "use the option dialect='d20'")
        assert err.value.column == 3


def test_a_keep_point_is_under_or_over():
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6k>=3", **D20)
    assert err.value.column is not None


# ---------------------------------------------------------------- sets of expressions


def set_enumeration(faces: list[range], ops, score=lambda v: v) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    total_count = 1
    for f in faces:
        total_count *= len(f)
    for combo in itertools.product(*faces):
        kept = d20_kept(combo, ops)
        total = sum(score(v) for v, k in zip(combo, kept) if k)
        out[total] = out.get(total, Fraction(0)) + Fraction(1, total_count)
    return out


D6, D4, THREE = range(1, 7), range(1, 5), range(3, 4)


@pytest.mark.parametrize("expr, faces, ops, score", [
    ("(1d6, 1d6, 1d6)p1", [D6] * 3, [("p", [("=", 1)])], None),
    ("(1d6, 1d4, 3)k>2", [D6, D4, THREE], [("k", [(">", 2)])], None),
    ("(1d6, 1d6, 1d4)p<3", [D6, D6, D4], [("p", [("<", 3)])], None),
    ("{1d6, 1d6, 1d6}p>4", [D6] * 3, [("p", [(">", 4)])], None),
    ("(1d6, 1d6, 1d6)kh2pl1", [D6] * 3, [("k", [("h", 2)]), ("p", [("l", 1)])], None),
    ("(1d6, 1d6, 1d6)kh1kl1", [D6] * 3, [("k", [("h", 1), ("l", 1)])], None),
    ("(1d6, 1d6, 1d6)k>1>4", [D6] * 3, [("k", [(">", 1)])], lambda v: int(v > 4)),
    ("(1d6, 1d6, 1d6)k>2>4f1", [D6] * 3, [("k", [(">", 2)])], lambda v: 1 if v > 4 else -(v == 1)),
    ("(1d6, 1d6, 1d4)p1>=3f2", [D6, D6, D4], [("p", [("=", 1)])], lambda v: 1 if v >= 3 else -(v == 2)),
    ("(1d6, 1d6, 1d6)kh1kl1>=5", [D6] * 3, [("k", [("h", 1), ("l", 1)])], lambda v: int(v >= 5)),
])
def test_d20_selectors_on_sets(expr, faces, ops, score):
    score = score or (lambda v: v)
    expected = set_enumeration(faces, ops, score)
    for combo in itertools.product(*faces):
        dice = [v for v, f in zip(combo, faces) if f is not THREE]
        sides = [len(f) for f in faces if f is not THREE]
        r = de.roll(expr, seed=ScriptedFaces(dice, sides), **D20)
        kept = d20_kept(combo, ops)
        assert r.total == sum(score(v) for v, k in zip(combo, kept) if k), combo
    assert chi2_passes(de.sample(expr, 20_000, seed=13, **D20)["total"], expected)
    assert_close(de.distribution(expr, **D20).marginal("total"), expected)  # unions of selectors included


def test_the_readme_sets_in_d20s_reading():
    assert de.roll("(1, 2, 3, 4, 5)k3", **D20).total == 3
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1", **D20).total == 6
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1").total == 0  # rpg-dice-roller's reading by default
    assert de.roll("(1, 2, 3, 4, 5)p1p5", **D20).total == 9
    assert de.roll("(1, 2, 3, 4, 5)ph2", **D20).total == 6


EACH = {"explosions": "dice"}


Groups = list[tuple[str, list[tuple[str, int]]]]


def d20_kept_indices(values: Sequence[int], groups: Groups) -> list[int]:
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
    chain of faces) with their probability. The dice are alike and every ``value`` here reads the faces'
    values, not their order: each multiset of throws once, weighted by the orders that give it."""
    out: dict[Any, Fraction] = {}
    orders = factorial(dice)
    for picked in itertools.combinations_with_replacement(range(len(die)), dice):
        p = Fraction(orders)
        faces: list[int] = []
        for i in picked:
            chain, q = die[i]
            p *= q
            faces.extend(chain)
        for times in Counter(picked).values():
            p /= factorial(times)
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
    return lambda faces: sum(score(faces[i]) for i in d20_kept_indices(faces, groups))


def roll20_total(keeps: list[tuple[str, int]], score: Callable[[int], int] = lambda v: v)\
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
            kept = set(d20_kept_indices(sums, groups))
            assert [all(d.kept for d in u) for u in units] == [i in kept for i in range(len(units))]
            assert r.total == sum(sums[i] for i in kept)
            continue
        values = [d.value for d in r.dice]
        kept = set(d20_kept_indices(values, groups))
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
        kept = set(d20_kept_indices(values, [("k", [("h", 3)]), ("p", [("l", 1)])]))
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


D6_FACES = range(1, 7)


def exact_std(expr: str) -> dict[int, float]:
    return de.distribution(expr).marginal("total")


def keep(vals: tuple[int, ...], k: int, highest: bool = True) -> list[int]:
    ordered = sorted(vals, reverse=highest)
    return ordered[:k]


def check_three_ways(expr: str, expected: dict, n: int = 20_000, seed: int = 16, tol: float = 1e-12) -> None:
    """Exact odds equal ``expected``; a seeded sample and seeded rolls follow it (chi-square)."""
    assert_close(exact_std(expr), expected, tol)
    assert chi2_passes(de.sample(expr, n, seed=seed)["total"], expected)
    rng = random.Random(seed)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(4000)], expected)


# ---------------------------------------------------------------- keep/drop with other modifiers


def test_keep_with_reroll():
    # r1 makes each die uniform on 2..6; then the two highest of three are kept
    expected = enumerate_dice([range(2, 7)] * 3, lambda v: sum(keep(v, 2)))
    check_three_ways("3d6r1kh2", expected)
    # re-roll once, then keep the lowest: each die is 1 with 1/36, v >= 2 with 1/6 + 1/36
    one_die = {v: Fraction(1, 6) * (v >= 2) + Fraction(1, 36) for v in D6_FACES}
    expected_low: dict[int, Fraction] = {}
    for combo in itertools.product(D6_FACES, repeat=3):
        p = one_die[combo[0]] * one_die[combo[1]] * one_die[combo[2]]
        total = sum(keep(combo, 1, highest=False))
        expected_low[total] = expected_low.get(total, Fraction(0)) + p
    check_three_ways("3d6ro1kl1", expected_low)


def test_keep_with_success_count_in_every_evaluation():
    # 4d6kh2<3: the two highest dice are kept, each counts when below 3
    expected = enumerate_dice([D6_FACES] * 4, lambda v: sum(1 for f in keep(v, 2) if f < 3))
    check_three_ways("4d6kh2<3", expected)
    expected_low = enumerate_dice([D6_FACES] * 4, lambda v: sum(1 for f in keep(v, 2, False) if f >= 5))
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
    expected = enumerate_dice([D6_FACES] * n, lambda v: sum(keep(v, k, highest)))
    check_three_ways(expr, expected)


@pytest.mark.parametrize("expr, kept", [
    ("2d6dl2", 0), ("2d6dh2", 0), ("2d6dl3", 0), ("2d6kh0", 0), ("2d6kl0", 0), ("2d6dl0", 2), ("2d6dh0", 2),
    ("2d6kh2", 2), ("2d6kh5", 2), ("2d6kl2", 2), ("2d6dl1", 1), ("2d6dh1", 1), ("2d6kl1", 1),
])
def test_keep_drop_boundaries(expr, kept):
    highest = expr[3:5] in ("kh", "dl")
    expected = enumerate_dice([D6_FACES] * 2, lambda v: sum(keep(v, kept, highest)))
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


def test_rerolled_faces_do_not_rank_a_die():
    # die one: 1, 1, 1 re-rolled, then 3; die two: 4. The highest kept is 4, whatever was re-rolled.
    r = de.roll("2d6r1kh1", seed=Scripted([1, 1, 1, 3, 4]))
    assert r.total == 4
    assert [d.value for d in r.dice if d.kept] == [4]
    r = de.roll("2d6r1kl1", seed=Scripted([1, 4, 3]))
    assert r.total == 3


def scripted(expr: str, faces: list[int], sides: int = 6, **options) -> de.Roll:
    return de.roll(expr, seed=Scripted(faces, sides), **options)


def exact_term(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal("total")


@pytest.mark.parametrize("expr, value", [
    ("4d6dl1dh1", lambda v: sum(sorted(v)[1:3])), ("4d6kh3dh1", lambda v: sum(sorted(v)[1:3])),
    ("4d6kl3dl1", lambda v: sum(sorted(v)[1:3])), ("4d6kh2kl3", lambda v: sum(sorted(v)[2:3])),
    ("4d6dl2dh2", lambda v: 0), ("5d6dl1dh1>=4", lambda v: sum(f >= 4 for f in sorted(v)[1:4])),
    ("4d6kh3>=4f1", lambda v: sum((f >= 4) - (f == 1) for f in sorted(v)[1:])),
    ("4d6dl1dh1r1", None),
])
def test_windows_of_ranks(expr, value):
    if value is None:
        expected = enumerate_dice([range(2, 7)] * 4, lambda v: sum(sorted(v)[1:3]))
    else:
        expected = enumerate_dice([D6_FACES] * int(expr[0]), value)
    assert_close(exact_term(expr), expected)
    assert chi2_passes(de.sample(expr, 20_000, seed=14)["total"], expected)
    rng = random.Random(8)
    assert chi2_passes([de.roll(expr, seed=rng).total for _ in range(3000)], expected)


def test_a_scripted_roll_ranked_die_by_die():
    r = scripted("2d6!kh2", [6, 5, 3], explosions="dice")
    assert r.total == 11  # 6, 5 and 3 are three dice: the two highest are 6 and 5
    assert [(d.value, d.kept) for d in r.dice] == [(6, True), (5, True), (3, False)]
    r = scripted("2d6!kl1", [6, 5, 3], explosions="dice")
    assert r.total == 3
    r = scripted("2d6!kh1>=5", [6, 5, 3], explosions="dice")
    assert r.total == 1
