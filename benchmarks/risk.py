"""The RISK problems of icepool's paper through the die algebra, against icepool (the ``bench`` extra), as ratios
from one run.

Each side throws ``n`` d6 (3, 4, 5 and 10 a side), both sides are sorted and compared pair by pair, a tie going to
the defender: the distribution of the pairs the attacker wins. Ours is
``compare_sorted(Pool.of(d6, n), Pool.of(d6, n), ">")`` (:mod:`diceengine.algebra.multiset`), icepool's
``d6.pool(n).sort_pair('>', d6.pool(n)).size()`` (its multiset evaluation: 4 / 7 / 12 / 95 ms in its paper).

Each problem runs in fresh processes (``--rounds`` of them, alternating which library goes first), both libraries
imported and warmed on a smaller problem of the same kind (2d4 a side), so that the first call pays what a new
question costs. The repeated call is the best of several calls in the same process (icepool keeps what it has
evaluated; the algebra keeps nothing and evaluates again). The ratio of a row is the median of the per-process
ratios; the two distributions must agree outcome by outcome to 1e-9.

Goal (issue 35): the first call of each problem at most 0.5x icepool's.

``python -m benchmarks.risk [--rounds N]``; skipped cleanly when icepool is not installed. Timings on a shared
machine are indicative; the ratios are what the goal reads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator

from benchmarks.exact_peers import available

SIDES = (3, 4, 5, 10)
GOAL = 0.5

_CHILD = r"""
import json, sys, time
import icepool
from icepool import d4, d6
from diceengine.algebra import Die, Pool, compare_sorted

n, peer_first = int(sys.argv[1]), sys.argv[2] == "1"
D4, D6 = Die.uniform(4), Die.uniform(6)
compare_sorted(Pool.of(D4, 2), Pool.of(D4, 2)).mean()
float(d4.pool(2).sort_pair(">", d4.pool(2)).size().mean())

def ours():
    return dict(compare_sorted(Pool.of(D6, n), Pool.of(D6, n), ">").items())

def peer():
    die = d6.pool(n).sort_pair(">", d6.pool(n)).size()
    return {int(k): float(v) for k, v in zip(die.outcomes(), die.probabilities())}

def first(fn):
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value

def repeated(fn):
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best

if peer_first:
    tp, dp = first(peer)
    to, do = first(ours)
else:
    to, do = first(ours)
    tp, dp = first(peer)
gap = max(abs(do.get(k, 0.0) - dp.get(k, 0.0)) for k in set(do) | set(dp))
print(json.dumps({"ours": to, "peer": tp, "ours_again": repeated(ours), "peer_again": repeated(peer), "gap": gap}))
"""


def measure(n: int, rounds: int = 5) -> dict[str, float]:
    """Median per-process ratios of the problem with ``n`` dice a side (``first``, ``again``), the median times
    (s) and the largest disagreement of one outcome's chance."""
    runs = []
    for i in range(rounds):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(n), "1" if i % 2 else "0"],
                             capture_output=True, text=True, check=True).stdout
        runs.append(json.loads(out))
    median = statistics.median
    return {
        "first": median(r["ours"] / r["peer"] for r in runs),
        "again": median(r["ours_again"] / r["peer_again"] for r in runs),
        "ours": median(r["ours"] for r in runs), "peer": median(r["peer"] for r in runs),
        "ours_again": median(r["ours_again"] for r in runs), "peer_again": median(r["peer_again"] for r in runs),
        "gap": max(r["gap"] for r in runs),
    }


def run(rounds: int = 5) -> Iterator[str]:
    """The report's lines."""
    if not available():
        yield "RISK against icepool: skipped (pip install -e '.[bench]' to compare with icepool)"
        return
    yield (f"RISK (n d6 a side, sorted, compared pair by pair) against icepool, fresh processes ({rounds} per row, "
           f"median of the per-process ratios; goal: first call <= {GOAL}x)")
    for n in SIDES:
        m = measure(n, rounds)
        ok = "ok" if m["first"] <= GOAL and m["gap"] <= 1e-9 else "MISSED"
        yield (f"  {n:>2} a side  first {m['ours'] * 1e3:8.3f} ms vs {m['peer'] * 1e3:8.3f} ms  {m['first']:6.3f}x   "
               f"repeated {m['ours_again'] * 1e3:7.3f} ms vs {m['peer_again'] * 1e3:7.3f} ms  {m['again']:6.3f}x   "
               f"answers agree to {m['gap']:.1e}  {ok}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for line in run(args.rounds):
        print(line, flush=True)


if __name__ == "__main__":
    main()
