"""``python -m benchmarks`` (or ``dice bench``): the hot path and the bulk path against their floors.

Every figure is a ratio measured in one run on this machine, never an absolute time asserted by a
test: one roll against plain-Python ``random`` calls rolling the same dice, ``sample`` against the
hand-written numpy draws of the same dice, exact odds against their target budgets.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable

import numpy as np

import diceengine as de
from benchmarks.timing import best

randint = random.randint


FLOORS: dict[str, Callable[[], object]] = {
    "1d20+5": lambda: randint(1, 20) + 5,
    "4d6kh3": lambda: sum(sorted([randint(1, 6) for _ in range(4)])[1:]),
    "10d6": lambda: sum([randint(1, 6) for _ in range(10)]),
    "3d6+2d8+4": lambda: sum([randint(1, 6) for _ in range(3)]) + sum([randint(1, 8) for _ in range(2)]) + 4,
}


def bench_roll() -> list[tuple[str, float, float, float]]:
    rows = []
    for expr, floor in FLOORS.items():
        de.roll(expr)  # parse once, as an application would
        t_engine = best(lambda e=expr: de.roll(e), 20_000)
        t_floor = best(floor, 20_000)
        rows.append((expr, t_engine * 1e6, t_floor * 1e6, t_engine / t_floor))
    return rows


#: a term scored as a multiset, against the engine's roll of the same dice without the score (its floor)
POOLED = {"6d6mt": "6d6", "8d10mt": "8d10", "6d6even": "6d6"}


def bench_pooled() -> list[tuple[str, float, float, float]]:
    rows = []
    for expr, plain in POOLED.items():
        de.roll(expr), de.roll(plain)
        t_engine = best(lambda e=expr: de.roll(e), 20_000)
        t_plain = best(lambda e=plain: de.roll(e), 20_000)
        rows.append((expr, t_engine * 1e6, t_plain * 1e6, t_engine / t_plain))
    return rows


def bench_sample(n: int = 5_000_000) -> list[tuple[str, float, float, float]]:
    def floor_3d6() -> object:
        return np.random.default_rng(1).integers(1, 7, size=(n, 3)).sum(axis=1)

    def floor_4d6kh3() -> object:
        v = np.random.default_rng(1).integers(1, 7, size=(n, 4))
        return v.sum(axis=1) - v.min(axis=1)

    rows = []
    for expr, floor in (("3d6", floor_3d6), ("4d6kh3", floor_4d6kh3)):
        t_engine = best(lambda e=expr: de.sample(e, n, seed=1), 1, repeat=3)
        t_floor = best(floor, 1, repeat=3)
        rows.append((expr, t_engine, t_floor, t_floor / t_engine))
    return rows


def bench_import() -> float:
    code = "import time; t = time.perf_counter(); import diceengine; print(time.perf_counter() - t)"
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
             for _ in range(5)]
    return min(times)


EXTRA: list[Callable[[], list[str]]] = []


def main() -> None:
    print("one roll with every die kept (µs), against plain-Python random calls; target ratio <= 5")
    for expr, engine, floor, ratio in bench_roll():
        print(f"  {expr:<12} engine {engine:6.2f}  floor {floor:6.2f}  ratio {ratio:5.2f}x")
    print("one roll of a term scored as a multiset (µs), against the same dice rolled without the score")
    for expr, engine, plain, ratio in bench_pooled():
        print(f"  {expr:<12} engine {engine:6.2f}  plain {plain:6.2f}  ratio {ratio:5.2f}x")
    print("bulk sample of 5,000,000 rolls (s), against raw numpy draws; target >= 0.70 of the floor's speed")
    for expr, engine, floor, ratio in bench_sample():
        print(f"  {expr:<12} engine {engine:6.3f}  floor {floor:6.3f}  speed {ratio:5.2f} of the floor")
    print(f"import diceengine: {bench_import() * 1000:.1f} ms (target < 150 ms)")
    try:
        from benchmarks import systems as system_benchmarks
    except ImportError:
        return
    for line in system_benchmarks.run():
        print(line)
    from benchmarks import fights as fight_benchmarks

    for line in fight_benchmarks.run():
        print(line)
    from benchmarks import render as render_benchmarks

    for line in render_benchmarks.run():
        print(line)
    from benchmarks import peers

    for line in peers.run():  # text and JSON against avrae's d20 (skipped without the bench extra)
        print(line)
    from benchmarks import cold_start, exact_peers, new_expressions, sampling

    for module in (sampling, exact_peers, new_expressions, cold_start):  # issue 25 (peers: the bench extra)
        for line in module.run():
            print(line, flush=True)


if __name__ == "__main__":
    main()
