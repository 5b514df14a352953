"""Roll20's matching dice (``2d6m``, ``4d6mt``, ``6d6mt3``): the roll on given faces, the sample and the exact odds,
each against an enumeration written here (every throw of small pools, counted with a plain loop), and against a
peer's published table; the text in English and French; and a refusal with a caret for every modifier it does not
combine with."""

from __future__ import annotations

import itertools

import pytest

import diceengine as de
from tests.helpers import Scripted, chi2_passes, enumerate_dice, exact_totals


def _sets(faces: tuple[int, ...], least: int) -> int:
    """How many faces are shown by at least ``least`` dice, counted the plain way."""
    return sum(1 for v in set(faces) if faces.count(v) >= least)


def _marked(faces: tuple[int, ...], least: int) -> list[bool]:
    return [faces.count(v) >= least for v in faces]



D6, D4, D3 = [1, 2, 3, 4, 5, 6], [1, 2, 3, 4], [1, 2, 3]
CASES = {
    "2d6mt": (D6, 2, lambda t: _sets(t, 2)),
    "4d6mt": (D6, 4, lambda t: _sets(t, 2)),
    "5d4mt3": (D4, 5, lambda t: _sets(t, 3)),
    "6d3mt": (D3, 6, lambda t: _sets(t, 2)),
    "6d3mt4": (D3, 6, lambda t: _sets(t, 4)),
    "3d6m": (D6, 3, sum),  # marks only: the total is the sum
    "4d6mi3mt": ([3, 3, 3, 4, 5, 6], 4, lambda t: _sets(t, 2)),  # the minimum first: the 1s and 2s show 3
    "4d6mt+1": (D6, 4, lambda t: _sets(t, 2) + 1),
    "1d6mt": (D6, 1, lambda t: 0),
}



@pytest.mark.parametrize("expression", list(CASES))
def test_the_exact_odds_are_the_enumerations(expression):
    faces, count, score = CASES[expression]
    want = enumerate_dice([faces] * count, score)
    got = exact_totals(expression)
    assert set(got) == set(want)
    for total, p in want.items():
        assert got[total] == pytest.approx(p, abs=1e-12)


def test_the_exact_odds_are_a_peers_published_table():
    # Wild Talents' sets of 4d10 (a published table of the one-roll engine): no set 50.4%, one pair 43.2%, one
    # set of three 3.6%, one of four 0.1%, two pairs 2.7%
    got = exact_totals("4d10mt")
    assert got == pytest.approx({0: 0.504, 1: 0.432 + 0.036 + 0.001, 2: 0.027}, abs=1e-12)


@pytest.mark.parametrize("expression", ["4d6mt", "5d4mt3", "3d6m", "4d6mi3mt"])
def test_the_sample_follows_the_enumeration(expression):
    faces, count, score = CASES[expression]
    want = enumerate_dice([faces] * count, score)
    sample = de.sample(expression, 40_000, seed=11)["total"]  # seeded: the same draws every run
    assert set(sample.tolist()) <= set(want)
    assert chi2_passes(sample, want)


@pytest.mark.parametrize(("expression", "sides", "count", "least", "total"),
                         [("3d4m", 4, 3, 2, False), ("4d3mt", 3, 4, 2, True), ("5d3mt3", 3, 5, 3, True),
                          ("4d3m3", 3, 4, 3, False)])
def test_every_throw_is_rolled_and_marked(expression, sides, count, least, total):
    for throw in itertools.product(range(1, sides + 1), repeat=count):
        roll = de.roll(expression, seed=Scripted(list(throw), sides))
        assert [d.value for d in roll.dice] == list(throw)
        assert roll.total == (_sets(throw, least) if total else sum(throw))
        marks = _marked(throw, least)
        assert [d.critical == "match" for d in roll.dice] == marks
        assert all(d.critical is None for d, on in zip(roll.dice, marks, strict=True) if not on)
        shown = ", ".join(f"{v}(m)" if on else str(v) for v, on in zip(throw, marks, strict=True))
        assert str(roll) == f"{expression}: [{shown}] = {roll.total}"


def test_the_text_in_english_and_french():
    faces = [5, 2, 5, 1]
    assert str(de.roll("4d6mt", seed=Scripted(faces))) == "4d6mt: [5(m), 2, 5(m), 1] = 1"
    assert str(de.roll("4d6mt", seed=Scripted(faces), lang="fr")) == "4d6mt: [5(m), 2, 5(m), 1] = 1"
    assert str(de.roll("4d6m", seed=Scripted(faces), lang="fr")) == "4d6m: [5(m), 2, 5(m), 1] = 13"


def test_the_json_and_html_carry_the_marks():
    roll = de.roll("3d6m", seed=Scripted([4, 4, 1]))
    assert [d["critical"] for d in roll.model_dump()["dice"]] == ["match", "match", None]
    assert roll.model_dump_json().count('"critical":"match"') == 2
    assert roll.render("html").count("</span>(m)") == 2


@pytest.mark.parametrize(("expression", "column", "english", "french"), [
    ("4d6kh3m", 3, "not with kh3", "pas avec kh3"),
    ("4d6mkh3", 4, "not with kh3", "pas avec kh3"),
    ("4d6!m", 3, "not with !", "pas avec !"),
    ("4d6r1mt", 3, "not with r=1", "pas avec r=1"),
    ("4d6>=4m", 3, "not with >=4", "pas avec >=4"),
    ("4d6mt>3", 5, "not with >3", "pas avec >3"),  # no compare point is read after mt
    ("4d6mcs", 4, "not with cs", "pas avec cs"),
    ("4d6mu", 4, "not with u", "pas avec u"),
    ("4d6ms", 4, "not with sa", "pas avec sa"),
    ("4d6m1", 3, "at least 2 dice (m2), not 1", "au moins 2 dés (m2), pas 1"),
    ("4d6mt0", 3, "at least 2 dice (m2), not 0", "au moins 2 dés (m2), pas 0"),
])
def test_what_it_does_not_combine_with_is_refused_with_a_caret(expression, column, english, french):
    for lang, words in (("en", english), ("fr", french)):
        with pytest.raises(de.DiceValueError) as found:
            de.roll(expression, lang=lang)
        assert words in str(found.value)
        assert found.value.column == column
        assert str(found.value).splitlines()[-1] == " " * (column + 2) + "^"


def test_twice_on_one_term_is_refused():
    with pytest.raises(de.DiceSyntaxError) as found:
        de.roll("4d6mmt")
    assert found.value.column == 4


@pytest.mark.parametrize(("expression", "total"), [("4d6mi3", 3 + 3 + 5 + 3), ("4d6min3", 14), ("4d6ma4", 1 + 2 + 4 + 1),
                                                   ("4d6max4", 8)])
def test_the_minimum_and_maximum_are_still_read_as_before(expression, total):
    # "mi" / "ma" / "min" / "max" begin with m: the grammar still reads them as the per-die minimum / maximum
    assert de.roll(expression, seed=Scripted([1, 2, 5, 1])).total == total


def test_a_question_reads_it():
    # P(...) asks of the number of sets as of any total
    want = sum(p for total, p in enumerate_dice([D6] * 4, lambda t: _sets(t, 2)).items() if total >= 1)
    got = sum(p for outcome, p in de.distribution("P(4d6mt >= 1)").items() if outcome.total == 1)
    assert got == pytest.approx(want, abs=1e-12)
