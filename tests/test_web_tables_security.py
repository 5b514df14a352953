"""The table endpoints refuse whoever may not act: every endpoint and the live log tried with no key, a wrong
key, another table's key, a player's key on the game master's actions and on another player's character.
Each is refused in the engine's error shape, nothing changes in the database, no secret roll leaks."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from .test_web_tables import SHEET, bearer, make_client, seated

# the game master's secret roll: none of these may reach a player
SECRET_EXPRESSION = "3p2b vs 3c2s"


def snapshot(db: Path) -> list[Any]:
    with sqlite3.connect(db) as conn:
        return [conn.execute("SELECT id, version, state FROM dice_tables ORDER BY id").fetchall(),
                conn.execute("SELECT table_id, seq, entry FROM dice_steps ORDER BY table_id, seq").fetchall()]


def endpoints(tid: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every endpoint that takes a key, with a body it would accept from the right member."""
    return [
        ("GET", f"/tables/{tid}", None),
        ("POST", f"/tables/{tid}/roll", {"expression": "2a vs 1d"}),
        ("POST", f"/tables/{tid}/roll", {"expression": "2a vs 1d", "secret": True}),
        ("POST", f"/tables/{tid}/reroll", None),
        ("POST", f"/tables/{tid}/undo", None),
        ("POST", f"/tables/{tid}/rule", {"rule": "spend_destiny",
                                         "args": {"by": "players", "choice": "bonus", "pool": "2a"}}),
        ("POST", f"/tables/{tid}/rule", {"rule": "buy_skill", "target": "Kira", "args": {"skill": "gunnery"}}),
        ("POST", f"/tables/{tid}/characters", {**SHEET, "name": "Lo", "state": {**SHEET["state"], "name": "Lo"}}),
        ("POST", f"/tables/{tid}/flip", {"from": "destiny.light", "to": "destiny.dark"}),
        ("POST", f"/tables/{tid}/adjust", {"pool": "destiny.light", "delta": 1}),
        ("POST", f"/tables/{tid}/order", {"order": ["Kira", "Jax"]}),
        ("POST", f"/tables/{tid}/turn", None),
        ("POST", f"/tables/{tid}/round", None),
        ("GET", f"/tables/{tid}/log", None),
        ("GET", f"/tables/{tid}/luck", None),
        ("GET", f"/tables/{tid}/events", None),
        ("POST", f"/tables/{tid}/clientseed", {"seed": "abc"}),
        ("POST", f"/tables/{tid}/rotate", None),
        ("POST", f"/tables/{tid}/reveal", {"step": 9}),
        ("POST", f"/tables/{tid}/end", None),
        ("GET", f"/tables/{tid}/export", None),
        ("GET", f"/tables/{tid}/verify", None),
        ("POST", f"/tables/{tid}/readmit", {"name": "Kira"}),
        ("GET", f"/tables/{tid}/me", None),
    ]


@pytest.fixture
def scene(tmp_path: Path) -> Any:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c, provable=True)
        keys = t["keys"]
        assert c.post(f"/tables/{t['id']}/characters", json=SHEET, headers=bearer(keys["Kira"])).status_code == 200
        assert c.post(f"/tables/{t['id']}/roll", json={"expression": "2a", "system": "ffg"},
                      headers=bearer(keys["Kira"])).status_code == 200
        secret = c.post(f"/tables/{t['id']}/roll", json={"expression": SECRET_EXPRESSION, "secret": True},
                        headers=bearer(keys["GM"])).json()["step"]
        other = seated(c, players=("Eve",))
        yield c, t, secret, other, tmp_path / "tables.sqlite"


