"""A logged roll's text in its reader's language over HTTP, through a real server: the step answered, the log, the
table and the live log write a roll in the language of the request's ``Accept-Language`` (rendered on read from
the stored dice), whatever the table's own; without the header, as stored. The French words expected are the
FFG rule text's (/work/shared/rules/004: « capacité », « compétence », « difficulté »)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

import httpx2 as httpx

from diceengine.web import create_app
from diceengine.web.tables import TableSettings

from .test_web_tables import bearer, serve

ROLL = "2a1p vs 2d"  # one proficiency, two ability and two difficulty dice: each die's kind named in the text
FRENCH = ("compétence", "capacité", "difficulté")
ENGLISH = ("proficiency", "ability", "difficulty")


def french(text: str) -> bool:
    return all(w in text for w in FRENCH) and not any(w in text for w in ENGLISH)


def english(text: str) -> bool:
    return all(w in text for w in ENGLISH) and not any(w in text for w in FRENCH)


def numbers(text: str) -> list[str]:
    """The numbers of a roll's text, in order: the same roll says the same numbers in every language."""
    return re.findall(r"\d+", text)


def fr(key: str) -> dict[str, str]:
    return {**bearer(key), "Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}


def en(key: str) -> dict[str, str]:
    return {**bearer(key), "Accept-Language": "en-GB"}


@pytest.fixture(params=[True, False], ids=["fast-path", "route"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    db = tmp_path / "tables.sqlite"
    app = create_app(workers=0, tables=TableSettings(db=str(db), fast_path=request.param, poll_seconds=0.02,
                                                     burst=10_000, new_burst=10_000))
    srv, thread, base = serve(app)
    try:
        yield base, db
    finally:
        srv.should_exit = True
        thread.join(10)


def table(c: Any, lang: str | None) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"system": "ffg", "gm": "GM"} | ({"lang": lang} if lang else {})
    made = c.post("/tables", json=body).json()
    player = c.post(made["join_link"], json={"name": "Kira"}).json()
    return made["table_id"], {"GM": made["gm_key"], "Kira": player["player_key"]}


def stored_text(db: Path, table_id: str, seq: int) -> str:
    """The roll's text as the database holds it (read with sqlite3, not the store)."""
    import json

    with sqlite3.connect(db) as conn:
        (entry,) = conn.execute("SELECT entry FROM dice_steps WHERE table_id = ? AND seq = ?",
                                (table_id, seq)).fetchone()
    return str(json.loads(entry)["text"])


def events(base: str, table_id: str, headers: dict[str, str], count: int) -> list[dict[str, Any]]:
    """The first ``count`` steps of the live log, read through the server's stream."""
    import json

    found: list[dict[str, Any]] = []
    with httpx.Client(timeout=30) as c, c.stream("GET", f"{base}/tables/{table_id}/events",
                                                 headers=headers) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data: "):
                found.append(json.loads(line[6:]))
                if len(found) == count:
                    return found
    raise AssertionError(f"the stream ended after {len(found)} steps")


def test_an_english_tables_roll_read_in_french_and_english(server: tuple[str, Path]) -> None:
    base, db = server
    with httpx.Client(base_url=base, timeout=30) as c:
        tid, keys = table(c, None)
        said = c.post(f"/tables/{tid}/roll", json={"expression": ROLL}, headers=fr(keys["Kira"]))
        assert said.status_code == 200, said.text
        step = said.json()["step"]
        stored = stored_text(db, tid, step["seq"])
        assert english(stored) and french(step["text"]), (stored, step["text"])
        assert numbers(step["text"]) == numbers(stored)
        # without the header: as stored, byte for byte; in English: the same
        for headers in (bearer(keys["GM"]), en(keys["GM"])):
            log = c.get(f"/tables/{tid}/log", headers=headers).json()["steps"]
            assert log[-1]["text"] == stored
        # the log, the table and the live log in French, for the roller and the game master
        for who in ("Kira", "GM"):
            log = c.get(f"/tables/{tid}/log", headers=fr(keys[who])).json()["steps"]
            whole = c.get(f"/tables/{tid}", headers=fr(keys[who])).json()["log"]
            live = events(base, tid, fr(keys[who]), step["seq"])
            for shown in (log[-1], whole[-1], live[-1]):
                assert shown["text"] == step["text"] and shown["dice"] == step["dice"]
        # a stream in English beside one in French: each its own words
        assert events(base, tid, en(keys["GM"]), step["seq"])[-1]["text"] == stored
        # the re-roll, answered in the asker's language
        again = c.post(f"/tables/{tid}/reroll", headers=fr(keys["Kira"])).json()["step"]
        assert french(again["text"]) and english(stored_text(db, tid, again["seq"]))


def test_a_french_tables_roll_read_in_english(server: tuple[str, Path]) -> None:
    base, db = server
    with httpx.Client(base_url=base, timeout=30) as c:
        tid, keys = table(c, "fr")
        step = c.post(f"/tables/{tid}/roll", json={"expression": ROLL}, headers=en(keys["Kira"])).json()["step"]
        stored = stored_text(db, tid, step["seq"])
        assert french(stored) and english(step["text"]) and numbers(stored) == numbers(step["text"])
        assert c.get(f"/tables/{tid}/log", headers=bearer(keys["Kira"])).json()["steps"][-1]["text"] == stored
        assert c.get(f"/tables/{tid}/log", headers=fr(keys["Kira"])).json()["steps"][-1]["text"] == stored
        assert english(c.get(f"/tables/{tid}/log", headers=en(keys["GM"])).json()["steps"][-1]["text"])


def test_a_secret_roll_read_in_another_language_stays_secret(server: tuple[str, Path]) -> None:
    base, _ = server
    with httpx.Client(base_url=base, timeout=30) as c:
        tid, keys = table(c, None)
        step = c.post(f"/tables/{tid}/roll", json={"expression": ROLL, "secret": True},
                      headers=fr(keys["GM"])).json()["step"]
        assert french(step["text"])
        for shown in (c.get(f"/tables/{tid}/log", headers=fr(keys["Kira"])).json()["steps"][-1],
                      events(base, tid, fr(keys["Kira"]), step["seq"])[-1]):
            assert shown["text"] is None and shown["dice"] is None
        assert french(events(base, tid, fr(keys["GM"]), step["seq"])[-1]["text"])
