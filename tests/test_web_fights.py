"""``POST /api/fight``: an encounter compared across its rulesets over HTTP.

The service carries the engine's answer, so its numbers are checked against :mod:`diceengine.fights` called
directly on the same encounter (exact, and simulated with the same seed); every refusal of a bad encounter
or request is the engine's JSON error (a caret under the fault of a TOML or JSON text), never a 500.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from fastapi.testclient import TestClient

from diceengine import DiceError, fights
from diceengine.fights.encounter import MAX_ROUNDS
from diceengine.web import create_app
from diceengine.web.fights import MAX_FIGHTS
from diceengine.web.tables import TableSettings

from .helpers import service_workers

ROOT = Path(__file__).resolve().parents[1]
ROARK = ROOT / "examples" / "roark.toml"
SQUAD = ROOT / "examples" / "stormtroopers.toml"
STATIC = ROOT / "diceengine" / "web" / "static" / "encounters"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application with one worker process (the way ``dice serve`` runs it; none under mutmut:
    ``service_workers``)."""
    db = tmp_path_factory.mktemp("tables") / "t.sqlite"
    with TestClient(create_app(workers=service_workers(), tables=TableSettings(db=str(db))),
                    raise_server_exceptions=False) as c:
        yield c


def _same(answer: dict[str, Any], direct: list[fights.FightOdds]) -> None:
    """The service's results are the engine's, field by field (but the time it took)."""
    assert [r["system"] for r in answer["results"]] == [r.system for r in direct]
    for got, want in zip(answer["results"], direct, strict=True):
        want_data = want.model_dump(mode="json")
        got.pop("seconds"), want_data.pop("seconds")
        assert got == want_data


