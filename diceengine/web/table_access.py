"""Who may call the table endpoints: the settings, the members' keys (``Authorization: Bearer KEY``), the
requests each key may make, and the refusals (401 / 403 / 404 / 409 / 429) in the engine's error shape, said
in the language the request asks for (``Accept-Language``) when the catalogues have it."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import os
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..errors import DiceError
from ..i18n import N_
from ..table import Table
from .ratelimit import SharedBuckets

T = TypeVar("T")

__all__ = ["NEW_BURST", "NEW_RATE", "Key", "Lang", "Refused", "TableSettings", "TableState", "client_of", "key_bucket",
           "public", "reading_language", "refusals", "refused_response"]


#: new tables and joins from one client address: a burst of ``NEW_BURST``, then ``NEW_RATE`` a second (a small
#: fraction of what one server writes: docs/web.md gives the measure)
NEW_RATE = 1.0
NEW_BURST = 10.0


def _number(name: str, default: float) -> float:
    """A positive number from the environment variable ``name``, else ``default``."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass
class TableSettings:
    """Where the tables are kept and how they are served: ``db`` a SQLite file's path or a database URL
    (``$DICE_TABLE_DB``, default ``dice-tables.sqlite`` in the working directory); ``origins`` the browser
    origins allowed to call the API from elsewhere (``$DICE_CORS_ORIGINS``, comma-separated; none by
    default); each key's bucket holds ``burst`` requests and refills at ``rate`` a second (``$DICE_KEY_BURST``,
    ``$DICE_KEY_RATE``), each client address's bucket of new tables and joins ``new_burst`` and ``new_rate``
    (``$DICE_NEW_BURST``, ``$DICE_NEW_RATE``), the buckets kept in the tables' database, shared by every server
    process on it (:class:`~diceengine.web.ratelimit.SharedBuckets`). The live log of a
    server process reads the versions of the tables its clients follow every ``poll_seconds`` (one query for
    all of them) on SQLite; on PostgreSQL it is woken by the database's notifications and reads the versions
    every ``recheck_seconds`` besides (a step stored by another program that sends none); each stream sends a
    comment every ``heartbeat_seconds``. ``sync`` (SQLite, ``$DICE_TABLE_SYNC``): ``full``, each step on the disk
    before it is answered (an ``fsync`` per step, the default); ``normal``, in the operating system's hands,
    which outlives a killed server but not a power cut, and takes many more steps a second. ``fast_path``: rolls
    answered before the framework's routing (:mod:`~diceengine.web.table_fastpath`; off, the documented route
    answers them, with the same answers)."""

    db: str = field(default_factory=lambda: os.environ.get("DICE_TABLE_DB", "dice-tables.sqlite"))
    origins: list[str] = field(default_factory=lambda: [o.strip() for o in os.environ.get(
        "DICE_CORS_ORIGINS", "").split(",") if o.strip()])
    rate: float = field(default_factory=lambda: _number("DICE_KEY_RATE", 20.0))
    burst: float = field(default_factory=lambda: _number("DICE_KEY_BURST", 60.0))
    new_rate: float = field(default_factory=lambda: _number("DICE_NEW_RATE", NEW_RATE))
    new_burst: float = field(default_factory=lambda: _number("DICE_NEW_BURST", NEW_BURST))
    poll_seconds: float = 0.05
    recheck_seconds: float = 1.0
    heartbeat_seconds: float = 15.0
    sync: str = field(default_factory=lambda: os.environ.get("DICE_TABLE_SYNC", "full"))
    fast_path: bool = True


class Refused(Exception):
    """A request refused with ``status`` and the engine's error shape: ``message`` a template of the
    catalogues filled from ``params``, or the table's own ``error``."""

    def __init__(self, status: int, kind: str, message: str, headers: dict[str, str] | None = None, *,
                 error: DiceError | None = None, **params: object) -> None:
        self.template, self.params, self.error = message, params, error
        self.message = error.message if error is not None else message.format(**params) if params else message
        super().__init__(self.message)
        self.status, self.kind, self.headers = status, kind, headers or {}

    def said_in(self, lang: str) -> str:
        """The message in ``lang`` (a catalogue's code)."""
        from ..i18n import gettext, translate_error

        if self.error is not None:
            return translate_error(self.error, lang).message
        return gettext(self.template, lang, **self.params)


