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


def start_server(port: int, compute_workers: int, workers: int = 1) -> subprocess.Popen[bytes]:
    """``dice serve`` on the loopback interface, once it answers."""
    cmd = [sys.executable, "-m", "diceengine", "serve", "--host", HOST, "--port", str(port), "--log-level",
           "warning", "--no-access-log", "--compute-workers", str(compute_workers), "--workers", str(workers)]
    server = subprocess.Popen(cmd, start_new_session=True)  # its own process group: stopped whole
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"dice serve exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/health", timeout=1) as r:
                if r.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16, help="concurrent connections (default 16)")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured time per scenario (default 5)")
    parser.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    parser.add_argument("--compute-workers", type=int, default=1, help="processes computing exact odds")
    parser.add_argument("--workers", type=int, default=1, help="server processes (dice serve --workers)")
    parser.add_argument("--only", default="", metavar="WORDS",
                        help="run only the scenarios whose name has one of these comma-separated words (the floor always)")
    args = parser.parse_args(argv)
    port = args.port or free_port()
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        pass
    else:
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
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
