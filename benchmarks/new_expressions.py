"""A never-seen expression (issue 25): parse, plan, roll and text of distinct ``NdM+K`` against avrae's ``d20``
(the ``bench`` extra), which parses each one too. Blocks of distinct expressions are timed alternately, ours then
the peer's, round after round; each side keeps its best block. Goal: at most 0.5x d20.

``python -m benchmarks.new_expressions``; skipped cleanly when ``d20`` is not installed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import diceengine as de
from benchmarks.peers import load_peer

GOAL = 0.5


#: a modifier both readers read (a re-roll once on a 1, d20's ``ro1``), for the second row: a term the quick reader
#: reads to the tree and the general path compiles
MODIFIED = "ro1"


def expressions(count: int, seed: int = 1, modifier: str = "") -> list[str]:
    """``count`` distinct ``NdM+K`` (``NdM<modifier>+K``), shuffled."""
    every = [f"{n}d{m}{modifier}+{k}" for n in range(1, 31) for m in (4, 6, 8, 10, 12, 20, 100)
             for k in range(1, 100)]
    random.Random(seed).shuffle(every)
    return every[:count]


def measure(block: int = 500, rounds: int = 9, modifier: str = "") -> tuple[float, float, float]:
    """``(our µs, d20's µs, ratio)`` per new expression (``NdM<modifier>+K``), best blocks."""
    d20 = load_peer()
    pool = expressions(2 * block * rounds, modifier=modifier)
    de.roll(f"1d2{modifier}+1"), str(de.roll(f"1d3{modifier}+1")), d20.roll(f"1d2{modifier}+1").result
    ours, theirs = [], []
    for r in range(rounds):
        mine = pool[2 * r * block:(2 * r + 1) * block]
        peer = pool[(2 * r + 1) * block:(2 * r + 2) * block]
        if r % 2:  # the same expressions may not be seen twice; which side gets which block alternates
            mine, peer = peer, mine
        t = time.perf_counter()
        for e in mine:
            str(de.roll(e))
        ours.append((time.perf_counter() - t) / block)
        t = time.perf_counter()
        for e in peer:
            d20.roll(e).result  # noqa: B018 - the text, as ours
        theirs.append((time.perf_counter() - t) / block)
    return min(ours) * 1e6, min(theirs) * 1e6, min(ours) / min(theirs)


def run() -> Iterator[str]:
    if load_peer() is None:
        yield "new expressions against d20: skipped (pip install -e '.[bench]')"
        return
    ours, theirs, ratio = measure()
    ok = "ok" if ratio <= GOAL else "MISSED"
    yield (f"a never-seen NdM+K, parse + plan + roll + text: {ours:.0f} µs, d20 {theirs:.0f} µs: {ratio:.2f}x "
           f"(goal <= {GOAL}x)  {ok}")
    ours, theirs, ratio = measure(modifier=MODIFIED)
    yield (f"a never-seen NdM{MODIFIED}+K, the same: {ours:.0f} µs, d20 {theirs:.0f} µs: {ratio:.2f}x (no goal of its "
           f"own: read quickly, compiled by the general path)")


def main() -> None:
    for line in run():
        print(line, flush=True)


if __name__ == "__main__":
    main()
