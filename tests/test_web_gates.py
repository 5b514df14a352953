"""The web service's gates (issue 34): names and ids refused alike on every database, one refusal shape for every
route and failure in the caller's language, documented examples that make valid requests, the fast paths behind
the same gate as their routes, and a player's character their own by default.

Each test was seen failing before the change it is for (a NUL id was a 500 on PostgreSQL, an unreadable body
``{"detail": ...}``, a large body on ``/tables`` a ``text/plain`` 413, a 405 without ``Allow``, ``/api/roll``'s
answers without ``nosniff``, the examples refused, a player's own character refused without ``owner``)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

import diceengine.table as T
from diceengine.web import create_app
from diceengine.web.tables import TableSettings

from .test_web_tables import SHEET, bearer, seated

SHAPE = {"error", "message", "expression", "column", "caret"}
FR = {"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}
# the rule texts' words are not the point here: the messages, as written in the catalogues (independent of code)
NAME_EN = "a name is 1 to 100 characters, not blank, without control characters"
NAME_FR = "un nom a de 1 à 100 caractères, n'est pas vide et n'a pas de caractère de contrôle"
ID_EN = "a table's id is 1 to 200 characters without control characters"
ID_FR = "l'identifiant d'une table a de 1 à 200 caractères sans caractère de contrôle"
UNREADABLE_EN = "the request body could not be read as JSON"
UNREADABLE_FR = "le corps de la requête n'a pas pu être lu comme du JSON"
# every POST route with a JSON body ({id}: a table's)
POSTS = ["/api/roll", "/api/odds", "/api/sample", "/api/compare", "/api/convert", "/api/ladder", "/api/fight",
         "/api/systems/ffg/rules/soak", "/tables", "/tables/{id}/join", "/tables/{id}/roll", "/tables/{id}/rule",
         "/tables/{id}/characters", "/tables/{id}/flip", "/tables/{id}/adjust", "/tables/{id}/order"]


def client_on(db: str, **settings: Any) -> TestClient:
    return TestClient(create_app(workers=0, tables=TableSettings(db=db, burst=10_000, **settings)),
                      raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_on(str(tmp_path / "tables.sqlite")) as c:
        yield c


def refused(r: Any, status: int, kind: str, words: str) -> dict[str, Any]:
    """``r`` is a refusal in the error shape, with the headers of every answer, saying ``words``."""
    assert r.status_code == status, (r.request.method, r.request.url, r.status_code, r.text)
    assert r.headers["content-type"] == "application/json"
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    body = r.json()
    assert set(body) == SHAPE and body["error"] == kind, body
    assert words in body["message"], body["message"]
    return body


# ---- 1. names and ids: refused alike on every database, with the engine's message, in English and French

@pytest.mark.parametrize("bad", ["x\x00y", "x\ny", "x\x7fy", "x\x85y"])
def test_a_control_character_in_a_table_id_is_refused_on_every_database(where: str, bad: str) -> None:
    with client_on(where) as c:
        t = seated(c, players=("Kira",))
        key = bearer(t["keys"]["GM"])
        path = "/tables/" + bad.replace("\x00", "%00").replace("\n", "%0A").replace("\x7f", "%7F") \
            .replace("\x85", "%C2%85")
        for method, url, body in [("GET", path, None), ("GET", path + "/log", None), ("GET", path + "/luck", None),
                                  ("POST", path + "/join", {"name": "Eve"}),
                                  ("POST", path + "/roll", {"expression": "2a"}), ("POST", path + "/turn", None)]:
            r = c.request(method, url, json=body, headers=key)
            refused(r, 400, "value", ID_EN)
            refused(c.request(method, url, json=body, headers={**key, **FR}), 400, "value", ID_FR)
        # the table is as it was
        assert c.get(f"/tables/{t['id']}/log", headers=key).json()["version"] == 3  # the seed's step, two joins


@pytest.mark.parametrize("bad", ["a\x00b", "a\tb", "a\u009fb", "a\ud800b", " ", "x" * 101])
def test_a_bad_name_is_refused_on_every_database(where: str, bad: str) -> None:
    with client_on(where) as c:
        body = json.dumps({"system": "ffg", "gm": bad}).encode()  # a lone surrogate: JSON's escape of it
        r = c.post("/tables", content=body, headers={"content-type": "application/json"})
        refused(r, 400, "value", NAME_EN)
        r = c.post("/tables", content=body, headers={"content-type": "application/json", **FR})
        refused(r, 400, "value", NAME_FR)
        t = seated(c, players=())
        refused(c.post(f"/tables/{t['id']}/join", content=json.dumps({"name": bad}).encode(),
                       headers={"content-type": "application/json"}), 400, "value", NAME_EN)
        character = {**SHEET, "name": bad, "owner": None}
        refused(c.post(f"/tables/{t['id']}/characters", content=json.dumps(character).encode(),
                       headers={"content-type": "application/json", **bearer(t["keys"]["GM"])}), 400, "value",
                NAME_EN)
        # the seed's commitment and the game master's joining: nothing of the refused name
        assert c.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"]["GM"])).json()["version"] == 2


def test_a_name_with_accents_and_spaces_is_a_name(where: str) -> None:
    with client_on(where) as c:
        t = seated(c, players=("Zoé d'Alderaan", "李"))
        table = c.get(f"/tables/{t['id']}", headers=bearer(t["keys"]["李"])).json()
        assert set(table["members"]) == {"GM", "Zoé d'Alderaan", "李"}


def test_the_library_refuses_the_same_names_and_ids(where: str) -> None:
    """The table's model is the one place: the library, without the web service, refuses what it refuses."""
    for bad in ("a\x00b", "a\ud800b", "a\nb"):
        with pytest.raises(T.TableError, match="control characters"):
            T.new_table(bad, "ffg", "GM")
        with pytest.raises(T.TableError, match="control characters"):
            T.new_table("game", "ffg", bad)
        table, _ = T.new_table("game", "ffg", "GM")
        with pytest.raises(T.TableError, match="control characters"):
            T.join(table, bad)
    table, _ = T.new_table("game", "ffg", "GM", players=["Kira"])
    with T.open_store(where) as store:
        assert store.create(table) == table  # a good name stored alike on both


