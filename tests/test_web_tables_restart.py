"""The server killed (SIGKILL) in the middle of a load of rolls and started again: every live client of every
table reconnects with ``Last-Event-ID`` and resumes; no acknowledged roll (its request answered 200) is lost,
none is doubled, and each client ends with the whole log as the database holds it. Against real ``dice serve``
processes: one on SQLite, and two (``--workers 2``) on PostgreSQL when ``DICEENGINE_TEST_POSTGRES`` is set.

Nothing here is timed: the benchmark's big run (``python -m benchmarks.web_load --tables 50 --kill-at 30``)
measures the latencies."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from benchmarks.web_load_tables import Server, free_port, table_run


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "workers"), [("sqlite", 1), ("sqlite-normal", 1), ("postgresql", 2)])
def test_a_server_killed_under_load_loses_and_doubles_nothing(backend: str, workers: int, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``sqlite-normal``: SQLite without an fsync per step (``$DICE_TABLE_SYNC=normal``), which a killed server
    (not a power cut) loses nothing of either."""
    import sqlalchemy as sa

    from diceengine.table import open_store

    admin = name = None
    if backend == "postgresql":
        from .test_table_store import _postgres_database

        admin, name, db = _postgres_database()
    else:
        db = str(tmp_path / "tables.sqlite")
    monkeypatch.setenv("DICE_TABLE_SYNC", "normal" if backend == "sqlite-normal" else "full")
    try:
        server = Server(free_port(), workers, db, cwd=str(tmp_path))
        try:
            run = asyncio.run(table_run(server, tables=3, clients=3, rate=5, seconds=4, kill_at=1.5, drain=60))
        finally:
            server.stop()
        assert run.killed_clock is not None
        before = [s for acked in run.acked for s in acked.values() if s < run.killed_clock]
        after = [s for acked in run.acked for s in acked.values() if s > run.killed_clock + run.down_seconds]
        assert before and after, (run.refused, run.failed, run.down_seconds, run.sent)  # rolls on both sides
        assert run.lost() == 0 and run.duplicated() == 0 and run.out_of_order() == 0
        assert all(f.reconnects >= 1 for f in run.followers)  # every stream was cut by the kill
        with open_store(db, create=False) as store:
            for t, table_id in enumerate(run.table_ids):
                version = store.load(table_id).version
                assert set(run.acked[t]) <= set(range(4, version + 1))  # the acknowledged rolls are in the log
                for f in run.followers:
                    if f.table == t:  # the whole log, once each, in order: a roll stored but unanswered too
                        assert f.seen == list(range(1, version + 1))
    finally:
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
