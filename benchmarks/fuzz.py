"""Fuzz the engine: ``python -m benchmarks.fuzz --n 100000`` prints the failures by class, each with its
smallest input (the harness is :mod:`tests.fuzz_strategies`). Exit status 1 when anything failed."""

from __future__ import annotations

import argparse
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="calls to generate")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: derandomized)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds before a call counts as a hang")
    args = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    from tests.fuzz_strategies import run

    start = time.perf_counter()
    report = run(args.n, args.seed, args.time_limit)
    print(report.summary())
    print(f"{time.perf_counter() - start:.0f} s")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
