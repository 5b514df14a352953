"""Group commit: the steps waiting at the same moment share one durable commit.

A step that finds no group being committed is committed at once, in its caller's thread (:class:`Committer`).
The steps that arrive while a group is committed wait in a queue; the store's own thread then takes all of them
(up to :data:`MAX_GROUP`) in one transaction, and commits once: one ``fsync`` for the whole group. Each step has a savepoint of its own: a step that fails (its
rule, its reading, its writing refused by the database) is rolled back alone and its caller gets its error; the
others stay. On PostgreSQL, where a savepoint costs two round trips a step, a group is first taken without
them: a step refused by its rule or by a conflict wrote nothing, and only an error of the database (rare: a row
refused, a lost connection) sends the group back to its start, taken again with a savepoint a step. Each caller
is answered only once the group's commit has returned, that is once its step is on the disk; a commit that
fails stores none of the group, and each of its callers is told so.

The steps of one table in a group are taken in the order they arrived, each on the table as the step before it
left it; the group's tables are visited in the order of their ids, so that two processes committing groups on
one PostgreSQL database lock the rows they share in the same order (no deadlock between them).

The rules themselves are the store's (:class:`Writer`, which :class:`~diceengine.table.store.SqlTableStore` is):
how a table is read and a step written inside a transaction, what its transaction begins with.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy import exc

from diceengine.i18n import N_

from .errors import TableConflict, TableError
from .model import Table

__all__ = ["MAX_GROUP", "Committer", "Request", "Writer"]

#: the most steps committed together (a group's transaction stays short)
MAX_GROUP = 256


class Writer(Protocol):
    """What a :class:`Committer` needs of its store: a connection, and a step's reading and writing in it."""

    engine: Any
    savepoints_always: bool
    """whether each step has its savepoint from the start (SQLite: in the process, nearly free), or only when
    its group is taken again after a step's SQL failed (PostgreSQL: two round trips a step saved)"""

    def begin_group(self, conn: Any) -> None:
        """Begin the group's transaction on ``conn`` (SQLite: the database's write lock, taken at once)."""

    def read_in(self, conn: Any, table_id: str) -> Table:
        """The table as stored, read inside the group's transaction."""

    def cached(self, table_id: str) -> Table | None:
        """The table as last known, if the store keeps it."""

    def write_in(self, conn: Any, table: Table, expected: int) -> None:
        """Store ``table``'s steps after ``expected`` inside the group's transaction. Another writer's step
        stored since: :class:`~diceengine.table.errors.TableConflict`, raised before anything is written; any
        other error may come after a part of the step was written."""

    def refusal(self, table_id: str, expected: int, err: Exception) -> BaseException:
        """What the caller of a step that failed with ``err`` is told (the database's errors in the engine's)."""

    def committed(self, table: Table) -> None:
        """``table`` is on the disk: the store's memory of it follows."""

    def not_stored(self, table_id: str, reason: str) -> TableError:
        """The error of a step whose group's commit failed."""


