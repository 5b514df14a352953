"""How well the work budget's estimate follows the real time of exact odds, on a grid of keep / drop with
explosions (issue 11): for each expression, the estimate (``Plan.exact_cost``, in budget units), the work the
primitives count, and the wall time of the distribution computed anyway (budget bypassed), in a worker
process with a time limit.

    python -m benchmarks.cost_fit                  # the table
    python -m benchmarks.cost_fit --json           # the numbers
    python -m benchmarks.cost_fit --limit 20       # seconds allowed to one distribution (default 15)

What to read: every accepted expression answers within a couple of seconds; the refused ones that were
measured take long (or the budget's memory), the first refused of each row (smallest ``N``) is timed, the
larger ones grow from it.
"""

from __future__ import annotations

import argparse
import json
import select
import subprocess
import sys
import time
from typing import Any

#: the families swept: (template, options); ``{n}`` dice of ``{m}`` sides, ``{a}`` / ``{b}`` keep sizes
TEMPLATES: list[tuple[str, dict[str, Any]]] = [
    ("{n}d{m}!kh{a}kl{a}", {}),           # a middle window of ranks: drop the lowest and the highest
    ("{n}d{m}!kh2kl2", {}),
    ("{n}d{m}!dl{h}", {}),
    ("{n}d{m}!kh1", {}),
    ("{n}d{m}kh{a}kl{a}", {}),
    ("{n}d{m}!!kh2", {}),
    ("{n}d{m}!kh{a}kl{a}", {"explosions": "dice"}),
    ("{n}d{m}!kh2kl2", {"explosions": "dice"}),
    ("{n}d{m}!dl{h}", {"explosions": "dice"}),
    ("{n}d{m}!kh1", {"explosions": "dice"}),
    ("{n}d{m}!!kh2", {"explosions": "dice"}),
]
COUNTS = range(2, 13)
SIDES = (4, 6, 10, 20)


def expression_of(template: str, n: int, m: int) -> str:
    return template.format(n=n, m=m, a=max(1, n - 1), h=max(1, n // 2))


_WORKER = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import diceengine as de
from diceengine import api
from diceengine.limits import MAX_CELLS, MAX_WORK
from diceengine.pmf import WORK
api.plan("1d6!kh1").distribution()
for line in sys.stdin:
    expression, options, run = json.loads(line)
    out = {}
    try:
        prepared = api.plan(expression, **options)
        cost = prepared.exact_cost()
        out.update(work=cost.work, cells=cost.cells, accepted=cost.work <= MAX_WORK and cost.cells <= MAX_CELLS)
    except de.DiceError as err:
        out.update(work=None, cells=None, accepted=False, refusal=err.message.splitlines()[0])
        run = False
    if run:
        WORK.work = 0
        start = time.perf_counter()
        try:
            prepared.distribution()
            out["seconds"] = time.perf_counter() - start
            out["counted"] = WORK.work
        except de.DiceError as err:
            out["seconds"] = time.perf_counter() - start
            out["error"] = err.message.splitlines()[0]
        except MemoryError:
            out["error"] = "out of memory (3 GiB)"
    api.PLANS.clear()
    print(json.dumps(out), flush=True)
"""


class Worker:
    """A Python process answering one expression a line; killed and started again past the time limit."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, expression: str, options: dict[str, Any], run: bool, limit: float) -> dict[str, Any]:
        if self.proc is None:
            self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([expression, options, run]) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], limit)
        if not ready:
            self.close()
            return {"timeout": limit}
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            return {"error": "worker died"}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def sweep(limit: float) -> list[dict[str, Any]]:
    """Every expression of the grid: its estimate; its time when accepted, and for the first refused of each
    row (the smallest ``N``, up to the time limit)."""
    worker = Worker()
    rows = []
    try:
        for template, options in TEMPLATES:
            for m in SIDES:
                refused_timed = False
                for n in COUNTS:
                    expression = expression_of(template, n, m)
                    estimate = worker.ask(expression, options, False, limit)
                    run = bool(estimate.get("accepted")) or (not refused_timed and estimate.get("work") is not None)
                    found = worker.ask(expression, options, True, limit + 30) if run else estimate
                    if run and not estimate.get("accepted"):
                        refused_timed = True
                    if "timeout" in found:
                        found = {**estimate, "seconds": None, "timeout": limit}
                    rows.append({"template": template, "options": options, "expression": expression, **found})
    finally:
        worker.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=float, default=15.0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = sweep(args.limit)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'expression':<22} {'options':<20} {'estimate':>10} {'counted':>10} {'time':>9}  answer")
    for r in rows:
        opts = ",".join(f"{k}={v}" for k, v in r["options"].items())
        est = f"{r['work']:.3g}" if r.get("work") is not None else "-"
        counted = f"{r['counted']:.3g}" if r.get("counted") is not None else ""
        if r.get("timeout"):
            secs = f">{r['timeout']:.0f}s"
        else:
            secs = f"{r['seconds']:.3f}s" if r.get("seconds") is not None else ""
        answer = "accepted" if r.get("accepted") else ("refused: " + r.get("refusal", "over budget"))
        if r.get("error"):
            answer += f" ({r['error']})"
        print(f"{r['expression']:<22} {opts:<20} {est:>10} {counted:>10} {secs:>9}  {answer}")
    accepted = [r for r in rows if r.get("accepted")]
    timed = [r for r in accepted if r.get("seconds") is not None]
    refused = [r for r in rows if not r.get("accepted") and (r.get("seconds") is not None or r.get("timeout"))]
    print(f"\n{len(rows)} expressions, {len(accepted)} accepted; slowest accepted: "
          f"{max((r['seconds'] for r in timed), default=0):.2f}s "
          f"({max(timed, key=lambda r: r['seconds'])['expression'] if timed else '-'}, "
          f"{sum(1 for r in accepted if r.get('timeout'))} over the limit)")
    quick = [r for r in refused if r.get("seconds") is not None and r["seconds"] < 1.0 and not r.get("error")]
    print(f"first refused of each row timed: {len(refused)}; of those answering within 1 s: "
          f"{', '.join(r['expression'] + ' ' + str(r['options'] or '') for r in quick) or 'none'}")
    print(f"sweep: {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
