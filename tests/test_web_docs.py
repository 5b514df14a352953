"""The API's documentation pages (/docs, /redoc) load their scripts from the server itself, and Swagger UI
renders the table endpoints in a real browser cut off from every other host."""

from __future__ import annotations

import re
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("fastapi_offline", reason="the web extra's fastapi-offline (Swagger UI's files) is not installed")

from fastapi.testclient import TestClient

from diceengine.web import create_app
from diceengine.web.tables import TableSettings


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with TestClient(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))) as c:
        yield c


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_docs_pages_load_nothing_from_elsewhere(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and all(u.startswith("/") for u in urls), urls
    for url in urls:
        if url.startswith("/docs/static/"):
            served = client.get(url)
            assert served.status_code == 200 and len(served.content) > 100, url


def test_swagger_ui_renders_offline_in_a_browser(tmp_path: Path) -> None:
    import uvicorn

    from .browser import ARGS, CHROMIUM
    from .test_web_browser import sync_api

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite"))),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    elsewhere: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page()

            def route(r: sync_api.Route) -> None:
                if r.request.url.startswith(base):
                    r.continue_()
                else:  # offline: no other host answers
                    elsewhere.append(r.request.url)
                    r.abort()

            page.route("**/*", route)
            page.goto(base + "/docs")
            page.wait_for_selector("[data-path=\"/tables/{table_id}/roll\"]", timeout=30_000)
            assert page.locator(".opblock").count() >= 16
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    assert elsewhere == []
