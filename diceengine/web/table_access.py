"""Who may call the table endpoints: the settings, the members' keys (``Authorization: Bearer KEY``), the
requests each key may make, and the refusals (401 / 403 / 404 / 409 / 429) in the engine's error shape, said
in the language the request asks for (``Accept-Language``) when the catalogues have it."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..errors import DiceError
from ..i18n import N_
from ..table import Table
from .ratelimit import TokenBucket

__all__ = ["Key", "Refused", "TableSettings", "TableState", "client_of", "key_bucket", "language_of", "public",
           "refusals", "refused_response"]


@dataclass
class TableSettings:
    """Where the tables are kept and how they are served: ``db`` a SQLite file's path or a database URL
    (``$DICE_TABLE_DB``, default ``dice-tables.sqlite`` in the working directory); ``origins`` the browser
    origins allowed to call the API from elsewhere (``$DICE_CORS_ORIGINS``, comma-separated; none by
    default); each key's bucket holds ``burst`` requests and refills at ``rate`` a second. The live log of a
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
    rate: float = 20.0
    burst: float = 60.0
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


def language_of(request: Request) -> str:
    """The first language of the request's ``Accept-Language`` that has a catalogue, else English."""
    from ..i18n import accepted_language

    return accepted_language(request.headers.get("accept-language", ""))


def refused_response(request: Request, err: Refused) -> JSONResponse:
    """A refusal in the engine's error shape, in the request's language, with its headers."""
    from .answers import error_response

    response = error_response(err.status, err.kind, err.said_in(language_of(request)))
    response.headers.update(err.headers)
    return response


@contextmanager
def refusals() -> Iterator[None]:
    """The table's errors as HTTP refusals: 403 (a step the member may not take), 404, 409."""
    from ..table import TableAccessError, TableConflict, TableNotFound

    try:
        yield
    except TableAccessError as err:
        raise Refused(403, "forbidden", err.template, error=err) from None
    except TableNotFound as err:
        if "where" in err.params and "name" in err.params:  # where the tables are kept is the server's to know
            raise Refused(404, "not_found", N_("no table named {name}"), name=err.params["name"]) from None
        raise Refused(404, "not_found", err.template, error=err) from None
    except TableConflict as err:
        raise Refused(409, "conflict", err.template, error=err) from None


def public(table: Table) -> Table:
    """The table without its key hashes and without its seed (a seed would tell the dice to come)."""
    members = {n: m.model_copy(update={"key_hash": ""}) for n, m in table.members.items()}
    return table.model_copy(update={"members": members, "seed": None})


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

    The steps are taken by writer threads of their own (one on SQLite, which has one writer at a time;
    ``writers`` on PostgreSQL), the reads by ``readers`` threads: few threads touch the database, each keeps its
    connection, and a step back from the database does not queue for Python's lock behind dozens of others."""

    writers = 4
    readers = 4

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.buckets = TokenBucket(settings.rate, settings.burst)
        self.on_close: list[Callable[[], None]] = []
        self._store: Any = None
        self._lock = threading.Lock()
        self._writing = threading.Lock()
        self._tables_writing: dict[str, threading.Lock] = {}
        self._writes: Threads | None = None
        self._reads: Threads | None = None

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a writer thread."""
        if self._writes is None:
            store = await self.read(lambda: self.store)  # opened out of the event loop
            with self._lock:
                if self._writes is None:
                    sqlite = store.engine.dialect.name == "sqlite"
                    self._writes = Threads(1 if sqlite else self.writers, "dice-table-write")
        return await self._writes.run(functools.partial(fn, *args))

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a reader thread."""
        if self._reads is None:
            with self._lock:
                if self._reads is None:
                    self._reads = Threads(self.readers, "dice-table-read")
        return await self._reads.run(functools.partial(fn, *args))

    @property
    def store(self) -> Any:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    from ..table import SqlTableStore

                    self._store = SqlTableStore(self.settings.db, sync=self.settings.sync)
        return self._store

    @property
    def postgres(self) -> bool:
        """Whether the tables are on PostgreSQL (its notifications wake the live logs)."""
        return bool(self.store.engine.dialect.name == "postgresql")

    def writer(self, table_id: str) -> threading.Lock:
        """The lock a step on ``table_id`` is taken under in this process. SQLite: one for all the tables (the
        database has one writer at a time, and its own lock makes a waiting writer sleep for milliseconds);
        PostgreSQL: one per table (two steps on one table in one process would conflict and try again)."""
        if not self.postgres:
            return self._writing
        with self._lock:
            found = self._tables_writing.get(table_id)
            if found is None:
                if len(self._tables_writing) >= 10_000:
                    self._tables_writing.clear()  # at worst two steps of one table conflict: one tries again
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

    def limit(self, who: str) -> None:
        """A token from ``who``'s bucket, else 429."""
        if not self.buckets.take(who):
            raise Refused(429, "rate_limited", N_("too many requests for this key; slow down"),
                          {"Retry-After": str(max(1, round(1 / self.settings.rate)))})

    def seat(self, table_id: str, key: str) -> Any:
        """The member's seat, else 401 (a wrong key) or 404 (no such table)."""
        from ..table import Seat, TableAccessError

        with refusals():
            try:
                return Seat(self.store, table_id, key, retries=5)
            except TableAccessError as err:
                raise Refused(401, "unauthorized", err.template, error=err) from None


_bearer = HTTPBearer(auto_error=False, description="a member's key: the game master's or a player's")


def key_bucket(key: str) -> str:
    """The bucket of a member's key (its hash: the key itself is kept nowhere)."""
    return "key:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def client_of(request: Request) -> str:
    """The bucket of a request without a key: its client's address."""
    return "addr:" + (request.client.host if request.client else "?")


async def _key_of(request: Request,
                  creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str:
    """The member's key from ``Authorization: Bearer KEY``, a token taken from its bucket; else 401 / 429. A
    request without a key is refused as such, at once (it touches nothing: no bucket, no database)."""
    tables: TableState = request.app.state.tables
    if creds is None or not creds.credentials:
        raise Refused(401, "unauthorized", N_("this request needs a member's key: Authorization: Bearer KEY"),
                      {"WWW-Authenticate": "Bearer"})
    tables.limit(key_bucket(creds.credentials))
    return creds.credentials


#: the member's key of a request (a dependency: 401 without one, 429 when its bucket is empty)
Key = Annotated[str, Depends(_key_of)]
