"""Members removed and keys rotated over HTTP: the old key refused at once on every route (the hot path of
rolls and the live log included), its open live logs closed, on one server and across two on one database; a
table full at MAX_MEMBERS, refused in the caller's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from diceengine.web import create_app
from diceengine.web.tables import TableSettings

from .test_web_tables import Stream, bearer, make_client, seated, serve
from .test_web_tables_security import SHEET, endpoints


def call(c: Any, method: str, path: str, body: dict[str, Any] | None, key: str) -> Any:
    if path.endswith("/events"):  # the stream: only its first answer (a refusal is whole at once)
        with c.stream(method, path, headers=bearer(key)) as r:
            r.read() if r.status_code != 200 else None
            return r
    return c.request(method, path, json=body, headers=bearer(key))


def everywhere_refused(c: Any, tid: str, key: str) -> None:
    for method, path, body in endpoints(tid) + [("POST", f"/tables/{tid}/rekey", {}),
                                                ("POST", f"/tables/{tid}/remove", {"name": "Jax"})]:
        r = call(c, method, path, body, key)
        assert r.status_code == 401, (method, path, r.status_code, r.text)
        assert r.json()["error"] == "unauthorized"


def test_a_removed_member_is_refused_on_every_route(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c)
        keys = t["keys"]
        assert c.post(f"/tables/{t['id']}/characters", json=SHEET, headers=bearer(keys["Kira"])).status_code == 200
        r = c.post(f"/tables/{t['id']}/remove", json={"name": "Kira"}, headers=bearer(keys["GM"]))
        assert r.status_code == 200, r.text
        assert (r.json()["step"]["kind"], r.json()["step"]["target"]) == ("remove", "Kira")
        everywhere_refused(c, t["id"], keys["Kira"])
        table = c.get(f"/tables/{t['id']}", headers=bearer(keys["Jax"])).json()
        assert set(table["members"]) == {"GM", "Jax"}
        # a player removes only themselves; the only game master stays
        assert c.post(f"/tables/{t['id']}/remove", json={"name": "GM"}, headers=bearer(keys["Jax"])).status_code == 403
        assert c.post(f"/tables/{t['id']}/remove", json={"name": "GM"}, headers=bearer(keys["GM"])).status_code == 400
        assert c.post(f"/tables/{t['id']}/remove", json={"name": "Jax"}, headers=bearer(keys["Jax"])).status_code == 200
        everywhere_refused(c, t["id"], keys["Jax"])


def test_a_key_rotated_by_its_holder_and_by_the_game_master(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c)
        keys, tid = t["keys"], t["id"]
        r = c.post(f"/tables/{tid}/rekey", json={}, headers=bearer(keys["Kira"]))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["name"] == "Kira" and body["key"] != keys["Kira"] and len(body["key"]) >= 22
        assert body["key"] not in r.text.replace(body["key"], "", 1)  # the step does not hold it
        everywhere_refused(c, tid, keys["Kira"])
        assert c.post(f"/tables/{tid}/roll", json={"expression": "2a"}, headers=bearer(body["key"])).status_code == 200
        assert c.post(f"/tables/{tid}/rekey", json={"name": "Jax"}, headers=bearer(body["key"])).status_code == 403
        r = c.post(f"/tables/{tid}/rekey", json={"name": "Jax"}, headers=bearer(keys["GM"]))
        assert r.status_code == 200 and r.json()["name"] == "Jax" and r.json()["step"]["member"] == "GM"
        everywhere_refused(c, tid, keys["Jax"])
        assert c.get(f"/tables/{tid}/log", headers=bearer(r.json()["key"])).status_code == 200
        stored = (tmp_path / "tables.sqlite").read_bytes() + b"".join(
            p.read_bytes() for p in tmp_path.glob("tables.sqlite-*"))
        assert body["key"].encode() not in stored and r.json()["key"].encode() not in stored


def test_a_full_table_refuses_a_newcomer_in_the_callers_language(tmp_path: Path) -> None:
    """The probe's 100 anonymous joins: 49 seated beside the game master, the rest refused."""
    with make_client(tmp_path, burst=10_000, new_burst=10_000) as c:
        t = seated(c, players=())
        answers = [c.post(f"/tables/{t['id']}/join", json={"name": f"anon{i}"}) for i in range(100)]
        assert [a.status_code for a in answers] == [201] * 49 + [403] * 51
        assert answers[-1].json()["error"] == "table_full"
        assert answers[-1].json()["message"] == "this table is full: it seats at most 50 members"
        fr = c.post(f"/tables/{t['id']}/join", json={"name": "Zoé"}, headers={"Accept-Language": "fr"})
        assert fr.json()["message"] == "cette table est complète : elle accueille au plus 50 membres"
        table = c.get(f"/tables/{t['id']}", headers=bearer(t["keys"]["GM"])).json()
        assert len(table["members"]) == 50


