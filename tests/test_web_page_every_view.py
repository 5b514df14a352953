"""Issue 36: every view of the page in French and in English, at a desktop's and a phone's width, in a real browser
(Debian's Chromium driven by Playwright, against a real uvicorn server, as ``test_web_page_views``).

Each view is filled as a user fills it (a roll and its odds, a comparison, a conversion, a ladder, a fight, a table
with rolls, a Force roll and a flipped destiny token), then read as rendered:

- no untranslated label: in French, no element's own text is an English word or phrase that French says otherwise
  (the words the service serves to the page, ``GET /api/words/fr``: the page's catalogue and the engine's words
  it shows), nor ``P(word)`` of such a word;
- no tofu: no character of the dice, the outcomes and the legends is drawn as the font's missing glyph (rendered
  on a canvas and compared with a private-use character's box), the FFG dice being the page's own SVG glyphs;
- no clipped table: every table fits the box it is in (its last column readable without scrolling), except the
  tables made to scroll sideways on a phone (a fight's and a ladder's, one column a difficulty or a round mark),
  and the page itself is never wider than the screen.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from .browser import require_chromium, serving

expect = sync_api.expect
WAIT = 60_000
#: the tables made to scroll sideways in their box on a phone (a column per difficulty, per round mark)
SCROLLING = {"fight-table", "ladder-table"}
#: words French spells as English does, or names (a system's, a die's), which stay as they are
SAME = {"Force"}
#: what users wrote, shown as they wrote it (the example encounters' names)
USER_TEXTS = {"Roark against a stormtrooper", "A rebel against a stormtrooper squad"}

require_chromium()

#: the texts of the elements shown, each element's own text (its text nodes, not its children's), the selected
#: option of each select, and the tables that do not fit their box
_READ = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                          return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const texts = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "OPTION", "TEXTAREA"].includes(el.tagName) || !shown(el)) continue;
    if (el.closest("[hidden]")) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(" ").trim();
    if (own) texts.push(own);
    if (el.tagName === "SELECT" && el.selectedOptions.length) texts.push(el.selectedOptions[0].textContent.trim());
    for (const a of ["title", "aria-label", "placeholder"]) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
  }
  const clipped = [];
  for (const t of document.body.querySelectorAll("table")) {
    if (!shown(t) || t.closest("[hidden]")) continue;
    const box = t.parentElement;
    if (t.scrollWidth > box.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth + 1)
      clipped.push(`${t.id || t.className}: ${t.scrollWidth} in ${box.clientWidth}`);
  }
  // tofu: a character of the dice, the outcomes and the legends drawn as the font's missing glyph (the box a
  // character with no glyph gets, the same as a private-use character's), by rendering each on a canvas
  const canvas = document.createElement("canvas");
  canvas.width = 48; canvas.height = 48;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch, font) => { ctx.clearRect(0, 0, 48, 48); ctx.font = font; ctx.fillStyle = "#000";
                               ctx.fillText(ch, 4, 36); return ctx.getImageData(0, 0, 48, 48).data.join(","); };
  const tofu = [];
  for (const box of document.body.querySelectorAll(".dice, .outcome, .glyph-legend, #roll-line")) {
    if (!shown(box) || box.closest("[hidden]")) continue;
    const font = `24px ${getComputedStyle(box).fontFamily}`;
    const missing = draw("\\u{10FFFD}", font);
    for (const ch of new Set([...box.textContent].filter((c) => c.trim() && c.codePointAt(0) > 0x2000)))
      if (draw(ch, font) === missing) tofu.push(ch);
  }
  return { texts, clipped, tofu, page: document.documentElement.scrollWidth, width: innerWidth };
}"""


DATABASE: list[str] = []  # the server's database, for a test that takes a step beside the page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    db = tmp_path_factory.mktemp("tables") / "t.sqlite"
    DATABASE[:] = [str(db)]
    with serving(create_app(workers=1, tables=TableSettings(db=str(db)))) as url:
        yield url


def _words(server: str, lang: str) -> dict[str, str]:
    with urllib.request.urlopen(f"{server}/api/words/{lang}", timeout=60) as r:
        return json.loads(r.read())


