"""AnyDice programs against icepool (the ``bench`` extra): the three pools of issue 35 that AnyDice's server times
out on, as ratios from one run.

Each problem runs in fresh processes (``--rounds`` of them, alternating which library goes first), both libraries
imported and warmed on another question first (``[highest 1 of 2d4]``, ``d4.highest(2, 1)``), so that the first
call pays what a new program costs: reading it, running it, the odds. The repeated call is the best of several
calls of the same program in the same process (this engine reads and runs the program again each time: it keeps no
answer). The ratio of a row is the median of the per-process ratios; the means must agree to 1e-9 (AnyDice's
``explode`` throws at most twice more, icepool's ``explode(depth=2)`` too).

Goal (issue 35): each program at most 0.5x icepool's time for the same problem, first and repeated call. The last
row is the RISK problem of icepool's paper (3 dice a side) written as an AnyDice program: the function is called
once per pair of sorted rolls (56 x 56), which the interpreter runs at once over numpy arrays
(:mod:`diceengine.anydice.batch`) where it ran the body once a pair; ``benchmarks/risk.py`` asks the paper's RISK
problems of the die algebra itself.

``python -m benchmarks.anydice [--rounds N]``; skipped cleanly when icepool is not installed. Timings on a shared
machine are indicative; the ratios are what the goal reads.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from benchmarks.exact_peers import GOAL, available, fill, measure_one, row

#: (an AnyDice program, icepool's expression of the same odds)
PROBLEMS: list[tuple[str, str]] = [
    ("output [highest 5 of 10d[explode d10]]", "d10.explode(depth=2).highest(10, 5)"),
    ("output [highest 8 of 16d10]", "d10.highest(16, 8)"),
    ("output [highest 2 of 20d10]", "d10.highest(20, 2)"),
    # the icepool paper's RISK problem, 3 dice a side, as an AnyDice program: the pairs the attacker wins
    ("function: risk A:s B:s { result: (1@A > 1@B) + (2@A > 2@B) + (3@A > 3@B) }\noutput [risk 3d6 3d6]",
     "d6.pool(3).sort_pair('>', d6.pool(3)).size()"),
]


_CHILD = fill('de.anydice("output [highest 1 of 2d4]")[0].mean()', "de.anydice(ours_expr)[0].mean()")


def run(rounds: int = 5) -> Iterator[str]:
    """The report's lines."""
    if not available():
        yield "AnyDice programs against icepool: skipped (pip install -e '.[bench]' to compare with icepool)"
        return
    yield (f"AnyDice programs against icepool, fresh processes ({rounds} per row, median of the per-process ratios; "
           f"goal: first and repeated call <= {GOAL}x)")
    for program, peer in PROBLEMS:
        shown = program if len(program) <= 40 else program[:37] + "..."
        yield row(f"{shown:<40}", measure_one(program, peer, rounds, _CHILD))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for line in run(args.rounds):
        print(line, flush=True)


if __name__ == "__main__":
    main()
