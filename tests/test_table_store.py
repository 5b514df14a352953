"""The table kept in a real database, SQLite and PostgreSQL: the play tests' scenes stored and read back, members
by key, optimistic versions (one success and one conflict, never a lost or doubled step), 8 concurrent writers,
a writer killed mid-stream, and corrupt or foreign databases refused.

PostgreSQL: the tests read a server's URL from ``DICEENGINE_TEST_POSTGRES`` (a role that may create databases;
each test gets a database of its own, dropped after it). Absent, they are skipped, except under CI, which must
set it (``.ci/run`` starts a throwaway server).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import sqlalchemy as sa
from diceengine.systems.ffg import play as ffg_play
from diceengine.systems.ffg.play import CharacterSheet

import diceengine as de
from diceengine import table as T
from tests.helpers import new_postgres_database
from tests.test_table import SCENES, WHEN, play_through, seated

ROOT = Path(__file__).resolve().parents[1]
# the PostgreSQL database of its own that the other table test files make (tests.helpers; ``where``: tests/conftest.py)
_postgres_database = new_postgres_database


@pytest.fixture
def store(where):
    with T.open_store(where) as opened:
        yield opened


@pytest.mark.parametrize("system", sorted(SCENES))
def test_each_scene_round_trips_through_the_database(where, system):
    table, state = play_through(system, *SCENES[system]())
    with T.open_store(where) as store:
        store.create(table)
    with T.open_store(where, create=False) as again:  # a new store: nothing from a cache
        back = again.load("game")
        assert back == table and T.state_of(back) == state
        assert T.import_log(T.export_log(back)) == back


def test_steps_committed_one_by_one_give_the_table_built_in_memory(where):
    """The same scene, each rule a transaction of its own: the same table, to the step."""
    start, steps = SCENES["ffg"]()
    table, _ = seated("ffg", start)
    with T.open_store(where) as store:
        store.create(table)
        for name, kwargs, check in steps:
            if check is RuntimeError:
                continue
            args = __import__("pydantic_core").to_jsonable_python(kwargs)
            table = T.rule(table, "GM", name, args=args, time=WHEN)
            stored = store.update("game", lambda t, name=name, args=args: T.rule(t, "GM", name, args=args,
                                                                                  time=WHEN))
            assert stored == table
            table = T.roll(table, "Kira", "2a1p vs 2d", time=WHEN)  # from the table's seed sequence: reproducible
            store.update("game", lambda t: T.roll(t, "Kira", "2a1p vs 2d", time=WHEN))
    with T.open_store(where, create=False) as again:
        assert again.load("game") == table and again.ids() == ["game"]


def test_a_seat_acts_and_reads_as_its_member(store):
    table, keys = seated("ffg", ffg_play.destiny_from_roll(light=1, dark=1))
    store.create(table)
    kira, gm = store.seat("game", keys["Kira"]), store.seat("game", keys["GM"])
    assert (kira.name, gm.name) == ("Kira", "GM")
    with pytest.raises(T.TableAccessError):
        store.seat("game", "not-a-key")
    entry = gm.roll("3d", secret=True)
    assert entry.outcome is not None and entry.secret
    public = kira.roll("2a1p vs 2d")
    assert public.odds is not None and public.member == "Kira"
    hidden = kira.log()[entry.seq - 1]
    assert hidden.redacted and hidden.outcome is None
    assert gm.log()[entry.seq - 1].outcome == entry.outcome
    assert kira.fairness().rolls == 1 and gm.fairness().rolls == 2
    assert kira.luck()["GM"].rolls == 0 and gm.luck()["GM"].rolls == 1
    assert '"3d"' not in kira.export_log() and '"3d"' in gm.export_log()
    with pytest.raises(T.TableAccessError):
        kira.undo()
    assert gm.undo().undoes == public.seq
    flipped = kira.flip("destiny.light", "destiny.dark")
    assert flipped.after.scene["destiny"] == {"light": 0, "dark": 2, "party": "light"}
    with pytest.raises(T.TableError, match="holds 0"):
        kira.flip("destiny.light", "destiny.dark")
    assert kira.add_character(CharacterSheet(name="Kira", characteristics={"agility": 3}), owner="Kira").kind == \
        "character"
    assert kira.rule("sheet_check", "Kira", characteristic="agility", skill="gunnery").check == "3a vs 2d"
    with pytest.raises(T.TableError, match="no roll"):  # her only roll was undone
        kira.reroll()
    again = kira.roll("1a")
    assert kira.reroll().reroll_of == again.seq
    assert gm.set_order(["Kira", "GM"]).kind == "order" and kira.next_turn().after.turn == 1
    assert kira.next_round().after.round == 2 and kira.adjust("destiny.dark", -1).after.scene["destiny"]["dark"] == 1
    assert kira.table().version == store.load("game").version


def test_two_writers_of_one_version_give_one_step_and_one_conflict(where):
    table, _keys = seated("ffg", ffg_play.destiny_from_roll(light=1, dark=0))
    with T.open_store(where) as first, T.open_store(where) as second:
        first.create(table)
        a, b = first.load("game"), second.load("game")
        assert a.version == b.version
        # two game masters flip the same token at once
        first.commit(T.flip(a, "GM", "destiny.light", "destiny.dark"), a.version)
        with pytest.raises(T.TableConflict, match="version"):
            second.commit(T.flip(b, "GM", "destiny.light", "destiny.dark"), b.version)
        stored = second.load("game")
        assert stored.version == a.version + 1 and T.state_of(stored).destiny.dark == 1
        assert [e.kind for e in stored.log].count("flip") == 1
        assert isinstance(T.TableConflict("x"), de.DiceError)
        # the loser reloads: the token is gone, the rule says so; nothing more is stored
        with pytest.raises(T.TableError, match="holds 0"):
            second.update("game", lambda t: T.flip(t, "GM", "destiny.light", "destiny.dark"))
        assert first.load("game") == stored
        # a step that still makes sense on the newer table is taken again on it
        stale = first.load("game")
        second.update("game", lambda t: T.roll(t, "Kira", "1a"))
        with pytest.raises(T.TableConflict):
            first.commit(T.roll(stale, "Jax", "1a"), stale.version)
        done = first.update("game", lambda t: T.roll(t, "Jax", "1a"), retries=2)
        assert done.version == stored.version + 2 and [e.member for e in done.log[-2:]] == ["Kira", "Jax"]
        with pytest.raises(T.TableError, match="does not follow"):
            first.commit(T.roll(stale, "Jax", "1a"), stale.version + 5)
        with pytest.raises(T.TableNotFound):
            first.load("other")
        with pytest.raises(T.TableError, match="already"):
            first.create(table)


def test_a_step_on_a_remembered_table_another_writer_moved_is_taken_again_on_the_stored_one(where):
    table, _keys = seated("ffg", ffg_play.destiny_from_roll(light=1, dark=0))
    with T.open_store(where) as first, T.open_store(where) as second:
        first.create(table)
        second.load("game")
        first.update("game", lambda t: T.roll(t, "Kira", "1a"))  # second's remembered table is now behind
        tried: list[int] = []

        def jax_rolls(t: T.Table) -> T.Table:
            tried.append(t.version)
            return T.roll(t, "Jax", "1a")

        done = second.update("game", jax_rolls)  # no retries asked: the remembered try is not one of them
        assert tried == [table.version, table.version + 1]
        assert [e.member for e in done.log[-2:]] == ["Kira", "Jax"] and first.load("game") == done
        # its own step remembered, the next is taken on it with nothing read before the commit
        statements: list[str] = []
        sa.event.listen(second.engine, "before_cursor_execute",
                        lambda *args: statements.append(args[2].split()[0].upper()))
        tried.clear()
        second.update("game", jax_rolls)
        written = [s for s in statements if s not in ("BEGIN", "SAVEPOINT")]  # the group's transaction, its step's
        assert tried == [done.version] and written[0] in ("UPDATE", "WITH")  # the step's write comes first
        # told that another writer moved the table (a notification), it reads it first
        first.update("game", lambda t: T.roll(t, "Kira", "1a"))
        second.moved_on("game", done.version + 2)
        assert second.cached("game") is None
        tried.clear()
        second.update("game", jax_rolls)
        assert tried == [done.version + 2]
        assert second.cached("game").version == done.version + 3
        second.moved_on("game", 1)  # an older version tells nothing
        assert second.cached("game").version == done.version + 3
        # a notice that carries the other writer's rolls: the remembered table takes them, as a reading would
        rolled = first.update("game", lambda t: T.roll(t, "Kira", "2a1p vs 2d"))
        second.moved_on("game", rolled.version, rolled.log[-1:])
        assert second.cached("game") == rolled == T.open_store(where).load("game")
        tried.clear()
        second.update("game", jax_rolls)
        assert tried == [rolled.version]  # taken on it, first time
        # a step other than a roll (a token flipped changes the scene): the remembered table is stale
        flipped = first.update("game", lambda t: T.roll(t, "Kira", "1a"))
        flipped = first.update("game", lambda t: T.flip(t, "GM", "destiny.light", "destiny.dark"))
        second.moved_on("game", flipped.version, flipped.log[-2:])
        assert second.cached("game") is None
        assert second.load("game") == flipped


WRITERS, STEPS = 8, 200


def test_eight_concurrent_writers_lose_and_double_no_step(where):
    """8 writers x 200 rolls on one table, each with its own store (its own connections), retrying on a
    conflict (50 times, then the conflict reaches the writer, who tries again): every acknowledged step is in the log exactly once, under the version it was acknowledged with,
    and the versions run without a gap."""
    names = [f"w{i}" for i in range(WRITERS)]
    table, keys = T.new_table("game", "standard", "GM", names, seed=3)
    with T.open_store(where) as setup:
        setup.create(table)
    acknowledged: dict[str, list[int]] = {n: [] for n in names}
    conflicts = [0] * WRITERS
    errors: list[BaseException] = []
    start = threading.Barrier(WRITERS)

    def writer(i: int) -> None:
        try:
            with T.open_store(where) as store:
                seat = store.seat("game", keys[names[i]], retries=50)
                start.wait()
                while len(acknowledged[names[i]]) < STEPS:
                    try:
                        entry = seat.roll(f"1d6+{i}")
                    except T.TableConflict:
                        conflicts[i] += 1
                        continue
                    acknowledged[names[i]].append(entry.seq)
        except Exception as err:  # noqa: BLE001 - any failure of a writer is shown by the assertion below
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=900)
    assert not errors, errors
    with T.open_store(where, create=False) as store:
        final = store.load("game")
    joins = 1 + WRITERS
    assert final.version == joins + WRITERS * STEPS == len(final.log)
    assert [e.seq for e in final.log] == list(range(1, final.version + 1))
    every = sorted(seq for seqs in acknowledged.values() for seq in seqs)
    assert every == list(range(joins + 1, final.version + 1))  # each acknowledged once, none lost
    for i, name in enumerate(names):
        mine = [e for e in final.log if e.member == name and e.kind == "roll"]
        assert [e.seq for e in mine] == acknowledged[name] and all(e.expression == f"1d6+{i}" for e in mine)


CHILD = """
import sys
from diceengine import table as T
store = T.open_store(sys.argv[1], create=False)
seat = store.seat("game", sys.argv[2])
while True:
    entry = seat.roll("3d6")
    print(entry.seq, flush=True)
