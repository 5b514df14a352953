"""The page's ladders and fights views and its French, in a real browser: headless Chromium (Debian's package)
driven by Playwright for Python against a real uvicorn server on a loopback port (as ``test_web_browser``).

The numbers the views show are checked against the service's answers and, for the ladder, against an
enumeration written here; waits are locator assertions (the page's Content-Security-Policy rightly refuses
page-evaluated strings).
"""

from __future__ import annotations

import json
import re
import tomllib
import urllib.request
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
from babel.messages.pofile import read_po

from diceengine import i18n

from .browser import require_chromium, serving

expect = sync_api.expect
ROOT = Path(__file__).resolve().parents[1]
WAIT = 30_000

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server running the application on a free loopback port."""
    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    db = tmp_path_factory.mktemp("tables") / "t.sqlite"
    with serving(create_app(workers=1, tables=TableSettings(db=str(db)))) as url:
        yield url


def _page(browser: Any, **context: Any) -> tuple[Any, list[str]]:
    """A page in a fresh context (its own storage), and the errors and policy refusals it reports."""
    page = browser.new_context(**{"viewport": {"width": 1000, "height": 1100}, **context}).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    return page, problems


def _post(server: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(server + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def pct(p: float) -> str:
    """A chance as the page writes it (common.js, pct)."""
    if p == 0:
        return "0%"
    if p < 0.0001:
        mantissa, exponent = f"{p:.2e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{100 * p:.2f}%"


def _at_least(dice: int, target: int) -> float:
    """P(the sum of ``dice`` d6 >= target), by enumeration."""
    hits = sum(1 for faces in product(range(1, 7), repeat=dice) if sum(faces) >= target)
    return float(Fraction(hits, 6 ** dice))


def _ready(page: Any, server: str, where: str) -> None:
    page.goto(server + where)
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)


# -- ladders -------------------------------------------------------------------------------------------


def test_the_ladders_view_draws_a_systems_ladder(server: str, browser: Any, tmp_path: Path) -> None:
    page, problems = _page(browser)
    _ready(page, server, "/#ladders/d6")
    table = page.locator("#ladder-table")
    expect(table.locator("tbody tr")).to_have_count(8, timeout=WAIT)
    expect(page.locator("#tab-ladders")).to_have_attribute("aria-current", "page")
    expect(table.locator("thead th")).to_have_text(["character", "point blank", "short", "medium", "long"])
    answer = _post(server, "/api/ladder", {"system": "d6"})
    for i, row in enumerate(answer["rows"]):
        cells = table.locator("tbody tr").nth(i)
        expect(cells.locator("th")).to_have_text(row["character"])
        expect(cells.locator("td")).to_have_text([pct(p) for p in row["chances"]])
    # classic D6's ranges (text 000): point blank 5, short 10, medium 15, long 20; 3D vs short by enumeration
    expect(table.locator("tbody tr").nth(2).locator("td").nth(1)).to_have_text(pct(_at_least(3, 10)))
    expect(table.locator("tbody tr").nth(1).locator("td").nth(0)).to_have_text(pct(_at_least(2, 5)))
    # the chart: one line per difficulty, a point per character on each
    expect(page.locator("#ladder-chart polyline")).to_have_count(4)
    expect(page.locator("#ladder-chart circle")).to_have_count(32)
    expect(page.locator("#ladder-legend li")).to_have_text(["point blank", "short", "medium", "long"])

    # another system through the chooser: the address follows, and the ladder is that system's
    page.select_option("#ladder-system", "ffg")
    expect(page).to_have_url(re.compile(r"#ladders/ffg$"))
    expect(table.locator("thead th")).to_have_text(["character", "easy", "average", "hard", "daunting", "formidable"],
                                                   timeout=WAIT)
    ffg = _post(server, "/api/ladder", {"system": "ffg"})
    expect(table.locator("tbody tr").first.locator("td")).to_have_text([pct(p) for p in ffg["rows"][0]["chances"]])
    expect(page.locator("#ladder-chart polyline")).to_have_count(5)
    page.screenshot(path=str(tmp_path / "ladders.png"), full_page=True)
    assert not problems, problems
    page.close()


# -- fights --------------------------------------------------------------------------------------------


def _fight_rows(page: Any, answer: dict[str, Any]) -> None:
    """The fight's table says the answer's numbers."""
    rows = page.locator("#fight-table tbody tr")
    expect(rows).to_have_count(len(answer["results"]), timeout=WAIT)
    for i, res in enumerate(answer["results"]):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-system", res["system"])
        expect(row.locator("td.a-wins")).to_have_text(pct(res["a_wins"]))
        expect(row.locator("td.b-wins")).to_have_text(pct(res["b_wins"]))
        expect(row.locator("td.both-down")).to_have_text(pct(res["both_down"]))
        expect(row.locator("td.mean-rounds")).to_have_text(f"{res['mean_rounds']:.2f}")


def test_the_fights_view_compares_an_encounter(server: str, browser: Any, tmp_path: Path) -> None:
    page, problems = _page(browser)
    _ready(page, server, "/#fights")
    roark = (ROOT / "examples" / "roark.toml").read_text(encoding="utf-8")
    answer = _post(server, "/api/fight", {"text": roark, "method": "auto", "fights": 20000})
    expect(page.locator("#fight-caption")).to_have_text("Roark against a stormtrooper", timeout=WAIT)
    expect(page.locator("#fight-text")).to_have_value(roark)
    _fight_rows(page, answer)
    expect(page.locator("#fight-table thead th").nth(2)).to_have_text("Roark wins")
    # the published comparison (docs/fights.md): Roark wins 90.62% in D6, 26.59% in FFG
    expect(page.locator("#fight-table tbody tr").first.locator("td.a-wins")).to_have_text("90.62%")
    expect(page.locator("#fight-table tbody tr").nth(2).locator("td.a-wins")).to_have_text("26.59%")
    # the charts, drawn from the answer: a line per ruleset, and per side and ruleset (side b dashed)
    expect(page.locator("#fight-chart-ends svg polyline")).to_have_count(3)
    expect(page.locator("#fight-chart-won svg polyline")).to_have_count(6)
    expect(page.locator("#fight-chart-won svg polyline[stroke-dasharray]")).to_have_count(3)
    points = page.locator("#fight-chart-ends svg polyline").first.get_attribute("points") or ""
    assert len(points.split()) == len(answer["results"][0]["ended"]) == 20
    page.screenshot(path=str(tmp_path / "fights.png"), full_page=True)

    # the other example, from the chooser
    page.select_option("#fight-example", "stormtroopers")
    expect(page.locator("#fight-caption")).to_have_text("A rebel against a stormtrooper squad", timeout=WAIT)
    squad = (ROOT / "examples" / "stormtroopers.toml").read_text(encoding="utf-8")
    _fight_rows(page, _post(server, "/api/fight", {"text": squad}))

    # a fault in the typed text: the engine's message and a caret under it
    page.fill("#fight-text", 'name = "Duel"\nsides = ["A" "B"]\n')
    page.click("#fight-button")
    expect(page.locator("#fight-error")).to_be_visible(timeout=WAIT)
    expect(page.locator("#fight-error-message")).to_contain_text("not valid TOML")
    expect(page.locator("#fight-error-caret")).to_have_text(re.compile(r'sides = \["A" "B"\]\n {15}\^'))
    expect(page.locator("#fight-text")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#fight-result")).to_be_hidden()

    # what a user types is shown as text: markup in a name is its characters, never elements
    data = tomllib.loads(squad)
    data["name"] = '<img src=x id="injected"> & <b>bold</b>'
    data["sides"] = ["<i>Rebel</i>", "Troopers"]
    page.fill("#fight-text", "")
    file = tmp_path / "encounter.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    page.set_input_files("#fight-file", str(file))  # a JSON file, read in the browser and sent as its text
    expect(page.locator("#fight-caption")).to_have_text(data["name"], timeout=WAIT)
    expect(page.locator("#fight-table thead th").nth(2)).to_have_text("<i>Rebel</i> wins")
    expect(page.locator("#injected")).to_have_count(0)
    expect(page.locator("#fight-caption b, #fight-table i")).to_have_count(0)
    _fight_rows(page, _post(server, "/api/fight", {"encounter": data}))
    assert not problems, problems
    page.close()


def test_the_fights_view_fits_a_phone(server: str, browser: Any) -> None:
    page, problems = _page(browser, viewport={"width": 390, "height": 900})
    _ready(page, server, "/#fights")
    expect(page.locator("#fight-table tbody tr")).to_have_count(3, timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the wide table scrolls in its box
    assert not problems, problems
    page.close()


# -- French --------------------------------------------------------------------------------------------


def _french() -> dict[str, str]:
    with open(Path(i18n.locale_dir()) / "fr" / "LC_MESSAGES" / "page.po", "rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id}


def _no_english(page: Any, french: dict[str, str]) -> None:
    """None of the page's English phrases (those French says otherwise) is left on the visible page."""
    shown = page.inner_text("body")
    left = [en for en, fr in french.items() if " " in en and "{" not in en and fr != en and en in shown]
    assert not left, left


