"""Load test of ``dice serve``: N concurrent clients against a real local server for a bounded time.

``python -m benchmarks.web_load [--clients 16] [--workers 1] [--seconds 5] [--port 0]`` starts ``dice serve`` on the
loopback interface (nothing else is ever contacted), then for each scenario keeps ``--clients``
keep-alive connections busy for ``--seconds``, and reports requests per second and latency
percentiles, and the server's CPU time per request (all its processes, read from /proc): what a
request costs whatever else the machine runs, hence the requests per second one free core would serve.
The floor is a trivial endpoint (``/api/health``) measured in the same run: the roll
endpoint's throughput as a share of the floor's tells what the engine costs over the framework on a
machine that may be busy. The server must answer every request (status 200) and still be up at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HOST = "127.0.0.1"

Body = dict[str, Any] | Callable[[int], dict[str, Any]] | None
_fresh = itertools.count(1)

SCENARIOS: list[tuple[str, str, str, Body]] = [
    ("floor: GET /api/health", "GET", "/api/health", None),
    ("roll: 4D+2 vs 15 (d6wild)", "POST", "/api/roll", {"expression": "4D+2 vs 15", "system": "d6wild"}),
    ("roll: 4d6kh3", "POST", "/api/roll", {"expression": "4d6kh3"}),
    ("exact odds, asked before: 4D+2 vs 15", "POST", "/api/odds", {"expression": "4D+2 vs 15", "system": "d6wild"}),
    # a difficulty never asked before on each request: computed every time by the worker process
    ("exact odds, new: 4D+2 vs N (d6wild)", "POST", "/api/odds",
     lambda i: {"expression": f"4D+2 vs {next(_fresh)}", "system": "d6wild"}),
    # the same pool, asked each time with another number of bars: not in the service's cache
    ("exact odds, new: 3a2p vs 2d1c (ffg)", "POST", "/api/odds",
     lambda i: {"expression": "3a2p vs 2d1c", "system": "ffg", "max_bars": 1 + next(_fresh) % 400}),
]


@dataclass
class Result:
    name: str
    requests: int
    failures: int
    seconds: float
    latencies: list[float]
    server_cpu: float = float("nan")
    """CPU seconds the server's processes used (all of them, compute workers included)"""

    def cpu_ms(self) -> float:
        """Server CPU per request, in milliseconds: what a request costs whatever the machine's load."""
        return 1000 * self.server_cpu / self.requests if self.requests else float("nan")

    def rate(self) -> float:
        return self.requests / self.seconds

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _request(method: str, path: str, body: dict[str, Any] | None) -> bytes:
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
    return (head + f"Content-Length: {len(data)}\r\n\r\n").encode() + data


