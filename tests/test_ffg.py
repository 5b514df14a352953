"""FFG narrative dice (text 004): exact odds against every face combination of the published dice, samples,
notation and colour letters, rolls explained, the catalogue and ladder."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from diceengine.systems import ffg
from diceengine.systems.ffg.dice import FACES

import diceengine as de
from diceengine.api import plan
from tests.helpers import Scripted, assert_close, chi2_passes

DIE_OF_LETTER = {"a": "ability", "p": "proficiency", "b": "boost", "d": "difficulty", "c": "challenge", "s": "setback",
          "f": "force"}


def brute(dice):
    """Every face combination, read symbol by symbol."""
    rows = {}
    total = 1
    for die in dice:
        total *= len(FACES[die])
    for faces in itertools.product(*(FACES[d] for d in dice)):
        text = "".join(faces)
        succ = text.count("S") + text.count("R")
        fail = text.count("F") + text.count("X")
        key = (succ - fail, text.count("A") - text.count("T"), text.count("R"), text.count("X"),
               text.count("L"), text.count("D"), succ - fail > 0)
        rows[key] = rows.get(key, 0) + 1 / total
    return rows


POOLS = ["a", "p", "b", "d", "c", "s", "f", "2a1p", "1p1c", "1a1d1b1s", "1p1c1f", "2p2c", "1f1f1a1c", "3a1d"]


@pytest.mark.parametrize("pool", POOLS)
def test_exact_odds_match_every_face_combination(pool):
    dice = []
    for count, letter in __import__("re").findall(r"(\d*)([a-z])", pool):
        dice += [DIE_OF_LETTER[letter]] * int(count or 1)
    want = brute(dice)
    got = {tuple(o): p for o, p in de.distribution(pool, system="ffg").items()}
    assert set(got) == {k for k, p in want.items() if p > 0}
    for key, p in want.items():
        assert got[key] == pytest.approx(p, abs=1e-14)


def test_published_means():
    a = de.distribution("1a", system="ffg")
    assert a.mean("success") == pytest.approx(0.625) and a.mean("advantage") == pytest.approx(0.625)
    p = de.distribution("1p", system="ffg")
    assert p.mean("success") == pytest.approx(10 / 12) and p.mean("advantage") == pytest.approx(8 / 12)
    assert p.mean("triumph") == pytest.approx(1 / 12)
    c = de.distribution("1c", system="ffg")
    assert c.mean("despair") == pytest.approx(1 / 12)
    f = de.distribution("1f", system="ffg")
    assert f.mean("light") == pytest.approx(8 / 12) and f.mean("dark") == pytest.approx(8 / 12)


@pytest.mark.parametrize("pool", ["2a1p1b vs 2d1s", "3a2p vs 3d", "1p1c2f", "2p2c1b1s"])
def test_samples_and_rolls_match_exact(pool):
    dist = de.distribution(pool, system="ffg")
    s = de.sample(pool, 60_000, system="ffg", seed=4)
    for field in ("success", "advantage", "triumph", "despair", "light", "dark"):
        assert chi2_passes(s[field], dist.marginal(field)), field
    pairs = list(zip(s["success"].tolist(), s["advantage"].tolist()))
    joint = {}
    for o, p in dist.items():
        joint[(o.success, o.advantage)] = joint.get((o.success, o.advantage), 0) + p
    assert chi2_passes(pairs, joint)
    rolls = [de.roll(pool, system="ffg", seed=i).success for i in range(4000)]
    assert chi2_passes(rolls, dist.marginal("success"))


def test_notation_forms_are_the_same_pool():
    base = de.distribution("2a1p1b vs 2d1s", system="ffg").marginal("success")
    for text in ["2A1P1B VS 2D1S", "2a + 1p + 1b vs 2d + 1s", "2 ability 1 proficiency 1 boost vs 2 difficulty 1 setback",
                 "aapb vs dds", "2 abilities 1 proficiency 1 boost vs 2 difficulties 1 setback"]:
        assert de.distribution(text, system="ffg").marginal("success") == pytest.approx(base)


def test_roll_shows_each_die_and_the_net_result():
    r = de.roll("2a1p1b vs 2d1s", system="ffg", seed=6)
    assert len(r.dice) == 7 and all(d.face for d in r.dice)
    assert r.succeeded == (r.success > 0)
    text = str(r)
    assert "proficiency" in text and "difficulty" in text and ("succeeded" in text or "failed" in text)


def test_triumph_counts_once_and_is_not_cancelled():
    # a proficiency triumph against a challenge despair: net 0 success, one of each
    dist = de.distribution("1p1c", system="ffg")
    both = [o for o, _ in dist.items() if o.triumph and o.despair]
    assert both and all(o.success == 0 and o.advantage == 0 for o in both)


def test_bad_pools():
    for bad in ["", "2x", "vs 2d", "2a vs", "61a", "0a"]:
        with pytest.raises(de.DiceError):
            de.roll(bad, system="ffg")


def test_pool_from_a_character():
    # characteristic 3, ranks 2: two yellow and one green; average difficulty
    pool = ffg.build_pool(3, 2, "average")
    assert (pool.ability, pool.proficiency, pool.difficulty) == (1, 2, 2)
    assert ffg.build_pool(2, 4).ability == 2 and ffg.build_pool(2, 4).proficiency == 2
    assert ffg.build_pool(5, 4).expression == "1a4p"
    # opposed: the opponent's characteristic 3 and ranks 1 give two purple and one red
    opp = ffg.build_pool(2, 2, opponent=(3, 1))
    assert (opp.difficulty, opp.challenge) == (2, 1)
    assert opp.expression == "2p vs 2d1c"
    assert 0 < opp.distribution().chance("succeeded") < 1


def test_upgrades_and_downgrades():
    pool = ffg.DicePool(ability=1)
    up = pool.upgrade(3)  # green -> yellow, then no green left: add one, then upgrade it
    assert (up.ability, up.proficiency) == (0, 2)
    assert ffg.build_pool(2, 0, upgrades=1, downgrades=2).proficiency == 0  # extra downgrades are ignored
    assert ffg.build_pool(2, 0, upgrades=1, downgrades=2).ability == 2
    hard = ffg.build_pool(2, 1, 3, difficulty_upgrades=2, difficulty_downgrades=1)
    assert (hard.difficulty, hard.challenge) == (2, 1)
    assert ffg.build_pool(2, 1, "simple", difficulty_upgrades=1).difficulty == 1


def test_destiny_pool():
    # four players roll faces 1 (dark), 7 (two dark), 8 (light), 12 (two light) of the published table
    faces = iter([(f - 0.5) / 12 for f in (1, 7, 8, 12)])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert ffg.destiny_pool(4, seed=rng) == ffg.DestinyPool(light=3, dark=3)
    pool = ffg.build_pool(2, 1, 2)
    spent, upgraded = ffg.DestinyPool(2, 1).spend("light", pool)
    assert spent == ffg.DestinyPool(1, 2) and upgraded.proficiency == pool.proficiency + 1
    spent, harder = ffg.DestinyPool(2, 1).spend("dark", pool)
    assert spent == ffg.DestinyPool(3, 0) and harder.challenge == 1
    with pytest.raises(de.DiceError):
        ffg.DestinyPool(0, 1).spend("light")


def test_stormtrooper_minions():
    # four stormtroopers, soak 5, wound threshold 5
    assert ffg.minions_defeated(10, 5, 5, 4) == 0
    assert ffg.minions_defeated(11, 5, 5, 4) == 1
    assert ffg.minions_defeated(15, 5, 5, 4) == 1
    assert [ffg.minions_defeated(d, 5, 5, 4) for d in range(16, 21)] == [2] * 5
    assert ffg.minions_defeated(100, 5, 5, 4) == 4


def test_critical_injury_and_initiative():
    faces = iter([36.5 / 100])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert ffg.critical_injury(10, seed=rng) == 37 + 10
    def check(success, advantage):
        return ffg.NarrativeOutcome(success, advantage, 0, 0, 0, 0, success > 0)

    checks = {"Greedo": check(1, 3), "Han": check(2, -1), "Leia": check(2, 1), "Chewie": check(0, 4)}
    assert ffg.initiative_order(checks) == ["Leia", "Han", "Greedo", "Chewie"]


def test_advancement():
    assert ffg.characteristic_cost(2) == 30  # 2 -> 3 costs 3 x 10
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(5, created=False)
    assert ffg.characteristic_cost(5) == 60
    with pytest.raises(de.DiceError):
        ffg.characteristic_cost(6)
    assert ffg.skill_cost(0) == 5 and ffg.skill_cost(1) == 10 and ffg.skill_cost(1, career=False) == 15
    with pytest.raises(de.DiceError):
        ffg.skill_cost(5)
    assert [ffg.talent_cost(t) for t in (2, 3, 4)] == [10, 15, 20]  # Grit: 10 + 15 + 20 = 45
    assert ffg.talent_cost(5) == 25  # Dedication


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


SIDES = {die: len(faces) for die, faces in PUBLISHED.items()}


#: the order a pool's dice are thrown and shown in (the positive side first, then the negative, then Force)
THROW_ORDER = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback", "force")


class Faces(random.Random):
    """A seed that throws the given (die, face number 1..sides) in order."""

    def __init__(self, faces: list[tuple[str, int]]) -> None:
        super().__init__(0)
        self._draws = [(f - 0.5) / SIDES[d] for d, f in faces]

    def random(self) -> float:
        return self._draws.pop(0)


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize("text, counts", [
    ("2ab", {"ability": 2, "boost": 1}),            # a run of letters: the count goes to the first
    ("3pab vs 2dc", {"proficiency": 3, "ability": 1, "boost": 1, "difficulty": 2, "challenge": 1}),
    ("3a2p vs 2a1p", {"ability": 3, "proficiency": 2, "difficulty": 2, "challenge": 1}),  # opposed: green->purple
    ("2 capacité 1 compétence vs 2 difficulté", {"ability": 2, "proficiency": 1, "difficulty": 2}),
    ("1 défi 1 fortune 1 revers 1 Force", {"challenge": 1, "boost": 1, "setback": 1, "force": 1}),
    ("2 green 1 yellow vs 1 purple 1 red 1 black 1 white",
     {"ability": 2, "proficiency": 1, "difficulty": 1, "challenge": 1, "setback": 1, "force": 1}),
])
def test_notation_reads_the_counts(text, counts):
    assert plan(text, "ffg").counts == counts


def test_colour_letters():
    got = plan("yyygg vs ppr k w", "ffg", letters="colour").counts
    assert got == {"proficiency": 3, "ability": 2, "difficulty": 2, "challenge": 1, "setback": 1, "force": 1}
    got = plan("2pro 1abi 1boo vs 2dif 1cha 1blk 1sb 1set 1frc", "ffg", letters="colour").counts
    assert got == {"proficiency": 2, "ability": 1, "boost": 1, "difficulty": 2, "challenge": 1, "setback": 3,
                   "force": 1}


BOOST_AFTER_VS = ("a boost die after vs: the opposition's help is a setback die (s, or k with letters=colour); "
                  "put boost dice before vs")


@pytest.mark.parametrize("text, options, msg, column", [
    ("2ay", {}, "unknown die letter 'y' (a colour letter: add the option letters=colour)", 2),
    ("1a 2kg", {}, "unknown die letter 'k' (a colour letter: add the option letters=colour)", 4),
    ("1a 1set", {}, "unknown die letter 'e' (a colour letter: add the option letters=colour)", 5),
    ("2 boo", {}, "unknown die letter 'o' (a colour letter: add the option letters=colour)", 3),
    ("yyga", {"letters": "colour"}, "unknown die letter 'a' (with letters=colour, the dice are y g b p r k w)", 3),
    ("2y 3d", {"letters": "colour"}, "unknown die letter 'd' (with letters=colour, the dice are y g b p r k w)", 4),
    ("1b vs 1b", {}, BOOST_AFTER_VS, 6),
    ("1a vs 2 boost", {}, BOOST_AFTER_VS, 6),
    ("2a vs b", {}, BOOST_AFTER_VS, 6),  # no count: the caret under the die
    ("a b vs 1b", {}, BOOST_AFTER_VS, 7),  # a count: under the count
    ("30a 30p 1d", {}, "too many dice in one pool (at most 60)", 8),
    ("61a", {}, "too many dice in one pool (at most 60)", 0),
    ("0a", {}, "the pool has no dice", 0),
    ("0a vs 0d", {}, "the pool has no dice", 0),
])
def test_notation_errors_say_what_and_where(text, options, msg, column):
    with pytest.raises(de.DiceError) as info:
        plan(text, "ffg", **options)
    assert info.value.message == msg
    assert info.value.column == column


def test_a_letter_of_no_set():
    group = ffg.NarrativeDice(2, "ax", pos=3, word_pos=4)
    with pytest.raises(de.DiceSyntaxError) as info:
        ffg.resolve_dice(group, "initials", "    2ax")
    assert info.value.message == "unknown die letter 'x'" and info.value.column == 5
    # a run of the option's letters: the count goes to the first die, one of each of the others
    assert ffg.resolve_dice(ffg.NarrativeDice(2, "sb", pos=0, word_pos=1), "initials", "2sb") == [
        ("setback", 2, 1), ("boost", 1, 2)]
    assert ffg.resolve_dice(ffg.NarrativeDice(3, "sb", pos=0, word_pos=1), "colour", "3sb") == [("setback", 3, 0)]
    assert ffg.resolve_dice(ffg.NarrativeDice(3, "Vert", pos=5), "colour", "") == [("ability", 3, 5)]
    assert ffg.resolve_dice(ffg.NarrativeDice(1, "p", pos=None), "colour", "") == [("difficulty", 1, 0)]
    assert ffg.resolve_dice(ffg.NarrativeDice(1, "sb", pos=7), "initials", "") == [("setback", 1, 7), ("boost", 1, 8)]
    assert plan("2sb", "ffg").counts == {"setback": 2, "boost": 1}


def test_a_die_without_a_count_is_one_die():
    assert plan("a", "ffg").counts == {"ability": 1}
    assert plan("proficiency b vs c", "ffg").counts == {"proficiency": 1, "boost": 1, "challenge": 1}


def test_sixty_dice_are_one_pool():
    assert sum(plan("30a 29p 1d", "ffg").counts.values()) == 60
    assert plan("20a20p vs 20d", "ffg").dice_per_roll == 60


# ---------------------------------------------------------------- a roll, its dice, its words


def test_a_roll_explained_die_by_die():
    faces = [("proficiency", 12), ("ability", 7), ("challenge", 1), ("difficulty", 2), ("force", 8)]
    r = de.roll("1a1p vs 1d1c1f", "ffg", seed=Faces(faces))
    assert str(r) == ("1a1p vs 1d1c1f: [proficiency triumph, ability success + advantage, challenge blank, "
                      "difficulty failure, force light] = 1 success, 1 advantage, 1 triumph, 1 light side point, "
                      "succeeded")
    assert r.outcome == ffg.NarrativeOutcome(1, 1, 1, 0, 1, 0, True)
    assert [(d.kind, d.sides, d.value) for d in r.dice] == [("proficiency", 12, 12), ("ability", 8, 7),
                                                            ("challenge", 12, 1), ("difficulty", 8, 2),
                                                            ("force", 12, 8)]
    assert [d.face for d in r.dice] == ["triumph", "success + advantage", "blank", "failure", "light"]


@pytest.mark.parametrize("text, faces, words, outcome", [
    ("1c1d1s", [("challenge", 12), ("difficulty", 7), ("setback", 5)],
     "1 failure, 3 threat, 1 despair, failed", (-1, -3, 0, 1, 0, 0, False)),
    ("2a vs 1d", [("ability", 1), ("ability", 5), ("difficulty", 1)], "no net success, 1 advantage, failed",
     (0, 1, 0, 0, 0, 0, False)),
    ("2a", [("ability", 4), ("ability", 8)], "2 successes, 2 advantage, succeeded", (2, 2, 0, 0, 0, 0, True)),
    ("1p1c", [("proficiency", 12), ("challenge", 12)], "no net success, 1 triumph, 1 despair, failed",
     (0, 0, 1, 1, 0, 0, False)),
    ("1a1f", [("ability", 1), ("force", 1)], "no net success, 1 dark side point, failed",
     (0, 0, 0, 0, 0, 1, False)),
    ("1b1s", [("boost", 4), ("setback", 3)], "no net success, 1 advantage, failed", (0, 1, 0, 0, 0, 0, False)),
])
def test_net_results_in_words(text, faces, words, outcome):
    r = de.roll(text, "ffg", seed=Faces(faces))
    assert tuple(r.outcome) == outcome
    assert str(r).rsplit("] = ", 1)[1] == words
    assert ffg.net_text(r.outcome) == words


@pytest.mark.parametrize("text, faces, words, outcome", [
    ("2f", [("force", 7), ("force", 12)], "2 light side points, 2 dark side points", (0, 0, 0, 0, 2, 2, False)),
    ("1f", [("force", 1)], "1 dark side point", (0, 0, 0, 0, 0, 1, False)),
    ("1f", [("force", 12)], "2 light side points", (0, 0, 0, 0, 2, 0, False)),
])
def test_force_dice_alone_are_no_check(text, faces, words, outcome):
    """Issue 36: a lone Force die (a destiny roll) says its points, not "no net success ... failed"."""
    r = de.roll(text, "ffg", seed=Faces(faces))
    assert tuple(r.outcome) == outcome
    assert str(r).rsplit("] = ", 1)[1] == words
    assert ffg.net_text(r.outcome, force_only=True) == words
    assert r.render("plain", "fr").rsplit("] = ", 1)[1] == {
        "2f": "2 points de côté lumineux, 2 points de côté obscur", "1f": words.replace(
            "1 dark side point", "1 point de côté obscur").replace("2 light side points", "2 points de côté lumineux")
    }[text]


def test_samples_follow_the_published_faces_field_by_field():
    # one die of each kind: every field of the sample is the published faces' field (a sample of 12 000)
    s = de.sample("1p1c1f", 12_000, "ffg", seed=11)
    expected = published_pool(["proficiency", "challenge", "force"])
    for i, name in enumerate(("success", "advantage", "triumph", "despair", "light", "dark")):
        marginal: dict[int, Fraction] = {}
        for key, p in expected.items():
            marginal[key[i]] = marginal.get(key[i], Fraction(0)) + p
        got = s[name]
        assert set(got.tolist()) <= set(marginal)
        for value, p in marginal.items():
            assert abs((got == value).mean() - float(p)) < 0.02, (name, value)
    assert (s["succeeded"] == (s["success"] > 0)).all()


def test_odds_summary():
    d = de.distribution("2a1p vs 2d1c", "ffg")
    expected = published_pool(["ability", "ability", "proficiency", "difficulty", "difficulty", "challenge"])
    summary = plan("2a1p vs 2d1c", "ffg").odds_summary(d)
    assert set(summary) == {"P(succeeded)", "P(triumph)", "P(despair)", "P(net advantage)"}
    assert summary["P(succeeded)"] == pytest.approx(float(sum(p for k, p in expected.items() if k[0] > 0)), abs=1e-12)
    assert summary["P(triumph)"] == pytest.approx(1 - (11 / 12), abs=1e-12)
    assert summary["P(despair)"] == pytest.approx(1 / 12, abs=1e-12)
    assert summary["P(net advantage)"] == pytest.approx(float(sum(p for k, p in expected.items() if k[1] > 0)),
                                                        abs=1e-12)


# ---------------------------------------------------------------- pools from a character (004)


def test_dice_pool_expression():
    assert ffg.DicePool().expression == "0a"
    assert ffg.DicePool(force=2).expression == "2f"
    assert ffg.DicePool(setback=1).expression == "0a vs 1s"
    assert ffg.DicePool(1, 2, 3, 4, 5, 6, 7).expression == "1a2p3b7f vs 4d5c6s"
    assert ffg.DicePool(boost=1, challenge=2).expression == "1b vs 2c"


# ---------------------------------------------------------------- the catalogue and the ladder


def test_catalogue_pools():
    names = {1: "easy", 2: "average", 3: "hard", 4: "daunting", 5: "formidable"}
    want: dict[str, str] = {}
    for char in range(1, 7):
        for skill in range(6):
            green, yellow = max(char, skill) - min(char, skill), min(char, skill)
            for diff in range(1, 6):
                for up in range(3):
                    p, r = diff - min(up, diff), min(up, diff)  # each upgrade turns a purple die red
                    if up > diff:  # no purple die left: the upgrade adds one (only 1 purple, 2 upgrades)
                        p += 1
                    pos = (f"{green}a" if green else "") + (f"{yellow}p" if yellow else "")
                    neg = (f"{p}d" if p else "") + (f"{r}c" if r else "")
                    expr = f"{pos or '0a'} vs {neg}"
                    label = f"characteristic {char}, skill {skill} vs {names[diff]}" + (f" +{up} upgrade" if up else "")
                    want.setdefault(expr, label)
    got = de.systems()["ffg"].catalogue()
    assert {e: label for label, e in got} == want and len(got) == len(want)


def test_ladder_rows_and_columns():
    rows, cols = de.systems()["ffg"].ladder()
    assert rows == [("characteristic 2, skill 0", "2a"), ("characteristic 2, skill 1", "1a1p"),
                    ("characteristic 3, skill 1", "2a1p"), ("characteristic 3, skill 2", "1a2p"),
                    ("characteristic 4, skill 2", "2a2p"), ("characteristic 4, skill 3", "1a3p"),
                    ("characteristic 5, skill 3", "2a3p"), ("characteristic 5, skill 5", "5p")]
    assert cols == [("easy", "1d"), ("average", "2d"), ("hard", "3d"), ("daunting", "4d"), ("formidable", "5d")]


def test_exact_pools_against_the_published_faces():
    for dice in (["proficiency", "proficiency", "challenge"], ["challenge", "challenge", "proficiency", "force"],
                 ["setback", "setback", "boost", "ability"]):
        counts: dict[str, int] = {}
        for d in dice:
            counts[d] = counts.get(d, 0) + 1
        text = "".join(f"{n}{LETTER[d]}" for d, n in counts.items())
        got = {tuple(o)[:6]: p for o, p in de.distribution(text, "ffg").items()}
        assert_close(got, published_pool(dice))


def test_a_roll_rendered():
    faces = [("proficiency", 12), ("challenge", 1), ("force", 10)]
    r = de.roll("1p vs 1c1f", "ffg", seed=Faces(faces))
    html = r.render("html")
    assert '<code class="dice-expression">1p vs 1c1f</code>' in html
    assert '<strong class="dice-result">1 success, 1 triumph, 2 light side points, succeeded</strong>' in html
    assert '<span class="die die-force kept light">force light + light</span>' in html
    assert r.render("symbols") == "1p vs 1c1f: [🟨 ⍟, 🟥 ·, ⬜ ○○] = 1 success, 1 triumph, 2 light side points, succeeded"


def test_die_names():
    assert [ffg.die_name(w) for w in ("a", "P", "capacité", "Green", "défis", "noir", "blanc")] == [
        "ability", "proficiency", "ability", "ability", "challenge", "setback", "force"]
    assert [ffg.die_name(w, "colour") for w in ("y", "p", "k", "blk", "w", "abilities")] == [
        "proficiency", "difficulty", "setback", "setback", "force", "ability"]
    with pytest.raises(KeyError):
        ffg.die_name("y")


def test_net_text_in_french():
    assert ffg.net_text(ffg.NarrativeOutcome(2, -1, 1, 0, 0, 0, True), "fr") == "2 succès, 1 menace, 1 triomphe, réussite"
