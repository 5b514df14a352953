"""The web service through FastAPI's test client (every endpoint, its errors and its limits), and a
real uvicorn server for what only a real server shows (concurrency, busy workers).

Expected numbers come from enumeration written here or from the rule texts, never from the engine's
tables; where the service only carries the engine's answer, it is checked against the Python API.
"""

from __future__ import annotations

import json
import math
import re
import socket
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from itertools import pairwise, product
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine.web import create_app
from diceengine.web.app import MAX_BODY
from diceengine.web.models import MAX_CHECKS, MAX_ROLLS, MAX_SAMPLE
from diceengine.web.service import engine_features

from .conftest import examples
from .helpers import service_workers


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The application with one worker process (the way ``dice serve`` runs it; none under mutmut:
    ``service_workers``)."""
    with TestClient(create_app(workers=service_workers()), raise_server_exceptions=False) as c:
        yield c


def sums(dice: int, sides: int = 6) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` dice, by enumeration."""
    out: dict[int, Fraction] = {}
    for faces in product(range(1, sides + 1), repeat=dice):
        out[sum(faces)] = out.get(sum(faces), Fraction(0)) + Fraction(1, sides**dice)
    return out


def wild_check(dice: int, pips: int, target: int) -> float:
    """P(``dice`` d6 + a Wild Die rolled again on each 6 + ``pips`` >= target), by enumeration."""
    wild = {6 * k + f: (1 / 6) ** (k + 1) for k in range(14) for f in range(1, 6)}
    base = sums(dice)
    return sum(float(pb) * pw for b, pb in base.items() for w, pw in wild.items() if b + w + pips >= target)


def assert_error(r: Any, status: int | tuple[int, ...], kind: str | None = None) -> dict[str, Any]:
    statuses = (status,) if isinstance(status, int) else status
    assert r.status_code in statuses, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["message"], str) and body["message"]
    if kind is not None:
        assert body["error"] == kind, body
    return body


# -- roll ---------------------------------------------------------------------------------------------


def test_roll_is_the_engines_roll_and_adds_up(client: TestClient) -> None:
    r = client.post("/api/roll", json={"expression": "4D+2 vs 15", "system": "d6wild", "seed": 11})
    assert r.status_code == 200
    body = r.json()
    assert body["system"] == "d6wild" and body["expression"] == "4D+2 vs 15"
    (one,) = body["rolls"]
    assert one == de.roll("4D+2 vs 15", "d6wild", seed=11).model_dump()
    # the outcome adds up from the dice shown (every die kept under the default options) and the pips
    total = sum(d["value"] for d in one["dice"] if d["kept"]) + 2
    assert one["outcome"]["total"] == total
    assert one["outcome"]["success"] == (total >= 15) and one["outcome"]["margin"] == total - 15
    assert sum(d["wild"] for d in one["dice"] if not d["added"]) == 1


def test_roll_many_seeded_and_prefixed(client: TestClient) -> None:
    body = {"expression": "d6: 3D+1 vs 12", "n": 7, "seed": 5}
    first, again = client.post("/api/roll", json=body).json(), client.post("/api/roll", json=body).json()
    assert first == again
    assert first["system"] == "d6" and first["expression"] == "3D+1 vs 12" and len(first["rolls"]) == 7
    assert len({json.dumps(r["dice"]) for r in first["rolls"]}) > 1  # seven rolls, not one repeated
    other = client.post("/api/roll", json={**body, "seed": 6}).json()
    assert other != first


def test_roll_options_and_renderer(client: TestClient) -> None:
    r = client.post("/api/roll", json={"expression": "4D", "system": "d6wild", "options": {"wild": False},
                                      "format": "plain", "seed": 1})
    assert r.status_code == 200
    roll = r.json()["rolls"][0]
    assert not any(d["wild"] for d in roll["dice"])
    assert r.json()["rendered"] and len(r.json()["rendered"]) == 1
    if not engine_features()["render"]:
        assert r.json()["rendered"] == [roll["text"]]
        return
    assert r.json()["rendered"] == [de.roll("4D", "d6wild", seed=1, wild=False).render("plain")]
    md = client.post("/api/roll", json={"expression": "2d6", "seed": 2, "format": "markdown"}).json()
    assert md["rendered"] == [de.roll("2d6", seed=2).render("markdown")]
    assert_error(client.post("/api/roll", json={"expression": "2d6", "format": "nope"}), 400, "value")


