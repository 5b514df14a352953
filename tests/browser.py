"""What the browser tests share: Debian's Chromium (skipped where it is missing, a failure in CI, which installs
it) and a real uvicorn server running an application on a free loopback port."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("DICE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]


def require_chromium() -> None:
    """Skip the calling test module where Chromium is missing; in CI (which installs it) that is a failure."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"CI has no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)


@contextmanager
def launched() -> Iterator[Any]:
    """Chromium launched by Playwright for the block (closed after); skips where either is missing, except in CI."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    require_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port: its base URL until the block ends. The port
    is bound here and handed to uvicorn bound, so that no other process (another pytest-xdist worker's server)
    can take it between its choice and the server's start."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not srv.started:
        assert thread.is_alive() and time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(30)
        sock.close()
