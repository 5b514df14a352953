"""The page's words in each language: ``GET /api/words/{lang}`` answers ``{English words: translation}``.

The page's scripts say every human word as ``t("English words")`` (``static/common.js``); the
translations are the gettext catalogue of the ``page`` domain,
``diceengine/locale/<lang>/LC_MESSAGES/page.po`` (the source, edited by hand; message ids are the
English words), compiled to the ``page.mo`` beside it. The engine's words the page shows as the service
answers them (a system's summary and options' help, the names of a ladder, its outcomes' fields) are added
from the engine's own catalogue (the ``diceengine`` domain) when the page's has not got them.

The words of ``index.html`` are its elements marked ``data-t`` (their text) and ``data-t-placeholder``,
``data-t-title``, ``data-t-aria-label`` (those attributes), which the page translates in place; Babel reads
them with :func:`extract_html` (``babel-page.cfg``). After editing the page::

    pybabel extract -F babel-page.cfg -k t:1 -k N_:1 --no-default-keywords --no-location --sort-output -w 120 -o diceengine/locale/page.pot .
    pybabel update -i diceengine/locale/page.pot -d diceengine/locale -D page --no-fuzzy-matching -w 120
    (translate the new entries of fr/LC_MESSAGES/page.po; the English catalogue repeats the ids)
    pybabel compile -D page -d diceengine/locale
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Collection, Iterator, Mapping
from functools import cache
from html.parser import HTMLParser
from typing import IO, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..i18n import language, locale_dir, translations
from .models import ErrorResponse

__all__ = ["DOMAIN", "engine_words", "extract_html", "page_words", "router"]

#: the gettext domain of the page's words
DOMAIN = "page"


def engine_words() -> list[str]:
    """The engine's words the page shows as the service answers them (in English): each system's summary,
    the help of its options, the names of its difficulty ladder, the fields of its outcomes (those of
    its examples' rolls: ``success``, ``margin``...), the kinds of their dice (``proficiency``, ``ability``:
    the captions under the dice) and the chances their exact odds name (``net advantage``)."""
    from ..api import roll, systems
    from ..errors import DiceError

    names: list[str] = []
    for name, system in systems().items():
        rows, columns = system.ladder()
        words = [system.summary, *(o.doc for o in system.options.values()), *(label for label, _ in [*rows, *columns])]
        for example in system.examples:
            try:
                rolled = roll(example, name, seed=0)
                words.extend(rolled.outcome._fields)
                words.extend(d.kind for d in rolled.dice)
                words.extend(_chances(example, name))
            except DiceError:
                continue
        names.extend(w for w in words if w and w not in names)
    from ..systems.standard.words import FIELD_WORDS  # the fields no example rolls (a critical mark's count)

    names.extend(w for w in FIELD_WORDS if w not in names)
    return names


def _chances(example: str, system: str) -> list[str]:
    """The chances the exact odds of ``example`` name beyond its fields (``P(net advantage)``: ``net advantage``)."""
    from ..api import distribution, plan

    summary = getattr(plan(example, system), "odds_summary", None)
    if summary is None:
        return []
    return [key[2:-1] if key.startswith("P(") and key.endswith(")") else key
            for key in summary(distribution(example, system))]


def page_words(lang: str) -> dict[str, str]:
    """``{English words: their translation}`` in ``lang`` (a code such as ``"fr"``; the engine's error if it
    has no catalogue): the page's catalogue, then the engine's words its own catalogue translates."""
    return _words(language(lang))


@cache
def _words(code: str) -> dict[str, str]:
    found = _gettext.translation(DOMAIN, localedir=locale_dir(), languages=[code], fallback=True)
    catalogue = getattr(found, "_catalog", {})  # GNUTranslations' table of the compiled .mo
    words = {k: v for k, v in catalogue.items() if isinstance(k, str) and k and v}
    engine = translations(code)
    for name in engine_words():
        if name not in words and engine.gettext(name) != name:
            words[name] = engine.gettext(name)
    return dict(sorted(words.items()))


#: the attributes of an element the page translates when it is marked ``data-t-<attribute>``
ATTRIBUTES = ("placeholder", "title", "aria-label")


class _Marked(HTMLParser):
    """The words of a page's elements marked for translation, with their lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements being read: tag, line, text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in ATTRIBUTES:
            if f"data-t-{name}" in values:
                words = values.get(f"data-t-{name}") or values.get(name)
                if words:
                    self.found.append((line, words))
        if "data-t" in values:
            if values["data-t"]:
                self.found.append((line, values["data-t"]))
            else:
                self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        for _, _, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, text = self._open.pop()
            words = " ".join("".join(text).split())
            if words:
                self.found.append((line, words))


def extract_html(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor of a page's marked words (``[extractors] html = diceengine.web.words:extract_html``)."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, words in parser.found:
        yield line, "t", words, []


router = APIRouter(tags=["service"])


@router.get("/api/words/{lang}", response_model=dict[str, str],
            responses={400: {"model": ErrorResponse}})
async def words(lang: str) -> JSONResponse:
    """The page's words in ``lang`` (``en``, ``fr``): ``{English words: translation}``."""
    return JSONResponse(page_words(lang), headers={"Cache-Control": "no-cache"})