def test_about_tells_the_engines_features(client: TestClient) -> None:
    body = client.get("/api/about").json()
    assert body == {"version": de.__version__, "features": engine_features()}
    assert set(body["features"]) == {"lang", "render", "description"}


def test_roll_language_passes_through_when_the_engine_speaks_it(client: TestClient) -> None:
    r = client.post("/api/roll", json={"expression": "2d6", "lang": "en"})
    assert r.status_code == 200
    r = client.post("/api/roll", json={"expression": "2d6", "lang": "fr"})
    if not engine_features()["lang"]:
        assert_error(r, 400, "value")
        return
    assert r.status_code == 200
    wild = {"expression": "4D+2 vs 15", "system": "d6wild", "seed": 7}
    english = client.post("/api/roll", json=wild).json()["rolls"][0]
    french = client.post("/api/roll", json={**wild, "lang": "fr"}).json()["rolls"][0]
    assert french["outcome"] == english["outcome"] and french["dice"] == english["dice"]  # the same roll, told
    assert french["text"] != english["text"]  # in another language
    assert english == de.roll("4D+2 vs 15", "d6wild", seed=7).model_dump()
    assert french == de.roll("4D+2 vs 15", "d6wild", seed=7, lang="fr").model_dump()
    bad = {"expression": "4D+ vs 15", "system": "d6wild"}
    en_err = assert_error(client.post("/api/roll", json=bad), 400, "syntax")
    fr_err = assert_error(client.post("/api/roll", json={**bad, "lang": "fr"}), 400, "syntax")
    assert fr_err["column"] == en_err["column"] == 4 and fr_err["caret"] == en_err["caret"]
    with pytest.raises(de.DiceError) as said:
        de.roll("4D+ vs 15", "d6wild", lang="fr")
    assert fr_err["message"] == said.value.message != en_err["message"]  # said as the engine says it in French
    assert_error(client.post("/api/roll", json={"expression": "2d6", "lang": "xx"}), 400, "value")


def test_a_rolls_description_comes_with_it(client: TestClient) -> None:
    if not engine_features()["description"]:
        pytest.skip("this engine keeps no description of a roll")
    roll = client.post("/api/roll", json={"expression": "1d20+5 to hit", "seed": 1}).json()["rolls"][0]
    assert roll["description"] == "to hit"
    assert roll["outcome"]["total"] == roll["dice"][0]["value"] + 5


def test_syntax_error_has_message_and_caret(client: TestClient) -> None:
    body = assert_error(client.post("/api/roll", json={"expression": "4D+ vs 15", "system": "d6wild"}), 400, "syntax")
    assert body["expression"] == "4D+ vs 15" and body["column"] == 4
    line, caret = body["caret"].split("\n")
    assert caret.index("^") == line.index("4D+ vs 15") + body["column"]
    body = assert_error(client.post("/api/roll", json={"expression": "3d6 +* 2"}), 400, "syntax")
    assert body["expression"][body["column"]] == "*"


@pytest.mark.parametrize("payload, status, kind", [
    ({"expression": "10001d6"}, 422, "limit"),
    ({"expression": "1d6", "n": MAX_ROLLS + 1}, 422, "invalid_request"),
    ({"expression": "1d6", "n": 0}, 422, "invalid_request"),
    ({"expression": "1d6", "seed": -1}, 422, "invalid_request"),
    ({"expression": 5}, 422, "invalid_request"),
    ({"expression": "1d6", "surprise": 1}, 422, "invalid_request"),
    ({}, 422, "invalid_request"),
    ({"expression": "x" * 3000}, 422, "invalid_request"),
    ({"expression": "1d6" + "+1" * 600}, 422, "invalid_request"),  # past the engine's 1,000 characters
    ({"expression": "4D", "system": "nope"}, 400, "value"),
    ({"expression": "4D", "system": "d6wild", "options": {"complication": "sometimes"}}, 400, "value"),
    ({"expression": "4D", "system": "d6wild", "options": {"wild": 3}}, 400, "value"),
    ({"expression": "4D", "system": "d6wild", "options": {"colour": "red"}}, 400, "value"),
    ({"expression": "4D", "system": "d6wild", "options": {"wild": [1]}}, 422, "invalid_request"),
    ({"expression": "1d6/0"}, 400, None),
    ({"expression": "0d6"}, (400, 200), None),
])
def test_bad_rolls_are_4xx_json(client: TestClient, payload: dict[str, Any], status: Any, kind: str | None) -> None:
    r = client.post("/api/roll", json=payload)
    if r.status_code == 200:
        return
    assert_error(r, status, kind)


