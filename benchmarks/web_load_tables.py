"""The table run of ``python -m benchmarks.web_load --tables N``: game tables of a real ``dice serve``, each with
its live clients (server-sent events) and its rolls on a timetable; the time from a roll's request to its arrival
at every client of its table, and every step lost, doubled or out of order (also across a server killed and
started again)."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import signal
import time
from dataclasses import dataclass
from typing import Any

from .web_server import HOST, free_port, group_cpu, start_server, stop_server

# ---- the table run: game tables and their live clients (server-sent events)

#: what each roll at a table rolls (the tables are FFG's)
TABLE_ROLL = {"expression": "2a1p vs 2d"}


class Server:
    """A ``dice serve`` to kill (SIGKILL, its whole process group) and start again on the same port."""

    def __init__(self, port: int, workers: int, db: str, cwd: str | None = None) -> None:
        from diceengine.table import open_store

        self.port, self.workers, self.db, self.cwd = port, workers, db, cwd
        # the schema built before the server processes start, so that the run times rolls, not its building
        open_store(db).close()
        self.process = start_server(port, 0, workers, db, cwd)
        self.spent = 0.0

    def cpu(self) -> float:
        """CPU seconds the server's processes used, those killed included."""
        return self.spent + group_cpu(self.process.pid)

    def kill(self) -> None:
        self.spent += group_cpu(self.process.pid)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:  # pragma: no cover
            pass
        self.process.wait(30)

    def restart(self) -> None:
        self.process = start_server(self.port, 0, self.workers, self.db, self.cwd)

    def stop(self) -> None:
        stop_server(self.process)


@dataclass
class Follower:
    """One live client of a table: the step numbers it received, in order, and when."""

    table: int
    key: str
    seen: list[int]
    arrival: dict[int, float]
    duplicated: int = 0
    out_of_order: int = 0
    reconnects: int = 0

    def got(self, n: int, now: float) -> None:
        """The event of step ``n`` arrived at ``now``: doubled or out of order, it is counted so."""
        if n in self.arrival:
            self.duplicated += 1
        else:
            self.arrival[n] = now
        if self.seen and n != self.seen[-1] + 1:
            self.out_of_order += 1
        self.seen.append(n)


@dataclass
class TableRun:
    """What a table run measured."""

    tables: int
    clients: int
    rate: float
    seconds: float
    acked: list[dict[int, float]]
    """per table: each acknowledged roll's step number, and when its request was sent"""
    acked_by: list[dict[int, str]]
    """per table: each acknowledged roll's step number, and the member who rolled it"""
    followers: list[Follower]
    table_ids: list[str]
    sent: int = 0
    skipped: int = 0
    """rolls of the timetable not sent: two seconds of the table's rolls were still unanswered"""
    refused: dict[int, int] | None = None
    failed: int = 0
    errors: dict[str, int] | None = None
    killed_at: float | None = None
    down_seconds: float | None = None
    killed_clock: float | None = None
    """``time.perf_counter()`` when the server was killed"""
    until: float = float("inf")
    """``time.perf_counter()`` when the rolls stop (at least two seconds after a restart)"""
    server_cpu: float = float("nan")
    client_cpu: float = float("nan")

    def latencies(self) -> list[float]:
        """Each acknowledged roll's time from its request to its arrival at the last client of its table."""
        out = []
        for t, acked in enumerate(self.acked):
            mine = [f for f in self.followers if f.table == t]
            for seq, start in acked.items():
                times = [f.arrival.get(seq) for f in mine]
                if all(x is not None for x in times):
                    out.append(max(times) - start)  # type: ignore[type-var,operator]
        return out

    def lost(self) -> int:
        """Acknowledged rolls missing at one client or more."""
        return sum(1 for t, acked in enumerate(self.acked) for seq in acked
                   if any(seq not in f.arrival for f in self.followers if f.table == t))

    def duplicated(self) -> int:
        return sum(f.duplicated for f in self.followers)

    def out_of_order(self) -> int:
        return sum(f.out_of_order for f in self.followers)

    def reconnects(self) -> int:
        return sum(f.reconnects for f in self.followers)


