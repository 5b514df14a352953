"""Group commit (``diceengine.table.group_commit``) driven one group at a time, on a real SQLite file and on the
real PostgreSQL server: the group taken first without savepoints (PostgreSQL's way, forced on SQLite too) and taken
again with them when a step's SQL fails; the refusal its caller gets, in English and in French. Tests written
against mutants the group commit tests let through (issue 38); the messages are the catalogue's
(diceengine/locale)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

import sqlalchemy as sa

from diceengine import table as T
from diceengine.i18n import translate_error
from diceengine.table.group_commit import Committer, Request
from diceengine.table.schema import steps


def _statements(store: Any) -> list[str]:
    """The SQL statements the store's connections run from now on, as sent."""
    seen: list[str] = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda conn, cursor, sql, *rest: seen.append(sql))
    return seen


def _stray_step(store: Any, table_id: str, seq: int) -> None:
    """A row of the log under the step number ``table_id``'s next step takes: the database refuses that step's
    insert (the log's key)."""
    with store.engine.begin() as conn:
        conn.execute(sa.insert(steps).values(table_id=table_id, seq=seq, kind="roll", member="GM", secret=False,
                                             entry="{}"))


def test_a_group_without_savepoints_is_taken_again_with_them_when_a_steps_sql_fails(where):
    """PostgreSQL's way, on either database: the group is first taken without a savepoint a step; the database
    refusing one step's insert sends the group back to its start, taken again with a savepoint a step: the
    refused step alone is left out, its caller told the table moved on, the others stored."""
    with T.open_store(where) as store:
        for name in "abc":
            store.create(T.new_table(name, "standard", "GM", ["Kira"], seed=7)[0])
        version = store.load("b").version
        _stray_step(store, "b", version + 1)
        store.savepoints_always = False
        sent = _statements(store)
        group = [Request(name, lambda t: T.roll(t, "Kira", "1d6")) for name in "cba"]
        Committer(store).commit_group(group)
        c, b, a = group
        assert isinstance(a.result, T.Table) and a.error is None and a.result.version == version + 1
        assert isinstance(c.result, T.Table) and c.error is None
        assert b.result is None and isinstance(b.error, T.TableConflict)
        assert str(b.error) == f"the table 'b' moved on while this step was taken on version {version}: " \
                               "nothing was stored"
        assert translate_error(b.error, "fr").message == \
            f"la table 'b' a avancé pendant que cette étape était prise sur la version {version} : rien n'a été " \
            "enregistré"
        savepoints = [s for s in sent if s.upper().startswith("SAVEPOINT")]
        assert len(savepoints) == 3  # none the first time; one a step (a, b refused, c) the second time
    with T.open_store(where, create=False) as reopened:
        assert [reopened.load(name).version for name in "abc"] == [version + 1, version, version + 1]
        assert reopened.load("a").log[-1].member == "Kira" and reopened.load("c").log[-1].expression == "1d6"


def test_a_toll_that_refuses_leaves_its_step_untaken_and_the_next_steps_taken(tmp_path):
    """A request's toll (a token of the web service's bucket, taken in the group's transaction) that refuses: its
    step is not taken and its caller gets the toll's error; the group's other steps, before and after it, are."""
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        for name in "abc":
            store.create(T.new_table(name, "standard", "GM", ["Kira"], seed=7)[0])
        version = store.load("a").version
        empty = T.TableError("no token left")

        def refuse(conn: Any) -> None:
            raise empty

        tolls: list[str] = []
        group = [Request("a", lambda t: T.roll(t, "Kira", "1d6"), toll=lambda conn: tolls.append("a")),
                 Request("b", lambda t: T.roll(t, "Kira", "1d6"), toll=refuse),
                 Request("c", lambda t: T.roll(t, "Kira", "1d6"))]
        Committer(store).commit_group(group)
        a, b, c = group
        assert b.result is None and b.error is empty and tolls == ["a"]
        assert a.answer().version == c.answer().version == version + 1
    with T.open_store(str(tmp_path / "t.sqlite"), create=False) as reopened:
        assert [reopened.load(name).version for name in "abc"] == [version + 1, version, version + 1]


def test_a_step_committed_on_a_table_never_stored_is_not_found_naming_it(where):
    """A commit of steps on a table the database does not hold: the table is not found (not a conflict), the
    message naming it and the database, in English and French; nothing is stored."""
    with T.open_store(where) as store:
        table = T.roll(T.new_table("ghost", "standard", "GM", ["Kira"], provable=False)[0], "Kira", "1d6")
        with pytest.raises(T.TableNotFound) as info:
            store.commit(table, table.version - 1)
        assert info.value.message == f"no table named 'ghost' in {store.shown}"
        assert translate_error(info.value, "fr").message == f"pas de table nommée 'ghost' dans {store.shown}"
        assert store.ids() == []


def test_a_commit_the_database_refuses_tells_each_caller_its_first_line(tmp_path):
    """A group whose commit fails: each caller is told their step was not stored, with the first line of the
    database's own words (not SQLAlchemy's wrapping of them), in English and French."""
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        for name in "ab":
            store.create(T.new_table(name, "standard", "GM", ["Kira"], seed=7)[0])

        def fail(conn: Any) -> None:
            raise sa.exc.OperationalError("COMMIT", {}, Exception("disk I/O error\nmore about it"))

        sa.event.listen(store.engine, "commit", fail)
        group = [Request(name, lambda t: T.roll(t, "Kira", "1d6")) for name in "ab"]
        Committer(store).commit_group(group)
        for request, name in zip(group, "ab", strict=True):
            assert request.result is None
            assert str(request.error) == f"the step on the table '{name}' was not stored (disk I/O error)"
            assert translate_error(request.error, "fr").message == \
                f"l'étape sur la table '{name}' n'a pas été enregistrée (disk I/O error)"


def test_the_commit_thread_does_not_keep_the_process_alive(tmp_path):
    """The store's commit thread is a daemon: a program that ends without closing its store still ends."""
    import threading

    store = T.open_store(str(tmp_path / "t.sqlite"))
    try:
        store.create(T.new_table("a", "standard", "GM", ["Kira"], seed=7)[0])
        store.update("a", lambda t: T.roll(t, "Kira", "1d6"))
        threads = [t for t in threading.enumerate() if t.name == "dice-table-commit"]
        assert threads and all(t.daemon for t in threads)
    finally:
        store.close()


def test_an_in_memory_database_opens_without_being_created():
    """``sqlite:///:memory:`` names no file: opening it with ``create=False`` is not refused as a missing file."""
    with T.open_store("sqlite:///:memory:", create=False) as store:
        assert store.ids() == []


def test_sqlites_own_name_for_memory_is_a_database_in_memory(tmp_path, monkeypatch):
    """``:memory:`` as a path is SQLite's name for a database in memory (as ``sqlite3.connect`` reads it), not a file
    of that name in the current folder."""
    monkeypatch.chdir(tmp_path)
    with T.open_store(":memory:", create=False) as store:
        store.create(T.new_table("a", "standard", "GM", ["Kira"], seed=7)[0])
        assert store.ids() == ["a"]
    assert list(tmp_path.iterdir()) == []
