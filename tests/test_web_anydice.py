"""``POST /api/anydice``: an AnyDice program's outputs over HTTP, and every refusal as the engine's JSON error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from fastapi.testclient import TestClient

import diceengine as de
from diceengine.web import create_app
from diceengine.web.anydice import MAX_PROGRAM
from diceengine.web.tables import TableSettings

from .helpers import service_workers


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application with one worker process (the way ``dice serve`` runs it; none under mutmut:
    ``service_workers``)."""
    db = tmp_path_factory.mktemp("tables") / "t.sqlite"
    with TestClient(create_app(workers=service_workers(), tables=TableSettings(db=str(db))),
                    raise_server_exceptions=False) as c:
        yield c


def _error(r: Any, status: int, kind: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["error"] == kind and body["message"], body
    return body


def test_the_outputs_of_a_program(client):
    program = 'output [highest 1 of 2d6] named "advantage"\nfunction: f {}\noutput [f]'
    r = client.post("/api/anydice", json={"program": program})
    assert r.status_code == 200, r.text
    first, empty = r.json()["outputs"]
    assert first["label"] == "advantage"
    # the highest of two d6 is v with chance (2v - 1) / 36
    assert first["values"] == [1, 2, 3, 4, 5, 6]
    assert first["probabilities"] == pytest.approx([(2 * v - 1) / 36 for v in range(1, 7)], abs=1e-12)
    assert first["mean"] == pytest.approx(161 / 36) and first["truncated"] == 0
    assert empty == {"label": "output 2", "mean": None, "stdev": None, "truncated": 0.0, "values": [],
                     "probabilities": []}
    (direct,) = de.anydice(program)[:1]
    assert first["stdev"] == pytest.approx(direct.stdev())


def test_an_error_is_located_at_its_line_in_the_language_asked(client):
    body = _error(client.post("/api/anydice", json={"program": "output 1\noutput d6 @ 2", "lang": "fr"}), 400, "value")
    assert body["message"] == "ligne 2 : une position est un nombre ou une séquence, pas un dé"
    assert body["caret"] == "  output d6 @ 2\n            ^"
    body = _error(client.post("/api/anydice", json={"program": "output (1"}), 400, "syntax")
    assert body["message"].startswith("line 1: the program ends too early")
    # asked in French by the body and the header, or by the header alone (a French browser): its line kept
    for asked in ({"lang": "fr"}, {}):
        r = client.post("/api/anydice", json={"program": "output 1\noutput d6 @ 2", **asked},
                        headers={"Accept-Language": "fr-FR,fr;q=0.9"})
        assert _error(r, 400, "value")["message"] == "ligne 2 : une position est un nombre ou une séquence, pas un dé"


def test_the_budget_is_a_limit_error(client):
    _error(client.post("/api/anydice", json={"program": "output {1..1000000}"}), 422, "limit")


@pytest.mark.parametrize("body", [
    {},
    {"program": 3},
    {"program": "output 1", "colour": "red"},
    {"program": "output 1", "lang": "de"},
    {"program": " " * (MAX_PROGRAM + 1)},
])
def test_a_bad_request_is_refused(client, body):
    _error(client.post("/api/anydice", json=body), 422, "invalid_request")


def test_a_body_past_the_service_limit_is_too_large(client):
    assert client.post("/api/anydice", json={"program": " " * 70_000}).status_code == 413


def test_not_json_is_refused(client):
    _error(client.post("/api/anydice", content=b"output 1"), 422, "invalid_request")