async def _post(client: Any, path: str, body: dict[str, Any], key: str | None = None) -> Any:
    """A setup request, waiting out the rate limit (429: ``Retry-After``)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    while True:
        r = await client.post(path, json=body, headers=headers)
        if r.status_code != 429:
            if r.status_code not in (200, 201):
                raise SystemExit(f"{path}: {r.status_code} {r.text}")
            return r.json()
        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))


async def _seat_table(client: Any, clients: int) -> tuple[str, list[str]]:
    made = await _post(client, "/tables", {"system": "ffg", "gm": "GM"})
    keys = [made["gm_key"]]
    for n in range(1, clients):
        keys.append((await _post(client, made["join_link"], {"name": f"player{n}"}))["player_key"])
    return made["table_id"], keys


async def _follow(client: Any, table_id: str, f: Follower) -> None:
    """Read the table's live log; on any loss of the stream, connect again from the last step received."""
    import httpx2 as httpx

    pause = 0.05
    while True:
        headers = {"Authorization": f"Bearer {f.key}"}
        if f.seen:
            headers["Last-Event-ID"] = str(max(f.seen))
        try:
            async with client.stream("GET", f"/tables/{table_id}/events", headers=headers) as r:
                if r.status_code == 200:
                    pause = 0.05
                    async for line in r.aiter_lines():
                        if line.startswith("id: "):
                            f.got(int(line[4:]), time.perf_counter())
        except (httpx.HTTPError, OSError):
            pass
        f.reconnects += 1
        await asyncio.sleep(pause)
        pause = min(0.5, pause * 2)


class RawClient:
    """A light HTTP/1.1 client over asyncio streams (keep-alive connections, Content-Length answers), for the
    table run's ``--client raw``: what a client costs left out of the machine's two cores as far as can be."""

    #: seconds an idle connection is kept (the server closes one idle for 5 s: uvicorn's keep-alive timeout)
    KEEP = 2.0

    def __init__(self, port: int) -> None:
        self.port = port
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        while self._idle:
            reader, writer, since = self._idle.pop()
            if time.monotonic() - since < self.KEEP:
                return reader, writer
            writer.close()
        return await asyncio.open_connection(HOST, self.port)

    async def post(self, path: str, body: dict[str, Any], key: str) -> tuple[int, Any]:
        """POST ``body`` as JSON with the member's key: the status and the JSON answer."""
        data = json.dumps(body).encode()
        request = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                   f"Authorization: Bearer {key}\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data
        reader, writer = await self._connection()
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            answer = await reader.readexactly(length)
        except BaseException:
            writer.close()
            raise
        self._idle.append((reader, writer, time.monotonic()))
        return int(head[9:12]), json.loads(answer) if answer else None


async def _follow_raw(port: int, table_id: str, f: Follower) -> None:
    """:func:`_follow` over a bare connection: the response's chunks read, each event's ``id:`` line taken."""
    pause = 0.05
    while True:
        writer = None
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
            head = f"GET /tables/{table_id}/events HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {f.key}\r\n"
            if f.seen:
                head += f"Last-Event-ID: {max(f.seen)}\r\n"
            writer.write((head + "\r\n").encode())
            status = await reader.readuntil(b"\r\n\r\n")
            if status.startswith(b"HTTP/1.1 200") and b"chunked" in status.lower():
                pause, pending = 0.05, b""
                while True:
                    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                    if size == 0:
                        break
                    pending += (await reader.readexactly(size + 2))[:-2]
                    *events, pending = pending.split(b"\n\n")
                    now = time.perf_counter()
                    for event in events:
                        if event.startswith(b"id: "):
                            f.got(int(event[4:event.index(b"\n")]), now)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            if writer is not None:
                writer.close()
        f.reconnects += 1
        await asyncio.sleep(pause)
        pause = min(0.5, pause * 2)


