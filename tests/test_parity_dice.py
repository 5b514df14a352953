"""Foundry VTT's counts of even and odd faces (``6d6even``, ``6d6odd``; Foundry's API, ``Die.countEven`` /
``countOdd``: each even (odd) result counted 1, the others 0): the roll on given faces, the sample and the exact
odds, each against an enumeration written here (every throw of small pools, counted with a plain loop); the text in
English and French; a refusal with a caret for every modifier it does not combine with. And the generic path it
takes (term/pooled.py: a score of the dice as a multiset, read from one evaluator) with an evaluator that is
neither sparse nor scalar, against a brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from diceengine.systems.standard.term.pooled import run, run_one

import diceengine as de
from diceengine.algebra.multiset import Evaluator
from tests.helpers import Scripted, chi2_passes, enumerate_dice, exact_totals


def _evens(faces: tuple[int, ...]) -> int:
    return sum(1 for v in faces if v % 2 == 0)


def _odds(faces: tuple[int, ...]) -> int:
    return sum(1 for v in faces if v % 2 != 0)



D6, D5, DF = [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5], [-1, 0, 1]
CASES = {
    "4d6even": (D6, 4, _evens),
    "4d6odd": (D6, 4, _odds),
    "5d5even": (D5, 5, _evens),  # two even faces of five
    "3d5odd": (D5, 3, _odds),
    "4dFodd": (DF, 4, _odds),  # -1 is odd (2 does not divide it), as Foundry's -1 % 2 !== 0
    "4dFeven": (DF, 4, _evens),
    "4d6min3even": ([3, 3, 3, 4, 5, 6], 4, _evens),  # the minimum first: the 1s and 2s show 3
    "4d6max2odd": ([1, 2, 2, 2, 2, 2], 4, _odds),
    "3d{1,2,2,8}even": ([1, 2, 2, 8], 3, _evens),
    "4d6even+1": (D6, 4, lambda t: _evens(t) + 1),
    "1d6odd": (D6, 1, _odds),
}



@pytest.mark.parametrize("expression", list(CASES))
def test_the_exact_odds_are_the_enumerations(expression):
    faces, count, score = CASES[expression]
    want = enumerate_dice([faces] * count, score)
    got = exact_totals(expression)
    assert set(got) == set(want)
    for total, p in want.items():
        assert got[total] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("expression", ["4d6even", "5d5even", "4dFodd", "4d6min3even"])
def test_the_sample_follows_the_enumeration(expression):
    faces, count, score = CASES[expression]
    want = enumerate_dice([faces] * count, score)
    sample = de.sample(expression, 40_000, seed=11)["total"]  # seeded: the same draws every run
    assert set(sample.tolist()) <= set(want)
    assert chi2_passes(sample, want)


@pytest.mark.parametrize(("expression", "sides", "count"), [("3d4even", 4, 3), ("4d3odd", 3, 4), ("2d5even", 5, 2)])
def test_every_throw_is_rolled_counted_and_marked(expression, sides, count):
    odd = expression.endswith("odd")
    for throw in itertools.product(range(1, sides + 1), repeat=count):
        roll = de.roll(expression, seed=Scripted(list(throw), sides))
        assert [d.value for d in roll.dice] == list(throw)
        assert roll.total == (_odds(throw) if odd else _evens(throw))
        assert all(d.critical is None for d in roll.dice)
        shown = ", ".join(f"{v}*" if (v % 2 != 0) == odd else str(v) for v in throw)
        assert str(roll) == f"{expression}: [{shown}] = {roll.total}"


def test_the_text_json_and_html_in_english_and_french():
    faces = [5, 2, 6, 1]
    assert str(de.roll("4d6even", seed=Scripted(faces))) == "4d6even: [5, 2*, 6*, 1] = 2"
    assert str(de.roll("4d6odd", seed=Scripted(faces), lang="fr")) == "4d6odd: [5*, 2, 6, 1*] = 2"
    assert str(de.roll("4d6EVEN", seed=Scripted(faces))) == "4d6EVEN: [5, 2*, 6*, 1] = 2"  # letters of any case
    roll = de.roll("3d6even", seed=Scripted([4, 3, 2]))
    assert [d["value"] for d in roll.model_dump()["dice"]] == [4, 3, 2]
    assert roll.model_dump()["outcome"]["total"] == 2
    assert roll.render("html").count("</span>*") == 2


@pytest.mark.parametrize(("expression", "column", "english", "french"), [
    ("4d6kh3even", 3, "not with kh3", "pas avec kh3"),
    ("4d6evenkh3", 7, "not with kh3", "pas avec kh3"),
    ("4d6!odd", 3, "not with !", "pas avec !"),
    ("4d6r1even", 3, "not with r=1", "pas avec r=1"),
    ("4d6>=4even", 3, "not with >=4", "pas avec >=4"),
    ("4d6oddcs", 6, "not with cs", "pas avec cs"),
    ("4d6evenu", 7, "not with u", "pas avec u"),
    ("4d6odds", 6, "not with sa", "pas avec sa"),
    ("4d6evenmt", 3, "not with even", "pas avec even"),  # matching, lowered first, names it
])
def test_what_it_does_not_combine_with_is_refused_with_a_caret(expression, column, english, french):
    for lang, words in (("en", english), ("fr", french)):
        with pytest.raises(de.DiceValueError) as found:
            de.roll(expression, lang=lang)
        assert words in str(found.value)
        assert found.value.column == column
        assert str(found.value).splitlines()[-1] == " " * (column + 2) + "^"


def test_twice_on_one_term_is_refused():
    with pytest.raises(de.DiceSyntaxError, match="more than one count of even or odd faces") as found:
        de.roll("4d6evenodd")
    assert found.value.column == 7


def test_the_explosion_e_is_still_read_as_before():
    # "e" begins "even": d20's eN still explodes (the longer token wins only when the whole word is there)
    assert de.roll("3d6e6", seed=Scripted([6, 2, 1, 3])).total == 6 + 2 + 1 + 3
    with pytest.raises(de.DiceSyntaxError):
        de.roll("4d6eve")


def test_a_question_reads_it():
    want = sum(p for total, p in enumerate_dice([D6] * 4, _evens).items() if total >= 3)
    got = sum(p for outcome, p in de.distribution("P(4d6even >= 3)").items() if outcome.total == 1)
    assert got == pytest.approx(want, abs=1e-12)


# ------------------------------------------------- the generic path: one evaluator, neither sparse nor scalar


class LongestRun(Evaluator):
    """The longest run of consecutive faces shown (a straight): a face no die shows ends a run, so every face of
    the die must be visited (not sparse), and next_state reads arrays only (np.where)."""

    order = "lowest"

    def size(self, sizes):
        return (sum(sizes) + 1) ** 2  # (current run, longest run), each at most the number of faces visited

    def next_state(self, state, outcome, seen, counts):
        side = self.side
        run, best = state // side, state % side
        run = np.where(counts[0] > 0, run + 1, 0)
        return np.minimum(run, side - 1) * side + np.maximum(best, np.minimum(run, side - 1))

    def final(self, state):
        return state % self.side


def _longest_run(throw: tuple[int, ...], faces: list[int]) -> int:
    best = run = 0
    for v in faces:
        run = run + 1 if v in throw else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize(("faces", "count"), [([1, 2, 3, 4, 5, 6], 4), ([1, 2, 3, 4], 3), ([1, 2, 3, 4, 5, 6, 7, 8], 3)])
def test_a_roll_and_a_sample_read_every_face_of_a_dense_evaluator(faces, count):
    evaluator = LongestRun()
    evaluator.side = count + 1
    throws = list(itertools.product(faces, repeat=count))
    want = [_longest_run(t, faces) for t in throws]
    assert [run_one(evaluator, t, faces) for t in throws] == want
    assert run(evaluator, np.array(throws), faces).tolist() == want


def test_a_roll_scored_as_a_multiset_needs_no_numpy():
    # an evaluator that reads plain integers (scalar) is run without numpy: a first roll of 2d6mt or 3d6even does
    # not import it (as a plain roll does not)
    import subprocess
    import sys

    code = ("import sys, diceengine; r = diceengine.roll('4d6mt'); s = str(diceengine.roll('3d6even'))\n"
            "str(diceengine.roll('3d6m')); print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False"]
