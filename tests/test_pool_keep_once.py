"""Keep / drop of a mixed pool written once (issue 33): the die algebra's placing of ranked dice
(``diceengine.algebra.pool.kept_total`` / ``kept_sums``) is what :meth:`Pool.ranked` (window, positions) and the
standard notation's pooled keep (``{4d6-3d8}kh3``, ``{2d4*2d6}k2``) both read. Every expected value is an
enumeration of every throw written here (fractions); the cases are generated from fixed seeds."""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest

import diceengine as de
from diceengine import api
from diceengine.algebra import Die, Pool
from diceengine.algebra.pool import kept_sums, kept_total, placing_steps, placing_work
from diceengine.limits import PYTHON_STEP
from diceengine.pmf import WORK
from tests.helpers import assert_close, clear_engine_caches
from tests.test_pooled_keep import _pooled

FACES = [[1, 2, 3], [1, 2, 3, 4], [-1, 0, 1], [-2, 0, 2], [1, 1, 2], [0, 5], [2, 3, 3, 7]]


def _enumerate(groups: list[tuple[list[int], int]], weights: list[int], highest: bool,
               scale: list[int] | None) -> tuple[dict[int, Fraction], dict[tuple[int, ...], Fraction]]:
    """Every throw of the groups' dice (``(faces, count)`` each, a face listed twice twice as likely): ranked
    highest (or lowest) first, equal faces in the groups' order; the total of each die times its rank's weight
    times its group's, and the tuple of each group's weighted sum."""
    dice = [(g, faces) for g, (faces, n) in enumerate(groups) for _ in range(n)]
    total = math.prod(len(f) for _, f in dice)
    sums: dict[int, Fraction] = {}
    joint: dict[tuple[int, ...], Fraction] = {}
    for throw in itertools.product(*[f for _, f in dice]):
        order = sorted(range(len(throw)), key=lambda k: (-throw[k] if highest else throw[k], dice[k][0]))
        per_group = [0] * len(groups)
        for rank, k in enumerate(order):
            per_group[dice[k][0]] += weights[rank] * throw[k]
        value = sum(s * (1 if scale is None else scale[g]) for g, s in enumerate(per_group))
        sums[value] = sums.get(value, 0) + Fraction(1, total)
        joint[tuple(per_group)] = joint.get(tuple(per_group), 0) + Fraction(1, total)
    return sums, joint


