"""FFG fights (text 004) and the narrative dice's tables against sources written here: attack outcomes,
initiative, duel odds recomputed from the published faces, minion groups."""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from diceengine.systems.ffg import dice as nd
from diceengine.systems.ffg import fight as ffg_fight

import diceengine as de
from diceengine import fights
from tests.test_ffg import LETTER, PUBLISHED, outcome_of, published_pool

# ---------------------------------------------------------------- the face tables, face by face


@pytest.mark.parametrize("die", list(PUBLISHED))
def test_each_face_in_order(die):
    words = {"s": "success", "f": "failure", "a": "advantage", "t": "threat", "TR": "triumph", "DE": "despair",
             "L": "light", "D": "dark"}
    vectors = nd.face_vectors(die)
    assert vectors.shape == (len(PUBLISHED[die]), 6) and vectors.dtype == np.int64
    for i, face in enumerate(PUBLISHED[die]):
        assert tuple(vectors[i]) == outcome_of([face])
        assert nd.face_symbols(die, i) == tuple(words[x] for x in face.split())
        assert nd.face_text(die, i) == (" + ".join(words[x] for x in face.split()) or "blank")


def convolve(dice: list[str]) -> dict[tuple, Fraction]:
    """The pool's distribution, die by die (a convolution of the published faces, not an enumeration)."""
    out = {(0, 0, 0, 0, 0, 0): Fraction(1)}
    for d in dice:
        faces = Counter(outcome_of([f]) for f in PUBLISHED[d])
        nxt: dict[tuple, Fraction] = {}
        for k, p in out.items():
            for v, c in faces.items():
                key = tuple(x + y for x, y in zip(k, v))
                nxt[key] = nxt.get(key, Fraction(0)) + p * Fraction(c, len(PUBLISHED[d]))
        out = nxt
    return out


@pytest.mark.parametrize("counts", [
    {"proficiency": 3, "challenge": 2}, {"proficiency": 2, "challenge": 3, "force": 2},
    {"ability": 2, "proficiency": 2, "boost": 1, "difficulty": 2, "challenge": 2, "setback": 1, "force": 1},
    {"challenge": 4}, {"proficiency": 4, "force": 3}, {"force": 3}, {"boost": 3, "setback": 3},
    {"proficiency": 1, "challenge": 1, "force": 1, "difficulty": 1},
])
def test_larger_pools_against_the_published_faces(counts):
    dice = [d for d, n in counts.items() for _ in range(n)]
    text = "".join(f"{n}{LETTER[d]}" for d, n in counts.items())
    want = convolve(dice)
    cols, probs = nd.pool_arrays(counts)
    got: dict[tuple, float] = {}
    for row in zip(*(cols[f].tolist() for f in nd.FIELDS), probs.tolist()):
        got[tuple(row[:6])] = got.get(tuple(row[:6]), 0.0) + row[6]
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-13)
    assert len(got) == len(probs)  # one row per outcome
    # the cost estimate bounds the table the distribution builds (README, "Bounds")
    cost = nd.pool_cost(counts)
    assert cost.cells >= len(probs) * (len(nd.FIELDS) + 1)
    assert de.distribution(text, "ffg").probabilities.sum() == pytest.approx(1.0, abs=1e-12)


def test_small_pools_cost_little_and_large_ones_are_refused():
    from diceengine.limits import MAX_CELLS, MAX_WORK

    for counts in ({"ability": 1}, {"proficiency": 2, "challenge": 2, "force": 1}, {"ability": 5, "difficulty": 5}):
        cost = nd.pool_cost(counts)
        assert 0 < cost.work <= MAX_WORK / 100 and 0 < cost.cells <= MAX_CELLS / 100
    with pytest.raises(de.DiceLimitError):
        de.distribution("40c15f", "ffg")  # the pool: refused before any work
    assert sum(published_pool(["force"]).values()) == 1


# ---------------------------------------------------------------- one attack


def pool_dice(characteristic: int, skill: int, difficulty: int, setback: int) -> list[str]:
    green, yellow = max(characteristic, skill) - min(characteristic, skill), min(characteristic, skill)
    return ["ability"] * green + ["proficiency"] * yellow + ["difficulty"] * difficulty + ["setback"] * setback


@functools.cache
def attack(characteristic: int, skill: int, difficulty: int, setback: int, critical: int) -> dict[tuple, Fraction]:
    """(net successes, critical hit) of the checks that hit; a critical: advantage >= the rating or a triumph."""
    out: dict[tuple, Fraction] = {}
    for (s, a, tr, *_), p in convolve(pool_dice(characteristic, skill, difficulty, setback)).items():
        if s > 0:
            key = (s, a >= critical or tr > 0)
            out[key] = out.get(key, Fraction(0)) + p
    return out


