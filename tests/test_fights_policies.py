"""The fights' new policies: text 000's dodge as a reaction (the shot fired before the dodge keeps its full
code), character points (text 003) and the destiny pool (text 004) spent by policy. Each exact chain is
checked against a brute-force enumeration written here on a small case, and against the seeded
simulation (chi-square)."""

from __future__ import annotations

import itertools
import pathlib
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

import diceengine as de
from diceengine import fights
from diceengine.fights.rules import A_WINS, B_WINS, BOTH_DOWN, GOING
from diceengine.fights.simulate import simulate_counts
from tests.helpers import chi2_critical, chi2_statistic

ROARK = pathlib.Path(__file__).parent.parent / "examples" / "roark.toml"


def chi_square(fight, n, seed, bins=8):
    """Simulated (winner, round) counts against the exact chain's chances; later rounds pooled."""
    exact = fights.duel_odds(fight, rounds=bins)
    counts, _ = simulate_counts(fight, n, np.random.default_rng(seed), 2000)
    expected, observed = {}, {}
    for code, cumulative, total in ((A_WINS, exact.a_by_round, exact.a_wins), (B_WINS, exact.b_by_round, exact.b_wins)):
        previous = 0.0
        for t in range(1, bins + 1):
            c = cumulative[t - 1] if t - 1 < len(cumulative) else cumulative[-1]
            expected[(code, t)], observed[(code, t)] = c - previous, int(counts[code, t])
            previous = c
        expected[(code, bins + 1)] = total - previous
        observed[(code, bins + 1)] = int(counts[code, bins + 1:].sum())
    expected[(0, 0)] = exact.both_down + exact.unfinished
    observed[(0, 0)] = int(counts[BOTH_DOWN].sum() + counts[GOING].sum())
    expected = {k: v for k, v in expected.items() if v > 1e-12 or observed[k]}
    return chi2_statistic(observed, expected, n)


# ---------------------------------------------------------------- text 000: the dodge as a reaction


@cache
def totals(dice):
    """The sum of ``dice`` d6, by enumeration (None: a code reduced to 0D, no roll)."""
    if dice <= 0:
        return {None: 1.0}
    out = Counter(sum(c) for c in itertools.product(range(1, 7), repeat=dice))
    return {k: v / 6 ** dice for k, v in out.items()}


def result_000(damage, strength):
    if strength > damage:
        return "stun"
    return "wound" if damage < 2 * strength else "out"  # incapacitated or mortally wounded: out


def brute_force_000(a, b, difficulty, policy, rounds=300):
    """P(a wins), P(b wins) of a text-000 duel, every die enumerated. ``a``, ``b``: (attack, dodge, strength,
    damage) in dice, a player against an NPC. ``policy``: "always" (shot and dodge declared: both -1D) or
    "reaction" (the shot, then the dodge: only the dodge -1D)."""
    sides = (a, b)

    def hurt(state, r):
        wounded, _ = state
        if r == "stun":
            return (wounded, 1)
        return "out" if r == "out" or wounded else (1, 0)

    results = []
    for i in (0, 1):
        dmg, st = totals(sides[i][3]), totals(sides[1 - i][2])
        c = Counter()
        for d, p in dmg.items():
            for s, q in st.items():
                c[result_000(d, s)] += p * q
        results.append(c)
    dist = {((0, 0), (0, 0)): 1.0}
    won = [0.0, 0.0]
    for _ in range(rounds):
        new = Counter()
        for (sa, sb), w in dist.items():
            states = (sa, sb)
            pen = [s[0] + s[1] for s in states]
            shot = [totals(sides[i][0] - pen[i] - (policy == "always")) for i in (0, 1)]
            dodge = [totals(sides[i][1] - pen[i] - 1) for i in (0, 1)]
            for (xa, pa), (xb, pb) in itertools.product(shot[0].items(), shot[1].items()):
                xs = (xa, xb)
                if xa is None and xb is None:
                    order = []
                elif xb is None or (xa is not None and xa >= xb):
                    order = [0, 1]  # a is the player: a tie goes to a
                else:
                    order = [1, 0]
                branches = [((sa[0], 0), (sb[0], 0), pa * pb, frozenset())]
                for i in order:
                    nxt = []
                    for s0, s1, q, stopped in branches:
                        if i in stopped or xs[i] is None:
                            nxt.append((s0, s1, q, stopped))
                            continue
                        for dv, dp in dodge[1 - i].items():
                            need = difficulty + (dv or 0)
                            if xs[i] < need:
                                nxt.append((s0, s1, q * dp, stopped))
                                continue
                            for r, pr in results[i].items():
                                cur = [s0, s1]
                                cur[1 - i] = hurt(cur[1 - i], r) if cur[1 - i] != "out" else "out"
                                nxt.append((cur[0], cur[1], q * dp * pr, stopped | ({1 - i} if r != "stun" else set())))
                    branches = nxt
                for s0, s1, q, _ in branches:
                    new[(s0, s1)] += w * q
        dist = {}
        for (sa, sb), w in new.items():
            if sb == "out" and sa != "out":
                won[0] += w
            elif sa == "out" and sb != "out":
                won[1] += w
            else:
                dist[(sa, sb)] = w
        if sum(dist.values()) < 1e-14:
            break
    return won


