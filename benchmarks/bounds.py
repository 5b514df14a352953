"""Every row of issue 10's table, and the largest accepted expression of each kind, each in a fresh process:
wall time of the call (import and parser building excluded) and peak memory (``ru_maxrss``).

    python -m benchmarks.bounds            # the table
    python -m benchmarks.bounds --json     # the numbers

The budget (README, "Bounds"): exact odds answer within about 1 s and 256 MiB or refuse in
milliseconds; one roll with its text and its dice within about 0.2 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

#: (label, call, expression, system, options)
CASES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("issue", "distribution", "d10000!<7955", "standard", {}),
    ("issue", "distribution", "8D-1 vs 1000D", "d6wild", {}),
    ("issue", "distribution", "2d10000!k1", "standard", {}),
    ("issue", "distribution", "d2*1000000000", "standard", {}),
    ("issue", "distribution", "1D+7 vs 1000000000+50D", "d6", {}),
    ("issue", "distribution", "40c15f", "ffg", {}),
    ("issue", "distribution", "400D", "d6wild", {"complication": "remove_highest", "character_point_explodes": True}),
    ("issue", "distribution", "20D*4 vs 5D", "d6wild", {}),
    ("issue", "distribution", "5D01000000", "standard", {}),
    ("issue", "roll", "9999d100000r>=66", "standard", {}),
    ("issue", "sample", "9999d6ro<=2", "standard", {}),
    ("issue", "roll", "12D999999>10", "standard", {}),
]

#: kinds of exact odds, each a family of expressions growing with N: (kind, system, template, options)
KINDS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("sum of dice", "standard", "{n}d1000", {}),
    ("keep highest half", "standard", "{n}d6kh{h}", {}),
    ("exploding dice", "standard", "{n}d10!", {}),
    ("success counts, exploding, keep", "standard", "{n}d10>=7!kh{h}", {}),
    ("huge die", "standard", "2d{n}", {}),
    ("D6 opposed codes", "d6", "{n}D vs {n}D", {}),
    ("Wild Die, remove highest", "d6wild", "{n}D", {"complication": "remove_highest"}),
    ("Wild Die opposed", "d6wild", "{n}D+2 vs {n}D", {}),
    ("FFG pool", "ffg", "{n}p{n}c", {}),
]


def expression_of(template: str, n: int) -> str:
    return template.format(n=n, h=max(1, n // 2))


def accepted(system: str, template: str, options: dict[str, Any], n: int) -> bool:
    """Whether the work budget accepts the exact odds of the template at ``n`` (estimate only)."""
    import diceengine as de
    from diceengine.api import plan

    try:
        cost = plan(expression_of(template, n), system, **options).exact_cost()
        cost.check()
    except de.DiceError:
        return False
    return True


def largest_accepted(system: str, template: str, options: dict[str, Any], top: int = 1_000_000) -> int:
    """The largest ``n`` whose exact odds the budget accepts (they grow with ``n``), by bisection."""
    lo, hi = 1, top
    if not accepted(system, template, options, lo):
        return 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if accepted(system, template, options, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


_CHILD = r"""
import json, resource, sys, time
import diceengine as de
from diceengine.api import plan
call, expression, system, options = json.loads(sys.argv[1])
try:
    plan("1d6"); plan("1", system)  # build the parser outside the measure
except de.DiceError:
    pass
start = time.perf_counter()
try:
    if call == "roll":
        r = de.roll(expression, system, seed=1, **options)
        str(r); r.dice
    elif call == "sample":
        de.sample(expression, 1000, system, seed=1, **options)
    else:
        de.distribution(expression, system, **options)
    answer = "answered"
except de.DiceError as err:
    answer = type(err).__name__ + ": " + err.message
elapsed = time.perf_counter() - start
print(json.dumps({"seconds": elapsed, "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "answer": answer}))
"""


def measure(call: str, expression: str, system: str, options: dict[str, Any]) -> dict[str, Any]:
    """Time and peak memory of one call in a fresh Python process."""
    out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([call, expression, system, options])],
                         capture_output=True, text=True, timeout=600, check=False)
    if out.returncode != 0:
        return {"seconds": float("nan"), "peak_mib": float("nan"), "answer": "crashed: " + out.stderr[-200:]}
    return json.loads(out.stdout)


def baseline() -> float:
    """Peak memory of a fresh process that imports the engine and rolls ``1d6`` (MiB)."""
    return measure("roll", "1d6", "standard", {})["peak_mib"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    base = baseline()
    rows = []
    cases = list(CASES)
    for kind, system, template, options in KINDS:
        n = largest_accepted(system, template, options)
        cases.append((f"largest accepted: {kind}", "distribution", expression_of(template, n), system, options))
    for label, call, expression, system, options in cases:
        found = measure(call, expression, system, options)
        rows.append({"label": label, "call": call, "expression": expression, "system": system, "options": options,
                     **found, "extra_mib": found["peak_mib"] - base})
    if args.json:
        print(json.dumps({"baseline_mib": base, "rows": rows}, indent=2))
        return 0
    print(f"fresh process baseline: {base:.0f} MiB peak (import, parsers, one roll)")
    print(f"{'call':<60} {'time':>9} {'peak':>9}  answer")
    for r in rows:
        opts = "".join(f", {k}={v!r}" for k, v in r["options"].items())
        text = f"{r['call']}({r['expression']!r}, {r['system']}{opts})"
        print(f"{text:<60} {r['seconds']:>8.3f}s {r['peak_mib']:>6.0f}MiB  {r['answer'][:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
