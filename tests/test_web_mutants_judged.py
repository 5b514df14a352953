"""What the web service does where mutmut could not see the tests that check it (issue 38): code run while the
modules are imported (a request model's settings, the application built at import) and code run in the compute
workers (the CPU budget, the warming of a worker), here called in the test's own process, so that a mutant of
it is judged by a test that calls it, as a developer's slip there would be."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from pydantic import ValidationError

from diceengine.errors import DiceLimitError
from diceengine.web.models import _example, _Strict
from diceengine.web.offload import _alarm, _budgeted, _warm

from .test_web_offload import burn, burn_swallowing_once  # the worker tasks, importable by a worker


def test_a_request_model_documents_its_example_and_takes_only_its_own_fields_of_their_type() -> None:
    """A request model given ``_example``'s settings (as every computing route's is, at import): its schema shows
    the example whole; a field of the wrong JSON type, or a field of no name of its own, is refused."""

    class Asked(_Strict):
        model_config = _example(expression="3d6", n=2)

        expression: str
        n: int = 1

    assert Asked.model_json_schema()["examples"] == [{"expression": "3d6", "n": 2}]
    assert Asked.model_validate_json('{"expression": "3d6", "n": 2}').n == 2
    for wrong in ('{"expression": "3d6", "n": "2"}', '{"expression": 3, "n": 2}', '{"expression": "3d6", "n": true}'):
        with pytest.raises(ValidationError):
            Asked.model_validate_json(wrong)
    with pytest.raises(ValidationError) as extra:
        Asked.model_validate_json('{"expression": "3d6", "count": 2}')
    assert extra.value.errors()[0]["type"] == "extra_forbidden"


@pytest.fixture
def worker_signal() -> Iterator[None]:
    """This process set up as a compute worker's CPU timer is (``_init_worker``'s handler), put back after."""
    before = signal.signal(signal.SIGPROF, _alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)


@pytest.mark.usefixtures("worker_signal")
@pytest.mark.parametrize("task", [burn, burn_swallowing_once])
def test_a_task_past_its_cpu_budget_is_the_engines_limit_error_and_the_timer_is_off(task: Any) -> None:
    """What a worker runs: past its budget of CPU a task is stopped with the engine's limit error naming the
    budget, even if it swallows the first signal; after it the CPU timer is off."""
    with pytest.raises(DiceLimitError) as err:
        _budgeted(0.15, task, 30.0)
    assert str(err.value) == ("this request needs more than 0.15 s of computation; ask for fewer dice or a "
                              "smaller pool")
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


@pytest.mark.usefixtures("worker_signal")
def test_a_task_within_its_cpu_budget_answers_and_the_timer_is_off() -> None:
    """A task within its budget answers what it returns, and leaves no timer running after it."""
    assert _budgeted(5.0, burn, 0.01) == "finished"
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert _budgeted(5.0, divmod, 17, 5) == (3, 2)  # every argument passed on


@pytest.mark.usefixtures("worker_signal")
def test_the_cpu_timer_fires_at_the_budget_then_every_tenth_of_it() -> None:
    """While a task runs, the timer is set to the budget, then to fire again every tenth of it (a task that
    swallows one signal still stops soon after)."""
    left, every = _budgeted(5.0, signal.getitimer, signal.ITIMER_PROF)
    assert left == pytest.approx(5.0, abs=0.1) and every == pytest.approx(0.5, abs=0.01)  # the kernel rounds to its tick


def test_a_worker_warms_with_every_systems_first_example() -> None:
    """A new worker computes the exact odds of each system's first example before its first request: it answers
    true once done (an example that no longer computes would fail here)."""
    assert _warm() is True


def test_the_workers_default_to_the_environments_or_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """``create_app()`` computes in ``$DICE_WEB_WORKERS`` worker processes, one when it is not set; a number
    given wins over it."""
    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    def workers(**given: Any) -> int:
        return create_app(tables=TableSettings(db=str(tmp_path / "t.sqlite")), **given).state.offload.workers

    monkeypatch.delenv("DICE_WEB_WORKERS", raising=False)
    assert workers() == 1
    monkeypatch.setenv("DICE_WEB_WORKERS", "3")
    assert (workers(), workers(workers=0)) == (3, 0)


def test_the_openapi_document_names_the_service_and_every_routes_refusals_of_a_body(tmp_path: Any) -> None:
    """The OpenAPI document's title, version and description, and on every route the gate's refusals: 413 (a body
    past 64 KiB) and 422, each in the error shape."""
    from fastapi.testclient import TestClient

    from diceengine import __version__
    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))
    with TestClient(app) as c:
        schema = c.get("/openapi.json").json()
    assert schema["info"] == {"title": "diceengine", "version": __version__, "description": (
        "Roll dice, compute exact odds and compare the Star Wars role-playing game systems.")}
    error = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            assert answers["413"]["description"] == "a body past 64 KiB", (method, path)
            assert answers["413"]["content"]["application/json"]["schema"] == error, (method, path)
            assert answers["422"]["content"]["application/json"]["schema"] == error, (method, path)


def test_an_encounter_nested_too_deeply_is_refused_in_words(tmp_path: Any) -> None:
    """An encounter's text nested deeper than its reader goes (JSON or TOML) is the engine's refusal saying so, in
    the caller's language, never a failure of the service."""
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        for form, text in (("json", "[" * 5_000), ("toml", "a = " + "[" * 5_000)):
            en = c.post("/api/fight", json={"text": text, "format": form})
            fr = c.post("/api/fight", json={"text": text, "format": form}, headers={"Accept-Language": "fr"})
            assert en.status_code == 400 and en.json()["error"] == "value"
            assert en.json()["message"] == f"encounter: not valid {form.upper()}: nested too deeply"
            assert fr.status_code == 400 and fr.json()["message"] == f"encounter : {form.upper()} invalide : imbriqué trop profondément"


