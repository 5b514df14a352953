"""Rate limits that hold: the buckets kept in the tables' database (SharedBuckets) give two processes the budget
of one, on SQLite and PostgreSQL (two real ``dice serve`` processes on one database); a flood of new keys forgets
the least recently used buckets, never everyone's; the bucket of new tables and joins per address bites."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

import sqlalchemy as sa

from diceengine import table as T
from diceengine.web.ratelimit import SharedBuckets, TokenBucket

from .test_web_tables import bearer, make_client

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def shared(where: str, clock: Clock, **kw: Any) -> SharedBuckets:
    store = T.open_store(where)  # the schema, its migrations included
    store.close()
    url = store.url
    return SharedBuckets(sa.create_engine(url), kw.pop("rate", 2.0), kw.pop("burst", 3.0), clock=clock,
                         idle=kw.pop("idle", 1000.0), **kw)


def test_a_shared_bucket_holds_its_burst_and_refills(where: str) -> None:
    clock = Clock()
    one = shared(where, clock)
    assert [one.take("k") for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # one token back at 2 a second
    assert [one.take("k"), one.take("k")] == [True, False]
    clock.now += 100  # full again, not above the burst
    assert [one.take("k") for _ in range(4)] == [True, True, True, False]
    assert one.take("other")  # a bucket of its own
    assert [one.take("slow", 0.1, 1.0), one.take("slow", 0.1, 1.0)] == [True, False]  # its own rate and burst
    one.close()


def test_two_processes_share_one_budget(where: str) -> None:
    """Two limiters on one database (two server processes' worth, each its own engine): the burst is shared."""
    clock = Clock()
    one, two = shared(where, clock, burst=5.0), shared(where, clock, burst=5.0)
    granted = [b.take("k") for _ in range(5) for b in (one, two)]
    assert granted.count(True) == 5 and granted[:5] == [True] * 5
    one.close()
    two.close()


def test_a_flood_of_keys_forgets_the_oldest_not_everyone(where: str) -> None:
    """Past ``size`` buckets the least recently used go, not all of them: a drained bucket another process keeps
    asking for stays drained through a flood of new keys."""
    clock = Clock()
    limit = shared(where, clock, burst=2.0, rate=0.001, size=5, evict_every=1)
    other = shared(where, clock, burst=2.0, rate=0.001, size=5, evict_every=1)
    for _ in range(2):
        clock.now += 1
        assert limit.take("drained")
    assert not limit.take("drained")
    for i in range(20):  # twenty new keys, each used once, after the drained one
        clock.now += 1
        limit.take(f"flood{i}")
        clock.now += 1
        assert not other.take("drained"), i  # asked of the database (nothing given to that process): still empty
        assert not limit.take("drained"), i
    with limit.engine.connect() as conn:
        kept = {r.who for r in conn.execute(sa.text("SELECT who FROM dice_buckets"))}
    assert kept == {"drained", "flood16", "flood17", "flood18", "flood19"}
    clock.now += 5000  # idle past a refill: dropped, and full when seen again
    limit.take("late")
    with limit.engine.connect() as conn:
        assert [r.who for r in conn.execute(sa.text("SELECT who FROM dice_buckets"))] == ["late"]
    assert limit.take("drained") and other.take("drained")
    limit.close()
    other.close()


def test_the_in_memory_bucket_forgets_the_least_recently_used() -> None:
    bucket = TokenBucket(rate=0.001, burst=1, size=3)
    assert bucket.take("drained") and not bucket.take("drained")
    for i in range(10):
        bucket.take(f"new{i}")
        assert not bucket.take("drained"), i  # at the limit of three keys, the drained one stays empty


def test_new_tables_from_one_address_bite(tmp_path: Path) -> None:
    """Ten tables and joins at once from one address, then one a second: an eleventh at once is refused."""
    with make_client(tmp_path) as c:
        made = [c.post("/tables", json={"system": "standard", "gm": f"gm{i}"}) for i in range(10)]
        assert [r.status_code for r in made] == [201] * 10
        r = c.post("/tables", json={"system": "standard", "gm": "one more"})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited" and r.headers["Retry-After"] == "1"
        assert r.json()["message"] == "too many new tables and joins from this address; slow down"
        fr = c.post(made[0].json()["join_link"], json={"name": "Zoé"}, headers={"Accept-Language": "fr"})
        assert fr.status_code == 429
        assert fr.json()["message"] == "trop de nouvelles tables et d'arrivées depuis cette adresse ; ralentissez"
        key = made[0].json()["gm_key"]  # the keys' own buckets are apart
        assert c.get(f"/tables/{made[0].json()['table_id']}", headers=bearer(key)).status_code == 200


def start(db: str, cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    from benchmarks.web_load_tables import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--db", db,
                             "--compute-workers", "0", "--log-level", "warning", "--no-access-log"], cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **env}, start_new_session=True)
    return proc, f"http://127.0.0.1:{port}"


