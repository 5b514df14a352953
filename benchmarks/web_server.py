"""A real ``dice serve`` for the load benchmarks: started on a free loopback port, its CPU read from /proc,
stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


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
