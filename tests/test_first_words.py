"""Issue 36, a new user's first words: each example of the issue's list (no word silently ignored, errors that say
the fix) replayed, with its new answer; the peers' expressions written with a space before a modifier read as
written without it. Expected odds come from enumerations written here."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product

import pytest

import diceengine as de
from diceengine.cli import main
from diceengine.hints import terminal_words
from diceengine.parser import parse, parser_for
from diceengine.registry import get_system
from tests.peer_corpus import CORPUS

D6, D20 = range(1, 7), range(1, 21)


def exact(expr: str, system: str = "standard") -> dict:
    return {k: Fraction(v).limit_denominator(10**9) for k, v in de.distribution(expr, system).marginal().items()}


def enumerate_(faces, value) -> dict:
    out: dict = {}
    throws = list(product(*faces))
    for throw in throws:
        v = value(throw)
        out[v] = out.get(v, 0) + Fraction(1, len(throws))
    return out


def refused(expr: str, system: str = "standard", lang: str | None = None) -> de.DiceError:
    with pytest.raises(de.DiceError) as err:
        de.roll(expr, system, lang=lang)
    return err.value


# ---------------------------------------------------------------- words that name an operation are dice

KEEP_3 = enumerate_([D6] * 4, lambda t: sum(sorted(t)[1:]))


@pytest.mark.parametrize("expr", ["4d6 keep 3", "4d6 garde 3", "4d6 keep the 3 highest", "4d6 keep highest 3",
                                  "4d6 garde les 3 plus hauts", "4d6 garde les 3 meilleurs", "4d6 drop lowest",
                                  "4d6 drop 1", "4d6 KEEP 3", "4d6 kh3", "4d6 kh 3", "4d6 keep three",
                                  "4d6 garde trois"])
def test_keep_in_words_is_the_keep(expr):
    # the issue: "4d6 keep 3" summed four dice (= 14); now the three highest of four
    assert exact(expr) == KEEP_3
    r = de.roll(expr, seed=1)
    assert sum(d.kept for d in r.dice) == 3 and r.description is None
    assert r.total == sum(sorted(d.value for d in r.dice)[1:])


def test_keep_lowest_and_drop_highest_in_words():
    assert exact("4d6 keep lowest 2") == enumerate_([D6] * 4, lambda t: sum(sorted(t)[:2]))
    assert exact("4d6 drop highest") == enumerate_([D6] * 4, lambda t: sum(sorted(t)[:3]))
    assert exact("2d20 lowest") == enumerate_([D20] * 2, min)


@pytest.mark.parametrize("expr, pick", [("1d20+5 advantage", max), ("1d20+5 adv", max), ("1d20+5 avantage", max),
                                        ("1d20+5 disadvantage", min), ("1d20+5 dis", min),
                                        ("1d20+5 désavantage", min), ("d20+5 advantage", max)])
def test_advantage_is_two_d20_keeping_one(expr, pick):
    # the issue: "1d20+5 advantage" rolled one d20; now 2d20kh1+5
    assert exact(expr) == enumerate_([D20] * 2, lambda t: pick(t) + 5)
    assert len(de.roll(expr, seed=3).dice) == 2


@pytest.mark.parametrize("expr", ["1d20+5 vs 15", "1d20+5 contre 15", "1d20+5 dc 15", "5+1d20 vs 15"])
def test_vs_is_a_check_meeting_or_beating_the_number(expr):
    # the issue: "1d20+5 vs 15" dropped the "vs 15"; now 1 (a success) or 0 (a failure), P(success) = 11/20
    expected = enumerate_([D20], lambda t: int(t[0] + 5 >= 15))
    assert exact(expr) == expected == {1: Fraction(11, 20), 0: Fraction(9, 20)}


def test_words_after_an_operation_describe():
    r = de.roll("4d6 drop lowest for strength", seed=4)
    assert r.description == "for strength" and r.total == sum(sorted(d.value for d in r.dice)[1:])


def test_words_after_the_check_still_describe():
    r = de.roll("1d20+5 vs 15 to hit", seed=2)
    assert r.description == "to hit" and r.total == int(r.dice[0].value + 5 >= 15)
    assert str(r) == f"1d20+5 vs 15 to hit: [{r.dice[0].value}] + 5 >= 15 = {r.total}"  # the check as the total >= 15
    assert exact("1d20 vs 15 adv") == enumerate_([D20] * 2, lambda t: int(max(t) >= 15))
    # two readings in a row: the keep, then the check
    assert exact("4d6 keep 3 vs 12") == {1: sum(p for v, p in KEEP_3.items() if v >= 12),
                                         0: sum(p for v, p in KEEP_3.items() if v < 12)}


def test_reroll_and_explode_in_words():
    # r1: a 1 is thrown again until it misses (each die 2 to 6)
    assert exact("1d6 reroll 1s") == exact("1d6 reroll ones") == {v: Fraction(1, 5) for v in range(2, 7)}
    once = enumerate_([D6, D6], lambda t: t[1] if t[0] == 1 else t[0])
    assert exact("1d6 reroll once 1") == once
    assert exact("1d6 explode") == exact("1d6!")


@pytest.mark.parametrize("expr, column, words", [
    ("3d6 advantage", 4, "2d20kh1"),  # advantage of what? one d20 only
    ("4d6 keep", 4, "no one meaning here: write 4d6kh3"),  # how many?
    ("4d6 keep for strength", 4, "no one meaning here: write 4d6kh3"),
    ("4d6+1d4 keep 3", 8, "write kh3 right after the dice it changes (4d6kh3)"),
    ("1d6 explode 5", 4, "1d6!>=5 (on 5 or more) or 1d6!5 (on 5)"),
    ("1d20+5 vs goblin", 7, "a check is written 1d20+5 vs 15"),
    ("1d20+5 vs 15 vs 3", 13, "a check is written 1d20+5 vs 15"),
    ("4d6 kep 3", 4, "did you mean keep?"),
    ("1d20 advantge", 5, "did you mean advantage?"),
    ("6d6 o 3", 4, "another roller's operator"),  # issue 24's refusals stand
    ("2d6 x2", 4, "multiply with *"),
])
def test_words_without_one_meaning_are_refused_with_a_caret_and_the_spelling(expr, column, words):
    err = refused(expr)
    assert isinstance(err, de.DiceSyntaxError) and err.column == column and words in str(err)
    assert str(err).splitlines()[1:] == ["  " + expr, "  " + " " * column + "^"]


@pytest.mark.parametrize("expr, description", [("1d20+5 to hit", "to hit"), ("2d6 fire", "fire"),
                                               ("1d20 # keep it secret", "keep it secret"),
                                               ('4d6 "keep 3"', '"keep 3"'), ("2d6 us", "us"),
                                               ("1d20 I rolled a d20", "I rolled a d20")])
def test_words_that_are_no_operation_still_describe(expr, description):
    # quoted words, or words after #, stay a description whatever they say: the peers' reading of trailing text
    r = de.roll(expr, seed=1)
    assert r.description == description and len(r.dice) == int(expr[expr.index("d") - 1]) \
        and all(d.kept for d in r.dice)


def test_the_command_line_reads_the_words(capsys):
    assert main(["roll", "4d6 keep 3", "--seed", "1"]) == 0
    line = capsys.readouterr().out.strip()
    faces = [int(f.strip("~")) for f in re.search(r"\[(.*)\]", line).group(1).split(", ")]
    assert line.count("~") == 2 and line.endswith(f"= {sum(sorted(faces)[1:])}")


# ---------------------------------------------------------------- errors that say the fix

@pytest.mark.parametrize("lang, first", [
    ("en", "this is not the standard notation but reads in d6 or d6wild: write d6: 4D+2 vs 15 or d6wild: 4D+2 vs 15"),
    ("fr", ("ce n'est pas la notation standard mais elle se lit en d6 ou d6wild : écrivez d6: 4D+2 vs 15 ou "
           "d6wild: 4D+2 vs 15")),
])
def test_a_d6_code_without_its_system_says_which_system(lang, first):
    # the issue: "unexpected '+': expected '%', '(', a number or fudge"
    err = refused("4D+2 vs 15", lang=lang)
    assert str(err).splitlines()[0] == first and err.column == 2


@pytest.mark.parametrize("expr, lang, first", [
    ("d6wlid: 4D+2", "en", "unknown system 'd6wlid': did you mean d6wild?"),
    ("d6wlid: 4D+2", "fr", "système inconnu 'd6wlid' : vouliez-vous dire d6wild ?"),
    ("ffg 2a1p", "en", "write the system with a colon: ffg: 2a1p"),
    ("ffg 2a1p", "fr", "écrivez le système suivi de deux-points : ffg: 2a1p"),
    ("4d6hk3", "en", "unknown modifier 'hk': did you mean kh?"),
    ("4d6hk3", "fr", "modificateur inconnu 'hk' : vouliez-vous dire kh ?"),
])
def test_a_misspelling_says_the_word_meant(expr, lang, first):
    assert str(refused(expr, lang=lang)).splitlines()[0] == first


def test_systems_and_difficulties_by_a_near_name():
    with pytest.raises(de.DiceError, match=r"unknown system 'd6wlid': did you mean d6wild\?"):
        de.roll("4D", "d6wlid")
    err = refused("4D+2 vs modrate", "d6wild")
    assert str(err).startswith("unknown difficulty 'modrate': did you mean moderate?") and err.column == 8
    assert str(refused("4D vs shrot", "d6", lang="fr")).startswith("difficulté inconnue 'shrot' : vouliez-vous dire "
                                                                   "short ?")
    from diceengine.systems.ffg import rules

    with pytest.raises(de.DiceValueError, match=r"unknown difficulty 'hrad': did you mean hard\?"):
        rules.build_pool(3, 1, "hrad")


def test_a_system_prefix_in_python_says_the_keyword():
    err = refused("d6: 4D+2")
    assert str(err).splitlines()[0] == ("d6: names a system: roll 4D+2 with the system d6 (the command line and the page "
                                        "read the prefix, Python takes system='d6')")


def test_the_command_line_says_the_fix(capsys):
    assert main(["roll", "d6wlid: 4D+2"]) != 0
    assert "did you mean d6wild?" in capsys.readouterr().err
    assert main(["roll", "4D+2 vs 15", "--lang", "fr"]) != 0
    assert "écrivez d6: 4D+2 vs 15 ou d6wild: 4D+2 vs 15" in capsys.readouterr().err


#: texts each system cannot read: the messages list what was expected
BAD = {"standard": ["3d6 3", "d6wlid: 4D+2", "1d20+", "4D+2", "3d6 )", "(3d6", "4d6k<", "1d20 +* 2", "{1d6, }"],
       "d6": ["4D+", "4D vs", "4D+2 vs 15 15", "x"], "d6wild": ["4D+", "(4D"], "d20pool": ["3d20<=", "3d20<=12 spec"],
       "ffg": ["2a1p vs", "2a1p vs q", "capacité vs !"]}
#: what leaked before: grammar rule and token names
LEAKS = re.compile(r"\b(bang|clamp|critical|double|fail_not|reroll_rank|unique|decimal|fudge|symbol_die|french_word|"
                   r"dcode|word|int)\b|\bfunction\b(?! \()|\bdescription,|, keep\b|, sort\b")


@pytest.mark.parametrize("system", sorted(BAD))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_grammar_name_in_any_message(system, lang):
    for expr in BAD[system]:
        text = str(refused(expr, system, lang=lang)).splitlines()[0]
        assert not LEAKS.search(text), (expr, text)
        assert "un nombre, decimal ou function" not in text


def test_every_token_of_every_grammar_has_words():
    """The one table (diceengine.hints.TERMINAL_WORDS, and the words a system gives its own tokens, the standard
    notation's modifiers read from their table: terminal_words) names every token a built-in grammar has, but those
    written as one plain string ('(', 'vs'), shown as they are."""
    for name in ("standard", "d6", "d6wild", "d20pool", "ffg"):
        words = terminal_words(get_system(name).token_words())
        lark = parser_for(get_system(name)).lark
        for terminal in lark.terminals:
            if terminal.name != "WS":
                assert terminal.name in words or terminal.pattern.type == "str", (name, terminal.name)


# ---------------------------------------------------------------- the peers' expressions, a space before a modifier

def _spaced(expr: str):
    """``expr`` with a space before each dice term or modifier that follows a number, a group or a die's sides."""
    for i in range(1, len(expr)):
        if (expr[i].isalpha() or expr[i] in "<>=!") and (expr[i - 1].isdigit() or expr[i - 1] in "})%F"):
            yield expr[:i] + " " + expr[i:]


SPACED = sorted({(s, e) for e, _, _, conflict in CORPUS if conflict is None and '"' not in e for s in _spaced(e)})


def test_a_modifier_after_a_space_is_that_modifier():
    """Issue 36: such text was a description, the modifier silently dropped (``{1d8, 1d8} kl1`` summed both dice,
    ``4d%>50 f<40`` counted no failure, ``1 d20+5`` rolled nothing); each now reads as written without the space, or
    is refused: never a description hiding notation."""
    standard = get_system("standard")
    read = 0
    for spaced, expr in SPACED:
        try:
            tree = parse(spaced, standard)
        except de.DiceError:
            continue  # refused with a caret: not silent ("(1 d6)": a count and dice apart inside a group)
        wanted = parse(expr, standard)
        assert tree == wanted, (spaced, expr)
        read += 1
    print(f"\n{len(SPACED)} spaced peer expressions: {read} read as without the space, {len(SPACED) - read} refused")
    assert read >= 400


# ---------------------------------------------------------------- the page's check: the same parser, through the API

def test_the_pages_check_reads_the_words_and_says_the_fix():
    """The page's check posts to /api/roll then /api/odds (diceengine/web/static/check.js): the same answers."""
    pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
    from fastapi.testclient import TestClient

    from diceengine.web import create_app

    with TestClient(create_app(workers=1), raise_server_exceptions=False) as client:
        rolled = client.post("/api/roll", json={"expression": "4d6 keep 3", "system": "standard", "seed": 1}).json()
        dice = rolled["rolls"][0]["dice"]
        assert sum(d["kept"] for d in dice) == 3
        assert rolled["rolls"][0]["outcome"]["total"] == sum(sorted(d["value"] for d in dice)[1:])
        odds = client.post("/api/odds", json={"expression": "1d20+5 vs 15", "system": "standard"}).json()
        chances = {row["value"]: row["p"] for row in odds["marginals"]["total"]}
        assert chances == pytest.approx({1: 11 / 20, 0: 9 / 20})
        for expression, words in [("d6wlid: 4D+2", "did you mean d6wild?"), ("4D+2 vs 15", "d6: 4D+2 vs 15"),
                                  ("3d6 advantage", "2d20kh1")]:
            answer = client.post("/api/roll", json={"expression": expression, "system": "standard"})
            assert answer.status_code == 400 and words in answer.json()["message"], answer.json()
        answer = client.post("/api/roll", json={"expression": "4D+2 vs 15", "lang": "fr"})
        assert "écrivez d6: 4D+2 vs 15 ou d6wild: 4D+2 vs 15" in answer.json()["message"]


def test_two_systems_may_name_one_token_two_ways():
    """Two grammars may give one token name two meanings: each system names its own grammar's tokens."""
    from diceengine import hints

    assert hints.expected_words({"WORD"}, {}, get_system("d6").token_words()) == ["a difficulty by name"]
    assert hints.expected_words({"WORD"}, {}, {"WORD": "a word of the other notation"}) == [
        "a word of the other notation"]
    assert hints.expected_words({"WORD"}, {}) == ["something else"]  # no system names it: not the D6's words


def test_a_colon_that_names_no_system_is_no_system():
    # "note: 1d6+" is no system's text, whatever comes before the colon: the plain syntax error
    assert str(refused("note: 1d6+")).startswith("unexpected character 'n': expected a number")
    assert str(refused("note: 1d6")).startswith("unknown system 'note' (known: ")


@pytest.mark.parametrize("lang, words", [("en", ("critical successes", "critical failures")),
                                         ("fr", ("réussites critiques", "échecs critiques"))])
def test_the_page_says_the_critical_marks_in_words(lang, words):
    """The check view names a mean's field through the page's words (``t(field)``): the counts of critical marks,
    which no system example rolls, are words there too."""
    from diceengine.web.words import page_words

    said = page_words(lang)
    assert (said["critical_successes"], said["critical_failures"]) == words


def test_the_words_import_nothing_from_the_expressions_nor_the_modifier_table():
    """``Described.meant`` hands the check's node classes and the system's modifier spellings to
    :func:`words.meant`: words.py imports nothing from expressions.py (they imported each other) nor from the
    modifier table (it read the spellings through a lazy import), even lazily."""
    import ast
    from pathlib import Path

    from diceengine.systems.standard import words

    tree = ast.parse(Path(words.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(module and module.endswith(("expressions", "modifiers")) for module in imported), imported


def _letter_modifiers() -> list[str]:
    from diceengine.systems.standard.modifiers import spellings

    return sorted(s for s in spellings() if len(s) > 1 and s.isalpha())  # a set: sorted, so every worker collects alike


@pytest.mark.parametrize("letters", _letter_modifiers())
def test_every_modifier_spelled_in_letters_after_a_space_is_notation_never_a_description(letters):
    """A modifier of the table written after a space (``6d6 even``, ``4d6 mt``) is the modifier, as written
    without the space, or refused with a caret: never the roll's description with the modifier dropped (``6d6
    even`` summed the dice and called them "even"). The list is the modifier table's, so a new one is covered."""
    spaced, joined = f"6d6 {letters}", f"6d6{letters}"
    try:
        r = de.roll(spaced, seed=3)
    except de.DiceSyntaxError:
        return
    assert r.description is None
    assert r.total == de.roll(joined, seed=3).total and str(r).split(":", 1)[1] == str(de.roll(joined, seed=3)).split(":", 1)[1]


def test_even_after_a_space_counts_the_even_dice():
    # independent: the faces of the seeded roll read back, the even ones counted by hand
    r = de.roll("6d6 even", seed=11)
    assert r.total == sum(1 for d in r.dice if d.value % 2 == 0) and r.description is None
