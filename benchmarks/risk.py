"""The RISK problems of icepool's paper through the die algebra, against icepool (the ``bench`` extra), as ratios
from one run.

Each side throws ``n`` d6 (3, 4, 5 and 10 a side), both sides are sorted and compared pair by pair, a tie going to
the defender: the distribution of the pairs the attacker wins. Ours is
``compare_sorted(Pool.of(d6, n), Pool.of(d6, n), ">")`` (:mod:`diceengine.algebra.multiset`), icepool's
``d6.pool(n).sort_pair('>', d6.pool(n)).size()`` (its multiset evaluation: 4 / 7 / 12 / 95 ms in its paper).

Each problem runs in fresh processes (``--rounds`` of them, alternating which library goes first), both libraries
imported and warmed on a smaller problem of the same kind (2d4 a side), so that the first call pays what a new
question costs. The repeated call is the best of several calls in the same process (each library keeps what it has
evaluated: ``compare_sorted`` its last answers). The ratio of a row is the median of the per-process
ratios; the two distributions must agree outcome by outcome to 1e-9.

Goal (issue 35): the first call of each problem at most 0.5x icepool's.

``python -m benchmarks.risk [--rounds N]``; skipped cleanly when icepool is not installed. Timings on a shared
machine are indicative; the ratios are what the goal reads.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from benchmarks.exact_peers import GOAL, available, fill, measure_one, row

SIDES = (3, 4, 5, 10)

#: the child process: both sides warmed on 2 d4 a side, each answer the whole distribution (``exact_peers.CHILD``)
_CHILD = fill(
    "from diceengine.algebra import Die, Pool, compare_sorted\n"
    "n, D4, D6 = int(ours_expr), Die.uniform(4), Die.uniform(6)\n"
    "compare_sorted(Pool.of(D4, 2), Pool.of(D4, 2)).mean()\n"
    'float(d4.pool(2).sort_pair(">", d4.pool(2)).size().mean())\n'
    "def icepool_risk(n):\n"
    '    die = d6.pool(n).sort_pair(">", d6.pool(n)).size()\n'
    "    return {int(k): float(v) for k, v in zip(die.outcomes(), die.probabilities())}",
    'dict(compare_sorted(Pool.of(D6, n), Pool.of(D6, n), ">").items())', "icepool_risk(n)")


def run(rounds: int = 5) -> Iterator[str]:
    """The report's lines."""
    if not available():
        yield "RISK against icepool: skipped (pip install -e '.[bench]' to compare with icepool)"
        return
    yield (f"RISK (n d6 a side, sorted, compared pair by pair) against icepool, fresh processes ({rounds} per row, "
           f"median of the per-process ratios; goal: first call <= {GOAL}x)")
    for n in SIDES:
        yield row(f"{n:>2} a side ", measure_one(str(n), str(n), rounds, _CHILD), again_too=False, agree="answers")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for line in run(args.rounds):
        print(line, flush=True)


if __name__ == "__main__":
    main()