def _template(english: str) -> re.Pattern[str]:
    """A message with ``{names}`` as the texts it writes: each name any text (``flipped a destiny token from the
    {source} to the {to}`` matches what it says filled in)."""
    parts = re.split(r"\{\w+\}", english)
    return re.compile(".+".join(re.escape(p) for p in parts))


def _english_left(texts: list[str], french: dict[str, str]) -> list[str]:
    """The texts shown that are an English word or phrase French says otherwise (``succeeded:``, ``letters``,
    ``proficiency``), ``P(...)`` of one, or an English sentence with its names filled in."""
    english = {en for en, fr in french.items() if "{" not in en and fr != en and en not in SAME}
    templates = [_template(en) for en, fr in french.items()
                 if "{" in en and fr != en and len(re.sub(r"\{\w+\}", "", en).strip()) > 3]
    left = []
    for text in texts:
        said = text.strip().rstrip(":").strip()
        if said in USER_TEXTS:
            continue
        inner = re.fullmatch(r"P\((.+)\)(?: .*)?", said)
        if said in english or (inner and inner[1] in english) or any(t.fullmatch(said) for t in templates):
            left.append(text)
    return left


def _read(page: Any) -> dict[str, Any]:
    return page.evaluate(_READ)


def _check_view(page: Any, lang: str, french: dict[str, str], where: str) -> list[str]:
    found = _read(page)
    troubles = [f"{where}: clipped {c}" for c in found["clipped"] if c.split(":")[0] not in SCROLLING]
    troubles += [f"{where}: {ch!r} is drawn as a missing glyph" for ch in found["tofu"]]
    if found["page"] > found["width"] + 1:
        troubles.append(f"{where}: the page is {found['page']} wide on a {found['width']} screen")
    if lang == "fr":
        troubles += [f"{where}: English left: {text!r}" for text in _english_left(found["texts"], french)]
    return troubles


def _walk_check(page: Any) -> None:
    page.select_option("#system", "ffg")
    page.fill("#expression", "2a1p vs 2d")
    page.press("#expression", "Enter")
    expect(page.locator("#odds-stats li").first).to_be_visible(timeout=WAIT)
    expect(page.locator("#roll-dice li").first).to_be_visible(timeout=WAIT)
    page.locator("#odds details summary").click()
    page.click("#compare-add")
    expect(page.locator("#compare-table tr").nth(1)).to_be_visible(timeout=WAIT)
    page.click("#convert-button")
    expect(page.locator("#convert-table tr").nth(1)).to_be_visible(timeout=WAIT)


def _walk_table(page: Any) -> None:
    page.click("#tab-table")
    page.fill("#table-gm", "Ana")
    page.select_option("#table-system", "ffg")
    page.fill("#table-light", "2")
    page.fill("#table-dark", "1")
    page.click("#table-create button[type=submit]")
    expect(page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
    for expression in ("2a1p vs 2d", "1f"):
        page.fill("#table-expression", expression)
        page.click("#table-roll-button")
    page.click("#table-flip-light")
    expect(page.locator("#table-log > li")).to_have_count(5, timeout=WAIT)  # the seed's step, the joining, three
    expect(page.locator("#table-luck-table tr").nth(1)).to_be_visible(timeout=WAIT)


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_view_in_both_languages_and_widths(server: str, browser: Any, lang: str, width: int) -> None:
    french = _words(server, "fr")
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="fr-FR" if lang == "fr" else "en-US")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.goto(server + "/#check")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)
    page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    troubles: list[str] = []
    _walk_check(page)
    troubles += _check_view(page, lang, french, "check")
    if lang == "fr":  # the examples, each with its new answer
        expect(page.locator("#odds-stats")).to_contain_text("P(réussite)")  # was P(succeeded)
        expect(page.locator("#odds-stats")).to_contain_text("P(triomphe)")  # was P(triumph)
        expect(page.locator("#odds-stats")).to_contain_text("P(avantage net)")  # was P(net advantage)
        expect(page.locator("#roll-outcome")).to_contain_text(re.compile(r"réussite: (oui|non)"))  # succeeded: non
        expect(page.locator("#options label").first).to_contain_text("lettres")  # was letters
        captions = page.locator("#roll-dice small").all_inner_texts()
        assert set(captions) <= {"compétence", "capacité", "difficulté"} and "compétence" in captions, captions
    page.click("#tab-ladders")
    page.select_option("#ladder-system", "ffg")
    expect(page.locator("#ladder-table tbody tr").first).to_be_visible(timeout=WAIT)
    troubles += _check_view(page, lang, french, "ladders")
    page.click("#tab-fights")
    expect(page.locator("#fight-table tbody tr").first).to_be_visible(timeout=WAIT)
    troubles += _check_view(page, lang, french, "fights")
    _walk_table(page)
    troubles += _check_view(page, lang, french, "table")
    # a roll's text is written by the service in the page's language (the table's, where it is stored, is
    # English): the words of rule text 004 in French
    shown = page.locator("#table-log .step-text")
    expect(shown.first).to_contain_text("2a1p vs 2d: [")
    expect(shown.first).to_contain_text("compétence" if lang == "fr" else "proficiency")
    assert not troubles, "\n".join(troubles)
    assert not problems, problems
    context.close()


