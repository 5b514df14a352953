"""Group commit (``diceengine.table.group_commit``), on a real SQLite file and on the real PostgreSQL server: the
steps waiting at the same moment share one commit (counted with SQLAlchemy's events), a step that fails in a
group (its rule, its reading, its writing refused by the database, a stale version) leaves the others stored,
and a commit that fails stores none of its group and tells each of its callers so (none was answered before
it).

Nothing here is timed: a step held in the store's thread (a rule that waits for the others to queue) makes the
groups; a wait has a deadline only so that a broken store fails instead of hanging. A real server killed right
after its answers is in ``tests/test_table_group_commit_kill.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import sqlalchemy as sa

from diceengine import table as T
from diceengine.i18n import translate_error
from diceengine.table.schema import steps

#: how long a test waits for what must happen before it calls the store broken (never reached when it works)
PATIENCE = 120.0
PLAYERS = [f"p{i}" for i in range(6)]


def _until(condition: Callable[[], bool]) -> None:
    done = threading.Event()
    for _ in range(int(PATIENCE / 0.01)):
        if condition():
            return
        done.wait(0.01)
    raise AssertionError("the store's thread never got there")


def _tables(store: Any, *names: str) -> dict[str, dict[str, str]]:
    """New tables ``names``, each with a game master and six players: their keys."""
    keys = {}
    for name in names:
        table, keys[name] = T.new_table(name, "standard", "GM", PLAYERS, seed=7)
        store.create(table)
    return keys


class Callers:
    """Threads each handing one step to the store, one after the other, while the store's thread is held in a
    first group (:meth:`first`): the steps they hand wait together, in the order they were added, and make the
    next group once :meth:`release` lets the first one go. ``results[i]``: the answer or the error of caller i
    (-1: the held step's); ``answered``: the callers answered so far, in order."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.started, self.released = threading.Event(), threading.Event()
        self.threads: list[threading.Thread] = []
        self.results: dict[int, Any] = {}
        self.answered: list[int] = []

    def first(self, table_id: str) -> None:
        """The first group: one step on ``table_id``, held in the store's thread until :meth:`release`."""
        def held(table: T.Table) -> T.Table:
            self.started.set()
            assert self.released.wait(PATIENCE)
            return T.roll(table, "GM", "1d4")

        self._start(-1, lambda: self.store.update(table_id, held))
        assert self.started.wait(PATIENCE)

    def add(self, call: Callable[[], Any]) -> None:
        """Another caller, once the one before waits in the store's queue."""
        self._start(len(self.threads) - 1, call)
        _until(lambda: self.store.waiting() == len(self.threads) - 1)

    def release(self) -> None:
        """Let the held step go, then wait for every caller's answer."""
        self.released.set()
        for thread in self.threads:
            thread.join(PATIENCE)
        assert not any(thread.is_alive() for thread in self.threads)

    def _start(self, i: int, call: Callable[[], Any]) -> None:
        def run() -> None:
            try:
                self.results[i] = call()
            except Exception as err:  # noqa: BLE001 - each caller's error is checked by the test
                self.results[i] = err
            self.answered.append(i)

        thread = threading.Thread(target=run)
        self.threads.append(thread)
        thread.start()


def _commits(store: Any) -> list[int]:
    """The commits of the store's connections, counted by SQLAlchemy's ``commit`` event (each number: how many
    callers had been answered when it began)."""
    counted: list[int] = []
    sa.event.listen(store.engine, "commit", lambda conn: counted.append(0))
    return counted


def test_steps_waiting_at_once_share_one_commit(where):
    with T.open_store(where) as store:
        keys = _tables(store, "a", "b", "c")
        commits = _commits(store)
        callers = Callers(store)
        callers.first("a")
        for i in range(12):  # 12 steps on three tables, by six players: by name, and by their seats
            name, member = "abc"[i % 3], PLAYERS[i % 6]
            if i % 2:
                callers.add(lambda name=name, member=member, i=i: store.update(
                    name, lambda t: T.roll(t, member, f"1d6+{i}")))
            else:
                seat = store.seat(name, keys[name][member])
                callers.add(lambda seat=seat, i=i: seat.roll(f"1d6+{i}"))
        callers.release()
        assert len(commits) == 2  # the held step's, then one for the twelve
        assert not any(isinstance(r, Exception) for r in callers.results.values()), callers.results
    with T.open_store(where, create=False) as reopened:
        logs = {name: reopened.load(name).log for name in "abc"}
    joins = 1 + len(PLAYERS)
    assert [e.expression for e in logs["a"][joins:]] == ["1d4", "1d6+0", "1d6+3", "1d6+6", "1d6+9"]
    assert [e.expression for e in logs["b"][joins:]] == ["1d6+1", "1d6+4", "1d6+7", "1d6+10"]
    assert [e.expression for e in logs["c"][joins:]] == ["1d6+2", "1d6+5", "1d6+8", "1d6+11"]
    for name in "abc":  # the steps of one table in the order they came, numbered without a gap
        assert [e.seq for e in logs[name]] == list(range(1, len(logs[name]) + 1))
        assert [e.member for e in logs[name][joins:] if e.expression != "1d4"] == \
            [PLAYERS[i % 6] for i in range(12) if "abc"[i % 3] == name]


def _plant_a_stray_step(database: str, table_id: str, seq: int) -> None:
    """A row of the log under the step number the table's next step takes: the database refuses that step's
    insert (the log's key), after its table's row moved."""
    engine = sa.create_engine(database if "://" in database else f"sqlite:///{database}")
    with engine.begin() as conn:
        conn.execute(sa.insert(steps).values(table_id=table_id, seq=seq, kind="roll", member="GM", secret=False,
                                             entry="{}"))
    engine.dispose()


def test_a_failing_step_in_a_group_leaves_the_others_stored(where):
    with T.open_store(where) as store:
        _tables(store, "a", "b", "c", "d")
        stale = store.load("d")
        store.update("d", lambda t: T.roll(t, "GM", "1d2"))  # "d" moves on: a commit of ``stale`` conflicts
        version_c = store.load("c").version
        _plant_a_stray_step(where, "c", version_c + 1)
        commits = _commits(store)
        callers = Callers(store)
        callers.first("a")

        def broken(table: T.Table) -> T.Table:
            raise ValueError("a rule with a bug")

        callers.add(lambda: store.update("a", lambda t: T.roll(t, "p0", "1d6")))
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "nobody", "1d6")))  # the table's refusal
        callers.add(lambda: store.update("c", lambda t: T.roll(t, "p1", "1d6")))  # the database's refusal
        callers.add(lambda: store.update("b", broken))
        callers.add(lambda: store.commit(T.roll(stale, "p2", "1d6"), stale.version))  # a stale version
        callers.add(lambda: store.update("b", lambda t: T.roll(t, "p3", "1d8")))
        callers.add(lambda: store.update("zzz", lambda t: T.roll(t, "p3", "1d8")))  # no such table
        callers.release()
        results = callers.results
        assert len(commits) == 2
        assert isinstance(results[0], T.Table) and isinstance(results[5], T.Table)
        assert isinstance(results[1], T.TableAccessError)
        assert isinstance(results[2], T.TableConflict)
        assert isinstance(results[3], ValueError)
        assert isinstance(results[4], T.TableConflict)
        assert isinstance(results[6], T.TableNotFound)
    with T.open_store(where, create=False) as reopened:
        a, b, c, d = (reopened.load(name) for name in "abcd")
    joins = 1 + len(PLAYERS)
    assert [(e.member, e.expression) for e in a.log[joins:]] == [("GM", "1d4"), ("p0", "1d6")]
    assert [(e.member, e.expression) for e in b.log[joins:]] == [("p3", "1d8")]
    assert c.version == version_c and len(c.log) == version_c  # its row moved back with its savepoint
    assert [(e.member, e.expression) for e in d.log[joins:]] == [("GM", "1d2")]


