"""The explosion chain's two representations (issue 33): :func:`~diceengine.algebra.chains.keyed_chains` follows
masses of a few cells as Python floats and longer ones as numpy arrays, choosing per chain and round. Both give
the same chains (to 1e-15), the same mass left out, and count the same work (the estimates read it); and the
float path's sums and mixes are checked against exact fractions enumerated here."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from diceengine.algebra.chains import SMALL, keyed_chains, steps_of
from diceengine.pmf import WORK

#: (faces, exploding faces, key columns by face (None: one total), depth, penetrate, tolerance)
CASES = [
    ([1, 2], {2}, None, None, False, 1e-13),
    ([1, 2], {2}, [[0], [1]], None, False, 1e-13),  # a count of every face keyed by the score so far
    ([1, 2, 3, 4], {3, 4}, [[0], [1], [1], [1]], None, True, 1e-12),
    ([1, 2, 3, 4, 5, 6], {6}, [[0, 0], [0, 0], [0, 0], [0, 1], [1, 1], [1, 1]], 9, False, 0.0),
    ([-1, 0, 1], {1}, None, 20, False, 0.0),  # fudge faces
    (list(range(1, 13)), {11, 12}, [[int(f >= 11)] for f in range(1, 13)], None, True, 1e-12),  # past SMALL
]


def _chains(faces, on, keys, depth, penetrate, tolerance, small):
    values = np.array(faces, dtype=np.int64)
    probs = np.full(len(faces), 1.0 / len(faces))
    deltas = None if keys is None else np.array(keys, dtype=np.int64)
    steps = steps_of(values, probs, np.isin(values, list(on)), deltas)
    WORK.work = 0
    done, left = keyed_chains(steps, steps, depth, penetrate, tolerance, None if depth is None else depth,
                              small=small)
    return {k: dict(m.items()) for k, m in done.items()}, left, WORK.work


@pytest.mark.parametrize("case", CASES, ids=[f"d{len(c[0])}-{sorted(c[1])}-{c[3]}-{c[4]}" for c in CASES])
def test_the_float_and_the_array_chains_agree(case):
    floats, left_f, work_f = _chains(*case, small=SMALL)
    arrays, left_a, work_a = _chains(*case, small=0)
    assert floats.keys() == arrays.keys()
    for key in arrays:
        cells = set(floats[key]) | set(arrays[key])
        assert max(abs(floats[key].get(v, 0.0) - arrays[key].get(v, 0.0)) for v in cells) <= 1e-15
    assert abs(left_f - left_a) <= 1e-15
    assert work_f == work_a


@pytest.mark.parametrize("small", [SMALL, 0])
def test_a_capped_d3_chain_against_exact_fractions(small):
    """1d3 exploding on 3, at most 3 added throws, keyed by its count of 3s: every sequence of throws walked."""
    expected: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for length in range(1, 5):
        for seq in product([1, 2, 3], repeat=length):
            if any(f != 3 for f in seq[:-1]) or (length < 4 and seq[-1] == 3):
                continue  # a chain goes on exactly while it shows 3, at most 3 added throws
            key = (sum(f == 3 for f in seq),)
            row = expected.setdefault(key, {})
            row[sum(seq)] = row.get(sum(seq), Fraction(0)) + Fraction(1, 3 ** length)
    got, left, _ = _chains([1, 2, 3], {3}, [[0], [0], [1]], 3, False, 0.0, small)
    assert left == 0.0
    assert got.keys() == expected.keys()
    for key, row in expected.items():
        assert set(got[key]) == set(row)
        for total, p in row.items():
            assert abs(got[key][total] - float(p)) <= 1e-15
