"""The page's expression box reads a ``system:`` prefix as the command line does (``ffg: 2a1p vs 2d`` rolls
FFG dice whatever system is selected), and runs under its Content-Security-Policy: in headless Chromium."""

from __future__ import annotations

import pytest

from .test_web_browser import server, sync_api  # noqa: F401 (the fixture; browser: tests/conftest.py)


def test_a_system_prefix_picks_the_system(server: str, browser: sync_api.Browser) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.select_option("#system", "standard")
    page.fill("#expression", "ffg: 2a1p vs 2d")
    page.press("#expression", "Enter")
    page.wait_for_selector("#roll:not([hidden]) #roll-dice li", timeout=30_000)
    line = page.inner_text("#roll-line")
    assert line.startswith("2a1p vs 2d:"), line
    dice = page.inner_text("#roll-dice")
    assert "proficiency" in dice and "difficulty" in dice  # FFG's dice, not a standard expression's
    assert page.locator("#error").is_hidden()
    # a word before a colon that names no system stays in the expression: the engine's own error
    page.fill("#expression", "nosuch: 2d6")
    page.press("#expression", "Enter")
    page.wait_for_selector("#error:not([hidden])", timeout=30_000)
    assert problems == []
    page.close()


@pytest.mark.parametrize("prefix", ["d6wild: ", " d6wild :"])
def test_the_prefix_with_spaces(server: str, browser: sync_api.Browser, prefix: str) -> None:  # noqa: F811
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.select_option("#system", "ffg")
    page.fill("#expression", prefix + "4D+2 vs 15")
    page.press("#expression", "Enter")
    page.wait_for_selector("#roll:not([hidden]) #roll-dice li", timeout=30_000)
    assert page.inner_text("#roll-line").startswith("4D+2 vs 15:")
    assert "wild" in page.inner_text("#roll-dice").lower()
    page.close()


def test_ffg_dice_show_their_symbols(server: str, browser: sync_api.Browser) -> None:  # noqa: F811
    import re

    import diceengine as de

    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.select_option("#system", "ffg")
    page.fill("#seed", "4")
    page.fill("#expression", "2a1p1b vs 2d1s")
    page.press("#expression", "Enter")
    page.wait_for_selector("#roll:not([hidden]) #roll-dice li", timeout=30_000)
    dice = page.locator("#roll-dice li")
    # each die drawn with the page's own glyphs (issue 36: colour emoji are empty boxes without their font): the
    # die's shape, then each symbol of its face, each glyph saying its name
    shown = [dice.nth(i).locator("svg.glyph").evaluate_all("gs => gs.map(g => g.getAttribute('aria-label'))")
             for i in range(dice.count())]
    rolled = de.roll("2a1p1b vs 2d1s", system="ffg", seed=4)
    want = [[d.kind, *d.face.split(" + ")] for d in rolled.dice]
    assert shown == want
    assert re.search(r"\[(.*)\]", rolled.render("symbols"))  # the terminal's symbols: the same roll
    assert page.locator("#roll-dice li.symbols").count() == dice.count()
    # the words stay the die's name, for a title and a screen reader
    assert "proficiency" in (dice.nth(0).get_attribute("aria-label") or "")
    page.close()