def test_an_empty_list_of_rulesets_is_refused_in_words(tmp_path: Any) -> None:
    """``systems: []`` asks for no ruleset: refused with the engine's words, in the caller's language."""
    from .test_web_fights import _roark
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        en = c.post("/api/fight", json={"encounter": _roark(), "systems": []})
        fr = c.post("/api/fight", json={"encounter": _roark(), "systems": []}, headers={"Accept-Language": "fr"})
    assert (en.status_code, en.json()["error"]) == (400, "value")
    assert en.json()["message"] == "bad encounter: no ruleset asked for"
    assert fr.json()["message"] == "rencontre invalide : aucune règle demandée"


def test_a_database_address_is_kept_out_of_its_error_whatever_its_form() -> None:
    """A socket's folder given in a URL's query (no host) is still the address: an error naming it is not said;
    an address SQLAlchemy cannot read is matched as written (no failure of its own)."""
    from diceengine.web.table_access import _without_address

    socket = "postgresql://kira@/night?host=/var/run/secret-sock"
    reason = 'connection to server on socket "/var/run/secret-sock/.s.PGSQL.5432" failed: No such file or directory'
    assert _without_address(reason, socket) == "unreachable"
    assert _without_address("server closed the connection", socket) == "server closed the connection"
    unread = "postgresql://hidden_user@db.example:port/hidden_db"  # its port is no number
    assert _without_address("invalid port", unread) == "invalid port"
    assert _without_address("no database hidden_db: gone", unread) == "unreachable"


def test_the_exact_odds_name_a_systems_own_chances_as_words(tmp_path: Any) -> None:
    """``/api/odds`` of an FFG check gives, beside its fields' chances, the chances the system names
    (``P(net advantage)`` as ``net advantage``), each as the published dice's faces enumerated say."""
    from .test_ffg import published_pool
    from .test_web_tables import make_client

    with make_client(tmp_path) as c:
        chances = c.post("/api/odds", json={"expression": "1a1p vs 1d", "system": "ffg"}).json()["chances"]
    pool = published_pool(["ability", "proficiency", "difficulty"])
    assert set(chances) == {"succeeded", "triumph", "despair", "net advantage"}
    assert chances["net advantage"] == pytest.approx(float(sum(p for k, p in pool.items() if k[1] > 0)), abs=1e-12)
    assert chances["succeeded"] == pytest.approx(float(sum(p for k, p in pool.items() if k[0] > 0)), abs=1e-12)
    assert chances["triumph"] == pytest.approx(1 / 12, abs=1e-12) and chances["despair"] == 0


