"""Critical counts in the two shapes added last (issue 11, item 7): exploding marked dice (``1d6!cs6``,
compound, penetrating) and the marks of the items a group keeps; joint odds against enumerated chains, samples
by chi-square, rolls, and the work estimate."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import factorial, prod
from typing import Any

import pytest

import diceengine as de
from diceengine import api
from diceengine.pmf import WORK
from tests.helpers import chi2_passes, clear_engine_caches, enumerate_dice

Row = tuple[Any, int, int]


Chain = tuple[int, ...]  # the values recorded for one die and the dice its explosions added


def joint(expr: str, **options: Any) -> dict[Row, float]:
    """``{(total, critical successes, critical failures): probability}`` (0 for a field the plan has not)."""
    dist = de.distribution(expr, **options)
    assert "critical_successes" in dist.fields or "critical_failures" in dist.fields, dist.fields
    out: dict[Row, float] = {}
    for o, p in dist.items():
        key = (o.total, o.critical_successes or 0, o.critical_failures or 0)
        out[key] = out.get(key, 0.0) + p
    return out


def assert_joint(actual: dict[Row, float], expected: dict[Row, Any], tol: float) -> None:
    for key in set(actual) | set(expected):
        a, e = actual.get(key, 0.0), float(expected.get(key, 0))
        assert abs(a - e) <= tol, f"P{key} = {a}, expected {e}"


# ------------------------------------------------------------------------------------------ explosion chains
def chains(sides: int, explodes: Callable[[int], bool], depth: int, penetrate: bool = False) \
        -> tuple[dict[Chain, Fraction], Fraction]:
    """Every chain of one d``sides`` with at most ``depth`` added dice, and the probability of the longer ones.
    The explosion tests the face thrown; a penetrating added die records one less. A chain is held as its values
    recorded, sorted (all that sums, marks and ranks read: the order of a chain's faces changes none of them)."""
    def put(table: dict[Chain, Fraction], chain: Chain, p: Fraction) -> None:
        table[chain] = table.get(chain, Fraction(0)) + p

    done: dict[Chain, Fraction] = {}
    going: dict[Chain, Fraction] = {}
    for f in range(1, sides + 1):
        put(going if explodes(f) else done, (f,), Fraction(1, sides))
    for _ in range(depth):
        nxt: dict[Chain, Fraction] = {}
        for chain, p in going.items():
            for f in range(1, sides + 1):
                put(nxt if explodes(f) else done, tuple(sorted(chain + (f - penetrate,))), p / sides)
        going = nxt
    return done, sum(going.values(), Fraction(0))


def dice_multisets(units: dict[Chain, Fraction], n: int) -> list[tuple[tuple[Chain, ...], float]]:
    """Every multiset of ``n`` chains with its probability (exchangeable dice: multinomial weights)."""
    chance = {c: float(p) for c, p in units.items()}
    out = []
    for combo in itertools.combinations_with_replacement(units, n):
        ways = factorial(n) // prod(factorial(c) for c in Counter(combo).values())
        out.append((combo, ways * prod(chance[c] for c in combo)))
    return out


def marks(faces: Sequence[int], cs: Callable[[int], bool] | None, cf: Callable[[int], bool] | None) -> tuple[int, int]:
    """Critical successes and failures among these faces (a face meeting both is a success)."""
    s = sum(1 for v in faces if cs is not None and cs(v))
    f = sum(1 for v in faces if cf is not None and cf(v) and not (cs is not None and cs(v)))
    return s, f


def term_odds(sides: int, n: int, explodes: Callable[[int], bool], depth: int,
              row: Callable[[tuple[Chain, ...]], Row], penetrate: bool = False) -> tuple[dict[Row, float], float]:
    """The joint odds of ``row`` over ``n`` exploding dice, and the mass the cut chains leave out."""
    units, cut = chains(sides, explodes, depth, penetrate)
    out: dict[Row, float] = {}
    for combo, p in dice_multisets(units, n):
        key = row(combo)
        out[key] = out.get(key, 0.0) + p
    return out, float(1 - (1 - cut) ** n)


def units_kept(combo: tuple[Chain, ...], keep: int) -> list[Chain]:
    """The ``keep`` chains of highest sum (which of equal sums does not matter: equal chains, equal marks)."""
    return sorted(combo, key=sum)[len(combo) - keep:]


def six(v: int) -> bool:
    return v == 6


def sum_row(cs: Callable[[int], bool] | None, cf: Callable[[int], bool] | None = None, keep: int | None = None) \
        -> Callable[[tuple[Chain, ...]], Row]:
    """Total = sum of the kept chains; counts = the marked faces of the kept chains."""
    def row(combo: tuple[Chain, ...]) -> Row:
        kept = list(combo) if keep is None else units_kept(combo, keep)
        faces = [v for chain in kept for v in chain]
        return (sum(faces), *marks(faces, cs, cf))
    return row


def each_die_row(keep: int, cs: Callable[[int], bool] | None, drop_low: int = 0) \
        -> Callable[[tuple[Chain, ...]], Row]:
    """explosions="dice": every die thrown ranked on its own; ``keep`` highest (or all but ``drop_low`` lowest)."""
    def row(combo: tuple[Chain, ...]) -> Row:
        faces = sorted(v for chain in combo for v in chain)
        kept = faces[drop_low:] if drop_low else faces[len(faces) - keep:]
        return (sum(kept), *marks(kept, cs, None))
    return row


TERMS: list[tuple[str, dict[str, Any], int, int, Callable[[int], bool], int, bool, Any]] = [
    # expression, options, sides, dice, explodes on, depth enumerated, penetrating, row
    ("1d6!cs6", {}, 6, 1, six, 14, False, sum_row(six)),
    ("3d6!!cs6", {}, 6, 3, six, 12, False, sum_row(six)),  # compound: the same sum, every face of it marked
    ("2d6!pcs5", {}, 6, 2, six, 13, True, sum_row(lambda v: v == 5)),
    ("3d6!cs6kh2", {}, 6, 3, six, 12, False, sum_row(six, keep=2)),
    ("4d6!cs6kh3", {}, 6, 4, six, 7, False, sum_row(six, keep=3)),
    ("3d6!cs6>=5", {}, 6, 3, six, 12, False,
     lambda c: (sum(v >= 5 for ch in c for v in ch), sum(v == 6 for ch in c for v in ch), 0)),
    ("3d6!!cs6>=5", {}, 6, 3, six, 12, False,  # compound success: the chain's sum counts once
     lambda c: (sum(sum(ch) >= 5 for ch in c), sum(v == 6 for ch in c for v in ch), 0)),
    ("1d20!cs20cf1", {}, 20, 1, lambda v: v == 20, 8, False, sum_row(lambda v: v == 20, lambda v: v == 1)),
    ("2d6!cs6cf1kh1", {}, 6, 2, six, 13, False, sum_row(six, lambda v: v == 1, keep=1)),
    ("1d6!>=5cs6cf<=2", {}, 6, 1, lambda v: v >= 5, 13, False, sum_row(six, lambda v: v <= 2)),
    ("2d6!p>=5cs>=5", {}, 6, 2, lambda v: v >= 5, 11, True, sum_row(lambda v: v >= 5)),
    ("4d6!cs6kh3", {"explosions": "dice"}, 6, 4, six, 7, False, each_die_row(3, six)),
    ("3d4!cs4kh2", {"explosions": "dice"}, 4, 3, lambda v: v == 4, 15, False, each_die_row(2, lambda v: v == 4)),
    ("2d4!cs4dl1", {"explosions": "dice"}, 4, 2, lambda v: v == 4, 15, False,
     each_die_row(0, lambda v: v == 4, drop_low=1)),
    ("3d4!cs4cf1dh1dl1", {"explosions": "dice"}, 4, 3, lambda v: v == 4, 15, False,  # the middle dice
     lambda c: (sum(m := sorted(v for ch in c for v in ch)[1:-1]), *marks(m, lambda v: v == 4, lambda v: v == 1))),
    # d20: the highest and the lowest thrown, each the first thrown among equals: one die when all are equal
    ("3d4!cs4cf1kh1kl1", {"explosions": "dice", "dialect": "d20"}, 4, 3, lambda v: v == 4, 15, False,
     lambda c: (sum(m := sorted({min(v for ch in c for v in ch), max(v for ch in c for v in ch)})),
                *marks(m, lambda v: v == 4, lambda v: v == 1))),
]


@pytest.mark.parametrize("expr, options, sides, n, explodes, depth, pen, row", TERMS,
                         ids=[f"{t[0]}{'-dice' if t[1] else ''}{'-d20' if 'dialect' in t[1] else ''}" for t in TERMS])
def test_exploding_marked_dice_joint_odds_match_enumerated_chains(expr, options, sides, n, explodes, depth, pen,
                                                                    row):
    expected, cut = term_odds(sides, n, explodes, depth, row, pen)
    dist = de.distribution(expr, **options)
    assert 0 < dist.truncated < 1e-11  # the chains the exact odds leave out are reported
    assert_joint(joint(expr, **options), expected, max(cut, 0) + 1e-9)


def test_a_compound_die_marks_each_face_not_its_sum():
    # 1d6!!cs6: the total 13 is 6+6+1 (two faces marked); testing the mark on the sum would count none
    j = joint("1d6!!cs6")
    assert abs(j[(13, 2, 0)] - 1 / 216) < 1e-15 and (13, 0, 0) not in j
    assert abs(sum(p for (t, s, _), p in j.items() if s == 0) - 5 / 6) < 1e-12


def test_a_penetrating_mark_tests_the_value_recorded():
    # 1d6!pcs5: a 6 explodes; the added die records one less, so an added 6 records 5 and is marked
    j = joint("1d6!pcs5")
    assert abs(j[(5, 1, 0)] - 1 / 6) < 1e-15  # a first 5
    assert abs(j[(11, 1, 0)] - 1 / 216) < 1e-15  # 6, then 6 (recorded 5, marked), then 1 (recorded 0)
    assert abs(j[(6, 0, 0)] - 1 / 36) < 1e-15  # 6 then 1 (recorded 0)


def test_the_readme_numbers_are_the_closed_forms():
    # a natural 20 on the marked die and less on the other; some 6 among four first faces (a 6 explodes, so
    # its die ranks above every die without one)
    assert abs(de.distribution("{1d20cs20+5, 1d20+5}kh1").chance("critical_successes") - 1 / 20 * 19 / 20) < 1e-15
    assert abs(de.distribution("4d6!cs6kh3").chance("critical_successes") - (1 - (5 / 6) ** 4)) < 1e-12


# ------------------------------------------------------------------------------------------ groups that keep
def d(s: int) -> list[int]:
    return list(range(1, s + 1))


Item = tuple[int, Callable[[tuple[int, ...]], Row]]  # dice in the item, (value, cs, cf) of their faces


def item(dice: int, fn: Callable[[tuple[int, ...]], Row]) -> Item:
    return dice, fn


def stable_window(values: Sequence[Any], lo: int, hi: int) -> list[bool]:
    """The roll's rule for a window of ranks: a stable sort, of equal values the later item ranks higher."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    kept = set(order[lo:hi])
    return [i in kept for i in range(len(values))]


def group_odds(faces: list[list[int]], items: list[Item], kept: Callable[[list[Any]], list[bool]],
               score: Callable[[Any], int] | None = None) -> dict[Row, Fraction]:
    """Every face of every die, split among the items; the group keeps items by ``kept`` of their values."""
    def row(combo: tuple[int, ...]) -> Row:
        rows, at = [], 0
        for n, fn in items:
            rows.append(fn(combo[at:at + n]))
            at += n
        chosen = [r for r, k in zip(rows, kept([r[0] for r in rows])) if k]
        total = sum(r[0] if score is None else score(r[0]) for r in chosen)
        return total, sum(r[1] for r in chosen), sum(r[2] for r in chosen)
    return enumerate_dice(faces, row)


def crit(v: int, top: int) -> int:
    return int(v == top)


def d20_selection(values: list[Any], picks: list[tuple[str, int]]) -> list[bool]:
    """d20's one keep operator joining selectors: ``h``/``l`` the n highest / lowest (the first thrown among equal
    values), ``>``: those above n."""
    chosen: set[int] = set()
    for kind, n in picks:
        if kind == "h":
            chosen.update(sorted(range(len(values)), key=lambda i: (-values[i], i))[:n])
        elif kind == "l":
            chosen.update(sorted(range(len(values)), key=lambda i: (values[i], i))[:n])
        else:
            chosen.update(i for i, v in enumerate(values) if v > n)
    return [i in chosen for i in range(len(values))]


GROUPS: list[tuple[str, dict[str, Any], list[list[int]], list[Item], Callable[[list[Any]], list[bool]]]] = [
    ("{1d20cs20+5, 1d20+5}kh1", {}, [d(20)] * 2,
     [item(1, lambda c: (c[0] + 5, crit(c[0], 20), 0)), item(1, lambda c: (c[0] + 5, 0, 0))],
     lambda v: stable_window(v, 1, 2)),
    ("{2d20cs20, 1d20cs20+3}kl1", {}, [d(20)] * 3,
     [item(2, lambda c: (sum(c), crit(c[0], 20) + crit(c[1], 20), 0)), item(1, lambda c: (c[0] + 3, crit(c[0], 20), 0))],
     lambda v: stable_window(v, 0, 1)),
    ("{1d4cs4, 1d4cs4, 1d4}kh2", {}, [d(4)] * 3,
     [item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], crit(c[0], 4), 0)),
      item(1, lambda c: (c[0], 0, 0))], lambda v: stable_window(v, 1, 3)),
    ("{1d4cs4, 1d4}kh1", {}, [d(4)] * 2, [item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], 0, 0))],
     lambda v: stable_window(v, 1, 2)),
    ("{1d4cs4, 1d4}kl1", {}, [d(4)] * 2, [item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], 0, 0))],
     lambda v: stable_window(v, 0, 1)),
    ("{1d4, 1d4cs4cf1}kh1", {}, [d(4)] * 2,
     [item(1, lambda c: (c[0], 0, 0)), item(1, lambda c: (c[0], crit(c[0], 4), crit(c[0], 1)))],
     lambda v: stable_window(v, 1, 2)),
    ("{1d4cs4cf1, 1d4cf1, 1d4cs4, 1d4}dl1dh1", {}, [d(4)] * 4,
     [item(1, lambda c: (c[0], crit(c[0], 4), crit(c[0], 1))), item(1, lambda c: (c[0], 0, crit(c[0], 1))),
      item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], 0, 0))],
     lambda v: stable_window(v, 1, 3)),
    ("{1d6cs6 + 1d4cf1, 2d4cs4}kh1", {}, [d(6), d(4), d(4), d(4)],
     [item(2, lambda c: (c[0] + c[1], crit(c[0], 6), crit(c[1], 1))),
      item(2, lambda c: (c[0] + c[1], crit(c[0], 4) + crit(c[1], 4), 0))], lambda v: stable_window(v, 1, 2)),
    ("(1d20cs20, 1d20)kh1", {"dialect": "d20"}, [d(20)] * 2,
     [item(1, lambda c: (c[0], crit(c[0], 20), 0)), item(1, lambda c: (c[0], 0, 0))],
     lambda v: stable_window(v, 1, 2)),
    ("(1d4cs4, 1d4, 1d4cf1)kh1kl1", {"dialect": "d20"}, [d(4)] * 3,
     [item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], 0, 0)),
      item(1, lambda c: (c[0], 0, crit(c[0], 1)))], lambda v: d20_selection(v, [("h", 1), ("l", 1)])),
    ("(1d4cs4, 1d4cs4, 1d4cf1)k>2", {"dialect": "d20"}, [d(4)] * 3,
     [item(1, lambda c: (c[0], crit(c[0], 4), 0)), item(1, lambda c: (c[0], crit(c[0], 4), 0)),
      item(1, lambda c: (c[0], 0, crit(c[0], 1)))], lambda v: d20_selection(v, [(">", 2)])),
]


@pytest.mark.parametrize("expr, options, faces, items, kept", GROUPS, ids=[g[0] for g in GROUPS])
def test_kept_items_marks_joint_odds_match_enumeration(expr, options, faces, items, kept):
    assert_joint(joint(expr, **options), group_odds(faces, items, kept), 1e-12)


def test_a_group_counting_successes_counts_the_kept_items_marks():
    faces = [d(6), d(6), d(6)]
    items = [item(1, lambda c: (c[0] + 1, crit(c[0], 6), 0)), item(2, lambda c: (sum(c), crit(c[0], 6), 0))]
    expected = group_odds(faces, items, lambda v: stable_window(v, 1, 2), score=lambda v: int(v >= 7))
    assert_joint(joint("{1d6cs6+1, 1d6cs6+1d6}kh1>=7"), expected, 1e-12)


def test_ties_keep_the_item_the_roll_keeps():
    # both show 4: kh1 keeps the later item (unmarked), kl1 the earlier (marked)
    high, low = joint("{1d4cs4, 1d4}kh1"), joint("{1d4cs4, 1d4}kl1")
    assert abs(high[(4, 1, 0)] - 3 / 16) < 1e-15  # the marked 4 kept only over a lower face
    assert abs(high[(4, 0, 0)] - 4 / 16) < 1e-15  # the unmarked 4: over anything, ties included
    assert abs(low[(4, 1, 0)] - 1 / 16) < 1e-15  # both 4: the earlier, marked, kept
    for seed in range(300):
        r = de.roll("{1d4cs4, 1d4}kh1", seed=seed)
        a, b = (die.value for die in r.dice)
        assert r.critical_successes == int(a == 4 and b < 4)


def test_an_exploding_item_in_a_kept_group():
    units, cut = chains(6, six, 13)
    expected: dict[Row, float] = {}
    for chain, p in units.items():
        for other in d(6):
            values = [sum(chain), other]
            k = stable_window(values, 1, 2)
            s = sum(v == 6 for v in chain) if k[0] else 0
            f = int(other == 1) if k[1] else 0
            key = (max(values), s, f)
            expected[key] = expected.get(key, 0.0) + float(p) / 6
    assert_joint(joint("{1d6!cs6, 1d6cf1}kh1"), expected, float(cut) + 1e-9)


# ------------------------------------------------------------------------------------------ samples and rolls
SAMPLED = [(t[0], t[1]) for t in TERMS if t[0] not in ("4d6!cs6kh3",) or t[1]] + [("4d6!cs6kh3", {})] + \
    [(g[0], g[1]) for g in GROUPS] + [("{1d6!cs6, 1d6cf1}kh1", {})]


@pytest.mark.parametrize("expr, options", SAMPLED, ids=[f"{e}{'-' + str(o) if o else ''}" for e, o in SAMPLED])
def test_samples_pass_a_chi_square_against_the_joint_odds(expr, options):
    n = 20_000
    s = de.sample(expr, n, seed=7, **options)
    zeros, fields = [0] * n, set(s)
    rows = zip(s["total"].tolist(), s["critical_successes"].tolist() if "critical_successes" in fields else zeros,
               s["critical_failures"].tolist() if "critical_failures" in fields else zeros)
    assert chi2_passes([(int(t), int(a), int(b)) for t, a, b in rows], joint(expr, **options))


def kept_marks(marked: Sequence[bool], window: tuple[int, int], top: int) -> Callable[[list[int]], tuple[int, int]]:
    """A group of single dice: the marked items the roll's rule keeps showing ``top``."""
    def count(faces: list[int]) -> tuple[int, int]:
        kept = stable_window(faces, *window)
        return sum(k and m and v == top for v, k, m in zip(faces, kept, marked)), 0
    return count