def reading_language(accept_language: str | None) -> str | None:
    """The language a reader asks the log's texts in: the first of ``accept_language`` (an ``Accept-Language``
    header) that has a catalogue, else English; ``None`` without the header (the texts as the table stores them,
    in its own language)."""
    from ..i18n import accepted_language

    if accept_language is None or not accept_language.strip():
        return None
    return accepted_language(accept_language)


def _reader_language(request: Request) -> str | None:
    return reading_language(request.headers.get("accept-language"))


#: the language a request reads the log's texts in (:func:`reading_language`)
Lang = Annotated[str | None, Depends(_reader_language)]


def refused_response(request: Request, err: Refused) -> JSONResponse:
    """A refusal in the engine's error shape, in the request's language, with its headers."""
    from .answers import caller_language, error_response

    response = error_response(err.status, err.kind, err.said_in(caller_language(request)))
    response.headers.update(err.headers)
    return response


@contextmanager
def refusals() -> Iterator[None]:
    """The table's errors as HTTP refusals: 403 (a step the member may not take; a full table), 404, 409."""
    from ..table import TableAccessError, TableConflict, TableFull, TableNotFound

    try:
        yield
    except TableAccessError as err:
        raise Refused(403, "forbidden", err.template, error=err) from None
    except TableFull as err:
        raise Refused(403, "table_full", err.template, error=err) from None
    except TableNotFound as err:
        if "where" in err.params and "name" in err.params:  # where the tables are kept is the server's to know
            raise Refused(404, "not_found", N_("no table named {name}"), name=err.params["name"]) from None
        raise Refused(404, "not_found", err.template, error=err) from None
    except TableConflict as err:
        raise Refused(409, "conflict", err.template, error=err) from None


def public(table: Table) -> Table:
    """The table without its key hashes and without its seed or server seed (either would tell the dice to come)."""
    members = {n: m.model_copy(update={"key_hash": ""}) for n, m in table.members.items()}
    return table.model_copy(update={"members": members, "seed": None, "server_seed": None})