def d6_fight(a, b, difficulty, policy):
    def f(name, codes, player):
        return {"name": name, "attack": f"{codes[0]}D", "dodge": f"{codes[1]}D", "strength": f"{codes[2]}D",
                "damage": f"{codes[3]}D", "player": player}

    return fights.load_encounter({"d6": {"a": [f("A", a, True)], "b": [f("B", b, False)], "range": difficulty,
                                         "dodge": policy}})["d6"]


@pytest.mark.parametrize("policy", ["always", "reaction"])
@pytest.mark.parametrize("a, b, difficulty", [((3, 2, 1, 2), (3, 3, 1, 2), 3), ((3, 2, 2, 3), (2, 2, 1, 2), 4)])
def test_000_dodge_policies_against_brute_force(a, b, difficulty, policy):
    odds = fights.duel_odds(d6_fight(a, b, difficulty, policy))
    won = brute_force_000(a, b, difficulty, policy)
    assert odds.a_wins == pytest.approx(won[0], abs=1e-9)
    assert odds.b_wins == pytest.approx(won[1], abs=1e-9)


def test_000_a_shot_fired_before_the_dodge_keeps_its_full_code():
    """000: « Toutes celles que vous avez employées avant d'esquiver ne sont pas affectées, mais tous les jets
    de dés effectués après le seront »: Roark at long range ends his fights far sooner than with a declared
    dodge that costs his shot 1D."""
    fight = fights.load_encounter(ROARK)["d6"].with_values({"range": "long"})
    always = fights.duel_odds(fight.with_values({"dodge": "always"}))
    reaction = fights.duel_odds(fight.with_values({"dodge": "reaction"}))
    assert 30 < reaction.mean_rounds < 40 and always.mean_rounds > 600  # the 36 and 694
    with pytest.raises(de.DiceError, match="dodge"):
        fight.with_values({"dodge": "sometimes"})


@pytest.mark.parametrize("changes, n", [
    ({"dodge": "reaction"}, 100_000),
    # at short range Roark is wounded often enough for the force point to count: 40,000 fights (2.7 rounds each)
    # tell a force point never spent (chi-square 15 times its bound at 20,000), where 100,000 fights at long
    # range (36 rounds each, Roark almost never hurt) could not
    ({"dodge": "reaction", "range": "short", "force_point": "when_wounded", "a.0.force_points": 1}, 40_000),
])
def test_000_reaction_chain_agrees_with_the_simulation(changes, n, monkeypatch):
    from diceengine.systems.d6.fight import D6Battle

    fight = fights.load_encounter(ROARK)["d6"].with_values(changes)
    stat, df = chi_square(fight, n, seed=26)
    assert stat < chi2_critical(df), (stat, df)
    monkeypatch.setattr(D6Battle, "fast_duel", False)  # the general round (skirmishes) too
    stat, df = chi_square(fight, n, seed=27)
    assert stat < chi2_critical(df), (stat, df)


# ---------------------------------------------------------------- text 003: character points