class Request:
    """A step waiting for its group: ``step`` taken on the latest table ``table_id`` (``retries`` more times
    after a conflict with another process), or, without ``step``, ``table`` stored as taken on ``expected``.
    ``toll(conn)``: called once in the group's transaction before the step (outside its savepoint: what it
    writes stays when the step is refused), its error the step's (a request's token from its bucket, taken
    with the step's commit instead of a transaction of its own; it must not fail at the database where a failed
    statement spoils the transaction, so the web service gives one on SQLite only). Its caller waits on
    ``done``; then ``result`` is the committed table, or ``error`` says why there is none."""

    __slots__ = ("context", "done", "error", "expected", "result", "retries", "step", "table", "table_id", "toll")

    def __init__(self, table_id: str, step: Callable[[Table], Table] | None = None, retries: int = 0,
                 table: Table | None = None, expected: int = 0, toll: Callable[[Any], None] | None = None) -> None:
        self.table_id, self.step, self.retries, self.table, self.expected = table_id, step, retries, table, expected
        self.toll = toll
        self.context = contextvars.copy_context()  # the caller's: the step runs as if in the caller's thread
        self.done = threading.Event()
        self.result: Table | None = None
        self.error: BaseException | None = None

    def answer(self) -> Table:
        """Wait for the group's commit: the table as committed, or the step's error."""
        self.done.wait()
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class Committer:
    """Commits a store's steps by groups: a step that finds no group being committed is committed at once by
    its caller's thread, with whatever waits; the steps that come while a group is committed wait for the
    committer's own thread (started with the first step, ended by :meth:`close`), which takes them together."""

    def __init__(self, store: Writer) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[Request | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._committing = threading.Lock()
        """held by whoever commits a group (a caller or the thread)"""
        self._local = threading.local()
        self._thread: threading.Thread | None = None
        self._held = 0
        """steps the thread took from the queue and holds until the group being committed is done"""
        self._closed = False

    def waiting(self) -> int:
        """How many steps wait for the next group."""
        return self._queue.qsize() + self._held

    def submit(self, request: Request) -> Table:
        """Commit ``request`` (in this thread when no group is being committed, else with the next group) and
        wait for its group's commit: the committed table, else its error."""
        if getattr(self._local, "committing", False):  # a step taking a step: it would wait for itself
            raise TableError(N_("a step on the table {name} may not take another step while it is taken"),
                             name=repr(request.table_id))
        with self._lock:
            if self._closed:
                raise TableConflict(N_("the step on the table {name} was not stored: the table database is closed"),
                                    name=repr(request.table_id))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="dice-table-commit", daemon=True)
                self._thread.start()
            alone = self._committing.acquire(blocking=False)
            if not alone:  # queued before the end that :meth:`close` queues, so committed before the thread ends
                self._queue.put(request)
        if alone:  # nobody commits: this step at once, and what waits
            try:
                self._commit([*self._drain([]), request])
            finally:
                self._committing.release()
        return request.answer()

    def close(self) -> None:
        """Commit the steps already waiting, then end the thread."""
        with self._lock:
            self._closed = True
            thread = self._thread
            if thread is not None:
                self._queue.put(None)
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            self._held = 1
            with self._committing:
                group = self._drain([first])
                self._held = 0
                self._commit(group)

    def _drain(self, group: list[Request]) -> list[Request]:
        """``group`` and the steps waiting in the queue (up to :data:`MAX_GROUP` in all)."""
        try:
            while len(group) < MAX_GROUP:
                more = self._queue.get_nowait()
                if more is None:
                    self._queue.put(None)  # the end, once this group is committed
                    break
                group.append(more)
        except queue.Empty:
            pass
        return group

    def _commit(self, group: list[Request]) -> None:
        self._local.committing = True
        try:
            self.commit_group(group)
        finally:
            self._local.committing = False

    def commit_group(self, group: list[Request]) -> None:
        """Take every step of ``group`` in one transaction, commit it once, and answer each caller."""
        conn = self.store.engine.connect()
        order = sorted(group, key=lambda r: r.table_id)  # stable: a table's steps in the order they came
        try:
            try:
                self._attempt(conn, order, guarded=self.store.savepoints_always)
            except _Unguarded:  # a step's SQL failed without its savepoint: the group again, each step guarded
                conn.rollback()
                for request in group:
                    request.result = request.error = None
                self._attempt(conn, order, guarded=True)
            conn.commit()
        except BaseException as err:  # nothing of the group is stored: each caller is told
            conn.invalidate()  # its transaction in a state unknown (a failed COMMIT may leave it open): not reused
            reason = str(err.orig).splitlines()[0] if isinstance(err, exc.DBAPIError) and err.orig else str(err)
            for request in group:
                if request.error is None:
                    request.result, request.error = None, self.store.not_stored(request.table_id, reason)
            if not isinstance(err, Exception):
                raise
        else:
            for request in group:
                if request.result is not None:
                    self.store.committed(request.result)
        finally:
            conn.close()
            for request in group:
                request.done.set()

    def _attempt(self, conn: Any, order: list[Request], guarded: bool) -> None:
        self.store.begin_group(conn)
        working: dict[str, Table] = {}
        for request in order:
            if request.toll is not None:
                try:
                    request.context.run(request.toll, conn)
                except exc.DBAPIError as err:
                    if not guarded:
                        raise _Unguarded from err
                    request.error = self.store.refusal(request.table_id, 0, err)
                    continue
                except Exception as err:  # noqa: BLE001 - the toll refused: the step is not taken
                    request.error = err
                    continue
            self._take(conn, request, working, guarded)

    def _take(self, conn: Any, request: Request, working: dict[str, Table], guarded: bool) -> None:
        """``request``'s step in the group's transaction (``guarded``: in a savepoint of its own; otherwise an
        error of the database raises :class:`_Unguarded`): its table (the group's latest, else the store's
        memory, else read), the step, its writing. A conflict with another process's step takes it again on the
        table as stored (not counted among the retries when it was taken on the store's memory)."""
        table = None if request.step is None else working.get(request.table_id) or self.store.cached(request.table_id)
        remembered, conflicts = table is not None, 0
        while True:
            if guarded:
                conn.exec_driver_sql("SAVEPOINT step")
            try:
                try:
                    if request.step is None:
                        assert request.table is not None
                        new, expected = request.table, request.expected
                    else:
                        if table is None:
                            table = self.store.read_in(conn, request.table_id)
                        new, expected = request.context.run(request.step, table), table.version
                except (exc.DBAPIError, TableConflict):  # the step saw the table moved on: taken again, as below
                    raise
                except Exception as err:  # noqa: BLE001 - the step refused (its rule, no such table...): nothing written
                    raise _Refused(err) from None
                self.store.write_in(conn, new, expected)
            except TableConflict as err:  # raised before anything of the step was written (by the step itself too)
                _end(conn, guarded)
                if request.step is None or (not remembered and conflicts == request.retries):
                    request.error = err
                    return
                if not remembered:
                    conflicts += 1
                table, remembered = None, False
                continue
            except _Refused as refused:
                _end(conn, guarded)
                request.error = refused.err
                return
            except Exception as err:  # the database refused the step, or failed: the others go on
                if not guarded:
                    raise _Unguarded from err
                conn.exec_driver_sql("ROLLBACK TO SAVEPOINT step")
                _end(conn, guarded)
                request.error = self.store.refusal(request.table_id, expected, err)
                return
            _end(conn, guarded)
            working[request.table_id] = request.result = new
            return


class _Refused(Exception):
    """A step that refused before anything of it was written: its error is ``err``."""

    def __init__(self, err: Exception) -> None:
        super().__init__(err)
        self.err = err


class _Unguarded(Exception):
    """A step of a group taken without savepoints failed: the group is taken again, each step guarded."""


def _end(conn: Any, guarded: bool) -> None:
    if guarded:
        conn.exec_driver_sql("RELEASE SAVEPOINT step")