"""


def test_a_writer_killed_mid_stream_loses_no_acknowledged_roll(where):
    table, keys = seated("standard")
    with T.open_store(where) as store:
        store.create(table)
    child = subprocess.Popen([sys.executable, "-c", CHILD, where, keys["Kira"]], stdout=subprocess.PIPE, text=True,
                             cwd=ROOT)
    acknowledged = []
    try:
        assert child.stdout is not None
        for line in child.stdout:
            acknowledged.append(int(line))
            if len(acknowledged) == 40:
                break
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL and len(acknowledged) == 40
    with T.open_store(where, create=False) as reopened:
        after = reopened.load("game")
    rolls = {e.seq: e for e in after.log if e.kind == "roll"}
    assert set(acknowledged) <= set(rolls) and all(rolls[s].member == "Kira" for s in acknowledged)
    assert [e.seq for e in after.log] == list(range(1, after.version + 1))
    assert after.version >= acknowledged[-1]  # perhaps one more: committed, killed before it said so


def test_the_schema_is_alembics_and_matches_the_models(store):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from diceengine.table.schema import VERSION_TABLE, metadata

    assert store.schema_version() == "0002"
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
        assert compare_metadata(context, metadata) == []


def test_missing_corrupt_and_foreign_databases_are_refused_by_name(tmp_path):
    missing = tmp_path / "none.db"
    with pytest.raises(T.TableNotFound, match="none.db"):
        T.open_store(str(missing), create=False)
    assert not missing.exists()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(T.TableFormatError, match="not a table database"):
        T.open_store(str(garbage))
    assert garbage.read_bytes() == b"this is not a database at all" * 100
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    before = foreign.read_bytes()
    with pytest.raises(T.TableFormatError, match="invoices"):
        T.open_store(str(foreign))
    assert foreign.read_bytes() == before
    newer = tmp_path / "newer.db"
    T.open_store(str(newer)).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE dice_alembic_version SET version_num = '9999'")
    with pytest.raises(T.TableFormatError, match="9999"):
        T.open_store(str(newer))
    with pytest.raises(T.TableError):
        T.open_store("nosuchdriver://somewhere/db")


def test_a_corrupt_row_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "game.db"
    table, _ = seated("standard")
    with T.open_store(str(path)) as store:
        store.create(T.roll(table, "Kira", "1d6"))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE dice_steps SET entry = '{\"seq\": 1}' WHERE seq = 4")
    with T.open_store(str(path)) as store:
        with pytest.raises(T.TableFormatError, match="corrupt"):
            store.load("game")
        with pytest.raises(T.TableFormatError):
            store.update("game", lambda t: T.roll(t, "Kira", "1d6"))
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM dice_steps").fetchone() == (4,)
        conn.execute("DELETE FROM dice_steps WHERE seq = 2")
        conn.execute("UPDATE dice_steps SET entry = (SELECT entry FROM dice_steps WHERE seq = 1) WHERE seq = 4")
    with T.open_store(str(path)) as store, pytest.raises(T.TableFormatError):
        store.load("game")


def _open_and_report(where: str, start: Any, out: Any) -> None:
    start.wait()
    try:
        with T.open_store(where) as s:
            out.put(("ok", s.schema_version()))
    except Exception as err:  # noqa: BLE001 - reported to the test
        out.put(("error", f"{type(err).__name__}: {err}"))


def test_processes_opening_a_new_database_at_once_all_get_its_schema(where):
    """``dice serve --workers 2`` on a fresh database: every process builds or finds the schema, none fails."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_open_and_report, args=(where, start, out)) for _ in range(8)]
    for p in procs:
        p.start()
    start.set()
    answers = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(60)
    assert all(kind == "ok" for kind, _ in answers), answers
    assert len({version for _, version in answers}) == 1