@pytest.mark.parametrize("args", [(3, 2, 2, 0, 3), (2, 0, 1, 2, 1), (4, 4, 3, 1, 2), (1, 1, 4, 0, 5)])
def test_attack_outcomes(args):
    want = attack(*args)
    got = {(s, c): p for s, c, p in ffg_fight.attack_outcomes(*args)}
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-13)
    assert [s for s, _, _ in ffg_fight.attack_outcomes(*args)] == sorted(s for s, _, _ in ffg_fight.attack_outcomes(*args))


def initiative_first(a: tuple[int, int], b: tuple[int, int], a_wins_ties: bool) -> float:
    pa = convolve(pool_dice(*a, 0, 0))
    pb = convolve(pool_dice(*b, 0, 0))
    total = Fraction(0)
    for (sa, aa, *_), p in pa.items():
        for (sb, ab, *_), q in pb.items():
            if (sa, aa) > (sb, ab) or ((sa, aa) == (sb, ab) and a_wins_ties):
                total += p * q
    return float(total)


@pytest.mark.parametrize("a, b", [((3, 1), (2, 0)), ((2, 2), (2, 2)), ((1, 0), (4, 3))])
def test_initiative_chance(a, b):
    for ties in (True, False):
        assert ffg_fight.initiative_chance(a, b, ties) == pytest.approx(initiative_first(a, b, ties), abs=1e-12)


# ---------------------------------------------------------------- a whole duel, recomputed here


