"""D6 codes and checks (``diceengine.systems.d6``, shared with D6 with the Wild Die): code arithmetic and text,
named difficulties, checks against a number and opposed rolls (ties rolled again), their exact odds and samples,
the catalogue, each against the rule texts (``000``, ``002``, ``003``), scripted dice and enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d6
from diceengine.systems.d6 import Code, parse_code
from diceengine.systems.d6.checks import CodeDice, code_range, d6_catalogue, joined
from diceengine.systems.d6.codes import code_named
from diceengine.systems.d6wild import LADDER
from diceengine.systems.words import plain_word

import diceengine as de
from diceengine.api import plan as plan_of
from diceengine.limits import MAX_DICE, MAX_VALUE
from diceengine.parts import Words
from diceengine.registry import get_system
from tests.helpers import Scripted, assert_close, enumerate_dice

D6 = range(1, 7)


def error_of(expression: str, system: str = "d6", **options) -> de.DiceError:
    with pytest.raises(de.DiceError) as info:
        plan_of(expression, system, **options)
    return info.value


# ---------------------------------------------------------------- the code algebra


def test_code_arithmetic():
    assert Code(5, 1) - Code(2) == Code(3, 1)          # text 000: 5D+1 - 2D
    assert Code(5, 1) + 2 == Code(5, 3) and 2 + Code(5, 1) == Code(5, 3)
    assert Code(5, 1) - 2 == Code(5, -1)
    assert -Code(2, 1) == Code(-2, -1)
    assert Code(5, 1) * 2 == Code(10, 2) and 2 * Code(2, 2) == Code(4, 4)  # a Force point
    assert Code(2).pips == 0 and Code(0, 4).is_number and not Code(1).is_number
    assert Code(5, 1).in_pips == 16
    assert Code.from_pips(16) == Code(5, 1) and Code.from_pips(2) == Code(0, 2)


@pytest.mark.parametrize("code, normal", [
    (Code(2, 3), Code(3, 0)), (Code(2, 4), Code(3, 1)), (Code(2, 2), Code(2, 2)), (Code(3, -1), Code(2, 2)),
    (Code(1, -3), Code(0, 0)), (Code(0, -1), Code(0, -1)), (Code(2, 0), Code(2, 0)),
])
def test_normalised(code, normal):
    # 3 pips are 1D; a negative pip borrows a die while the code stays at least 0
    assert code.normalised() == normal


def test_code_text():
    assert [str(c) for c in (Code(4, 2), Code(4), Code(3, -1), Code(0, 7), Code(0, -2))] == \
        ["4D+2", "4D", "3D-1", "7", "-2"]


@pytest.mark.parametrize("expr, dice, pips", [
    ("2*(5D+1)", 10, 2),          # text 000: a Force point doubles every code
    ("(2D+2)*2", 4, 4),
    ("5D+1 - 2D", 3, 1),
    ("-2D + 5D", 3, 0),
    ("(5D+1)/2", 2, 2),           # hurrying, in pips
    ("(6D+1)/3", 2, 0),           # 19 pips / 3 = 6
    ("(7-1)/4 + 1D", 1, 1),       # numbers divide as numbers
    ("3D + 7/2", 3, 3),           # 3, not 3.5
])
def test_code_expressions(expr, dice, pips):
    assert parse_code(expr) == Code(dice, pips)
    assert plan_of(expr, "d6").actor_code == Code(dice, pips)


def test_parse_code_takes_a_code():
    c = Code(3, 1)
    assert parse_code(c) is c
    assert parse_code("4d+2") == Code(4, 2)


@pytest.mark.parametrize("expr, message, column", [
    ("2D*3D", "two dice codes cannot be multiplied", 2),
    ("2D/1D", "cannot divide by a dice code", 2),
    ("2D/0", "division by zero", 2),
    ("0D+1", "the code is 0D+1: a code reduced to 0D cannot be rolled", 0),
    ("1D-1D+2", "the code is 0D+2: a code reduced to 0D cannot be rolled", 0),
    ("3D vs 2D-3D", "the difficulty is -1D+0: a code reduced to 0D cannot be rolled", 6),
])
def test_code_errors(expr, message, column):
    e = error_of(expr)
    assert (e.message, e.column, e.expression) == (message, column, expr)
    assert isinstance(e, de.DiceValueError)


def test_too_many_dice():
    assert plan_of(f"{MAX_DICE}D", "d6").actor_code == Code(MAX_DICE)
    e = error_of(f"{MAX_DICE + 1}D")
    assert isinstance(e, de.DiceLimitError)
    assert e.message == f"too many dice: {MAX_DICE + 1} (at most {MAX_DICE})" and e.column == 0
    # both sides of an opposed roll count: at most MAX_DICE dice in one throw
    assert plan_of(f"{MAX_DICE // 2}D vs {MAX_DICE // 2}D", "d6").dice_per_roll == MAX_DICE
    e = error_of(f"{MAX_DICE // 2 + 1}D vs {MAX_DICE // 2}D")
    assert isinstance(e, de.DiceLimitError)
    assert e.message == f"too many dice (at most {MAX_DICE})"


def _as_product(value: int) -> str:
    """``value`` written with numbers of at most 10**9: ``a*b + c``."""
    a = 10**8
    return f"({a}*{value // a} + {value % a})"


def test_totals_stay_within_the_integer_rule():
    # a code's total with every explosion at its limit: 6 per die plus two chains of 201 throws of 6
    allowance = 2 * 6 * 201
    top = MAX_VALUE - 6 - allowance
    assert plan_of(f"1D + {_as_product(top)}", "d6wild").actor_code == Code(1, top)
    e = error_of(f"1D + {_as_product(top + 1)}", "d6wild")
    assert isinstance(e, de.DiceLimitError) and e.column == 0
    assert str(MAX_VALUE + 1) in e.message
    # two dice: 12
    assert plan_of(f"2D + {_as_product(top - 6)}", "d6").actor_code == Code(2, top - 6)
    with pytest.raises(de.DiceLimitError):
        plan_of(f"2D + {_as_product(top - 5)}", "d6")


def test_margins_stay_within_the_integer_rule():
    # the margin of a check is total - difficulty: its range is checked too, with the caret on "vs"
    low = MAX_VALUE - 6 - 2 * 6 * 201
    assert plan_of(f"1D vs -{_as_product(low)}", "d6").difficulty == -low
    e = error_of(f"1D vs -{_as_product(low + 1)}")
    assert isinstance(e, de.DiceLimitError) and e.column == 3
    # a rolled difficulty: the lowest margin is 1 - (difficulty's highest total)
    high = MAX_VALUE - 1 - 6 - 2 * 6 * 201  # 1D's total 1 minus (1D + high with its explosions)
    plan_of(f"1D vs 1D + {_as_product(high + 1)}", "d6")  # the margin reaches -MAX_VALUE: allowed
    with pytest.raises(de.DiceLimitError):
        plan_of(f"1D vs 1D + {_as_product(high + 2)}", "d6")


def test_code_named():
    codes = {"blaster": "4D+1", "heavy_weapons": "3D"}
    assert code_named(codes, "Luke", "Blaster") == Code(4, 1)
    assert code_named(codes, "Luke", "Heavy Weapons") == Code(3)
    assert code_named(codes, "Luke", "heavy-weapons") == Code(3)  # as d6wild's training spells it
    with pytest.raises(de.DiceValueError) as info:
        code_named(codes, "Luke", "dodge")
    assert info.value.message == "Luke has no code for 'dodge' (known: blaster, heavy_weapons)"
    from diceengine.i18n import translate_error

    assert translate_error(info.value, "fr").message == "Luke n'a pas de code pour 'dodge' (connus : blaster, heavy_weapons)"


def test_plain_word():
    assert plain_word("Très") == "tres"
    assert plain_word("HÉROÏQUE") == "heroique"


def test_named_difficulty_words():
    # several words join with "_"; accents and case dropped
    o = de.roll("4D vs Très Difficile", "d6wild", seed=1).outcome
    assert o.total - o.margin == 25
    o = de.roll("4D vs Portée Moyenne", "d6", seed=1).outcome
    assert o.total - o.margin == 15
    e = error_of("4D vs very hard", "d6wild")
    assert e.message == ("unknown difficulty 'very hard' (known: " + ", ".join(sorted(LADDER)) + ")")
    assert e.column == 6


# ---------------------------------------------------------------- one roll, explained


def test_a_check_against_a_number_explained():
    r = de.roll("3D-1 vs 12", "d6", seed=Scripted([1, 6, 5]))
    assert (r.total, r.outcome.success, r.outcome.margin) == (11, False, -1)
    assert str(r) == "3D-1 vs 12: 1 + 6 + 5 - 1 = 11, failure by 1"
    r = de.roll("3D+2 vs 12", "d6", seed=Scripted([1, 6, 3]))
    assert (r.outcome.success, r.outcome.margin) == (True, 0)
    assert str(r) == "3D+2 vs 12: 1 + 6 + 3 + 2 = 12, success by 0"
    r = de.roll("2D", "d6", seed=Scripted([4, 5]))
    assert (r.outcome.total, r.outcome.success, r.outcome.margin) == (9, None, None)
    assert str(r) == "2D: 4 + 5 = 9"


@pytest.mark.parametrize("tie, success", [("actor", True), ("opponent", False)])
def test_a_tied_opposed_roll(tie, success):
    # text 000: a player character beats an NPC on a tie
    r = de.roll("2D vs 1D+1", "d6", seed=Scripted([3, 4, 6]), tie=tie)
    assert (r.total, r.outcome.margin, r.outcome.success) == (7, 0, success)
    verdict = "success by 0" if success else "failure by 0"
    assert str(r) == f"2D vs 1D+1: 3 + 4 = 7 against 6 + 1 = 7, {verdict}"
    assert [d.label for d in r.dice] == [None, None, "difficulty"]


def test_ties_rolled_again():
    # two player characters (or two NPCs) roll a tie again (text 000)
    r = de.roll("2D vs 2D", "d6", seed=Scripted([3, 4, 2, 5, 1, 1, 1, 1, 2, 1, 4, 1]), tie="reroll")
    assert (r.total, r.outcome.margin, r.outcome.success) == (3, -2, False)
    assert str(r) == "2D vs 2D: 2 + 1 = 3 against 4 + 1 = 5 (2 ties rolled again), failure by 2"
    dice = [(d.value, d.label, d.kept, d.rerolled) for d in r.dice]
    assert dice == [(3, None, False, True), (4, None, False, True),
                    (2, "difficulty", False, True), (5, "difficulty", False, True),
                    (1, None, False, True), (1, None, False, True),
                    (1, "difficulty", False, True), (1, "difficulty", False, True),
                    (2, None, True, False), (1, None, True, False),
                    (4, "difficulty", True, False), (1, "difficulty", True, False)]
    r = de.roll("1D vs 1D", "d6", seed=Scripted([3, 3, 5, 2]), tie="reroll")
    assert str(r) == "1D vs 1D: 5 = 5 against 2 = 2 (1 tie rolled again), success by 3"
    # the other tie rules do not re-roll
    r = de.roll("1D vs 1D", "d6", seed=Scripted([3, 3]), tie="opponent")
    assert str(r) == "1D vs 1D: 3 = 3 against 3 = 3, failure by 0"


def test_endless_ties_are_refused():
    with pytest.raises(de.DiceLimitError) as info:
        de.roll("1D vs 1D", "d6", seed=Scripted([3] * 202), tie="reroll")
    assert info.value.message == "more than 100 ties in a row"
    # 100 ties then a win is a roll
    r = de.roll("1D vs 1D", "d6", seed=Scripted([3] * 200 + [4, 2]), tie="reroll")
    assert r.outcome.margin == 2


# ---------------------------------------------------------------- joined (a roll's text)


def test_joined():
    assert joined(["a"], 0) == ["a"]
    assert joined(["a"], 2) == ["a", " + 2"]
    assert joined(["a"], -2) == ["a", " - 2"]
    assert joined(["a", "b"], 0) == ["a", " + ", "b"]
    assert joined(["a", ["w", "x"]], -1) == ["a", " + ", "w", "x", " - ", "1"]
    assert joined([["w", "x"]], 3) == ["w", "x", " + ", "3"]
    assert joined([], 3) == ["3"]
    assert joined([], 0) == []


# ---------------------------------------------------------------- bulk and exact


def _opposed(actor: int, against: int, tie: str) -> dict[tuple[bool, int], Fraction]:
    """(success, margin) of ``actorD vs againstD`` by enumeration, ties by ``tie``."""
    out = enumerate_dice([D6] * (actor + against), lambda v: sum(v[:actor]) - sum(v[actor:]))
    if tie == "reroll":
        p_tie = out.pop(0)
        return {(m > 0, m): p / (1 - p_tie) for m, p in out.items()}
    return {(m > 0 or (m == 0 and tie == "actor"), m): p for m, p in out.items()}


@pytest.mark.parametrize("tie", ["actor", "opponent", "reroll"])
def test_opposed_odds(tie):
    d = de.distribution("2D vs 1D", "d6", tie=tie)
    got: dict[tuple[bool, int], float] = {}
    for o, p in d:
        key = (bool(o.success), int(o.margin))
        got[key] = got.get(key, 0.0) + p
    assert_close(got, _opposed(2, 1, tie))


def test_opposed_odds_of_the_wild_die():
    # d6wild 1D vs 1D: both dice are Wild Dice; ties re-rolled, so the actor wins half the time
    d = de.distribution("1D vs 1D", "d6wild", tie="reroll")
    assert d.chance("success") == pytest.approx(0.5)
    assert d.probability(lambda o: o.margin == 0) == 0
    # the complication is the actor's first throw of 1 among the throws that do not tie: a tie has
    # chance 5 * (1/36 + 1/36**2 + ...) = 1/7; a 1 against anything but a 1 has 1/6 * 5/6
    assert d.chance("complication") == pytest.approx((5 / 36) / (6 / 7), abs=1e-9)


def test_difficulty_number_odds():
    d = de.distribution("2D vs 7", "d6")
    assert d.chance("success") == pytest.approx(21 / 36)
    assert d.probability(lambda o: o.margin == 0) == pytest.approx(6 / 36)
    d = de.distribution("2D+1", "d6")
    assert d.fields[0] == "total"
    assert_close(d.marginal("total"), enumerate_dice([D6, D6], lambda v: sum(v) + 1))


@pytest.mark.parametrize("tie", ["actor", "opponent", "reroll"])
def test_opposed_samples(tie):
    n = 60_000
    s = de.sample("2D vs 1D", n, "d6", seed=7, tie=tie)
    assert s["total"].dtype == np.int64
    expected = _opposed(2, 1, tie)
    for (success, margin), p in expected.items():
        hits = np.count_nonzero((s["margin"] == margin) & (s["success"] == success))
        assert abs(hits / n - float(p)) < 5 * (float(p) * (1 - float(p)) / n) ** 0.5 + 1e-9
    wins = s["margin"] > 0 if tie == "opponent" else s["margin"] >= 0
    assert np.array_equal(s["success"], wins)


def test_sample_against_a_number():
    s = de.sample("2D vs 7", 20_000, "d6", seed=3)
    assert np.array_equal(s["success"], s["total"] >= 7)
    assert np.array_equal(s["margin"], s["total"] - 7)
    assert s["total"].min() == 2 and s["total"].max() == 12
    s = de.sample("1D+2", 5_000, "d6", seed=3)
    assert set(np.unique(s["total"]).tolist()) == {3, 4, 5, 6, 7, 8}
    assert "success" not in s.arrays


def test_rerolled_ties_resample_the_wild_die_fields():
    # d6wild 1D vs 1D re-rolled: a row's complication is its own final throw's (a first 1 is a total of 1)
    s = de.sample("1D vs 1D", 20_000, "d6wild", seed=11, tie="reroll")
    assert not np.any(s["margin"] == 0)
    assert np.array_equal(s["complication"], s["total"] == 1)
    assert np.array_equal(s["explosions"] > 0, s["total"] > 6)


class TiesThen:
    """A numpy-like generator for ``1D vs 1D``: every die shows 3 (a tie) until call ``until``, then the
    actor's dice show 4 and the opponent's 2."""

    def __init__(self, until: int) -> None:
        self.calls, self.until = 0, until

    def integers(self, low, high, size):
        k, self.calls = self.calls, self.calls + 1
        face = 3 if k < self.until else (4 if k % 2 == 0 else 2)
        return np.full(size, face, dtype=np.int64)


def test_endless_ties_in_a_sample_are_refused():
    # the first throw (actor, opponent) ties; each of at most 100 re-rolls throws both again
    plan = plan_of("1D vs 1D", "d6", tie="reroll")
    s = plan.sample(10, TiesThen(2 + 2 * 99))          # the 100th re-roll breaks the tie
    assert s["margin"].tolist() == [2] * 10 and s["success"].all()
    with pytest.raises(de.DiceLimitError) as info:
        plan.sample(10, TiesThen(2 + 2 * 100))          # a 101st re-roll would be needed
    e = info.value
    assert (e.message, e.expression, e.column) == ("more than 100 ties in a row", "1D vs 1D", 0)
    with pytest.raises(de.DiceLimitError) as info:
        plan.roll(Scripted([3] * 202))
    e = info.value
    assert (e.message, e.expression, e.column) == ("more than 100 ties in a row", "1D vs 1D", 0)


def test_too_many_rows_for_exact_odds():
    plan = plan_of("999D vs 1000D", "d6")
    with pytest.raises(de.DiceLimitError) as info:
        plan.distribution()
    assert info.value.message.startswith("too many outcomes for exact odds (")
    assert "at most 5000000" in info.value.message


# ---------------------------------------------------------------- the catalogue


def test_code_range():
    assert code_range(1, 2) == ["1D", "1D+1", "1D+2", "2D", "2D+1", "2D+2"]
    assert code_range(2, 4, pips=False) == ["2D", "3D", "4D"]


def test_catalogue_of_both_systems():
    # codes 1D to 12D+2 against 5, 10, ..., 30 (and any other step of the ladder)
    cat = d6_catalogue({"a": 8})
    assert len(cat) == 36 * 7
    assert cat[0] == ("1D vs 5", "1D vs 5") and cat[1] == ("1D vs 8", "1D vs 8")
    assert cat[-1] == ("12D+2 vs 30", "12D+2 vs 30")
    for name in ("d6", "d6wild"):
        cat = list(get_system(name).catalogue())
        assert len(cat) == 36 * 6
        assert cat[0] == ("1D vs 5", "1D vs 5") and cat[-1] == ("12D+2 vs 30", "12D+2 vs 30")


def test_the_dice_of_a_code_are_six_sided():
    for system, expr in (("d6", "4D+2 vs 3D"), ("d6", "3D vs 10"), ("d6wild", "4D+2 vs 3D+1")):
        dice = de.roll(expr, system, seed=1).dice
        assert dice and {d.sides for d in dice} == {6} and {d.kind for d in dice} <= {"d6", "wild"}


def test_dice_that_explain_themselves_otherwise_are_written_part_by_part():
    """A :class:`CodeDice` whose ``parts`` differ (a new kind of die) gets a writer that writes those parts,
    without rewriting ``writer``."""
    class Marked(CodeDice):
        def parts(self, record, code):
            return [Words("marked"), *super().parts(record, code)]

    def text(part) -> str:
        return f"<{part!r}>"

    code = Code(2, 1)
    want = "".join(text(p) for p in Marked().parts([3, 5], code))
    assert "marked" in want and Marked().writer(text, code)([3, 5]) == want


@pytest.mark.parametrize("dice", [1, 2, 5, 12])
def test_a_codes_estimate_counts_the_totals_of_its_six_sided_dice(dice):
    # n six-sided dice total n to 6n: 5n + 1 rows and the same span, as the odds hold them
    totals = {sum(f) for f in itertools.product(range(1, 7), repeat=min(dice, 5))} if dice <= 5 else None
    _, rows, span = CodeDice().joint_cost(Code(dice, 0))
    assert rows == span == 5 * dice + 1
    if totals is not None:
        assert len(totals) == rows


def code_totals(dice: int, pips: int) -> dict[int, Fraction]:
    return enumerate_dice([D6] * dice, lambda v: sum(v) + pips)


# ---------------------------------------------------------------- code arithmetic (000, 002)


@pytest.mark.parametrize("code, halved", [
    ("5D+1", Code(2, 2)),   # 16 pips -> 8 pips (the module's worked example)
    ("5D", Code(2, 1)),     # 15 pips -> 7.5, rounded down to 7
    ("3D+2", Code(1, 2)),   # 11 pips -> 5.5 -> 5
    ("4D+1", Code(2, 0)),   # 13 pips -> 6.5 -> 6
    ("2D", Code(1, 0)),
])
def test_hurrying_halves_in_pips_rounding_down(code, halved):
    assert d6.modified_code(code, hurrying=True) == halved


@pytest.mark.parametrize("expr, dice, pips", [
    ("(5D)/2", 2, 1), ("(3D+2)/2", 1, 2), ("(6D)/3", 2, 0), ("(5D+1)/3", 1, 2), ("(4D+2)/3", 1, 1),
    ("(7D)/4", 1, 2),
])
def test_dividing_a_code(expr, dice, pips):
    # a code divided by k is counted in pips (3 pips = 1D), divided, rounded down
    assert_close(de.distribution(expr, "d6").marginal("total"), code_totals(dice, pips))


def test_a_code_plus_three_pips_is_one_more_die():
    # text 000: 2D+2 plus one pip is 3D; 3 pips are 1D, so 2D+3 is 3D and its pips cost 3 each
    assert d6.advance("2D+2") == Code(3, 0)
    assert d6.advance("2D+3") == Code(3, 1)
    assert d6.advance_cost("2D+3") == 3
    assert d6.advance_cost("2D+3", 3) == 9
    assert d6.advance_cost("2D", 3) == 6       # text 000: 2D to 3D costs 6 points
    assert d6.advance_cost("4D", 3) == 12      # 4D to 5D: 12
    assert d6.advance_cost("5D", 3) == 15      # 5D to 6D: 15
    assert d6.advance_cost("3D+2") == 3        # text 000: raising 3D+2 costs 3 points
    assert d6.advance_cost("5D+1") == 5
    assert d6.advance_cost("2D+2", 2) == 2 + 3  # the second pip is bought on 3D


# ---------------------------------------------------------------- the ladder's names (003)


@pytest.mark.parametrize("name, number", [
    ("tres facile", 5), ("facile", 10), ("moyen", 15), ("difficile", 20), ("tres difficile", 25),
    ("heroique", 30), ("very easy", 5), ("easy", 10), ("moderate", 15), ("difficult", 20),
    ("very difficult", 25), ("heroic", 30),
])
def test_ladder_names(name, number):
    for seed in range(3):
        o = de.roll(f"4D vs {name}", "d6wild", seed=seed).outcome
        assert o.total - o.margin == number
        assert o.success == (o.total >= number)


@pytest.mark.parametrize("name, number", [("point blank", 5), ("short", 10), ("medium", 15), ("long", 20),
                                          ("bout portant", 5), ("courte", 10), ("moyenne", 15), ("longue", 20)])
def test_range_names(name, number):
    o = de.roll(f"4D vs {name}", "d6", seed=1).outcome
    assert o.total - o.margin == number