def test_a_commit_that_fails_stores_none_of_its_group_and_tells_each_caller(where):
    """Each caller is answered only once the commit of its group has returned: one answered before would be
    told its step was stored."""
    with T.open_store(where) as store:
        _tables(store, "a", "b")
        before = {name: store.load(name).version for name in "ab"}
        callers = Callers(store)
        commits: list[int] = []

        def fail_the_second(conn: Any) -> None:
            commits.append(1)
            if len(commits) == 2:
                raise sa.exc.OperationalError("COMMIT", {}, Exception("disk I/O error"))

        sa.event.listen(store.engine, "commit", fail_the_second)
        callers.first("a")
        for i in range(4):
            callers.add(lambda i=i: store.update("ab"[i % 2], lambda t: T.roll(t, PLAYERS[i], "1d6")))
        callers.release()
        assert isinstance(callers.results[-1], T.Table)
        for i in range(4):
            assert isinstance(callers.results[i], T.TableConflict), callers.results[i]
            assert "disk I/O error" in str(callers.results[i]) and "not stored" in str(callers.results[i])
        # what the store remembers is what was stored: the next steps follow on from it
        after = store.update("b", lambda t: T.roll(t, "p5", "1d20"))
        assert after.version == before["b"] + 1
    with T.open_store(where, create=False) as reopened:
        a, b = reopened.load("a"), reopened.load("b")
    assert a.version == before["a"] + 1 and a.log[-1].expression == "1d4"
    assert b.version == before["b"] + 1 and b.log[-1].expression == "1d20"


