"""Saved rolls over HTTP: ``POST /tables/{id}/save`` names a roll for the table (or for its member alone), anyone
there rolls it as ``@NAME`` (through the hot path and through the route), and every refusal has its test: no key,
a player replacing another member's saved roll, a bad name, a bad expression, an option naming the step's own
parameter, too many saved rolls. The route and its body are in the OpenAPI schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from diceengine.table.aliases import MAX_SAVED

from .test_web_tables import bearer, make_client, seated


def save(c: Any, tid: str, key: str | None, **body: Any) -> Any:
    return c.post(f"/tables/{tid}/save", json=body, headers=bearer(key) if key else {})


def log(c: Any, tid: str, key: str) -> list[dict[str, Any]]:
    return list(c.get(f"/tables/{tid}/log", headers=bearer(key)).json()["steps"])


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "route"])
def test_a_player_saves_a_roll_and_anyone_rolls_it_by_name(tmp_path: Path, fast_path: bool) -> None:
    with make_client(tmp_path, fast_path=fast_path) as c:
        t = seated(c)
        tid, keys = t["id"], t["keys"]
        r = save(c, tid, keys["Kira"], name="blast", expression="2a1p vs 2d")
        assert r.status_code == 200, r.text
        step = r.json()["step"]
        assert (step["kind"], step["member"], step["target"]) == ("save", "Kira", "blast")
        assert step["after"]["saved"]["blast"]["expression"] == "2a1p vs 2d"
        for who in ("Jax", "GM"):
            rolled = c.post(f"/tables/{tid}/roll", json={"expression": "@blast"}, headers=bearer(keys[who]))
            assert rolled.status_code == 200, rolled.text
            got = rolled.json()["step"]
            assert (got["kind"], got["member"], got["expression"]) == ("roll", who, "2a1p vs 2d")
            kinds = sorted(d["kind"] for d in got["dice"])  # the saved pool: one proficiency, two ability, two difficulty
            assert kinds == ["ability", "ability", "difficulty", "difficulty", "proficiency"]
        # a member's own: Jax's "blast" is his alone, the table's stays the others'
        assert save(c, tid, keys["Jax"], name="blast", expression="1b", personal=True).status_code == 200
        mine = c.post(f"/tables/{tid}/roll", json={"expression": "@blast"}, headers=bearer(keys["Jax"])).json()
        theirs = c.post(f"/tables/{tid}/roll", json={"expression": "@blast"}, headers=bearer(keys["GM"])).json()
        assert mine["step"]["expression"] == "1b" and theirs["step"]["expression"] == "2a1p vs 2d"
        # forgotten by the one who saved it
        assert save(c, tid, keys["Kira"], name="blast", expression=None).status_code == 200
        gone = c.post(f"/tables/{tid}/roll", json={"expression": "@blast"}, headers=bearer(keys["GM"]))
        assert gone.status_code == 400 and "blast" in gone.json()["message"]


def test_every_refusal_of_a_saved_roll(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c)
        tid, keys = t["id"], t["keys"]
        assert save(c, tid, keys["Kira"], name="blast", expression="2a1p").status_code == 200
        before = len(log(c, tid, keys["GM"]))
        no_key = save(c, tid, None, name="x", expression="1a")
        assert no_key.status_code == 401 and no_key.json()["error"] == "unauthorized"
        wrong_key = save(c, tid, "not-a-key-of-this-table", name="x", expression="1a")
        assert wrong_key.status_code == 401
        # a player over another member's saved roll (the game master may)
        other = save(c, tid, keys["Jax"], name="blast", expression="1a")
        assert other.status_code == 403 and other.json()["error"] == "forbidden" and "Kira" in other.json()["message"]
        assert save(c, tid, keys["Jax"], name="blast", expression=None).status_code == 403
        for name in ("", "two words", "a/b", "_x", "x" * 41, "@hit"):
            bad = save(c, tid, keys["Jax"], name=name, expression="1a")
            assert bad.status_code == 400 and bad.json()["error"] == "value", (name, bad.text)
        syntax = save(c, tid, keys["Jax"], name="x", expression="2a1q")
        assert syntax.status_code == 400 and syntax.json()["error"] == "syntax" and syntax.json()["caret"]
        option = save(c, tid, keys["Jax"], name="x", expression="2a", options={"personal": True})
        assert option.status_code == 400 and "personal" in option.json()["message"]
        untyped = save(c, tid, keys["Jax"], name="x")  # no expression at all: the body does not fit
        assert untyped.status_code == 422 and untyped.json()["error"] == "invalid_request"
        assert len(log(c, tid, keys["GM"])) == before  # nothing stored by a refusal
        assert save(c, tid, keys["GM"], name="blast", expression="1a").status_code == 200


def test_a_table_saves_at_most_max_saved_rolls_said_in_french(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c)
        tid, key = t["id"], t["keys"]["GM"]
        for i in range(MAX_SAVED):
            assert save(c, tid, key, name=f"r{i}", expression="1a").status_code == 200
        full = c.post(f"/tables/{tid}/save", json={"name": "one-more", "expression": "1a"},
                      headers={**bearer(key), "Accept-Language": "fr"})
        assert full.status_code == 400 and full.json()["error"] == "value"
        assert str(MAX_SAVED) in full.json()["message"] and "au plus" in full.json()["message"]
        assert save(c, tid, key, name="r0", expression="2a").status_code == 200  # replacing one still works


def test_the_save_route_is_in_the_schema(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        schema = c.get("/openapi.json").json()
        op = schema["paths"]["/tables/{table_id}/save"]["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert body.endswith("/SaveRollRequest") and op["security"]
        for status in ("200", "400", "401", "403", "422", "429"):
            assert status in op["responses"], status
        fields = schema["components"]["schemas"]["SaveRollRequest"]
        assert set(fields["required"]) == {"name", "expression"}
