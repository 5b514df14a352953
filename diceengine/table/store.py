"""Where tables are kept: one small interface, :class:`TableStore`, and its SQL implementation.

:class:`SqlTableStore` keeps tables in a database through SQLAlchemy 2 (the ``table`` extra): a SQLite file by
default (embedded, nothing to start), PostgreSQL by URL (``postgresql://user@host/db``) for several server
processes sharing tables. Its schema is built and upgraded by the Alembic migrations shipped in
``diceengine/table/migrations``.

Every step is a savepoint of a transaction: the table's row moves from the version the step was taken on to
the next one (``UPDATE ... WHERE version = expected``) and the step's entry is inserted under its number. Two
writers of the same version: one commits, the other gets :class:`~diceengine.table.errors.TableConflict` and
stores nothing; the log's key (table, step number) refuses a doubled step. The steps waiting at the same moment
share one transaction and one commit (:mod:`~diceengine.table.group_commit`); a step returned by
:meth:`TableStore.update` or :meth:`TableStore.commit` is committed (SQLite: write-ahead log,
``synchronous=FULL``: on the disk).

:class:`~diceengine.table.seat.Seat` is a member's handle on a stored table, by key.
"""

from __future__ import annotations

import os
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, Self

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy import event, exc

import diceengine.table.rules as rules  # noqa: PLR0402 - the module itself, not its package's re-exports
from diceengine.i18n import N_

from .errors import TableConflict, TableError, TableFormatError, TableNotFound
from .group_commit import Committer, Request
from .model import FORMAT, Entry, Table, check_table_id, marked
from .notices import CHANNEL, payload
from .schema import VERSION_TABLE, steps, tables
from .seat import Seat

#: the PostgreSQL advisory lock held while the schema is checked or built (a number of this store's own)
SCHEMA_LOCK = 0x64696365


__all__ = ["Seat", "SqlTableStore", "TableStore", "open_store"]

_LOAD = sa.select(tables.c.version, tables.c.format, tables.c.state).where(tables.c.id == sa.bindparam("tid"))
_STEPS = sa.select(steps.c.entry).where(steps.c.table_id == sa.bindparam("tid"), steps.c.seq > sa.bindparam("start"),
                                        steps.c.seq <= sa.bindparam("stop")).order_by(steps.c.seq)
_MOVE = sa.update(tables).where(tables.c.id == sa.bindparam("tid"), tables.c.version == sa.bindparam("expected")) \
    .values(version=sa.bindparam("new"), state=sa.bindparam("new_state"))
_VERSIONS = sa.select(tables.c.id, tables.c.version).where(tables.c.id.in_(sa.bindparam("ids", expanding=True)))
#: ids per query of the versions
_CHUNK = 500
_INSERT_ONE = sa.insert(steps).values({c.name: sa.bindparam(c.name) for c in steps.c})
#: PostgreSQL: a step of one entry in one statement (its own transaction): the table's row moved on, the entry
#: added only then, and announced only once added (one round trip instead of five)
_MOVED = _MOVE.returning(tables.c.id).cte("moved")
_ADDED = sa.insert(steps).from_select(
    ["table_id", "seq", "kind", "member", "secret", "entry"],
    sa.select(_MOVED.c.id, sa.bindparam("seq", type_=sa.Integer), sa.bindparam("kind", type_=sa.String),
              sa.bindparam("member", type_=sa.String), sa.bindparam("secret", type_=sa.Boolean),
              sa.bindparam("entry", type_=sa.Text))).returning(steps.c.seq).cte("added")
_ONE_STEP = sa.select(sa.func.pg_notify(sa.bindparam("channel", type_=sa.Text),
                                        sa.bindparam("payload", type_=sa.Text))).select_from(_ADDED)
_NOTIFY = sa.select(sa.func.pg_notify(sa.bindparam("channel", type_=sa.Text), sa.bindparam("payload", type_=sa.Text)))

_jitter = random.Random()

#: how long a writer waits for another's transaction on SQLite before giving up (milliseconds)
BUSY_TIMEOUT_MS = 30_000


