"""The D6 codes and the Wild Die built from the die algebra (issue 33): the exact odds of small codes under every
option against an enumeration written here (rule texts ``000`` and ``003``), and the algebra's operations they read
(``Die.given``, ``Die.repeat_cost``, ``Die.keep_cost``, ``Throw.by_added``, ``Throw.thrower``) against their own
enumerations."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import numpy as np
import pytest

import diceengine as de
from diceengine.algebra import Die, Pool, Throw
from diceengine.pmf import WORK

#: chains of sixes enumerated on an exploding die: what is left, 6**-21, is far below the tolerance
SIXES = 20


def exploding_chains() -> list[tuple[int, int, int, float]]:
    """``(first face, total, sixes, chance)`` of every chain of a d6 thrown again and added on each 6 (text 003:
    « un 6 ... on le relance et on ajoute »), up to :data:`SIXES` sixes."""
    out = []
    for k in range(SIXES + 1):
        for last in range(1, 6):
            first = 6 if k else last
            out.append((first, 6 * k + last, k, 6.0 ** -(k + 1)))
    return out


def bonus_totals(character_point: bool, explodes: bool) -> dict[int, float]:
    """The character point's die: none, a plain d6, or a d6 exploding like the Wild Die."""
    if not character_point:
        return {0: 1.0}
    if not explodes:
        return {f: 1 / 6 for f in range(1, 7)}
    out: dict[int, float] = defaultdict(float)
    for _, total, _, p in exploding_chains():
        out[total] += p
    return out


def enumerated(dice: int, pips: int, complication: str, wild: bool, character_point: bool,
               explodes: bool) -> dict[tuple[int, bool, int], float]:
    """``{(total, complication, explosions): chance}`` of a code, every face of every die listed."""
    normal = dice - 1 if wild else dice
    plain: dict[tuple[int, int], float] = defaultdict(float)  # (sum, highest) of the normal dice
    for faces in itertools.product(range(1, 7), repeat=normal):
        plain[(sum(faces), max(faces, default=0))] += 6.0 ** -normal
    wild_throws = exploding_chains() if wild else [(0, 0, 0, 1.0)]
    bonus = bonus_totals(character_point, explodes)
    out: dict[tuple[int, bool, int], float] = defaultdict(float)
    for (total, highest), p in plain.items():
        for first, wild_total, sixes, q in wild_throws:
            flagged = wild and first == 1 and complication != "none"
            if flagged and complication == "remove_highest":
                kept = total - highest  # the Wild Die and the highest other die removed
            else:
                kept = total + wild_total
            for extra, r in bonus.items():
                out[(kept + extra + pips, flagged, sixes)] += p * q * r
    return out


def engine_rows(code: str, **options: object) -> dict[tuple[int, bool, int], float]:
    dist = de.distribution(code, "d6wild", **options)
    out: dict[tuple[int, bool, int], float] = defaultdict(float)
    for o, p in dist.items():
        out[(o.total, bool(o.complication), o.explosions)] += p
    return out


def same_items(got: list[tuple[int, float]], expected: list[tuple[int, float]], tol: float = 1e-15) -> bool:
    """The same outcomes in the same order, each chance within ``tol``."""
    return [v for v, _ in got] == [v for v, _ in expected] and all(
        abs(p - q) <= tol for (_, p), (_, q) in zip(got, expected))


OPTIONS = [{"complication": c, "wild": w, "character_point": cp, "character_point_explodes": cpe}
           for c in ("flag", "remove_highest", "none") for w in (True, False)
           for cp, cpe in ((False, False), (True, False), (True, True))]


@pytest.mark.parametrize("dice,pips", [(1, 0), (2, 1), (3, 0), (4, 2)])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_wild_die_codes_against_enumeration(dice, pips, options):
    """Every (total, complication, explosions) of a small code, under every option of the system, to 1e-12."""
    expected = enumerated(dice, pips, **{k: v for k, v in options.items() if k != "character_point_explodes"},
                          explodes=bool(options["character_point_explodes"]))
    got = engine_rows(f"{dice}D+{pips}", **options)
    for key in set(expected) | set(got):
        assert abs(got.get(key, 0.0) - expected.get(key, 0.0)) < 1e-12, (key, got.get(key), expected.get(key))


@pytest.mark.parametrize("code", ["1D", "2D+1", "3D+2", "4D"])
def test_classic_codes_against_enumeration(code):
    """Text 000: a code ``nD+p`` is n six-sided dice added, plus p."""
    dice, pips = int(code[0]), int(code[3:] or 0)
    expected: dict[int, float] = defaultdict(float)
    for faces in itertools.product(range(1, 7), repeat=dice):
        expected[sum(faces) + pips] += 6.0 ** -dice
    got = de.distribution(code, "d6").marginal("total")
    assert set(got) == set(expected)
    for total, p in expected.items():
        assert abs(got[total] - p) < 1e-12