def wait_up(proc: subprocess.Popen[bytes], base: str) -> None:
    import httpx2 as httpx

    deadline = time.time() + 120
    while True:
        assert proc.poll() is None and time.time() < deadline, "the server did not start"
        try:
            if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_server_processes_give_the_budget_of_one(backend: str, tmp_path: Path) -> None:
    """Two ``dice serve`` processes on one database, the requests alternating between them: a key's burst of 6 and
    an address's 4 new tables hold in all (per-process buckets gave each process its own: 12 and 8)."""
    import httpx2 as httpx

    admin = name = None
    if backend == "postgresql":
        from .test_table_store import _postgres_database

        admin, name, db = _postgres_database()
    else:
        db = str(tmp_path / "t.sqlite")
    env = {"DICE_KEY_BURST": "6", "DICE_KEY_RATE": "0.001", "DICE_NEW_BURST": "4", "DICE_NEW_RATE": "0.001"}
    servers = [start(db, tmp_path, env) for _ in range(2)]
    try:
        for proc, base in servers:
            wait_up(proc, base)
        bases = [base for _, base in servers]
        made = [httpx.post(bases[i % 2] + "/tables", json={"system": "standard", "gm": f"g{i}"}, timeout=30)
                for i in range(10)]
        assert [r.status_code for r in made] == [201] * 4 + [429] * 6
        t = made[0].json()
        reads = [httpx.get(f"{bases[i % 2]}/tables/{t['table_id']}/log", headers=bearer(t["gm_key"]), timeout=30)
                 for i in range(12)]
        assert [r.status_code for r in reads] == [200] * 6 + [429] * 6
        roll = httpx.post(f"{bases[1]}/tables/{t['table_id']}/roll", json={"expression": "1d6"},
                          headers=bearer(t["gm_key"]), timeout=30)
        assert roll.status_code == 429  # the hot path of rolls draws from the same bucket
    finally:
        for proc, _ in servers:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


def test_a_database_of_schema_0001_is_upgraded_with_its_tables_kept(where: str) -> None:
    from alembic import command

    table, keys = T.new_table("night", "standard", "Ana", ["Kira"])
    with T.open_store(where) as store:
        store.create(T.roll(table, "Kira", "1d6"))
        config = store._alembic()
        with store.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "0001")
        assert store.schema_version() == "0001"
        assert "dice_buckets" not in sa.inspect(store.engine).get_table_names()
    with T.open_store(where, create=False) as again:
        assert again.schema_version() == "0002" and "dice_buckets" in sa.inspect(again.engine).get_table_names()
        assert again.load("night").version == 4 and T.authenticate(again.load("night"), keys["Kira"]) == "Kira"