class TableStore(ABC):
    """Tables kept somewhere, by id. A step is :meth:`load`, a rule of :mod:`diceengine.table.rules`, then
    :meth:`commit` of the new table against the version it was loaded at (:meth:`update` does all three)."""

    @abstractmethod
    def create(self, table: Table) -> Table:
        """Store a new table (its log as it is); an id already taken is the engine's error."""

    @abstractmethod
    def load(self, table_id: str) -> Table:
        """The table as last committed (:class:`~diceengine.table.errors.TableNotFound` when there is none)."""

    @abstractmethod
    def commit(self, table: Table, expected: int) -> Table:
        """Store ``table``, taken on the stored version ``expected``: its steps after ``expected`` join the log.
        Another writer's step stored since: :class:`~diceengine.table.errors.TableConflict`, nothing stored."""

    @abstractmethod
    def ids(self) -> list[str]:
        """The ids of the stored tables."""

    def close(self) -> None:
        """Release the store's connections."""

    def cached(self, table_id: str) -> Table | None:
        """The table as this store last read or committed it, if it keeps it (it may have moved on since)."""
        return None

    def moved_on(self, table_id: str, version: int, entries: Sequence[Entry] = ()) -> None:
        """A notice that another writer stored the table at ``version`` (with the step's ``entries``, when the
        notice carried them): a remembered older table is no longer taken for the latest, unless the step
        follows on from it and holds only rolls, which change nothing but the log and the version: then the
        remembered table takes them."""

    def update(self, table_id: str, step: Callable[[Table], Table], retries: int = 0) -> Table:
        """Load the table, take ``step`` on it and commit the result; on a conflict, take the step again on the
        newer table up to ``retries`` times (for steps that still make sense then, such as a roll), after a
        short random pause that grows with each try (writers that collided do not collide again in step), else
        raise it. The first step is taken on the :meth:`cached` table when there is one, with nothing read:
        the commit refuses it if another writer moved the table since, and it is taken again on the stored
        table (that try not counted among the ``retries``)."""
        table = self.cached(table_id)
        remembered, attempt = table is not None, 0
        while True:
            if table is None:
                table = self.load(table_id)
            try:
                return self.commit(step(table), table.version)
            except TableConflict:
                if not remembered:
                    if attempt == retries:
                        raise
                    attempt += 1
                    time.sleep(_jitter.uniform(0, 0.002 * min(attempt, 10)))
            table, remembered = None, False

    def seat(self, table_id: str, key: str, retries: int = 0) -> Seat:
        """The handle of the member whose key is ``key`` on the table ``table_id``."""
        return Seat(self, table_id, key, retries)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _url(where: str) -> str:
    """A database URL: a path is a SQLite file (``:memory:``, SQLite's own name, a database in memory);
    ``postgresql://`` is read with psycopg 3."""
    if where == ":memory:":
        return "sqlite:///:memory:"
    if "://" not in where:
        return "sqlite:///" + os.path.abspath(where)
    if where.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + where.split("://", 1)[1]
    return where


