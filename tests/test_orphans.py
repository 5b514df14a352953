"""No worker outlives its parent: a ``dice fight sweep`` and a server's compute workers killed with SIGKILL leave
no process behind (diceengine.orphans: the kernel's signal on Linux, the parent-pid watch everywhere), and a
worker whose starting thread ends while its parent lives goes on working."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # a zombie has ended


def wait_for(what: object, timeout: float) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if what():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def kill_and_check(parent: subprocess.Popen[bytes], workers: set[int]) -> None:
    """SIGKILL to the parent: each of ``workers`` is gone a few seconds later (killed here if not, and failed)."""
    assert workers and all(alive(w) for w in workers)
    parent.kill()
    parent.wait(10)
    try:
        assert wait_for(lambda: not any(alive(w) for w in workers), 10), "a worker outlived its parent"
    finally:
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def test_a_sweep_killed_leaves_no_worker() -> None:
    """The finding: ``dice fight sweep`` killed (SIGKILL) by a timeout left its two workers at full CPU."""
    sweep = subprocess.Popen([sys.executable, "-m", "diceengine", "fight", "sweep", str(ROOT / "examples/roark.toml"),
                              "--grid", "a.0.attack=3D,4D,5D,6D", "--fights", "50000000", "--workers", "2"],
                             cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_for(lambda: len(children(sweep.pid)) >= 2 or sweep.poll() is not None, 60)
        assert sweep.poll() is None, sweep.stderr.read() if sweep.stderr else ""
        time.sleep(1.0)  # the workers at their cells
        kill_and_check(sweep, children(sweep.pid))
    finally:
        if sweep.poll() is None:
            sweep.kill()


SERVER = """
import os, sys, time
from diceengine.web.offload import Offloader
offload = Offloader(2)
offload.start()
print(" ".join(str(p) for p in offload._pool._processes), flush=True)
time.sleep(600)
"""


def test_a_servers_compute_workers_end_with_it() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=ENV, stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        workers = {int(p) for p in server.stdout.readline().split()}
        assert len(workers) == 2
        kill_and_check(server, workers)
    finally:
        if server.poll() is None:
            server.kill()


WATCHED = """
import multiprocessing, os, sys, threading, time
from diceengine.orphans import end_with_parent

def work(parent, prctl):
    end_with_parent(parent, prctl=prctl)
    while True:  # at full CPU, as a sweep's cell
        sum(range(1000))

if __name__ == "__main__":
    prctl = sys.argv[1] == "prctl"
    ctx = multiprocessing.get_context("spawn")
    started = []

    def start():  # from a thread that ends at once: its end is not the parent's death
        p = ctx.Process(target=work, args=(os.getpid(), prctl), daemon=False)
        p.start()
        started.append(p)

    t = threading.Thread(target=start)
    t.start()
    t.join()
    print(started[0].pid, flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("how", ["prctl", "watch"])
def test_a_worker_started_by_a_thread_lives_while_its_parent_does(how: str, tmp_path: Path) -> None:
    """``prctl``: the kernel's signal when the starting thread ends is not taken for the parent's death; ``watch``:
    the portable parent-pid watch alone ends the worker once the parent is killed."""
    script = tmp_path / "watched.py"
    script.write_text(textwrap.dedent(WATCHED))
    parent = subprocess.Popen([sys.executable, str(script), how], cwd=ROOT, env=ENV, stdout=subprocess.PIPE)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        time.sleep(3.0)  # the starting thread long gone, the worker started and watching
        assert alive(worker) and parent.poll() is None
        kill_and_check(parent, {worker})
    finally:
        if parent.poll() is None:
            parent.kill()


def test_dice_serve_killed_leaves_no_compute_worker(tmp_path: Path) -> None:
    """A real ``dice serve`` with two compute workers, killed with SIGKILL (its own process, not its group): the
    workers end with it."""
    import httpx2 as httpx

    from benchmarks.web_load_tables import free_port

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--db",
                               str(tmp_path / "t.sqlite"), "--compute-workers", "2", "--log-level", "warning"],
                              cwd=tmp_path, env=ENV)
    try:
        deadline = time.time() + 120
        while True:
            assert server.poll() is None and time.time() < deadline, "the server did not start"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        workers = {p for p in children(server.pid) if b"spawn_main" in (Path("/proc") / str(p) / "cmdline").read_bytes()}
        assert len(workers) == 2
        kill_and_check(server, workers)
    finally:
        if server.poll() is None:
            server.kill()
