"""The live log of the tables: one watcher per server process, whatever the number of clients.

A :class:`Hub` keeps, for each table some client of this process follows, the table as last read from the
database, and wakes that table's streams when it moves on. What tells it so:

- a step taken through this process: handed over as committed (:meth:`Hub.arrived`, at once, nothing read
  back from the database);
- on PostgreSQL, the database's notification (``NOTIFY dice_table_steps``, sent by the store in the step's own
  transaction, so once it is committed, with the step's entries when they fit: :mod:`~diceengine.table.
  notices`; one ``LISTEN`` connection per process), and a reading of the followed tables' versions every
  ``recheck_seconds`` (a notification lost with a connection);
- on SQLite, a reading of the followed tables' versions every ``poll_seconds``: one query for all of them.

The log is the source of truth: a step is taken from a notification only when it follows on from the steps
the hub holds, else the hub reads the table (the steps after the ones it holds); each stream sends the steps
after the last it sent, so nothing is missed or doubled whatever the process that stored a step, a
notification lost, or a client reconnecting with ``Last-Event-ID``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from ..i18n import N_
from ..table import Entry, Table
from ..table.notices import CHANNEL, entries, head
from .table_access import TableState

__all__ = ["Hub", "stream"]

#: events kept ready per followed table (the latest; an older one, for a client far behind, is made again)
_KEPT = 1000

log = logging.getLogger("diceengine.web.tables")


class _Watch:
    """A followed table: its state and its steps as last read, its streams' wake-up, its steps' events as sent."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.streams = 0
        self.table: Table | None = None
        """the table's version and members (their roles: what a reader may see); its log is not read"""
        self.steps: list[Entry] = []
        """the table's steps, read once each: the step ``n`` at ``n - 1``"""
        self.gone = False
        self.loading = False
        self.stale = False
        self.moved = asyncio.Event()
        self._events: dict[tuple[int, str | None], bytes] = {}

    @property
    def version(self) -> int:
        return -1 if self.table is None else self.table.version

    def take(self, read: tuple[Table, list[Entry]] | None) -> None:
        """A newer reading of the table (its state, its steps after those the watch holds): wake its streams."""
        if read is None:
            self.gone = True
            self.wake()
            return
        table, new = read
        if table.version > self.version and len(self.steps) + len(new) == table.version:
            self.table = table
            self.steps.extend(new)
            if len(self._events) > 2 * _KEPT:
                self._events = {k: v for k, v in self._events.items() if k[0] > table.version - _KEPT}
            self.wake()

    def wake(self) -> None:
        woken, self.moved = self.moved, asyncio.Event()
        woken.set()

    def event(self, entry: Entry, shown: Entry, lang: str | None = None) -> bytes:
        """The server-sent event of the step ``entry`` as a reader sees it (``shown``), its roll's text in ``lang``
        (:func:`~diceengine.table.rolls.in_language`): made once for all the readers who see the step itself in
        one language; a step shown otherwise (a secret roll to a player) made for each."""
        from ..table.rolls import in_language, stored_language

        stored = self.table.lang if self.table is not None else None
        if shown is not entry:
            return _event(in_language(shown, lang, stored))
        if lang == stored_language(stored):
            lang = None
        found = self._events.get((entry.seq, lang))
        if found is None:
            found = self._events[(entry.seq, lang)] = _event(in_language(entry, lang, stored))
        return found


def _event(shown: Entry) -> bytes:
    data = shown.model_dump_json(exclude={"rerolled_by", "undone_by"})
    return f"id: {shown.seq}\nevent: step\ndata: {data}\n\n".encode()


