"""Cold start (issue 25): a new process's first roll, as a user's first command pays it.

``dice roll "4d6kh3"`` against ``python -c "import d20; print(d20.roll('4d6kh3'))"`` (the ``bench`` extra),
fresh processes alternated with the peer's, the median of the pairwise ratios (as ``hyperfine`` compares
commands); and ``import diceengine; diceengine.roll("4d6kh3")`` alone, the median wall time of fresh processes.
Goals: at most 0.5x d20's one-liner; the import and roll at most 80 ms on a quiet machine.

Both sides run as a user's installed copy does, from compiled bytecode: the processes are started without
``PYTHONDONTWRITEBYTECODE``, so that the warm-up runs write the ``.pyc`` files of an editable checkout (an installed
package has them from ``pip install``). ``python -m benchmarks.cold_start [--runs N]``. Never a timed test: a loaded
machine slows both sides. The processes' CPU time (user and system, from the kernel) is given beside the wall time:
on a shared machine a process also waits for a core, which its CPU time leaves out.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.peers import load_peer

GOAL, IMPORT_GOAL = 0.5, 0.080


def _dice_command() -> list[str]:
    script = Path(sys.executable).with_name("dice")
    if script.exists():
        return [str(script)]
    found = shutil.which("dice")
    return [found] if found else [sys.executable, "-m", "diceengine.cli"]


#: the environment of the processes timed: bytecode written and read, as an installed package's
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (s) of a fresh process running ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int = 11) -> dict[str, float]:
    """Median wall times (s) and the median of the pairwise ratios (``cpu_*``: the same of the CPU times)."""
    ours = [*_dice_command(), "roll", "4d6kh3"]
    peer = [sys.executable, "-c", "import d20; print(d20.roll('4d6kh3'))"]
    library = [sys.executable, "-c", "import diceengine; diceengine.roll('4d6kh3')"]
    for _ in range(2):  # files read into the page cache, bytecode written
        _timed(ours), _timed(peer), _timed(library)
    pairs, cpu_pairs, mine, theirs, lib, cpu_lib = [], [], [], [], [], []
    for i in range(runs):
        if i % 2:
            b = _timed(peer)
            a = _timed(ours)
        else:
            a = _timed(ours)
            b = _timed(peer)
        mine.append(a[0])
        theirs.append(b[0])
        pairs.append(a[0] / b[0])
        cpu_pairs.append(a[1] / b[1])
        wall, cpu = _timed(library)
        lib.append(wall)
        cpu_lib.append(cpu)
    return {"ratio": statistics.median(pairs), "ours": statistics.median(mine), "peer": statistics.median(theirs),
            "library": statistics.median(lib), "cpu_ratio": statistics.median(cpu_pairs),
            "cpu_library": statistics.median(cpu_lib)}


def run(runs: int = 11) -> Iterator[str]:
    if load_peer() is None:
        yield "cold start against d20: skipped (pip install -e '.[bench]')"
        return
    m = measure(runs)
    ok = "ok" if m["ratio"] <= GOAL else "MISSED"
    yield (f"cold start: dice roll 4d6kh3 {m['ours'] * 1e3:.0f} ms, d20's one-liner {m['peer'] * 1e3:.0f} ms: "
           f"{m['ratio']:.2f}x (median of {runs} alternated pairs; goal <= {GOAL}x; CPU time {m['cpu_ratio']:.2f}x)"
           f"  {ok}")
    ok = "ok" if m["library"] <= IMPORT_GOAL else "MISSED (goal on a quiet machine)"
    yield (f"cold start: import diceengine; roll('4d6kh3'): {m['library'] * 1e3:.0f} ms (goal <= 80 ms; CPU time "
           f"{m['cpu_library'] * 1e3:.0f} ms)  {ok}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    for line in run(parser.parse_args().runs):
        print(line, flush=True)


if __name__ == "__main__":
    main()