def refused(r: Any, status: int, secret: dict[str, Any]) -> None:
    assert r.status_code == status, (r.request.method, r.request.url, r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error", "message", "expression", "column", "caret"}
    assert body["error"] == {401: "unauthorized", 403: "forbidden"}[status]
    leaked(r.text, secret)


def leaked(text: str, secret: dict[str, Any]) -> None:
    assert SECRET_EXPRESSION not in text and secret["text"] not in text
    assert "proficiency" not in text and "boost" not in text and "challenge" not in text


def test_no_key_and_wrong_keys_are_401(scene: Any) -> None:
    c, t, secret, other, db = scene
    before = snapshot(db)
    wrong = [{}, bearer("not-a-key"), bearer(""), {"Authorization": f"Basic {t['keys']['GM']}"},
             {"Authorization": t["keys"]["GM"]}, bearer(t["keys"]["GM"] + "x"), bearer(other["keys"]["GM"]),
             bearer(other["keys"]["Eve"]), {"X-Key": t["keys"]["GM"]}]
    for method, path, body in endpoints(t["id"]):
        for headers in wrong:
            refused(c.request(method, path, json=body, headers=headers), 401, secret)
            assert snapshot(db) == before, (method, path, headers)
    assert c.get(f"/tables/{t['id']}/log", headers={}).headers["WWW-Authenticate"] == "Bearer"


def test_a_players_key_on_the_game_masters_actions_and_on_another_players_character_is_403(scene: Any) -> None:
    c, t, secret, _, db = scene
    jax = bearer(t["keys"]["Jax"])
    before = snapshot(db)
    tid = t["id"]
    for method, path, body in [
        ("POST", f"/tables/{tid}/undo", None),
        ("POST", f"/tables/{tid}/order", {"order": ["Jax", "Kira"]}),
        ("POST", f"/tables/{tid}/rule", {"rule": "buy_skill", "target": "Kira", "args": {"skill": "gunnery"}}),
        ("POST", f"/tables/{tid}/rule", {"rule": "buy_characteristic", "target": "Kira",
                                         "args": {"characteristic": "brawn"}}),
        ("POST", f"/tables/{tid}/characters", {**SHEET, "name": "Lo", "state": {**SHEET["state"], "name": "Lo"}}),
        ("POST", f"/tables/{tid}/rotate", None),
        ("POST", f"/tables/{tid}/end", None),
        ("POST", f"/tables/{tid}/reveal", {"step": secret["seq"]}),
    ]:
        refused(c.request(method, path, json=body, headers=jax), 403, secret)
        assert snapshot(db) == before, path
    # the same steps by those who may take them are taken (the refusals above were for the key, not the body)
    gm, kira = bearer(t["keys"]["GM"]), bearer(t["keys"]["Kira"])
    assert c.post(f"/tables/{tid}/rule", headers=kira, json={"rule": "buy_skill", "target": "Kira",
                                                              "args": {"skill": "gunnery"}}).status_code == 200
    assert c.post(f"/tables/{tid}/order", json={"order": ["Jax", "Kira"]}, headers=gm).status_code == 200
    assert c.post(f"/tables/{tid}/undo", headers=gm).status_code == 200


def test_nothing_a_player_reads_holds_the_secret_roll(scene: Any) -> None:
    c, t, secret, _, _ = scene
    for player in ("Kira", "Jax"):
        key = bearer(t["keys"][player])
        for path in (f"/tables/{t['id']}", f"/tables/{t['id']}/log", f"/tables/{t['id']}/luck",
                     f"/tables/{t['id']}/export", f"/tables/{t['id']}/verify"):
            r = c.get(path, headers=key)
            assert r.status_code == 200
            leaked(r.text, secret)
            assert '"key_hash":""' in r.text.replace(" ", "") or "key_hash" not in r.text
    gm = c.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"]["GM"])).text
    assert SECRET_EXPRESSION in gm  # the test reads what the game master reads: the secret is there to leak
    # the re-roll of the game master's secret roll stays secret
    r = c.post(f"/tables/{t['id']}/reroll", headers=bearer(t["keys"]["GM"]))
    assert r.json()["step"]["secret"]
    leaked(c.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"]["Jax"])).text, r.json()["step"])


def test_the_stream_holds_no_secret_for_a_player(tmp_path: Path) -> None:
    import httpx2 as httpx

    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    from .test_web_tables import serve

    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite"), poll_seconds=0.02,
                                                     heartbeat_seconds=0.2))
    server, thread, base = serve(app)
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            for k in (t["keys"]["GM"], t["keys"]["Kira"]):
                c.post(f"/tables/{t['id']}/roll", json={"expression": SECRET_EXPRESSION, "secret": True},
                       headers=bearer(k))
            c.post(f"/tables/{t['id']}/roll", json={"expression": "1a", "system": "ffg"},
                   headers=bearer(t["keys"]["Kira"]))
            with c.stream("GET", f"/tables/{t['id']}/events", headers=bearer(t["keys"]["Jax"])) as r:
                text = ""
                for chunk in r.iter_text():
                    text += chunk
                    if "id: 6\n" in text and text.rstrip().endswith("}"):
                        break
            assert r.status_code == 200 and "id: 6\n" in text
            leaked(text, {"text": SECRET_EXPRESSION})
            for bad in ({}, bearer("nope")):
                s = c.get(f"/tables/{t['id']}/events", headers=bad)
                assert s.status_code == 401 and s.json()["error"] == "unauthorized"
    finally:
        server.should_exit = True
        thread.join(10)


