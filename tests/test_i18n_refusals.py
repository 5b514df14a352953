"""Every refusal of the engine is a catalogue message, said in the reader's language.

A refusal is a ``raise`` of one of the engine's errors (``DiceError`` and its subclasses, the table's errors) or a
ruleset's ``refuse(...)``: its message must be an ``N_("... {name} ...")`` template with named parameters, never
an f-string or a bare string (which a French reader would get in English). Internal programming errors
(``TypeError``, ``RuntimeError``...) are not refusals. ``diceengine/anydice/`` (the AnyDice language's own
messages) and ``diceengine/records.py`` (the stdlib's dataclass errors, for developers) are left out.
The presence of every marked message in every catalogue is held by ``tests/test_i18n.py``.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import diceengine as de
import systems  # noqa: F401 - the rulesets' modules, so that their errors are known
from diceengine import errors, i18n
from diceengine.table import errors as table_errors
from systems.ffg.rules import characteristic_cost

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("diceengine", "systems")


def _error_names() -> set[str]:
    """The names of the engine's error classes."""
    found: set[str] = set()
    todo = [errors.DiceError, *(v for v in vars(table_errors).values()
                                if isinstance(v, type) and issubclass(v, errors.DiceError))]
    while todo:
        cls = todo.pop()
        if cls.__name__ not in found:
            found.add(cls.__name__)
            todo.extend(cls.__subclasses__())
    return found


def _modules() -> list[Path]:
    out = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "anydice" in path.relative_to(ROOT).parts or path.name == "records.py":
                continue
            out.append(path)
    return out


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _is_template(arg: ast.expr) -> bool:
    """``N_("...")``, either of two (``N_(a) if c else N_(b)``), or a name / attribute holding one (its
    definition is itself marked, and extracted into the catalogues)."""
    if isinstance(arg, ast.Call):
        return _called(arg) == "N_"
    if isinstance(arg, ast.IfExp):
        return _is_template(arg.body) and _is_template(arg.orelse)
    return isinstance(arg, (ast.Name, ast.Attribute))


def unmarked_refusals(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, code) of each call of an error of ``names`` or of ``refuse`` whose message is no template."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and (_called(node) in names or _called(node) == "refuse")
                and node.args and not _is_template(node.args[0])):
            found.append((node.lineno, ast.unparse(node)[:100]))
    return found


def test_the_engines_errors_are_known():
    names = _error_names()
    assert {"DiceError", "DiceSyntaxError", "DiceValueError", "DiceLimitError", "TableError",
            "TableAccessError", "TableNotFound"} <= names
    assert "ValueError" not in names and "TypeError" not in names


def test_the_check_sees_an_untranslated_refusal():
    names = _error_names()
    code = ('def f(n):\n'
            '    raise DiceValueError(f"a pool of {n}")\n'
            '    raise errors.DiceError("bare words")\n'
            '    raise refuse("spend " + "more")\n'
            '    raise TableNotFound(N_("ok {n}") if n else "not ok")\n'
            '    raise DiceValueError(N_("a pool of {n}"), n=n)\n'
            '    raise DiceError(MESSAGE, kind=n)\n'
            '    raise refuse(N_("one") if n else N_("two"))\n'
            '    raise ValueError(f"for developers: {n}")\n')
    assert [line for line, _ in unmarked_refusals(code, names)] == [2, 3, 4, 5]


def test_every_refusal_is_a_catalogue_message():
    names = _error_names()
    found = [f"{path.relative_to(ROOT)}:{line}: {code}" for path in _modules()
             for line, code in unmarked_refusals(path.read_text(encoding="utf-8"), names)]
    assert not found, "write these messages as N_(...) templates:\n" + "\n".join(found)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_french_message_fills_the_fields_of_its_english_one():
    # a French text naming another field than the English would fail when it is filled in, on a French refusal only
    with open(Path(i18n.locale_dir()) / "fr" / "LC_MESSAGES" / "diceengine.po", "rb") as f:
        catalogue = read_po(f)
    wrong = []
    for message in catalogue:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        try:
            english = set().union(*(_fields(i) for i in ids))
            french = set().union(*(_fields(s) for s in strings))
        except ValueError:  # not a brace template (a literal brace in a message without fields)
            continue
        if not french <= english | {"n"}:
            wrong.append((message.id, sorted(french - english)))
    assert not wrong


@pytest.mark.parametrize(("call", "english", "french"), [
    (lambda: i18n.language(3), "a language is a code such as 'fr', not int",
     "une langue est un code comme 'fr', pas int"),
    (lambda: de.sample("2d6", -1), "the number of rolls must be a non-negative integer, not -1",
     "le nombre de jets est un entier positif ou nul, pas -1"),
    # the phrase naming what must be text is a catalogue word too
    (lambda: de.roll(b"1d6"), "an expression must be a string, not bytes (decode it first: .decode('utf-8'))",
     "une expression doit être une chaîne, pas bytes (décodez-la d'abord : .decode('utf-8'))"),
    (lambda: de.roll("1d6", 3), "a system name must be a string, not int", "un nom de système doit être une chaîne, pas int"),
    (lambda: characteristic_cost(6, created=False), "a characteristic cannot go above 5 at creation",
     "une caractéristique ne dépasse pas 5 à la création"),
])
def test_converted_refusals_in_both_languages(call, english, french):
    with pytest.raises(errors.DiceError) as info:
        call()
    assert str(info.value) == english
    assert str(i18n.translate_error(info.value, "fr")) == french


@pytest.mark.parametrize(("expression", "options", "english", "french"), [
    # the word naming the modifier is itself a catalogue word
    ("1d6!!!", {}, "more than one explosion on one dice term",
     "plus d'un modificateur explosion sur un même terme de dés"),
    # a refusal placed again in the expression (located where the power is written) keeps its template
    ("1d(2^70)", {}, "number too large: 2^70", "nombre trop grand : 2^70"),
    ("10^1000000", {}, "a power could reach 10^1000000, beyond the exact integer range",
     "une puissance pourrait atteindre 10^1000000, au-delà des entiers exacts"),
    ("d20rl1", {"dialect": "d20"},
     "rl1 would re-roll the lowest dice forever (d20 stops it as too many rolls): use rol1 (once)",
     "rl1 relancerait les dés les plus bas sans fin (d20 l'arrête comme trop de jets) : utilisez rol1 (une fois)"),
    ("1d6r!=", {}, "'r!=' needs a number after '!=' (a compare point of 'r')",
     "'r!=' demande un nombre après '!=' (un point de comparaison de 'r')"),
])
def test_refusals_of_a_roll_in_both_languages(expression, options, english, french):
    for lang, expected in (("en", english), ("fr", french)):
        with pytest.raises(errors.DiceError) as info:
            de.roll(expression, lang=lang, seed=1, **options)
        assert str(info.value).splitlines()[0] == expected
