"""Benchmarks of the game table (``python -m benchmarks.table [POSTGRES_URL]``; the ``table`` extra).

- A logged roll: :meth:`diceengine.table.Seat.roll` (authenticate the key, load the table, roll, the exact odds
  before the roll, commit the step in one transaction), in rolls per second, on SQLite (a file, ``sync="full"``:
  each step on the disk before it returns; ``sync="normal"``: handed to the operating system, which outlives a
  killed process but not a power cut) and on PostgreSQL when a URL is given (or ``DICEENGINE_TEST_POSTGRES``).
- The same step on the table in memory (:func:`diceengine.table.roll`, no database), and a bare
  :func:`diceengine.roll` of the same expression: the cost of logging a roll, as a ratio.

Goal: a logged roll on SQLite under 1 ms. The database's commit (its fsync) is most of a durable step.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid

import diceengine as de
from benchmarks.timing import best
from diceengine import table as T

EXPRESSION, SYSTEM = "2a1p vs 2d", "ffg"


def _logged(where: str, n: int, sync: str = "full") -> float:
    """Seconds per logged roll, over ``n`` rolls on one table (after a warm-up)."""
    store = T.SqlTableStore(where, sync=sync) if "://" not in where else T.open_store(where)
    table, keys = T.new_table("bench-" + uuid.uuid4().hex[:8], SYSTEM, "GM", ["Kira"], seed=1)
    store.create(table)
    seat = store.seat(table.id, keys["Kira"])
    for _ in range(20):
        seat.roll(EXPRESSION)
    start = time.perf_counter()
    for _ in range(n):
        seat.roll(EXPRESSION)
    elapsed = (time.perf_counter() - start) / n
    store.close()
    return elapsed


def _in_memory(n: int) -> float:
    table, _ = T.new_table("memory", SYSTEM, "GM", ["Kira"], seed=1)
    table = T.roll(table, "Kira", EXPRESSION)
    start = time.perf_counter()
    for _ in range(n):
        table = T.roll(table, "Kira", EXPRESSION)
    return (time.perf_counter() - start) / n


def main(argv: list[str]) -> None:
    postgres = argv[0] if argv else os.environ.get("DICEENGINE_TEST_POSTGRES")
    de.roll(EXPRESSION, SYSTEM)
    bare = best(lambda: de.roll(EXPRESSION, SYSTEM), 5_000)
    memory = _in_memory(2_000)
    rows = [("bare de.roll", bare), ("table.roll in memory", memory)]
    with tempfile.TemporaryDirectory() as folder:
        rows.append(("SQLite, sync=full", _logged(os.path.join(folder, "full.db"), 300, "full")))
        rows.append(("SQLite, sync=normal", _logged(os.path.join(folder, "normal.db"), 1_000, "normal")))
    if postgres:
        rows.append(("PostgreSQL", _logged(postgres, 300)))
    print(f"a logged roll of {EXPRESSION!r} ({SYSTEM}), one writer")
    print(f"{'':24} {'ms / roll':>10} {'rolls / s':>10} {'x bare roll':>12}")
    for label, seconds in rows:
        print(f"{label:24} {seconds * 1e3:10.3f} {1 / seconds:10.0f} {seconds / bare:12.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