def test_a_step_that_finds_its_table_moved_on_is_taken_again_as_update_promises(where):
    """A step may raise :class:`TableConflict` itself (the table it was given is stale: a key given since by
    another process): it is taken again on the table as stored, ``retries`` times, as ``TableStore.update``
    does; nothing of a refused try is stored."""
    with T.open_store(where) as store:
        _tables(store, "a")
        tried: list[int] = []

        def stale_once(table: T.Table) -> T.Table:
            tried.append(table.version)
            if len(tried) == 1:
                raise T.TableConflict("the table moved on")
            return T.roll(table, "GM", "1d6")

        done = store.update("a", stale_once)  # the first try was on the remembered table: not a retry
        assert len(tried) == 2 and done.version == 1 + len(PLAYERS) + 1

        def always_stale(table: T.Table) -> T.Table:
            tried.append(table.version)
            raise T.TableConflict("the table moved on")

        tried.clear()
        with pytest.raises(T.TableConflict):
            store.update("a", always_stale, retries=2)
        assert len(tried) == 1 + 1 + 2  # remembered, read, two retries
    with T.open_store(where, create=False) as reopened:
        assert reopened.load("a").version == done.version


def test_a_step_that_takes_another_step_is_refused_not_left_waiting(where):
    with T.open_store(where) as store:
        _tables(store, "a")

        def nested(table: T.Table) -> T.Table:
            store.update("a", lambda t: T.roll(t, "GM", "1d6"))
            return table

        with pytest.raises(T.TableError, match="may not take another step while") as refused:
            store.update("a", nested)
        assert translate_error(refused.value, "fr").message == \
            "une étape sur la table 'a' ne peut pas en prendre une autre pendant qu'elle est prise"
        assert store.update("a", lambda t: T.roll(t, "GM", "1d6")).version == 1 + len(PLAYERS) + 1


def test_steps_waiting_when_the_store_closes_are_committed_and_later_ones_refused(where):
    store = T.open_store(where)
    _tables(store, "a")
    callers = Callers(store)
    callers.first("a")
    for i in range(3):
        callers.add(lambda i=i: store.update("a", lambda t: T.roll(t, PLAYERS[i], "1d6")))
    closing = threading.Thread(target=store.close)
    closing.start()
    _until(lambda: store.waiting() == 4)  # the three steps, then the end
    callers.release()
    closing.join(PATIENCE)
    assert all(isinstance(callers.results[i], T.Table) for i in range(-1, 3))
    with pytest.raises(T.TableConflict, match="the table database is closed") as refused:
        store.update("a", lambda t: T.roll(t, "GM", "1d6"))
    assert translate_error(refused.value, "fr").message == \
        "l'étape sur la table 'a' n'a pas été enregistrée : la base de tables est fermée"
    with T.open_store(where, create=False) as reopened:
        assert reopened.load("a").version == 1 + len(PLAYERS) + 4