def wait_closed(stream: Stream, timeout: float = 20) -> None:
    stream.thread.join(timeout)
    assert not stream.thread.is_alive(), "the live log of the old key is still open"


def test_the_live_log_of_a_removed_or_rekeyed_member_ends(tmp_path: Path) -> None:
    import httpx2 as httpx

    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite"), poll_seconds=0.02,
                                                     heartbeat_seconds=0.2))
    server, thread, base = serve(app)
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            t = seated(c)  # type: ignore[arg-type]
            keys, tid = t["keys"], t["id"]
            jax, kira, gm = (Stream(base, tid, keys[n]) for n in ("Jax", "Kira", "GM"))
            for s in (jax, kira, gm):
                assert [i for i, _ in s.take(4)] == [1, 2, 3, 4]  # the seed's commitment, three joins
            assert c.post(f"/tables/{tid}/remove", json={"name": "Jax"}, headers=bearer(keys["GM"])).status_code == 200
            wait_closed(jax)
            assert jax.events.empty()  # not even its own removal
            assert c.post(f"/tables/{tid}/rekey", json={}, headers=bearer(keys["Kira"])).status_code == 200
            wait_closed(kira)
            assert [d["kind"] for _, d in gm.take(2)] == ["remove", "rekey"] and gm.thread.is_alive()
            gm.close()
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_key_rotated_through_one_server_holds_at_once_on_another(tmp_path: Path) -> None:
    """Two applications (two server processes' worth, each its own store and remembered tables) on one SQLite
    file: the key rotated through one is refused by the other at its next request, on a read, a step and the
    hot path of rolls, and the new key is taken there at once; the old key's stream there ends."""
    import httpx2 as httpx

    db = str(tmp_path / "shared.sqlite")
    settings = {"db": db, "poll_seconds": 0.02, "heartbeat_seconds": 0.2}
    one, one_thread, one_base = serve(create_app(workers=0, tables=TableSettings(**settings)))  # type: ignore[arg-type]
    two, two_thread, two_base = serve(create_app(workers=0, tables=TableSettings(**settings)))  # type: ignore[arg-type]
    try:
        with httpx.Client(base_url=one_base, timeout=30) as c, httpx.Client(base_url=two_base, timeout=30) as d:
            t = seated(c)  # type: ignore[arg-type]
            keys, tid = t["keys"], t["id"]
            roll = {"expression": "1d20", "system": "standard"}
            assert d.post(f"/tables/{tid}/roll", json=roll, headers=bearer(keys["Kira"])).status_code == 200
            far = Stream(two_base, tid, keys["Kira"])
            assert [i for i, _ in far.take(4)] == [1, 2, 3, 4]
            new = c.post(f"/tables/{tid}/rekey", json={}, headers=bearer(keys["Kira"])).json()["key"]
            # the new key first: the other server still remembers the table as it was before the new key
            assert d.post(f"/tables/{tid}/roll", json=roll, headers=bearer(new)).status_code == 200
            assert d.post(f"/tables/{tid}/roll", json=roll, headers=bearer(keys["Kira"])).status_code == 401
            assert d.post(f"/tables/{tid}/turn", headers=bearer(keys["Kira"])).status_code == 401
            assert d.get(f"/tables/{tid}/log", headers=bearer(keys["Kira"])).status_code == 401
            wait_closed(far)
            new = c.post(f"/tables/{tid}/rekey", json={}, headers=bearer(new)).json()["key"]
            assert d.post(f"/tables/{tid}/flip", json={"from": "destiny.light", "to": "destiny.dark"},
                          headers=bearer(new)).status_code == 200
    finally:
        one.should_exit = two.should_exit = True
        one_thread.join(10)
        two_thread.join(10)