def test_003_a_character_point_is_one_more_plain_die_on_the_attack():
    """003: « L'utilisation d'un point de personnage permet d'ajouter 1D à une utilisation de compétence »;
    the chain's attack totals with the point are the engine's ``character_point`` check."""
    from diceengine.systems.d6.codes import Code
    from diceengine.systems.d6wild.fight import _pmf, with_character_point

    values, probs = with_character_point(_pmf(Code(2, 1), "flag"))
    engine = de.distribution("2D+1", "d6wild", character_point=True).marginal("total")
    assert dict(zip(values.tolist(), probs.tolist())) == pytest.approx({k: float(v) for k, v in engine.items()},
                                                                         abs=1e-12)


@pytest.mark.parametrize("changes", [
    {"character_point": "every_round", "a.0.character_points": 2},
    {"character_point": "when_wounded", "a.0.character_points": 3, "b.0.character_points": 1,
     "force_point": "first_round", "b.0.force_points": 1, "dodge": "always"},
])
def test_003_character_points_chain_agrees_with_the_simulation(changes):
    fight = fights.load_encounter(ROARK)["d6wild"].with_values(changes)
    plain = fights.duel_odds(fight.with_values({"character_point": "never"}))
    odds = fights.duel_odds(fight)
    if changes["character_point"] == "every_round":  # Roark alone spends: +1D on his first two shots
        assert odds.a_by_round[0] > plain.a_by_round[0] and odds.a_wins > plain.a_wins
    else:  # a first round begun unhurt spends nothing
        assert odds.a_by_round[0] == pytest.approx(plain.a_by_round[0], abs=1e-12) and odds.a_wins != plain.a_wins
    stat, df = chi_square(fight, 100_000, seed=3)
    assert stat < chi2_critical(df), (stat, df)


def test_003_points_spent_run_out():
    base = fights.load_encounter(ROARK)["d6wild"].with_values({"b.0.attack": "5D", "b.0.damage": "5D"})
    one = fights.duel_odds(base.with_values({"character_point": "every_round", "a.0.character_points": 1}))
    plain = fights.duel_odds(base)
    # one point: the first round is Roark's with +1D, then the fight goes on as without
    assert one.a_by_round[0] > plain.a_by_round[0]
    policy_only = fights.duel_odds(base.with_values({"character_point": "every_round"}))
    assert policy_only.a_wins == plain.a_wins  # a policy without points changes nothing


# ---------------------------------------------------------------- text 004: the destiny pool

FACES = {  # the published faces (the rule README's table): (success, advantage, triumph)
    "ability": [(0, 0, 0), (1, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 1, 0), (1, 1, 0), (0, 2, 0)],
    "proficiency": [(0, 0, 0), (1, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 0),
                    (1, 1, 0), (0, 2, 0), (0, 2, 0), (1, 0, 1)],
    "difficulty": [(0, 0, 0), (-1, 0, 0), (-2, 0, 0), (0, -1, 0), (0, -1, 0), (0, -1, 0), (0, -2, 0), (-1, -1, 0)],
    "challenge": [(0, 0, 0), (-1, 0, 0), (-1, 0, 0), (-2, 0, 0), (-2, 0, 0), (0, -1, 0), (0, -1, 0), (-1, -1, 0),
                  (-1, -1, 0), (0, -2, 0), (0, -2, 0), (-1, 0, 0)],
}


@cache
def check(pool):
    """{(net successes, net advantage, triumphs): chance} of a pool of (kind, count) pairs, enumerated."""
    dice = [FACES[kind] for kind, count in pool for _ in range(count)]
    out = Counter()
    for faces in itertools.product(*dice):
        out[tuple(sum(f[i] for f in faces) for i in range(3))] += Fraction(1, np.prod([len(d) for d in dice]))
    return out


