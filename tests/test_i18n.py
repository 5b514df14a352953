"""Languages: the catalogues are complete and compiled, the engine reads and writes French and English.

Every message the code marks (``N_``, ``NP_``, ``gettext``, ``ngettext``) is extracted with Babel, as
``pybabel extract`` does, and must be translated in every catalogue; each compiled ``.mo`` must say
what its ``.po`` source says.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import diceengine as de
from diceengine import i18n
from diceengine.api import plan
from diceengine.cli import main

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"N_": None, "NP_": (1, 2), "gettext": None, "ngettext": (1, 2)}


def _po(lang: str):
    with open(Path(i18n.locale_dir()) / lang / "LC_MESSAGES" / "diceengine.po", "rb") as f:
        return read_po(f)


def _extracted() -> set:
    found = set()
    for folder in ("diceengine", "systems"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            found.add(message)
    return found


def test_extraction_finds_the_systems_words():
    found = _extracted()
    for message in ("heroic", "very easy", "point blank", "ability", "triumph", "success by {margin}",
                    ("{n} success", "{n} successes"), "unexpected character {got}: expected {expected}"):
        assert message in found


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_is_in_every_catalogue(lang):
    catalogue = _po(lang)
    missing = []
    for message in _extracted():
        entry = catalogue.get(message[0] if isinstance(message, tuple) else message)
        if entry is None or entry.fuzzy:
            missing.append(message)
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(message, tuple) != isinstance(entry.id, tuple) or not all(strings):
            missing.append(message)
    assert not missing, f"{lang} catalogue misses {missing}"


def test_every_systems_summary_and_option_help_is_translated():
    fr = _po("fr")
    for system in de.systems().values():
        if type(system).__module__.startswith("diceengine.systems."):
            assert fr.get(system.summary) is not None and fr.get(system.summary).string, system.name
            for name, option in system.options.items():
                assert fr.get(option.doc) is not None and fr.get(option.doc).string, f"{system.name} {name}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_catalogues_are_up_to_date(lang):
    def table(catalogue) -> dict:
        def flat(value: object) -> object:
            return tuple(value) if isinstance(value, (list, tuple)) else value

        return {flat(m.id): flat(m.string) for m in catalogue if m.id}

    source = table(_po(lang))
    folder = Path(i18n.locale_dir()) / lang / "LC_MESSAGES"
    with open(folder / "diceengine.mo", "rb") as f:
        compiled = table(read_mo(f))
    assert compiled == source, "recompile: pybabel compile -D diceengine -d diceengine/locale"


def test_french_difficulty_names_of_the_catalogue_are_read_as_input():
    # the names the French catalogue writes are names the grammar reads, worth the English ones
    fr = i18n.translations("fr")
    for english in ("very easy", "easy", "moderate", "difficult", "very difficult", "heroic"):
        french = fr.gettext(english)
        assert french != english
        assert plan(f"4D vs {french}", "d6wild").difficulty == plan(f"4D vs {english}", "d6wild").difficulty
    for english in ("point blank", "short", "medium", "long"):
        french = fr.gettext(english)
        assert plan(f"4D vs {french}", "d6").difficulty == plan(f"4D vs {english}", "d6").difficulty


@pytest.mark.parametrize("given, code", [("fr", "fr"), ("fr_FR.UTF-8", "fr"), ("FR-ca", "fr"), ("en_GB", "en"),
                                         (None, "en")])
def test_language_codes(given, code):
    assert i18n.language(given) == code


def test_unknown_language_is_the_engines_error():
    with pytest.raises(de.DiceError, match="known: en, fr"):
        i18n.language("de")


@pytest.mark.parametrize("env, code", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LC_ALL": "fr_BE", "LANG": "en_US"}, "fr"),
    ({"LC_ALL": "C", "LANG": "fr_FR"}, "en"), ({"LANGUAGE": "de:fr", "LANG": "en_US"}, "fr"),
    ({"LANG": "de_DE"}, "en"), ({}, "en"),
])
def test_language_from_the_environment(env, code):
    assert i18n.language_from_environment(env) == code


def test_errors_in_french():
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll("4d6k<", lang="fr")
    assert str(info.value).splitlines()[0] == "l'expression s'arrête trop tôt : attendu un nombre"
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll("2d6 $ 3", lang="fr")
    first = str(info.value).splitlines()[0]
    assert first.startswith("caractère inattendu '$' : attendu ") and " ou " in first and "un nombre" not in first
    with pytest.raises(de.DiceLimitError, match="trop de dés : 100000"):
        de.roll("100000d6", lang="fr")
    with pytest.raises(de.DiceLimitError, match="ce dé exploserait sur chaque face"):
        de.roll("1d1!", lang="fr")
    with pytest.raises(de.DiceSyntaxError, match="lettre de couleur"):
        de.roll("yyg", "ffg", lang="fr")
    # the same errors in English, as before
    with pytest.raises(de.DiceSyntaxError, match="the expression ends too early: expected a number"):
        de.roll("4d6k<")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_roll_french_and_english(capsys):
    status, out, _ = _run(capsys, "roll", "d6wild: 4D+2 vs Très facile", "--lang", "fr", "--seed", "7")
    assert status == 0
    r = de.roll("4D+2 vs Très facile", "d6wild", seed=7)
    verdict = "réussite" if r.success else "échec"
    assert out.strip().endswith(f"= {r.total}, {verdict} de {abs(r.margin)}") and "Dé Libre" in out
    status, out, _ = _run(capsys, "roll", "d6wild: 4D+2 vs Très facile", "--lang", "en", "--seed", "7")
    assert out.strip().endswith(f"= {r.total}, {'success' if r.success else 'failure'} by {abs(r.margin)}")
    assert " wild " in out


def test_cli_odds_french_and_english(capsys):
    expr = "ffg: 2 capacité 1 compétence vs 2 difficulté"
    status, out, _ = _run(capsys, "odds", expr, "--lang", "fr")
    assert status == 0
    chance = de.distribution("2a1p vs 2d", "ffg").chance("succeeded")
    assert re.search(rf"\n  P\(réussite\) +{100 * chance:.2f}%\n", out)
    assert "P(triomphe)" in out and "moyenne (succès)" in out
    status, out, _ = _run(capsys, "odds", expr, "--lang", "en")
    assert re.search(rf"\n  P\(succeeded\) +{100 * chance:.2f}%\n", out) and "mean success" in out


def test_cli_language_from_the_environment_and_errors(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    status, _, err = _run(capsys, "roll", "4d6k<")
    assert status == 2 and err.startswith("dice: erreur: l'expression s'arrête trop tôt : attendu un nombre")
    status, out, _ = _run(capsys, "roll", "d6: 3D vs 10", "--seed", "1")
    assert ("réussite de" in out or "échec de" in out)
    status, out, _ = _run(capsys, "systems")
    assert "Dé Libre" in out and "exemples" in out
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    status, _, err = _run(capsys, "roll", "4d6k<")
    assert err.startswith("dice: error: the expression ends too early")


def test_cli_colour_letters_and_formats(capsys):
    status, out, _ = _run(capsys, "roll", "ffg: yyygg vs ppr", "-o", "letters=colour", "--seed", "3")
    assert status == 0 and out.count("proficiency") == 3 and out.count("challenge") == 1
    status, out, _ = _run(capsys, "roll", "ffg: yyygg vs ppr", "-o", "letters=colour", "--seed", "3",
                          "--format", "symbols")
    assert out.count("🟨") == 3 and out.count("🟩") == 2 and out.count("🟪") == 2 and out.count("🟥") == 1
    status, out, _ = _run(capsys, "roll", "4d6kh3", "--seed", "1", "--format", "markdown")
    assert out.startswith("`4d6kh3`: [")
    with pytest.raises(SystemExit):
        main(["roll", "1d6", "--lang", "xx"])
    capsys.readouterr()


def test_environment_is_not_read_by_the_library(monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert "success by" in str(de.roll("4D vs 10", "d6", seed=1)) or "failure by" in str(de.roll("4D vs 10", "d6", seed=1))
    assert os.environ["LANG"] == "fr_FR.UTF-8"


def test_docs_languages_page_is_what_the_cli_prints(capsys):
    """Every ``$ dice ...`` example of the documentation's page on languages (``docs/languages.md``) prints
    what the page shows (lines ending in ``...`` stand for the rest)."""
    import shlex

    section = (ROOT / "docs" / "languages.md").read_text(encoding="utf-8")
    examples: list[tuple[str, list[str]]] = []
    for block in section.split("```text")[1:]:
        for line in block.split("```")[0].strip("\n").splitlines():
            line = line.strip()
            if line.startswith("$ dice "):
                examples.append((line[2:], []))
            elif examples and line:
                examples[-1][1].append(line)
    assert len(examples) >= 7
    for command, shown in examples:
        status = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        printed = [line.strip() for line in (out + err).splitlines()]
        for i, line in enumerate(shown):
            if line == "...":
                break
            assert printed[i] == line, command
        assert status == (2 if printed and printed[0].startswith("dice: e") else 0)


@pytest.mark.parametrize("bad", ["xx", ["fr"], 3])
def test_an_unknown_language_is_refused_whether_the_plan_is_cached_or_not(bad):
    # the drift issue 33 found: lang was checked only when a plan was built, so a second roll of a cached
    # expression returned a roll whose text raised
    for expression in ("1d6+2", "4d6kh2"):
        de.roll(expression)  # its plan cached
        with pytest.raises(de.DiceError) as err:
            de.roll(expression, lang=bad)
        assert "language" in str(err.value)
    assert str(de.roll("1d6+1", seed=1, lang="fr")).startswith("1d6+1")
