"""Benchmarks of the committed seeds (``python -m benchmarks.table_provable [STEPS]``; the ``table`` extra).

- A roll through a committed seed (:func:`diceengine.table.roll` on a table made with ``provable=True``: the
  HMAC-SHA256 derivation, the nonce, the seal of a secret roll) against today's roll of a table with a ``seed``,
  in memory and logged on SQLite (``sync="normal"``), as ratios. Goal: at most 10 % more.
- The verification of a log of ``STEPS`` steps (10,000 by default) from its JSON export
  (:func:`diceengine.table.verify`, every die recomputed). Goal: a few seconds.

Ratios, not absolute times: the machine the figures are taken on is shared.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid

from diceengine import table as T

EXPRESSION, SYSTEM = "2a1p vs 2d", "ffg"


def _in_memory(provable: bool, n: int) -> float:
    """Processor seconds per roll on a table in memory (less sensitive to a loaded machine than the wall clock),
    ``n`` rolls from a fresh table."""
    table, _ = T.new_table("memory", SYSTEM, "GM", ["Kira"], seed=None if provable else 1, provable=provable)
    table = T.roll(table, "Kira", EXPRESSION)
    start = time.process_time()
    for _ in range(n):
        table = T.roll(table, "Kira", EXPRESSION)
    return (time.process_time() - start) / n


def _logged(folder: str, provable: bool, n: int) -> float:
    """Processor seconds per logged roll (a seat's roll, SQLite ``sync="normal"``)."""
    store = T.SqlTableStore(os.path.join(folder, f"{provable}-{uuid.uuid4().hex}.db"), sync="normal")
    table, keys = T.new_table(f"bench-{provable}", SYSTEM, "GM", ["Kira"], seed=None if provable else 1,
                              provable=provable)
    store.create(table)
    seat = store.seat(table.id, keys["Kira"])
    for _ in range(20):
        seat.roll(EXPRESSION)
    start = time.process_time()
    for _ in range(n):
        seat.roll(EXPRESSION)
    elapsed = (time.process_time() - start) / n
    store.close()
    return elapsed


def _interleaved(fn, rounds: int = 9) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The best of ``rounds`` runs of today's roll and of the committed one, taken in turn (load hits both)."""
    today, committed = [], []
    for _ in range(rounds):
        today.append(fn(False))
        committed.append(fn(True))
    return min(today), min(committed)


def long_log(steps: int) -> str:
    """The export of an ended table of about ``steps`` steps: public and secret rolls, client seeds, a rotation."""
    table, _ = T.new_table("marathon", SYSTEM, "GM", ["Kira", "Jax"], provable=True)
    i = 0
    while table.version < steps - 1:
        i += 1
        if i % 500 == 0:
            table = T.set_client_seed(table, "Kira", f"seed {i}")
        elif i == steps // 2:
            table = T.rotate_seed(table, "GM")
        else:
            table = T.roll(table, ("Kira", "Jax", "GM")[i % 3], EXPRESSION, secret=i % 3 == 0)
    return T.export_log(T.end_table(table, "GM"))


def main(argv: list[str]) -> None:
    steps = int(argv[0]) if argv else 10_000
    memory = _interleaved(lambda p: _in_memory(p, 500))
    with tempfile.TemporaryDirectory() as folder:
        logged = _interleaved(lambda p: _logged(folder, p, 300))
    print(f"a roll of {EXPRESSION!r} ({SYSTEM}): today's (a table's seed) vs through a committed seed")
    print(f"{'':22} {'today ms':>10} {'committed ms':>13} {'ratio':>7}")
    for label, (today, committed) in (("in memory", memory), ("SQLite, sync=normal", logged)):
        print(f"{label:22} {today * 1e3:10.3f} {committed * 1e3:13.3f} {committed / today:7.3f}")
    text = long_log(steps)
    start = time.perf_counter()
    report = T.verify(text)
    elapsed = time.perf_counter() - start
    print(f"verify: {report.steps} steps, {report.checked} recomputed, ok={report.complete}: {elapsed:.2f} s "
          f"({elapsed / report.steps * 1e6:.0f} us / step)")


if __name__ == "__main__":
    main(sys.argv[1:])
