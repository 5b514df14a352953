"""``dice serve`` as a user starts it: a real server process on a loopback port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from diceengine.cli import main  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_dice_serve_serves_the_page_and_the_api() -> None:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--log-level",
                               "warning", "--no-access-log"], start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            assert server.poll() is None, "dice serve exited"
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as r:
                    page = r.read().decode()
                break
            except OSError:
                assert time.time() < deadline, "dice serve did not answer"
                time.sleep(0.2)
        assert "<title>diceengine" in page and 'id="expression"' in page
        status, body = _post(base + "/api/roll", {"expression": "d6wild: 4D+2 vs 15", "seed": 2})
        assert status == 200 and body["system"] == "d6wild"
        status, body = _post(base + "/api/odds", {"expression": "1d6", "system": "standard"})
        assert status == 200 and [b["p"] for b in body["marginals"]["total"]] == pytest.approx([1 / 6] * 6)  # type: ignore[index]
        status, body = _post(base + "/api/roll", {"expression": "4D+ vs 15", "system": "d6wild"})
        assert status == 400 and body["column"] == 4
    finally:
        server.send_signal(signal.SIGTERM)  # as a service manager stops it
        try:
            assert server.wait(30) in (0, -signal.SIGTERM)  # uvicorn ends by the signal it was sent
            deadline = time.time() + 15
            while _group_alive(server.pid) and time.time() < deadline:
                time.sleep(0.1)
            assert not _group_alive(server.pid), "the compute worker outlived the server"
        finally:
            if _group_alive(server.pid):  # pragma: no cover
                os.killpg(server.pid, signal.SIGKILL)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_dice_serve_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert main(["serve", "--compute-workers", "-1"]) == 2