# ---- 2. one refusal shape: unreadable bodies, sizes, methods, in the caller's language

@pytest.mark.parametrize("body", [b'{"expression": "\xff\xfe"}', b"[" * 100_000 + b"]" * 100_000,
                                  b'{"a":' * 5_000 + b"1" + b"}" * 5_000],
                         ids=["not-utf8", "nested-array", "nested-object"])
def test_an_unreadable_body_is_refused_in_the_shape_on_every_route(client: TestClient, body: bytes) -> None:
    t = seated(client, players=("Kira",))
    key = bearer(t["keys"]["GM"])
    for path in POSTS:
        url = path.format(id=t["id"])
        headers = {"content-type": "application/json", **key}
        refused(client.post(url, content=body[:60_000], headers=headers), 422, "invalid_request", UNREADABLE_EN)
        refused(client.post(url, content=body[:60_000], headers={**headers, **FR}), 422, "invalid_request",
                UNREADABLE_FR)


def _chunks(body: bytes) -> Iterator[bytes]:
    """A body sent without its length (chunked), in pieces."""
    for i in range(0, len(body), 8192):
        yield body[i:i + 8192]


def test_a_body_past_64_kib_is_the_same_413_on_every_route(client: TestClient) -> None:
    t = seated(client, players=("Kira",))
    big = json.dumps({"expression": "1d6", "pad": "x" * 70_000}).encode()
    for path in POSTS:
        url = path.format(id=t["id"])
        headers = {"content-type": "application/json", **bearer(t["keys"]["Kira"])}
        refused(client.post(url, content=big, headers=headers), 413, "too_large", "larger than 65536 bytes")
        refused(client.post(url, content=_chunks(big), headers=headers), 413, "too_large", "larger than 65536 bytes")
        refused(client.post(url, content=big, headers={**headers, **FR}), 413, "too_large", "dépasse 65536 octets")
    ok = json.dumps({"expression": "1d6", "system": "standard"}).encode()
    assert client.post("/api/roll", content=_chunks(ok), headers={"content-type": "application/json"}).status_code \
        == 200


def test_a_method_not_allowed_names_what_is_allowed(client: TestClient) -> None:
    for method, path, allowed in [("GET", "/api/roll", {"POST"}), ("PUT", "/tables", {"POST"}),
                                  ("DELETE", "/api/systems", {"GET"}), ("POST", "/api/health", {"GET"})]:
        r = client.request(method, path)
        refused(r, 405, "method_not_allowed", f"{method} is not allowed on {path}")
        assert {m.strip() for m in r.headers["allow"].split(",")} == allowed
        for named in allowed:  # what it names is allowed
            assert client.request(named, path, json={"expression": "1d6"}).status_code != 405
        r = client.request(method, path, headers=FR)
        refused(r, 405, "method_not_allowed", f"{method} n'est pas permis sur {path}")