BARRED_EN = "'Kira' was removed by the game master and may join again only once a game master lets them back"
BARRED_FR = ("'Kira' a été retiré par le meneur de jeu et ne peut revenir à la table que si un meneur de jeu le lui "
             "permet")


def test_a_removal_by_the_game_master_sticks_until_they_let_the_member_back(where: str) -> None:
    """On SQLite and on PostgreSQL: the removed name refused at the join link (and as a game master's pick), in
    the caller's language; let back by a game master only (a step of the log), after which it joins anew."""
    from .test_web_gates import FR, client_on, refused

    with client_on(where) as c:
        t = seated(c)
        keys, tid = t["keys"], t["id"]
        assert c.post(f"/tables/{tid}/remove", json={"name": "Kira"}, headers=bearer(keys["GM"])).status_code == 200
        refused(c.post(f"/tables/{tid}/join", json={"name": "Kira"}), 403, "forbidden", BARRED_EN)
        refused(c.post(f"/tables/{tid}/join", json={"name": "Kira"}, headers=FR), 403, "forbidden", BARRED_FR)
        # a player may not let her back; a name that was not removed by the game master is no one to let back
        refused(c.post(f"/tables/{tid}/readmit", json={"name": "Kira"}, headers=bearer(keys["Jax"])), 403,
                "forbidden", "only the game master may let a removed member back")
        refused(c.post(f"/tables/{tid}/readmit", json={"name": "Jax"}, headers={**bearer(keys["GM"]), **FR}), 400,
                "value", "'Jax' n'a pas été retiré par le meneur de jeu : personne à laisser revenir")
        refused(c.post(f"/tables/{tid}/readmit", json={"name": "Kira"}, headers=bearer(keys["Kira"])), 401,
                "unauthorized", "")  # her old key is no one's
        r = c.post(f"/tables/{tid}/readmit", json={"name": "Kira"}, headers=bearer(keys["GM"]))
        assert r.status_code == 200, r.text
        assert (r.json()["step"]["kind"], r.json()["step"]["member"], r.json()["step"]["target"]) == \
            ("readmit", "GM", "Kira")
        again = c.post(f"/tables/{tid}/join", json={"name": "Kira"})
        assert again.status_code == 201, again.text
        new = again.json()["player_key"]
        assert new != keys["Kira"] and c.get(f"/tables/{tid}", headers=bearer(new)).status_code == 200
        assert c.get(f"/tables/{tid}", headers=bearer(keys["Kira"])).status_code == 401
        log = c.get(f"/tables/{tid}/log", headers=bearer(keys["Jax"])).json()["steps"]
        assert [(s["kind"], s["target"] if s["kind"] != "join" else s["member"]) for s in log[-3:]] == \
            [("remove", "Kira"), ("readmit", "Kira"), ("join", "Kira")]
        # a member who leaves on their own is not barred
        assert c.post(f"/tables/{tid}/remove", json={"name": "Jax"}, headers=bearer(keys["Jax"])).status_code == 200
        assert c.post(f"/tables/{tid}/join", json={"name": "Jax"}).status_code == 201


def test_whose_key_a_key_is(tmp_path: Path) -> None:
    """GET me: the member's name and role for their key (what the page asks of a key typed in), nothing of any
    key; a rotated key's new holder, and the old key refused."""
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c)
        keys, tid = t["keys"], t["id"]
        for name, role in (("GM", "gm"), ("Kira", "player")):
            r = c.get(f"/tables/{tid}/me", headers=bearer(keys[name]))
            assert r.status_code == 200 and r.json() == {"name": name, "role": role}
        new = c.post(f"/tables/{tid}/rekey", json={"name": "Kira"}, headers=bearer(keys["GM"])).json()["key"]
        assert c.get(f"/tables/{tid}/me", headers=bearer(new)).json() == {"name": "Kira", "role": "player"}
        for wrong in (keys["Kira"], "not a key"):
            r = c.get(f"/tables/{tid}/me", headers=bearer(wrong))
            assert r.status_code == 401 and r.json()["error"] == "unauthorized"
        assert c.get(f"/tables/{tid}/me").status_code == 401
