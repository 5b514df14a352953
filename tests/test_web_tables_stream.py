"""The live log's fan-out (diceengine.web.table_events): one watcher per server process, not a database poll per
client; on PostgreSQL the database's notification wakes the other processes, and a step stored by a program
that sends none still arrives (the recheck); the refusals in the request's language."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from diceengine.web import create_app
from diceengine.web.tables import TableSettings

from .test_web_tables import Stream, bearer, make_client, seated, serve


def count_statements(engine: Any) -> list[str]:
    """Every SQL statement ``engine`` runs from now on."""
    import sqlalchemy as sa

    ran: list[str] = []
    lock = threading.Lock()

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        with lock:
            ran.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    return ran


def test_many_clients_of_a_table_cost_one_poll(tmp_path: Path) -> None:
    """Ten clients following a table: while nothing happens, the process reads the database at its poll's pace
    (20 a second), not ten times that; a roll is read once for all ten and reaches each of them."""
    import httpx2 as httpx

    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite"), poll_seconds=0.05,
                                                     heartbeat_seconds=30))
    server, thread, base = serve(app)
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            keys = [t["keys"][n] for n in ("GM", "Kira", "Jax")]
            streams = [Stream(base, t["id"], keys[i % 3]) for i in range(10)]
            for s in streams:
                assert [i for i, _ in s.take(4)] == [1, 2, 3, 4]  # the seed's commitment, three joins
            ran = count_statements(app.state.tables.store.engine)
            time.sleep(1.0)
            idle = len(ran)
            assert 0 < idle <= 30, ran  # a poll per process: 20 a second (a poll per client: 200)
            assert all("dice_tables.version" in q for q in ran)
            del ran[:]
            step = c.post(f"/tables/{t['id']}/roll", json={"expression": "1d20", "system": "standard"},
                          headers=bearer(t["keys"]["Kira"])).json()["step"]
            for s in streams:
                [(ident, data)] = s.take(1)
                assert ident == step["seq"] and data["dice"] == step["dice"]
            steps_read = [q for q in ran if "dice_steps" in q and q.lstrip().upper().startswith("SELECT")]
            assert len(steps_read) <= 2, steps_read  # the roll's own step, then the watcher's reading
            for s in streams:
                s.close()
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def postgres() -> Iterator[str]:
    import sqlalchemy as sa

    from .test_table_store import _postgres_database

    admin, name, url = _postgres_database()
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_on_postgresql_a_notification_wakes_the_other_process(postgres: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two applications on one PostgreSQL database, neither reading the versions on its own (a recheck an hour
    apart): a roll through one reaches a client of the other, by the notification alone, which carries the step
    (nothing read back); a step too large for a notification is read back."""
    import httpx2 as httpx

    from diceengine.table.notices import MAX_PAYLOAD
    from diceengine.web import table_events

    reads: list[int] = []
    real_read = table_events._read_since

    def counted(*args: Any) -> Any:
        reads.append(args[2])
        return real_read(*args)

    monkeypatch.setattr(table_events, "_read_since", counted)
    settings = {"db": postgres, "recheck_seconds": 3600.0, "heartbeat_seconds": 30.0}
    one, one_thread, one_base = serve(create_app(workers=0, tables=TableSettings(**settings)))  # type: ignore[arg-type]
    two, two_thread, two_base = serve(create_app(workers=0, tables=TableSettings(**settings)))  # type: ignore[arg-type]
    try:
        with httpx.Client(base_url=one_base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            far = Stream(two_base, t["id"], t["keys"]["Jax"], after=4)
            time.sleep(0.5)  # the other process's LISTEN is in place (and the table read again then)
            before = list(reads)
            steps = [c.post(f"/tables/{t['id']}/roll", json={"expression": "1d20", "system": "standard"},
                            headers=bearer(t["keys"]["Kira"])).json()["step"] for _ in range(5)]
            got = far.take(5, timeout=20)
            assert [i for i, _ in got] == [5, 6, 7, 8, 9] and [d["dice"] for _, d in got] == [s["dice"] for s in steps]
            assert reads == before  # the five steps came with their notifications: nothing read back
            big = c.post(f"/tables/{t['id']}/roll", json={"expression": "200d6", "system": "standard"},
                         headers=bearer(t["keys"]["Kira"])).json()["step"]
            assert len(json.dumps(big)) > MAX_PAYLOAD
            [(ident, data)] = far.take(1, timeout=20)
            assert ident == 10 and data["dice"] == big["dice"] and reads == [*before, 9]  # too large: read back
            far.close()
    finally:
        one.should_exit = two.should_exit = True
        one_thread.join(10)
        two_thread.join(10)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_step_stored_by_another_program_reaches_the_stream(backend: str, tmp_path: Path,
                                                             request: pytest.FixtureRequest) -> None:
    """A step stored straight into the database by the library (no web server) reaches the live log: the poll
    reads the versions (SQLite), the store's own notification wakes it (PostgreSQL, no recheck for an hour)."""
    import httpx2 as httpx

    from diceengine.table import open_store

    db = str(tmp_path / "t.sqlite") if backend == "sqlite" else request.getfixturevalue("postgres")
    app = create_app(workers=0, tables=TableSettings(db=db, poll_seconds=0.05, recheck_seconds=3600.0))
    server, thread, base = serve(app)
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            gm = Stream(base, t["id"], t["keys"]["GM"], after=4)
            with open_store(db) as store:
                step = store.seat(t["id"], t["keys"]["Jax"]).roll("2d6", "standard", seed=7)
            [(ident, data)] = gm.take(1)
            assert ident == step.seq == 5 and data["dice"] == json.loads(step.model_dump_json())["dice"]
            gm.close()
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_table_gone_ends_its_streams(tmp_path: Path) -> None:
    import sqlalchemy as sa

    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite"), poll_seconds=0.05))
    server, thread, base = serve(app)
    try:
        import httpx2 as httpx

        with httpx.Client(base_url=base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            s = Stream(base, t["id"], t["keys"]["Kira"])
            s.take(3)
            with app.state.tables.store.engine.begin() as conn:
                conn.execute(sa.text("DELETE FROM dice_steps WHERE table_id = :t"), {"t": t["id"]})
                conn.execute(sa.text("DELETE FROM dice_tables WHERE id = :t"), {"t": t["id"]})
            s.thread.join(10)
            assert not s.thread.is_alive()  # the server ended the stream
    finally:
        server.should_exit = True
        thread.join(10)


def test_refusals_in_the_language_the_request_asks_for(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        t = seated(c)
        tid = t["id"]
        french = {"Accept-Language": "de-DE, fr-FR;q=0.9, en;q=0.8"}  # no German catalogue: French comes next
        r = c.get(f"/tables/{tid}/log", headers=french)
        assert r.status_code == 401 and r.json()["message"].startswith("cette requête demande la clé d'un membre")
        r = c.get(f"/tables/{tid}/log", headers={**french, **bearer("not a key")})
        assert r.status_code == 401 and r.json()["message"] == "aucun membre de cette table n'a cette clé"
        r = c.get(f"/tables/{tid}/log", headers={"Accept-Language": "en-GB", **bearer("not a key")})
        assert r.json()["message"] == "no member of this table has that key"
        r = c.get(f"/tables/{tid}/log", headers={"Accept-Language": "fr;q=0.1, en;q=0.5", **bearer("x")})
        assert r.json()["message"] == "no member of this table has that key"  # the weights decide
        r = c.get(f"/tables/{tid}/events", headers={**french, **bearer(t["keys"]["Kira"]), "Last-Event-ID": "x"})
        assert r.status_code == 400 and r.json()["message"] == "Last-Event-ID est un numéro d'étape"
        r = c.post(f"/tables/{tid}/undo", headers={**french, **bearer(t["keys"]["Kira"])})  # the game master's
        assert r.status_code == 403 and r.json()["error"] == "forbidden"
        english = c.post(f"/tables/{tid}/undo", headers=bearer(t["keys"]["Kira"])).json()["message"]
        assert r.json()["message"] != english and english.isascii()
        r = c.get(f"/tables/{tid}/log", headers={"Accept-Language": "*;q=abc, xx", **bearer("x")})
        assert r.status_code == 401 and r.json()["message"] == "no member of this table has that key"
