"""The page's committed seeds in a real browser (issue 37): a table made with "dice anyone can verify" shows its
commitment; a player makes a client seed in the browser; the game master's secret roll is revealed and the table
ended from the page; the player's "verify" view reports the log verified, and a log export verifies offline.
A real uvicorn server, Debian's Chromium; skipped, with the reason, where either is missing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
from .browser import require_chromium, serving

expect = sync_api.expect
WAIT = 20_000  # ms: the machine is shared

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    db = tmp_path_factory.mktemp("tables") / "tables.sqlite"
    with serving(create_app(workers=0, tables=TableSettings(db=str(db)))) as base:
        yield base


def _page(browser: Any, url: str, troubles: list[str]) -> Any:
    page = browser.new_context().new_page()
    page.on("pageerror", lambda err: troubles.append(f"page error: {err}"))
    page.on("console", lambda m: troubles.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    return page


def test_commitment_client_seed_reveal_end_and_verify_on_the_page(server: str, browser: Any, tmp_path: Path) -> None:
    from diceengine import table as T
    from diceengine.table import provable as P

    troubles: list[str] = []
    gm = _page(browser, server + "/#table", troubles)
    gm.fill("#table-gm", "Ana")
    gm.select_option("#table-system", "standard")
    expect(gm.locator("#table-provable")).to_be_checked()  # committed seeds unless the game master says otherwise
    gm.click("#table-create button[type=submit]")
    expect(gm.locator("#table-provable-box")).to_be_visible(timeout=WAIT)
    commitment = gm.locator("#table-commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    link = gm.input_value("#table-share")
    kira = _page(browser, link, troubles)
    kira.fill("#table-join-name", "Kira")
    kira.click("#table-join button[type=submit]")
    expect(kira.locator("#table-commitment")).to_have_text(commitment, timeout=WAIT)
    expect(kira.locator("#table-rotate")).to_be_hidden()
    kira.click("#table-new-client-seed")
    expect(kira.locator("#table-client-seed")).to_have_text(re.compile(r"^[0-9a-f]{32}$"), timeout=WAIT)
    client_seed = kira.locator("#table-client-seed").inner_text()
    kira.fill("#table-expression", "3d6")
    kira.click("#table-roll-button")
    gm.fill("#table-expression", "1d20")
    gm.check("#table-secret")
    gm.click("#table-roll-button")
    expect(gm.locator(".reveal-secret")).to_have_count(1, timeout=WAIT)
    gm.click(".reveal-secret")
    expect(kira.locator("#table-log > li.step-reveal .die")).to_have_count(1, timeout=WAIT)
    gm.click("#table-end")
    expect(kira.locator("#table-log > li.step-end .step-revealed")).to_have_count(1, timeout=WAIT)
    revealed = kira.locator("#table-log > li.step-end .step-revealed").inner_text()
    assert P.commitment_of(revealed) == commitment  # checked here with hashlib, as a player would
    kira.click("#table-verify")
    expect(kira.locator("#table-verify-verdict")).to_have_text(re.compile(r"^verified: \d+ steps, 2 recomputed"),
                                                               timeout=WAIT)
    with kira.expect_download() as got:
        kira.click("#table-export")
    saved = tmp_path / "log.json"
    got.value.save_as(saved)
    report = T.verify(saved.read_text(encoding="utf-8"))
    assert report.complete and report.commitments[0] == commitment
    log = json.loads(saved.read_text(encoding="utf-8"))["table"]["log"]
    assert any(e["kind"] == "roll" and e["client_seed"] == client_seed for e in log)
    assert troubles == []
