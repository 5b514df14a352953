"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright for Python,
against a real uvicorn server on a loopback port. Skipped, with the reason, where Chromium or Playwright
is missing; CI installs both (``.ci/run``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from .browser import require_chromium, serving

require_chromium()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A real uvicorn server running the application on a free loopback port."""
    from diceengine.web import create_app

    with serving(create_app(workers=1)) as url:
        yield url


def test_roll_chart_and_error_with_caret(server: str, browser: sync_api.Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    messages: list[str] = []
    page.on("pageerror", lambda err: messages.append(str(err)))
    # the page's scripts and styles are its own files: nothing the Content-Security-Policy refuses
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)

    page.select_option("#system", "d6wild")
    # the system's options appear as form fields
    assert page.locator("#options [data-option=complication]").count() == 1
    page.fill("#expression", "4D+2 vs 15")
    page.press("#expression", "Enter")

    page.wait_for_selector("#roll:not([hidden]) #roll-dice li", timeout=30_000)
    line = page.inner_text("#roll-line")
    assert line.startswith("4D+2 vs 15:") and ("success" in line or "failure" in line)
    dice = page.locator("#roll-dice li")
    assert dice.count() >= 4  # three dice, the Wild Die, and any re-roll of a 6
    assert page.locator("#roll-dice li.wild").count() >= 1

    page.wait_for_selector("#odds:not([hidden]) #odds-chart svg rect.bar", timeout=30_000)
    bars = page.locator("#odds-chart svg rect.bar")
    assert bars.count() > 10
    # the chance of success shown is the exact one: Wild Die (exploding) + 3d6 + 2 >= 15
    stats = page.inner_text("#odds-stats")
    assert f"P(success) {100 * _wild_check(3, 2, 15):.2f}%" in stats
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)

    if page.is_visible("#lang"):  # the engine speaks more than English: the roll is told in French
        page.select_option("#lang", "fr")
        page.press("#expression", "Enter")
        # locator assertions, not page-evaluated strings: the page's Content-Security-Policy allows no eval
        sync_api.expect(page.locator("#roll-line")).not_to_have_text(re.compile("success|failure"))
        assert page.inner_text("#roll-line").startswith("4D+2 vs 15:")
        page.select_option("#lang", "en")

    page.fill("#expression", "4D+ vs 15")
    page.press("#expression", "Enter")
    page.wait_for_selector("#error:not([hidden])", timeout=30_000)
    caret = page.inner_text("#error-caret")
    lines = caret.split("\n")
    assert "4D+ vs 15" in lines[0]
    assert lines[1].index("^") == lines[0].index("4D+ vs 15") + 4  # under "vs", where a number was expected
    assert page.get_attribute("#expression", "aria-invalid") == "true"
    page.screenshot(path=str(tmp_path / "error.png"), full_page=True)
    assert (tmp_path / "page.png").stat().st_size > 10_000
    assert not messages, messages
    page.close()


def test_compare_and_convert(server: str, browser: sync_api.Browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 900})  # a phone
    page.goto(server + "/?system=d6&expression=4D%2B1%20vs%2015")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.click("#roll-button")
    page.wait_for_selector("#odds:not([hidden]) rect.bar", timeout=30_000)
    page.click("#compare-add")
    page.select_option("#system", "ffg")
    page.fill("#expression", "2a1p vs 2d")
    page.press("#expression", "Enter")
    sync_api.expect(page.locator("#roll-line")).to_have_text(re.compile(r"^2a1p vs 2d"))
    page.wait_for_selector("#odds-stats li", timeout=30_000)
    page.click("#compare-add")
    sync_api.expect(page.locator("#compare-table tr")).to_have_count(3, timeout=30_000)
    rows = page.inner_text("#compare-table")
    assert "d6: 4D+1 vs 15" in rows and "ffg: 2a1p vs 2d" in rows
    assert page.locator("#compare-chart polyline").count() == 2
    # the page is no wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.select_option("#convert-target", "d6")
    page.click("#convert-button")
    page.wait_for_selector("#convert-table tr:nth-child(2)", timeout=30_000)
    assert page.locator("#convert-table tr").count() == 6  # header and the five closest checks
    page.close()


def _wild_check(dice: int, pips: int, target: int) -> float:
    """P(sum of ``dice`` d6 + an exploding Wild Die + ``pips`` >= target), by enumeration."""
    from itertools import product

    wild: dict[int, float] = {}
    for k in range(12):  # k sixes then a non-six; (1/6)^12 is far below the rounding shown
        for face in range(1, 6):
            wild[6 * k + face] = wild.get(6 * k + face, 0.0) + (1 / 6) ** (k + 1)
    ok = 0.0
    for faces in product(range(1, 7), repeat=dice):
        base = sum(faces) + pips
        ok += sum(p for w, p in wild.items() if base + w >= target) / 6 ** dice
    return ok
