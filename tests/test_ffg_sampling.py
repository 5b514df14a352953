"""FFG bulk samples summed in packed form (issue 25: a byte per symbol, one int64 per face): the same pools as
summing the face vectors one symbol at a time, drawn from the same generator, and the exact odds."""

from __future__ import annotations

import numpy as np
import pytest
from diceengine.systems.ffg.dice import FACES, FIELDS, PACK_MAX_DICE, PACKED, SIDES, packed_faces

import diceengine as de
from tests.helpers import chi2_passes


def vector(face: str) -> tuple[int, ...]:
    """A face's symbols counted from the published faces (the rule texts): triumph a success, despair a failure."""
    c = face.count
    return (c("S") - c("F") + c("R") - c("X"), c("A") - c("T"), c("R"), c("X"), c("L"), c("D"))


def test_each_face_packs_its_symbols_a_byte_each():
    for die, faces in FACES.items():
        table = packed_faces(die)
        assert (table == PACKED[die]).all()
        for i, face in enumerate(faces):
            unpacked = tuple(((int(table[i]) >> (8 * k)) & 255) - 2 for k in range(len(FIELDS)))
            assert unpacked == vector(face)
    assert PACK_MAX_DICE * 4 <= 255 and PACK_MAX_DICE >= 60  # every pool the system accepts fits


@pytest.mark.parametrize("pool, counts", [("2a1p1b vs 2d1s", {"proficiency": 1, "ability": 2, "boost": 1,
                                                              "difficulty": 2, "setback": 1}),
                                          ("2f", {"force": 2}), ("20p20c20d", {"proficiency": 20, "challenge": 20,
                                                                               "difficulty": 20})])
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