def test_a_rule_given_an_argument_it_does_not_take_names_what_it_takes(tmp_path: Any) -> None:
    """A rule run with an argument of no name of its signature is refused with its parameters listed, in the
    caller's language."""
    from .test_web_tables import make_client

    body = {"arguments": {"code": "4D", "declared": 2, "speed": 1, "luck": 2}}
    with make_client(tmp_path) as c:
        en = c.post("/api/systems/d6/rules/multiple_action_codes", json=body)
        fr = c.post("/api/systems/d6/rules/multiple_action_codes", json=body, headers={"Accept-Language": "fr"})
    assert en.status_code == 400 and fr.status_code == 400
    assert en.json()["message"] == ("multiple_action_codes takes code, declared, reactions_after, running, wounded, "
                                    "not speed, luck")
    assert fr.json()["message"] == ("multiple_action_codes prend code, declared, reactions_after, running, wounded, "
                                    "pas speed, luck")


def _kept(limit: Any) -> set[str]:
    import sqlalchemy as sa

    with limit.engine.connect() as conn:
        return {r.who for r in conn.execute(sa.text("SELECT who FROM dice_buckets"))}


def test_shared_buckets_are_evicted_every_so_many_takes_down_to_their_size(where: str) -> None:
    """The database's buckets are evicted every ``evict_every`` takes (none before: a server starting forgets no
    other server's bucket), down to ``size``, the least recently used first, however many are past it."""
    from .test_web_ratelimit import Clock, shared

    clock = Clock()
    first = shared(where, clock, size=1, evict_every=1000)
    for who in ("a", "b"):
        clock.now += 1
        assert first.take(who)
    second = shared(where, clock, size=1, evict_every=3)
    kept = []
    for who in ("c", "d", "e", "f"):
        clock.now += 1
        assert second.take(who)
        kept.append(_kept(second))
    assert kept == [{"a", "b", "c"}, {"a", "b", "c", "d"}, {"e"}, {"e", "f"}]
    third = shared(where, clock, size=2, evict_every=1)  # one past its size: the oldest goes
    clock.now += 1
    assert third.take("g") and _kept(third) == {"f", "g"}
    for limit in (first, second, third):
        limit.close()


