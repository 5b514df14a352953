"""What the web service's table access must say exactly, each test written against a mutant that the table and
web tests let through (issue 38): the Retry-After of a refusal, why the readiness route says the database is not
ready and what the server's log says of it, an address kept out of a database's error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import create_app
from diceengine.web.table_access import Refused, TableSettings, TableState, _without_address


@pytest.mark.parametrize(("rate", "wait"), [(20.0, "1"), (1.0, "1"), (0.25, "4"), (0.01, "100")])
def test_a_key_out_of_requests_is_told_how_long_to_wait(tmp_path: Path, rate: float, wait: str) -> None:
    """Retry-After is the seconds one token takes to come back, at least one: 1 / rate, rounded."""
    state = TableState(TableSettings(db=str(tmp_path / "t.sqlite"), rate=rate, burst=1.0, new_rate=rate,
                                     new_burst=1.0))
    try:
        refused = state._too_many()
        assert (refused.status, refused.kind, refused.headers) == (429, "rate_limited", {"Retry-After": wait})
        buckets = state.buckets
        buckets.clock = buckets._local.clock = lambda: 1_000_000.0  # time stands still: no token comes back
        state.limit_new("addr:1")  # the bucket of new tables of one address: one token, then refused
        with pytest.raises(Refused) as new:
            state.limit_new("addr:1")
        assert (new.value.status, new.value.headers) == (429, {"Retry-After": wait})
        assert new.value.message == "too many new tables and joins from this address; slow down"
    finally:
        state.close()


def test_an_address_in_a_database_error_is_never_said() -> None:
    where = "/srv/secret-place/t.sqlite"
    assert _without_address("disk I/O error", where) == "disk I/O error"
    assert _without_address("unable to open: /srv/secret-place/t.sqlite", where) == "unable to open"
    assert _without_address("at /srv/secret-place/t.sqlite: no such file", where) == "unreachable"
    url = "postgresql://hidden_user@db.example:5432/hidden_db"
    assert _without_address('role "hidden_user" does not exist', url) == "unreachable"
    assert _without_address("connection refused: is db.example up?", url) == "connection refused"


def test_a_database_that_is_not_one_says_why_in_the_readiness_route_and_the_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with caplog.at_level(logging.ERROR, logger="diceengine.web.tables"), \
            TestClient(create_app(workers=0, tables=TableSettings(db=str(junk))), raise_server_exceptions=False) as c:
        ready = c.get("/api/ready").json()["message"]
        assert ready == "not ready: the tables' database does not answer (file is not a database)"
        r = c.post("/tables", json={"system": "standard", "gm": "GM"})
        assert (r.status_code, r.headers["Retry-After"], r.json()["error"]) == (503, "5", "unavailable")
    said = [rec.getMessage() for rec in caplog.records if rec.name == "diceengine.web.tables"]
    assert said and all(m.startswith("the tables' database did not open: ") for m in said)
    assert any("file is not a database" in m for m in said), said


def test_each_key_has_its_own_bucket_for_steps_and_reads(tmp_path: Path) -> None:
    """A step (here a client seed) and a read take from the bucket of the key that makes them, one bucket a key:
    the game master's empty bucket refuses the game master, never a player."""
    from .test_web_tables import bearer, make_client, seated

    with make_client(tmp_path, rate=0.001, burst=3) as c:
        t = seated(c, players=("Kira",), provable=True)
        gm, kira = bearer(t["keys"]["GM"]), bearer(t["keys"]["Kira"])
        seeds = [c.post(f"/tables/{t['id']}/clientseed", json={"seed": f"s{i}"}, headers=gm) for i in range(4)]
        assert [r.status_code for r in seeds] == [200, 200, 200, 429]
        assert seeds[-1].json()["error"] == "rate_limited" and seeds[-1].headers["Retry-After"] == "1000"
        assert c.post(f"/tables/{t['id']}/clientseed", json={"seed": "mine"}, headers=kira).status_code == 200
        reads = [c.get(f"/tables/{t['id']}/log", headers=kira).status_code for _ in range(3)]
        assert reads == [200, 200, 429]  # the step took one of Kira's three tokens
        assert c.get(f"/tables/{t['id']}/log", headers=gm).status_code == 429