def test_no_such_page_and_a_bad_field_are_said_in_french(client: TestClient) -> None:
    refused(client.get("/nowhere", headers=FR), 404, "not_found", "pas de page /nowhere")
    refused(client.post("/api/odds", json={"expression": 3}, headers=FR), 422, "invalid_request",
            "expression : doit être du texte")
    refused(client.post("/api/roll", json={"expression": "1d6", "n": 1000}, headers=FR), 422, "invalid_request",
            "n : doit valoir au plus 100")
    refused(client.post("/api/sample", json={"expression": "1d6", "zz": 1}, headers=FR), 422, "invalid_request",
            "zz : ce champ n'est pas attendu ici")
    # the engine's error raised in a compute worker, said in the caller's language
    refused(client.post("/api/fight", json={}, headers=FR), 400, "value",
            "donnez la rencontre soit en texte, soit en objet")
    # the engine's own errors, from a worker's route and from the roll's hot path alike
    for path in ("/api/odds", "/api/roll"):
        body = refused(client.post(path, json={"expression": "1d6+"}, headers=FR), 400, "syntax",
                       "l'expression s'arrête trop tôt")
        assert body["column"] == 4
    # a roll's own lang comes first
    refused(client.post("/api/roll", json={"expression": "1d6+", "lang": "en"}, headers=FR), 400, "syntax",
            "the expression ends too early")


def test_an_unforeseen_failure_is_a_500_in_the_shape() -> None:
    """The gate's last refusal: an application that fails before answering (a real ASGI application, raising)
    is answered in the error shape, with the headers of every answer, in the caller's language."""
    from diceengine.web.security_headers import SecurityHeaders

    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("a bug")

    c = TestClient(SecurityHeaders(failing, page=None), raise_server_exceptions=False)  # no lifespan: it fails too
    refused(c.post("/tables", json={"system": "ffg"}), 500, "internal", "the service failed")
    refused(c.get("/api/roll", headers=FR), 500, "internal", "le service a échoué")


def test_another_status_of_the_framework_is_in_the_shape() -> None:
    """A status of the framework's with no words of its own (a teapot's) is still a refusal in the shape, in the
    caller's language, its headers kept."""
    from starlette.requests import Request

    from diceengine.web.answers import http_refusal

    scope = {"type": "http", "method": "GET", "path": "/x", "headers": [(b"accept-language", b"fr")],
             "query_string": b"", "server": ("t", 80), "scheme": "http", "root_path": ""}
    r = http_refusal(Request(scope), 418, {"X-Why": "tea"})
    assert r.status_code == 418 and r.headers["x-why"] == "tea"
    body = json.loads(r.body)
    assert set(body) == SHAPE and body["error"] == "refused" and body["message"] == "cette requête est refusée (HTTP 418)"


# ---- 3. the documented examples make valid requests

def test_every_documented_example_is_a_valid_request(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    tried = []
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/") or "{" in path:
            continue
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None:
                continue
            body_schema = content["schema"]
            if "$ref" in body_schema:
                body_schema = components[body_schema["$ref"].rsplit("/", 1)[1]]
            for example in body_schema.get("examples", []):
                r = client.request(method.upper(), path, json=example)
                assert r.status_code == 200, (path, example, r.text)
                tried.append(path)
            for name, prop in body_schema.get("properties", {}).items():  # each field's own example, alone
                for value in prop.get("examples", []):
                    required = {k: v for k, v in body_schema.get("examples", [{}])[0].items()
                                if k in body_schema.get("required", [])}
                    r = client.request(method.upper(), path, json={**required, name: value})
                    assert r.status_code == 200, (path, name, value, r.text)
                    tried.append(path)
    assert {"/api/roll", "/api/odds", "/api/sample", "/api/compare", "/api/convert", "/api/fight"} <= set(tried)


# ---- 4. the fast paths behind the same gate as their routes

ROLL_CASES: list[tuple[str, dict[str, str], bytes | None]] = [
    ("a roll", {}, json.dumps({"expression": "4D+2 vs 15", "system": "d6wild", "seed": 3}).encode()),
    ("a syntax error", FR, b'{"expression": "1d6+"}'),
    ("a field at fault", FR, b'{"expression": "1d6", "n": 0}'),
    ("an unknown field", {}, b'{"expression": "1d6", "x": 1}'),
    ("not UTF-8", FR, b'{"expression": "\xff"}'),
    ("not JSON", {}, b"{"),
    ("too large", FR, json.dumps({"expression": "1d6", "pad": "x" * 70_000}).encode()),
]


@pytest.mark.parametrize(("case", "headers", "body"), ROLL_CASES, ids=[c[0] for c in ROLL_CASES])
@pytest.mark.parametrize("header", ["x-content-type-options", "referrer-policy", "content-type"])
def test_the_roll_fast_path_answers_as_its_route(tmp_path: Path, case: str, headers: dict[str, str], body: bytes,
                                                 header: str) -> None:
    """``POST /api/roll``: the fast path, and the documented route (reached under a prefix, where the fast path
    does not answer), give the same status, body and header."""
    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))
    with TestClient(app, raise_server_exceptions=False) as fast, \
            TestClient(app, root_path="/prefix", raise_server_exceptions=False) as routed:
        sent = {"content-type": "application/json", **headers}
        a = fast.post("/api/roll", content=body, headers=sent)
        b = routed.post("/prefix/api/roll", content=body, headers=sent)
    assert a.status_code == b.status_code and a.json() == b.json()
    assert a.headers.get(header) == b.headers.get(header) is not None
    if a.status_code != 200:
        assert set(a.json()) == SHAPE