def test_what_a_player_types_is_answered_as_json_text(tmp_path: Path) -> None:
    script = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    with make_client(tmp_path) as c:
        t = seated(c, players=(script,))
        key = bearer(t["keys"][script])
        r = c.post(f"/tables/{t['id']}/characters", headers=key, json={
            **SHEET, "name": script, "owner": script, "state": {**SHEET["state"], "name": script}})
        assert r.status_code == 200
        log = c.get(f"/tables/{t['id']}/log", headers=key)
        assert log.headers["content-type"] == "application/json"
        assert log.headers["x-content-type-options"] == "nosniff"
        assert log.json()["steps"][2]["member"] == script  # the text as typed, for the page to show as text


def test_an_unknown_table_with_a_key_is_404_and_creates_nothing(client: TestClient, tmp_path: Path) -> None:
    t = seated(client)
    before = snapshot(tmp_path / "tables.sqlite")
    r = client.post("/tables/no-such-table/roll", json={"expression": "1d6"}, headers=bearer(t["keys"]["GM"]))
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert snapshot(tmp_path / "tables.sqlite") == before


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with make_client(tmp_path) as c:
        yield c


def server_seed(db: Path, table_id: str) -> str:
    with sqlite3.connect(db) as conn:
        state = conn.execute("SELECT state FROM dice_tables WHERE id = ?", (table_id,)).fetchone()[0]
    import json

    return str(json.loads(state)["server_seed"])


def test_no_answer_holds_the_server_seed_before_its_reveal(scene: Any) -> None:
    c, t, _, _, db = scene
    seed = server_seed(db, t["id"])
    assert len(seed) == 64
    for member in ("GM", "Kira"):
        key = bearer(t["keys"][member])
        for path in ("", "/log", "/luck", "/export", "/verify"):
            r = c.get(f"/tables/{t['id']}{path}", headers=key)
            assert r.status_code == 200 and seed not in r.text, (member, path)
        for path, body in (("/roll", {"expression": "1a"}), ("/clientseed", {"seed": "x"})):
            r = c.post(f"/tables/{t['id']}{path}", json=body, headers=key)
            assert r.status_code == 200 and seed not in r.text, (member, path)
    created = c.post("/tables", json={"system": "ffg", "gm": "Ana", "provable": True})
    assert created.status_code == 201 and created.json()["table"]["server_seed"] is None
    assert server_seed(db, created.json()["table_id"]) not in created.text
    rotated = c.post(f"/tables/{t['id']}/rotate", headers=bearer(t["keys"]["GM"]))
    assert rotated.json()["step"]["revealed"] == seed  # revealed at last, by the rotation


def test_a_rolls_options_cannot_set_its_seed_or_its_time(scene: Any) -> None:
    """The options of a roll are the system's (``letters`` for FFG); the parameters of the roll itself (its seed,
    which would let a player choose the dice, its time, the roll it re-rolls) are refused, nothing stored."""
    c, t, _, _, db = scene
    kira = bearer(t["keys"]["Kira"])
    before = snapshot(db)
    for options in ({"seed": 3}, {"time": "2020-01-01T00:00:00Z"}, {"reroll_of": 4}, {"secret": True},
                    {"letters": "initials", "seed": 1}):
        r = c.post(f"/tables/{t['id']}/roll", json={"expression": "2a", "options": options}, headers=kira)
        assert r.status_code == 400 and r.json()["error"] == "value", (options, r.text)
        assert "not an option of a roll at the table" in r.json()["message"]
        assert snapshot(db) == before, options
    r = c.post(f"/tables/{t['id']}/roll", json={"expression": "2a", "options": {"letters": "initials"}}, headers=kira)
    assert r.status_code == 200 and r.json()["step"]["options"] == {"letters": "initials"}