def _shown(url: str) -> str:
    """A URL as an error shows it: without its password."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return url


class SqlTableStore(TableStore):
    """Tables in a SQL database: ``where`` is a SQLite file's path or a database URL. ``create``: build the
    schema in a new (empty) database; otherwise a missing file is the engine's error. A file or database
    that is not a table store (another application's, a corrupt file, a newer schema) is refused, by name."""

    def __init__(self, where: str, create: bool = True, sync: str = "full", echo: bool = False) -> None:
        if sync not in ("full", "normal"):
            raise TableError(N_("sync is 'full' or 'normal', not {sync}"), sync=repr(sync))
        self.sync = sync
        self.url = _url(where)
        self.shown = _shown(self.url)
        self._cache: dict[str, Table] = {}
        self._newer: dict[str, int] = {}
        sqlite = self._sqlite = self.url.startswith("sqlite")
        options: dict[str, Any] = {}
        if sqlite:
            path = sa.engine.make_url(self.url).database
            if path and path != ":memory:" and not create and not os.path.exists(path):
                raise TableNotFound(N_("no table database at {where}"), where=path)
            if not path or path == ":memory:":  # one database in memory, whichever thread commits
                options = {"poolclass": sa.pool.StaticPool, "connect_args": {"check_same_thread": False}}
        try:
            self.engine = sa.create_engine(self.url, echo=echo, **options)
        except (exc.ArgumentError, exc.NoSuchModuleError, ImportError) as err:
            raise TableError(N_("cannot open the table database {where}: {reason}"), where=self.shown,
                             reason=str(err)) from None
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas(sync))
        try:
            self._schema(sqlite)
            if sqlite:  # a write-ahead log (kept by the file), set once the file is known to be a table store's
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA journal_mode = WAL")
        except exc.DBAPIError as err:
            self.engine.dispose()
            raise TableFormatError(N_("{where} is not a table database ({reason})"), where=self.shown,
                                   reason=_reason(err)) from None
        except BaseException:
            self.engine.dispose()
            raise
        self._notify = self.engine.dialect.name == "postgresql"
        self.savepoints_always = sqlite  # a savepoint a step costs nothing on SQLite, two round trips on PostgreSQL
        self._move, self._insert, self._announce = (_Prepared(stmt, self.engine.dialect)
                                                    for stmt in (_MOVE, _INSERT_ONE, _NOTIFY))
        if self._notify:
            self._one_step = _Prepared(_ONE_STEP, self.engine.dialect)
        self._committer = Committer(self)

    # ---- the schema

    def _alembic(self) -> Any:
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(resources.files("diceengine.table") / "migrations"))
        return config

    def _schema(self, sqlite: bool) -> None:
        from alembic import command
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        config = self._alembic()
        script = ScriptDirectory.from_config(config)
        head = script.get_current_head()
        known = {rev.revision for rev in script.walk_revisions()}
        with self.engine.begin() as conn:
            # processes opening a new database at once (dice serve --workers 2): one builds the schema while the
            # others wait, then find it built
            if sqlite:  # the whole file, until this transaction ends (its DDL included)
                conn.exec_driver_sql("BEGIN EXCLUSIVE")
            else:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
            current = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()
            names = set(sa.inspect(conn).get_table_names())
            if current is None:
                ours = {"dice_tables", "dice_steps"} & names
                if ours or (sqlite and names):
                    raise TableFormatError(N_("{where} is not a table database ({reason})"), where=self.shown,
                                           reason="tables " + ", ".join(sorted(names)) + " without a schema version")
            elif current not in known:
                raise TableFormatError(N_("{where} holds tables of schema {found}, which this version does not "
                                          "know (it knows up to {head})"), where=self.shown, found=current, head=head)
            if current != head:
                config.attributes["connection"] = conn
                command.upgrade(config, "head")

    def schema_version(self) -> str | None:
        """The Alembic revision of the database's schema."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()

    # ---- the interface

    def create(self, table: Table) -> Table:
        rules.check_log(table.log, table.version)
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.insert(tables).values(id=table.id, system=table.system, version=table.version,
                                                      format=FORMAT, state=_state_json(table)))
                if table.log:
                    conn.execute(sa.insert(steps), _rows(table, table.log))
        except exc.IntegrityError:
            raise TableError(N_("there is already a table named {name} in {where}"), name=repr(table.id),
                             where=self.shown) from None
        self._remember(table)
        return table

    def load(self, table_id: str) -> Table:
        check_table_id(table_id)  # refused alike on every database (PostgreSQL raises on a NUL)
        with self.engine.connect() as conn:
            table = self.read_in(conn, table_id)
        self._remember(table, read=True)
        return table

    def read_in(self, conn: Any, table_id: str) -> Table:
        """The table as ``conn`` reads it (in its transaction, when one is open); only the steps after the
        remembered table are read, when it is remembered."""
        row = conn.execute(_LOAD, {"tid": table_id}).first()
        if row is None:
            raise TableNotFound(N_("no table named {name} in {where}"), name=repr(table_id), where=self.shown)
        cached = self._cache.get(table_id)
        if cached is not None and cached.version == row.version:
            return cached
        start = cached.version if cached is not None and cached.version < row.version else 0
        head, new = self._decoded(conn, row, table_id, start)
        log = (*(cached.log if cached is not None and start else ()), *new)
        rules.check_log(log, row.version)
        if head.version != row.version:
            raise TableFormatError(N_("the table {name} in {where} is corrupt ({reason})"), name=repr(table_id),
                                   where=self.shown, reason=f"version {head.version} in a row of version {row.version}")
        return head.model_copy(update={"log": marked(log)})

    def _decoded(self, conn: Any, row: Any, table_id: str, after: int) -> tuple[Table, list[Entry]]:
        """The table's state as its ``row`` stores it (without its log) and its steps after ``after``, read on
        ``conn``; a row of another format, or one that does not parse, is refused by name."""
        texts = [] if row.version <= after else [r.entry for r in conn.execute(
            _STEPS, {"tid": table_id, "start": after, "stop": row.version})]
        if row.format != FORMAT:
            raise TableFormatError(N_("a table's log of format {found}; this version reads format {format}"),
                                   found=repr(row.format), format=FORMAT)
        try:
            return Table.model_validate_json(row.state), [Entry.model_validate_json(text) for text in texts]
        except ValidationError as err:
            raise TableFormatError(N_("the table {name} in {where} is corrupt ({reason})"), name=repr(table_id),
                                   where=self.shown, reason=str(err.errors()[0]["msg"])) from None

    def since(self, table_id: str, after: int) -> tuple[Table, list[Entry]] | None:
        """The table's state as stored (without its log) and its steps after ``after`` (``None``: it is gone):
        one reading of the new steps only, whatever the length of the log."""
        with self.engine.connect() as conn:
            row = conn.execute(_LOAD, {"tid": table_id}).first()
            return None if row is None else self._decoded(conn, row, table_id, after)

    def versions(self, ids: Sequence[str]) -> dict[str, int]:
        """The stored versions of the tables ``ids`` (those that are gone are left out)."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(ids), _CHUNK):
                found.update({row.id: int(row.version) for row in conn.execute(_VERSIONS, {"ids": ids[i:i + _CHUNK]})})
        return found

    def update(self, table_id: str, step: Callable[[Table], Table], retries: int = 0,
               toll: Callable[[Any], None] | None = None) -> Table:
        """:meth:`TableStore.update` in the next group commit (:mod:`~diceengine.table.group_commit`): the step
        is taken on the table as the group's transaction finds it, after the group's earlier steps on it; a
        conflict can only come from another process (then it is taken again, up to ``retries`` times).
        ``toll(conn)``: called first in the group's transaction (:class:`~diceengine.table.group_commit.Request`)."""
        check_table_id(table_id)
        return self._committer.submit(Request(table_id, step, retries, toll=toll))

    def commit(self, table: Table, expected: int) -> Table:
        if not _following(table, expected):
            return table
        return self._committer.submit(Request(table.id, table=table, expected=expected))

    def waiting(self) -> int:
        """How many steps wait for the next group commit."""
        return self._committer.waiting()

    # ---- the group commit's parts (diceengine.table.group_commit.Writer)

    def begin_group(self, conn: Any) -> None:
        if self._sqlite:  # the write lock at once: what the group reads stays the latest until it commits
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    def write_in(self, conn: Any, table: Table, expected: int) -> None:
        new = _following(table, expected)
        if not new:
            return
        moved = {"tid": table.id, "expected": expected, "new": table.version, "new_state": _state_json(table)}
        rows = _rows(table, new)
        if self._notify and len(rows) == 1:  # PostgreSQL: one statement
            notice = {"channel": CHANNEL, "payload": payload(table.id, table.version, new, [rows[0]["entry"]])}
            if not self._one_step(conn, {**moved, **rows[0], **notice}).fetchall():
                self._refuse(conn, table, expected)
            return
        if self._move(conn, moved).rowcount != 1:
            self._refuse(conn, table, expected)
        for row in rows:
            self._insert(conn, row)
        if self._notify:  # delivered once the transaction is committed (diceengine.table.notices)
            self._announce(conn, {"channel": CHANNEL, "payload": payload(
                table.id, table.version, new, [row["entry"] for row in rows])})

    def refusal(self, table_id: str, expected: int, err: Exception) -> BaseException:
        if isinstance(err, exc.IntegrityError):  # the log's key: a step of that number is stored already
            return TableConflict(N_("the table {name} moved on while this step was taken on version {expected}: "
                                    "nothing was stored"), name=repr(table_id), expected=expected)
        if isinstance(err, exc.OperationalError):  # SQLite still locked after the busy timeout, a lost connection
            return self.not_stored(table_id, _reason(err))
        return err

    def not_stored(self, table_id: str, reason: str) -> TableError:
        return TableConflict(N_("the step on the table {name} was not stored ({reason})"), name=repr(table_id),
                             reason=reason)

    def committed(self, table: Table) -> None:
        self._remember(table)

    def _refuse(self, conn: Any, table: Table, expected: int) -> None:
        """The table did not move from ``expected``: gone, or moved on by another writer."""
        stored = conn.execute(sa.select(tables.c.version).where(tables.c.id == table.id)).scalar()
        if stored is None:
            raise TableNotFound(N_("no table named {name} in {where}"), name=repr(table.id), where=self.shown)
        raise TableConflict(N_("the table {name} moved on to version {stored} while this step was taken on "
                               "version {expected}: nothing was stored"),
                            name=repr(table.id), stored=stored, expected=expected)

    def cached(self, table_id: str) -> Table | None:
        table = self._cache.get(table_id)
        if table is not None and self._newer.get(table_id, 0) > table.version:
            return None
        return table

    def moved_on(self, table_id: str, version: int, entries: Sequence[Entry] = ()) -> None:
        table = self._cache.get(table_id)
        if table is None or version <= table.version:
            return
        if entries and table.version + len(entries) == version \
                and all(e.kind == "roll" and e.reroll_of is None and e.seq == table.version + i
                        for i, e in enumerate(entries, 1)):
            self._remember(table.model_copy(update={"version": version, "log": (*table.log, *entries)}))
        else:
            self._newer[table_id] = version

    def _remember(self, table: Table, read: bool = False) -> None:
        """Keep ``table`` as the latest known; one ``read`` from the database is, else a newer one kept already
        (another thread's) stays."""
        held = self._cache.get(table.id)
        if not read and held is not None and held.version > table.version:
            return
        self._cache[table.id] = table
        if self._newer.get(table.id, -1) <= table.version:
            self._newer.pop(table.id, None)

    def ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(sa.select(tables.c.id).order_by(tables.c.id))]

    def close(self) -> None:
        self._committer.close()
        self.engine.dispose()