def test_a_roll_is_answered_by_the_hot_path_and_the_route_only_under_a_prefix(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /api/roll`` is the hot path's (``RollFastPath``) at the application's root; its route answers only
    where the hot path cannot see the path (the application mounted under a prefix): the same answer."""
    from fastapi.testclient import TestClient
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    web_app = sys.modules["diceengine.web.app"]  # the module (the package's ``app`` is the application)
    routed: list[bytes] = []
    real = web_app.roll_response

    async def counted(body: bytes, *args: Any) -> Any:
        routed.append(body)
        return await real(body, *args)

    monkeypatch.setattr(web_app, "roll_response", counted)  # the route's, not the hot path's own import
    app = create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))
    body = {"expression": "3d6", "seed": 5}
    with TestClient(app) as direct, TestClient(Starlette(routes=[Mount("/dice", app=app)])) as mounted:
        fast = direct.post("/api/roll", json=body)
        assert fast.status_code == 200 and routed == []
        slow = mounted.post("/dice/api/roll", json=body)
        assert slow.status_code == 200 and len(routed) == 1
    assert fast.json() == slow.json()


def test_the_pages_extractor_gives_each_marked_word_with_its_line_in_the_files_encoding() -> None:
    """Babel's extractor of the page (``extract_html``): each marked element's words or marked attribute, with the
    line it starts on (what the catalogue's ``#:`` comments say), read in the encoding Babel gives."""
    import io

    from diceengine.web.words import extract_html

    page = ('<html>\n<body>\n  <p data-t>Exact\n   odds</p>\n'
            '  <input data-t-placeholder placeholder="Expression">\n  <b data-t="Déjà vu"></b>\n</body></html>\n')
    expected = [(3, "t", "Exact odds", []), (5, "t", "Expression", []), (6, "t", "Déjà vu", [])]
    assert list(extract_html(io.BytesIO(page.encode("utf-8")), {}, (), {})) == expected
    assert list(extract_html(io.BytesIO(page.encode("latin-1")), {}, (), {"encoding": "latin-1"})) == expected


def test_cors_allows_the_headers_and_methods_a_table_needs_and_no_other(tmp_path: Any) -> None:
    """For an allowed origin, a preflight asking for a member's key, a JSON body or the live log's resumption
    (``Last-Event-ID``), in any case, with GET or POST, is allowed; any other header or method is refused."""
    from .test_web_tables import make_client

    origin = {"Origin": "https://vtt.example"}
    with make_client(tmp_path, origins=["https://vtt.example"]) as c:
        def preflight(method: str, headers: str) -> int:
            return c.options("/tables", headers={**origin, "Access-Control-Request-Method": method,
                                                 "Access-Control-Request-Headers": headers}).status_code

        assert preflight("POST", "authorization, content-type") == 200
        assert preflight("GET", "Authorization, Last-Event-ID") == 200
        assert preflight("GET", "last-event-id") == 200
        assert preflight("POST", "authorization, x-forwarded-for") == 400
        assert preflight("DELETE", "authorization") == 400
        assert preflight("PUT", "content-type") == 400


def test_following_a_table_gone_since_its_key_was_checked_is_not_found(tmp_path: Any) -> None:
    """The live log's hub asked to follow a table that is not (or no longer) in the store: the table's own
    not-found error naming it (the stream then ends quietly), and no watch kept for it."""
    import asyncio

    from diceengine.table import TableNotFound
    from diceengine.web.table_access import TableSettings, TableState
    from diceengine.web.table_events import Hub

    state = TableState(TableSettings(db=str(tmp_path / "t.sqlite")))
    hub = Hub(state)

    async def follow() -> None:
        try:
            with pytest.raises(TableNotFound) as gone:
                await hub.follow("gone")
            assert gone.value.message == f"no table named 'gone' in {state.store.shown}"
            assert hub.watches == {}
        finally:
            hub.stop()

    try:
        asyncio.run(follow())
    finally:
        state.close()


def test_a_hot_path_reads_a_body_in_pieces_until_it_ends_or_passes_its_limit() -> None:
    """``read_body`` (both hot paths'): every piece of a body until the last, ``(body, True)``; past the limit it
    stops, ``(what came, False)``, the rest left to come; a client gone is ``None``."""
    import asyncio

    from diceengine.web.fastpath import read_body

    def receiving(*messages: dict[str, Any]) -> Any:
        sent = iter(messages)

        async def receive() -> dict[str, Any]:
            return next(sent)

        return receive

    def piece(body: bytes, more: bool) -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": more}

    assert asyncio.run(read_body(receiving(piece(b"abcd", True), piece(b"ef", True), piece(b"", False)), 6)) == (
        b"abcdef", True)
    assert asyncio.run(read_body(receiving(piece(b"abcd", True), piece(b"efgh", True), piece(b"ijkl", False)), 5)) == (
        b"abcdefgh", False)
    assert asyncio.run(read_body(receiving({"type": "http.request", "body": b"{}"}), 5)) == (b"{}", True)
    assert asyncio.run(read_body(receiving(piece(b"ab", True), {"type": "http.disconnect"}), 5)) is None


def test_a_pool_whose_worker_died_is_started_again_for_the_next_task() -> None:
    """A worker killed (out of memory, a signal): the pool is broken; the next task starts a new pool and is
    computed there."""
    import asyncio
    import os

    from diceengine.web.offload import Offloader

    off = Offloader(workers=1, cpu_seconds=5.0)
    off.start()
    try:
        pool = off._pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        for _ in range(1000):  # the pool's own thread marks it broken once it sees the worker gone
            if pool._broken:  # type: ignore[attr-defined]
                break
            time.sleep(0.01)
        assert pool._broken  # type: ignore[attr-defined]
        assert asyncio.run(off.run(divmod, 17, 5)) == (3, 2)
        assert off._pool is not pool
    finally:
        off.stop()


def test_stopping_the_workers_cancels_the_tasks_not_yet_begun() -> None:
    """The server stopping stops its workers without computing the tasks still waiting (their requests are gone
    with it): those are cancelled, and every task is done once the workers are stopped."""
    from diceengine.web.offload import Offloader

    off = Offloader(workers=1, cpu_seconds=5.0)
    off.start()
    pool = off._pool
    assert pool is not None
    futures = [pool.submit(burn, 0.3) for _ in range(6)]
    off.stop()
    assert all(f.done() for f in futures)
    assert sum(f.cancelled() for f in futures) >= 3  # the pool queues at most one task beyond its running one
