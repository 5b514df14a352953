"""The page's table view in real browsers: a real uvicorn server on a temporary SQLite file and headless
Chromium (Debian's package) with three browser contexts, a game master and two players, each with its own
storage, as three people on three machines. What one does reaches the others' pages through the live log;
a secret roll's dice reach the game master's page only; a page cut off the network and back misses nothing and
doubles nothing; what a player types (names, labels, characters) is shown to the others as text, never run;
the page's Content-Security-Policy is never violated. Skipped, with the reason, where Chromium or Playwright is
missing; CI installs both (``.ci/run``).

Assertions wait with Playwright's locator ``expect``: the page's policy forbids page-evaluated strings."""

from __future__ import annotations

import itertools
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Dialog, Locator, Page, Response

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
from .browser import require_chromium

expect = sync_api.expect

WAIT = 20_000  # ms: the machine is shared

require_chromium()

# what the members type: markup and script that must be shown as text and never run
GM = 'Ana <img src=x onerror="document.title=\'pwned-gm\'">'
KIRA = "Kira <script>document.title='pwned-kira'</script>"
JAX = '<b onmouseover="document.title=\'pwned-jax\'">Jax</b>'
LABEL = '<img src=x onerror="document.title=\'pwned-label\'"> to hit'
CHARACTER = '<svg onload="document.title=\'pwned-character\'">Kel'
# a secret roll's expression: no other step of the test rolls it
SECRET = "1p2b vs 3c1s"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serving:
    """A real uvicorn server running the application on ``port``, its tables in the SQLite file ``db``."""

    def __init__(self, db: Path, port: int) -> None:
        from diceengine.web import create_app
        from diceengine.web.tables import TableSettings

        app = create_app(workers=0, tables=TableSettings(db=str(db)))
        # an open event stream is cut a second after the server is told to stop
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 60
        while not self.server.started:
            assert self.thread.is_alive() and time.time() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        assert not self.thread.is_alive(), "the server did not stop"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server running the application, its tables in a fresh SQLite file."""
    port = _free_port()
    serving = Serving(tmp_path_factory.mktemp("tables") / "tables.sqlite", port)
    yield f"http://127.0.0.1:{port}"
    serving.stop()


@dataclass
class Member:
    """One person's browser: its own context (storage, network), its page and what its console said."""

    context: BrowserContext
    page: Page
    troubles: list[str] = field(default_factory=list)

    def steps(self) -> Locator:
        return self.page.locator("#table-log > li")

    def step(self, seq: int) -> Locator:
        return self.page.locator(f"#table-log > li[data-seq='{seq}']")

    def seqs(self) -> list[int]:
        return [int(li.get_attribute("data-seq") or 0) for li in self.steps().all()]

    def roll(self, expression: str, label: str = "", secret: bool = False) -> None:
        p = self.page
        p.fill("#table-expression", expression)
        if label:
            expect(p.locator("#table-label")).to_be_enabled()
            p.fill("#table-label", label)
        if secret:
            p.check("#table-secret")
        elif p.locator("#table-secret").is_visible():
            p.uncheck("#table-secret")
        p.click("#table-roll-button")


def _member(browser: Browser, url: str, width: int = 1280) -> Member:
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    m = Member(context, page)

    def on_console(msg: ConsoleMessage) -> None:
        # a failed request is told by its answer below (the console's line does not name it)
        if "Content Security Policy" in msg.text or msg.type == "error" and "Failed to load resource" not in msg.text:
            m.troubles.append(msg.text)

    def on_response(response: Response) -> None:
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            m.troubles.append(f"{response.status} {response.url}")

    def on_dialog(dialog: Dialog) -> None:
        m.troubles.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("pageerror", lambda err: m.troubles.append(f"page error: {err}"))
    page.on("console", on_console)
    page.on("response", on_response)
    page.on("dialog", on_dialog)
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    return m


