"""Bulk samples against a numpy floor written for each (issue 25): the FFG pool ``2a1p1b vs 2d1s`` against numpy
drawing its seven dice and summing their symbols from packed face tables (one int64 per face, a byte per
symbol), written here from the published faces. Both sides are timed alternately; each keeps its best.
Goal: at least 0.6 of the floor's speed.

``python -m benchmarks.sampling``.
"""

from __future__ import annotations

import timeit
from collections.abc import Iterator

import numpy as np

import diceengine as de

GOAL = 0.6
N = 1_000_000

#: the published faces (docs/ffg.md): symbols S F A T R X; triumph counts a success, despair a failure
_FACES = {
    "a": ("", "S", "S", "SS", "A", "A", "SA", "AA"),
    "p": ("", "S", "S", "SS", "SS", "A", "SA", "SA", "SA", "AA", "AA", "R"),
    "b": ("", "", "S", "SA", "AA", "A"),
    "d": ("", "F", "FF", "T", "T", "T", "TT", "FT"),
    "s": ("", "", "F", "F", "T", "T"),
}
_POOL = {"a": 2, "p": 1, "b": 1, "d": 2, "s": 1}


def _packed(faces: tuple[str, ...]) -> np.ndarray:
    out = []
    for f in faces:
        s = f.count("S") - f.count("F") + f.count("R") - f.count("X")
        a = f.count("A") - f.count("T")
        fields = (s, a, f.count("R"), f.count("X"), 0, 0)
        out.append(sum((v + 2) << (8 * i) for i, v in enumerate(fields)))
    return np.array(out, dtype=np.int64)


_TABLES = {die: _packed(faces) for die, faces in _FACES.items()}


def ffg_floor(n: int = N, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    packed = np.zeros(n, dtype=np.int64)
    for die, k in _POOL.items():
        packed += _TABLES[die][rng.integers(0, len(_TABLES[die]), size=(n, k))].sum(axis=1)
    bias = 2 * sum(_POOL.values())
    out = {f: ((packed >> (8 * i)) & 255) - bias for i, f in enumerate(("success", "advantage", "triumph",
                                                                         "despair", "light", "dark"))}
    out["succeeded"] = out["success"] > 0
    return out


def ratio(rounds: int = 7) -> tuple[float, float, float]:
    """``(engine s, floor s, floor time / engine time)`` for N rolls."""
    def ours() -> object:
        return de.sample("2a1p1b vs 2d1s", N, "ffg", seed=1)

    ours(), ffg_floor()
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(timeit.timeit(ours, number=1))
        theirs.append(timeit.timeit(ffg_floor, number=1))
    return min(mine), min(theirs), min(theirs) / min(mine)


def run() -> Iterator[str]:
    engine, floor, speed = ratio()
    ok = "ok" if speed >= GOAL else "MISSED"
    yield (f"bulk sample of {N:,} FFG pools 2a1p1b vs 2d1s: engine {engine:.3f} s, packed numpy floor {floor:.3f} s: "
           f"{speed:.2f} of the floor's speed ({N / engine / 1e6:.1f} M rolls/s; goal >= {GOAL})  {ok}")


def main() -> None:
    for line in run():
        print(line, flush=True)


if __name__ == "__main__":
    main()
