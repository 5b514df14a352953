"""The engine's own copies of what a library does, each against the library it replaces (issue 33): why each stays.

- ``diceengine.records`` (frozen records) against ``dataclasses``: 25 node classes declared and built once in a
  fresh process that has imported ``diceengine`` (``dataclasses`` is not imported by then, so its side pays its
  import, as the engine's cold start would);
- the plan cache's sizes by shape against walking each plan (:func:`diceengine.plan_cache.footprint`), per
  never-seen quick-path plan, beside the whole cost of a never-seen expression;
- ``diceengine.rolljson`` (a roll's JSON written directly) against ``roll.model().model_dump_json()``.

Ratios measured in the same run; never a timed test. ``python -m benchmarks.library_copies``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
import timeit

_DECLARE = '''
for i in range(25):
    ns = {"__annotations__": {"a": "int", "b": "object", "pos": "int | None"}, "pos": field(default=None, compare=False)}
    dataclass(frozen=True, slots=True)(type(f"N{i}", (), ns))(1, 2)
'''
_FRESH = "import sys, diceengine; assert 'dataclasses' not in sys.modules\nimport time; t = time.perf_counter()\n"


def _fresh_ms(code: str, runs: int = 15) -> float:
    """The median time of ``code`` in fresh processes, after ``import diceengine``."""
    times = []
    for _ in range(runs):
        src = _FRESH + code + "\nprint(time.perf_counter() - t)"
        out = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, check=True).stdout
        times.append(float(out.split()[-1]) * 1e3)
    return statistics.median(times)


def records_row() -> str:
    mine = _fresh_ms("from diceengine.records import dataclass, field" + _DECLARE)
    theirs = _fresh_ms("from dataclasses import dataclass, field" + _DECLARE)
    return f"records: 25 node classes {mine:.1f} ms, with dataclasses {theirs:.1f} ms ({theirs / mine:.1f}x)"


def shapes_row() -> str:
    import diceengine as de
    from diceengine.plan_cache import PlanCache, footprint

    rng = random.Random(1)
    exprs = [f"{rng.randint(1, 9)}d{rng.choice([4, 6, 8, 10, 12, 20])}kh{rng.randint(1, 3)}+{n}" for n in range(400)]
    de.roll("2d6kh1+1", seed=1)  # the parser and the renderers warmed
    start = time.perf_counter()
    plans = [de.roll(e, seed=1)._plan for e in exprs]
    whole = (time.perf_counter() - start) / len(exprs) * 1e6
    cache = PlanCache()
    by_shape = min(timeit.repeat(lambda: [cache.plan_bytes(p) for p in plans], number=3, repeat=5)) / 3 / len(plans)
    walked = min(timeit.repeat(lambda: [footprint(p) for p in plans], number=3, repeat=5)) / 3 / len(plans)
    return (f"plan sizes: by shape {by_shape * 1e6:.1f} us, walked {walked * 1e6:.1f} us ({walked / by_shape:.0f}x), "
            f"a never-seen expression {whole:.0f} us in all")


def json_row() -> str:
    import diceengine as de

    roll = de.roll("4d6kh3+1d8!", seed=1)
    direct = min(timeit.repeat(roll.model_dump_json, number=3000, repeat=5)) / 3000
    pydantic = min(timeit.repeat(lambda: roll.model().model_dump_json(), number=3000, repeat=5)) / 3000
    return f"roll JSON: direct {direct * 1e6:.1f} us, through pydantic {pydantic * 1e6:.1f} us ({pydantic / direct:.0f}x)"


def main() -> None:
    for row in (records_row, shapes_row, json_row):
        print(row())


if __name__ == "__main__":
    main()