def test_a_check_against_a_rolled_difficulty_reads_both_codes_enumerated():
    """``2D+1 vs 1D+2`` with the Wild Die on both sides (the actor wins ties): the chance of success."""
    actor = engine_rows("2D+1")
    opponent = engine_rows("1D+2")
    expected = sum(p * q for (a, _, _), p in enumerated(2, 1, "flag", True, False, False).items()
                   for (b, _, _), q in enumerated(1, 2, "flag", True, False, False).items() if a >= b)
    assert sum(actor.values()) == pytest.approx(1.0, abs=1e-12) and sum(opponent.values()) == pytest.approx(1, abs=1e-12)
    assert de.distribution("2D+1 vs 1D+2", "d6wild").chance("success") == pytest.approx(expected, abs=1e-12)


# ---------------------------------------------------------------- the algebra's operations


def test_given_is_the_die_conditioned_by_enumeration():
    die = Die.of([1, 1, 2, 3, 5, 8])
    chance, given = die.given(lambda v: v % 2 == 1)
    assert chance == pytest.approx(4 / 6, abs=1e-15)
    assert same_items(given.items(), [(1, 2 / 4), (3, 1 / 4), (5, 1 / 4)])
    chance, given = die.given({2, 8, 99})
    assert chance == pytest.approx(2 / 6, abs=1e-15)
    assert (given.min(), given.max(), given.probability(2)) == (2, 8, pytest.approx(0.5, abs=1e-15))


def test_given_an_outcome_the_die_never_shows_is_the_engines_error():
    with pytest.raises(de.DiceValueError, match="at least one face"):
        Die.uniform(6).given({7})


@pytest.mark.parametrize("faces,n", [(range(1, 7), 0), (range(1, 7), 1), (range(1, 7), 5), ([0, 2, 5], 12)])
def test_repeat_cost_is_the_work_repeat_counts(faces, n):
    """The estimate of :meth:`Die.repeat` is the work its convolutions count, and the length it gives is its span."""
    die = Die.of(faces)
    cost, length = die.repeat_cost(n)
    WORK.work = 0
    total = die.repeat(n)
    assert cost.work == WORK.work
    assert length == total.max() - total.min() + 1


@pytest.mark.parametrize("n,keep", [(3, 2), (5, 4), (6, 1)])
def test_keep_cost_is_the_work_of_the_pool_kept(n, keep):
    die = Die.uniform(6)
    WORK.work = 0
    Pool.of(die, n).lowest(keep)
    assert die.keep_cost(n, keep).work == WORK.work


def test_the_lowest_of_a_pool_is_the_highest_removed_by_enumeration():
    """Text 003's complication reading: the highest of the normal dice removed, the others added."""
    expected: dict[int, float] = defaultdict(float)
    for faces in itertools.product(range(1, 7), repeat=4):
        expected[sum(faces) - max(faces)] += 6.0 ** -4
    got = Pool.of(Die.uniform(6), 4).lowest(3)
    assert same_items(got.items(), sorted(expected.items()))


def test_by_added_splits_the_exploding_throw_by_the_sixes():
    """The Wild Die: k sixes (chance 6**-k * 5/6), then one of 1..5: the total given k is 6k+1 .. 6k+5 evenly."""
    throw = Throw.of(range(1, 7)).explode({6})
    parts, left = throw.by_added
    assert [k for k, _, _ in parts] == list(range(len(parts)))
    for k, chance, die in parts:
        assert chance == pytest.approx(6.0 ** -k * 5 / 6, rel=1e-12)
        assert same_items(die.items(), [(6 * k + f, 0.2) for f in range(1, 6)])
    assert sum(c for _, c, _ in parts) + left == pytest.approx(1.0, abs=1e-15)
    assert 0 < left == pytest.approx(6.0 ** -len(parts), rel=1e-9)
    assert Die.mix((d, c) for _, c, d in parts).same(Die(throw.exact().pmf), 1e-15)


def test_by_added_of_a_capped_throw_ends_at_its_depth():
    parts, left = Throw.of(range(1, 5)).explode({4}, depth=2).by_added
    assert left == 0.0
    assert [(k, round(c, 12)) for k, c, _ in parts] == [(0, 0.75), (1, 0.1875), (2, 0.0625)]
    assert same_items(parts[2][2].items(), [(8 + f, 0.25) for f in range(1, 5)])


@pytest.mark.parametrize("faces", [range(1, 7), (0, 0, 1, 4)])
def test_thrower_draws_as_face_draws(faces):
    """``n`` faces drawn at once are the faces :meth:`Throw.face` draws from the same uniform numbers."""
    throw = Throw.of(faces)
    a, b = random.Random(11), random.Random(11)
    assert throw.thrower(a.random, 9) == [throw.face(b.random) for _ in range(9)]
    assert throw.thrower(a.random, 0) == []


@pytest.mark.parametrize("faces", [range(1, 7), (1, 2, 2, 9)])
def test_faces_of_a_shape_are_the_same_draws_as_a_row(faces):
    throw = Throw.of(faces)
    block = throw.faces_of((4, 3), np.random.default_rng(3))
    row = throw.faces_of(12, np.random.default_rng(3))
    assert block.shape == (4, 3) and block.ravel().tolist() == row.tolist()
    assert set(row.tolist()) <= set(faces)
