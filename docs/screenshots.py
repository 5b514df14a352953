"""The screenshots of the page's table view in the documentation, made by hand (not by the tests or CI):

    python docs/screenshots.py [OUT_DIR]

starts a real server on a loopback port (its tables in a temporary SQLite file), plays a short scene in
headless Chromium with three browser contexts (a game master and two players) and writes
``table-desktop.png`` (the game master's page, 1280 pixels wide) and ``table-phone.png`` (a player's page,
390 pixels wide) into OUT_DIR (default: this folder). Needs the web and table extras, Playwright for Python
and Chromium (``$DICE_CHROMIUM``, else ``chromium`` on the PATH). The dice are fresh each run."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from diceengine.web import create_app
from diceengine.web.tables import TableSettings

CHROMIUM = os.environ.get("DICE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"]
WAIT = 20_000


def _serve(db: Path) -> tuple[uvicorn.Server, threading.Thread, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(workers=0, tables=TableSettings(db=str(db))),
                                           host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise SystemExit("the server did not start")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


def _steps(page: Page, n: int) -> None:
    expect(page.locator("#table-log > li")).to_have_count(n, timeout=WAIT)


def _roll(page: Page, expression: str, secret: bool = False) -> None:
    page.fill("#table-expression", expression)
    if secret:
        page.check("#table-secret")
    elif page.locator("#table-secret").is_visible():
        page.uncheck("#table-secret")
    page.click("#table-roll-button")


def _character(page: Page, name: str) -> None:
    page.click("#table-character-add summary")
    page.fill("#table-character-name", name)
    page.click("#table-character-form button[type=submit]")


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server, thread, url = _serve(Path(tmp) / "tables.sqlite")
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            gm = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1).new_page()
            gm.goto(url + "/#table")
            gm.wait_for_selector("body[data-ready=true]", timeout=WAIT)
            gm.fill("#table-gm", "Marion")
            gm.select_option("#table-system", "ffg")
            gm.fill("#table-light", "3")
            gm.fill("#table-dark", "2")
            gm.click("#table-create button[type=submit]")
            _steps(gm, 2)
            link = gm.input_value("#table-share")
            players = []
            for name, width in (("Kira", 1280), ("Jax", 390)):
                page = browser.new_context(viewport={"width": width, "height": 844}, device_scale_factor=1).new_page()
                page.goto(link)
                page.fill("#table-join-name", name)
                page.click("#table-join button[type=submit]")
                expect(page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
                players.append(page)
            kira, jax = players
            _character(kira, "Kel Tarrow")
            _character(jax, "Dorn")
            _steps(gm, 6)
            gm.fill("#table-order-input", "Kel Tarrow, Stormtroopers, Dorn")
            gm.click("#table-order-form button[type=submit]")
            _steps(gm, 7)
            kira.click("#table-flip-light")
            _steps(gm, 8)
            _roll(kira, "2a1p vs 2d")
            _steps(gm, 9)
            _roll(gm, "2a1d vs 3d", secret=True)
            _steps(gm, 10)
            jax.click("#table-next-turn")
            _steps(gm, 11)
            _roll(jax, "3a1b vs 1c1d")
            _steps(gm, 12)
            jax.click("#table-reroll")
            _steps(gm, 13)
            _roll(kira, "d6: 4D+1 vs 15")
            for page in (gm, kira, jax):
                _steps(page, 14)
            expect(gm.locator("#table-luck-table tr[data-member]")).to_have_count(3, timeout=WAIT)
            expect(jax.locator("#table-luck-table tr[data-member]")).to_have_count(3, timeout=WAIT)
            gm.wait_for_timeout(500)
            jax.click("#table-character-add summary")  # closed again
            gm.screenshot(path=str(out / "table-desktop.png"), full_page=True)
            # the phone's page down to its initiative (the characters and the luck panel follow)
            jax.locator("header").scroll_into_view_if_needed()  # the page at its top: the box's place is the page's
            box = jax.locator("#table-initiative").bounding_box()
            assert box is not None
            jax.screenshot(path=str(out / "table-phone.png"), full_page=True,
                           clip={"x": 0, "y": 0, "width": 390, "height": box["y"] + box["height"] + 16})
        finally:
            browser.close()
            server.should_exit = True
            thread.join(30)
    for name in ("table-desktop.png", "table-phone.png"):
        print(out / name, (out / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
