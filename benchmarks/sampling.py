"""Bulk samples against a numpy floor written for each system (issue 25): the FFG pool ``2a1p1b vs 2d1s`` against
numpy drawing its seven dice and summing their symbols from packed face tables (one int64 per face, a byte per
symbol), written here from the published faces; the D6 check ``4D+2 vs 15`` (four dice summed), with the Wild Die
(three dice and a Wild Die that explodes on a 6, its first 1 flagged), and the d20 pool ``3d20<=12 vs 2`` (a 1 two
successes, up to 12 one), each as plain numpy of its rules. Both sides are timed alternately; each keeps its best.
Goal: at least 0.6 of the floor's speed.

``python -m benchmarks.sampling``.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable, Iterator

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


def d6_floor(n: int = N, seed: int = 1) -> dict[str, np.ndarray]:
    total = np.random.default_rng(seed).integers(1, 7, size=(n, 4)).sum(axis=1) + 2
    return {"total": total, "succeeded": total >= 15}


def d6wild_floor(n: int = N, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    total = rng.integers(1, 7, size=(n, 3)).sum(axis=1) + 2
    wild = rng.integers(1, 7, size=n)
    complication = wild == 1
    total += wild
    live = np.flatnonzero(wild == 6)
    while live.size:  # the Wild Die's 6: rolled again and added
        again = rng.integers(1, 7, size=live.size)
        total[live] += again
        live = live[again == 6]
    return {"total": total, "complication": complication, "succeeded": total >= 15}


def d20pool_floor(n: int = N, seed: int = 1) -> dict[str, np.ndarray]:
    dice = np.random.default_rng(seed).integers(1, 21, size=(n, 3))
    successes = (dice <= 12).sum(axis=1) + (dice == 1).sum(axis=1)
    return {"successes": successes, "succeeded": successes >= 2}


#: (what is sampled, its system, its expression, the floor)
CASES: list[tuple[str, str, str, Callable[[], object]]] = [
    ("FFG pools", "ffg", "2a1p1b vs 2d1s", ffg_floor),
    ("D6 checks", "d6", "4D+2 vs 15", d6_floor),
    ("D6 checks with the Wild Die", "d6wild", "4D+2 vs 15", d6wild_floor),
    ("d20 pools", "d20pool", "3d20<=12 vs 2", d20pool_floor),
]


def ratio(system: str = "ffg", expression: str = "2a1p1b vs 2d1s", floor: Callable[[], object] = ffg_floor,
          rounds: int = 7) -> tuple[float, float, float]:
    """``(engine s, floor s, floor time / engine time)`` for N rolls."""
    def ours() -> object:
        return de.sample(expression, N, system, seed=1)

    ours(), floor()
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(timeit.timeit(ours, number=1))
        theirs.append(timeit.timeit(floor, number=1))
    return min(mine), min(theirs), min(theirs) / min(mine)


def run() -> Iterator[str]:
    for what, system, expression, floor in CASES:
        engine, floored, speed = ratio(system, expression, floor)
        ok = "ok" if speed >= GOAL else "MISSED"
        yield (f"bulk sample of {N:,} {what} {expression} ({system}): engine {engine:.3f} s, numpy floor "
               f"{floored:.3f} s: {speed:.2f} of the floor's speed ({N / engine / 1e6:.1f} M rolls/s; goal >= {GOAL})"
               f"  {ok}")


def main() -> None:
    for line in run():
        print(line, flush=True)


if __name__ == "__main__":
    main()