class Hub:
    """The watcher of one server process: the followed tables, read once per step for all their streams."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.watches: dict[str, _Watch] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # ---- on the event loop

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        self.stop()
        self.loop, self.watches = loop, {}
        self._tasks = [loop.create_task(self._poll()), loop.create_task(self._beat())]
        if self.state.postgres:
            self._tasks.append(loop.create_task(self._listen()))

    def stop(self) -> None:
        """Stop the hub's tasks (they start again with the next stream)."""
        for task in self._tasks:
            if not task.done():
                try:
                    task.get_loop().call_soon_threadsafe(task.cancel)
                except RuntimeError:
                    pass
        self._tasks, self.loop = [], None

    async def follow(self, table_id: str) -> _Watch:
        """The watch of ``table_id`` for one more stream, read from the database (release it with
        :meth:`leave`)."""
        await self.state.read(lambda: self.state.store)  # opened out of the event loop
        self._start()
        watch = self.watches.get(table_id)
        if watch is None:
            watch = self.watches[table_id] = _Watch(table_id)
        watch.streams += 1
        if watch.table is None:
            try:
                watch.take(await self.state.read(_read_since, self.state.store, table_id, len(watch.steps)))
            except BaseException:
                self.leave(watch)
                raise
            if watch.gone:
                self.leave(watch)
                from ..table import TableNotFound

                raise TableNotFound(N_("no table named {name} in {where}"), name=repr(table_id),
                                    where=self.state.store.shown)
        return watch

    def leave(self, watch: _Watch) -> None:
        watch.streams -= 1
        if watch.streams <= 0 and self.watches.get(watch.table_id) is watch:
            del self.watches[watch.table_id]

    def arrived(self, table: Table) -> None:
        """A table as this process just committed it (its whole log in hand): its streams take the new steps
        from it, with nothing read back; a table no stream follows, or one the hub holds as new, is left."""
        if self.loop is not asyncio.get_running_loop():
            return
        watch = self.watches.get(table.id)
        if watch is None or watch.table is None or table.version <= watch.version:
            return
        watch.take((table, list(table.log[len(watch.steps):table.version])))

    def moved(self, table_id: str, version: int | None = None) -> None:
        """The table may have moved past ``version`` (``None``: past what the hub holds): read it again."""
        if self.loop is not asyncio.get_running_loop():  # no stream follows a table on this loop
            return
        watch = self.watches.get(table_id)
        if watch is None or (version is not None and version <= watch.version):
            return
        if watch.loading:
            watch.stale = True
            return
        watch.loading = True
        asyncio.get_running_loop().create_task(self._read(watch))

    def notified(self, payload: str) -> None:
        """A step announced on PostgreSQL (:mod:`~diceengine.table.notices`): the store is told the table moved
        on; its streams take the step's entries from the payload when they follow on from what they hold (the
        table's members unchanged: such a step adds none), else the table is read again."""
        table_id, version, body = head(payload)
        if version is None:
            self.moved(table_id)
            return
        watch = self.watches.get(table_id)
        store = self.state.store
        remembered = store.cached(table_id)
        if (watch is None or version <= watch.version) and (remembered is None or version <= remembered.version):
            return  # this process's own step, or one it holds already: its entries are not read
        new = entries(body)
        store.moved_on(table_id, version, new or ())
        if watch is None or version <= watch.version:
            return
        if new and watch.table is not None and not watch.loading \
                and [e.seq for e in new] == list(range(watch.version + 1, version + 1)):
            watch.take((watch.table.model_copy(update={"version": version}), new))
            return
        self.moved(table_id, version)

    async def _read(self, watch: _Watch) -> None:
        try:
            while True:
                watch.stale = False
                try:
                    watch.take(await self.state.read(_read_since, self.state.store, watch.table_id, len(watch.steps)))
                    if watch.gone:
                        return
                except Exception:  # a lost connection: the next poll or recheck reads it again
                    log.warning("could not read the table %s", watch.table_id, exc_info=True)
                    return
                if not watch.stale:
                    return
        finally:
            watch.loading = False

    async def _poll(self) -> None:
        """Every ``poll_seconds`` (SQLite) or ``recheck_seconds`` (PostgreSQL), the versions of the followed
        tables, one query for all of them."""
        settings = self.state.settings
        every = settings.recheck_seconds if self.state.postgres else settings.poll_seconds
        while True:
            await asyncio.sleep(every)
            ids = list(self.watches)
            if not ids:
                continue
            try:
                found = await self.state.read(self.state.store.versions, ids)
            except Exception:
                log.warning("could not read the tables' versions", exc_info=True)
                continue
            for table_id in ids:
                version = found.get(table_id)
                watch = self.watches.get(table_id)
                if version is None and watch is not None:
                    watch.gone = True
                    watch.wake()
                elif version is not None:
                    self.moved(table_id, version)

    async def _beat(self) -> None:
        """Every ``heartbeat_seconds``, every followed table's streams woken: one with nothing new to send sends
        a comment (a connection kept alive through proxies, a client gone found out), with no timer per stream."""
        while True:
            await asyncio.sleep(self.state.settings.heartbeat_seconds)
            for watch in list(self.watches.values()):
                watch.wake()

    async def _listen(self) -> None:
        """PostgreSQL: ``LISTEN`` on one connection of its own; each notification wakes its table. Connected
        again after a loss, and every followed table read again then (its notifications may be lost)."""
        import psycopg

        url = self.state.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for table_id in list(self.watches):
                        self.moved(table_id)
                    async for note in conn.notifies():
                        self.notified(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lost the notifications' connection; connecting again", exc_info=True)
                await asyncio.sleep(1.0)


def _read_since(store: Any, table_id: str, after: int) -> tuple[Table, list[Entry]] | None:
    """The table's state (without its log) and its steps after ``after``, as stored (``None``: it is gone),
    checked to follow on from ``after``."""
    found = store.since(table_id, after)
    if found is not None and any(e.seq != after + i for i, e in enumerate(found[1], 1)):
        from ..table import TableFormatError

        raise TableFormatError(N_("the table {name} in {where} is corrupt ({reason})"), name=repr(table_id),
                               where=store.shown, reason=f"steps after {after} out of order")
    return found  # type: ignore[no-any-return]


async def stream(hub: Hub, table_id: str, key: str, start: int, lang: str | None = None) -> AsyncIterator[bytes]:
    """The server-sent events of the table's steps after ``start``, as the member whose key is ``key``
    reads them (their rolls' texts in ``lang``, ``None``: as stored), then each new one; ends when the table is
    gone or the key no longer opens it."""
    from ..table import TableAccessError, TableNotFound
    from ..table import rules as R

    try:
        watch = await hub.follow(table_id)
    except TableNotFound:  # gone since the key was checked
        return
    members: object = None  # the members the key was last checked against (a table's are replaced, never changed)
    name = ""
    try:
        yield b"retry: 1000\n\n"
        sent = start
        while True:
            moved = watch.moved
            table = watch.table
            if watch.gone or table is None:
                return
            if table.version > sent:
                if table.members is not members:
                    try:
                        name = R.authenticate(table, key)
                    except TableAccessError:
                        return
                    members = table.members
                chunk = []
                for entry in watch.steps[sent:table.version]:
                    chunk.append(watch.event(entry, R.readable(table, name, entry), lang))
                sent = table.version
                yield b"".join(chunk)
                continue
            await moved.wait()
            if watch.table is not None and watch.table.version <= sent and not watch.gone:
                yield b": alive\n\n"  # the hub's heartbeat (:meth:`Hub._beat`)
    finally:
        hub.leave(watch)