def test_the_reading_finds_what_it_looks_for() -> None:
    """The checks themselves: an English label, ``P(word)`` and a colon-ended caption are found; French, a
    name and numbers are not."""
    french = {"succeeded": "réussi", "letters": "lettres", "proficiency": "compétence", "total": "total",
              "Force": "Force", "every die": "chaque dé", "flipped a destiny token from the {source} to the {to}":
              "a retourné un jeton de destinée du {source} au {to}", "P({what})": "P({what})"}
    shown = ["succeeded:", "P(succeeded) 65.08%", "letters", "proficiency", "total", "Force", "réussi", "65.08%",
             "Kira", "chaque dé", "flipped a destiny token from the côté lumineux to the côté obscur",
             "a retourné un jeton de destinée du côté lumineux au côté obscur", "P(réussi) 65.08%"]
    assert _english_left(shown, french) == ["succeeded:", "P(succeeded) 65.08%", "letters", "proficiency",
                                            "flipped a destiny token from the côté lumineux to the côté obscur"]


def test_a_saved_roll_is_rolled_by_name_on_the_page(server: str, browser: Any) -> None:
    """A roll saved at the table (by a bot, the command line: the library's step, stored beside the page) reaches
    the page live as a button; anyone rolls it as @name; an unknown name is refused in the page's words."""
    from diceengine.table import open_store
    from diceengine.table.aliases import save_roll

    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.goto(server + "/#check")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)
    page.select_option("#lang", "en")
    _walk_table(page)
    table_id = page.input_value("#table-share").rsplit("/", 1)[1]
    with open_store(DATABASE[0]) as store:  # a store closed is closed for good: each use opens its own
        store.update(table_id, lambda t: save_roll(t, "Ana", "shot", "4D+2 vs 15", system="d6wild",
                                                   complication="none"))
    expect(page.locator("#table-saved button")).to_have_text(["@shot"], timeout=WAIT)
    page.locator("#table-saved button").click()
    expect(page.locator("#table-expression")).to_have_value("@shot")
    page.click("#table-roll-button")
    last = page.locator("#table-log > li").last
    expect(last.locator(".step-expression")).to_have_text("4D+2 vs 15", timeout=WAIT)
    expect(last).to_contain_text("d6wild")
    with open_store(DATABASE[0]) as store:
        entry = store.load(table_id).log[-1]
    assert (entry.expression, entry.system, entry.options) == ("4D+2 vs 15", "d6wild", {"complication": "none"})
    # one's own roll of that name comes first (Ana is the page's member)
    with open_store(DATABASE[0]) as store:
        store.update(table_id, lambda t: save_roll(t, "Ana", "shot", "3d", personal=True))
    expect(page.locator("#table-saved button")).to_have_attribute("title", "3d", timeout=WAIT)
    expect(page.locator("#table-saved button")).to_have_count(1)
    page.fill("#table-expression", "@shot")
    page.click("#table-roll-button")
    expect(page.locator("#table-log > li").last.locator(".step-expression")).to_have_text("3d", timeout=WAIT)
    page.fill("#table-expression", "@nope")
    page.click("#table-roll-button")
    expect(page.locator("#table-roll .table-error-message")).to_have_text("no saved roll named @nope")
    context.close()
