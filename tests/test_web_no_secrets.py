"""Nothing secret in any answer of the web service: a SEEDED table (its seed tells every roll to come) served by a
real server, every route of the service's OpenAPI schema called as the game master, as a player and with no key,
the page and every static module of its views, and the live stream: no answer holds the seed, a key hash, or a
key of another member. The routes are read from the schema, so a new route is walked without a change here (a
route this file has no body for is called with an empty body: its refusal is read too)."""

from __future__ import annotations

import hashlib
import importlib.resources
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

import httpx2 as httpx

from diceengine import table as T
from diceengine.table.store import open_store
from diceengine.web import create_app
from diceengine.web.tables import TableSettings

from .test_web_tables import SHEET, Stream, bearer, serve

#: the table's seed: a number no answer has any other reason to hold
SEED = 7_364_519_028_377_461_953
TABLE = "seeded-table-0001"
#: bodies a route accepts from the right member (any other route gets an empty body)
BODIES: dict[tuple[str, str], Any] = {
    ("post", "/api/roll"): {"expression": "2d6+1"},
    ("post", "/api/odds"): {"expression": "2d6+1"},
    ("post", "/api/sample"): {"expression": "2d6", "n": 100},
    ("post", "/api/compare"): {"expressions": ["d6: 3D vs 10", "ffg: 2a vs 1d"]},
    ("post", "/api/ladder"): {"system": "d6"},
    ("post", "/tables"): {"system": "ffg", "gm": "Other"},
    ("post", "/tables/{table_id}/join"): {"name": "Lo"},
    ("post", "/tables/{table_id}/roll"): {"expression": "2a vs 1d"},
    ("post", "/tables/{table_id}/rule"): {"rule": "buy_skill", "target": "Kira", "args": {"skill": "gunnery"}},
    ("post", "/tables/{table_id}/characters"): SHEET,
    ("post", "/tables/{table_id}/adjust"): {"pool": "destiny.light", "delta": 1},
    ("post", "/tables/{table_id}/order"): {"order": ["Kira", "Jax"]},
    ("post", "/tables/{table_id}/remove"): {"name": "Jax"},
}
PATH_VALUES = {"table_id": TABLE, "system": "ffg", "rule": "buy_skill", "lang": "fr"}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[str, dict[str, str], list[str]]]:
    """A real server holding a seeded FFG table of a game master and two players: its address, the keys, and
    the secrets (the seed, every key hash)."""
    db = str(tmp_path / "tables.sqlite")
    table, keys = T.new_table(TABLE, "ffg", "GM", ["Kira", "Jax"], seed=SEED)
    open_store(db).create(table)
    secrets = [str(SEED), hex(SEED)[2:]] + [hashlib.sha256(k.encode()).hexdigest() for k in keys.values()]
    secrets += [m.key_hash for m in table.members.values()]
    app = create_app(workers=0, tables=TableSettings(db=db, poll_seconds=0.02, heartbeat_seconds=0.2, burst=10_000))
    server, thread, base = serve(app)
    try:
        yield base, keys, secrets
    finally:
        server.should_exit = True
        thread.join(10)


def _clean(text: str, secrets: list[str], keys: dict[str, str], own: str | None, where: str) -> None:
    for secret in secrets:
        assert secret and secret not in text, f"{where}: a secret ({secret[:12]}...) in the answer"
    for name, key in keys.items():
        if name != own:
            assert key not in text, f"{where}: {name}'s key in the answer"


def _follow_keys(r: Any, keys: dict[str, str], secrets: list[str]) -> None:
    """A route that gives a member a new key (a key rotated, a player joined): the walk goes on with it, and its
    hash is one more secret."""
    try:
        body = r.json()
    except ValueError:
        return
    if not isinstance(body, dict):
        return
    for name_field, key_field in (("name", "key"), ("name", "player_key")):
        if isinstance(body.get(key_field), str) and isinstance(body.get(name_field), str):
            keys[body[name_field]] = body[key_field]
            secrets.append(hashlib.sha256(body[key_field].encode()).hexdigest())


def _routes(openapi: dict) -> list[tuple[str, str]]:
    return [(method, path) for path, item in openapi["paths"].items() for method in item
            if method in ("get", "post", "put", "patch", "delete")]


def test_no_answer_of_any_route_holds_a_secret(seeded: tuple[str, dict[str, str], list[str]]) -> None:
    base, keys, secrets = seeded
    with httpx.Client(base_url=base, timeout=60) as c:
        # the seeded table in play: rolls drawn from the seed, a secret one, a re-roll
        for key, body in ((keys["Kira"], {"expression": "2a vs 1d"}), (keys["GM"], {"expression": "1p", "secret": True})):
            assert c.post(f"/tables/{TABLE}/roll", json=body, headers=bearer(key)).status_code == 200
        assert c.post(f"/tables/{TABLE}/reroll", headers=bearer(keys["GM"])).status_code == 200
        schema = c.get("/openapi.json")
        assert schema.status_code == 200
        routes = _routes(schema.json())
        assert ("get", "/tables/{table_id}/events") in routes and ("get", "/tables/{table_id}") in routes
        walked = 0
        for method, path in routes:
            if path.endswith("/events"):
                continue  # a stream: read below
            url = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES.get(m.group(1), "x"), path)
            for who in ("GM", "Kira", None):
                headers = bearer(keys[who]) if who else {}
                body = BODIES.get((method, path), {}) if method != "get" else None
                r = c.request(method.upper(), url, json=body, headers=headers)
                assert r.status_code < 500, (method, url, who, r.status_code, r.text[:300])
                _clean(r.text, secrets, keys, who, f"{method.upper()} {url} as {who}")
                _clean(str(r.headers), secrets, keys, who, f"{method.upper()} {url} as {who} (headers)")
                if path.startswith("/tables/{table_id}"):
                    _follow_keys(r, keys, secrets)
                walked += 1
        assert walked >= 3 * 20
        for page in ("/", "/docs", "/redoc", "/openapi.json"):
            _clean(c.get(page).text, secrets, keys, None, page)
        for module in importlib.resources.files("diceengine.web").joinpath("static").iterdir():
            if module.is_file():
                r = c.get(f"/static/{module.name}")
                assert r.status_code == 200, module.name
                _clean(r.text, secrets, keys, None, f"/static/{module.name}")
        version = c.get(f"/tables/{TABLE}", headers=bearer(keys["GM"])).json()["version"]
    for who in ("GM", "Kira"):
        stream = Stream(base, TABLE, keys[who], after=0)
        try:
            events = stream.take(version, timeout=30)
        finally:
            stream.close()
        assert [ident for ident, _ in events] == list(range(1, version + 1))
        _clean(repr(events), secrets, keys, who, f"the live stream as {who}")