def two_then_one(faces: list[int]) -> tuple[int, int]:
    """{2d20cs20, 1d20cs20+3}kl1: the first item kept when not above the second (the earlier among equals)."""
    a1, a2, b = faces
    return ((a1 == 20) + (a2 == 20) if a1 + a2 <= b + 3 else int(b == 20)), 0


ROLL_RULES: dict[str, Callable[[list[int]], tuple[int, int]]] = {
    "1d6!cs6": lambda f: marks(f, six, None), "3d6!!cs6": lambda f: marks(f, six, None),
    "2d6!pcs5": lambda f: marks(f, lambda v: v == 5, None), "3d6!cs6>=5": lambda f: marks(f, six, None),
    "1d20!cs20cf1": lambda f: marks(f, lambda v: v == 20, lambda v: v == 1),
    "{1d20cs20+5, 1d20+5}kh1": lambda f: (int(f[0] == 20 and f[0] > f[1]), 0),
    "{2d20cs20, 1d20cs20+3}kl1": two_then_one,
    "{1d4cs4, 1d4cs4, 1d4}kh2": kept_marks([True, True, False], (1, 3), 4),
}


KEPT_RULES: dict[str, Callable[[list[int]], tuple[int, int]]] = {  # on the faces of the kept dice
    "4d6!cs6kh3": lambda f: marks(f, six, None),
}