def _cases(seed: int, n: int) -> list[tuple[list[tuple[list[int], int]], list[int], bool, list[int] | None]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        groups = [(rng.choice(FACES), rng.randint(0, 3)) for _ in range(rng.randint(1, 3))]
        size = sum(c for _, c in groups)
        shape = rng.random()
        if shape < 0.4:  # a window of ranks, as keep / drop
            lo = rng.randint(0, size)
            hi = rng.randint(lo, size)
            weights = [1 if lo <= i < hi else 0 for i in range(size)]
        else:  # any weights, negative and repeated ranks too
            weights = [rng.choice([0, 0, 1, 2, -1]) for _ in range(size)]
        scale = None if rng.random() < 0.4 else [rng.choice([1, -1, 2]) for _ in groups]
        out.append((groups, weights, rng.random() < 0.5, scale))
    return out


CASES = _cases(37, 120)


@pytest.mark.parametrize("groups, weights, highest, scale", CASES)
def test_the_placing_against_an_enumeration(groups, weights, highest, scale):
    dice = [(Die.of(faces), n) for faces, n in groups]
    sums, joint = _enumerate(groups, weights, highest, scale)
    assert_close(dict(kept_total(dice, weights, highest, scale).items()), sums, tol=1e-12)
    got = {k: p for k, p in kept_sums(dice, weights, highest).items() if p > 0}
    assert_close(got, joint, tol=1e-12)


D20, D4, D12 = list(range(1, 21)), [1, 2, 3, 4], list(range(1, 13))
WIDE = [([(D20, 8)], [1] * 8, True, None),  # every rank weighs: the sums held grow with the dice placed
        ([(D20, 5)], [1, 1, 1, 1, 0], False, None),
        ([(D12, 4)], [2, 0, 1, 1], True, None),
        ([(D20, 5), (D4, 5)], [0, 0] + [1] * 8, False, [1, -1])]


@pytest.mark.parametrize("groups, weights, highest, scale", CASES[:40] + WIDE)
def test_the_estimates_are_never_under_the_work(groups, weights, highest, scale):
    dice = [(Die.of(faces), n) for faces, n in groups]
    for joint in (False, True):
        WORK.work = 0
        if joint:
            kept_sums(dice, weights, highest)
        else:
            kept_total(dice, weights, highest, scale)
        counted = WORK.work / PYTHON_STEP
        assert 0 < counted <= placing_work(dice, weights, None if joint else scale, joint=joint)
        # the bound the pooled keep refuses past (MAX_POOLED_STEPS): pinned, so that it refuses what it refused
        steps = len({v for faces, _ in groups for v in faces}) * math.prod(n + 1 for _, n in groups) * \
            max(n + 1 for _, n in groups) * len(groups)
        assert placing_steps(dice) == steps


def test_ties_rank_in_the_order_the_groups_are_given():
    d2 = Die.of([1, 2])
    # one die each, weight on the first rank: on a tie the first group's die takes it; (1, 2) highest first: the
    # second's 2; (2, 1) lowest first: the second's 1
    assert kept_sums([(d2, 1), (d2, 1)], [1, 0]) == pytest.approx({(2, 0): 0.5, (1, 0): 0.25, (0, 2): 0.25})
    assert kept_sums([(d2, 1), (d2, 1)], [1, 0], highest=False) == pytest.approx(
        {(1, 0): 0.5, (2, 0): 0.25, (0, 1): 0.25})


def test_pool_ranked_reads_the_placing():
    """Pool.window / positions / ranked of a mixed pool against an enumeration (the one loop's first reader)."""
    pool = Pool([Die.uniform(4), Die.uniform(4), Die.of([-1, 0, 1]), Die.uniform(6)])
    faces = [[1, 2, 3, 4], [1, 2, 3, 4], [-1, 0, 1], [1, 2, 3, 4, 5, 6]]
    for weights, highest in [([1, 1, 0, 0], True), ([0, 1, 1, 0], False), ([2, 0, -1, 1], True)]:
        expected: dict[int, Fraction] = {}
        for throw in itertools.product(*faces):
            ranked = sorted(throw, reverse=highest)
            v = sum(w * f for w, f in zip(weights, ranked))
            expected[v] = expected.get(v, 0) + Fraction(1, 4 * 4 * 3 * 6)
        assert_close(dict(pool.ranked(weights, "highest" if highest else "lowest").items()), expected, tol=1e-12)


# ---- the standard notation's pooled keep, generated: several terms, negative ones, counts, products, max

TERMS = [("d3", [1, 2, 3]), ("d4", [1, 2, 3, 4]), ("dF", [-1, 0, 1]), ("d{-2,0,2}", [-2, 0, 2]),
         ("d{1,1,2}", [1, 1, 2]), ("d6", [1, 2, 3, 4, 5, 6])]


def _window(which: str, k: int):
    return {"kh": lambda n: (max(0, n - k), n), "kl": lambda n: (0, min(k, n)),
            "dh": lambda n: (0, max(0, n - k)), "dl": lambda n: (min(k, n), n)}[which]


def _signed(signs: list[int], const: int, sums: list[int]) -> int:
    return sum(x * y for x, y in zip(signs, sums)) + const


def _max_first_two(sums: list[int]) -> int:
    return max(sums[0], sums[1]) + sum(sums[2:])


def _expressions(seed: int, n: int) -> list[tuple[str, list, object, object]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        picked = [(rng.randint(0, 3), *rng.choice(TERMS)) for _ in range(rng.randint(2, 3))]
        if math.prod(len(f) ** c for c, _, f in picked) > 4000:
            continue
        texts = [f"{c}{t}" for c, t, _ in picked]
        shape = rng.choice(["sum", "sum", "product", "max"])
        if shape == "sum":
            signs = [rng.choice([1, 1, -1]) for _ in picked]
            const = rng.choice([0, 0, 3, -2])
            item = ("-" if signs[0] < 0 else "") + texts[0] + "".join(
                ("+" if s > 0 else "-") + t for s, t in zip(signs[1:], texts[1:]))
            item += f"{const:+d}" if const else ""
            value = functools.partial(_signed, signs, const)
        elif shape == "product":
            item = "*".join(texts)
            value = math.prod
        else:
            item = f"max({texts[0]}, {texts[1]})" + "".join("+" + t for t in texts[2:])
            value = _max_first_two
        which, k = rng.choice(["kh", "kl", "dh", "dl"]), rng.randint(0, 4)
        out.append(("{" + item + "}" + f"{which}{k}", [(c, f) for c, _, f in picked], _window(which, k), value))
    return out


EXPRESSIONS = _expressions(33, 80)


@pytest.mark.parametrize("expr, terms, window, value", EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_generated_pooled_keeps_against_an_enumeration(expr, terms, window, value):
    expected = _pooled(terms, window, value)
    assert_close(de.distribution(expr).marginal(), expected, tol=1e-12)


@pytest.mark.parametrize("expr", [e[0] for e in EXPRESSIONS[:40]] + ["{4d6+3d8}kh3", "{4d6-3d8}kl2", "{3d6*3d8}d2",
                                                                       "{8d6+8d8}dh1dl1", "{10d20+10d4}d2"])
def test_the_pooled_keeps_estimate_is_never_under_its_work(expr):
    clear_engine_caches()
    cost = api.plan(expr, "standard").exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert 0 < WORK.work <= cost.work
