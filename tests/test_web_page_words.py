"""The page's words: every ``t("...")`` / ``N_("...")`` of its scripts and every element of ``index.html``
marked ``data-t`` is in the ``page`` domain's catalogues (French translated, English repeating the id), the
compiled ``.mo`` say what the ``.po`` say, and ``GET /api/words/{lang}`` serves them.

The words are read as ``pybabel extract`` reads them (``babel-page.cfg``), and a plain scan of the scripts
checks that the extraction missed none (Babel's JavaScript lexer can lose its way, e.g. in a regular
expression literal, and would then silently skip the words after it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

import diceengine as de
from diceengine import i18n
from diceengine.api import plan
from diceengine.web import create_app
from diceengine.web.tables import TableSettings

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "diceengine" / "web" / "static"
LOCALE = Path(i18n.locale_dir())
KEYWORDS = {"t": (1,), "N_": (1,)}
METHODS = [("**.js", "javascript"), ("**.html", "diceengine.web.words:extract_html")]


def _extracted() -> dict[str, list[str]]:
    """msgid -> the files saying it, as Babel extracts them."""
    found: dict[str, list[str]] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(STATIC, method_map=METHODS,
                                                                          keywords=KEYWORDS):
        found.setdefault(message, []).append(filename)
    return found


def _po(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "page.po", "rb") as f:
        return read_po(f)


_LITERAL = re.compile(r"""(?<![\w$.])(?:t|N_)\(\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')""")
# a comment: // to the end of its line (after a space or punctuation, so never "https://" in a string), /* ... */
_COMMENT = re.compile(r"(?:^|(?<=[\s;{}(),]))//[^\n]*|/\*[\s\S]*?\*/", re.MULTILINE)


def _scripts() -> Iterator[tuple[str, str]]:
    for path in sorted(STATIC.glob("*.js")):
        yield path.name, _COMMENT.sub("", path.read_text(encoding="utf-8"))


def test_the_extraction_misses_no_word_of_the_scripts():
    extracted = _extracted()
    assert {"Check", "Ladders", "Fights", "{side} wins", "Roll", "Language", "every die"} <= set(extracted)
    missed = {}
    for name, text in _scripts():
        for m in _LITERAL.finditer(text):
            words = (m[1] if m[1] is not None else m[2]).encode().decode("unicode_escape").encode("latin-1").decode()
            if words not in extracted:
                missed.setdefault(name, []).append(words)
        # a template literal in t() is not a catalogue's word: t("... {name} ...", { name }) is
        assert not re.search(r"(?<![\w$.])(?:t|N_)\(\s*`", text), f"{name}: t(`...`) cannot be translated"
    assert not missed, f"Babel's extraction misses {missed}: rewrite what confuses its lexer (a regex literal?)"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_word_of_the_page_is_in_every_catalogue(lang):
    catalogue = _po(lang)
    missing = [m for m in _extracted() if catalogue.get(m) is None or catalogue.get(m).fuzzy
               or not catalogue.get(m).string]
    assert not missing, f"the {lang} page catalogue misses {missing} (babel-page.cfg has the commands)"
    stale = [m.id for m in catalogue if m.id and m.id not in _extracted()]
    assert not stale, f"the {lang} page catalogue has words the page no longer says: {stale}"
    for m in catalogue:
        if m.id:
            # the same {names} filled in, whatever the language
            assert set(re.findall(r"\{(\w+)\}", m.string)) == set(re.findall(r"\{(\w+)\}", m.id)), m.id
            if lang == "en":
                assert m.string == m.id


def test_french_says_the_words_in_french():
    fr = _po("fr")
    for english, french in [("Check", "Jet"), ("Fights", "Combats"), ("Language", "Langue"),
                            ("{side} wins", "victoire {side}"), ("Difficulty ladders", "Échelles de difficulté")]:
        assert fr.get(english).string == french
    same = [m.id for m in fr if m.id and m.string == m.id]
    # words French writes as English does (a round is a round; an expression, an expression)
    assert set(same) <= {"Expression", "exact", "expression", "round", "{distance} points", "Initiative", "secret",
                         "Round {round}", "Table {id}", "{name}, {system}",
                         # notation, and option words French spells as English does
                         "P({what})", "complication", "division", "explosions"}, same


def test_the_template_is_the_extraction():
    with open(LOCALE / "page.pot", "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert template == set(_extracted()), "re-extract: the commands are in babel-page.cfg"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_catalogues_are_up_to_date(lang):
    with open(LOCALE / lang / "LC_MESSAGES" / "page.mo", "rb") as f:
        compiled = {m.id: m.string for m in read_mo(f) if m.id}
    assert compiled == {m.id: m.string for m in _po(lang) if m.id}, "recompile: pybabel compile -D page -d diceengine/locale"


# -- the words served to the page ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("tables") / "t.sqlite"
    with TestClient(create_app(workers=0, tables=TableSettings(db=str(db))), raise_server_exceptions=False) as c:
        yield c


def test_the_words_endpoint_serves_the_catalogue(client):
    fr = client.get("/api/words/fr")
    assert fr.status_code == 200
    words = fr.json()
    for m in _po("fr"):
        if m.id:
            assert words[m.id] == m.string
    assert client.get("/api/words/fr_FR").json() == words
    en = client.get("/api/words/en").json()
    assert all(en[m] == m for m in _extracted())
    refused = client.get("/api/words/de")
    assert refused.status_code == 400 and refused.json()["error"] == "value"
    assert "known: en, fr" in refused.json()["message"]
    assert client.get("/api/words/" + "x" * 5000).status_code in (400, 404, 414)


def _notation(label: str, system: str) -> bool:
    try:
        plan(label, system)
    except de.DiceError:
        return False
    return True


# the numbered names of a ladder the page says by their pattern (ladders.js, ladderWords)
_PATTERNS = [(re.compile(r"^difficulty (\d+)$"), "difficulty {n}"),
             (re.compile(r"^characteristic (\d+), skill (\d+)$"), "characteristic {characteristic}, skill {skill}")]


def test_every_name_of_every_ladder_is_said_in_french(client):
    words = client.get("/api/words/fr").json()
    fr = i18n.translations("fr")
    for name, system in de.systems().items():
        rows, columns = system.ladder()
        for label, _ in [*rows, *columns]:
            pattern = next((words_id for rx, words_id in _PATTERNS if rx.match(label)), None)
            if pattern is not None:
                assert words[pattern] != pattern
            elif not _notation(label, name):
                assert words.get(label, label) != label, f"{name}: {label!r} has no French on the page"
                if fr.gettext(label) != label:  # the engine's own French, not another one
                    assert words[label] == fr.gettext(label)
        if type(system).__module__.startswith("diceengine.systems."):
            assert words.get(system.summary, system.summary) != system.summary, name
            for option in system.options.values():
                assert words.get(option.doc, option.doc) != option.doc, f"{name}: {option.doc}"


def test_the_fields_of_every_outcome_are_said_in_french(client):
    """The check view names an outcome's fields (a chart's, a mean's, a side by side's) through ``t()``: each
    field of the built-in systems' examples has French on the page, the engine's own."""
    words = client.get("/api/words/fr").json()
    fr = i18n.translations("fr")
    seen = set()
    for name, system in de.systems().items():
        if not type(system).__module__.startswith("diceengine.systems."):
            continue
        for example in system.examples:
            seen.update(de.roll(example, name, seed=1).outcome._fields)
    assert {"total", "success", "margin", "advantage", "triumph"} <= seen
    catalogue = fr._catalog  # the compiled French: a field said the same in both languages is in it too
    for field in seen:
        assert field in catalogue, f"{field!r} has no French in the engine"
        said = words.get(field, field)  # the page's own French where it has one, else the engine's
        assert said == fr.gettext(field) or (field in words and said != field), field
    assert words["success"] == "succès" and words["margin"] == "marge"