def brute_force_004(a, b, light, dark, policy, rounds=300):
    """P(a wins), P(b wins): a (a player) and b (a rival) each with one green die against one purple
    (short range), a destiny token spent by ``policy`` as the text says. ``a``, ``b``: (soak, threshold,
    damage)."""
    def attack(spender_light, tokens, bonus):
        light_, dark_ = tokens
        can = light_ > 0 if spender_light else dark_ > 0
        if policy == "never" or not can:
            pool, after = (("ability", 1), ("difficulty", 1)), tokens
        else:
            after = (light_ - 1, dark_ + 1) if spender_light else (light_ + 1, dark_ - 1)
            pool = (("proficiency", 1), ("difficulty", 1)) if bonus else (("ability", 1), ("challenge", 1))
        return check(pool), after

    init = check((("ability", 1),))
    a_first = sum(p * q for (sa, aa, _), p in init.items() for (sb, ab, _), q in init.items()
                  if (sa, aa) >= (sb, ab))  # a tie goes to the player character
    stats = (a, b)
    dist = {(0, 0, 0, light, dark): float(a_first), (1, 0, 0, light, dark): float(1 - a_first)}
    won = [0.0, 0.0]
    for _ in range(rounds):
        new = Counter()
        for (first, wa, wb, lt, dk), w in dist.items():
            branches = [((wa, wb), (lt, dk), w)]
            for who in (first, 1 - first):
                nxt = []
                for wounds, tokens, q in branches:
                    if wounds[who] > stats[who][1]:  # out before its turn
                        nxt.append((wounds, tokens, q))
                        continue
                    spender_light = (who == 0) if policy == "bonus" else (who == 1)
                    outcomes, after = attack(spender_light, tokens, policy == "bonus")
                    for (s, _adv, _t), p in outcomes.items():
                        cur = list(wounds)
                        if s >= 1:
                            target = stats[1 - who]
                            cur[1 - who] = min(cur[1 - who] + max(0, stats[who][2] + s - target[0]), target[1] + 1)
                        nxt.append((tuple(cur), after, q * float(p)))
                branches = nxt
            for (wa2, wb2), (lt2, dk2), q in branches:
                new[(first, wa2, wb2, lt2, dk2)] += q
        dist = {}
        for (first, wa, wb, lt, dk), w in new.items():
            if wb > b[1] and wa <= a[1]:
                won[0] += w
            elif wa > a[1]:
                won[1] += w
            else:
                dist[(first, wa, wb, lt, dk)] = w
        if sum(dist.values()) < 1e-14:
            break
    return won


def ffg_fight(a, b, light, dark, policy):
    def f(name, stats, player, kind):
        return {"name": name, "kind": kind, "characteristic": 1, "skill": 0, "soak": stats[0],
                "wound_threshold": stats[1], "damage": stats[2], "initiative": [1, 0], "player": player}

    return fights.load_encounter({"ffg": {"a": [f("A", a, True, "character")], "b": [f("B", b, False, "rival")],
                                          "range": "short", "destiny": policy, "light": light,
                                          "dark": dark}})["ffg"]


@pytest.mark.parametrize("policy, light, dark", [("never", 2, 1), ("bonus", 1, 0), ("bonus", 2, 1),
                                                 ("penalty", 1, 1), ("penalty", 0, 2)])
def test_004_destiny_policies_against_brute_force(policy, light, dark):
    a, b = (0, 4, 1), (1, 3, 2)
    odds = fights.duel_odds(ffg_fight(a, b, light, dark, policy))
    won = brute_force_004(a, b, light, dark, policy)
    assert odds.a_wins == pytest.approx(won[0], abs=1e-9)
    assert odds.b_wins == pytest.approx(won[1], abs=1e-9)


@pytest.mark.parametrize("changes", [{"destiny": "bonus", "light": 2, "dark": 1},
                                     {"destiny": "penalty", "light": 1, "dark": 3}, None])
def test_004_destiny_chain_agrees_with_the_simulation(changes):
    if changes is None:  # one token going back and forth for many rounds: every attack upgraded
        fight = ffg_fight((0, 8, 1), (1, 6, 2), 1, 0, "bonus")
    else:
        fight = fights.load_encounter(ROARK)["ffg"].with_values(changes)
    assert fights.duel_odds(fight).a_wins != fights.duel_odds(fight.with_values({"destiny": "never"})).a_wins
    stat, df = chi_square(fight, 100_000, seed=4)
    assert stat < chi2_critical(df), (stat, df)


def test_004_tokens_only_as_many_as_the_table_allows():
    fight = fights.load_encounter(ROARK)["ffg"]
    for bad in ({"light": -1}, {"dark": 11}, {"destiny": "hoard"}):
        with pytest.raises(de.DiceError, match=next(iter(bad))):
            fight.with_values(bad)