def test_the_page_in_french(server: str, browser: Any, tmp_path: Path) -> None:
    french = _french()
    page, problems = _page(browser)
    _ready(page, server, "/#check")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#tab-fights")).to_have_text("Fights")
    page.press("#expression", "Enter")
    expect(page.locator("#odds")).to_be_visible(timeout=WAIT)

    page.select_option("#lang", "fr")  # one choice: the page's words and the roll's text
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#tab-check")).to_have_text("Jet")
    expect(page.locator("#tab-ladders")).to_have_text("Échelles")
    expect(page.locator("#tab-fights")).to_have_text("Combats")
    expect(page.locator("#odds-title")).to_have_text("Probabilités exactes")
    expect(page.locator("#seed")).to_have_attribute("placeholder", "au hasard")
    expect(page).to_have_title("diceengine : lancers et probabilités exactes")
    expect(page.locator("#odds-stats")).to_contain_text("moyenne (total)")  # drawn again in French
    page.press("#expression", "Enter")
    expect(page.locator("#roll-line")).to_have_text(re.compile(r"^4D\+2 vs 15: .*(réussite|échec)"), timeout=WAIT)
    _no_english(page, french)
    page.screenshot(path=str(tmp_path / "check-fr.png"), full_page=True)

    # remembered: the page comes back in French
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lang")).to_have_value("fr")
    expect(page.locator("#check-title")).to_have_text("Jet")

    page.click("#tab-ladders")
    table = page.locator("#ladder-table")
    expect(table.locator("thead th")).to_have_text(["personnage", "très facile", "facile", "moyen", "difficile",
                                                    "très difficile", "héroïque"], timeout=WAIT)
    expect(page.locator("#ladders-title")).to_have_text("Échelles de difficulté")
    _no_english(page, french)
    page.select_option("#ladder-system", "ffg")
    expect(table.locator("tbody th").first).to_have_text("caractéristique 2, compétence 0", timeout=WAIT)
    expect(table.locator("thead th")).to_have_text(["personnage", "facile", "moyenne", "difficile", "intimidante",
                                                    "redoutable"])

    page.click("#tab-fights")
    expect(page.locator("#fight-table thead th").nth(2)).to_have_text("victoire Roark", timeout=WAIT)
    expect(page.locator("#fight-table thead th").nth(4)).to_have_text("tous à terre")
    expect(page.locator("#fight-roster")).to_have_text("Roark contre Stormtrooper")
    expect(page.locator("#fight-button")).to_have_text("Comparer les règles")
    _no_english(page, french)
    page.screenshot(path=str(tmp_path / "fights-fr.png"), full_page=True)

    # and back to English, everything drawn again
    page.select_option("#lang", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#fight-table thead th").nth(2)).to_have_text("Roark wins")
    expect(page.locator("#tab-fights")).to_have_text("Fights")
    assert not problems, problems
    page.close()


def test_a_french_browser_gets_the_page_in_french(server: str, browser: Any) -> None:
    page, problems = _page(browser, locale="fr-FR")
    _ready(page, server, "/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lang")).to_have_value("fr")
    expect(page.locator("#roll-button")).to_have_text("Lancer")
    assert not problems, problems
    page.close()
