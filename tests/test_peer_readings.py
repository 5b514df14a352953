"""The peers' documented readings of the standard notation: a compare point after a
modifier letter, keep / drop on a group holding one roll, d20's joined set selectors, another roller's operator
taken as a description. Each rolls the peer's documented example and checks the exact odds against an
enumeration written here."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice

D6 = range(1, 7)


def by_total(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal()


# ---- a compare point after a modifier letter (rpg-dice-roller: "cs!=45", "r!=5", "f!=1", "<>" alike)

def test_critical_success_on_every_face_but_one_is_a_mark_not_an_explosion():
    # rpg-dice-roller's parser test: 36d152cs!=45 marks every die but a 45; no die explodes
    r = de.roll("36d152cs!=45", seed=4)
    assert len(r.dice) == 36 and not any(d.exploded for d in r.dice)
    assert r.total == sum(d.value for d in r.dice)
    assert all((d.critical == "success") == (d.value != 45) for d in r.dice)
    # the same reading on a small case, joint with the count of marked dice
    expected = enumerate_dice([D6] * 3, lambda f: (sum(f), sum(x != 4 for x in f)))
    got = {(o.total, o.critical_successes): p for o, p in de.distribution("3d6cs!=4").items()}
    assert_close(got, expected)
    assert_close(by_total("3d6cs!=4"), enumerate_dice([D6] * 3, sum))  # the total is 3d6's


def test_reroll_on_every_face_but_one():
    # r!=5: re-roll until the face is 5 (rpg-dice-roller, "10d8dh2r!=5kl3"): always 5
    assert by_total("1d6r!=5") == {5: 1.0}
    assert de.roll("10d8dh2r!=5kl3", seed=2).total == 15
    # ro!=5: once; enumeration of the first face and, when it is not 5, the second
    expected: dict = {}
    for first, second in itertools.product(D6, D6):
        v = first if first == 5 else second
        expected[v] = expected.get(v, Fraction(0)) + Fraction(1, 36)
    assert_close(by_total("1d6ro!=5"), expected)
    assert chi2_passes(de.sample("1d6ro!=5", 4000, seed=7)["total"], by_total("1d6ro!=5"))
    assert_close(by_total("1d6ro<>5"), expected)  # <> is the same compare point


def test_failure_on_every_face_but_one():
    # rpg-dice-roller's 450dF.1>0f!=1: a success on +1, a failure on every other face
    expected = enumerate_dice([D6] * 3, lambda f: sum(1 if x > 3 else -1 if x != 2 else 0 for x in f))
    assert_close(by_total("3d6>3f!=2"), expected)
    assert_close(by_total("3d6>3f<>2"), expected)
    r = de.roll("450dF.1>0f!=1", seed=1)
    assert r.total == sum(1 if d.value == 1 else -1 for d in r.dice)


def test_an_explosion_after_dice_still_reads_bang_equal():
    # rpg-dice-roller documents 2d6!=5 as an explosion on 5: unchanged
    assert abs(de.distribution("2d6!=5").mean() - 2 * (3.5 + 3.5 / 5)) < 1e-9


@pytest.mark.parametrize("expr", ["1d6r!=", "1d6cs!=>4", "4d7f!=2"])
def test_a_not_equal_point_without_its_number_is_refused(expr):
    with pytest.raises(de.DiceSyntaxError):
        de.roll(expr)


# ---- keep / drop on a group holding one roll: the roll's dice

def _kept_sum(faces, keep, high=True):
    ordered = sorted(faces, reverse=high)
    return sum(ordered[:keep])


def test_keep_on_a_group_of_one_roll_keeps_its_dice():
    # rpg-dice-roller's group-rolls guide: {4d6}kh2 keeps the two highest of the four dice
    expected = enumerate_dice([D6] * 4, lambda f: _kept_sum(f, 2))
    assert_close(by_total("{4d6}kh2"), expected)
    r = de.roll("{4d6}kh2", seed=3)
    assert r.total == _kept_sum([d.value for d in r.dice], 2)
    assert sum(d.kept for d in r.dice) == 2
    assert chi2_passes(de.sample("{4d6}kh2", 5000, seed=5)["total"], by_total("{4d6}kh2"))


def test_drop_on_a_group_of_one_roll_drops_its_dice():
    # {4d10}dl1 was always 0 (the whole item dropped): it drops the lowest of the four dice
    d10 = range(1, 11)
    assert_close(by_total("{4d10}dl1"), enumerate_dice([d10] * 4, lambda f: sum(f) - min(f)))
    # a constant with the roll stays: {4d6+2}kh2 is the two highest dice plus 2
    assert_close(by_total("{4d6+2}kh2"), enumerate_dice([D6] * 4, lambda f: _kept_sum(f, 2) + 2))


def test_a_group_of_constants_still_keeps_its_items():
    assert de.roll("(1)k2", dialect="d20").total == 0  # d20's own test
    assert de.roll("(1)k1", dialect="d20").total == 1


def test_a_group_of_several_rolls_in_one_item_ranks_their_dice_or_is_refused():
    """{1d20+1d6}kh1 keeps the higher of the two dice (tests/test_pooled_keep.py); an item whose dice cannot be
    ranked together is refused rather than misread."""
    assert de.distribution("{1d20+1d6}kh1").marginal()[20] == pytest.approx(1 / 20)
    with pytest.raises(de.DiceValueError):
        de.roll("{1d20+1d6!}kh1")


def _multisets(count, sides):
    """Every sorted throw of ``count`` dice with its probability (multinomial)."""
    for combo in itertools.combinations_with_replacement(range(1, sides + 1), count):
        ways = factorial(count)
        for c in Counter(combo).values():
            ways //= factorial(c)
        yield combo, Fraction(ways, sides ** count)


def test_d20_set_operators_on_a_parenthesis_of_dice_choose_among_the_dice_still_kept():
    # avrae/d20's test ((10d6kh5)kl2)kh1: between 1 and 6; (10d6kh5)kl2 the two lowest of the five highest
    expected: dict = {}
    for combo, p in _multisets(10, 6):
        kept = sorted(combo)[5:]
        v = sum(kept[:2])
        expected[v] = expected.get(v, 0) + p
    assert_close(by_total("(10d6kh5)kl2", dialect="d20"), expected)
    inner: dict = {}
    for combo, p in _multisets(10, 6):
        v = sorted(combo)[5:][1]  # the higher of those two
        inner[v] = inner.get(v, 0) + p
    assert_close(by_total("((10d6kh5)kl2)kh1", dialect="d20"), inner)
    assert 1 <= de.roll("((10d6kh5)kl2)kh1", seed=9, dialect="d20").total <= 6
    sample = de.sample("(10d6kh5)kl2", 5000, seed=11, dialect="d20")["total"]
    assert chi2_passes(sample, by_total("(10d6kh5)kl2", dialect="d20"))


# ---- d20's set selectors join under dialect="d20"

def test_d20_joins_the_selectors_of_a_set():
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1", dialect="d20").total == 6  # avrae/d20's test
    assert de.roll("(1, 2, 3, 4, 5)k1k2", dialect="d20").total == 3
    assert by_total("(1, 2, 3, 4, 5)ph1pl1", dialect="d20") == {9: 1.0}
    # Roll20 / rpg-dice-roller's reading without the option: each keep chooses among all
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1").total == 0
    # on dice: the highest and the lowest of three d6, one die when all three show the same face (d20 chooses
    # the first thrown among equals for both)
    expected = enumerate_dice([D6] * 3, lambda f: max(f) + min(f) if max(f) != min(f) else f[0])
    assert_close(by_total("(1d6, 1d6, 1d6)kh1kl1", dialect="d20"), expected)


# ---- another roller's operator is no description

@pytest.mark.parametrize("expr, column", [("6d6 o 3", 4), ("(1, 2, 5, 9, 3) v 3", 16), ("6 e 5", 2),
                                          ("2d6 x2", 4)])
def test_a_lone_letter_and_a_number_after_the_roll_is_refused_with_a_caret(expr, column):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr)
    assert "operator" in str(err.value)
    assert err.value.column == column


@pytest.mark.parametrize("expr, description", [("1d20+5 to hit", "to hit"), ("2d6 fire", "fire"),
                                               ("1d20 I rolled a d20", "I rolled a d20"),
                                               ("1d20 a 2nd try", "a 2nd try"), ('1d20 "o 3"', '"o 3"'),
                                               ("1d20 # o 3", "o 3")])
def test_words_still_describe(expr, description):
    assert de.roll(expr, seed=1).description == description


# ---- a modifier cut in two by a space: refused with a caret and the spelling, never a description
#: (the spelling split, the column of the caret, the spelling offered, the peer's documented value of that spelling
#: or None): d20's tests give (1, 2, 3, 4, 5)kh1kl1 = 6 and ph1pl1 = 9, rpg-dice-roller's 10d8dh2r!=5kl3 = 15
SPLIT = [
    ("(1, 2, 3, 4, 5)k h1kl1", 17, "(1, 2, 3, 4, 5)kh1kl1", 6, {"dialect": "d20"}),
    ("(1, 2, 3, 4, 5)p h1pl1", 17, "(1, 2, 3, 4, 5)ph1pl1", 9, {"dialect": "d20"}),
    ("10d8d h2r!=5kl3", 6, "10d8dh2r!=5kl3", 15, {}),
    ("4d10d h1dl2", 6, "4d10dh1dl2", None, {}), ("8d6k h4s", 5, "8d6kh4s", None, {}),
    ("1d6r ol1", 5, "1d6rol1", None, {"dialect": "d20"}), ("1d6r al1", 5, "1d6ral1", None, {"dialect": "d20"}),
    ("d6r o", 4, "d6ro", None, {}), ("35dF.1u o", 8, "35dF.1uo", None, {}),
    ("2d6! p", 5, "2d6!p", None, {}), ("2d6!! p", 6, "2d6!!p", None, {}),
    ("4d10!! p/(23*d12r)", 7, "4d10!!p/(23*d12r)", None, {"division": "exact"}),
    ("4d6s a", 5, "4d6sa", None, {}), ("{4d6, 2d10}s d", 13, "{4d6, 2d10}sd", None, {}),
]


@pytest.mark.parametrize("expr, column, spelling, value, options", SPLIT)
def test_a_modifier_split_by_a_space_is_refused_with_its_spelling(expr, column, spelling, value, options):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr, **options)
    assert err.value.column == column
    assert f"({spelling})" in str(err.value)
    de.roll(spelling, seed=1, **options)  # the spelling offered reads
    if value is not None:
        assert by_total(spelling, **options) == {value: 1.0}


@pytest.mark.parametrize("expr, description", [("1d6s and more", "and more"), ("1d6! pretty", "pretty"),
                                               ("4d6k here", "here"), ("1d20r or not", "or not")])
def test_words_after_a_modifier_letter_still_describe(expr, description):
    assert de.roll(expr, seed=1).description == description


@pytest.mark.parametrize("expr", ["10d8dh2r !=5kl3", "10d8dh2r! =5kl3", "10d8dh2r ! = 5kl3"])
def test_a_space_in_a_not_equal_point_after_a_reroll_changes_nothing(expr):
    # rpg-dice-roller's 10d8dh2r!=5kl3: every die re-rolled until it shows 5, the lowest three kept: 15; the spaced
    # spelling read a bare r and then an explosion on 5
    assert by_total(expr) == {15: 1.0}


@pytest.mark.parametrize("expr", ["3d6cs !=4", "3d6cs! =4"])
def test_a_space_in_a_not_equal_point_after_a_critical_mark_changes_nothing(expr):
    # the mark on every face but 4, no explosion (rpg-dice-roller's 36d152cs!=45), by enumeration of three d6
    expected = enumerate_dice([D6] * 3, lambda f: (sum(f), sum(x != 4 for x in f)))
    got = {(o.total, o.critical_successes): p for o, p in de.distribution(expr).items()}
    assert_close(got, expected)
    assert not any(d.exploded for d in de.roll(expr, seed=2).dice)


# ---- notation spaced out: read as written without the spaces, or refused; never the rest dropped as words

@pytest.mark.parametrize("expr, plain, options", [
    ("4 d 20 max - 12", "4d20max-12", {}),  # rpg-dice-roller's parser test, spaced: every face counts -12
    ("10 d 20 rr < 20", "10d20rr<20", {"dialect": "d20"}),  # avrae/d20's README: every die re-rolled up to a 20
    ("1 d 6 rol 1", "1d6rol1", {"dialect": "d20"}), ("5 d % !p", "5d%!p", {})])
def test_notation_spaced_out_reads_as_without_the_spaces(expr, plain, options):
    assert by_total(expr, **options) == by_total(plain, **options)
    assert de.roll(expr, seed=1, **options).description is None


def test_the_peers_documented_values_of_spaced_notation():
    assert by_total("4 d 20 max - 12") == {-48: 1.0}  # each of four faces counts at most -12
    assert by_total("10 d 20 rr < 20", dialect="d20") == {200: 1.0}


@pytest.mark.parametrize("expr, column", [("1d20 kh1 (x)", 5), ("4 d 8 dl 2 * ( 5 + 2 d 10 kh 1 )", 6),
                                          ("3 dF . 1 cf > 8", 2)])
def test_notation_after_a_space_whose_rest_does_not_read_is_refused(expr, column):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr)
    assert err.value.column == column and "#" in str(err.value)


@pytest.mark.parametrize("expr, column, plus, joined", [("1d20 d4", 5, "1d20+1d4", "1d20d4"),
                                                        ("4d6kh3 d1", 7, "4d6kh3+1d1", "4d6kh3d1")])
def test_a_bare_die_after_dice_is_refused_with_both_readings(expr, column, plus, joined):
    """``1d20 d4`` joined is rpg-dice-roller's drop of the lowest 4 (always 0 here): refused, both spellings given."""
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expr)
    assert err.value.column == column and plus in str(err.value) and joined in str(err.value)
    assert by_total("1d20d4") == {0: 1.0}  # the joined reading: the one die dropped


@pytest.mark.parametrize("expr, plain", [("1 d20", "1d20"), ("{19d23} d1", "{19d23}d1"), ("2 + 1 d6", "2 + 1d6")])
def test_dice_after_a_bare_number_or_a_group_still_join(expr, plain):
    assert by_total(expr) == by_total(plain)
