"""French input vocabulary, the FFG community's colour letters and the opposed check (issue 12).

Expected numbers come from the rule texts: text 003's ladder (5 Très facile ... 30 Héroïque), text
000's ranges (Bout Portant 5, Courte Portée 10, Portée Moyenne 15, Longue Portée 20), text 004's
opposed check (the opponent's green dice become purple, yellow become red).
"""

from __future__ import annotations

import pytest

import diceengine as de
from diceengine.api import plan

TEXT_003 = {"Très facile": 5, "Facile": 10, "Moyen": 15, "Difficile": 20, "Très difficile": 25, "Héroïque": 30}
TEXT_000 = {"Bout Portant": 5, "Courte Portée": 10, "Portée Moyenne": 15, "Longue Portée": 20}


def _spellings(name: str) -> list[str]:
    plain = name.replace("è", "e").replace("é", "e").replace("ï", "i")
    return [name, name.lower(), name.upper(), plain, plain.upper(), plain.title()]


@pytest.mark.parametrize("name, number", TEXT_003.items())
def test_wild_ladder_as_the_text_spells_it(name, number):
    for spelling in _spellings(name):
        assert plan(f"4D+2 vs {spelling}", "d6wild").difficulty == number, spelling


@pytest.mark.parametrize("name, number", TEXT_000.items())
def test_range_difficulties_as_the_text_spells_them(name, number):
    for spelling in _spellings(name):
        assert plan(f"4D vs {spelling}", "d6").difficulty == number, spelling


@pytest.mark.parametrize("expr, column", [
    ("4D vs trés facile", 8),       # a misplaced accent is not vocabulary
    ("4D vs trèſ facile", 8),       # nor a look-alike letter
    ("4D vs trèsfacile", 8),
    ("4D vs héros", 7),
    ("4D vs ſhort", 6),
])
def test_other_accented_words_are_syntax_errors_with_a_caret(expr, column):
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll(expr, "d6wild")
    assert info.value.column == column
    assert str(info.value).splitlines()[-1].index("^") - 2 == column


def test_unknown_plain_word_names_the_known_difficulties():
    with pytest.raises(de.DiceValueError, match="unknown difficulty"):
        de.roll("4D vs tres", "d6wild")


def _counts(expr: str, **options: object) -> dict[str, int]:
    return dict(plan(expr, "ffg", **options).counts)  # type: ignore[attr-defined]


def test_french_die_names():
    assert _counts("2 capacité 1 compétence vs 2 difficulté") == {"ability": 2, "proficiency": 1, "difficulty": 2}
    assert _counts("2 CAPACITES + 1 Fortune vs 1 défi 2 revers") == {
        "ability": 2, "boost": 1, "challenge": 1, "setback": 2}
    assert _counts("1 Force + 1 defi") == {"force": 1, "challenge": 1}


def test_colour_letters_option():
    want = {"proficiency": 3, "ability": 2, "difficulty": 2, "challenge": 1}
    assert _counts("yyygg vs ppr", letters="colour") == want
    assert _counts("3y2g vs 2p1r", letters="colour") == want
    assert _counts("2pro 1abi 1boo vs 2dif 1cha 1blk 1sb 1w", letters="colour") == {
        "proficiency": 2, "ability": 1, "boost": 1, "difficulty": 2, "challenge": 1, "setback": 2, "force": 1}
    assert _counts("3 jaune 2 vert 1 bleu vs 2 violet 1 rouge 1 noir 1 blanc") == {
        "proficiency": 3, "ability": 2, "boost": 1, "difficulty": 2, "challenge": 1, "setback": 1, "force": 1}
    assert _counts("1 yellow 1 green vs 1 purple 1 red 1 black", letters="colour") == _counts("1p1a vs 1d1c1s")


def test_colour_letters_odds_equal_the_initials():
    a = de.distribution("yyygg vs ppr", "ffg", letters="colour")
    b = de.distribution("3p2a vs 2d1c", "ffg")
    assert dict(a.items()) == pytest.approx(dict(b.items()))


@pytest.mark.parametrize("expr, options, column, words", [
    ("yyygg", {}, 0, "letters=colour"),
    ("2a1p", {"letters": "colour"}, 1, "y g b p r k w"),
    ("3g1a", {"letters": "colour"}, 3, "y g b p r k w"),
    ("2pro", {}, 2, "letters=colour"),
])
def test_a_letter_of_the_other_set_is_refused_never_misread(expr, options, column, words):
    with pytest.raises(de.DiceSyntaxError, match=words) as info:
        de.roll(expr, "ffg", **options)
    assert info.value.column == column


def test_sb_keeps_its_meaning_with_the_initials():
    assert _counts("2sb") == {"setback": 2, "boost": 1}
    assert _counts("2sb", letters="colour") == {"setback": 2}


def test_vs_ability_is_the_texts_opposed_check():
    # text 004: the opponent's green dice become purple, yellow (skill ranks) become red
    assert _counts("3a2p vs 2a1p") == {"ability": 3, "proficiency": 2, "difficulty": 2, "challenge": 1}
    a = de.distribution("3a2p vs 2a1p", "ffg")
    b = de.distribution("3a2p vs 2d1c", "ffg")
    assert dict(a.items()) == pytest.approx(dict(b.items()))
    assert _counts("2g vs 1y1g", letters="colour") == {"ability": 2, "challenge": 1, "difficulty": 1}


def test_boost_after_vs_is_refused_with_a_message():
    with pytest.raises(de.DiceValueError, match="setback") as info:
        de.roll("2a vs 1b", "ffg")
    assert info.value.column == 6
