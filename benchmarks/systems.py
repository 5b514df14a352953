"""Benchmarks of the rulesets and the comparison tools, as ratios to floors measured in the same run."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator

import diceengine as de
from diceengine import api, compare

from .timing import best

randint = random.randint


def _wild_floor() -> int:
    total = sum(randint(1, 6) for _ in range(3)) + 2
    w = randint(1, 6)
    total += w
    while w == 6:
        w = randint(1, 6)
        total += w
    return total


def _pool_floor() -> int:
    return sum((2 if v == 1 else 1 if v <= 12 else 0) for v in (randint(1, 20) for _ in range(3)))


_FFG = [("a", 8), ("a", 8), ("p", 12), ("d", 8), ("d", 8)]


def _ffg_floor() -> int:
    return sum(randint(1, sides) for _, sides in _FFG)


ROLLS = [("d6", "4D+2 vs 15", lambda: sum(randint(1, 6) for _ in range(4)) + 2 >= 15),
         ("d6wild", "4D+2 vs 15", lambda: _wild_floor() >= 15),
         ("d20pool", "3d20<=12 vs 2", lambda: _pool_floor() >= 2),
         ("ffg", "2a1p vs 2d", _ffg_floor)]


def brute_keep(n: int, k: int) -> dict[int, float]:
    """The keep-highest distribution by enumerating every face of ``n`` d6."""
    out: dict[int, float] = {}
    for c in itertools.product(range(1, 7), repeat=n):
        t = sum(sorted(c)[n - k:])
        out[t] = out.get(t, 0.0) + 6.0**-n
    return out


def run() -> Iterator[str]:
    yield "one roll of each ruleset (µs), against plain-Python random calls throwing the same dice"
    for system, expr, floor in ROLLS:
        de.roll(expr, system=system)
        t_engine = best(lambda e=expr, s=system: de.roll(e, system=s), 20_000)
        t_floor = best(floor, 20_000)
        yield f"  {system:<8} {expr:<14} engine {t_engine * 1e6:6.2f}  floor {t_floor * 1e6:6.2f}  ratio {t_engine / t_floor:5.2f}x"

    yield "exact odds (ms), against a brute-force enumeration and the 1 ms budget of a 10-dice FFG pool"
    for n, k, reps in ((4, 3, 20), (6, 3, 2)):
        plan = api.plan(f"{n}d6kh{k}")
        t_engine = best(plan.distribution, 200)
        t_brute = best(lambda n=n, k=k: brute_keep(n, k), reps, repeat=3)
        yield (f"  {n}d6kh{k} distribution {t_engine * 1e3:7.3f}  brute force {t_brute * 1e3:8.3f}"
               f"  {t_brute / t_engine:7.1f}x faster")
    for pool in ("3a2p vs 3d", "2a3p1b vs 2d1c1s", "3p2c3a2d"):
        p = api.plan(pool, "ffg")
        t = best(p.distribution, 200)
        yield f"  ffg {pool:<18} {t * 1e3:7.3f} ms  ({t / 1e-3:4.2f} of the 1 ms budget)"

    yield "conversion search over a whole target system, cold caches (s), against the 1 s budget"
    for source, expr, target in (("d6", "4D+1 vs 15", "ffg"), ("d6", "4D+1 vs 15", "d20pool"),
                                 ("ffg", "2a1p vs 2d", "d6wild")):
        compare._chance.cache_clear()
        api.PLANS.clear()
        start = time.perf_counter()
        compare.convert(expr, source, target)
        t = time.perf_counter() - start
        yield f"  {source} -> {target:<8} {t:6.3f} s  ({t:4.2f} of the budget)"