def test_an_empty_bucket_refuses_with_nothing_written(where: str) -> None:
    """Once a key's bucket is empty, its flood costs no statement: the process's own bucket, which never holds
    fewer tokens than the shared one, refuses first; a token the other processes took is not counted here."""
    clock = Clock()
    one, two = shared(where, clock, burst=3.0), shared(where, clock, burst=3.0)
    ran: list[str] = []
    sa.event.listen(one.engine, "before_cursor_execute", lambda conn, cursor, statement, *a: ran.append(statement))
    assert [two.take("k") for _ in range(2)] == [True, True]
    assert [one.take("k"), one.take("k")] == [True, False]  # the shared bucket's last token, then none
    asked = len(ran)
    assert not any(one.take("k") for _ in range(100))
    assert len(ran) == asked + 100  # this process was given one token: it asks the database each time
    clock.now += 0.5  # one token back
    assert one.take("k") and not one.take("k")
    three = shared(where, clock, burst=3.0)
    for _ in range(5):
        three.take("flood")
    ran3: list[str] = []
    sa.event.listen(three.engine, "before_cursor_execute", lambda conn, cursor, statement, *a: ran3.append(statement))
    assert not any(three.take("flood") for _ in range(100)) and ran3 == []
    for b in (one, two, three):
        b.close()


def test_a_steps_token_is_taken_in_its_group_commit(where: str) -> None:
    """A toll (a step's token, :meth:`SharedBuckets.take_in`) is taken in the group's transaction: no commit of
    its own; what it writes stays when its step is refused by its rule; a refusing toll refuses its step alone,
    which is not taken."""
    from tests.test_table_group_commit import Callers, _commits, _tables

    clock = Clock()
    buckets = shared(where, clock, burst=2.0, rate=0.001)
    own = _commits(buckets)  # the buckets' engine: no commit of its own

    def toll(who: str) -> Any:
        def take(conn: Any) -> None:
            if not buckets.take_in(conn, who):
                raise ValueError(f"{who}: empty")
        return take

    with T.open_store(where) as store:
        _tables(store, "a", "b")
        commits = _commits(store)
        callers = Callers(store)
        callers.first("a")
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "p0", "1d6"), toll=toll("k")))
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "nobody", "1d6"), toll=toll("k")))  # refused
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "p1", "1d8"), toll=toll("k")))  # "k" is empty
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "p2", "1d10"), toll=toll("j")))
        callers.release()
        results = callers.results
        assert len(commits) == 2 and own == []
        assert isinstance(results[0], T.Table) and isinstance(results[3], T.Table)
        assert isinstance(results[1], T.TableAccessError)  # its token spent all the same
        assert isinstance(results[2], ValueError) and str(results[2]) == "k: empty"
        log = store.load("b").log
    assert [(e.member, e.expression) for e in log if e.kind == "roll"] == [("p0", "1d6"), ("p2", "1d10")]
    with buckets.engine.connect() as conn:
        held = dict(conn.execute(sa.text("SELECT who, tokens FROM dice_buckets")).all())
    assert held == {"k": pytest.approx(0.0), "j": pytest.approx(1.0)}
    buckets.close()


def test_the_services_steps_take_their_tokens_with_their_commit_on_sqlite(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=4, rate=0.001) as c:
        r = c.post("/tables", json={"system": "standard", "gm": "GM"})
        tid, key = r.json()["table_id"], r.json()["gm_key"]
        state = c.app.state.tables  # type: ignore[attr-defined]
        own: list[int] = []
        sa.event.listen(state.buckets.engine, "commit", lambda conn: own.append(0))
        assert c.post(f"/tables/{tid}/roll", json={"expression": "1d6"}, headers=bearer(key)).status_code == 200
        bad = c.post(f"/tables/{tid}/roll", json={"expression": "1d6 +"}, headers=bearer(key))
        assert bad.status_code == 400  # refused by the engine: its token spent all the same
        assert c.post(f"/tables/{tid}/turn", headers=bearer(key)).status_code == 400  # no order set: refused
        assert own == []  # three steps, no transaction of the buckets' own
        assert c.get(f"/tables/{tid}/log", headers=bearer(key)).status_code == 200  # a read: its own
        assert own == [0]
        refused = c.post(f"/tables/{tid}/roll", json={"expression": "1d6"}, headers=bearer(key))
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    with T.open_store(str(tmp_path / "tables.sqlite"), create=False) as store:
        assert [e.expression for e in store.load(tid).log if e.kind == "roll"] == ["1d6"]
