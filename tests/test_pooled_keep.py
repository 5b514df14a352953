"""Keep / drop on a group whose one item holds several dice terms: ``{4d10+5d6}k2`` keeps the two highest of the
nine dice, as rpg-dice-roller's groups (and Roll20's ``{4d6+3d8}kh1``); the item's arithmetic then reads each
term's kept dice (rpg-dice-roller's ``{4d10*5d6}k2``). Enumerations written here; rpg-dice-roller's documented
rolls replayed die by die."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import Scripted, assert_close, chi2_passes, clear_engine_caches


def _pooled(terms: list[tuple[int, list[int]]], window, value) -> dict:
    """Enumerate every throw of the terms' dice (``(count, faces)`` each): rank all dice lowest first, equal faces
    in the order written, keep the ranks ``window`` gives (``window(n) -> (lo, hi)``), and ``value(kept sums)``."""
    dice = [(i, faces) for i, (count, faces) in enumerate(terms) for _ in range(count)]
    total = math.prod(len(f) for _, f in dice)
    out: dict = {}
    for throw in itertools.product(*[f for _, f in dice]):
        order = sorted(range(len(throw)), key=lambda k: (throw[k], k))
        lo, hi = window(len(throw))
        kept = set(order[lo:hi])
        sums = [0] * len(terms)
        for k, v in enumerate(throw):
            if k in kept:
                sums[dice[k][0]] += v
        key = value(sums)
        out[key] = out.get(key, 0) + Fraction(1, total)
    return out


def D(sides: int) -> list[int]:
    return list(range(1, sides + 1))


def kh(n):
    return lambda count: (max(0, count - n), count)


def kl(n):
    return lambda count: (0, min(n, count))


CASES = [
    ("{2d6+2d4}k2", [(2, D(6)), (2, D(4))], kh(2), lambda s: s[0] + s[1]),
    ("{2d6+2d4}kl1", [(2, D(6)), (2, D(4))], kl(1), lambda s: s[0] + s[1]),
    ("{2d6+1d4+3}kh1", [(2, D(6)), (1, D(4))], kh(1), lambda s: s[0] + s[1] + 3),
    ("{2d6-1d4}kh2", [(2, D(6)), (1, D(4))], kh(2), lambda s: s[0] - s[1]),
    ("{1d6-1d6}k1", [(1, D(6)), (1, D(6))], kh(1), lambda s: s[0] - s[1]),   # a tie keeps the later die
    ("{1d6-1d6}kl1", [(1, D(6)), (1, D(6))], kl(1), lambda s: s[0] - s[1]),  # ... and kl the earlier
    ("{2d4*2d6}k2", [(2, D(4)), (2, D(6))], kh(2), lambda s: s[0] * s[1]),
    ("{2d4*2d6}kl3", [(2, D(4)), (2, D(6))], kl(3), lambda s: s[0] * s[1]),
    ("{3dF+1d4}kl2", [(3, [-1, 0, 1]), (1, D(4))], kl(2), lambda s: s[0] + s[1]),
    ("{2d6+2d4}dh1dl1", [(2, D(6)), (2, D(4))], lambda c: (1, c - 1), lambda s: s[0] + s[1]),
    ("{2d6+1d8+1d4}d2", [(2, D(6)), (1, D(8)), (1, D(4))], lambda c: (2, c), lambda s: sum(s)),
    ("{max(2d6, 1d8)}kh1", [(2, D(6)), (1, D(8))], kh(1), lambda s: max(s)),
]


@pytest.mark.parametrize("expr, terms, window, value", CASES, ids=[c[0] for c in CASES])
def test_pooled_keep_against_an_enumeration(expr, terms, window, value):
    expected = _pooled(terms, window, value)
    exact = de.distribution(expr).marginal()
    assert_close(exact, expected, tol=1e-12)
    assert chi2_passes(de.sample(expr, 20_000, seed=21)["total"], exact)
    rolled = Counter(de.roll(expr, seed=seed).total for seed in range(1500))
    assert chi2_passes(list(rolled.elements()), exact)


def test_the_peers_example_four_d10_plus_five_d6_k2():
    """``{4d10+5d6}k2``: the two highest of the nine dice. The top two of the union are the top two of each term's
    top two, enumerated term by term."""
    def top2(n, sides):
        out: Counter = Counter()
        for throw in itertools.product(range(1, sides + 1), repeat=n):
            out[tuple(sorted(throw)[-2:])] += 1
        return {k: Fraction(c, sides ** n) for k, c in out.items()}
    expected: dict = {}
    for (a, p), (b, q) in itertools.product(top2(4, 10).items(), top2(5, 6).items()):
        s = sum(sorted(a + b)[-2:])
        expected[s] = expected.get(s, 0) + p * q
    exact = de.distribution("{4d10+5d6}k2").marginal()
    assert_close(exact, expected, tol=1e-12)
    assert chi2_passes(de.sample("{4d10+5d6}k2", 20_000, seed=3)["total"], exact)
    de.distribution("{4d6+3d8}kh1")  # Roll20's example reads


@pytest.mark.parametrize("expr, faces, total, text", [
    # rpg-dice-roller tests/rolling.test.js, "Group rolls" with modifiers: the faces its tests mock, its totals
    ("{4d10*5d6}k2", [10, 5, 3, 4, 2, 4, 3, 6, 1], 60, "[10, ~5~, ~3~, ~4~] * [~2~, ~4~, ~3~, 6, ~1~]"),
    ("{4d10*5d6}kl3", [10, 5, 7, 1, 2, 4, 3, 6, 4], 5, "[~10~, ~5~, ~7~, 1] * [2, ~4~, 3, ~6~, ~4~]"),
    ("{4d10*5d6}d2", [10, 2, 3, 4, 5, 4, 3, 6, 1], 306, "[10, ~2~, 3, 4] * [5, 4, 3, 6, ~1~]"),
    ("{4d10*5d6}dh3", [10, 5, 7, 1, 2, 4, 3, 6, 4], 78, "[~10~, 5, ~7~, 1] * [2, 4, 3, ~6~, 4]"),
])
def test_rpg_dice_rollers_documented_rolls(expr, faces, total, text):
    script = [(f, 10) for f in faces[:4]] + [(f, 6) for f in faces[4:]]
    r = de.roll(expr, seed=Scripted(script))
    assert r.total == total
    assert str(r) == f"{expr}: {text} = {total}"
    assert [d.kept for d in r.dice] == ["~" not in part for part in text.replace("[", "").replace("]", "")
                                        .replace(" * ", ", ").split(", ")]


def test_other_modifiers_of_the_group_apply_to_the_item():
    exact = de.distribution("{2d6+1d4}kh2>8").marginal()
    two = _pooled([(2, D(6)), (1, D(4))], kh(2), lambda s: int(s[0] + s[1] > 8))
    assert_close(exact, two)


@pytest.mark.parametrize("expr", ["{2d6+1d4!}k1", "{2d6+(1d4)d6}k1", "{2d6+{1d4, 2}}k1", "{2d6kh1+1d4}k1"])
def test_items_whose_dice_cannot_be_ranked_together_are_refused_with_a_caret(expr):
    with pytest.raises(de.DiceValueError) as err:
        de.roll(expr, seed=1)
    assert err.value.column == expr.rindex("}") + 1


@pytest.mark.parametrize("expr", ["{4d10+5d6}k2", "{4d10*5d6}kl3", "{3d6+3d8+2d10}kh3", "{4d10*5d6}d2",
                                  "{1d6-1d6}k1", "{2d6+1d4}k0", "{10d6+10d8}kh5", "{5d6*5d8}kh5"])
def test_the_estimate_bounds_the_counted_work(expr):
    clear_engine_caches()
    cost = api.plan(expr, "standard").exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert 0 < WORK.work <= cost.work <= 12 * WORK.work


def test_labels_stay_on_their_dice():
    r = de.roll("{2d6[fire]+1d4}kh2", seed=1)
    assert [d.label for d in r.dice] == ["fire", "fire", None]
    assert "(fire)" in str(r)