async def _client(port: int, method: str, path: str, body: Body, until: float, latencies: list[float],
                  failures: list[int]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    make = body if callable(body) else None
    fixed = _request(method, path, body) if not callable(body) else b""
    try:
        for i in itertools.count():
            if time.perf_counter() >= until:
                break
            request = _request(method, path, make(i)) if make is not None else fixed
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            if not head.startswith(b"HTTP/1.1 200"):
                failures[0] += 1
    finally:
        writer.close()


async def _scenario(port: int, method: str, path: str, body: Body, clients: int,
                    seconds: float) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    failures = [0]
    start = time.perf_counter()
    await asyncio.gather(*(_client(port, method, path, body, start + seconds, latencies, failures)
                           for _ in range(clients)))
    return latencies, failures[0], time.perf_counter() - start


def group_cpu(group: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of a process group (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # fields after the name: state, ppid, pgrp, ..., utime (12), stime (13)
            total += int(fields[11]) + int(fields[12])
    return total / tick


def run_scenario(port: int, name: str, method: str, path: str, body: Body, clients: int,
                 seconds: float, group: int) -> Result:
    """Warm up for a moment, then measure for ``seconds``."""
    asyncio.run(_scenario(port, method, path, body, min(clients, 4), min(1.0, seconds / 4)))
    cpu = group_cpu(group)
    latencies, failures, elapsed = asyncio.run(_scenario(port, method, path, body, clients, seconds))
    return Result(name, len(latencies), failures, elapsed, latencies, group_cpu(group) - cpu)


def start_server(port: int, compute_workers: int, workers: int = 1, db: str | None = None,
                 cwd: str | None = None) -> subprocess.Popen[bytes]:
    """``dice serve`` on the loopback interface (its game tables in ``db``), once it answers."""
    cmd = [sys.executable, "-m", "diceengine", "serve", "--host", HOST, "--port", str(port), "--log-level",
           "warning", "--no-access-log", "--compute-workers", str(compute_workers), "--workers", str(workers)]
    if db is not None:
        cmd += ["--db", db]
    server = subprocess.Popen(cmd, start_new_session=True, cwd=cwd)  # its own process group: stopped whole
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"dice serve exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/health", timeout=1) as r:
                if r.status == 200:
                    return server
        except OSError:
            time.sleep(0.1)
    stop_server(server)
    raise SystemExit("dice serve did not answer within 60 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """Stop ``dice serve`` and every process it started (its process group)."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    except subprocess.TimeoutExpired:  # pragma: no cover
        pass
    except ProcessLookupError:  # pragma: no cover
        return
    try:
        os.killpg(server.pid, signal.SIGKILL)  # whatever did not stop in time
    except ProcessLookupError:
        pass


# ---- the table run: game tables and their live clients (server-sent events)

#: what each roll at a table rolls (the tables are FFG's)
TABLE_ROLL = {"expression": "2a1p vs 2d"}


class Server:
    """A ``dice serve`` to kill (SIGKILL, its whole process group) and start again on the same port."""

    def __init__(self, port: int, workers: int, db: str, cwd: str | None = None) -> None:
        from diceengine.table import open_store

        self.port, self.workers, self.db, self.cwd = port, workers, db, cwd
        # the schema built before the server processes start: two building it at once in a fresh PostgreSQL
        # database collide (one of them answers its first requests with the error, then recovers)
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


@dataclass
class TableRun:
    """What a table run measured."""

    tables: int
    clients: int
    rate: float
    seconds: float
    acked: list[dict[int, float]]
    """per table: each acknowledged roll's step number, and when its request was sent"""
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
                            n, now = int(line[4:]), time.perf_counter()
                            if n in f.arrival:
                                f.duplicated += 1
                            else:
                                f.arrival[n] = now
                            if f.seen and n != f.seen[-1] + 1:
                                f.out_of_order += 1
                            f.seen.append(n)
        except (httpx.HTTPError, OSError):
            pass
        f.reconnects += 1
        await asyncio.sleep(pause)
        pause = min(0.5, pause * 2)


class RawClient:
    """A light HTTP/1.1 client over asyncio streams (keep-alive connections, Content-Length answers), for the
    table run's ``--client raw``: what a client costs left out of the machine's two cores as far as can be."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def post(self, path: str, body: dict[str, Any], key: str) -> tuple[int, Any]:
        """POST ``body`` as JSON with the member's key: the status and the JSON answer."""
        data = json.dumps(body).encode()
        request = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                   f"Authorization: Bearer {key}\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data
        reader, writer = self._idle.pop() if self._idle else await asyncio.open_connection(HOST, self.port)
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
        self._idle.append((reader, writer))
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
                            n = int(event[4:event.index(b"\n")])
                            if n in f.arrival:
                                f.duplicated += 1
                            else:
                                f.arrival[n] = now
                            if f.seen and n != f.seen[-1] + 1:
                                f.out_of_order += 1
                            f.seen.append(n)
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
        run = TableRun(tables, clients, rate, seconds, [{} for _ in seated],
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


def print_table_run(run: TableRun, workers: int, db: str) -> bool:
    """Print what the run measured; true when no acknowledged roll was lost, doubled or out of order."""
    lat = sorted(run.latencies())

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    acked = sum(len(a) for a in run.acked)
    where = "PostgreSQL" if db.startswith("postgres") else \
        f"SQLite (synchronous={os.environ.get('DICE_TABLE_SYNC', 'full')})"
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
    with tempfile.TemporaryDirectory() as tmp:
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
    print(f"server still up: {'yes' if alive else 'NO'}")
    return 0 if ok and alive else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent connections (default 16)")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured time per scenario (default 5)")
    parser.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    parser.add_argument("--compute-workers", type=int, default=1, help="processes computing exact odds")
    parser.add_argument("--workers", type=int, default=1, help="server processes (dice serve --workers)")
    parser.add_argument("--only", default="", metavar="WORDS",
                        help="run only the scenarios whose name has one of these comma-separated words (the floor always)")
    tables = parser.add_argument_group("the table run (--tables N): live clients of game tables")
    tables.add_argument("--tables", type=int, default=0,
                        help="run the table run with N tables instead of the request scenarios")
    tables.add_argument("--table-clients", type=int, default=6, help="live clients per table (default 6)")
    tables.add_argument("--rolls-per-second", type=float, default=10.0, help="rolls a second per table (default 10)")
    tables.add_argument("--db", default=None, metavar="URL",
                        help="the tables' database (default: a SQLite file in a temporary folder)")
    tables.add_argument("--client", choices=["httpx", "raw"], default="httpx",
                        help="the clients: httpx's AsyncClient (default) or bare asyncio connections (lighter)")
    tables.add_argument("--sync", choices=["full", "normal"], default="full",
                        help="SQLite: each step fsynced before its answer (full, the default) or not (normal)")
    tables.add_argument("--kill-at", type=float, default=None, metavar="S",
                        help="kill the server (SIGKILL) S seconds into the run and start it again")
    args = parser.parse_args(argv)
    port = args.port or free_port()
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        pass
    else:
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if args.tables:
        return run_tables(args)
    server = start_server(port, args.compute_workers, args.workers)
    results = []
    try:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        for name, method, path, body in SCENARIOS:
            if wanted and name != SCENARIOS[0][0] and not any(w in name for w in wanted):
                continue
            results.append(run_scenario(port, name, method, path, body, args.clients, args.seconds, server.pid))
        alive = server.poll() is None
    finally:
        stop_server(server)
    print(f"dice serve on {HOST}:{port} ({args.workers} server process(es), {args.compute_workers} compute), "
          f"{args.clients} concurrent clients, {args.seconds:g} s per scenario, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"  {'scenario':<38} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'failed':>7} "
          f"{'server CPU ms/req':>18} {'req/s per core':>15}")
    for r in results:
        print(f"  {r.name:<38} {r.rate():8.0f} {r.pct(0.50):8.2f} {r.pct(0.99):8.2f} {r.pct(1.0):8.2f} "
              f"{r.failures:7d} {r.cpu_ms():18.3f} {1000 / r.cpu_ms() if r.cpu_ms() else float('nan'):15.0f}")
    floor = results[0].rate()
    for r in results[1:]:
        print(f"  {r.name:<38} {r.rate() / floor:6.2f} of the floor's throughput")
    failed = sum(r.failures for r in results)
    print(f"server still up: {'yes' if alive else 'NO'}; requests refused or failed: {failed}")
    return 0 if alive and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