HOSTILE = ["", " ", "\x00", "d", "dd", "1d", "1d0", "-", "((((", ")" * 80, "(" * 200 + "1" + ")" * 200,
           "1d6!" * 300, "9" * 400, "1d999999999999", "\u202e1d6", "vs vs vs", "4D vs", "1d6 vs 1d6 vs 1d6",
           "' OR 1=1 --", "<script>alert(1)</script>", "1d6\n\n2d6", "1e308d6", "NaN", "1d6kh-1", "1d1!", "1d6r<7"]


@pytest.mark.parametrize("system", ["standard", "d6", "d6wild", "d20pool", "ffg"])
def test_hostile_expressions_never_500(client: TestClient, system: str) -> None:
    for text in HOSTILE:
        for path in ("/api/roll", "/api/odds"):
            r = client.post(path, json={"expression": text, "system": system})
            assert r.status_code in (200, 400, 422), (path, system, text, r.status_code, r.text)
            if r.status_code != 200:
                assert r.json()["message"]


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(text=st.text(alphabet=st.sampled_from("0123456789dDkhlr!<>=+-*/() vsapbcf%F"), max_size=30),
       system=st.sampled_from(["standard", "d6", "d6wild", "d20pool", "ffg"]))
def test_any_expression_gets_a_result_or_the_engines_error(client: TestClient, text: str, system: str) -> None:
    r = client.post("/api/roll", json={"expression": text, "system": system})
    assert r.status_code in (200, 400, 422), (text, system, r.text)