ROLLED = [(e, {}) for e in ROLL_RULES] + [("4d6!cs6kh3", {}), ("4d6!cs6kh3", {"explosions": "dice"}),
                                          ("(1d20cs20, 1d20)kh1", {"dialect": "d20"})]


@pytest.mark.parametrize("expr, options", ROLLED, ids=[f"{e}{'-' + str(o) if o else ''}" for e, o in ROLLED])
def test_a_roll_counts_its_kept_critical_dice(expr, options):
    seen = set()
    for seed in range(300):
        r = de.roll(expr, seed=seed, **options)
        kept = [die for die in r.dice if die.kept]
        counts = (sum(die.critical == "success" for die in kept), sum(die.critical == "failure" for die in kept))
        assert (r.critical_successes or 0, r.critical_failures or 0) == counts
        if expr in ROLL_RULES:  # every die's face (one less for a penetrating added die), the rule applied here
            assert counts == ROLL_RULES[expr]([die.value for die in r.dice])
        elif expr in KEPT_RULES:
            assert counts == KEPT_RULES[expr]([die.value for die in kept])
        else:
            assert counts == (int(r.dice[0].value == 20 and r.dice[0].value > r.dice[1].value), 0)
        seen.add(counts)
    assert len(seen) >= 2


# ------------------------------------------------------------------------------------------ the work budget
@pytest.mark.parametrize("expr, options", [("10d6!cs6", {}), ("4d6!cs6kh3", {}), ("3d6!!cs6>=5", {}),
                                           ("1d6!>=4cs6cf1", {}), ("4d6!cs6kh3", {"explosions": "dice"}),
                                           ("{1d20cs20+5, 1d20+5}kh1", {}), ("{10d20cs20, 10d20cs20}kh1", {}),
                                           ("{1d4cs4, 1d4cs4, 1d4}kh2", {}), ("{1d6!cs6, 1d6cf1}kh1", {})])
