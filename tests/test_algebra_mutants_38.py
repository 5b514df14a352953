"""Tests written for the mutants of the die algebra's newest code that survived their mutation run (session 38, a
seeded draw of ``diceengine/algebra/draws.py`` and of ``chains.py``'s ``keyed_chains`` / ``steps_of`` and their
helpers), each seen failing on the mutant it is for. Expected values are enumerated here, never read from the
algebra."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from diceengine.algebra import draws
from diceengine.algebra.chains import keyed_chains, steps_of
from diceengine.algebra.draws import PoolRoll, PoolSample, window_places
from diceengine.pmf import PMF

# ------------------------------------------------------------------ draws.py


def _places(n: int, lo: int, hi: int, order: str) -> tuple[int, int]:
    """The places (sorted lowest first) of the dice ranked ``lo`` to ``hi - 1`` among ``n``, counted rank by rank:
    ``(first, last)``, or ``(0, 0)`` when no rank falls in the pool (the documented empty window)."""
    ranks = [r for r in range(lo, hi) if 0 <= r < n]
    places = sorted(n - 1 - r if order == "highest" else r for r in ranks)
    return (places[0], places[-1] + 1) if places else (0, 0)


def test_window_places_match_the_ranks_counted_one_by_one_and_empty_windows_are_0_0() -> None:
    for n in range(6):
        for lo in range(-2, 8):
            for hi in range(-2, 8):
                for order in ("highest", "lowest"):
                    assert window_places(n, lo, hi, order) == _places(n, lo, hi, order), (n, lo, hi, order)
                assert window_places(n, lo, hi) == _places(n, lo, hi, "highest"), (n, lo, hi)  # the default order


def test_a_sample_keeps_one_die_by_default_when_reading_the_highest_or_the_lowest() -> None:
    faces = [[1, 5, 3], [6, 2, 2], [4, 4, 1]]
    sample = PoolSample.of(np.array(faces))
    assert sample.highest().total.tolist() == [max(row) for row in faces]
    assert sample.highest().kept.tolist() == [[False, True, False], [True, False, False], [False, True, False]]
    assert sample.lowest().total.tolist() == [min(row) for row in faces]
    assert sample.lowest().kept.tolist() == [[True, False, False], [False, True, False], [False, False, True]]


def test_a_roll_keeps_one_die_by_default_when_reading_the_lowest_or_the_highest() -> None:
    roll = PoolRoll.of([4, 2, 6, 2])
    assert roll.lowest() == ((4, 2, 6, 2), (False, True, False, False), 2)  # of equal faces the earlier ranks lower
    assert roll.highest() == ((4, 2, 6, 2), (False, False, True, False), 6)


def test_a_window_ranks_the_highest_first_by_default() -> None:
    faces = [[1, 5, 3, 5], [6, 2, 2, 4]]
    sample = PoolSample.of(np.array(faces))
    assert sample.window(1, 3).total.tolist() == [sorted(row)[1] + sorted(row)[2] for row in faces]  # 2nd, 3rd highest
    assert PoolRoll.of(faces[0]).window(0, 2) == ((1, 5, 3, 5), (False, True, False, True), 10)


def test_every_name_draws_exports_is_defined_there() -> None:
    assert {"PoolRoll", "PoolSample", "window_places"} <= set(draws.__all__)
    assert [name for name in draws.__all__ if not hasattr(draws, name)] == []  # ``import *`` would fail on one


# ------------------------------------------------------------------ chains.py


def _d4_exploding_on_4(depth: int) -> dict[int, Fraction]:
    """The totals of a d4 thrown again on a 4, at most ``depth`` added throws, enumerated throw by throw."""
    out: dict[int, Fraction] = {}
    for added in range(depth + 1):
        for thrown in product(range(1, 5), repeat=added + 1):
            goes_on = [face == 4 for face in thrown]
            if all(goes_on[:-1]) and (not goes_on[-1] or added == depth):
                out[sum(thrown)] = out.get(sum(thrown), Fraction(0)) + Fraction(1, 4 ** (added + 1))
    return out


def test_keyed_chains_follow_every_chain_by_default_when_a_depth_caps_them() -> None:
    stops, goes = PMF(1, np.array([0.25, 0.25, 0.25])), PMF(4, np.array([0.25]))
    kinds = [(False, (), stops), (True, (), goes)]
    done, left = keyed_chains(kinds, kinds, 2)  # the default tolerance: none left out
    assert left == 0.0
    assert dict(done[()].items()) == pytest.approx({t: float(p) for t, p in _d4_exploding_on_4(2).items()}, abs=1e-15)


def test_steps_of_without_deltas_groups_the_faces_by_whether_they_explode() -> None:
    values, probs = np.array([1, 2, 4, 6, 3]), np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    steps = steps_of(values, probs, np.isin(values, [4, 6]))
    read = [(on, delta, masses.offset, masses.p.tolist()) for on, delta, masses in steps]
    # faces 1, 2, 3 stop (chances at 1, 2, 3); faces 4 and 6 go on (chances at 4, 5, 6)
    assert read == [(False, (), 1, [0.1, 0.2, 0.15]), (True, (), 4, [0.3, 0.0, 0.25])]


Kinds = list[tuple[bool, tuple[int, ...], dict[int, float]]]


def _walk(first: Kinds, steps: Kinds, depth: int) -> dict[tuple[int, ...], dict[int, float]]:
    """Every chain, throw by throw: a first throw of ``first``, then one of ``steps`` while the last throw's kind
    explodes, at most ``depth`` added: ``{key: {total: chance}}``, the key the deltas added part by part."""
    out: dict[tuple[int, ...], dict[int, float]] = {}
    stack = [(on, key, value, p, 0) for on, key, faces in first for value, p in faces.items()]
    while stack:
        on, key, total, chance, added = stack.pop()
        if on and added < depth:
            for go, delta, faces in steps:
                moved = tuple(a + b for a, b in zip(key, delta))
                stack.extend((go, moved, total + v, chance * p, added + 1) for v, p in faces.items())
            continue
        row = out.setdefault(key, {})
        row[total] = row.get(total, 0.0) + chance
    return out


def _pmf_of(faces: dict[int, float]) -> PMF:
    low = min(faces)
    return PMF(low, np.array([faces.get(v, 0.0) for v in range(low, max(faces) + 1)]))


def test_keyed_chains_add_a_small_and_a_large_chain_reaching_the_same_key() -> None:
    # with small=1, the key (1,) gets after one added throw a one-cell chain (from key (0,)) and a three-cell one
    first: Kinds = [(True, (0,), {1: 0.5}), (True, (1,), {1: 0.1, 2: 0.2, 3: 0.2})]
    steps: Kinds = [(True, (1,), {1: 0.5}), (True, (0,), {2: 0.5})]
    done, left = keyed_chains(
        [(o, k, _pmf_of(f)) for o, k, f in first], [(o, k, _pmf_of(f)) for o, k, f in steps], 2, small=1
    )
    want = _walk(first, steps, 2)
    assert left == 0.0
    assert {k: dict(m.items()) for k, m in done.items()} == {
        k: pytest.approx(row, abs=1e-15) for k, row in want.items()
    }


# ------------------------------------------------------------------ the draw and its equivalent mutants
# The draw (tree fcd22b3, an AST mutator: one operator / comparison / constant / string changed at a time; the sites of
# draws.py and of chains.py lines 39-169, keyed_chains to _weight; docstrings aside): seed 38, 40 sites a module, then
# seed 39, 40 more of the sites left. draws.py: 80 drawn, 10 equivalent, 59 killed by the tests before, 70 of 70 with
# this file. chains.py: 80 drawn, 11 equivalent, 68 killed before, 69 of 69 with this file. The equivalents:
# - annotations, never evaluated (``from __future__ import annotations``): draws.py ``check_order``'s ``-> None``;
#   chains.py ``int | None`` of ``depth`` and of ``rounds`` (None -> 0, | -> &: 4 mutants), ``np.ndarray | None`` of
#   ``steps_of`` (2), ``_put``'s ``-> None``;
# - bare strings documenting a field (PoolRoll's ``kept`` and ``total``): statements with no effect;
# - draws.py fast paths whose condition, changed, sends a roll to the general path, which keeps the same dice:
#   ``_kept``'s ``n > 1`` -> ``n > 2`` / ``n >= 1`` and ``n - 1`` -> ``n + 1``; PoolSample.total's ``dice - 1`` ->
#   ``dice + 1`` and ``last <= first`` -> ``last < first`` (an empty window's sum is 0 on every later branch too);
# - window_places' clamps ``lo > 0`` -> ``lo >= 0`` and ``hi < n`` -> ``hi <= n`` (equal at the boundary);
# - chains.py ``_sum``'s float threshold ``- 1`` -> ``- 2`` and ``> small`` -> ``>= small``: the same convolution,
#   as Python floats or as a PMF (the same masses to 1e-15);
# - ``_mixed``'s ``parts[:1]`` -> ``parts[:2]``: only reached when every part is empty; their mix is the empty PMF;
# - ``steps_of``'s ``reshape(-1)`` -> ``reshape(-2)``: numpy (2.4) reads any negative size as the one to infer.
