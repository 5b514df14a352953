"""A step is answered only once its group's commit holds it: a real ``dice serve`` (SQLite with an ``fsync`` a
group, ``DICE_TABLE_SYNC=full``; PostgreSQL when ``DICEENGINE_TEST_POSTGRES`` is set) takes the rolls of 24
concurrent clients at four tables and is killed (SIGKILL, its whole process group) the moment its 120th answer
arrives; started again, it shows every answered roll in its table's log, under the step number and member it
was answered with. Nothing is timed.

A store answering before its commit (one deferred 50 ms, as a commit on a timer would be: planted) loses
answered rolls here on both databases. What a SIGKILL cannot show is an answer given after the commit's writes
but before its ``fsync`` (the operating system keeps what a killed process wrote; only a power cut loses it):
``test_a_commit_that_fails_stores_none_of_its_group_and_tells_each_caller`` checks that order in the store."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

import httpx2 as httpx
import sqlalchemy as sa

from benchmarks.web_load_tables import Server, free_port
from benchmarks.web_server import HOST

TABLES, PLAYERS, CLIENTS, KILL_AFTER = 4, 5, 24, 120


async def _seat(client: Any) -> tuple[str, list[tuple[str, str]]]:
    """A new table and its members: its id, each member's name and key."""
    made = await _created(client, "/tables", {"system": "standard", "gm": "GM"})
    members = [("GM", made["gm_key"])]
    for n in range(PLAYERS):
        joined = await _created(client, made["join_link"], {"name": f"p{n}"})
        members.append((f"p{n}", joined["player_key"]))
    return made["table_id"], members


async def _created(client: Any, path: str, body: dict[str, Any]) -> Any:
    """The answer of a setup request, its rate limit waited out."""
    while (r := await client.post(path, json=body)).status_code == 429:
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
    assert r.status_code == 201, r.text
    return r.json()


async def _roll_until_killed(server: Server) -> tuple[list[tuple[str, list[tuple[str, str]]]], dict[Any, str]]:
    """The tables, and each answered roll ((table id, step number) -> member), the server killed at once after
    the ``KILL_AFTER``-th answer."""
    answered: dict[tuple[str, int], str] = {}
    killed = asyncio.Event()
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{server.port}", timeout=30.0) as client:
        tables = [await _seat(client) for _ in range(TABLES)]

        async def roller(i: int) -> None:
            table_id, members = tables[i % TABLES]
            name, key = members[i % len(members)]
            while not killed.is_set():
                try:
                    r = await client.post(f"/tables/{table_id}/roll", json={"expression": f"1d20+{i}"},
                                          headers={"Authorization": f"Bearer {key}"})
                except httpx.HTTPError:
                    return  # the server is gone
                if killed.is_set():
                    return  # answered after the kill: the answer was sent before it, but not counted
                assert r.status_code == 200, r.text
                answered[(table_id, r.json()["step"]["seq"])] = f"{name} 1d20+{i}"
                if len(answered) == KILL_AFTER:
                    killed.set()
                    server.kill()  # at once, before anything else of this loop runs

        await asyncio.gather(*(roller(i) for i in range(CLIENTS)))
    return tables, answered


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_every_answered_step_is_in_the_log_after_a_sigkill(backend: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    admin = name = None
    if backend == "postgresql":
        from .test_table_store import _postgres_database

        admin, name, db = _postgres_database()
    else:
        db = str(tmp_path / "tables.sqlite")
    monkeypatch.setenv("DICE_TABLE_SYNC", "full")
    for limit in ("DICE_KEY_RATE", "DICE_KEY_BURST", "DICE_NEW_RATE", "DICE_NEW_BURST"):
        monkeypatch.setenv(limit, "100000")  # the server's request limits out of the way: this counts steps
    try:
        server = Server(free_port(), 1, db, cwd=str(tmp_path))
        try:
            tables, answered = asyncio.run(_roll_until_killed(server))
            assert len(answered) >= KILL_AFTER
            server.restart()
            found = {}
            with httpx.Client(base_url=f"http://{HOST}:{server.port}", timeout=30.0) as client:
                for table_id, members in tables:
                    log = client.get(f"/tables/{table_id}/log", headers={"Authorization": f"Bearer {members[0][1]}"})
                    assert log.status_code == 200
                    steps = log.json()["steps"]
                    assert [s["seq"] for s in steps] == list(range(1, len(steps) + 1))
                    found.update({(table_id, s["seq"]): f"{s['member']} {s['expression']}" for s in steps
                                  if s["kind"] == "roll"})
        finally:
            server.stop()
        missing = {step: who for step, who in answered.items() if found.get(step) != who}
        assert not missing, f"{len(missing)} of {len(answered)} answered rolls not in the log: {missing}"
    finally:
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
