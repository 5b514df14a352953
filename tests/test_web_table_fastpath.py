"""The hot path of a table's rolls (``diceengine.web.table_fastpath``) answers as the documented route does:
every request tried on an application with it and one without, the same status, the same refusal; a roll's
answer is the step as the log then gives it; what it does not take goes on to the route, body intact."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import tables

from .test_web_tables import bearer, make_client, seated


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many rolls the route answered (it reads the roll's step by its module's name; the hot path was
    handed it when the application was made)."""
    calls: list[int] = []
    real = tables.roll_of

    def counted(req: Any) -> Any:
        calls.append(1)
        return real(req)

    monkeypatch.setattr(tables, "roll_of", counted)
    return calls


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[dict[bool, tuple[TestClient, dict[str, Any]]]]:
    """Two applications, with and without the hot path, each with a table of FFG (a game master, two players)."""
    (tmp_path / "fast").mkdir()
    (tmp_path / "route").mkdir()
    with make_client(tmp_path / "fast", burst=10_000) as fast, \
            make_client(tmp_path / "route", burst=10_000, fast_path=False) as route:
        yield {True: (fast, seated(fast)), False: (route, seated(route))}


def roll(c: TestClient, t: dict[str, Any], body: Any, who: str | None = "Kira", **headers: str) -> Any:
    sent = dict(headers)
    if who is not None:
        sent.update(bearer(t["keys"][who]) if who in t["keys"] else {"Authorization": who})
    if isinstance(body, (dict, list)):
        return c.post(f"/tables/{t['id']}/roll", json=body, headers=sent)
    return c.post(f"/tables/{t['id']}/roll", content=body, headers={"Content-Type": "application/json", **sent})


REFUSED: list[tuple[str, Any, dict[str, Any]]] = [
    ("a reserved option", {"expression": "2a", "options": {"seed": 3}}, {}),
    ("an option of a wrong type", {"expression": "2a", "options": {"x": [1]}}, {}),
    ("an unknown field", {"expression": "2a", "dice": 3}, {}),
    ("no expression", {"secret": True}, {}),
    ("an expression too long", {"expression": "2a+" * 700}, {}),
    ("not JSON", b"{expression: 2a", {}),
    ("an empty body", b"", {}),
    ("a JSON list", [1, 2], {}),
    ("a syntax error", {"expression": "2a vs vs"}, {}),
    ("a syntax error in French", {"expression": "2a vs vs"}, {"Accept-Language": "fr"}),
    ("an unknown system", {"expression": "2d6", "system": "nope"}, {}),
    ("a text body", b'{"expression": "2a"}', {"Content-Type": "text/plain"}),
]