TABLE_CASES: list[tuple[str, dict[str, str], Any]] = [
    ("a roll", {}, {"expression": "1d20", "system": "standard"}),
    ("a syntax error", FR, {"expression": "2a +"}),
    ("an option of the roll's own", FR, {"expression": "2a", "options": {"seed": 3}}),
    ("a wrong key", FR, "wrong"),
    ("a bad table id", FR, "bad id"),
    ("too large", FR, {"expression": "2a", "system": "x" * 70_000}),
    ("not UTF-8", FR, b'{"expression": "\xff"}'),
]


@pytest.mark.parametrize(("case", "headers", "body"), TABLE_CASES, ids=[c[0] for c in TABLE_CASES])
@pytest.mark.parametrize("header", ["x-content-type-options", "referrer-policy", "content-type"])
def test_the_table_roll_fast_path_answers_as_its_route(tmp_path: Path, case: str, headers: dict[str, str],
                                                       body: Any, header: str) -> None:
    answers = []
    for fast_path in (True, False):
        with client_on(str(tmp_path / f"{fast_path}.sqlite"), fast_path=fast_path) as c:
            t = seated(c, players=("Kira",))
            key, table_id = t["keys"]["Kira"], t["id"]
            if body == "wrong":
                key, body_sent = "w" * 22, {"expression": "2a"}
            elif body == "bad id":
                table_id, body_sent = "x%00y", {"expression": "2a"}
            else:
                body_sent = body
            content = body_sent if isinstance(body_sent, bytes) else json.dumps(body_sent).encode()
            r = c.post(f"/tables/{table_id}/roll", content=content,
                       headers={"content-type": "application/json", **bearer(key), **headers})
            answers.append(r)
    a, b = answers
    assert a.status_code == b.status_code, (a.text, b.text)
    assert a.headers.get(header) == b.headers.get(header) is not None
    if a.status_code == 200:
        assert a.json()["step"].keys() == b.json()["step"].keys()
    else:
        assert a.json() == b.json() and set(a.json()) == SHAPE


# ---- 5. a player's character is their own by default

def test_a_player_adds_their_own_character_without_naming_themselves(client: TestClient) -> None:
    t = seated(client)
    sheet = {k: v for k, v in SHEET.items() if k != "owner"}
    r = client.post(f"/tables/{t['id']}/characters", json=sheet, headers=bearer(t["keys"]["Kira"]))
    assert r.status_code == 200, r.text
    table = client.get(f"/tables/{t['id']}", headers=bearer(t["keys"]["Jax"])).json()
    assert table["play"]["characters"]["Kira"]["owner"] == "Kira"
    # their own, so a rule on it is theirs to take, and not another player's
    rule = {"rule": "buy_skill", "target": "Kira", "args": {"skill": "gunnery"}}
    assert client.post(f"/tables/{t['id']}/rule", json=rule, headers=bearer(t["keys"]["Kira"])).status_code == 200
    assert client.post(f"/tables/{t['id']}/rule", json=rule, headers=bearer(t["keys"]["Jax"])).status_code == 403
    # a player still may not give a character to another; the game master's stays the game master's
    other = {**sheet, "name": "Lo", "owner": "Jax", "state": {**SHEET["state"], "name": "Lo"}}
    assert client.post(f"/tables/{t['id']}/characters", json=other,
                       headers=bearer(t["keys"]["Kira"])).status_code == 403
    npc = {**sheet, "name": "Vex", "state": {**SHEET["state"], "name": "Vex"}}
    assert client.post(f"/tables/{t['id']}/characters", json=npc, headers=bearer(t["keys"]["GM"])).status_code == 200
    table = client.get(f"/tables/{t['id']}", headers=bearer(t["keys"]["GM"])).json()
    assert table["play"]["characters"]["Vex"]["owner"] is None


def test_the_library_store_refuses_a_nul_id_alike_on_every_database(tmp_path):
    # the web routes refused it; the store itself raised psycopg's DataError on PostgreSQL (issue 34)
    from diceengine import table as T

    urls = [str(tmp_path / "t.sqlite")]
    if os.environ.get("DICEENGINE_TEST_POSTGRES"):
        urls.append(os.environ["DICEENGINE_TEST_POSTGRES"])
    for url in urls:
        with T.open_store(url) as store:
            for bad in ("x\x00y", "a\nb"):
                with pytest.raises(T.TableError):
                    store.load(bad)
                with pytest.raises(T.TableError):
                    store.update(bad, lambda t: t)