class _Prepared:
    """A statement of a step's commit, compiled once for the store's dialect and run on the driver with its
    parameters by name (a step's commit runs three: SQLAlchemy's per-execution work, its cache key and
    parameter processing, was a fifth of a server's time under the table load run)."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.order = tuple(compiled.positiontup) if compiled.positional else None

    def __call__(self, conn: Any, params: dict[str, Any]) -> Any:
        if self.order is not None:
            return conn.exec_driver_sql(self.sql, tuple(params[name] for name in self.order))
        return conn.exec_driver_sql(self.sql, params)


def _sqlite_pragmas(sync: str) -> Callable[[Any, Any], None]:
    def pragmas(dbapi_connection: Any, record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # full: a commit returned is on the disk (fsync); normal: in the operating system's hands, which
        # outlives a killed process but not a power cut
        cursor.execute(f"PRAGMA synchronous = {sync.upper()}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    return pragmas


def _following(table: Table, expected: int) -> tuple[Entry, ...]:
    """The steps of ``table`` after version ``expected``, checked to follow on from it."""
    new = table.log[expected:]
    if table.version != expected + len(new) or any(e.seq != expected + i for i, e in enumerate(new, 1)):
        raise TableError(N_("a table of version {version} does not follow version {expected}"),
                         version=table.version, expected=expected)
    return new


def _reason(err: exc.DBAPIError) -> str:
    """The first line of the database's own message."""
    return str(err.orig).splitlines()[0] if err.orig else str(err)


def _state_json(table: Table) -> str:
    return table.model_dump_json(exclude={"log"} | table.unstored())


def _rows(table: Table, entries: Sequence[Entry]) -> list[dict[str, Any]]:
    return [{"table_id": table.id, "seq": e.seq, "kind": e.kind, "member": e.member, "secret": e.secret,
             "entry": e.model_dump_json(exclude={"rerolled_by", "undone_by"})} for e in entries]


def open_store(where: str, create: bool = True) -> SqlTableStore:
    """The store at ``where``: a SQLite file's path or a database URL (PostgreSQL: ``postgresql://...``)."""
    return SqlTableStore(where, create=create)
