"""The game tables over HTTP (diceengine.web.tables): each endpoint through the TestClient, the live log of
server-sent events through a real uvicorn server (one client's roll reaches another's stream, a reconnect
with Last-Event-ID misses nothing, a secret roll's dice never reach a player)."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import create_app
from diceengine.web.tables import TableSettings, TokenBucket

# the FFG scene of the rule text: a destiny pool of two light tokens and one dark, no minions yet
ENCOUNTER = {"kind": "Encounter", "state": {"destiny": {"light": 2, "dark": 1, "party": "light"}}}
# Kira's sheet: brawn 5, 200 XP to spend (raising brawn to 6 costs 6 x 10 XP, the rule text's price)
SHEET = {"kind": "CharacterSheet", "name": "Kira", "owner": "Kira",
         "state": {"name": "Kira", "characteristics": {"brawn": 5, "agility": 3}, "career_skills": ["gunnery"],
                   "xp": 200}}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def make_client(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "tables.sqlite"), **settings)),
                      raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def seated(c: TestClient, players: tuple[str, ...] = ("Kira", "Jax"), scene: Any = ENCOUNTER,
           provable: bool | None = None) -> dict[str, Any]:
    """A table of FFG with its game master and players (``provable``: of committed seeds or not; ``None``: the
    service's default, committed seeds): its id, each member's key."""
    body: dict[str, Any] = {"system": "ffg", "gm": "GM", "scene": scene}
    if provable is not None:
        body["provable"] = provable
    r = c.post("/tables", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    keys = {"GM": made["gm_key"]}
    for name in players:
        j = c.post(made["join_link"], json={"name": name})
        assert j.status_code == 201, j.text
        keys[name] = j.json()["player_key"]
    return {"id": made["table_id"], "keys": keys, "made": made}


def test_create_and_join(client: TestClient, tmp_path: Path) -> None:
    t = seated(client)
    made = t["made"]
    assert made["join_link"] == f"/tables/{t['id']}/join"
    assert len(t["id"]) >= 22 and len(set(t["keys"].values())) == 3  # 128 bits in URL-safe base64: 22 characters
    assert all(len(k) >= 22 for k in t["keys"].values())
    assert all(m["key_hash"] == "" for m in made["table"]["members"].values())
    r = client.get(f"/tables/{t['id']}", headers=bearer(t["keys"]["Kira"]))
    assert r.status_code == 200
    table = r.json()
    assert {n: m["role"] for n, m in table["members"].items()} == {"GM": "gm", "Kira": "player", "Jax": "player"}
    # a table of the service commits its server seed first (shown as its SHA-256, the seed itself never)
    assert [e["kind"] for e in table["log"]] == ["seed"] + ["join"] * 3
    assert table["commitment"] == table["log"][0]["commitment"] and len(table["commitment"]) == 64
    assert table.get("server_seed") is None and made["table"].get("server_seed") is None
    # the keys are not in the database, only their hashes
    stored = (tmp_path / "tables.sqlite").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("tables.sqlite-*"))
    assert not any(k.encode() in stored for k in t["keys"].values())
    assert client.post(made["join_link"], json={"name": "Kira"}).status_code == 400  # a name taken
    assert client.post("/tables/nope/join", json={"name": "Eve"}).status_code == 404


def test_a_public_roll_reads_the_same_for_everyone(client: TestClient) -> None:
    t = seated(client)
    r = client.post(f"/tables/{t['id']}/roll", json={"expression": "3d6+1", "system": "standard"},
                    headers=bearer(t["keys"]["Kira"]))
    assert r.status_code == 200, r.text
    step = r.json()["step"]
    assert step["member"] == "Kira" and step["seq"] == 5 and not step["secret"]
    values = [d["value"] for d in step["dice"]]
    assert len(values) == 3 and all(1 <= v <= 6 for v in values)
    assert step["outcome"]["total"] == sum(values) + 1
    # 3d6+1's percentile by enumeration: P(total < t) + P(total = t) / 2
    counts = [sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c + 1 == s)
              for s in range(20)]
    total = step["outcome"]["total"]
    assert step["odds"]["percentile"] == pytest.approx((sum(counts[:total]) + counts[total] / 2) / 216)
    for reader in ("GM", "Jax"):
        log = client.get(f"/tables/{t['id']}/log?after=4", headers=bearer(t["keys"][reader])).json()
        assert log["version"] == 5 and log["steps"] == [step]


def test_a_secret_roll_is_the_game_masters_only(client: TestClient) -> None:
    t = seated(client)
    r = client.post(f"/tables/{t['id']}/roll", json={"expression": "2a1p vs 2d", "secret": True},
                    headers=bearer(t["keys"]["GM"]))
    step = r.json()["step"]
    assert step["secret"] and step["dice"] and step["expression"] == "2a1p vs 2d"
    gm = client.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"]["GM"])).json()["steps"][-1]
    assert gm == step
    for player in ("Kira", "Jax"):
        seen = client.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"][player])).json()["steps"][-1]
        assert seen["secret"] and seen["member"] == "GM" and seen["seq"] == step["seq"]
        assert seen["dice"] is None and seen["expression"] is None and seen["outcome"] is None
        assert seen["odds"] is None and seen["text"] is None
        whole = client.get(f"/tables/{t['id']}", headers=bearer(t["keys"][player])).text
        assert "2a1p" not in whole and "proficiency" not in whole
    luck = client.get(f"/tables/{t['id']}/luck", headers=bearer(t["keys"]["Kira"])).json()
    assert luck["luck"]["GM"]["rolls"] == 0 and luck["fairness"]["rolls"] == 0
    assert client.get(f"/tables/{t['id']}/luck", headers=bearer(t["keys"]["GM"])).json()["luck"]["GM"]["rolls"] == 1


def test_reroll_and_undo(client: TestClient) -> None:
    t = seated(client)
    kira, gm = bearer(t["keys"]["Kira"]), bearer(t["keys"]["GM"])
    first = client.post(f"/tables/{t['id']}/roll", json={"expression": "2d6", "system": "standard"}, headers=kira)
    again = client.post(f"/tables/{t['id']}/reroll", headers=kira).json()["step"]
    assert again["reroll_of"] == first.json()["step"]["seq"] and again["expression"] == "2d6"
    log = client.get(f"/tables/{t['id']}/log", headers=kira).json()["steps"]
    assert log[first.json()["step"]["seq"] - 1]["rerolled_by"] == again["seq"]
    undone = client.post(f"/tables/{t['id']}/undo", headers=gm).json()["step"]
    assert undone["kind"] == "undo" and undone["undoes"] == again["seq"]
    log = client.get(f"/tables/{t['id']}/log", headers=kira).json()["steps"]
    assert log[again["seq"] - 1]["undone_by"] == undone["seq"] and log[first.json()["step"]["seq"] - 1][
        "rerolled_by"] is None
    assert client.post(f"/tables/{t['id']}/reroll", headers=bearer(t["keys"]["Jax"])).status_code == 400  # no roll


def test_rules_of_play_destiny_and_turns(client: TestClient) -> None:
    t = seated(client)
    kira, gm, tid = bearer(t["keys"]["Kira"]), bearer(t["keys"]["GM"]), t["id"]
    r = client.post(f"/tables/{tid}/flip", json={"from": "destiny.light", "to": "destiny.dark"}, headers=kira)
    assert r.status_code == 200, r.text
    assert r.json()["step"]["after"]["scene"]["destiny"] == {"light": 1, "dark": 2, "party": "light"}
    # a destiny point spent for the players upgrades an ability die to a proficiency die (the rule text)
    r = client.post(f"/tables/{tid}/rule", headers=kira, json={
        "rule": "spend_destiny", "args": {"by": "players", "choice": "bonus", "pool": "2a1p vs 2d"}})
    assert r.status_code == 200, r.text
    assert r.json()["step"]["check"] == "1a2p vs 2d"
    assert r.json()["step"]["after"]["scene"]["destiny"] == {"light": 0, "dark": 3, "party": "light"}
    r = client.post(f"/tables/{tid}/flip", json={"from": "destiny.light", "to": "destiny.dark"}, headers=kira)
    assert r.status_code == 400 and r.json()["error"] == "value" and "holds 0" in r.json()["message"]
    # a character, its rule, by its owner
    assert client.post(f"/tables/{tid}/characters", json=SHEET, headers=kira).status_code == 200
    r = client.post(f"/tables/{tid}/rule", headers=kira,
                    json={"rule": "buy_characteristic", "target": "Kira", "args": {"characteristic": "brawn"}})
    assert r.status_code == 200, r.text
    sheet = r.json()["step"]["after"]["characters"]["Kira"]["state"]
    assert sheet["characteristics"]["brawn"] == 6 and sheet["xp"] == 140
    # initiative: the game master's order, then turns and rounds
    assert client.post(f"/tables/{tid}/order", json={"order": ["Kira", "trooper"]}, headers=gm).status_code == 200
    seen = []
    for _ in range(3):
        step = client.post(f"/tables/{tid}/turn", headers=kira).json()["step"]["after"]
        seen.append((step["round"], step["order"][step["turn"]]))
    assert seen == [(1, "trooper"), (2, "Kira"), (2, "trooper")]
    assert client.post(f"/tables/{tid}/round", headers=gm).json()["step"]["after"]["round"] == 3
    assert client.post(f"/tables/{tid}/adjust", json={"pool": "destiny.light", "delta": 2},
                       headers=gm).json()["step"]["after"]["scene"]["destiny"]["light"] == 2
    r = client.post(f"/tables/{tid}/rule", headers=kira, json={"rule": "no_such_rule"})
    assert r.status_code == 400 and "unknown rule" in r.json()["message"]


def test_bad_bodies_are_the_engines_errors(client: TestClient) -> None:
    t = seated(client)
    kira = bearer(t["keys"]["Kira"])
    r = client.post(f"/tables/{t['id']}/roll", json={"expression": "2a1p vs"}, headers=kira)
    assert r.status_code == 400 and r.json()["error"] == "syntax" and r.json()["caret"]
    r = client.post(f"/tables/{t['id']}/roll", json={"expression": "2d6", "seed": 3}, headers=kira)
    assert r.status_code == 422 and r.json()["error"] == "invalid_request"  # no seed: a player could pick the dice
    r = client.post("/tables", json={"system": "nope", "gm": "GM"})
    assert r.status_code == 400 and "nope" in r.json()["message"]
    r = client.post("/tables", json={"system": "ffg", "gm": "GM", "scene": {"kind": "Nothing", "state": {}}})
    assert r.status_code == 400
    assert client.get(f"/tables/{t['id']}/log?after=-1", headers=kira).status_code == 422
    r = client.post(f"/tables/{t['id']}/rule", headers=kira, json={"rule": "roll_destiny",
                                                                    "args": {"players": 3, "seed": 1}})
    assert r.status_code == 400 and "seed" in r.json()["message"]


def test_every_endpoint_is_in_the_schema_with_its_models(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = {p: ops for p, ops in schema["paths"].items() if p.startswith("/tables")}
    expected = {"/tables": "post", "/tables/{table_id}/join": "post", "/tables/{table_id}": "get",
                "/tables/{table_id}/roll": "post", "/tables/{table_id}/reroll": "post",
                "/tables/{table_id}/undo": "post", "/tables/{table_id}/rule": "post",
                "/tables/{table_id}/characters": "post", "/tables/{table_id}/flip": "post",
                "/tables/{table_id}/adjust": "post", "/tables/{table_id}/order": "post",
                "/tables/{table_id}/turn": "post", "/tables/{table_id}/round": "post",
                "/tables/{table_id}/log": "get", "/tables/{table_id}/luck": "get", "/tables/{table_id}/events": "get",
                "/tables/{table_id}/remove": "post", "/tables/{table_id}/rekey": "post",
                "/tables/{table_id}/readmit": "post", "/tables/{table_id}/me": "get",
                "/tables/{table_id}/clientseed": "post", "/tables/{table_id}/rotate": "post",
                "/tables/{table_id}/end": "post", "/tables/{table_id}/reveal": "post",
                "/tables/{table_id}/export": "get", "/tables/{table_id}/verify": "get",
                "/tables/{table_id}/save": "post"}
    assert set(paths) == set(expected)
    for path, method in expected.items():
        op = paths[path][method]
        ok = op["responses"].get("200") or op["responses"].get("201")
        assert ok and ok["content"], path
        if path not in ("/tables/{table_id}/events", "/tables/{table_id}/export"):  # a stream; a log's document
            assert "$ref" in ok["content"]["application/json"]["schema"], path
        for status in ("401", "403", "429"):
            assert op["responses"][status]["content"]["application/json"]["schema"]["$ref"].endswith(
                "ErrorResponse"), (path, status)
    assert "text/event-stream" in paths["/tables/{table_id}/events"]["get"]["responses"]["200"]["content"]
    assert "HTTPBearer" in schema["components"]["securitySchemes"]
    for name in ("CreateTableRequest", "CreateTableResponse", "JoinRequest", "JoinResponse", "TableRollRequest",
                 "RuleOfPlayRequest", "FlipRequest", "StepResponse", "LogResponse", "LuckResponse", "Entry",
                 "RemoveRequest", "RekeyRequest", "RekeyResponse", "SaveRollRequest"):
        assert name in schema["components"]["schemas"], name


def test_a_key_has_a_bucket_of_requests(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=0.01, burst=5) as c:
        t = seated(c, players=())  # the creation takes one token of this client's address
        gm = bearer(t["keys"]["GM"])
        answers = [c.get(f"/tables/{t['id']}/log", headers=gm).status_code for _ in range(7)]
        assert answers == [200] * 5 + [429] * 2
        refused = c.get(f"/tables/{t['id']}/log", headers=gm)
        assert refused.json()["error"] == "rate_limited" and refused.headers["Retry-After"]
        assert c.get(f"/tables/{t['id']}/log", headers=bearer("another key")).status_code == 401  # its own bucket


def test_token_bucket_refills() -> None:
    bucket = TokenBucket(rate=1000.0, burst=2)
    assert [bucket.take("a"), bucket.take("a"), bucket.take("a")] == [True, True, False]
    assert bucket.take("b")
    time.sleep(0.01)  # ten tokens' worth, capped at the burst of two
    assert [bucket.take("a"), bucket.take("a"), bucket.take("a")] == [True, True, False]


def test_cors_allows_only_the_configured_origins(tmp_path: Path) -> None:
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
    with make_client(tmp_path) as c:
        r = c.get("/api/systems", headers={"Origin": "https://vtt.example"})
        assert "access-control-allow-origin" not in r.headers
        r = c.options("/tables", headers={"Origin": "https://vtt.example", **preflight})
        assert "access-control-allow-origin" not in r.headers
    with make_client(tmp_path, origins=["https://vtt.example"]) as c:
        r = c.options("/tables", headers={"Origin": "https://vtt.example", **preflight})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://vtt.example"
        r = c.post("/api/roll", json={"expression": "2d6"}, headers={"Origin": "https://vtt.example"})
        assert r.headers["access-control-allow-origin"] == "https://vtt.example"  # the fast path too
        r = c.options("/tables", headers={"Origin": "https://evil.example", **preflight})
        assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
        r = c.get("/api/systems", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


def test_the_page_has_a_content_security_policy(client: TestClient) -> None:
    import re

    r = client.get("/")
    policy = dict(p.strip().split(" ", 1) for p in r.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'"
    for kind in ("script-src", "style-src"):  # nothing inline, nothing evaluated, nothing from elsewhere
        assert policy[kind] == "'self'", policy[kind]
    assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
    assert not re.findall(r"<script>(.*?)</script>", r.text, flags=re.DOTALL)  # no inline script to allow
    assert " style=" not in r.text and "<style" not in r.text
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):  # the page's own files are served
        assert client.get(src).status_code == 200, src
    assert r.headers["x-content-type-options"] == "nosniff"


def test_dice_serve_takes_the_database_and_the_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import uvicorn

    from diceengine.cli import main

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: ran.update(k))
    monkeypatch.delenv("DICE_TABLE_DB", raising=False)
    monkeypatch.delenv("DICE_CORS_ORIGINS", raising=False)
    monkeypatch.delenv("DICE_SERVER_GC", raising=False)  # set by dice serve: gone with the test
    main(["serve", "--db", "postgresql://dice@db/tables", "--allow-origin", "https://a.example",
          "--allow-origin", "https://b.example"])
    assert os.environ["DICE_TABLE_DB"] == "postgresql://dice@db/tables"
    assert os.environ["DICE_SERVER_GC"] == "1"  # the server's collector, in each server process
    settings = TableSettings()
    assert settings.db == "postgresql://dice@db/tables" and settings.origins == ["https://a.example",
                                                                                 "https://b.example"]


# -- the live log, through a real server -------------------------------------------------------------------


def serve(app: Any) -> tuple[Any, threading.Thread, str]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not server.started:
        assert thread.is_alive() and time.time() < deadline
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


class Stream:
    """A client of the live log in a thread of its own: each event (id, data) into a queue."""

    def __init__(self, base: str, table_id: str, key: str, last: int | None = None, after: int | None = None):
        import httpx2 as httpx

        self.events: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()
        self.open = threading.Event()
        self.stop = threading.Event()
        headers = bearer(key)
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        url = f"{base}/tables/{table_id}/events" + (f"?after={after}" if after is not None else "")
        self.status: int | None = None

        def run() -> None:
            try:
                read()
            except httpx.HTTPError:
                if not self.stop.is_set():  # a stream cut while the test still reads it
                    raise

        def read() -> None:
            with httpx.Client(timeout=30) as c, c.stream("GET", url, headers=headers) as r:
                self.status = r.status_code
                self.open.set()
                ident, data = None, None
                for line in r.iter_lines():
                    if self.stop.is_set():
                        return
                    if line.startswith("id: "):
                        ident = int(line[4:])
                    elif line.startswith("data: "):
                        data = json.loads(line[6:])
                    elif line == "" and ident is not None and data is not None:
                        self.events.put((ident, data))
                        ident, data = None, None

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert self.open.wait(30)

    def take(self, n: int, timeout: float = 20) -> list[tuple[int, dict[str, Any]]]:
        out = []
        deadline = time.time() + timeout
        while len(out) < n:
            out.append(self.events.get(timeout=max(0.01, deadline - time.time())))
        return out

    def close(self) -> None:
        self.stop.set()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, TestClient]]:
    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "tables.sqlite"), poll_seconds=0.02,
                                                     heartbeat_seconds=0.2))
    server, thread, base = serve(app)
    try:
        yield base, app  # type: ignore[misc]
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_roll_reaches_the_other_clients_stream(live: tuple[str, Any]) -> None:
    import httpx2 as httpx

    base, _ = live
    with httpx.Client(base_url=base, timeout=30) as c:
        t = seated(c)  # type: ignore[arg-type]
        jax = Stream(base, t["id"], t["keys"]["Jax"])
        gm = Stream(base, t["id"], t["keys"]["GM"])
        assert jax.status == 200 and [e[0] for e in jax.take(4)] == [1, 2, 3, 4]  # the seed, the joins, in order
        gm.take(4)
        step = c.post(f"/tables/{t['id']}/roll", json={"expression": "2a1p vs 2d"},
                      headers=bearer(t["keys"]["Kira"])).json()["step"]
        for stream in (jax, gm):
            [(ident, data)] = stream.take(1)
            assert ident == step["seq"] == 5 and data["dice"] == step["dice"] and data["member"] == "Kira"
        jax.close()
        gm.close()


def test_a_reconnect_with_last_event_id_misses_nothing(live: tuple[str, Any]) -> None:
    import httpx2 as httpx

    base, _ = live
    with httpx.Client(base_url=base, timeout=30) as c:
        t = seated(c)  # type: ignore[arg-type]
        kira = bearer(t["keys"]["Kira"])
        first = Stream(base, t["id"], t["keys"]["Jax"])
        seen = first.take(4)
        c.post(f"/tables/{t['id']}/roll", json={"expression": "1d6", "system": "standard"}, headers=kira)
        seen += first.take(1)
        first.close()  # the client goes away; the table moves on meanwhile
        made = [c.post(f"/tables/{t['id']}/roll", json={"expression": "1d6", "system": "standard"},
                       headers=kira).json()["step"] for _ in range(5)]
        again = Stream(base, t["id"], t["keys"]["Jax"], last=seen[-1][0], after=0)  # the header wins over ?after
        resumed = again.take(5)
        assert [i for i, _ in seen + resumed] == list(range(1, 11))
        assert [d["dice"] for _, d in resumed] == [s["dice"] for s in made]
        more = c.post(f"/tables/{t['id']}/roll", json={"expression": "1d6", "system": "standard"},
                      headers=kira).json()["step"]
        assert again.take(1)[0][0] == more["seq"] == 11
        with pytest.raises(queue.Empty):
            again.take(1, timeout=0.5)  # nothing doubled
        again.close()
        late = Stream(base, t["id"], t["keys"]["Jax"], after=9)
        assert [i for i, _ in late.take(2)] == [10, 11]
        late.close()


def test_a_secret_rolls_dice_never_reach_a_players_stream(live: tuple[str, Any]) -> None:
    import httpx2 as httpx

    base, _ = live
    with httpx.Client(base_url=base, timeout=30) as c:
        t = seated(c)  # type: ignore[arg-type]
        jax = Stream(base, t["id"], t["keys"]["Jax"], after=4)
        gm = Stream(base, t["id"], t["keys"]["GM"], after=4)
        step = c.post(f"/tables/{t['id']}/roll", json={"expression": "3p vs 3c", "secret": True},
                      headers=bearer(t["keys"]["GM"])).json()["step"]
        [(_, mine)] = gm.take(1)
        assert mine["dice"] == step["dice"] and mine["expression"] == "3p vs 3c"
        [(ident, theirs)] = jax.take(1)
        assert ident == step["seq"] and theirs["secret"] and theirs["member"] == "GM"
        assert all(theirs[k] is None for k in ("dice", "expression", "outcome", "odds", "text"))
        jax.close()
        gm.close()


def test_the_stream_of_two_servers_on_one_database(tmp_path: Path) -> None:
    """Two applications (two server processes' worth: each its own store) on one SQLite file: a roll taken
    through one reaches a client of the other, read from the log in the database."""
    import httpx2 as httpx

    db = str(tmp_path / "shared.sqlite")
    one, one_thread, one_base = serve(create_app(workers=0, tables=TableSettings(db=db, poll_seconds=0.02, heartbeat_seconds=0.2)))
    two, two_thread, two_base = serve(create_app(workers=0, tables=TableSettings(db=db, poll_seconds=0.02, heartbeat_seconds=0.2)))
    try:
        with httpx.Client(base_url=one_base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            far = Stream(two_base, t["id"], t["keys"]["Jax"], after=4)
            steps = [c.post(f"/tables/{t['id']}/roll", json={"expression": "1d20", "system": "standard"},
                            headers=bearer(t["keys"]["Kira"])).json()["step"] for _ in range(3)]
            got = far.take(3)
            assert [i for i, _ in got] == [5, 6, 7] and [d["dice"] for _, d in got] == [s["dice"] for s in steps]
            far.close()
    finally:
        one.should_exit = two.should_exit = True
        one_thread.join(10)
        two_thread.join(10)


@pytest.mark.postgres
def test_two_server_processes_on_postgresql_deliver_to_each_others_clients(tmp_path: Path) -> None:
    """Two ``dice serve`` processes on one PostgreSQL database: the rolls taken through one reach the live log
    of a client of the other, in order, none missed."""
    import os
    import subprocess
    import sys

    import httpx2 as httpx

    from .test_table_store import _postgres_database

    admin, name, url = _postgres_database()
    procs, bases = [], []
    try:
        for _ in range(2):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = int(s.getsockname()[1])
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--db", url,
                 "--compute-workers", "0", "--log-level", "warning", "--no-access-log"],
                cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}))
            bases.append(f"http://127.0.0.1:{port}")
        for base, proc in zip(bases, procs, strict=True):
            deadline = time.time() + 60
            while True:
                assert proc.poll() is None and time.time() < deadline, "the server did not start"
                try:
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
        with httpx.Client(base_url=bases[0], timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            far = Stream(bases[1], t["id"], t["keys"]["Jax"])
            assert [i for i, _ in far.take(4)] == [1, 2, 3, 4]  # the seed's commitment, three joins
            steps = [c.post(f"/tables/{t['id']}/roll", json={"expression": "1d20", "system": "standard"},
                            headers=bearer(t["keys"]["Kira"])).json()["step"] for _ in range(10)]
            got = far.take(10)
            assert [i for i, _ in got] == list(range(5, 15)) and [d["dice"] for _, d in got] == [
                s["dice"] for s in steps]
            far.close()
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(30)
        with admin.connect() as conn:
            import sqlalchemy as sa

            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