def duel(fa: dict, fb: dict, difficulty: int, rounds: int = 2000) -> tuple[float, float]:
    """P(a wins), P(b wins): health is wounds (out past the threshold) or minions standing (out at 0)."""
    def minion(f):
        return f.get("kind") == "minion"

    def start(f):
        return f.get("size", 1) if minion(f) else 0

    def out(f, h):
        return h <= 0 if minion(f) else h > f["wound_threshold"]

    def ranks(f, h):
        return min(max(h - 1, 0), 5) if minion(f) else f.get("skill", 0)

    def hit(f, h, damage, crit):
        if minion(f):
            wounds = max(0, damage - f["soak"])
            fallen = min(h, max(0, (wounds - 1) // f["wound_threshold"])) + int(crit)
            return max(0, h - fallen)
        return min(h + max(0, damage - f["soak"]), f["wound_threshold"] + 1)

    cache: dict = {}

    def attacks(me, other, h_me, h_other):
        key = (id(me), h_me, h_other)
        if key not in cache:
            outcomes = attack(me["characteristic"], ranks(me, h_me), difficulty, other.get("defense", 0),
                              me.get("critical", 3))
            dist: dict[int, float] = {}
            miss = 1.0
            for (s, crit), p in outcomes.items():
                h = hit(other, h_other, me["damage"] + s, crit)
                dist[h] = dist.get(h, 0.0) + float(p)
                miss -= float(p)
            dist[h_other] = dist.get(h_other, 0.0) + miss
            cache[key] = dist
        return cache[key]

    a_ties = fa.get("player", False) or not fb.get("player", False)
    p_first = initiative_first(tuple(fa.get("initiative", (2, 0))), tuple(fb.get("initiative", (2, 0))), a_ties)
    states = {(0, start(fa), start(fb)): p_first, (1, start(fa), start(fb)): 1 - p_first}
    a_wins = b_wins = 0.0
    f = (fa, fb)
    for _ in range(rounds):
        nxt: dict = {}
        for (first, ha, hb), p in states.items():
            h = [ha, hb]
            for h_other, q in attacks(f[first], f[1 - first], h[first], h[1 - first]).items():
                after = list(h)
                after[1 - first] = h_other
                if out(f[1 - first], h_other):
                    if first == 0:
                        a_wins += p * q
                    else:
                        b_wins += p * q
                    continue
                for h_me, r in attacks(f[1 - first], f[first], after[1 - first], after[first]).items():
                    final = list(after)
                    final[first] = h_me
                    if out(f[first], h_me):
                        if first == 0:
                            b_wins += p * q * r
                        else:
                            a_wins += p * q * r
                        continue
                    key = (first, final[0], final[1])
                    nxt[key] = nxt.get(key, 0.0) + p * q * r
        states = nxt
        if sum(states.values()) < 1e-10:
            break
    return a_wins, b_wins


HERO = {"name": "Hero", "characteristic": 3, "skill": 1, "soak": 3, "wound_threshold": 8, "damage": 5, "critical": 3,
        "initiative": [3, 1], "player": True}


THUG = {"name": "Thug", "kind": "rival", "characteristic": 2, "skill": 2, "soak": 2, "wound_threshold": 6,
        "damage": 4, "critical": 2, "defense": 1, "initiative": [2, 2]}


SQUAD = {"name": "Squad", "kind": "minion", "size": 3, "characteristic": 2, "soak": 4, "wound_threshold": 3,
         "damage": 4, "critical": 3, "initiative": [2, 0]}


@pytest.mark.parametrize("a, b, band, difficulty", [
    (HERO, THUG, "short", 1), (THUG, HERO, "long", 3), (HERO, SQUAD, "engaged", 2), (SQUAD, HERO, "medium", 2),
    (dict(HERO, player=False), dict(THUG, initiative=[3, 1]), "extreme", 4),
    (dict(THUG, initiative=[3, 1]), dict(HERO, player=False, defense=2), "short", 1),
])
def test_duel_odds_recomputed_from_the_published_faces(a, b, band, difficulty):
    assert ffg_fight.RANGES[band] == difficulty
    enc = fights.load_encounter({"name": "duel", "ffg": {"range": band, "a": [a], "b": [b]}})
    odds = fights.duel_odds(enc["ffg"])
    want_a, want_b = duel(a, b, difficulty)
    assert odds.a_wins == pytest.approx(want_a, abs=1e-7)
    assert odds.b_wins == pytest.approx(want_b, abs=1e-7)


def test_ranges_by_band():
    assert ffg_fight.RANGES == {"engaged": 2, "short": 1, "medium": 2, "long": 3, "extreme": 4}
    setup = ffg_fight.FFGSetup(a=[HERO], b=[THUG])
    assert setup.range == "short" and setup.difficulty == 1 and [f.name for f in setup.fighters()] == ["Hero", "Thug"]


def test_fighter_counters():
    hero = ffg_fight.FFGFighter(**HERO)
    assert (hero.minion, hero.start, hero.ranks(0), hero.ranks(9)) == (False, 0, 1, 1)
    assert (hero.out(8), hero.out(9)) == (False, True)
    assert hero.hit(0, 3, False) == 0 and hero.hit(0, 5, True) == 2 and hero.hit(7, 50, False) == 9
    squad = ffg_fight.FFGFighter(**dict(SQUAD, size=8))
    assert (squad.minion, squad.start) == (True, 8)
    assert [squad.ranks(k) for k in (8, 7, 6, 2, 1, 0)] == [5, 5, 5, 1, 0, 0]
    assert (squad.out(0), squad.out(1)) == (True, False)
    assert squad.hit(8, 8, False) == 7 and squad.hit(8, 7, False) == 8 and squad.hit(1, 40, True) == 0
    assert squad.hit(8, 4, True) == 7
    defaults = ffg_fight.FFGFighter(name="x", characteristic=2, soak=0, wound_threshold=1, damage=1)
    assert (defaults.kind, defaults.skill, defaults.critical, defaults.defense, defaults.initiative, defaults.size,
            defaults.player) == ("character", 0, 3, 0, (2, 0), 1, False)


@pytest.mark.parametrize("initiative", [(0, 1), (7, 1), (3, -1), (3, 6)])
def test_initiative_bounds(initiative):
    with pytest.raises(Exception) as info:
        ffg_fight.FFGFighter(**dict(HERO, initiative=list(initiative)))
    assert "initiative is [characteristic 1-6, ranks 0-5]" in str(info.value)


def test_initiative_edges_are_accepted():
    assert ffg_fight.FFGFighter(**dict(HERO, initiative=[1, 0])).initiative == (1, 0)
    assert ffg_fight.FFGFighter(**dict(HERO, initiative=[6, 5])).initiative == (6, 5)


def test_simulated_skirmish_matches_the_exact_duel():
    # a duel run through the battle simulation (the general round): its wins agree with the chain computed here
    enc = fights.load_encounter({"name": "duel", "ffg": {"range": "engaged", "a": [HERO], "b": [SQUAD]}})
    want_a, _ = duel(HERO, SQUAD, 2)
    sim = fights.simulate(enc["ffg"], 10_000, seed=5)
    assert abs(sim.a_wins - want_a) < 4 * (want_a * (1 - want_a) / 10_000) ** 0.5 + 1e-3
    enc = fights.load_encounter({"name": "duel", "ffg": {"range": "long", "a": [THUG], "b": [HERO]}})
    want_a, _ = duel(THUG, HERO, 3)
    sim = fights.simulate(enc["ffg"], 10_000, seed=6)
    assert abs(sim.a_wins - want_a) < 4 * (want_a * (1 - want_a) / 10_000) ** 0.5 + 1e-3


def _reach(faces: list[str]) -> tuple[int, int]:
    vectors = [outcome_of([f]) for f in faces]
    return (max(v[0] for v in vectors) - min(v[0] for v in vectors),
            max(v[1] for v in vectors) - min(v[1] for v in vectors))


@pytest.mark.parametrize("counts", [
    {"ability": 1}, {"proficiency": 2, "challenge": 3, "force": 2}, {"boost": 2, "setback": 1, "difficulty": 3},
    {"ability": 2, "proficiency": 1, "boost": 1, "difficulty": 1, "challenge": 1, "setback": 2, "force": 1},
    {"force": 3}, {"challenge": 2}, {"proficiency": 3},
])
def test_the_tables_a_pool_will_need(counts):
    # pool_cost's rows: one per cell of the (success, advantage) box of each count of triumphs t among the yellow
    # dice and of despairs e among the red (the other dice on their faces without it), times the (light, dark) box
    # of the Force dice; one float64 table of the six fields and the chances, beside the full boxes (t, e, success,
    # advantage) and (light, dark) the sum is laid out in
    h = w = 1
    for die in ("boost", "setback", "ability", "difficulty"):
        dx, dy = _reach(PUBLISHED[die])
        h, w = h + dx * counts.get(die, 0), w + dy * counts.get(die, 0)
    px, py = _reach(PUBLISHED["proficiency"][:-1])  # the faces without the triumph
    cx, cy = _reach(PUBLISHED["challenge"][:-1])  # without the despair
    P, C, F = (counts.get(d, 0) for d in ("proficiency", "challenge", "force"))
    force = (2 * F + 1) ** 2 if F else 1  # light 0..2F, dark 0..2F
    main = sum((h + px * p + cx * e) * (w + py * p + cy * e) for e in range(C + 1) for p in range(P + 1))
    rows = main * force if len(counts) > 1 or not F else force
    held = ((P + 1) * (C + 1) * (h + px * P + cx * C) * (w + py * P + cy * C) if len(counts) > 1 or not F else 0)
    held += force if F else 0
    cost = nd.pool_cost(counts)
    assert rows * 7 + held <= cost.cells <= rows * 7 + 5 * held
    assert cost.work > rows * 6 * 6
    _, probs = nd.pool_arrays(counts)
    assert len(probs) <= rows


@pytest.mark.parametrize("die", list(PUBLISHED))
def test_each_die_as_a_kernel(die):
    # the (net success, net advantage) one die adds to a pool, with the faces' chances: the die's value mapped to
    # its first two symbols (the die algebra's Symbols.map)
    want: dict[tuple[int, int], Fraction] = {}
    for face in PUBLISHED[die]:
        o = outcome_of([face])
        want[(o[0], o[1])] = want.get((o[0], o[1]), Fraction(0)) + Fraction(1, len(PUBLISHED[die]))
    got = nd.NARRATIVE[die].value.map(lambda v: v[:2], names=("success", "advantage")).items()
    assert len(got) == len(want)
    for (s, a), p in got:
        assert p == pytest.approx(float(want[(s, a)]), abs=1e-15)


def test_battle_no_one_acts_once_the_other_side_is_down():
    """In a fight whose other side is all down, the survivors' attacks stop: no one fires at an ally (the
    first combatant of the file) for want of an enemy, while the other fights of the batch go on."""
    setup = ffg_fight.FFGSetup(a=[THUG, HERO], b=[dict(THUG, name="Other")])
    battle = ffg_fight.FFGBattle(setup, 400, np.random.default_rng(3))
    battle.health[:200, 2] = 99   # the first 200 fights: side b is already down
    before = battle.health.copy()
    battle.step(np.random.default_rng(4))
    assert (battle.health[:200] == before[:200]).all()
    assert (battle.health[200:, 2] > before[200:, 2]).any()   # elsewhere, side b is attacked
    assert (battle.health[200:, :2] > before[200:, :2]).any()   # and fires back


def test_battle_a_deadly_hit_takes_out_a_whole_group():
    """A hit whose wounds exceed the threshold of every member takes the whole group out, the group at its
    full size included (the largest group of the fight: the last column of the table of members out)."""
    hero = dict(HERO, damage=40)
    squad = dict(SQUAD, size=3, soak=0, wound_threshold=1)
    setup = ffg_fight.FFGSetup(a=[hero], b=[squad])
    battle = ffg_fight.FFGBattle(setup, 2000, np.random.default_rng(5))
    battle.step(np.random.default_rng(6))
    left = Counter(battle.health[:, 1].tolist())
    assert set(left) == {0, 3}, left   # hit: none left; missed: all three stand