def test_the_steps_without_a_body_are_documented(tmp_path: Path) -> None:
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        paths = c.get("/openapi.json").json()["paths"]
    said = {p.rsplit("/", 1)[1]: op["post"]["description"] for p, op in paths.items()
            if p.startswith("/tables/{table_id}/") and p.count("/") == 3 and "description" in op.get("post", {})}
    assert said == {
        "reroll": "Re-roll the member's last roll (the first stays in the log, marked).",
        "undo": "Undo the last step that stands (the game master).",
        "turn": "The next in the initiative order acts.",
        "round": "A new round begins.",
        "rotate": "The game master reveals the server seed and commits a new one.",
        "end": "The game master ends the table: its server seed is revealed, no more dice are drawn.",
    } | {k: v for k, v in said.items() if k not in {"reroll", "undo", "turn", "round", "rotate", "end"}}
    ids = {p.rsplit("/", 1)[1]: op["post"]["operationId"].split("_tables_")[0] for p, op in paths.items()
           if p.startswith("/tables/{table_id}/") and p.count("/") == 3 and "post" in op}
    assert (ids["turn"], ids["round"], ids["rotate"], ids["undo"]) == ("next_turn", "next_round", "rotate_seed", "undo")


def test_an_inline_script_is_allowed_by_its_hash_and_nothing_else() -> None:
    """CSP level 2: an inline script runs when the policy lists 'sha256-' and the base64 of its text's SHA-256."""
    import base64
    import hashlib

    from diceengine.web.security_headers import content_security_policy

    def allowed(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    page = "<p>é</p><script>go('é')</script><div><script>\nlater()\n</script>"
    policy = dict(p.strip().split(" ", 1) for p in content_security_policy(page).split(";"))
    assert policy["script-src"] == " ".join(["'self'", allowed("go('é')"), allowed("\nlater()\n")])
    assert policy["style-src"] == "'self'" and policy["default-src"] == "'none'"
    assert dict(p.strip().split(" ", 1) for p in content_security_policy("<p>no script</p>").split(";"))[
        "script-src"] == "'self'"


def test_each_computing_route_documents_a_whole_request(tmp_path: Path) -> None:
    """The OpenAPI document shows one whole request for each computing route (what docs/web.md's examples send),
    and says no other field is accepted."""
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        schema = c.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    shown = {}
    for path in ("/api/roll", "/api/odds", "/api/sample", "/api/compare", "/api/convert"):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        body = components[body["$ref"].rsplit("/", 1)[1]] if "$ref" in body else body
        assert body["additionalProperties"] is False, path
        shown[path] = body["examples"]
    check = {"expression": "4D+2 vs 15", "system": "d6wild"}
    assert shown == {"/api/roll": [{**check, "n": 2}], "/api/odds": [check],
                     "/api/sample": [{**check, "n": 10_000, "seed": 1}],
                     "/api/compare": [{"checks": [check, {"expression": "2a1p vs 2d", "system": "ffg"}]}],
                     "/api/convert": [{"expression": "4D+2 vs 15", "source": "d6wild", "target": "ffg"}]}


def test_the_page_has_french_for_the_chances_the_exact_odds_name() -> None:
    """The odds summary names chances as ``P(net advantage)``; the page's words hold the words inside, in French
    (the engine's catalogue: docs/languages.md)."""
    from diceengine.web.words import _chances, page_words

    assert _chances("2a1p1b vs 2d1s", "ffg") == ["succeeded", "triumph", "despair", "net advantage"]
    assert _chances("3d20<=12 spec 3 vs 2", "d20pool") == ["at least one complication", "success"]
    assert _chances("3d6+2", "standard") == []
    words = page_words("fr")
    assert (words["net advantage"], words["at least one complication"]) == ("avantage net", "au moins une complication")


def test_the_live_log_reads_only_new_steps_and_refuses_a_broken_log(tmp_path: Path) -> None:
    """What the live log reads of a stored table: the steps after a number, in order; nothing of a table that is
    gone; a log missing a step, or of another format, refused with the engine's message."""
    import sqlalchemy as sa

    from diceengine import table as T
    from diceengine.web.table_events import _read_since

    store = T.open_store(str(tmp_path / "t.sqlite"))
    try:
        table, _ = T.new_table("night", "standard", "GM", ["Kira", "Jax"], seed=7)
        store.create(table)
        store.create(T.new_table("day", "standard", "GM", seed=7)[0])
        stored, new = _read_since(store, "night", 1)  # type: ignore[misc]
        assert [(e.seq, e.member) for e in new] == [(2, "Kira"), (3, "Jax")] and stored.version == 3
        assert _read_since(store, "night", 3)[1] == []  # type: ignore[index]
        assert _read_since(store, "gone", 0) is None
        assert store.versions(["night", "gone", "day"]) == {"night": 3, "day": 1}
        with store.engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM dice_steps WHERE table_id = 'night' AND seq = 2"))
        with pytest.raises(T.TableFormatError) as broken:
            _read_since(store, "night", 0)
        assert broken.value.message == f"the table 'night' in {store.shown} is corrupt (steps after 0 out of order)"
        with store.engine.begin() as conn:
            conn.execute(sa.text("UPDATE dice_tables SET format = 99 WHERE id = 'day'"))
        with pytest.raises(T.TableFormatError) as other:
            _read_since(store, "day", 0)
        assert other.value.message == "a table's log of format 99; this version reads format 1"
    finally:
        store.close()


def test_a_fault_far_along_a_long_line_of_an_encounter_is_shown_with_its_caret(tmp_path: Path) -> None:
    """A line of more than 200 characters is shown as the 200 around the fault, the caret under the fault."""
    from .test_web_tables import make_client

    line = 'name = "' + "x" * 300 + '" +'  # the fault: the "+" at column 311 of line 2
    with make_client(tmp_path) as c:
        r = c.post("/api/fight", json={"text": "[a]\n" + line + "\n", "format": "toml"})
    body = r.json()
    assert r.status_code == 400 and body["error"] == "value"
    assert body["message"] == ("encounter: not valid TOML: Expected newline or end of document after a statement "
                               "(at line 2, column 311)")
    assert body["expression"] == line[211:] and body["column"] == 99 and body["expression"][body["column"]] == "+"


def test_an_anydice_program_gives_each_outputs_mean_and_spread_and_errors_in_its_language() -> None:
    """``do_anydice`` in this process (the service runs it in a worker): 2d6 by enumeration of its 36 rolls, an
    output without outcomes, and an error in the language the request asks."""
    import itertools
    import math

    from diceengine.errors import DiceError
    from diceengine.web.anydice import AnyDiceRequest, do_anydice

    totals = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    mean = sum(totals) / 36
    stdev = math.sqrt(sum((t - mean) ** 2 for t in totals) / 36)
    two, empty = do_anydice(AnyDiceRequest(program='output 2d6 named "two"\noutput {}')).outputs
    assert (two.label, two.values, two.truncated) == ("two", list(range(2, 13)), 0.0)
    assert two.mean == pytest.approx(mean, abs=1e-12) and two.stdev == pytest.approx(stdev, abs=1e-12)
    assert two.probabilities == pytest.approx([totals.count(v) / 36 for v in range(2, 13)], abs=1e-15)
    assert (empty.label, empty.mean, empty.stdev, empty.values) == ("output 2", None, None, [])
    with pytest.raises(DiceError) as fr:
        do_anydice(AnyDiceRequest(program="output 1\noutput d6 @ 2", lang="fr"))
    assert fr.value.message == "ligne 2 : une position est un nombre ou une séquence, pas un dé"


def test_a_compared_check_gives_its_chance_and_the_answers_are_json(tmp_path: Path) -> None:
    """1D against 4 in the D6 rules succeeds on 4, 5 or 6 (meets or beats): 3 faces of 6; a total alone has no
    chance of success. The computing routes answer ``application/json``."""
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        r = c.post("/api/compare", json={"checks": [{"expression": "1D vs 4", "system": "d6"},
                                                    {"expression": "2d6", "system": "standard"}]})
        sampled = c.post("/api/sample", json={"expression": "2d6", "n": 10, "seed": 1})
    d6, total = r.json()["checks"]
    assert d6["success"] == pytest.approx(3 / 6) and total["success"] is None
    assert r.headers["content-type"] == "application/json"
    assert sampled.status_code == 200 and sampled.headers["content-type"] == "application/json"


def test_the_collectors_full_pass_comes_again_and_again() -> None:
    """Each full pass is followed by another (a cycle set aside after the first full pass is collected by a
    later one), and the task runs on until cancelled. Waits on conditions, never on a fixed time."""
    import asyncio
    import gc
    import weakref

    from diceengine.web import collector

    class Node:
        other: object = None

    def cycle() -> weakref.ref[Node]:
        a, b = Node(), Node()
        a.other, b.other = b, a
        return weakref.ref(a)

    async def until(condition: object) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + 30.0
        while not condition():  # type: ignore[operator]
            assert loop.time() < end, "the collector's task did not get there"
            await asyncio.sleep(0.005)

    async def main() -> None:
        gc.unfreeze()
        task = asyncio.get_running_loop().create_task(collector.collect(freeze_seconds=0.01, full_seconds=0.2))
        for _ in range(3):  # three full passes, one after another
            alive = cycle()
            await until(lambda: gc.get_freeze_count() > 0 and alive() is None)  # noqa: B023 - awaited at once
            assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(main())
    finally:
        gc.unfreeze()
        gc.collect()


def test_an_encounter_that_ends_too_early_is_refused_without_a_caret(tmp_path: Path) -> None:
    """A TOML fault at the end of the text has no line to show: the message alone, in the caller's language."""
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        r = c.post("/api/fight", json={"text": "a = ", "format": "toml"})
        fr = c.post("/api/fight", json={"text": "a = ", "format": "toml"}, headers={"Accept-Language": "fr"})
    body = r.json()
    assert r.status_code == 400 and body["error"] == "value" and body["expression"] is None and body["caret"] is None
    assert body["message"] == "encounter: not valid TOML: Invalid value (at end of document)"
    assert fr.status_code == 400 and fr.json()["message"] != body["message"]
    assert fr.json()["message"].endswith("Invalid value (at end of document)")


def test_a_whole_number_written_with_a_point_is_that_number(tmp_path: Path) -> None:
    """JSON's 2.0 is the whole number 2 for a count or a seed (a number with a fraction is refused)."""
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        plain = c.post("/api/roll", json={"expression": "3d6", "n": 2, "seed": 3}).json()
        pointed = c.post("/api/roll", json={"expression": "3d6", "n": 2.0, "seed": 3.0})
        half = c.post("/api/roll", json={"expression": "3d6", "n": 2.5})
    assert pointed.status_code == 200 and pointed.json() == plain and len(plain["rolls"]) == 2
    assert half.status_code == 422 and half.json()["error"] == "invalid_request"


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "route"])
def test_a_saved_roll_rolled_in_secret_stays_secret(tmp_path: Path, fast_path: bool) -> None:
    """The game master rolls a saved roll secretly (``@name`` with ``secret``): a player reads who rolled and when,
    never the dice, the expression or the outcome."""
    from .test_web_tables import bearer, make_client, seated

    with make_client(tmp_path, fast_path=fast_path) as c:
        t = seated(c)
        tid, keys = t["id"], t["keys"]
        saved = c.post(f"/tables/{tid}/save", json={"name": "ambush", "expression": "3d1p vs 2d"},
                       headers=bearer(keys["GM"]))
        assert saved.status_code == 200, saved.text
        rolled = c.post(f"/tables/{tid}/roll", json={"expression": "@ambush", "secret": True}, headers=bearer(keys["GM"]))
        assert rolled.status_code == 200 and rolled.json()["step"]["secret"] is True
        assert rolled.json()["step"]["expression"] == "3d1p vs 2d"  # the game master reads it
        seen = c.get(f"/tables/{tid}/log", headers=bearer(keys["Kira"])).json()["steps"][-1]
    assert (seen["kind"], seen["member"], seen["secret"]) == ("roll", "GM", True)
    assert (seen["expression"], seen["dice"], seen["outcome"]) == (None, None, None)