async def _roll_at(client: Any, run: TableRun, t: int, table_id: str, keys: list[str]) -> None:
    """Roll at the table ``rate`` times a second on a fixed timetable (each roll its own request, whether or
    not the one before was answered; a roll is not sent while two seconds of the table's rolls are unanswered),
    the table's members in turn."""
    import httpx2 as httpx

    async def one(key: str) -> None:
        start = time.perf_counter()
        try:
            if isinstance(client, RawClient):
                status, answer = await client.post(f"/tables/{table_id}/roll", TABLE_ROLL, key)
            else:
                r = await client.post(f"/tables/{table_id}/roll", json=TABLE_ROLL,
                                      headers={"Authorization": f"Bearer {key}"})
                status, answer = r.status_code, r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as err:
            run.failed += 1
            assert run.errors is not None
            run.errors[type(err).__name__] = run.errors.get(type(err).__name__, 0) + 1
            return
        if status == 200:
            run.acked[t][answer["step"]["seq"]] = start
            run.acked_by[t][answer["step"]["seq"]] = answer["step"]["member"]
        else:
            assert run.refused is not None
            run.refused[status] = run.refused.get(status, 0) + 1

    pending: set[asyncio.Task[None]] = set()
    first = time.perf_counter() + t / (run.rate * run.tables)  # the tables' rolls spread over each period
    for i in itertools.count():
        at = first + i / run.rate
        if at >= run.until:
            break
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        if len(pending) >= 2 * run.rate:  # two seconds of rolls unanswered: the server is behind, this one waits
            run.skipped += 1
            continue
        run.sent += 1
        task = asyncio.create_task(one(keys[i % len(keys)]))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.gather(*pending)


async def table_run(server: Server, tables: int, clients: int, rate: float, seconds: float,
                    kill_at: float | None = None, drain: float = 30.0, raw: bool = False) -> TableRun:
    """``tables`` tables of ``clients`` members each following the live log, ``rate`` rolls a second at each
    for ``seconds``; ``kill_at``: the server killed (SIGKILL) that many seconds in, and started again. Then
    wait (up to ``drain`` seconds) for every acknowledged roll to reach every client of its table. The clients
    are httpx's (``raw``: :class:`RawClient` and :func:`_follow_raw`, lighter)."""
    import httpx2 as httpx

    base = f"http://{HOST}:{server.port}"
    limits = httpx.Limits(max_connections=tables * clients + 50, max_keepalive_connections=tables * clients + 50)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30.0, read=None), limits=limits) as streams, \
            httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits) as calls:
        seated = []
        for i in range(0, tables, 10):  # ten tables at a time
            seated += await asyncio.gather(*(_seat_table(calls, clients) for _ in range(i, min(tables, i + 10))))
        run = TableRun(tables, clients, rate, seconds, [{} for _ in seated], [{} for _ in seated],
                       [Follower(t, key, [], {}) for t, (_, keys) in enumerate(seated) for key in keys],
                       [tid for tid, _ in seated], refused={}, errors={})
        following = [asyncio.create_task(_follow_raw(server.port, seated[f.table][0], f) if raw else
                                         _follow(streams, seated[f.table][0], f)) for f in run.followers]
        rollers: Any = RawClient(server.port) if raw else calls
        joins = clients  # the joins are the first steps: every client has them once it follows
        deadline = time.perf_counter() + 60
        while any(len(f.arrival) < joins for f in run.followers) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

        async def kill() -> None:
            assert kill_at is not None
            await asyncio.sleep(kill_at)
            run.killed_at = kill_at
            down = run.killed_clock = time.perf_counter()
            planned, run.until = run.until, float("inf")  # rolls go on until the server is back, and after
            server.kill()
            await asyncio.to_thread(server.restart)
            run.down_seconds = time.perf_counter() - down
            run.until = max(planned, time.perf_counter() + 2.0)

        killer = asyncio.create_task(kill()) if kill_at is not None else None
        cpu, mine = server.cpu(), time.process_time()
        start = time.perf_counter()
        run.until = start + seconds
        await asyncio.gather(*(_roll_at(rollers, run, t, tid, keys) for t, (tid, keys) in enumerate(seated)))
        run.seconds = time.perf_counter() - start
        if killer is not None:
            await killer
        run.server_cpu, run.client_cpu = server.cpu() - cpu, time.process_time() - mine
        deadline = time.perf_counter() + drain
        while run.lost() and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # a doubled step would come now
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
    return run


