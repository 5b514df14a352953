"""The notation players type in Roll20, avrae's d20 and rpg-dice-roller: each feature's exact odds against a
brute-force enumeration written here, its samples and single rolls against the exact odds (chi-square),
its explanation, and the peers' documented examples."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice

D = lambda s: list(range(1, s + 1))


def dist(expr: str, **options) -> dict:
    return de.distribution(expr, **options).marginal("total")


def mix(parts: list[tuple[Fraction, dict]]) -> dict:
    """A mixture of distributions: ``sum(weight * distribution)``."""
    out: dict = {}
    for w, d in parts:
        for k, p in d.items():
            out[k] = out.get(k, Fraction(0)) + w * Fraction(p)
    return out


# ------------------------------------------------------------------ 1. descriptions and comments
@pytest.mark.parametrize("expr, body, text", [
    ("1d20+5 to hit", "1d20+5", "to hit"),
    ("2d6+3 fire damage", "2d6+3", "fire damage"),
    ("1d20 # a comment", "1d20", "a comment"),
    ("1d20+2 // a comment", "1d20+2", "a comment"),
    ("1d20 /* block */", "1d20", "block"),
    ("4d6kh3 Strength", "4d6kh3", "Strength"),
    ("1d20+5 pour toucher à l'épée", "1d20+5", "pour toucher à l'épée"),
])
def test_descriptions(expr, body, text):
    r = de.roll(expr, seed=1)
    assert r.description == text
    assert r.total == de.roll(body, seed=1).total
    assert dist(expr) == dist(body)
    data = json.loads(r.model_dump_json())
    assert data["description"] == text and data["text"] == str(r)
    assert de.roll(body).description is None


def test_double_slash_is_division_before_a_number_and_a_comment_before_words():
    assert de.roll("10 // 3").total == 3 and de.roll("10 // 3").description is None
    assert de.roll("10 // three").total == 10 and de.roll("10 // three").description == "three"


@pytest.mark.parametrize("expr", ["2d6 $ 3", "1d20 +", "1d20 to hit +"])
def test_text_that_is_no_description_is_refused(expr):
    if expr == "1d20 to hit +":  # everything after the description starts is description
        assert de.roll(expr).description == "to hit +"
        return
    with pytest.raises(de.DiceSyntaxError):
        de.roll(expr)


def test_descriptions_stay_unambiguous_with_the_system_notations():
    from diceengine.cli import split_system

    assert split_system("d6: 4D+2 vs 15", None) == ("d6", "4D+2 vs 15")
    assert split_system("1d20+5 note: aim", None) == ("standard", "1d20+5 note: aim")
    assert de.roll("1d20+5 note: aim").description == "note: aim"
    assert de.roll("4D+2 vs 15", system="d6").description is None


# ------------------------------------------------------------------ 2. labels on any term
def test_labels_survive_into_dice_json_and_text():
    r = de.roll("1d8+4[piercing] + 2d6[fire]", seed=2)
    labels = [d.label for d in r.dice]
    assert labels == [None, "fire", "fire"]
    assert "4 (piercing)" in str(r) and "(fire)" in str(r)
    assert [d["label"] for d in json.loads(r.model_dump_json())["dice"]] == labels
    assert_close(dist("1d8+4[piercing] + 2d6[fire]"), enumerate_dice([D(8), D(6), D(6)], lambda c: sum(c) + 4))


def test_label_on_parentheses_and_numbers():
    r = de.roll("-(1d8+3)[healing]", seed=3)
    assert [d.label for d in r.dice] == ["healing"]
    assert r.total == -(r.dice[0].value + 3)
    assert "(healing)" in str(r)
    assert_close(dist("-(1d8+3)[healing]"), enumerate_dice([D(8)], lambda c: -(c[0] + 3)))
    assert de.roll("9[bonus]").total == 9 and "9 (bonus)" in str(de.roll("9[bonus]"))


# ------------------------------------------------------------------ 3. per-die minimum and maximum
@pytest.mark.parametrize("expr, faces, value", [
    ("2d6mi3", [D(6)] * 2, lambda c: sum(max(v, 3) for v in c)),
    ("3d4ma3", [D(4)] * 3, lambda c: sum(min(v, 3) for v in c)),
    ("1d20min10", [D(20)], lambda c: max(c[0], 10)),
    ("4d6max5kh3", [D(6)] * 4, lambda c: sum(sorted(min(v, 5) for v in c)[1:])),
    ("2d6mi2ma5", [D(6)] * 2, lambda c: sum(min(max(v, 2), 5) for v in c)),
    ("3d6mi4>=4", [D(6)] * 3, lambda c: sum(max(v, 4) >= 4 for v in c)),
])
def test_minimum_and_maximum_match_enumeration(expr, faces, value):
    assert_close(dist(expr), enumerate_dice(faces, value))


def test_d20_minimum_examples():
    # d20's own tests: 10d6mi6 is always 60, 10d6ma1 always 10, 10d6mi2 within 20..60
    assert de.roll("10d6mi6").total == 60 and de.roll("10d6mi10").total == 100
    assert de.roll("10d6ma1").total == 10 and de.roll("10d6ma0").total == 0
    assert set(dist("10d6mi2")) <= set(range(20, 61))


# ------------------------------------------------------------------ 4. groups and sets
@pytest.mark.parametrize("expr, faces, value", [
    ("{2d4+1, 1d6+2}kh1", [D(4), D(4), D(6)], lambda c: max(c[0] + c[1] + 1, c[2] + 2)),
    ("{1d20+5, 1d20+5}kh1", [D(20), D(20)], lambda c: max(c) + 5),
    ("{1d6, 1d8, 1d4}kl2", [D(6), D(8), D(4)], lambda c: sum(sorted(c)[:2])),
    ("{1d6, 1d6, 1d6, 1d6}dl1dh1", [D(6)] * 4, lambda c: sum(sorted(c)[1:3])),
    ("{2d4+1}>=6", [D(4), D(4)], lambda c: int(c[0] + c[1] + 1 >= 6)),
    ("{1d6, 1d8, 2d4}>4", [D(6), D(8), D(4), D(4)], lambda c: (c[0] > 4) + (c[1] > 4) + (c[2] + c[3] > 4)),
    ("{1d6, 1d8}>4f1", [D(6), D(8)], lambda c: sum(v > 4 for v in c) - sum(v == 1 for v in c)),
    ("{1d6, 1d8, 1d10}kh2>5", [D(6), D(8), D(10)], lambda c: sum(v > 5 for v in sorted(c)[1:])),
    ("(1d6, 1d8, 4)kh1", [D(6), D(8)], lambda c: max(c[0], c[1], 4)),
    ("(1d4, 2+2, 3d3kl1)kh1", [D(4), D(3), D(3), D(3)], lambda c: max(c[0], 4, min(c[1:]))),
    ("(1d6, 1d6)", [D(6)] * 2, sum),
    ("(1d6+1d4)kh1", [D(6), D(4)], sum),
    ("{1d4, 1d4}+1", [D(4)] * 2, lambda c: sum(c) + 1),
])
def test_groups_match_enumeration(expr, faces, value):
    assert_close(dist(expr), enumerate_dice(faces, value))


def test_group_roll_explains_each_expression():
    r = de.roll("{4d6+2d8, 3d20+3}kh1", seed=5)
    text = str(r)
    assert text.startswith("{4d6+2d8, 3d20+3}kh1: {") and "~" in text and text.endswith(f"= {r.total}")
    sums = [sum(d.value for d in r.dice[:6]), sum(d.value for d in r.dice[6:]) + 3]
    assert r.total == max(sums)
    kept = [d.kept for d in r.dice]
    assert kept == [sums[0] >= sums[1]] * 6 + [sums[0] < sums[1]] * 3


def test_d20_set_examples():
    # d20's tests: sets and selectors on literals
    assert de.roll("(1)").total == 1 and de.roll("(1,)").total == 1 and de.roll("(1, 1)").total == 2
    assert de.roll("(1, 2, 3, 4, 5)kl2").total == 3
    assert de.roll("(1, 2, 3, 4, 5)kh2").total == 9
    assert de.roll("(1, 2, 3, 4, 5)ph1pl1").total == 9
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1").total == 0  # rpg-dice-roller's reading (d20 keeps both: 6)


# ------------------------------------------------------------------ 5. functions and comparisons
@pytest.mark.parametrize("expr, faces, value", [
    ("abs(1d6-1d6)", [D(6)] * 2, lambda c: abs(c[0] - c[1])),
    ("max(1d4, 1d6)", [D(4), D(6)], max),
    ("min(1d4, 1d6, 3)", [D(4), D(6)], lambda c: min(c[0], c[1], 3)),
    ("1d6 % 3", [D(6)], lambda c: c[0] % 3),
    ("(1d6-4) % 3", [D(6)], lambda c: (c[0] - 4) % 3),
    ("1d4^2", [D(4)], lambda c: c[0] ** 2),
    ("2**1d3", [D(3)], lambda c: 2 ** c[0]),
    ("-1d3^2", [D(3)], lambda c: -(c[0] ** 2)),
    ("1d20+5 >= 15", [D(20)], lambda c: int(c[0] + 5 >= 15)),
    ("1d6+0 < 1d6", [D(6)] * 2, lambda c: int(c[0] < c[1])),
    ("1d6+0 != 1d6", [D(6)] * 2, lambda c: int(c[0] != c[1])),
    ("1d6+0 <> 3", [D(6)], lambda c: int(c[0] != 3)),
    ("1d4+0 == 1d4", [D(4)] * 2, lambda c: int(c[0] == c[1])),
    ("+1d4", [D(4)], sum),
    ("1d6 // 2", [D(6)], lambda c: c[0] // 2),
    ("floor(1d6/4) + ceil(1d6)", [D(6)] * 2, lambda c: c[0] // 4 + c[1]),
])
def test_functions_and_comparisons_match_enumeration(expr, faces, value):
    assert_close(dist(expr), enumerate_dice(faces, value))


def test_a_comparison_right_after_dice_counts_successes():
    # Roll20 / rpg-dice-roller: "1d6 < 1d6" is 1d6 counting faces under 1, then dropping the lowest 6 (d6);
    # d20 would compare the totals: a documented conflict
    assert dist("3d6 >= 5") == dist("3d6>=5")
    assert_close(dist("3d6+0 >= 5"), enumerate_dice([D(6)] * 3, lambda c: int(sum(c) >= 5)))


def test_d20_operator_examples():
    r = lambda e: de.roll(e).total
    assert r("1 + 3 * 6") == 19 and r("(1 + 3) * 6") == 24
    assert r("1 + 2 == 2") == 0 and r("1 + (2 == 2)") == 2
    assert (r("1 == 1"), r("1 == 2"), r("2 > 1"), r("1 >= 2"), r("1 <= 1"), r("1 != 2")) == (1, 0, 1, 0, 1, 1)
    assert r("15 // 2") == 7 and r("13 % 2") == 1 and r("--1") == 1 and r("-+-++---+1") == -1
    for bad in ("10 / 0", "10 // 0", "10 % 0", "1d6 % (1d2-1)"):
        with pytest.raises(de.DiceValueError):
            de.distribution(bad)
    with pytest.raises(de.DiceValueError):
        de.roll("10 % 0")


def test_exact_division_keeps_fractions():
    expected = {Fraction(v, 4): Fraction(1, 6) for v in D(6)}
    got = dist("1d6/4", division="exact")
    assert all(type(k) in (int, Fraction) for k in got)
    assert_close({Fraction(k): p for k, p in got.items()}, expected)
    two = enumerate_dice([D(6), D(6)], lambda c: Fraction(c[0] + c[1], 3))
    assert_close({Fraction(k): p for k, p in dist("(2d6)/3", division="exact").items()}, two)
    assert de.distribution("(2d6)/3", division="exact").mean() == pytest.approx(7 / 3, abs=1e-12)
    r = de.roll("1d6/4", division="exact", seed=2)
    assert r.total == Fraction(r.dice[0].value, 4)
    assert json.loads(r.model_dump_json())["outcome"]["total"] == str(r.total)
    rounded = enumerate_dice([D(6)], lambda c: math.floor(Fraction(c[0], 4) + Fraction(1, 2)))
    assert_close(dist("round(1d6/4)", division="exact"), rounded)
    assert_close(dist("ceil(1d6/4)", division="exact"), enumerate_dice([D(6)], lambda c: -(-c[0] // 4)))
    assert de.roll("2^-1", division="exact").total == Fraction(1, 2) and de.roll("2^-1").total == 0


def test_exact_division_samples_agree_with_the_fractions():
    exact = {float(k): p for k, p in dist("2d6/4 + 1d3", division="exact").items()}
    s = de.sample("2d6/4 + 1d3", 40_000, seed=11, division="exact")["total"]
    assert s.dtype == np.float64 and chi2_passes(s, exact)


# ------------------------------------------------------------------ 6. computed counts and sides
def test_computed_count_matches_enumeration():
    expected = mix([(Fraction(1, 4), enumerate_dice([D(6)] * c, sum)) for c in range(1, 5)])
    assert_close(dist("(1d4)d6"), expected)
    assert_close(dist("(2*3)d2"), enumerate_dice([D(2)] * 6, sum))


def test_computed_sides_match_enumeration():
    expected = mix([(Fraction(1, 3), enumerate_dice([D(s)] * 2, sum)) for s in (2, 3, 4)])
    assert_close(dist("2d(1d3+1)"), expected)
    keep = mix([(Fraction(1, 2), enumerate_dice([D(6)] * c, lambda x: max(x))) for c in (1, 2)])
    assert_close(dist("(1d2)d6kh1"), keep)


def test_computed_dice_explain_and_refuse_bad_values():
    r = de.roll("(1d4)d6", seed=9)
    count = r.dice[0].value
    assert len(r.dice) == count + 1 and r.total == sum(d.value for d in r.dice[1:])
    assert str(r).startswith(f"(1d4)d6: ([{count}])d6=")
    with pytest.raises(de.DiceValueError):
        de.distribution("(1d4-3)d6")
    with pytest.raises(de.DiceLimitError):
        de.roll("(1d6*5000)d6")


def test_sorting_is_display_only():
    assert dist("4d6s") == dist("4d6")
    for seed in range(20):
        r, plain = de.roll("4d6sd", seed=seed), de.roll("4d6", seed=seed)
        shown = [int(x) for x in str(r).split("[")[1].split("]")[0].split(", ")]
        assert shown == sorted((d.value for d in plain.dice), reverse=True) and r.total == plain.total
        up = de.roll("4d6sa", seed=seed)
        assert [int(x) for x in str(up).split("[")[1].split("]")[0].split(", ")] == sorted(shown)


def unique_sequences(n, faces, point=None, once=False):
    """Exact odds of n unique dice by following every draw (until unique, or re-drawn once)."""
    out: dict = {}

    def walk(seen, prob):
        if len(seen) == n:
            key = tuple(sorted(seen))
            out[key] = out.get(key, Fraction(0)) + prob
            return
        bad = [f for f in faces if f in seen and (point is None or point(f))]
        for f in faces:
            p = prob / len(faces)
            if f in bad:
                if once:
                    for g in faces:
                        walk(seen + [g], p / len(faces))
                continue
            walk(seen + [f], p if once else prob / (len(faces) - len(bad)))
    walk([], Fraction(1))
    return out


@pytest.mark.parametrize("expr, n, faces, point, once, score", [
    ("3d6u", 3, D(6), None, False, sum),
    ("3d4uo", 3, D(4), None, True, sum),
    ("3d4u=4", 3, D(4), lambda f: f == 4, False, sum),
    ("4d6ukh2", 4, D(6), None, False, lambda c: sum(sorted(c)[2:])),
    ("3d6u=6>=5", 3, D(6), lambda f: f == 6, False, lambda c: sum(v >= 5 for v in c)),
])
def test_unique_dice(expr, n, faces, point, once, score):
    expected: dict = {}
    for combo, p in unique_sequences(n, faces, point, once).items():
        expected[score(combo)] = expected.get(score(combo), 0) + p
    assert_close(dist(expr), expected)


def test_unique_refuses_what_cannot_be_unique():
    with pytest.raises(de.DiceValueError):
        de.roll("7d6u")
    r = de.roll("6d6u", seed=3)
    assert sorted(d.value for d in r.dice if d.kept) == D(6)


def test_critical_markers():
    for seed in range(60):
        r = de.roll("3d20cs>=19cf<=2", seed=seed)
        for d in r.dice:
            assert d.critical == ("success" if d.value >= 19 else "failure" if d.value <= 2 else None)
        assert str(r).count("(cs)") == sum(d.value >= 19 for d in r.dice)
        assert [d["critical"] for d in json.loads(r.model_dump_json())["dice"]] == [d.critical for d in r.dice]
    assert_close(dist("3d20cs>=19"), dist("3d20"), tol=1e-15)  # the marks leave the total as it was
    # exact odds of a critical: a comparison of the same die, or the outcome's count of kept dice marked
    assert dist("1d20 >= 19")[1] == pytest.approx(0.1)
    assert de.distribution("1d20cs>=19").chance("critical_successes") == pytest.approx(0.1)


@pytest.mark.parametrize("expr, faces, value", [
    ("4d6dl1dh1", [D(6)] * 4, lambda c: sum(sorted(c)[1:3])),
    ("5d4kh3kl4", [D(4)] * 5, lambda c: sum(sorted(c)[2:4])),
    ("4d4dh1dl2", [D(4)] * 4, lambda c: sorted(c)[2]),
    ("3d6k1dh1", [D(6)] * 3, lambda c: 0),
    ("3d6k1d1", [D(6)] * 3, max),
    ("4d6!kh1dl1", [D(6)] * 4, None),
])
def test_several_keep_drop(expr, faces, value):
    if value is None:  # with explosions the same window as kh1
        assert_close(dist(expr), dist("4d6!kh1"))
        return
    assert_close(dist(expr), enumerate_dice(faces, value))


# ------------------------------------------------------------------ 8. the peers' spellings
@pytest.mark.parametrize("spelled, ours", [
    ("4d6e6", "4d6!6"), ("1d6rr1", "1d6r1"), ("4d6ph1", "4d6dh1"), ("4d6pl1", "4d6dl1"), ("4d6d1", "4d6dl1"),
    ("1d6r", "1d6r1"), ("1d6ro", "1d6ro1"), ("4dF.2", "4dF"), ("3d6kh", "3d6kh1"), ("2d6!=5", "2d6!5"),
])
def test_peer_spellings_mean_the_same(spelled, ours):
    assert_close(dist(spelled), dist(ours))


def test_reroll_and_add_and_fudge_one():
    one = enumerate_dice([D(6), D(6)], lambda c: c[0] + (c[1] if c[0] == 6 else 0))
    assert_close(dist("1d6ra6"), one)
    assert de.roll("1d1ra1").total == 2  # d20's test
    assert_close(dist("2dF.1"), enumerate_dice([[-1, 0, 0, 0, 0, 1]] * 2, sum))


# ------------------------------------------------------------------ samples and rolls against the exact odds
CHI = ["1d20+5 to hit", "1d8+4[piercing] + 2d6[fire]", "-(1d8+3)[healing]", "4d6mi2", "3d6ma4kh2",
       "{2d4+1, 1d6+2}kh1", "{1d20+5, 1d20+5}kh1", "{3d6+5}>12", "{1d6, 1d8, 2d4}>4f1", "(1d6, 1d8, 4)kh1",
       "max(1d6, 1d8, 3)", "abs(1d6-1d8)", "1d6 % 4", "1d4^2", "1d20+5 >= 15", "(1d4)d6", "2d(1d6+2)",
       "4d6!p", "1d6!!p", "4d6u", "3d4uo", "4d6ukh3", "4d6dl1dh1", "1d6ra6", "4dF.1", "3d6sd", "6d10cs>8>=7f1",
       "floor(1d6/4)", "1d6 // 2"]


@pytest.mark.parametrize("expr", CHI)
def test_sample_matches_exact(expr):
    exact = dist(expr)
    s = de.sample(expr, 30_000, seed=20261130)["total"]
    assert s.shape == (30_000,) and chi2_passes(s, exact)


@pytest.mark.parametrize("expr", ["{2d4+1, 1d6+2}kh1", "(1d4)d6", "4d6!p", "4d6u", "3d4uo", "1d6ra6", "4d6dl1dh1",
                                  "max(1d6, 1d8, 3)", "1d20mi10", "{1d6, 1d8}>4f1"])
def test_single_rolls_match_exact(expr):
    exact = dist(expr)
    rolls = [de.roll(expr, seed=i).total for i in range(4_000)]
    assert chi2_passes(rolls, exact)


@pytest.mark.parametrize("expr", CHI)
def test_rolls_explain_their_total(expr):
    for seed in range(5):
        r = de.roll(expr, seed=seed)
        assert str(r).endswith(f"= {r.total}")
        assert json.loads(r.model_dump_json())["text"] == str(r)
        assert r.total in dist(expr) or de.distribution(expr).truncated > 0


def test_groups_and_criticals_in_every_format():
    # the plain rendering of the parts is the text; a dropped expression is struck in Markdown too
    r = de.roll("{1d20+5, 1d20+5}kh1", seed=3)
    assert r.render() == str(r)
    assert "~~" in r.render("markdown") and r.render("markdown").endswith(f"**{r.total}**")
    c = de.roll("3d20cs>=19cf1", seed=15)
    assert c.render() == str(c) == "3d20cs>=19cf1: [20(cs), 1(cf), 15] = 36"