def _create(browser: Browser, server: str, gm: str, light: int = 2, dark: int = 1) -> tuple[Member, str]:
    """The game master creates an FFG table on the page; answers the member and the link to share."""
    m = _member(browser, server + "/#table")
    p = m.page
    p.fill("#table-gm", gm)
    p.select_option("#table-system", "ffg")
    p.fill("#table-light", str(light))
    p.fill("#table-dark", str(dark))
    p.click("#table-create button[type=submit]")
    expect(p.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
    link = p.input_value("#table-share")
    assert re.fullmatch(re.escape(server) + r"/#table/[A-Za-z0-9_-]{22}", link), link
    # the key is kept in the browser, never in the address
    assert "key" not in p.url and len(link.rsplit("/", 1)[1]) == 22
    return m, link


def _join(browser: Browser, link: str, name: str, width: int = 1280) -> Member:
    m = _member(browser, link, width)
    m.page.fill("#table-join-name", name)
    m.page.click("#table-join button[type=submit]")
    expect(m.page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
    return m


def _no_markup_ran(m: Member) -> None:
    """No element came from what the members typed: no image, script, handler attribute in the view, and the
    page's title untouched by any of their scripts."""
    view = m.page.locator("#view-table")
    for selector in ("img", "script", "svg[onload]", "b[onmouseover]", "[onerror]", "[onload]", "[onmouseover]"):
        expect(view.locator(selector)).to_have_count(0)
    assert "pwned" not in m.page.title()


def _sum_2d6() -> dict[int, int]:
    """The ways of each total of two six-sided dice, by enumeration."""
    ways: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        ways[a + b] = ways.get(a + b, 0) + 1
    return ways


def _pct(p: float) -> str:
    """A chance as the page writes it (common.js ``pct``: none is ``0%``; the chances here are above 1e-4)."""
    return "0%" if p == 0 else f"{100 * p:.2f}%"


def test_three_browsers_share_the_log_the_secret_stays_secret_and_typed_text_stays_text(
        server: str, browser: Browser) -> None:
    gm, link = _create(browser, server, GM)
    kira = _join(browser, link, KIRA)
    jax = _join(browser, link, JAX, width=390)  # a phone
    everyone = (gm, kira, jax)
    for m in everyone:
        expect(m.steps()).to_have_count(4, timeout=WAIT)  # the seed's commitment, the game master's joining, each player's
        # a table made on the page commits its server seed first (the box ticked by default)
        expect(m.step(1)).to_have_class(re.compile(r"\bstep-seed\b"))
        expect(m.step(2).locator(".step-member")).to_have_text(GM)
        expect(m.step(3).locator(".step-member")).to_have_text(KIRA)
        expect(m.step(4).locator(".step-member")).to_have_text(JAX)
    expect(gm.page.locator("#table-who")).to_contain_text(KIRA, timeout=WAIT)
    expect(gm.page.locator("#table-who")).to_contain_text(JAX, timeout=WAIT)
    # the game master's parts are the game master's: players see no secret box, no undo, no share link
    for p in (kira, jax):
        expect(p.page.locator("#table-secret")).to_be_hidden()
        expect(p.page.locator("#table-undo")).to_be_hidden()
        expect(p.page.locator("#table-share")).to_be_hidden()

    # a roll by one appears in the others' logs, with its dice and its exact odds
    kira.roll("2a1p vs 2d")
    for m in everyone:
        expect(m.step(5).locator(".step-expression")).to_have_text("2a1p vs 2d", timeout=WAIT)
        expect(m.step(5).locator(".step-member")).to_have_text(KIRA)
        expect(m.step(5).locator(".die")).to_have_count(5)
        expect(m.step(5).locator(".table-odds")).to_contain_text("chance of success")

    # the exact odds beside what happened, checked by enumeration: D6's 2D (two six-sided dice) against 8
    jax.roll("d6: 2D vs 8")
    ways = _sum_2d6()
    for m in everyone:
        expect(m.step(6).locator(".die")).to_have_count(2, timeout=WAIT)
        faces = [int(t.split()[0]) for t in m.step(6).locator(".die").all_inner_texts()]
        total = sum(faces)
        below = sum(w for s, w in ways.items() if s < total) / 36
        at = ways[total] / 36
        odds = m.step(6).locator(".table-odds")
        expect(odds).to_contain_text(f"chance of success {_pct(sum(w for s, w in ways.items() if s >= 8) / 36)}")
        expect(odds).to_contain_text(f"total {total}: {_pct(below)} of rolls lower, {_pct(at)} exactly this")
        expect(odds.locator("b")).to_have_text("succeeded" if total >= 8 else "failed")

    # a label (the standard notation's description) is shown as text to the others
    kira.roll("standard: 1d20+5", label=LABEL)
    for m in everyone:
        expect(m.step(7).locator(".step-expression")).to_have_text(f"1d20+5 # {LABEL}", timeout=WAIT)

    # a secret roll: the game master reads it; the players read that it happened, nothing of it
    gm.roll(SECRET, secret=True)
    expect(gm.step(8).locator(".step-expression")).to_have_text(SECRET, timeout=WAIT)
    expect(gm.step(8).locator(".secret-badge")).to_be_visible()
    expect(gm.step(8).locator(".die")).to_have_count(7)
    for p in (kira, jax):
        expect(p.step(8)).to_have_class(re.compile(r"\bsecret\b"), timeout=WAIT)
        expect(p.step(8).locator(".step-what")).to_have_text("rolled in secret")
        expect(p.step(8).locator(".die")).to_have_count(0)
        expect(p.step(8).locator(".outcome, .table-odds, .step-expression")).to_have_count(0)
        assert SECRET not in p.page.content()
    # nor in the luck panel: each player's page counts the game master's rolls it may read (none)
    for p in (kira, jax):
        expect(p.page.locator("#table-luck-table tr[data-member] td").nth(1)).to_have_text("0", timeout=WAIT)
    expect(gm.page.locator("#table-luck-table tr[data-member]").first.locator("td").nth(1)).to_have_text(
        "1", timeout=WAIT)

    # a character, its name typed by a player: shown as text to all
    jax.page.click("#table-character-add summary")
    jax.page.fill("#table-character-name", CHARACTER)
    jax.page.click("#table-character-form button[type=submit]")
    for m in everyone:
        expect(m.page.locator("#table-characters .character-name")).to_have_text(CHARACTER, timeout=WAIT)
        expect(m.page.locator("#table-characters")).to_contain_text(f"played by {JAX}")
        expect(m.step(9).locator(".step-what")).to_have_text(f"brought in the character {CHARACTER}")

    # the destiny pool: a player flips a light side token, the others see it at once
    for m in everyone:
        expect(m.page.locator("#table-destiny-light")).to_have_text("2")
    kira.page.click("#table-flip-light")
    for m in everyone:
        expect(m.page.locator("#table-destiny-light")).to_have_text("1", timeout=WAIT)
        expect(m.page.locator("#table-destiny-dark")).to_have_text("2")
        expect(m.page.locator("#table-pools .pip.dark")).to_have_count(2)

    # initiative: the game master sets the order, a player moves to the next turn, then the next round
    gm.page.fill("#table-order-input", f"{CHARACTER}, Vader")
    gm.page.click("#table-order-form button[type=submit]")
    for m in everyone:
        expect(m.page.locator("#table-order li.current")).to_have_text(CHARACTER, timeout=WAIT)
    jax.page.click("#table-next-turn")
    for m in everyone:
        expect(m.page.locator("#table-order li.current")).to_have_text("Vader", timeout=WAIT)
    kira.page.click("#table-next-round")
    for m in everyone:
        expect(m.page.locator("#table-round")).to_have_text("Round 2", timeout=WAIT)
        expect(m.page.locator("#table-order li.current")).to_have_text(CHARACTER)

    # a re-roll marks the first roll; the game master's undo marks the re-roll and lifts that mark
    kira.page.click("#table-reroll")
    for m in everyone:
        expect(m.step(14).locator(".step-what")).to_have_text("re-rolled step 7", timeout=WAIT)
        expect(m.step(7)).to_have_class(re.compile(r"\brerolled\b"))
    gm.page.click("#table-undo")
    for m in everyone:
        expect(m.step(15).locator(".step-what")).to_have_text("undid step 14", timeout=WAIT)
        expect(m.step(14)).to_have_class(re.compile(r"\bundone\b"))
        expect(m.step(7)).not_to_have_class(re.compile(r"\brerolled\b"))
    # a player may not undo: the page says why, and nothing is logged
    assert jax.page.locator("#table-undo").is_hidden()

    # a rule of play: a player spends a light side token for a bonus die; the check it calls for, rolled
    kira.page.click("#table-rule-box summary")
    kira.page.fill("#table-rule", "spend_destiny")
    kira.page.fill("#table-rule-args", '{"by": "players", "choice": "bonus", "pool": "2a1p vs 2d"}')
    kira.page.click("#table-rule-form button[type=submit]")
    for m in everyone:
        expect(m.step(16).locator(".step-what")).to_have_text("applied spend_destiny to the scene", timeout=WAIT)
        expect(m.step(16).locator("code")).to_have_text("1a2p vs 2d")  # one green die upgraded to yellow
        expect(m.page.locator("#table-destiny-light")).to_have_text("0")
        expect(m.page.locator("#table-destiny-dark")).to_have_text("3")
    kira.step(16).get_by_role("button", name="Roll this check").click()
    expect(kira.page.locator("#table-expression")).to_have_value("1a2p vs 2d")
    kira.page.click("#table-roll-button")
    for m in everyone:
        expect(m.step(17).locator(".step-expression")).to_have_text("1a2p vs 2d", timeout=WAIT)

    # every page shows every step once, in order; no markup anyone typed ran; the policy was never violated
    for m in everyone:
        expect(m.steps()).to_have_count(17, timeout=WAIT)
        assert m.seqs() == list(range(1, 18))
        _no_markup_ran(m)
        expect(m.page.get_by_text(LABEL, exact=False).first).to_be_visible()
    for m in everyone:
        assert not m.troubles, m.troubles
        m.context.close()


def test_a_page_offline_misses_nothing_and_a_reload_keeps_the_seat(server: str, browser: Browser) -> None:
    gm, link = _create(browser, server, "Marion", light=1, dark=1)
    kira = _join(browser, link, "Kira")
    lea = _join(browser, link, "Lea")
    expect(lea.steps()).to_have_count(4, timeout=WAIT)

    lea.context.set_offline(True)
    expect(lea.page.locator("#table-status")).to_have_attribute("data-state", re.compile("offline|reconnecting"),
                                                                timeout=WAIT)
    kira.roll("2a vs 1d")
    gm.roll("1p vs 1c", secret=True)
    kira.page.click("#table-flip-light")
    gm.roll("3b")
    kira.page.click("#table-reroll")
    expect(gm.steps()).to_have_count(9, timeout=WAIT)
    time.sleep(1.0)  # the steps are stored and streamed to the others: none reached the page offline
    assert lea.seqs() == [1, 2, 3, 4]

    lea.context.set_offline(False)
    expect(lea.page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
    expect(lea.steps()).to_have_count(9, timeout=WAIT)
    assert lea.seqs() == list(range(1, 10))
    expect(lea.step(6).locator(".step-what")).to_have_text("rolled in secret")
    expect(lea.step(6).locator(".die")).to_have_count(0)
    expect(lea.page.locator("#table-destiny-dark")).to_have_text("2")
    expect(lea.step(9).locator(".step-what")).to_have_text("re-rolled step 5")
    expect(lea.step(5)).to_have_class(re.compile(r"\brerolled\b"))

    # after the reconnect the stream goes on, and a roll appears once
    gm.roll("2d")
    expect(lea.steps()).to_have_count(10, timeout=WAIT)
    time.sleep(0.5)
    assert lea.seqs() == list(range(1, 11))

    # a reload keeps the seat (the key is in this browser's storage): the same member, the whole log once
    kira.page.reload()
    kira.page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    expect(kira.page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
    expect(kira.page.locator("#table-who")).to_contain_text("you are Kira")
    expect(kira.page.locator("#table-join-name")).to_be_hidden()
    expect(kira.steps()).to_have_count(10, timeout=WAIT)
    assert kira.seqs() == list(range(1, 11))
    kira.roll("1a")
    for m in (gm, kira, lea):
        expect(m.steps()).to_have_count(11, timeout=WAIT)
        assert m.seqs() == list(range(1, 12))

    # another browser with the link but no key joins as a new member, not into Kira's seat
    other = _member(browser, link)
    expect(other.page.locator("#table-join-name")).to_be_visible(timeout=WAIT)
    expect(other.page.locator("#table-log > li")).to_have_count(0)
    # the page cut off the network said so in its console (its requests failed), nothing else
    lea.troubles = [t for t in lea.troubles if "ERR_INTERNET_DISCONNECTED" not in t]
    for m in (gm, kira, lea, other):
        assert not m.troubles, m.troubles
        m.context.close()


def _seat(m: Member, table_id: str) -> dict[str, str]:
    """The seat this browser keeps for the table (its localStorage), as the page stored it."""
    import json

    for origin in m.context.storage_state()["origins"]:
        for item in origin["localStorage"]:
            if item["name"] == f"diceengine.table.{table_id}":
                return dict(json.loads(item["value"]))
    raise AssertionError(f"no seat for {table_id} in this browser")


def test_a_server_restart_misses_nothing(tmp_path: Path, browser: Browser) -> None:
    """The server stops while the pages are open; steps are stored meanwhile by another process on the same
    database; a new server on the same address: every page resumes after its last step."""
    from diceengine import table as T

    db, port = tmp_path / "tables.sqlite", _free_port()
    url = f"http://127.0.0.1:{port}"
    serving = Serving(db, port)
    gm, link = _create(browser, url, "Marion")
    kira = _join(browser, link, "Kira")
    kira.roll("2a vs 1d")
    for m in (gm, kira):
        expect(m.steps()).to_have_count(4, timeout=WAIT)

    serving.stop()
    for m in (gm, kira):
        expect(m.page.locator("#table-status")).to_have_attribute("data-state", "reconnecting", timeout=WAIT)
    table_id = link.rsplit("/", 1)[1]
    store = T.open_store(str(db))
    try:  # the steps another server process on the same database would store
        seat = store.seat(table_id, _seat(gm, table_id)["key"])
        seat.roll("1p vs 1c", secret=True)
        seat.flip("destiny.light", "destiny.dark")
        store.seat(table_id, _seat(kira, table_id)["key"]).roll("3b")
    finally:
        store.close()

    serving = Serving(db, port)
    try:
        for m in (gm, kira):
            expect(m.page.locator("#table-status")).to_have_attribute("data-state", "live", timeout=WAIT)
            expect(m.steps()).to_have_count(7, timeout=WAIT)
            assert m.seqs() == list(range(1, 8))
            expect(m.page.locator("#table-destiny-light")).to_have_text("1")
        expect(gm.step(5).locator(".step-expression")).to_have_text("1p vs 1c")
        expect(kira.step(5).locator(".die")).to_have_count(0)
        expect(kira.step(7).locator(".step-expression")).to_have_text("3b")
        gm.roll("1d")
        for m in (gm, kira):
            expect(m.steps()).to_have_count(8, timeout=WAIT)
            assert m.seqs() == list(range(1, 9))
        for m in (gm, kira):
            # while the server was down the page's requests failed: that, and nothing else, in its console
            cut = ("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING", "ERR_EMPTY_RESPONSE")
            m.troubles = [t for t in m.troubles if not any(c in t for c in cut)]
            assert not m.troubles, m.troubles
            m.context.close()
    finally:
        serving.stop()


def test_the_create_form_refuses_with_the_engines_message(server: str, browser: Browser) -> None:
    m = _member(browser, server + "/#table", width=390)
    p = m.page
    p.fill("#table-link", "not a link at all")
    p.click("#table-open button[type=submit]")
    expect(p.locator("#table-open .table-error-message")).to_have_text("that is not a table's link")
    # a link to no table: the join form says so when joining
    p.fill("#table-link", server + "/#table/AAAAAAAAAAAAAAAAAAAAAA")
    p.click("#table-open button[type=submit]")
    p.fill("#table-join-name", "Kira")
    p.click("#table-join button[type=submit]")
    expect(p.locator("#table-join .table-error-message")).to_contain_text("there is no such table", timeout=WAIT)
    assert m.troubles == [f"404 {server}/tables/AAAAAAAAAAAAAAAAAAAAAA/join"], m.troubles
    m.context.close()