def missing_from_log(run: TableRun, db: str) -> list[tuple[str, int]]:
    """The acknowledged rolls the database's log does not hold (table id, step number): each acknowledged step
    must be there, a roll of its member's, whatever befell the server after it was answered."""
    from diceengine.table import open_store

    missing = []
    with open_store(db, create=False) as store:
        for t, table_id in enumerate(run.table_ids):
            log = {e.seq: e for e in store.load(table_id).log}
            for seq, member in run.acked_by[t].items():
                entry = log.get(seq)
                if entry is None or entry.kind != "roll" or entry.member != member \
                        or entry.expression != TABLE_ROLL["expression"]:
                    missing.append((table_id, seq))
    return missing


def print_table_run(run: TableRun, workers: int, db: str) -> bool:
    """Print what the run measured; true when no acknowledged roll was lost, doubled or out of order."""
    lat = sorted(run.latencies())

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    acked = sum(len(a) for a in run.acked)
    where = "PostgreSQL" if db.startswith("postgres") else \
        f"SQLite (synchronous={os.environ.get('DICE_TABLE_SYNC', 'full')})"
    if "DICE_SLOW_FSYNC_US" in os.environ:
        where += f", every fsync {int(os.environ['DICE_SLOW_FSYNC_US']) / 1000:g} ms slower (--fsync-ms)"
    print(f"table run: {run.tables} tables x {run.clients} live clients (server-sent events), {run.rate:g} rolls a "
          f"second per table, {run.seconds:g} s; dice serve --workers {workers} on {where}; {os.cpu_count()} cores "
          f"shared by server and clients, load average {os.getloadavg()[0]:.1f}")
    if run.killed_at is not None:
        print(f"  server killed (SIGKILL) {run.killed_at:g} s in, answering again {run.down_seconds:.1f} s later")
    print(f"  rolls sent {run.sent} (of {run.sent + run.skipped} on the timetable: {run.skipped} not sent, the "
          f"table's two seconds of rolls unanswered), acknowledged (200) {acked}, refused {run.refused or 0}, "
          f"no answer {run.failed} {run.errors or ''}")
    print(f"  roll request -> arrival at every client of its table: p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, "
          f"p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms ({'under' if pct(0.99) < 100 else 'NOT under'} 100 ms)")
    print(f"  lost (acknowledged, missing at a client) {run.lost()}, duplicated {run.duplicated()}, "
          f"out of order {run.out_of_order()}; reconnections {run.reconnects()}")
    print(f"  CPU while rolling: server {run.server_cpu:.1f} s ({run.server_cpu / run.seconds:.2f} cores), "
          f"clients {run.client_cpu:.1f} s ({run.client_cpu / run.seconds:.2f} cores)")
    return not run.lost() and not run.duplicated() and not run.out_of_order()


def run_tables(args: argparse.Namespace) -> int:
    """The table run of ``main``."""
    import tempfile

    os.environ["DICE_TABLE_SYNC"] = args.sync  # read by the server's processes
    for limit in ("DICE_NEW_RATE", "DICE_NEW_BURST"):  # the tables seated at once from one address: the run
        os.environ.setdefault(limit, "1000")           # measures the rolls, not the limit on new tables and joins
    with tempfile.TemporaryDirectory() as tmp:
        if args.fsync_ms:
            from .slow_disk import environment

            os.environ.update(environment(args.fsync_ms, tmp))  # the server's processes, not this one
        db = args.db or os.path.join(tmp, "tables.sqlite")
        server = Server(args.port or free_port(), args.workers, db, cwd=tmp)
        try:
            run = asyncio.run(table_run(server, args.tables, args.table_clients, args.rolls_per_second,
                                        args.seconds, args.kill_at, raw=args.client == "raw"))
            alive = server.process.poll() is None
        finally:
            server.stop()
        print(f"clients: {args.client}")
        ok = print_table_run(run, args.workers, db)
        missing = missing_from_log(run, db)
    acked = sum(len(a) for a in run.acked)
    print(f"  acknowledged rolls missing from the database's log{' after the restart' if run.killed_at else ''}: "
          f"{len(missing)} of {acked} {missing[:5] if missing else ''}")
    print(f"server still up: {'yes' if alive else 'NO'}")
    return 0 if ok and alive and not missing else 1
