"""What the web service's table access must say exactly, each test written against a mutant that the table and
web tests let through (issue 38): the Retry-After of a refusal, why the readiness route says the database is not
ready and what the server's log says of it, an address kept out of a database's error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import create_app
from diceengine.web.table_access import Refused, TableSettings, TableState, _without_address


@pytest.mark.parametrize(("rate", "wait"), [(20.0, "1"), (1.0, "1"), (0.25, "4"), (0.01, "100")])
def test_a_key_out_of_requests_is_told_how_long_to_wait(tmp_path: Path, rate: float, wait: str) -> None:
    """Retry-After is the seconds one token takes to come back, at least one: 1 / rate, rounded."""
    state = TableState(TableSettings(db=str(tmp_path / "t.sqlite"), rate=rate, burst=1.0, new_rate=rate,
                                     new_burst=1.0))
    try:
        refused = state._too_many()
        assert (refused.status, refused.kind, refused.headers) == (429, "rate_limited", {"Retry-After": wait})
        state.limit_new("addr:1")  # the bucket of new tables of one address: one token, then refused
        with pytest.raises(Refused) as new:
            state.limit_new("addr:1")
        assert (new.value.status, new.value.headers) == (429, {"Retry-After": wait})
        assert new.value.message == "too many new tables and joins from this address; slow down"
    finally:
        state.close()


def test_an_address_in_a_database_error_is_never_said() -> None:
    where = "/srv/secret-place/t.sqlite"
    assert _without_address("disk I/O error", where) == "disk I/O error"
    assert _without_address("unable to open: /srv/secret-place/t.sqlite", where) == "unable to open"
    assert _without_address("at /srv/secret-place/t.sqlite: no such file", where) == "unreachable"
    url = "postgresql://hidden_user@db.example:5432/hidden_db"
    assert _without_address('role "hidden_user" does not exist', url) == "unreachable"
    assert _without_address("connection refused: is db.example up?", url) == "connection refused"


def test_a_database_that_is_not_one_says_why_in_the_readiness_route_and_the_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with caplog.at_level(logging.ERROR, logger="diceengine.web.tables"), \
            TestClient(create_app(workers=0, tables=TableSettings(db=str(junk))), raise_server_exceptions=False) as c:
        ready = c.get("/api/ready").json()["message"]
        assert ready == "not ready: the tables' database does not answer (file is not a database)"
        r = c.post("/tables", json={"system": "standard", "gm": "GM"})
        assert (r.status_code, r.headers["Retry-After"], r.json()["error"]) == (503, "5", "unavailable")
    said = [rec.getMessage() for rec in caplog.records if rec.name == "diceengine.web.tables"]
    assert said and all(m.startswith("the tables' database did not open: ") for m in said)
    assert any("file is not a database" in m for m in said), said