def _error(r: Any, status: int, kind: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["error"] == kind and isinstance(body["message"], str) and body["message"], body
    assert set(body) == {"error", "message", "expression", "column", "caret"}
    return body


def _roark() -> dict[str, Any]:
    return tomllib.loads(ROARK.read_text(encoding="utf-8"))


def _skirmish() -> dict[str, Any]:
    """Roark and a friend against the stormtrooper: two combatants on one side, so simulated."""
    data = _roark()
    for system in ("d6", "d6wild", "ffg"):
        data[system]["a"].append(dict(data[system]["a"][0], name="Vela"))
    return data


# -- answers -------------------------------------------------------------------------------------------


def test_a_duel_from_toml_is_the_engines_exact_comparison(client: TestClient) -> None:
    r = client.post("/api/fight", json={"text": ROARK.read_text(encoding="utf-8")})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["encounter"] == "Roark against a stormtrooper" and body["sides"] == ["Roark", "Stormtrooper"]
    assert body["rounds"] == 20
    direct = fights.compare(fights.load_encounter(ROARK))
    _same(body, direct)
    for res in body["results"]:
        assert res["method"] == "exact"
        # every fight ends one way or another, or never: the chances add up to one
        assert res["a_wins"] + res["b_wins"] + res["both_down"] + res["unfinished"] == pytest.approx(1, abs=1e-9)
        assert len(res["ended"]) == len(res["going"]) == len(res["a_by_round"]) == 20
        assert all(x <= y + 1e-12 for x, y in zip(res["a_by_round"], res["a_by_round"][1:]))
        assert 1 - res["going"][0] == pytest.approx(res["ended"][0])
    # the numbers of docs/fights.md (dice fight compare examples/roark.toml)
    assert [round(100 * res["a_wins"], 2) for res in body["results"]] == [90.62, 90.98, 26.59]


def test_json_text_json_object_and_toml_are_the_same_encounter(client: TestClient) -> None:
    data = tomllib.loads(SQUAD.read_text(encoding="utf-8"))
    from_toml = client.post("/api/fight", json={"text": SQUAD.read_text(encoding="utf-8")}).json()
    from_json = client.post("/api/fight", json={"text": json.dumps(data), "format": "json"}).json()
    from_object = client.post("/api/fight", json={"encounter": data}).json()
    for body in (from_toml, from_json, from_object):
        for res in body["results"]:
            res.pop("seconds")
    assert from_json == from_toml and from_object == from_toml
    _same(client.post("/api/fight", json={"encounter": data}).json(), fights.compare(fights.load_encounter(data)))


def test_rulesets_and_rounds_asked_for(client: TestClient) -> None:
    body = client.post("/api/fight", json={"encounter": _roark(), "systems": ["ffg", "d6"], "rounds": 7}).json()
    assert [res["system"] for res in body["results"]] == ["ffg", "d6"] and body["rounds"] == 7
    _same(body, fights.compare(fights.load_encounter(_roark()), ["ffg", "d6"], rounds=7))
    assert all(len(res["ended"]) == 7 for res in body["results"])


def test_a_skirmish_is_simulated_with_the_seed_as_the_engine_does(client: TestClient) -> None:
    req = {"encounter": _skirmish(), "fights": 3000, "seed": 12}
    first, again = (client.post("/api/fight", json=req).json() for _ in range(2))
    assert [res["method"] for res in first["results"]] == ["simulated"] * 3
    assert all(res["fights"] == 3000 for res in first["results"])
    _same(first, fights.compare(fights.load_encounter(_skirmish()), fights=3000, seed=12))
    _same(again, fights.compare(fights.load_encounter(_skirmish()), fights=3000, seed=12))
    other = client.post("/api/fight", json={**req, "seed": 13}).json()
    assert [res["a_wins"] for res in other["results"]] != [res["a_wins"] for res in first["results"]]


def test_the_pages_examples_are_the_repositorys(client: TestClient) -> None:
    for name in ("roark.toml", "stormtroopers.toml"):
        assert (STATIC / name).read_text(encoding="utf-8") == (ROOT / "examples" / name).read_text(encoding="utf-8")
        r = client.get(f"/static/encounters/{name}")
        assert r.status_code == 200 and r.text == (ROOT / "examples" / name).read_text(encoding="utf-8")


def test_openapi_documents_the_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    post = schema["paths"]["/api/fight"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert {"text", "format", "encounter", "systems", "method", "fights", "seed", "rounds"} <= set(body["properties"])
    assert post["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/FightResponse")
    for status in ("400", "422"):
        assert post["responses"][status]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorResponse")


# -- refusals ------------------------------------------------------------------------------------------


def test_bad_toml_is_the_engines_error_with_a_caret_under_the_fault(client: TestClient) -> None:
    text = 'name = "Duel"\nsides = ["A" "B"]\n[d6]\n'
    body = _error(client.post("/api/fight", json={"text": text}), 400, "value")
    assert "not valid TOML" in body["message"] and "line 2" in body["message"]
    line, caret = body["caret"].split("\n")
    assert body["expression"] == 'sides = ["A" "B"]' and line == '  sides = ["A" "B"]'
    # under the second name, where a comma was expected
    assert body["column"] == len('sides = ["A" ') and caret.index("^") == 2 + body["column"]


def test_bad_json_text_is_the_engines_error_with_a_caret(client: TestClient) -> None:
    text = '{"name": "Duel",\n "sides": ["A", "B"],, "d6": {}}'
    body = _error(client.post("/api/fight", json={"text": text, "format": "json"}), 400, "value")
    assert "not valid JSON" in body["message"]
    assert body["expression"] == ' "sides": ["A", "B"],, "d6": {}}'
    assert body["expression"][body["column"]] == ","  # the second comma, where a name was expected
    assert body["column"] == len(' "sides": ["A", "B"],')


def _with(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(_roark())
    system, side, index, field = path.split(".")
    data[system][side][int(index)][field] = value
    return data


@pytest.mark.parametrize("encounter, words", [
    (_with("d6.a.0.attack", "banana"), "d6.a[0].attack: not a dice code: 'banana'"),
    (_with("d6.a.0.attack", "5D+"), "d6.a[0].attack"),
    (_with("ffg.b.0.wound_threshold", 0), "ffg.b[0].wound_threshold"),
    (_with("d6wild.a.0.player", "maybe"), "d6wild.a[0].player"),
    ({**_roark(), "d20pool": {"a": [], "b": []}}, "cannot fight"),
    ({"name": "nothing"}, "no ruleset table"),
    ({"d6": "a string"}, "d6"),
    ({**_roark(), "sides": ["only one"]}, "sides"),
    ({**_roark(), "rounds": 0}, "rounds"),
    ({**_roark(), "nosuchsystem": {}}, "nosuchsystem"),
])
def test_bad_encounters_are_the_engines_errors(client: TestClient, encounter: dict[str, Any], words: str) -> None:
    body = _error(client.post("/api/fight", json={"encounter": encounter}), 400, "value")
    assert words in body["message"]
    # the same fault through the engine directly
    with pytest.raises(DiceError) as info:
        fights.load_encounter(encounter)
    # (the systems a message lists are the worker process's: a plugin another test registered here is not there)
    assert info.value.message.split(" (registered")[0] == body["message"].split(" (registered")[0]


def test_rulesets_the_encounter_is_not_written_for(client: TestClient) -> None:
    body = _error(client.post("/api/fight", json={"encounter": _roark(), "systems": ["d20pool"]}), 400, "value")
    assert "not written for 'd20pool'" in body["message"] and "d6, d6wild, ffg" in body["message"]
    _error(client.post("/api/fight", json={"encounter": _roark(), "systems": []}), 400, "value")


def test_exact_odds_beyond_the_engines_bounds(client: TestClient) -> None:
    skirmish = _error(client.post("/api/fight", json={"encounter": _skirmish(), "method": "exact"}), 400, "value")
    assert "one combatant a side" in skirmish["message"]
    data = {k: v for k, v in _roark().items() if k not in ("d6", "d6wild")}
    data["ffg"]["a"][0]["wound_threshold"] = data["ffg"]["b"][0]["wound_threshold"] = 60
    states = _error(client.post("/api/fight", json={"encounter": data}), 422, "limit")
    assert "too many health states" in states["message"]


def test_a_simulation_past_the_cpu_budget_is_refused(tmp_path: Path) -> None:
    app = create_app(workers=1, cpu_seconds=0.5, tables=TableSettings(db=str(tmp_path / "t.sqlite")))
    with TestClient(app, raise_server_exceptions=False) as small:
        # a duel first: the worker imports the combat modules within the budget (one-shot, the budget's
        # timer must not fall in an import that swallows exceptions)
        assert small.post("/api/fight", json={"encounter": _roark(), "systems": ["d6"]}).status_code == 200
        # a million fights in each of three rulesets: several seconds of CPU
        body = _error(small.post("/api/fight", json={"encounter": _skirmish(), "fights": MAX_FIGHTS}), 422, "limit")
        assert "0.5 s of computation" in body["message"]


@pytest.mark.parametrize("request_body", [{"text": "name = 'x'", "encounter": {}}, {}, {"text": None}])
def test_an_encounter_given_twice_or_not_at_all_is_the_engines_refusal(client: TestClient,
                                                                       request_body: dict[str, Any]) -> None:
    """Both a text and an object, or neither: what the schema does not say, refused as the engine's value error."""
    body = _error(client.post("/api/fight", json=request_body), 400, "value")
    assert "either as text or as an object" in body["message"]


@pytest.mark.parametrize("request_body, words", [
    ({"text": 5}, "text"),
    ({"encounter": _roark(), "fights": 0}, "fights"),
    ({"encounter": _roark(), "fights": MAX_FIGHTS + 1}, "fights"),
    ({"encounter": _roark(), "rounds": MAX_ROUNDS + 1}, "rounds"),
    ({"encounter": _roark(), "seed": -1}, "seed"),
    ({"encounter": _roark(), "method": "guess"}, "method"),
    ({"encounter": _roark(), "systems": ["d6"] * 9}, "systems"),
    ({"encounter": _roark(), "format": "yaml", "text": "x"}, "format"),
    ({"encounter": _roark(), "colour": "red"}, "colour"),
    ({"text": "x" * 60_001}, "text"),
])
def test_malformed_requests_are_invalid_requests(client: TestClient, request_body: dict[str, Any], words: str) -> None:
    body = _error(client.post("/api/fight", json=request_body), 422, "invalid_request")
    assert words in body["message"]


@pytest.mark.parametrize("raw", [
    b"", b"nope", b"[]", b'{"encounter": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
    b'{"encounter": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_000 + b"}",
])
def test_bodies_that_are_not_a_request(client: TestClient, raw: bytes) -> None:
    r = client.post("/api/fight", content=raw, headers={"Content-Type": "application/json"})
    _error(r, 422, "invalid_request")


@pytest.mark.parametrize("text", ["a = " + "[" * 20_000, "a = " + "{b = " * 10_000, "[[" * 10_000, "\x00", "é = 1"])
def test_hostile_toml_is_the_engines_error(client: TestClient, text: str) -> None:
    body = _error(client.post("/api/fight", json={"text": text}), 400, "value")
    assert "not valid TOML" in body["message"]
    if body["caret"] is not None:  # a long line is shown around its fault, never whole
        assert len(body["expression"]) <= 200


def test_deep_json_text_is_the_engines_error(client: TestClient) -> None:
    body = _error(client.post("/api/fight", json={"text": "[" * 30_000 + "]" * 30_000, "format": "json"}), 400, "value")
    assert "not valid JSON" in body["message"] or "encounter is a table" in body["message"]
    assert client.post("/api/fight", content=b"{" + b" " * 70_000 + b"}",
                       headers={"Content-Type": "application/json"}).status_code == 413
