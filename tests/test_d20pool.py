"""The d20 success pool (text 001): every face of every small pool enumerated, samples, rolls explained, the
rules (checks, extra dice, Force power costs, experience) and their refusals word for word."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems import d20pool

import diceengine as de
from tests.helpers import Scripted, assert_close, chi2_passes


def score(v, threshold, discipline):
    """Successes and complications of one die, as the text states them."""
    spec = discipline is not None
    if v == 20:
        return 0, (0 if spec else 1)
    if v == 1:
        return (4 if spec else 2), 0
    if spec and v <= discipline:
        return 2, 0
    return (1 if v <= threshold else 0), 0


def enumerate_pool(n, threshold, discipline=None, difficulty=None):
    rows: dict[tuple, Fraction] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        s = sum(score(v, threshold, discipline)[0] for v in faces)
        c = sum(score(v, threshold, discipline)[1] for v in faces)
        key = (s, c) if difficulty is None else (s, c, s >= difficulty, max(0, s - difficulty) if s >= difficulty else 0)
        rows[key] = rows.get(key, Fraction(0)) + Fraction(1, 20**n)
    return rows


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("threshold, discipline, difficulty", [(12, None, None), (12, 3, 2), (9, 0, 0), (15, 5, 4), (1, None, 1)])
def test_exact_odds_match_every_face(n, threshold, discipline, difficulty):
    expr = f"{n}d20<={threshold}" + (f" spec {discipline}" if discipline is not None else "") + \
        (f" vs {difficulty}" if difficulty is not None else "")
    dist = de.distribution(expr, system="d20pool", one_die=n == 1)
    got = {tuple(v for v in o if v is not None): p for o, p in dist.items()}
    want = enumerate_pool(n, threshold, discipline, difficulty)
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-15)


@pytest.mark.parametrize("expr", ["2d20<=12", "3d20<=12 spec 3 vs 2", "5d20<=15 spec 5 vs 4", "4d20<=8 vs 3"])
def test_samples_and_rolls_match_exact(expr):
    dist = de.distribution(expr, system="d20pool")
    s = de.sample(expr, 50_000, system="d20pool", seed=3)
    assert chi2_passes(s["successes"], dist.marginal("successes"))
    assert chi2_passes(s["complications"], dist.marginal("complications"))
    rolls = [de.roll(expr, system="d20pool", seed=i).successes for i in range(4000)]
    assert chi2_passes(rolls, dist.marginal("successes"))


def test_defaults_bounds_and_errors():
    assert len(de.roll("d20<=10", system="d20pool").dice) == 2
    # 9+3 is the threshold 12: a 1 is 2 successes, 12 is one, 13 none
    faces = iter([0.5 / 20, 11.5 / 20, 12.5 / 20])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert de.roll("3d20<=9+3", system="d20pool", seed=rng).successes == 3
    for bad in ["0d20<=10", "6d20<=10", "2d20<=21", "2d20<=10 spec 11", "2d20<=10 vs -1", "2d20<10", "2d6<=10",
                "2d20<=1d6"]:
        with pytest.raises(de.DiceError) as info:
            de.roll(bad, system="d20pool")
        assert "^" in str(info.value)


def test_roll_outcome_and_text():
    r = de.roll("3d20<=12 spec 3 vs 2", system="d20pool", seed=8)
    table = [score(x.value, 12, 3) for x in r.dice]
    assert r.successes == sum(t[0] for t in table)
    assert r.success == (r.successes >= 2)
    assert r.impulsion == (r.successes - 2 if r.success else 0)
    assert "success" in str(r)


def test_odds_prints_success_and_complication(capsys):
    from diceengine.cli import main

    assert main(["odds", "3d20<=12 spec 3 vs 2", "--system", "d20pool"]) == 0
    out = capsys.readouterr().out
    assert "P(success)" in out and "P(at least one complication)" in out
    assert main(["odds", "d20pool: 2d20<=12 vs 1", "--json"]) == 0


def test_force_power_costs_of_the_text():
    # 5 (base) + 1 (opposed alignment) - 2 (successes beyond the first) = 4 PF
    assert d20pool.force_power_cost(3, "opposed") == (4, 0)
    # 5 - 1 (matching) - 4 -> 1 PF and 1 Impulsion
    assert d20pool.force_power_cost(5, "matching") == (1, 1)
    assert d20pool.force_power_cost(1, "neutral") == (5, 0)
    assert d20pool.force_power_cost(2, "neutral", base=3) == (2, 0)
    with pytest.raises(de.DiceError):
        d20pool.force_power_cost(0)


def test_check_from_a_character():
    c = d20pool.build_check(attribute=9, discipline=3, difficulty=2, specialisation=True, impulsion_dice=1, menace_dice=1)
    assert c.threshold == 12 and c.dice == 4
    assert (c.impulsion_spent, c.menace_added) == (1, 2)
    assert c.expression == "4d20<=12 spec 3 vs 2"
    assert 0 < c.distribution().chance("success") < 1
    with pytest.raises(de.DiceError):
        d20pool.build_check(9, 3, 2, impulsion_dice=2, menace_dice=2)
    with pytest.raises(de.DiceError):
        d20pool.build_check(14, 3, 2)


def test_experience():
    assert d20pool.xp_cost("attribute", 12) == 50
    assert d20pool.xp_cost("discipline", 4) == 30
    assert d20pool.xp_cost("new_specialisation") == 30
    assert d20pool.xp_cost("change_specialisation") == 10
    assert d20pool.xp_cost("impulsion", points=3) == 15
    with pytest.raises(de.DiceError, match="13"):
        d20pool.xp_cost("attribute", 13)
    with pytest.raises(de.DiceError, match="5"):
        d20pool.xp_cost("discipline", 5)


# ---------------------------------------------------------------- d20 pool (001)


def d20_die(face: int, threshold: int, discipline: int | None) -> tuple[int, int]:
    """(successes, complications) of one d20 under text 001."""
    if face == 20:
        return 0, (0 if discipline is not None else 1)
    if face == 1:
        return (4 if discipline is not None else 2), 0
    if discipline is not None and face <= discipline:
        return 2, 0
    return (1 if face <= threshold else 0), 0


def d20_pool(n: int, threshold: int, discipline: int | None = None) -> dict[tuple[int, int], Fraction]:
    out: dict[tuple[int, int], Fraction] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        s = sum(d20_die(f, threshold, discipline)[0] for f in faces)
        c = sum(d20_die(f, threshold, discipline)[1] for f in faces)
        out[(s, c)] = out.get((s, c), Fraction(0)) + Fraction(1, 20**n)
    return out


@pytest.mark.parametrize("expr, n, threshold, discipline", [
    ("2d20<=20", 2, 20, None), ("3d20<=20", 3, 20, None), ("2d20<=20 spec 5", 2, 20, 5), ("2d20<=19", 2, 19, None),
    ("2d20<=0", 2, 0, None),
])
def test_threshold_twenty_never_makes_a_twenty_succeed(expr, n, threshold, discipline):
    expected = d20_pool(n, threshold, discipline)
    got = {(o.successes, o.complications): p for o, p in de.distribution(expr, "d20pool").items()}
    assert_close(got, expected)
    sample = de.sample(expr, 20_000, "d20pool", seed=20)
    assert chi2_passes(list(zip(sample["successes"].tolist(), sample["complications"].tolist())), expected)
    r = de.roll(expr, "d20pool", seed=Scripted([20] + [1] * (n - 1), 20))
    assert (r.outcome.successes, r.outcome.complications) == (
        sum(d20_die(f, threshold, discipline)[0] for f in [20] + [1] * (n - 1)), 0 if discipline else 1)


def test_one_roll_by_the_rule():
    r = de.roll("3d20<=9+3", "d20pool", seed=Scripted([1, 12, 13], 20))
    assert (r.outcome.successes, r.outcome.complications) == (2 + 1 + 0, 0)
    r = de.roll("3d20<=12 spec 3 vs 4", "d20pool", seed=Scripted([1, 3, 20], 20))
    assert r.outcome == d20pool.PoolOutcome(4 + 2 + 0, 0, True, 2)
    r = de.roll("2d20<=12 vs 3", "d20pool", seed=Scripted([4, 20], 20))
    assert r.outcome == d20pool.PoolOutcome(1, 1, False, 0)


def test_extra_dice_costs():
    # 1, 2 and 3 points for the first, second and third extra die (the module's reading)
    assert [d20pool.build_check(8, 3, 2, impulsion_dice=k).impulsion_spent for k in range(4)] == [0, 1, 3, 6]
    assert [d20pool.build_check(8, 3, 2, menace_dice=k).menace_added for k in range(4)] == [0, 1, 3, 6]
    check = d20pool.build_check(8, 3, 2, impulsion_dice=1, menace_dice=2)
    assert (check.dice, check.impulsion_spent, check.menace_added) == (5, 1, 2 + 3)
    check = d20pool.build_check(8, 3, 2, impulsion_dice=2, menace_dice=1)
    assert (check.dice, check.impulsion_spent, check.menace_added) == (5, 3, 3)
    assert check.expression.startswith("5d20<=11")
    with pytest.raises(de.DiceError):
        d20pool.build_check(8, 3, 2, impulsion_dice=2, menace_dice=2)


def test_threshold_bounds():
    de.roll("2d20<=20", "d20pool")
    de.roll("2d20<=0", "d20pool")
    de.roll("5d20<=10", "d20pool")
    de.roll("1d20<=10", "d20pool", one_die=True)
    for bad in ("2d20<=21", "6d20<=10", "0d20<=10", "1d20<=10"):
        with pytest.raises(de.DiceError):
            de.roll(bad, "d20pool")


@pytest.mark.parametrize("expr, faces, text, kept", [
    # the README's line: a 3 under the discipline is two successes
    ("3d20<=12 spec 3 vs 2", [3, 17, 16], "3d20<=12 spec 3 vs 2: [3**, 17, 16] = 2 successes, success",
     [True, False, False]),
    ("2d20<=12 vs 1", [1, 20], "2d20<=12 vs 1: [1**, 20!] = 2 successes, 1 complication, success, 1 Impulsion",
     [True, False]),
    ("3d20<=12", [20, 20, 5], "3d20<=12: [20!, 20!, 5*] = 1 success, 2 complications", [False, False, True]),
    ("2d20<=12 vs 3", [13, 12], "2d20<=12 vs 3: [13, 12*] = 1 success, failure", [False, True]),
    ("2d20<=12 spec 2 vs 0", [20, 19], "2d20<=12 spec 2 vs 0: [20, 19] = 0 successes, success", [False, False]),
])
def test_a_pool_roll_explained(expr, faces, text, kept):
    r = de.roll(expr, "d20pool", seed=Scripted(faces, 20))
    assert str(r) == text
    assert [d.value for d in r.dice] == faces and [d.kept for d in r.dice] == kept
    assert all(d.sides == 20 for d in r.dice)


def test_pool_odds_summary(capsys):
    from diceengine.cli import main

    assert main(["odds", "d20pool: 2d20<=12 vs 1", "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)["summary"]
    expected = d20_pool(2, 12)
    assert summary["P(at least one complication)"] == pytest.approx(1 - (19 / 20) ** 2, abs=1e-12)
    assert summary["P(success)"] == pytest.approx(float(sum(p for (s, _), p in expected.items() if s >= 1)), abs=1e-12)
    assert summary["mean successes"] == pytest.approx(float(sum(s * p for (s, _), p in expected.items())), abs=1e-12)


def test_pool_catalogue_and_ladder():
    # README: thresholds 2-18, with or without a specialisation (discipline 1-5), 2-5 dice, difficulty 0-5
    system = de.systems()["d20pool"]
    want = {f"{n}d20<={t}" + (f" spec {d}" if d else "") + f" vs {k}"
            for t in range(2, 19) for d in [None, *range(1, min(5, t) + 1)] for n in range(2, 6) for k in range(6)}
    got = [expr for _, expr in system.catalogue()]
    assert len(got) == len(want) and set(got) == want
    assert all(label == expr for label, expr in system.catalogue())
    rows, cols = system.ladder()
    assert [c[0] for c in cols] == [f"difficulty {k}" for k in range(6)] and [c[1] for c in cols] == list("012345")
    assert [r[0] for r in rows][:6] == [f"2d20<={t}" for t in (6, 8, 10, 12, 14, 16)]
    assert all(label == expr for label, expr in rows)
    from diceengine import compare

    _, table = compare.ladder("d20pool")
    chance = dict(table)["2d20<=12"][1]
    assert chance == pytest.approx(float(sum(p for (s, _), p in d20_pool(2, 12).items() if s >= 1)), abs=1e-12)


def test_pool_samples_are_integers():
    s = de.sample("3d20<=12 spec 2 vs 1", 50, "d20pool", seed=1)
    assert s["successes"].dtype.kind == "i" and s["complications"].dtype.kind == "i"
    assert s["impulsion"].dtype.kind == "i" and s["success"].dtype == bool


def test_build_check_bounds():
    # text 001: attributes up to 13, disciplines up to 5, up to three extra dice
    for attribute, discipline in ((0, 0), (13, 5), (0, 5), (13, 0)):
        check = d20pool.build_check(attribute, discipline, 1)
        assert check.threshold == attribute + discipline and check.dice == 2
    for attribute, discipline, impulsion, menace in ((14, 2, 0, 0), (-1, 2, 0, 0), (8, 6, 0, 0), (8, -1, 0, 0),
                                                     (8, 2, -1, 0), (8, 2, 0, -1), (8, 2, -1, 2)):
        with pytest.raises(de.DiceValueError):
            d20pool.build_check(attribute, discipline, 1, impulsion_dice=impulsion, menace_dice=menace)


@pytest.mark.parametrize("call, words", [
    (lambda: d20pool.build_check(14, 2, 1), ["attribute", "13", "14"]),
    (lambda: d20pool.build_check(8, 6, 1), ["discipline", "5", "6"]),
    (lambda: d20pool.build_check(8, 2, 1, impulsion_dice=4), ["at most 3 extra dice"]),
    (lambda: d20pool.force_power_cost(0), ["Force power needs at least one success"]),
    (lambda: d20pool.force_power_cost(2, "chaotic"), ["'matching', 'opposed' or 'neutral'", "chaotic"]),
    (lambda: d20pool.xp_cost("luck"), ["luck", "attribute, discipline, new_specialisation"]),
    (lambda: d20pool.xp_cost("attribute", 5, 0), ["at least one point"]),
    (lambda: d20pool.xp_cost("attribute", 12, 2), ["attribute", "13"]),
    (lambda: d20pool.xp_cost("discipline", 5, 1), ["discipline", "5"]),
])
def test_rule_errors_say_what_is_wrong(call, words):
    with pytest.raises(de.DiceValueError) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_force_power_cost_never_below_one():
    # text 001: never below 1; the successes that cannot lower the cost become Impulsion
    assert d20pool.force_power_cost(3, "matching", base=1) == (1, 2)
    assert d20pool.force_power_cost(5, "matching") == (1, 1)  # the text: 5 successes: 5 - 1 - 4 = 1 PF + 1 Impulsion
    assert d20pool.force_power_cost(1, "opposed") == (6, 0)
    assert d20pool.force_power_cost(2, "neutral", base=2) == (1, 0)
    assert d20pool.force_power_cost(3, "neutral", base=2) == (1, 1)


def test_one_die_needs_the_option():
    with pytest.raises(de.DiceValueError) as info:
        de.roll("1d20<=10", "d20pool")
    assert "at least two d20" in info.value.message and "one_die=true" in info.value.message
    r = de.roll("1d20<=10", "d20pool", seed=Scripted([10], 20), one_die=True)
    assert r.outcome.successes == 1 and len(r.dice) == 1


def test_pool_odds_tables(capsys):
    from diceengine.cli import main

    assert main(["odds", "d20pool: 2d20<=12"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^successes\s+P\(=\)", out, re.MULTILINE) and not re.search(r"^\s*impulsion\s+P\(=\)", out, re.MULTILINE)
    assert main(["odds", "d20pool: 2d20<=12 vs 1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^successes\s+P\(=\)", out, re.MULTILINE) and re.search(r"^impulsion\s+P\(=\)", out, re.MULTILINE)
    # P(impulsion = 1) with a difficulty of 1 is P(2 successes)
    expected = float(sum(p for (s, _), p in d20_pool(2, 12).items() if s == 2))
    rows = out[re.search(r"^impulsion\s+P\(=\)", out, re.MULTILINE).start():].splitlines()
    row = next(r for r in rows if r.split() and r.split()[0] == "1")
    assert float(row.split()[1].rstrip("%")) == pytest.approx(100 * expected, abs=0.006)


def test_pool_rule_defaults():
    check = d20pool.build_check(8, 3, 2)
    assert check.specialisation is False and check.expression == "2d20<=11 vs 2"
    assert d20pool.force_power_cost(3) == (5 - 2, 0)  # neutral by default: no shift
    assert d20pool.xp_cost("attribute", points=13) == 50 * 13  # from 0 up to the cap of 13
    assert d20pool.xp_cost("discipline", points=5) == 30 * 5
    with pytest.raises(de.DiceValueError) as info:
        d20pool.force_power_cost(0)
    assert info.value.message == "a Force power needs at least one success"
    with pytest.raises(de.DiceValueError) as info:
        d20pool.xp_cost("attribute", 5, 0)
    assert info.value.message == "improve by at least one point"


def test_pool_summary_keys_and_dice(capsys):
    from diceengine.cli import main

    assert main(["odds", "d20pool: 2d20<=12 vs 1", "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)["summary"]
    assert set(summary) == {"P(at least one complication)", "P(success)", "mean successes", "mean complications",
                            "mean impulsion"}
    assert {d.kind for d in de.roll("3d20<=12", "d20pool", seed=1).dice} == {"d20"}
    rows, _ = de.systems()["d20pool"].ladder()
    assert [r[0] for r in rows] == ["2d20<=6", "2d20<=8", "2d20<=10", "2d20<=12", "2d20<=14", "2d20<=16",
                                    "3d20<=12", "3d20<=12 spec 3", "5d20<=16 spec 5"]


@pytest.mark.parametrize("expr, n, threshold, discipline, k", [
    ("3d20<=12 spec 2 vs 2", 3, 12, 2, 2), ("2d20<=10 vs 1", 2, 10, None, 1), ("2d20<=15 vs 0", 2, 15, None, 0),
])
def test_pool_sample_success_and_impulsion(expr, n, threshold, discipline, k):
    # success when successes >= K; each success beyond K is one point of Impulsion (text 001)
    expected: dict[tuple[int, int, bool, int], Fraction] = {}
    for (s, c), p in d20_pool(n, threshold, discipline).items():
        key = (s, c, s >= k, s - k if s >= k else 0)
        expected[key] = expected.get(key, Fraction(0)) + p
    sample = de.sample(expr, 20_000, "d20pool", seed=7)
    assert all(len(sample[f]) == 20_000 for f in ("successes", "complications", "success", "impulsion"))
    rows = list(zip(sample["successes"].tolist(), sample["complications"].tolist(), sample["success"].tolist(),
                    sample["impulsion"].tolist()))
    assert chi2_passes(rows, expected)
    got = {tuple(o): p for o, p in de.distribution(expr, "d20pool").items()}
    assert_close(got, expected)


def test_pool_size_refusals_word_for_word():
    # the catalogue's words (the French catalogue looks them up by these), the count filled in, the caret at 0
    for expr, want in (("1d20<=10", ("a pool rolls at least two d20 (text 001), not 1 (the option one_die=true "
                                     "allows one)")),
                       ("6d20<=10", "a pool has 1 to 5 d20 (2, plus up to 3 bought), not 6")):
        with pytest.raises(de.DiceValueError) as err:
            de.roll(expr, "d20pool")
        assert str(err.value).splitlines()[0] == want and err.value.column == 0
    with pytest.raises(de.DiceValueError) as err:
        de.roll("1d20<=10", "d20pool", lang="fr")
    assert "d20" in str(err.value) and "a pool rolls" not in str(err.value)  # said in French


def test_d20pool_needs_two_dice_unless_the_option_says_otherwise():
    with pytest.raises(de.DiceError, match="at least two"):
        de.distribution("1d20<=12", system="d20pool")
    assert len(de.roll("d20<=9+3 vs 1", system="d20pool", seed=1).dice) == 2  # "d20" without a count is 2
    one = de.distribution("1d20<=12", system="d20pool", one_die=True)
    # one die: 1 is two successes, 2-12 one, 13-19 none, 20 a complication
    assert one.probability(lambda o: o.successes == 2) == pytest.approx(1 / 20)
    assert one.probability(lambda o: o.successes == 1) == pytest.approx(11 / 20)
    assert one.probability(lambda o: o.complications == 1) == pytest.approx(1 / 20)
    assert de.distribution("2d20<=12", system="d20pool").probability(lambda o: o.successes == 4) ==\
        pytest.approx(1 / 400)


@pytest.mark.parametrize("expr, n, threshold, discipline, k", [
    ("3d20<=12 vs 2", 3, 12, None, 2), ("5d20<=15 spec 5 vs 4", 5, 15, 5, 4), ("2d20<=9", 2, 9, None, None),
])
def test_a_sample_and_a_roll_count_the_same_draws_by_the_rule(expr, n, threshold, discipline, k):
    # the pool counts through the die algebra (a SymbolPool of d20 counting successes and complications): the same
    # draws as a d20 thrown alone, each die scored by the rule written here
    got = de.sample(expr, 5000, "d20pool", seed=12)
    faces = np.random.default_rng(12).integers(1, 21, size=(5000, n))
    scores = np.array([[score(int(v), threshold, discipline) for v in row] for row in faces])
    assert (got["successes"] == scores[:, :, 0].sum(axis=1)).all()
    assert (got["complications"] == scores[:, :, 1].sum(axis=1)).all()
    if k is not None:
        assert (got["success"] == (got["successes"] >= k)).all()
        assert (got["impulsion"] == np.where(got["successes"] >= k, got["successes"] - k, 0)).all()
    for seed in range(30):
        roll = de.roll(expr, "d20pool", seed=seed)
        draw = random.Random(seed).random
        want = [int(draw() * 20) + 1 for _ in range(n)]
        assert [d.value for d in roll.dice] == want
        assert roll.outcome.successes == sum(score(v, threshold, discipline)[0] for v in want)
        assert roll.outcome.complications == sum(score(v, threshold, discipline)[1] for v in want)