def test_malformed_bodies(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    for raw in (b"{bad", b"[]", b"null", b"\xff\xfe", b'{"expression": "1d6"'):
        assert_error(client.post("/api/roll", content=raw, headers=headers), 422, "invalid_request")
        assert_error(client.post("/api/odds", content=raw, headers=headers), 422, "invalid_request")


def test_body_size_limit(client: TestClient) -> None:
    big = json.dumps({"expression": "1d6", "options": {"x": "y" * (MAX_BODY + 10)}}).encode()
    r = client.post("/api/roll", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413

    def chunks() -> Iterator[bytes]:  # no declared length: refused once past the limit
        yield b'{"expression": "1d6", "options": {"x": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"y" * 1024
        yield b'"}}'

    r = client.post("/api/odds", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.post("/api/roll", json={"expression": "1d6"}).status_code == 200


def test_unknown_paths_and_methods(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.get("/api/roll"), 405)


# -- odds -----------------------------------------------------------------------------------------------


def test_odds_of_2d6_match_enumeration(client: TestClient) -> None:
    r = client.post("/api/odds", json={"expression": "2d6"})
    assert r.status_code == 200
    body = r.json()
    exact = sums(2)
    bars = body["marginals"]["total"]
    assert [b["value"] for b in bars] == sorted(exact)
    for b in bars:
        assert b["p"] == pytest.approx(float(exact[b["value"]]), abs=1e-12)
        assert b["at_least"] == pytest.approx(float(sum(p for v, p in exact.items() if v >= b["value"])), abs=1e-12)
    assert body["means"]["total"] == pytest.approx(7.0)
    assert body["stdevs"]["total"] == pytest.approx(math.sqrt(35 / 6))
    assert body["chart_fields"] == ["total"] and body["hidden"]["total"] == 0


def test_odds_of_checks(client: TestClient) -> None:
    body = client.post("/api/odds", json={"expression": "3D vs 10", "system": "d6"}).json()
    assert body["chances"]["success"] == pytest.approx(float(sum(p for v, p in sums(3).items() if v >= 10)))
    assert body["chart_fields"][0] == "margin"
    body = client.post("/api/odds", json={"expression": "4D+2 vs 15", "system": "d6wild"}).json()
    assert body["chances"]["success"] == pytest.approx(wild_check(3, 2, 15), abs=1e-9)
    assert body["chances"]["complication"] == pytest.approx(1 / 6)
    assert 0 < body["truncated"] < 1e-9


def test_odds_tails_are_cut_and_accounted_for(client: TestClient) -> None:
    body = client.post("/api/odds", json={"expression": "100d100", "max_bars": 50}).json()
    bars = body["marginals"]["total"]
    assert len(bars) == 50
    values = [b["value"] for b in bars]
    assert values == list(range(values[0], values[0] + 50))  # one contiguous window around the mode
    shown = math.fsum(b["p"] for b in bars)
    assert shown + body["hidden"]["total"] == pytest.approx(1.0, abs=1e-9)
    assert body["hidden"]["total"] > 0.1


def test_odds_beyond_the_cpu_budget_is_a_limit_error() -> None:
    with TestClient(create_app(workers=1, cpu_seconds=0.05)) as small:
        body = assert_error(small.post("/api/odds", json={"expression": "100d6kh50*100d6kl50*3d6"}), 422, "limit")
        assert "more than 0.05 s of computation" in body["message"]
        r = small.post("/api/odds", json={"expression": "2d6"})  # the worker survived
        assert r.status_code == 200 and len(r.json()["marginals"]["total"]) == 11


# -- sample ---------------------------------------------------------------------------------------------


def test_sample_statistics(client: TestClient) -> None:
    n = 200_000
    req = {"expression": "3d6", "n": n, "seed": 3}
    body = client.post("/api/sample", json=req).json()
    assert body == client.post("/api/sample", json=req).json()  # seeded
    stats = body["fields"]["total"]
    sd = math.sqrt(3 * 35 / 12)
    assert abs(stats["mean"] - 10.5) < 5 * sd / math.sqrt(n)
    assert stats["stdev"] == pytest.approx(sd, rel=0.02)
    assert stats["min"] == 3 and stats["max"] == 18
    assert stats["quantiles"]["50%"] in (10.0, 11.0)
    body = client.post("/api/sample", json={"expression": "4D vs 15", "system": "d6wild", "n": n, "seed": 1}).json()
    p = wild_check(3, 0, 15)
    assert abs(body["fields"]["success"]["share"] - p) < 5 * math.sqrt(p * (1 - p) / n)
    assert_error(client.post("/api/sample", json={"expression": "3d6", "n": MAX_SAMPLE + 1}), 422, "invalid_request")


# -- compare, convert, ladder ----------------------------------------------------------------------------


def test_compare(client: TestClient) -> None:
    checks = [{"expression": "d6: 3D vs 10"}, {"expression": "4D+2 vs 15", "system": "d6wild"},
              {"expression": "2a1p vs 2d", "system": "ffg"}]
    body = client.post("/api/compare", json={"checks": checks}).json()
    a, b, c = body["checks"]
    assert a["system"] == "d6" and a["success"] == pytest.approx(0.625)  # P(3d6 >= 10) = 135/216
    assert a["mean_field"] == "margin" and a["mean"] == pytest.approx(0.5)  # E[3d6] - 10
    assert b["success"] == pytest.approx(wild_check(3, 2, 15), abs=1e-9)
    assert b["flags"]["complication"] == pytest.approx(1 / 6)
    assert set(c["flags"]) == {"triumph", "despair"}
    assert_error(client.post("/api/compare", json={"checks": checks * 3}), 422, "invalid_request")
    assert len(checks * 3) > MAX_CHECKS
    assert_error(client.post("/api/compare", json={"checks": []}), 422, "invalid_request")
    plain = client.post("/api/compare", json={"checks": [{"expression": "3d6"}]}).json()["checks"][0]
    assert plain["success"] is None and plain["mean"] == pytest.approx(10.5)  # not a check: no chance of success
    body = assert_error(client.post("/api/compare", json={"checks": [checks[0], {"expression": "d6: 3D vs"}]}), 400)
    assert body["caret"]


def test_convert(client: TestClient) -> None:
    body = client.post("/api/convert", json={"expression": "4D+1 vs 15", "source": "d6", "target": "ffg",
                                             "top": 3}).json()
    assert body["chance"] == pytest.approx(float(sum(p for v, p in sums(4).items() if v + 1 >= 15)))
    matches = body["matches"]
    assert len(matches) == 3
    assert [abs(m["distance"]) for m in matches] == sorted(abs(m["distance"]) for m in matches)
    for m in matches:  # each match's chance is the exact chance of its own check
        odds = client.post("/api/odds", json={"expression": m["expression"], "system": "ffg"}).json()
        assert m["chance"] == pytest.approx(odds["chances"]["succeeded"], abs=1e-12)
        assert m["distance"] == pytest.approx(100 * (m["chance"] - body["chance"]))
    assert_error(client.post("/api/convert", json={"expression": "3d6", "target": "ffg"}), 400)
    assert_error(client.post("/api/convert", json={"expression": "d6: 4D vs 10", "target": "standard"}), 400)


def test_ladder(client: TestClient) -> None:
    body = client.post("/api/ladder", json={"system": "d6wild"}).json()
    names = body["difficulties"]
    assert len(names) >= 4
    rows = {r["character"]: r["chances"] for r in body["rows"]}
    # text 003: moderate is 15; 3D is two dice and the Wild Die
    assert rows["3D"][names.index("moderate")] == pytest.approx(wild_check(2, 0, 15), abs=1e-9)
    for chances in rows.values():  # harder difficulties never help
        assert all(x >= y for x, y in pairwise(chances))
    assert_error(client.post("/api/ladder", json={"system": "standard"}), 400)


# -- systems and rules ---------------------------------------------------------------------------------


def test_systems_and_options(client: TestClient) -> None:
    listed = {s["name"]: s for s in client.get("/api/systems").json()}
    assert set(listed) == set(de.systems())
    wild = listed["d6wild"]
    assert wild["options"]["complication"]["choices"] == ["flag", "remove_highest", "none"]
    assert wild["options"]["wild"]["kind"] == "bool" and wild["options"]["wild"]["default"] is True
    assert wild["convertible"] and wild["ladder"] and "damage_result" in wild["rules"]
    assert not listed["standard"]["convertible"]
    for s in listed.values():  # every example of every system rolls
        for ex in s["examples"]:
            assert client.post("/api/roll", json={"expression": ex, "system": s["name"]}).status_code == 200
    rules = client.get("/api/systems/ffg/rules").json()
    assert "skill_cost" in {r["name"] for r in rules}
    assert_error(client.get("/api/systems/nope/rules"), 400)


def test_rules_runner(client: TestClient) -> None:
    def run(system: str, rule: str, **arguments: Any) -> Any:
        return client.post(f"/api/systems/{system}/rules/{rule}", json={"arguments": arguments})

    # text 000: damage at least twice the Strength roll, below three times, incapacitates
    assert run("d6", "damage_result", damage=12, strength=5).json()["result"] == "incapacitated"
    assert run("d6", "damage_result", damage=4, strength=5).json()["result"] == "stunned"
    # text 004: a skill rank costs 5 x the new rank, 5 more outside the career
    assert run("ffg", "skill_cost", current=2, career=False).json()["result"] == 20
    assert run("ffg", "skill_cost", current=2).json()["text"] == "15"
    assert run("d6", "modified_code", code="4D+1", wounded=True).json()["result"] == "3D+1"
    assert run("d6", "circumstance_dice", names=["low_light"]).status_code == 200
    pool = run("ffg", "build_pool", characteristic=3, skill=2, difficulty=2, opponent=[1, 2]).json()["result"]
    assert pool["expression"].startswith("1a2p")
    assert_error(run("ffg", "skill_cost", current=5), 400, "value")  # rank 6 does not exist
    assert_error(run("d6", "damage_result", damage="lots", strength=5), 400, "value")
    assert_error(run("d6", "damage_result", damage=3), 400, "value")
    assert_error(run("d6", "damage_result", damage=3, strength=2, armour=1), 400, "value")
    assert_error(run("d6", "force_point_outcome", use="attack"), 400, "value")
    assert_error(run("d6", "no_such_rule"), 400, "value")


def test_rules_of_play_take_and_return_a_state(client: TestClient) -> None:
    play = pytest.importorskip("diceengine.systems.d6.play")
    from .test_d6_play import roark_scene

    state = play.declare(roark_scene(), "Roark", 3, movement="run", metres=10).state
    r = client.post("/api/systems/d6/rules/attack", json={"arguments": {
        "state": json.loads(state.model_dump_json()), "attacker": "Roark", "target": "Jana", "skill": "blaster",
        "difficulty": "short"}})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["check"] == "2D+1 vs 10"  # the check tests/test_d6_play.py derives from text 000
    assert play.D6Scene.model_validate(result["state"]) == play.attack(state, "Roark", "Jana", "blaster",
                                                                       "short").state
    assert_error(client.post("/api/systems/d6/rules/act", json={"arguments": {"state": {}, "name": "Jana",
                                                                               "skill": "blaster"}}), 400, "value")
    assert "attack" in {r["name"] for r in client.get("/api/systems/d6/rules").json()}


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert {"/api/roll", "/api/odds", "/api/sample", "/api/compare", "/api/convert", "/api/ladder", "/api/systems",
            "/api/systems/{system}/rules", "/api/systems/{system}/rules/{rule}"} <= paths
    roll_body = spec["paths"]["/api/roll"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"expression", "system", "seed", "options", "lang", "format"} <= set(roll_body["properties"])
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and "<svg" not in page.text.split("<script>")[0]  # charts are drawn from JSON
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page.text)  # nothing from a CDN
    assert not re.search(r"""\b(fetch|import)\s*\(\s*["'](https?:)?//""", page.text)


# -- a real server ---------------------------------------------------------------------------------------


def _serve(app: Any) -> tuple[Any, threading.Thread, int]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not server.started:
        assert thread.is_alive() and time.time() < deadline
        time.sleep(0.05)
    return server, thread, port


def test_exact_odds_do_not_block_rolls_and_a_full_pool_answers_busy() -> None:
    import httpx2 as httpx

    server, thread, port = _serve(create_app(workers=1, cpu_seconds=20.0, queue_seconds=0.2))
    base = f"http://127.0.0.1:{port}"
    # about a second of exact odds in one request (on a quiet machine): eight large keep / drop products compared
    checks = [{"expression": f"100d6kh50*100d6kl{k}*3d6"} for k in range(41, 49)]
    try:
        results: dict[str, Any] = {}

        def heavy(name: str, delay: float) -> None:
            time.sleep(delay)
            with httpx.Client(timeout=120) as c:
                results[name] = c.post(base + "/api/compare", json={"checks": checks})
                results[name + " done"] = time.perf_counter()

        slow = [threading.Thread(target=heavy, args=(name, delay)) for name, delay in (("first", 0), ("second", 0.3))]
        for t in slow:
            t.start()
        time.sleep(0.1)
        rolls_done = []
        with httpx.Client(timeout=60) as c:
            for _ in range(20):
                r = c.post(base + "/api/roll", json={"expression": "4D+2 vs 15", "system": "d6wild"})
                assert r.status_code == 200
                rolls_done.append(time.perf_counter())
        for t in slow:
            t.join(120)
        assert results["first"].status_code == 200
        assert len(results["first"].json()["checks"]) == 8
        # the second found the only worker busy for longer than it may wait
        assert results["second"].status_code == 503
        assert results["second"].json()["error"] == "busy" and results["second"].headers["retry-after"] == "1"
        # rolls were answered while the odds ran (an event loop busy with them would answer none)
        assert sum(t < results["first done"] for t in rolls_done) >= 5
    finally:
        server.should_exit = True
        thread.join(30)


def test_the_documented_roll_route_answers_as_the_hot_path() -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount

    host = Starlette(routes=[Mount("/dice", app=create_app(workers=0))])  # under a prefix: the framework's route
    with TestClient(host) as mounted, TestClient(create_app(workers=0)) as direct:
        for body in ({"expression": "4D+2 vs 15", "system": "d6wild", "seed": 3, "n": 3},
                     {"expression": "4D+ vs 15", "system": "d6wild"}, {"expression": "10001d6"}, {"n": 2}):
            a, b = mounted.post("/dice/api/roll", json=body), direct.post("/api/roll", json=body)
            assert (a.status_code, a.json()) == (b.status_code, b.json())
        big = b'{"expression": "' + b"1" * MAX_BODY + b'"}'
        for c, path in ((mounted, "/dice/api/roll"), (direct, "/api/roll")):
            assert c.post(path, content=big, headers={"content-type": "application/json"}).status_code == 413


def test_rolls_of_many_dice_go_to_a_worker_and_have_a_bound(client: TestClient) -> None:
    from diceengine.web.service import INLINE_DICE, MAX_REQUEST_DICE

    r = client.post("/api/roll", json={"expression": f"{INLINE_DICE + 1}d6", "seed": 4})
    assert r.status_code == 200  # computed by the worker process, the same roll
    assert r.json()["rolls"][0] == de.roll(f"{INLINE_DICE + 1}d6", seed=4).model_dump()
    r = client.post("/api/roll", json={"expression": "100d6", "n": 100, "seed": 4})
    assert r.status_code == 200 and len(r.json()["rolls"]) == 100
    assert all(len(x["dice"]) == 100 and x["outcome"]["total"] == sum(d["value"] for d in x["dice"])
               for x in r.json()["rolls"])
    body = assert_error(client.post("/api/roll", json={"expression": "1000d6", "n": 11}), 422, "limit")
    assert str(MAX_REQUEST_DICE) in body["message"]
