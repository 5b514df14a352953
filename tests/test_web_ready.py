"""Ready before it listens: the tables' schema and migrations done at start, not on the first request (a real
``dice serve`` on a fresh SQLite file and on PostgreSQL: the schema is there before any table request); the
readiness route (in the OpenAPI schema, 503 in the caller's language when the database does not answer); two
worker processes starved of CPU as they start, none declared dead by uvicorn's supervisor."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from .test_web_tables import make_client

ROOT = Path(__file__).resolve().parents[1]


def head_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(ROOT / "diceengine/table/migrations"))
    return str(ScriptDirectory.from_config(config).get_current_head())


def start(db: str, cwd: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str, Path]:
    from benchmarks.web_load_tables import free_port

    port = free_port()
    log = cwd / f"serve-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--db", db,
                                 "--compute-workers", "0", "--no-access-log", *extra], cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                start_new_session=True)
    return proc, f"http://127.0.0.1:{port}", log


def first_answer(proc: subprocess.Popen[bytes], base: str, path: str = "/api/health") -> Any:
    import httpx2 as httpx

    deadline = time.time() + 120
    while True:
        assert proc.poll() is None and time.time() < deadline, "the server did not start"
        try:
            return httpx.get(base + path, timeout=2)
        except httpx.HTTPError:
            time.sleep(0.05)


def stop(proc: subprocess.Popen[bytes]) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


def test_the_schema_is_built_before_the_first_answer_on_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "fresh.sqlite"
    proc, base, _ = start(str(db), tmp_path)
    try:
        assert first_answer(proc, base).status_code == 200
        assert db.exists(), "no database yet: the schema waits for the first table request"
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT version_num FROM dice_alembic_version").fetchall() == [(head_revision(),)]
        ready = first_answer(proc, base, "/api/ready")
        assert ready.status_code == 200 and ready.json() == {"ready": True, "database": "sqlite"}
    finally:
        stop(proc)


def test_the_schema_is_built_before_the_first_answer_on_postgresql(tmp_path: Path) -> None:
    import sqlalchemy as sa

    from .test_table_store import _postgres_database

    admin, name, url = _postgres_database()
    proc, base, _ = start(url, tmp_path)
    try:
        assert first_answer(proc, base).status_code == 200
        engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM dice_alembic_version")).all() == [(head_revision(),)]
        engine.dispose()
        assert first_answer(proc, base, "/api/ready").json() == {"ready": True, "database": "postgresql"}
    finally:
        stop(proc)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_the_readiness_route_is_documented_and_says_why_not(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        assert c.get("/api/ready").json() == {"ready": True, "database": "sqlite"}
        op = c.get("/openapi.json").json()["paths"]["/api/ready"]["get"]
        assert op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("ReadyResponse")
        assert op["responses"]["503"]["content"]["application/json"]["schema"]["$ref"].endswith("ErrorResponse")
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    from fastapi.testclient import TestClient

    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    with TestClient(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "junk.sqlite"))),
                    raise_server_exceptions=False) as c:
        r = c.get("/api/ready")
        assert r.status_code == 503 and r.json()["error"] == "not_ready" and r.headers["Retry-After"] == "1"
        assert r.json()["message"].startswith("not ready: the tables' database does not answer (")
        fr = c.get("/api/ready", headers={"Accept-Language": "fr"}).json()["message"]
        assert fr.startswith("pas prêt : la base des tables ne répond pas (")


def spawned_children(pid: int) -> set[int]:
    """The worker processes uvicorn's supervisor ``pid`` spawned (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
            if stat and int(stat.rpartition(")")[2].split()[1]) == pid \
                    and b"spawn_main" in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_two_workers_start_cleanly_when_starved(tmp_path: Path) -> None:
    """``--workers 2`` on a machine so loaded that a starting worker gets no CPU for 7 s (stopped with SIGSTOP, then
    let go: what a loaded machine does to it, without loading the machine): both server processes start and serve,
    none declared dead and started again by uvicorn's supervisor (whose health check gave a worker 5 s)."""
    import signal

    proc, base, log = start(str(tmp_path / "t.sqlite"), tmp_path, "--workers", "2", "--log-level", "info")
    stopped: set[int] = set()
    try:
        deadline = time.time() + 60
        while len(stopped) < 2:
            assert proc.poll() is None and time.time() < deadline, log.read_text()
            for child in spawned_children(proc.pid) - stopped:
                os.kill(child, signal.SIGSTOP)
                stopped.add(child)
            time.sleep(0.01)
        time.sleep(7)
        for child in stopped:
            try:
                os.kill(child, signal.SIGCONT)
            except ProcessLookupError:  # killed by the supervisor, taken for dead
                pass
        assert first_answer(proc, base).status_code == 200
        deadline = time.time() + 120
        while log.read_text().count("Application startup complete") < 2:
            assert proc.poll() is None and time.time() < deadline, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
        assert "died" not in text and text.count("Started server process") == 2, text
        assert spawned_children(proc.pid) == stopped
    finally:
        for child in stopped:
            try:
                os.kill(child, signal.SIGCONT)
            except ProcessLookupError:
                pass
        stop(proc)


def test_dice_serve_gives_its_workers_time_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from diceengine.cli import main

    given: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: given.update(kw))
    assert main(["serve", "--workers", "2"]) == 0
    assert given["workers"] == 2 and given["timeout_worker_healthcheck"] == 60
    assert main(["serve", "--workers", "2", "--worker-timeout", "90"]) == 0 and given["timeout_worker_healthcheck"] == 90
    assert main(["serve", "--worker-timeout", "0"]) == 2
