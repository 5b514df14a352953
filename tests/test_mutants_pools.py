"""d20 pool and FFG narrative dice against sources written here (issue 16).

The FFG faces are transcribed below from the published symbol tables (the README of the rule texts),
independently of the engine's own table, and every die is checked against them in the three
evaluations. The d20 pool is enumerated from the rule of text ``001``.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction

import pytest
from diceengine.systems import d20pool, ffg

import diceengine as de

from .helpers import Scripted, assert_close, chi2_passes

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


# ---------------------------------------------------------------- FFG faces (published tables)

# s success, f failure, a advantage, t threat, TR triumph, DE despair, L light, D dark; one string per face
PUBLISHED = {
    "boost": ["", "", "s", "s a", "a a", "a"],
    "setback": ["", "", "f", "f", "t", "t"],
    "ability": ["", "s", "s", "s s", "a", "a", "s a", "a a"],
    "difficulty": ["", "f", "f f", "t", "t", "t", "t t", "f t"],
    "proficiency": ["", "s", "s", "s s", "s s", "a", "s a", "s a", "s a", "a a", "a a", "TR"],
    "challenge": ["", "f", "f", "f f", "f f", "t", "t", "f t", "f t", "t t", "t t", "DE"],
    "force": ["D", "D", "D", "D", "D", "D", "D D", "L", "L", "L L", "L L", "L L"],
}
LETTER = {"boost": "b", "setback": "s", "ability": "a", "difficulty": "d", "proficiency": "p", "challenge": "c",
          "force": "f"}


def outcome_of(faces: list[str]) -> tuple[int, int, int, int, int, int]:
    """(net success, net advantage, triumph, despair, light, dark); a triumph is also a success."""
    symbols = Counter(sym for face in faces for sym in face.split())
    return (symbols["s"] - symbols["f"] + symbols["TR"] - symbols["DE"], symbols["a"] - symbols["t"],
            symbols["TR"], symbols["DE"], symbols["L"], symbols["D"])


def published_pool(dice: list[str]) -> dict[tuple, Fraction]:
    out: dict[tuple, Fraction] = {}
    total = 1
    for d in dice:
        total *= len(PUBLISHED[d])
    for faces in itertools.product(*(PUBLISHED[d] for d in dice)):
        key = outcome_of(list(faces))
        out[key] = out.get(key, Fraction(0)) + Fraction(1, total)
    return out


def engine_pool(expr: str) -> dict[tuple, float]:
    return {tuple(o)[:6]: p for o, p in de.distribution(expr, "ffg").items()}


def test_transcription_has_the_published_sides():
    assert {d: len(f) for d, f in PUBLISHED.items()} == {"boost": 6, "setback": 6, "ability": 8, "difficulty": 8,
                                                         "proficiency": 12, "challenge": 12, "force": 12}


@pytest.mark.parametrize("die", list(PUBLISHED))
def test_each_die_against_the_published_table(die):
    expected = published_pool([die])
    assert_close(engine_pool(f"1{LETTER[die]}"), expected)
    s = de.sample(f"1{LETTER[die]}", 20_000, "ffg", seed=4)
    rows = list(zip(*(s[f].tolist() for f in ("success", "advantage", "triumph", "despair", "light", "dark"))))
    assert chi2_passes(rows, expected)
    rng = random.Random(5)
    rolls = [tuple(de.roll(f"1{LETTER[die]}", "ffg", seed=rng).outcome)[:6] for _ in range(3000)]
    assert chi2_passes(rolls, expected)


@pytest.mark.parametrize("die", list(PUBLISHED))
def test_symbol_counts_per_die(die):
    # how many of each symbol the die carries over all its faces: a one-face change moves at least one count
    counts = Counter(sym for face in PUBLISHED[die] for sym in face.split())
    sides = len(PUBLISHED[die])
    d = de.distribution(f"1{LETTER[die]}", "ffg")
    successes = sum(max(o.success, 0) * p for o, p in d.items()) * sides
    failures = sum(max(-o.success, 0) * p for o, p in d.items()) * sides
    assert successes == pytest.approx(counts["s"] + counts["TR"])
    assert failures == pytest.approx(counts["f"] + counts["DE"])
    assert sum(o.light * p for o, p in d.items()) * sides == pytest.approx(counts["L"])
    assert sum(o.dark * p for o, p in d.items()) * sides == pytest.approx(counts["D"])
    blanks = sum(p for o, p in d.items() if not any(tuple(o)[:6])) * sides
    assert blanks == pytest.approx(sum(1 for f in PUBLISHED[die] if not f))


@pytest.mark.parametrize("dice", [["boost", "setback"], ["ability", "difficulty"], ["proficiency", "challenge"],
                                  ["ability", "ability", "setback"], ["proficiency", "boost", "difficulty"],
                                  ["force", "force"], ["challenge", "challenge", "boost"]])
def test_small_pools_against_the_published_table(dice):
    expr = "".join(f"1{LETTER[d]}" for d in dice)
    assert_close(engine_pool(expr), published_pool(dice))


def test_faces_shown_are_published_faces():
    words = {"s": "success", "f": "failure", "a": "advantage", "t": "threat", "TR": "triumph", "DE": "despair",
             "L": "light", "D": "dark"}
    shown = {die: {" + ".join(words[x] for x in face.split()) or "blank" for face in faces}
             for die, faces in PUBLISHED.items()}
    rng = random.Random(9)
    for _ in range(300):
        for d in de.roll("1a1p1b1d1c1s1f", "ffg", seed=rng).dice:
            assert d.face in shown[d.kind], (d.kind, d.face)


def test_destiny_pool_follows_the_force_die():
    merged: dict[tuple[int, int], Fraction] = {}
    for o, p in published_pool(["force", "force"]).items():
        merged[(o[4], o[5])] = merged.get((o[4], o[5]), Fraction(0)) + p
    assert sum(merged.values()) == 1
    rng = random.Random(3)
    pools = [ffg.destiny_pool(2, seed=rng) for _ in range(4000)]
    assert chi2_passes([(p.light, p.dark) for p in pools], merged)


def test_critical_injury_is_d100_plus_the_modifier():
    assert ffg.critical_injury(10, seed=Scripted([37], 100)) == 47
    assert ffg.critical_injury(0, seed=Scripted([100], 100)) == 100
    assert ffg.critical_injury(-5, seed=Scripted([3], 100)) == -2


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