@pytest.mark.parametrize(("case", "body", "headers"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refusals_are_the_routes(pair: Any, case: str, body: Any, headers: dict[str, str]) -> None:
    answers = {fast: roll(c, t, body, **headers) for fast, (c, t) in pair.items()}
    assert answers[True].status_code == answers[False].status_code >= 400, case
    assert answers[True].json() == answers[False].json(), case


KEYS = [("no key", None), ("a wrong key", "Bearer nope"), ("another scheme", "Basic abc"),
        ("an empty key", "Bearer "), ("a bare key", "abc")]


@pytest.mark.parametrize(("case", "header"), KEYS, ids=[k[0] for k in KEYS])
def test_keys_refused_as_the_route_refuses_them(pair: Any, case: str, header: str | None) -> None:
    answers = {fast: roll(c, t, {"expression": "2a"}, who=header) for fast, (c, t) in pair.items()}
    assert answers[True].status_code == answers[False].status_code == 401, case
    assert answers[True].json() == answers[False].json()
    assert answers[True].headers.get("www-authenticate") == answers[False].headers.get("www-authenticate")


def test_an_unknown_table_is_404_on_both(pair: Any) -> None:
    answers = {}
    for fast, (c, t) in pair.items():
        answers[fast] = c.post("/tables/nosuchtable/roll", json={"expression": "2a"}, headers=bearer(t["keys"]["GM"]))
    assert answers[True].status_code == answers[False].status_code == 404
    assert answers[True].json() == answers[False].json()
    assert answers[True].json()["message"] == "no table named 'nosuchtable'"  # not where the server keeps them


@pytest.mark.parametrize("who", ["GM", "Kira"])
@pytest.mark.parametrize("secret", [False, True])
def test_a_roll_answered_by_the_hot_path_is_the_step_in_the_log(pair: Any, routed: list[int], who: str,
                                                                  secret: bool) -> None:
    c, t = pair[True]
    r = roll(c, t, {"expression": "2a1p vs 2d", "secret": secret}, who=who)
    assert r.status_code == 200, r.text
    assert routed == []  # the hot path took it
    assert r.headers["x-content-type-options"] == "nosniff"  # inside the security headers
    step = r.json()["step"]
    log = c.get(f"/tables/{t['id']}/log", headers=bearer(t["keys"][who])).json()["steps"]
    assert step == log[-1]
    assert step["secret"] is secret and step["member"] == who
    assert (step["dice"] is None) == (secret and who != "GM")  # a player's secret roll: its dice for the GM only
    route_c, route_t = pair[False]
    other = roll(route_c, route_t, {"expression": "2a1p vs 2d", "secret": secret}, who=who).json()["step"]
    assert routed == [1]  # the other application's route answered its own
    assert set(other) == set(step) and other["kind"] == step["kind"] == "roll"


def test_what_the_hot_path_leaves_reaches_the_route_whole(pair: Any, routed: list[int]) -> None:
    c, t = pair[True]
    r = roll(c, t, {"expression": "2a", "options": {"x": [1]}})
    assert r.status_code == 422 and "options.x" in r.json()["message"]  # the route read the body it was given
    assert routed == []  # refused by the body's validation, before the route's step


def test_the_bucket_is_taken_once_per_roll(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=4, rate=0.001) as c:
        t = seated(c, players=("Kira",))
        statuses = [roll(c, t, {"expression": "2a"}).status_code for _ in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]


def test_a_large_body_and_doubled_headers_are_the_routes(pair: Any, routed: list[int]) -> None:
    big = b'{"expression": "2a", "options": {"x": "' + b"y" * 100_000 + b'"}}'
    answers = {fast: roll(c, t, big) for fast, (c, t) in pair.items()}
    assert answers[True].status_code == answers[False].status_code == 413  # the service's body limit, outside
    assert answers[True].text == answers[False].text
    for fast, (c, t) in pair.items():  # two keys: the first is the one read, on both paths
        r = c.post(f"/tables/{t['id']}/roll", json={"expression": "2a"},
                   headers=[("Authorization", "Bearer wrong"), ("Authorization", f"Bearer {t['keys']['Kira']}")])
        assert r.status_code == 401, fast
        r = c.post(f"/tables/{t['id']}/roll", json={"expression": "2a"},
                   headers=[("Authorization", f"Bearer {t['keys']['Kira']}"), ("Authorization", "Bearer wrong")])
        assert r.status_code == 200, fast


def test_a_large_body_sent_in_pieces_is_refused_on_both_paths(pair: Any, routed: list[int]) -> None:
    """A body past 64 KiB sent without its length, in pieces: the hot path stops reading past the limit and hands
    the route what it read with the rest still to come; both paths refuse it as too large, in the same words."""
    big = b'{"expression": "2a", "options": {"x": "' + b"y" * 100_000 + b'"}}'
    answers = {}
    for fast, (c, t) in pair.items():
        pieces = iter([big[i:i + 8192] for i in range(0, len(big), 8192)])
        answers[fast] = c.post(f"/tables/{t['id']}/roll", content=pieces,
                               headers={"Content-Type": "application/json", **bearer(t["keys"]["Kira"])})
        assert "content-length" not in answers[fast].request.headers
    assert answers[True].status_code == answers[False].status_code == 413
    assert answers[True].json()["error"] == "too_large" and answers[True].text == answers[False].text
    assert routed == []


def test_a_json_body_with_its_charset_is_the_hot_paths(pair: Any, routed: list[int]) -> None:
    """``application/json; charset=utf-8`` (a parameter after the type, in any case) is a JSON body the hot path
    takes."""
    c, t = pair[True]
    for content_type in ("application/json; charset=utf-8", "Application/JSON;charset=UTF-8"):
        r = c.post(f"/tables/{t['id']}/roll", content=b'{"expression": "2a"}',
                   headers={"Content-Type": content_type, **bearer(t["keys"]["Kira"])})
        assert r.status_code == 200 and r.json()["step"]["kind"] == "roll", content_type
    assert routed == []
