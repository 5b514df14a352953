"""FFG bulk samples and rolls summed in packed form (issue 25; the packing is the die algebra's
:class:`~diceengine.algebra.SymbolPool`: a field of bits per symbol, one integer per face): the same pools as summing
the face vectors one symbol at a time, drawn from the same generator, and the exact odds."""

from __future__ import annotations

import numpy as np
import pytest
from diceengine.systems.ffg.dice import FACES, FIELDS, MAX_POOL, SIDES, pool

import diceengine as de
from tests.helpers import chi2_passes


def vector(face: str) -> tuple[int, ...]:
    """A face's symbols counted from the published faces (the rule texts): triumph a success, despair a failure."""
    c = face.count
    return (c("S") - c("F") + c("R") - c("X"), c("A") - c("T"), c("R"), c("X"), c("L"), c("D"))


@pytest.mark.parametrize("others", [{}, {"proficiency": 19, "challenge": 20, "force": 20}])
def test_each_face_rolls_its_published_symbols(others):
    # one die of each kind beside the widest pool the system accepts: every face, drawn in turn, reads back as the
    # published vector plus the other dice's (each on its first face), whatever the width of the packed fields
    for die, faces in FACES.items():
        counts = dict(others)
        counts[die] = counts.get(die, 0) + 1
        dice = pool(counts)
        assert len(dice) <= MAX_POOL
        at = [d.name for d in dice.dice].index(die)
        rest = [sum(x) for x in zip(*(vector(FACES[d.name][0]) for i, d in enumerate(dice.dice) if i != at),
                                    strict=True)] or [0] * 6
        for i, face in enumerate(faces):
            draws = iter([0.0] * at + [(i + 0.5) / len(faces)] + [0.0] * (len(dice) - at - 1))
            total, record = dice.roll(lambda draws=draws: next(draws))
            assert record[at] == (die, i)
            assert total == tuple(a + b for a, b in zip(vector(face), rest, strict=True))


@pytest.mark.parametrize("pool, counts", [("2a1p1b vs 2d1s", {"proficiency": 1, "ability": 2, "boost": 1,
                                                              "difficulty": 2, "setback": 1}),
                                          ("2f", {"force": 2}), ("20p20c20d", {"proficiency": 20, "challenge": 20,
                                                                               "difficulty": 20}),
                                          ("30c30f", {"challenge": 30, "force": 30})])
def test_the_same_pools_as_summing_each_symbol(pool, counts):
    got = de.sample(pool, 5000, "ffg", seed=11)
    rng = np.random.default_rng(11)
    total = np.zeros((5000, 6), dtype=np.int64)
    for die, k in counts.items():  # the plan's order of dice: the positive dice first, the strongest first
        idx = rng.integers(0, SIDES[die], size=(5000, k))
        faces = np.array([vector(f) for f in FACES[die]], dtype=np.int64)
        total += faces[idx].sum(axis=1)
    for i, field in enumerate(FIELDS):
        assert (np.asarray(got[field]) == total[:, i]).all(), field
    assert (np.asarray(got["succeeded"]) == (total[:, 0] > 0)).all()


def test_samples_follow_the_exact_odds():
    dist = de.distribution("2a1p1b vs 2d1s", "ffg")
    sample = de.sample("2a1p1b vs 2d1s", 40_000, "ffg", seed=4)
    assert chi2_passes(np.asarray(sample["success"]), dist.marginal("success"))