def test_estimates_bound_the_work_done(expr, options):
    clear_engine_caches()  # a plan cached by an earlier test would count no work
    cost = api.plan(expr, **options).exact_cost()
    WORK.work = 0
    de.distribution(expr, **options)
    assert 0 < WORK.work <= cost.work


@pytest.mark.parametrize("expr", ["20d100!cs100", "{5d20cs20, 5d20cs20, 5d20cs20}kh2", "30d6!cs6cf1"])
def test_too_much_work_is_refused_before_working(expr):
    clear_engine_caches()
    WORK.work = 0
    with pytest.raises(de.DiceLimitError):
        de.distribution(expr)
    assert WORK.work == 0
    assert de.roll(expr, seed=1).total > 0


@pytest.mark.parametrize(("expr", "options"), [("10d6cs6", {}), ("10d6cs6cf1", {}), ("4d6!cs6", {}),
                                               ("6d6cs>=5cf<=2kh3", {}), ("1d20cs20", {}),
                                               ("8d10!cs>=9kh4", {"explosions": "dice"}), ("2d6cs6+3d8cs8", {})])
def test_splitting_a_term_by_its_counts_costs_what_it_estimates(expr, options):
    """The joint odds of a marked term split its tallied distribution by pair of counts: that split's counted
    work is within its estimate (one pass over the support, one array per pair), and not far below it."""
    from diceengine.systems.standard.evaluate.leaves import CriticalTerm

    clear_engine_caches()
    for term in api.plan(expr, **options).marked:
        assert isinstance(term, CriticalTerm)
        estimate = term.joint_cost()[0].work - term.tallied.exact_cost()[0].work
        term.tallied.pmf()  # a cache it fills (every die ranked) is filled before counting
        WORK.work = 0.0
        term.tallied.pmf()  # what joint() spends on the tallied distribution: again, or nothing if cached
        alone = WORK.work
        WORK.work = 0.0
        term.joint()
        split = WORK.work - alone
        assert 0.3 * estimate <= split <= estimate
