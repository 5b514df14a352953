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
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .web_load_tables import run_tables
from .web_server import HOST, free_port, group_cpu, start_server, stop_server

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


def run_scenario(port: int, name: str, method: str, path: str, body: Body, clients: int,
                 seconds: float, group: int) -> Result:
    """Warm up for a moment, then measure for ``seconds``."""
    asyncio.run(_scenario(port, method, path, body, min(clients, 4), min(1.0, seconds / 4)))
    cpu = group_cpu(group)
    latencies, failures, elapsed = asyncio.run(_scenario(port, method, path, body, clients, seconds))
    return Result(name, len(latencies), failures, elapsed, latencies, group_cpu(group) - cpu)


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
    tables.add_argument("--fsync-ms", type=float, default=0.0, metavar="MS",
                        help="SQLite: every fsync of the server's processes MS milliseconds slower (a slower disk)")
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