class Threads:
    """``count`` threads of their own taking calls from one queue, each call's result (or error) set on the
    asyncio future it was given for: a thread pool without a :class:`concurrent.futures.Future` per call or
    the idle threads' bookkeeping (the executor's hand-over was a tenth of a server's time under the table load
    run). A call whose future is cancelled before a thread takes it is not made."""

    def __init__(self, count: int, name: str) -> None:
        self._calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(count)]
        for thread in self._threads:
            thread.start()

    def run(self, fn: Callable[[], Any]) -> asyncio.Future[Any]:
        """``fn()`` in one of the threads, its result on the returned future (of the running loop)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._calls.put((loop, future, fn))
        return future

    def shutdown(self) -> None:
        """The threads end once the calls already queued are made."""
        for _ in self._threads:
            self._calls.put(None)

    def _work(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, future, fn = call
            if future.cancelled():
                continue
            try:
                result = fn()
            except BaseException as err:  # noqa: BLE001 - given to the awaiting request, as an executor does
                _hand(loop, future, None, err)
            else:
                _hand(loop, future, result, None)


def _hand(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: Any, err: BaseException | None) -> None:
    def settle() -> None:
        if future.cancelled():
            return
        if err is not None:
            future.set_exception(err)
        else:
            future.set_result(result)

    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


class TableState:
    """The store (opened at its first use), the buckets and the database's threads of one application;
    ``on_close`` are called when it closes.

    The steps are handed to the store by ``writers`` threads of their own, each waiting for its step's group
    commit (the store's own thread takes the steps waiting at the same moment in one transaction: as many
    waiting threads, as many steps can share one commit), the reads are made by ``readers`` threads: few threads
    touch the database, and a step back from the database does not queue for Python's lock behind dozens of
    others."""

    writers = 32
    readers = 4

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self._buckets: SharedBuckets | None = None
        self.on_close: list[Callable[[], None]] = []
        self._store: Any = None
        self.failure: DiceError | None = None
        """why the store did not open, when it did not (for :meth:`ready`)"""
        self._lock = threading.Lock()
        self._tables_writing: dict[str, threading.Lock] = {}
        self._writes: Threads | None = None
        self._reads: Threads | None = None

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a writer thread."""
        if self._writes is None:
            await self.read(lambda: self.store)  # opened out of the event loop
            with self._lock:
                if self._writes is None:
                    self._writes = Threads(self.writers, "dice-table-write")
        return await self._writes.run(functools.partial(fn, *args))

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a reader thread."""
        if self._reads is None:
            with self._lock:
                if self._reads is None:
                    self._reads = Threads(self.readers, "dice-table-read")
        return await self._reads.run(functools.partial(fn, *args))

    def open(self) -> None:
        """Open the store before the first request (its schema built or upgraded: the migrations run at start)
        and take the table's code path once in memory; a store that cannot open is logged, and the readiness
        route says so (each table request then answers its error)."""
        from ..table import rules as R

        try:
            self.buckets  # noqa: B018 - the store and its buckets opened: the schema built or upgraded
        except Refused:
            pass  # logged by :meth:`store`
        R.view(R.new_table("warm-up", "standard", "gm")[0], "gm")

    def ready(self) -> str | None:
        """``None`` when the tables' database answers, else why not (:func:`open` first)."""
        try:
            with self.store.engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
        except Exception as err:  # noqa: BLE001 - any failure is a reason not to be ready
            # the reason, never where the database is (the server's to know)
            if isinstance(err, Refused) and self.failure is not None:
                err = self.failure
            reason = err.params.get("reason") if isinstance(err, DiceError) else None
            return _without_address(str(reason), self.settings.db) if reason else type(err).__name__
        return None

    @property
    def store(self) -> Any:
        """The tables' store, opened at its first use; one that cannot be opened is 503 ``unavailable``, which
        does not say where the database is (the server's log does), and is tried again by the next request."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = self._opened()
        return self._store

    def _opened(self) -> Any:
        from ..table import SqlTableStore

        try:
            return SqlTableStore(self.settings.db, sync=self.settings.sync)
        except DiceError as err:
            self.failure = err
            logging.getLogger("diceengine.web.tables").error("the tables' database did not open: %s", err.message)
            raise Refused(503, "unavailable", N_("the tables' database cannot be opened; the server's log says why"),
                          {"Retry-After": "5"}) from None

    @property
    def sqlite(self) -> bool:
        """Whether the tables are in a SQLite file (one writer at a time: the steps' tokens go with their commit)."""
        return bool(self.store.engine.dialect.name == "sqlite")

    @property
    def postgres(self) -> bool:
        """Whether the tables are on PostgreSQL (its notifications wake the live logs)."""
        return bool(self.store.engine.dialect.name == "postgresql")

    def writer(self, table_id: str) -> threading.Lock:
        """The lock a step on ``table_id`` is taken under in this process: one per table (a table's steps wait
        for each other; the store commits the steps of different tables together)."""
        with self._lock:
            found = self._tables_writing.get(table_id)
            if found is None:
                if len(self._tables_writing) >= 10_000:
                    self._tables_writing.clear()  # at worst two steps of one table share a group commit
                found = self._tables_writing[table_id] = threading.Lock()
            return found

    def close(self) -> None:
        for close in self.on_close:
            close()
        for pool in (self._writes, self._reads):
            if pool is not None:
                pool.shutdown()
        self._writes = self._reads = None
        if self._store is not None:
            self._store.close()
        if self._buckets is not None:
            self._buckets.close()
            self._buckets = None

    @property
    def buckets(self) -> SharedBuckets:
        """The requests' buckets, in the tables' database (opened with the store)."""
        if self._buckets is None:
            store = self.store
            with self._lock:
                if self._buckets is None:
                    s = self.settings
                    self._buckets = SharedBuckets(_buckets_engine(store.url), s.rate, s.burst,
                                                  idle=max(s.burst / s.rate, s.new_burst / s.new_rate))
        return self._buckets

    def limit(self, who: str) -> None:
        """A token from the bucket of ``who`` (a key's, :func:`key_bucket`), else 429 (in a thread: it is a
        statement in the database)."""
        if not self.buckets.take(who):
            raise self._too_many()

    def toll(self, who: str) -> Callable[[Any], None] | None:
        """The token of a step from the bucket of ``who``: on SQLite, a toll taken in the step's group commit
        (:meth:`SharedBuckets.take_in`: no write transaction of its own to wait for the database's one lock
        between the group commits); elsewhere taken now (:meth:`limit`), and ``None``. Else 429."""
        if not self.sqlite:
            self.limit(who)
            return None
        buckets = self.buckets

        def toll(conn: Any) -> None:
            if not buckets.take_in(conn, who):
                raise self._too_many()

        return toll

    def _too_many(self) -> Refused:
        return Refused(429, "rate_limited", N_("too many requests for this key; slow down"),
                       {"Retry-After": str(max(1, round(1 / self.settings.rate)))})

    def limit_new(self, who: str) -> None:
        """A token from the bucket of new tables and joins of the client address ``who`` (:func:`client_of`),
        else 429 (in a thread)."""
        if not self.buckets.take("new:" + who, self.settings.new_rate, self.settings.new_burst):
            raise Refused(429, "rate_limited", N_("too many new tables and joins from this address; slow down"),
                          {"Retry-After": str(max(1, round(1 / self.settings.new_rate)))})

    async def seated(self, table_id: str, key: str, fn: Callable[[Any], T]) -> T:
        """``fn(seat)`` in a reader thread, ``seat`` the member's (:meth:`seat`), the table's errors as refusals."""
        def read() -> T:
            seat = self.seat(table_id, key)
            with refusals():
                return fn(seat)

        return await self.read(read)  # type: ignore[no-any-return]

    def seat(self, table_id: str, key: str) -> Any:
        """The member's seat (a token taken from the key's bucket), else 429, 401 (a wrong key) or 404 (no such
        table); in a thread."""
        from ..table import Seat, TableAccessError

        self.limit(key_bucket(key))
        with refusals():
            try:
                return Seat(self.store, table_id, key, retries=5)
            except TableAccessError as err:
                raise Refused(401, "unauthorized", err.template, error=err) from None


def _without_address(reason: str, where: str) -> str:
    """``reason`` (a database's error) when it holds nothing of the address ``where`` (a path, a URL's host,
    user, database), else its first clause if that holds none, else a word that says nothing of it."""
    import sqlalchemy as sa

    parts = {where, os.path.basename(where), os.path.dirname(where)}
    if "://" in where:
        try:
            url = sa.engine.make_url(where)
        except (sa.exc.ArgumentError, ValueError):  # not a URL SQLAlchemy reads: its words are the whole address
            url = None
        if url is not None:
            parts |= {url.host or "", url.username or "", url.database or ""}
    parts = {p for p in parts if len(p) > 1}
    for said in (reason, reason.partition(":")[0]):
        if not any(p in said for p in parts):
            return said
    return "unreachable"


_bearer = HTTPBearer(auto_error=False, description="a member's key: the game master's or a player's")


def key_bucket(key: str) -> str:
    """The bucket of a member's key (its hash: the key itself is kept nowhere)."""
    return "key:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def client_of(request: Request) -> str:
    """The bucket of a request without a key: its client's address."""
    return "addr:" + (request.client.host if request.client else "?")


async def _key_of(request: Request,
                  creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str:
    """The member's key from ``Authorization: Bearer KEY``; else 401 at once (a request without a key touches
    nothing: no bucket, no database) or 429. The key's own token is taken where the request is served
    (:meth:`TableState.seat`, a step), in the thread that reads or writes the database anyway."""
    if creds is None or not creds.credentials:
        raise Refused(401, "unauthorized", N_("this request needs a member's key: Authorization: Bearer KEY"),
                      {"WWW-Authenticate": "Bearer"})
    return creds.credentials


#: the member's key of a request (a dependency: 401 without one)
Key = Annotated[str, Depends(_key_of)]


def _buckets_engine(url: str) -> Any:
    """An engine of its own for the buckets, on the tables' database: a take is committed without waiting for the
    disk (SQLite ``synchronous=NORMAL``; PostgreSQL ``synchronous_commit off``)."""
    import sqlalchemy as sa

    from ..table.store import BUSY_TIMEOUT_MS

    engine = sa.create_engine(url)

    @sa.event.listens_for(engine, "connect")
    def unhurried(dbapi_connection: Any, record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA synchronous = NORMAL")
        elif engine.dialect.name == "postgresql":
            cursor.execute("SET synchronous_commit TO off")
            dbapi_connection.commit()
        cursor.close()

    return engine
