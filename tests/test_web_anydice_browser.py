"""The page's AnyDice view in a real browser: headless Chromium (Debian's package) driven by Playwright, against a
real uvicorn server on a loopback port; skipped, with the reason, where Chromium or Playwright is missing."""

from __future__ import annotations

from collections.abc import Iterator

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


def test_a_program_its_charts_its_views_and_an_error_with_a_caret(server: str, browser: sync_api.Browser) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    messages: list[str] = []
    page.on("pageerror", lambda err: messages.append(str(err)))
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server + "/#anydice")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    # the example runs when the view is first shown: three outputs, each with its chart
    page.wait_for_selector("#anydice-result:not([hidden]) .anydice-output svg", timeout=30_000)
    assert page.locator(".anydice-output").count() == 3
    assert page.locator(".anydice-output h3").first.inner_text() == "advantage"

    page.fill("#anydice-program", 'output 1d4 named "four"\nfunction: f {}\noutput [f]')
    page.click("#anydice-button")
    page.wait_for_selector(".anydice-output h3:text-is('four')", timeout=30_000)  # (the page forbids eval)
    assert page.locator(".anydice-output").count() == 2
    first = page.locator(".anydice-output").first
    assert first.locator("h3").inner_text() == "four"
    assert "2.50" in first.locator(".anydice-stats").inner_text()  # the mean of a d4
    assert first.locator("rect.bar").count() == 4
    # the "at least" view: the first bar is the whole (100%), the last a quarter
    page.select_option("#anydice-view", "at_least")
    titles = [first.locator("rect.bar title").nth(i).text_content() for i in range(4)]
    assert "P(>=) 100.00%" in titles[0] and "P(>=) 25.00%" in titles[3]
    heights = [float(first.locator("rect.bar").nth(i).get_attribute("height")) for i in range(4)]
    assert heights == sorted(heights, reverse=True)
    assert "AnyDice" in page.locator(".anydice-output").nth(1).inner_text()  # the empty output says it shows nothing

    # an error: the engine's message, at its line, with the caret under the fault, in the page's language
    page.select_option("#lang", "fr")
    page.wait_for_selector("#tab-anydice:text-is('Programmes AnyDice')", timeout=30_000)
    page.fill("#anydice-program", "output 1\noutput d6 @ 2")
    page.click("#anydice-button")
    page.wait_for_selector("#anydice-error:not([hidden])", timeout=30_000)
    assert page.inner_text("#anydice-error-message").startswith("ligne 2 : une position est un nombre")
    assert page.inner_text("#anydice-error-caret") == "  output d6 @ 2\n            ^"
    assert page.get_attribute("#anydice-program", "aria-invalid") == "true"
    assert not messages, messages
    page.close()
