"""A tables' database that cannot be opened: every table route answers 503 ``unavailable`` in the one error shape,
in the caller's language, and never says where the database is (a path, a host, a port, a user); the readiness
route says why not, without the address either."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import create_app
from diceengine.web.tables import TableSettings

ROUTES = [("POST", "/tables", {"system": "ffg", "gm": "GM"}, None),
          ("POST", "/tables/abcdefghijklmnopqrstuv/join", {"name": "Kira"}, None),
          ("GET", "/tables/abcdefghijklmnopqrstuv", None, "k" * 22),
          ("GET", "/tables/abcdefghijklmnopqrstuv/log", None, "k" * 22),
          ("GET", "/tables/abcdefghijklmnopqrstuv/events", None, "k" * 22),
          ("POST", "/tables/abcdefghijklmnopqrstuv/roll", {"expression": "2a"}, "k" * 22),  # the hot path
          ("POST", "/tables/abcdefghijklmnopqrstuv/undo", {}, "k" * 22)]


def unopenable(tmp_path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Databases that cannot be opened, and the words of their address that no answer may hold."""
    junk = tmp_path / "secret-place" / "junk.sqlite"
    junk.parent.mkdir()
    junk.write_bytes(b"not a database at all" * 100)
    return [(str(junk), ("secret-place", "junk.sqlite", str(tmp_path))),
            (str(tmp_path / "no-such-dir" / "t.sqlite"), ("no-such-dir", str(tmp_path))),
            ("postgresql://hidden_user@127.0.0.1:1/hidden_db", ("hidden_user", "hidden_db", "127.0.0.1", ":1"))]


def test_a_database_that_cannot_be_opened_is_a_503_that_does_not_say_where(tmp_path: Path) -> None:
    for db, address in unopenable(tmp_path):
        app = create_app(workers=0, tables=TableSettings(db=db))
        with TestClient(app, raise_server_exceptions=False) as c:
            for method, path, body, key in ROUTES:
                headers = {"Authorization": f"Bearer {key}"} if key else {}
                for lang, words in (("en", "cannot be opened"), ("fr", "ne s'ouvre pas")):
                    r = c.request(method, path, json=body, headers={**headers, "Accept-Language": lang})
                    assert r.status_code == 503, (db, method, path, r.status_code, r.text)
                    assert r.json()["error"] == "unavailable" and words in r.json()["message"], r.text
                    assert r.headers["content-type"] == "application/json" and r.headers["Retry-After"]
                    assert r.headers["X-Content-Type-Options"] == "nosniff"
                    assert not any(a in r.text for a in address), (db, r.text)
            ready = c.get("/api/ready")
            assert ready.status_code == 503 and ready.json()["error"] == "not_ready"
            assert not any(a in ready.text for a in address), ready.text
