"""The page's members, saved rolls and languages in a real browser: the game master saves a roll that a player
rolls as @name; a player reading in French sees a roll's text in French on an English table (rendered by the
service); the game master gives a player a new key (the old one refused at once, the new one shown to pass on),
takes a new key of their own and plays on, and removes a player, whose page is refused; the player given a new key
enters it on their page (and on another browser) and plays on, the key never in an address; the removed player
cannot join again until the game master lets them back. A real uvicorn server, Debian's Chromium; skipped, with
the reason, where either is missing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("httpx2", reason="the test extra (httpx2) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
from .browser import ARGS, CHROMIUM, require_chromium
from .test_web_table_page_provable import _page as provable_page
from .test_web_table_page_provable import server  # noqa: F401 - the fixture: a real server on a SQLite file

expect = sync_api.expect
WAIT = 20_000  # ms: the machine is shared
REFUSED = "this key no longer opens the table"

require_chromium()


def _page(browser: Any, url: str, troubles: list[str]) -> Any:
    page = provable_page(browser, url, troubles)
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmation of a removal
    return page


def _join(browser: Any, link: str, name: str, troubles: list[str]) -> tuple[Any, str]:
    page = _page(browser, link, troubles)
    page.fill("#table-join-name", name)
    with page.expect_response(re.compile(r"/join$")) as joined:
        page.click("#table-join button[type=submit]")
    expect(page.locator("#table-status")).to_have_text("live", timeout=WAIT)
    return page, str(joined.value.json()["player_key"])


def _opens(base: str, table_id: str, key: str) -> int:
    import httpx2 as httpx

    return int(httpx.get(f"{base}/tables/{table_id}/log", headers={"Authorization": f"Bearer {key}"}).status_code)


def test_saved_rolls_languages_new_keys_and_removal_on_the_page(server: str) -> None:  # noqa: F811
    troubles: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        gm = _page(browser, server + "/#table", troubles)
        gm.fill("#table-gm", "Ana")
        gm.select_option("#table-system", "ffg")
        with gm.expect_response(re.compile(r"/tables$")) as made:
            gm.click("#table-create button[type=submit]")
        created = made.value.json()
        table_id, gm_key = created["table_id"], created["gm_key"]
        expect(gm.locator("#table-share")).to_have_value(re.compile(r"/#table/" + re.escape(table_id) + "$"),
                                                          timeout=WAIT)
        link = gm.input_value("#table-share")
        kira, kira_key = _join(browser, link, "Kira", troubles)
        jax, jax_key = _join(browser, link, "Jax", troubles)
        expect(gm.locator("#table-members > li")).to_have_count(3, timeout=WAIT)
        expect(kira.locator("#table-members .member-remove")).to_have_count(0)  # the game master's buttons only

        # a saved roll: the game master names it, Kira rolls it by its button, reading the page in French
        gm.fill("#table-expression", "2a1p vs 2d")
        gm.fill("#table-save-name", "blast")
        gm.click("#table-save")
        expect(gm.locator("#table-log > li.step-save")).to_have_count(1, timeout=WAIT)
        kira.select_option("#lang", "fr")
        expect(kira.locator("#table-status")).to_have_text("en direct", timeout=WAIT)
        kira.get_by_role("button", name="@blast").click(timeout=WAIT)
        expect(kira.locator("#table-expression")).to_have_value("@blast")
        kira.click("#table-roll-button")
        roll = kira.locator("#table-log > li.step-roll")
        expect(roll).to_have_count(1, timeout=WAIT)
        expect(roll.locator(".step-expression")).to_have_text("2a1p vs 2d")
        expect(roll.locator(".step-text")).to_contain_text("compétence", timeout=WAIT)  # rule text 004's word
        expect(gm.locator("#table-log > li.step-roll .step-text")).to_contain_text("proficiency", timeout=WAIT)

        # a new key for Jax: shown to the game master once, the old one refused at once, Jax's page told
        gm.locator("#table-members > li[data-member=Jax] .member-rekey").click()
        expect(gm.locator("#table-new-key code")).to_have_text(re.compile(r"^[A-Za-z0-9_-]{22,}$"), timeout=WAIT)
        new_jax = gm.locator("#table-new-key code").inner_text()
        assert _opens(server, table_id, jax_key) == 401 and _opens(server, table_id, new_jax) == 200
        expect(jax.locator("#table-status")).to_have_text(REFUSED, timeout=WAIT)

        # Jax enters the new key on his page (the key box opened by the refusal) and plays on with it
        addresses: list[str] = []
        jax.on("request", lambda request: addresses.append(request.url))
        expect(jax.locator("#table-key-box")).to_have_attribute("open", "", timeout=WAIT)
        jax.fill("#table-room-key", "not a key")
        jax.click("#table-room-key-form button[type=submit]")
        expect(jax.locator("#table-room-key-form .table-error")).to_contain_text("this key does not open the table",
                                                                               timeout=WAIT)
        jax.fill("#table-room-key", new_jax)
        jax.click("#table-room-key-form button[type=submit]")
        expect(jax.locator("#table-status")).to_have_text("live", timeout=WAIT)
        expect(jax.locator("#table-room-key")).to_have_value("")
        expect(jax.locator("#table-who")).to_contain_text("you are Jax")
        seat = json.loads(jax.evaluate(f"localStorage.getItem('diceengine.table.{table_id}')"))
        assert seat["key"] == new_jax and seat["name"] == "Jax"
        jax.fill("#table-expression", "1b")
        jax.click("#table-roll-button")
        expect(gm.locator("#table-log > li.step-roll")).to_have_count(2, timeout=WAIT)
        # on another browser (no seat there): the link, then "I already have a key"
        elsewhere = _page(browser, link, troubles)
        elsewhere.on("request", lambda request: addresses.append(request.url))
        elsewhere.click("#table-invite-key-box summary")
        elsewhere.fill("#table-invite-key", new_jax)
        elsewhere.click("#table-invite-key-form button[type=submit]")
        expect(elsewhere.locator("#table-status")).to_have_text("live", timeout=WAIT)
        expect(elsewhere.locator("#table-who")).to_contain_text("you are Jax")
        expect(elsewhere.locator("#table-log > li.step-roll")).to_have_count(2, timeout=WAIT)
        assert addresses and not any(new_jax in a or jax_key in a for a in addresses + [jax.url, elsewhere.url])
        elsewhere.context.close()

        # the game master's own new key: kept by the page, which plays on with it
        gm.click("#table-rekey-me")
        expect(gm.locator("#table-log > li.step-rekey")).to_have_count(2, timeout=WAIT)
        assert _opens(server, table_id, gm_key) == 401
        gm.fill("#table-expression", "1b")
        gm.click("#table-roll-button")
        expect(gm.locator("#table-log > li.step-roll")).to_have_count(3, timeout=WAIT)
        expect(kira.locator("#table-log > li.step-roll")).to_have_count(3, timeout=WAIT)
        expect(gm.locator("#table-status")).to_have_text("live", timeout=WAIT)

        # Kira removed: gone from the members, her key refused, her page told
        gm.locator("#table-members > li[data-member=Kira] .member-remove").click()
        expect(gm.locator("#table-members > li")).to_have_count(2, timeout=WAIT)
        expect(gm.locator("#table-log > li.step-remove")).to_have_count(1, timeout=WAIT)
        assert _opens(server, table_id, kira_key) == 401
        expect(kira.locator("#table-status")).to_have_text("cette clé n'ouvre plus la table", timeout=WAIT)

        # a removal sticks: Kira's name is refused at the link until the game master lets her back
        again = _page(browser, link, troubles)
        again.fill("#table-join-name", "Kira")
        again.click("#table-join button[type=submit]")
        expect(again.locator("#table-join .table-error")).to_contain_text(
            "'Kira' was removed by the game master and may join again only once a game master lets them back",
            timeout=WAIT)
        expect(kira.locator("#table-barred li")).to_have_count(0)  # the game master's list only
        gm.locator("#table-barred > li[data-barred=Kira] .member-readmit").click()
        expect(gm.locator("#table-log > li.step-readmit .step-what")).to_have_text("let Kira join the table again",
                                                                                  timeout=WAIT)
        expect(gm.locator("#table-barred li")).to_have_count(0)
        again.click("#table-join button[type=submit]")
        expect(again.locator("#table-status")).to_have_text("live", timeout=WAIT)
        expect(gm.locator("#table-members > li")).to_have_count(3, timeout=WAIT)
        browser.close()
    assert troubles == []
