"""The explosion chain written once (issue 33): :func:`~diceengine.algebra.chains.keyed_chains` against chains of
small dice enumerated throw by throw in this file (keys counted by hand), :func:`chains_total` and :func:`chains`
as its one-key and by-added-throws cases, and the standard term's exact odds that now read it (every face counted,
ranked or not, critical marks, sums, penetration, caps, re-rolls) against the brute-force enumerator of
``tests/dice_enumerator.py``."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine.algebra.chains import Key, Step, chains, chains_total, keyed_chains, steps_of
from diceengine.errors import DiceLimitError
from diceengine.pmf import PMF
from tests.dice_enumerator import Term, enumerate_term, point

Table = dict[Key, dict[int, Fraction]]


def _walked(on: set[int], depth: int, penetrate: bool, key: Callable[[int], Key], value: Callable[[int], int],
            start: dict[int, Fraction], die: dict[int, Fraction]) -> Table:
    """Every chain of a die (``die``: each face's chance; its first throw ``start``) thrown again while it shows a
    face of ``on``, at most ``depth`` added throws, walked one by one: ``{key: {total: chance}}``, the key the sum
    of ``key(face recorded)`` part by part, the total the sum of ``value(face recorded)``, a face recorded one less
    on an added throw when ``penetrate``."""
    out: Table = {}
    stack: list[tuple[list[int], Fraction]] = [([f], p) for f, p in start.items()]
    while stack:
        thrown, chance = stack.pop()
        if thrown[-1] in on and len(thrown) <= depth:
            stack.extend((thrown + [f], chance * p) for f, p in die.items())
            continue
        recorded = [thrown[0]] + [f - int(penetrate) for f in thrown[1:]]
        parts = [key(f) for f in recorded]
        k = tuple(sum(column) for column in zip(*parts)) if parts[0] else ()
        total = sum(value(f) for f in recorded)
        row = out.setdefault(k, {})
        row[total] = row.get(total, Fraction(0)) + chance
    return out


def _steps(faces: list[int], on: set[int], key: Callable[[int], Key], value: Callable[[int], int] | None = None,
           shift: int = 0, chances: list[float] | None = None) -> list[Step]:
    """The kinds of throw of these faces for :func:`keyed_chains` (the key read on the face recorded: ``shift``
    less; the value as thrown, or ``value`` of the face recorded)."""
    values = np.array(faces)
    deltas = np.array([key(f - shift) for f in faces]).reshape(len(faces), -1)
    probs = np.array(chances if chances is not None else [1 / len(faces)] * len(faces))
    shown = values if value is None else np.array([value(f - shift) for f in faces])
    return steps_of(shown, probs, np.isin(values, list(on)), deltas if deltas.shape[1] else None)


def _assert_table(got: dict[Key, PMF], want: Table) -> None:
    got_rows = {k: dict(m.items()) for k, m in got.items() if m.mass > 0}
    assert set(got_rows) == set(want), (sorted(got_rows), sorted(want))
    for k, row in want.items():
        assert got_rows[k] == pytest.approx({t: float(p) for t, p in row.items()}, abs=1e-15), k


D4 = [1, 2, 3, 4]
KEYS: dict[str, Callable[[int], Key]] = {
    "one total": lambda f: (),
    "high faces": lambda f: (int(f >= 3),),
    "ones and fours": lambda f: (int(f == 1), int(f == 4)),
    "score": lambda f: (1 if f >= 3 else -1 if f <= 1 else 0,),
}


@pytest.mark.parametrize("name", sorted(KEYS))
@pytest.mark.parametrize("on", [{4}, {3, 4}, {1}])
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
@pytest.mark.parametrize("penetrate", [False, True])
def test_keyed_chains_of_a_small_die_match_the_enumeration(name, on, depth, penetrate):
    key = KEYS[name]
    first = _steps(D4, on, key)
    added = _steps(D4, on, key, shift=int(penetrate))
    done, left = keyed_chains(first, added, depth, penetrate)
    assert left == 0
    _assert_table(done, _walked(on, depth, penetrate, key, lambda f: f, _fair(D4), _fair(D4)))


@pytest.mark.parametrize("penetrate", [False, True])
def test_keyed_chains_of_listed_faces_and_another_first_throw(penetrate):
    # a die with faces 1, 2, 2, 5 exploding on 5, its first throw a face kept after re-rolls (2 or 5), keyed by its
    # twos; and the value a score (+1 a five, -1 a one) with no key
    faces, on = [1, 2, 2, 5], {5}
    first = {2: Fraction(2, 3), 5: Fraction(1, 3)}
    key: Callable[[int], Key] = lambda f: (int(f == 2),)
    start = [(f in on, key(f), PMF.point(f, float(p))) for f, p in first.items()]
    done, _ = keyed_chains(start, _steps(faces, on, key, shift=int(penetrate)), 3, penetrate)
    die = _fair(faces)
    _assert_table(done, _walked(on, 3, penetrate, key, lambda f: f, first, die))

    def score(f: int) -> int:
        return 1 if f == 5 else -1 if f == 1 else 0

    start = [(f in on, (), PMF.point(score(f), float(p))) for f, p in first.items()]
    none: Callable[[int], Key] = lambda f: ()
    done, _ = keyed_chains(start, _steps(faces, on, none, score, shift=int(penetrate)), 3)
    _assert_table(done, _walked(on, 3, penetrate, none, score, first, die))


def test_the_depth_caps_the_added_throws_and_the_last_counts_whole():
    # d2 exploding on 2, at most 2 added throws: chains 1 | 2,1 | 2,2,1 | 2,2,2 (the last 2 not thrown again)
    done, left = keyed_chains(_steps([1, 2], {2}, lambda f: (1,)), _steps([1, 2], {2}, lambda f: (1,)), 2)
    assert left == 0
    got = {k: dict(m.items()) for k, m in done.items()}
    assert got == {(1,): {1: 0.5}, (2,): {3: 0.25}, (3,): {5: 0.125, 6: 0.125}}


def test_without_a_depth_the_chains_stop_at_the_tolerance_and_leave_their_mass():
    # d4 on 4: the chains still going after k added throws weigh 4^-(k+1); with a tolerance of 1e-4 they stop once
    # 4^-(k+1) <= 1e-4, k = 6 (4^-7 = 6.1e-5), and leave that mass out
    steps = _steps(D4, {4}, lambda f: ())
    done, left = keyed_chains(steps, steps, None, tolerance=1e-4)
    assert left == pytest.approx(4.0 ** -7, abs=1e-18)
    want: Table = {(): {}}  # the chains that stopped within 6 added throws, counted by hand
    for k in range(7):  # k fours, then a face below 4
        for last in (1, 2, 3):
            want[()][4 * k + last] = Fraction(1, 4 ** (k + 1))
    _assert_table(done, want)
    done, left = keyed_chains(steps, steps, None, tolerance=1e-4, rounds=3)  # at most 3 rounds: more left
    assert left == pytest.approx(4.0 ** -4, abs=1e-18)


def test_an_unbounded_chain_still_heavy_after_the_most_explosions_is_refused():
    steps = _steps(list(range(1, 21)), set(range(2, 21)), lambda f: ())  # explodes 19 times in 20
    with pytest.raises(DiceLimitError, match="explosions of one die"):
        keyed_chains(steps, steps, None, tolerance=1e-13)
    _, left = keyed_chains(steps, steps, None, tolerance=1e-13, rounds=200)  # a count of rounds: left out instead
    assert left == pytest.approx(0.95 ** 201, rel=1e-9)


@pytest.mark.parametrize("depth", [None, 0, 1, 3])
@pytest.mark.parametrize("penetrate", [False, True])
def test_chains_total_and_chains_are_the_one_key_and_by_added_cases(depth, penetrate):
    d6 = PMF.from_counts(range(1, 7))
    on = frozenset({5, 6})
    total, left = chains_total(d6, on, depth, penetrate)
    steps = _steps(list(range(1, 7)), set(on), lambda f: ())
    done, left_keyed = keyed_chains(steps, steps, depth, penetrate, 1e-13 if depth is None else 0.0,
                                    None if depth is None else max(depth, 0))
    assert left == left_keyed
    assert dict(total.items()) == pytest.approx(dict(done[()].items()), abs=1e-16)
    if depth is not None:  # against the enumeration, and by number of added throws
        d6s = _fair(list(range(1, 7)))
        want = _walked(set(on), depth, penetrate, lambda f: (1,), lambda f: f, d6s, d6s)
        assert dict(total.items()) == pytest.approx(
            {t: float(sum(row.get(t, 0) for row in want.values())) for row in want.values() for t in row}, abs=1e-15)
        by_added = {(k + 1,): masses for k, masses in chains(d6, on, depth, penetrate)}
        _assert_table(by_added, want)


# ---------------------------------------------------------------- the term's exact odds on the chains

TERMS: list[tuple[str, Term]] = [
    ("2d4!=4>=3", Term(2, 4, explode=point("=", 4), success=point(">=", 3))),
    ("2d4!p=4>=3f1", Term(2, 4, explode=point("=", 4), penetrate=True, success=point(">=", 3),
                          failure=point("=", 1))),
    ("3d4!=4>=3kh2", Term(3, 4, explode=point("=", 4), success=point(">=", 3), keeps=(("kh", 2),))),
    ("3d4!p=4>=2dl1", Term(3, 4, explode=point("=", 4), penetrate=True, success=point(">=", 2),
                           keeps=(("dl", 1),))),
    ("2d4!=4>=3dbl4", Term(2, 4, explode=point("=", 4), success=point(">=", 3), double=point("=", 4))),
    ("2d4!cs4", Term(2, 4, explode=point(">=", 4), crit_success=point("=", 4))),
    ("2d4!pcs4cf1", Term(2, 4, explode=point(">=", 4), penetrate=True, crit_success=point("=", 4),
                         crit_failure=point("=", 1))),
    ("2d4!=4>=3cs4", Term(2, 4, explode=point("=", 4), success=point(">=", 3), crit_success=point("=", 4))),
    ("3d4!=4>=3cs4kh2", Term(3, 4, explode=point("=", 4), success=point(">=", 3), crit_success=point("=", 4),
                             keeps=(("kh", 2),))),
    ("2d4!!=4>=5", Term(2, 4, explode=point(">=", 4), compound=True, success=point(">=", 5))),
    ("2d4!p", Term(2, 4, explode=point(">=", 4), penetrate=True)),
    ("3d4!kl2", Term(3, 4, explode=point(">=", 4), keeps=(("kl", 2),))),
    ("2d4r1!=4>=3", Term(2, 4, reroll=point("=", 1), explode=point("=", 4), success=point(">=", 3))),
    ("2d4ro1!p=4>=3", Term(2, 4, reroll=point("=", 1), reroll_once=True, explode=point("=", 4), penetrate=True,
                           success=point(">=", 3))),
]


@pytest.mark.parametrize(("expr", "term"), TERMS, ids=[t[0] for t in TERMS])
def test_the_terms_exact_odds_on_the_chains_match_the_enumeration(expr, term):
    want = enumerate_term(term, max_draws=term.count + (20 if term.count == 2 else 14))  # longer: truncated
    d = de.distribution(expr)
    got = {tuple(o): p for o, p in d.items()}
    slack = want.truncated + d.truncated + 1e-12
    for key in set(got) | set(want.probability):
        p_got, p_want = got.get(key, 0.0), want.probability.get(key, 0.0)
        assert p_want - 1e-12 - d.truncated <= p_got <= p_want + slack, (expr, key, p_got, p_want)


CAPPED: list[tuple[str, Term]] = [
    ("2d4ra4>=3", Term(2, 4, explode=point("=", 4), explode_once=True, success=point(">=", 3))),
    ("3d4ra4kh2", Term(3, 4, explode=point("=", 4), explode_once=True, keeps=(("kh", 2),))),
    ("2d4ra4cs4", Term(2, 4, explode=point("=", 4), explode_once=True, crit_success=point("=", 4))),
]


@pytest.mark.parametrize(("expr", "term"), CAPPED, ids=[t[0] for t in CAPPED])
def test_a_capped_explosion_matches_the_enumeration_and_leaves_nothing_out(expr, term):
    want = enumerate_term(term, max_draws=2 * term.count)  # one added die at most: nothing truncated
    assert want.truncated == 0
    d = de.distribution(expr)
    assert d.truncated == 0
    got = {tuple(o): p for o, p in d.items()}
    assert got == pytest.approx(want.probability, abs=1e-15)


def _fair(faces: list[int]) -> dict[int, Fraction]:
    """Each face's chance on a fair die showing ``faces`` (a face listed twice twice as likely)."""
    return {f: Fraction(faces.count(f), len(faces)) for f in set(faces)}


COUNTED = ["1d2!=2>=2f1", "6d4!>=2>=2", "2d6!>=4>=6f1", "1d3!p>=2>=2", "8d4ro1!p>=3>=3", "3d10!10>=8",
           "10d12!p>=11>=7", "2d4r1!=4>=3", "3d6!=6>=5kh2", "4d6!>=5>=4kh2dbl6"]


@pytest.mark.parametrize("expr", COUNTED)
def test_a_count_of_every_face_is_estimated_from_the_chains_it_runs(expr):
    """Every face counted: the estimate follows the keyed chains' rounds and convolutions (it bounds the work the
    engine counts and stays near it: the per-state loop it replaced was estimated 4 to 30 times over)."""
    from diceengine import api
    from diceengine.pmf import WORK
    from tests.helpers import clear_engine_caches

    clear_engine_caches()
    cost = api.plan(expr).exact_cost()
    WORK.work = 0
    de.distribution(expr)
    assert 0.5 * cost.work <= WORK.work <= cost.work, (WORK.work, cost.work)
