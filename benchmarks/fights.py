"""Benchmarks of the fights layer (``python -m benchmarks.fights``, also run by ``python -m benchmarks``).

- The vectorised simulation of a one-against-one D6 fight (Roark against a stormtrooper, text
  ``000``), in fight-rounds per second on one core, against a plain-Python loop playing the same
  fight with ``random.randint`` dice, measured in the same run (target: 1 million fight-rounds a
  second, 100x the loop).
- Exact duel odds of the example encounter in each ruleset with damage rules (target: 50 ms), on a
  setup never seen before (the caches of exact distributions are cleared first), after the engine
  has loaded its grammars, as an application would have.
"""

from __future__ import annotations

import pathlib
import random
import time

import numpy as np

from diceengine import fights
from diceengine.fights.simulate import simulate_counts

ROARK = pathlib.Path(__file__).parent.parent / "examples" / "roark.toml"
randint = random.randint


def _code(dice: int, pips: int, penalty: int) -> int | None:
    dice -= penalty
    if dice < 1:
        return None
    return sum([randint(1, 6) for _ in range(dice)]) + pips  # a list, as the floors of benchmarks/__main__ (faster)


def _result(damage: int, strength: int) -> int:
    if strength > damage:
        return 1
    if damage < 2 * strength:
        return 2
    if damage < 3 * strength:
        return 3
    return 4


def plain_python_fights(n: int, a: tuple, b: tuple, difficulty: int, a_player: bool) -> int:
    """The same fight, one at a time, as a plain-Python loop would play it; returns the fight-rounds played.
    ``a``/``b``: ((attack dice, pips), (strength dice, pips), (damage dice, pips))."""
    rounds = 0
    sides = (a, b)
    for _ in range(n):
        level = [0, 0]
        stun = [0, 0]
        while level[0] < 3 and level[1] < 3:
            rounds += 1
            x = [_code(s[0][0], s[0][1], stun[i] + (level[i] == 2)) for i, s in enumerate(sides)]
            while x[0] == x[1] and x[0] is not None and not a_player:
                x = [_code(s[0][0], s[0][1], stun[i] + (level[i] == 2)) for i, s in enumerate(sides)]
            xa, xb = (v if v is not None else -1 for v in x)
            order = (0, 1) if xa > xb or (xa == xb and a_player) else (1, 0)
            hit = [0, 0]
            for i in order:
                xi = x[i]
                if xi is None or hit[i] >= 2 or xi < difficulty:
                    continue
                j = 1 - i
                dmg = _code(sides[i][2][0], sides[i][2][1], 0)
                st = _code(sides[j][1][0], sides[j][1][1], 0)
                hit[j] = _result(dmg, st)  # type: ignore[arg-type]
            for j in (0, 1):
                r = hit[j]
                stun[j] = int(r == 1)
                if r == 2:
                    level[j] = 3 if level[j] == 2 else 2
                elif r >= 3:
                    level[j] = 3
    return rounds


def bench_simulation(n: int = 1_000_000) -> tuple[float, float]:
    """``(engine fight-rounds a second, plain-Python fight-rounds a second)``."""
    fight = fights.load_encounter(ROARK)["d6"]
    gen = np.random.default_rng(1)
    simulate_counts(fight, 10_000, gen, 1000)
    best_engine = 0.0
    for _ in range(3):
        began = time.perf_counter()
        _, played = simulate_counts(fight, n, gen, 1000)
        best_engine = max(best_engine, played / (time.perf_counter() - began))
    s = fight.setup
    fa, fb = s.a[0], s.b[0]

    def spec(f: object) -> tuple:
        return tuple((c.dice, c.pips) for c in (f.attack, f.strength + f.armour, f.damage))  # type: ignore[attr-defined]

    best_floor = 0.0
    for _ in range(3):
        began = time.perf_counter()
        played = plain_python_fights(20_000, spec(fa), spec(fb), s.difficulty, fa.player)
        best_floor = max(best_floor, played / (time.perf_counter() - began))
    return best_engine, best_floor


def bench_exact() -> list[tuple[str, float, int]]:
    """``(ruleset, milliseconds, states)`` of the exact duel of the example encounter, fresh caches (best of 5)."""
    from diceengine.systems.d6 import fight as d6_fight
    from diceengine.systems.d6wild import fight as d6wild_fight
    from diceengine.systems.ffg import fight as ffg_fight

    enc = fights.load_encounter(ROARK)
    for system in enc.systems:  # the engine has parsed its grammars once, as an application has
        fights.duel_odds(enc[system])
    rows = []
    for system in enc.systems:
        best = float("inf")
        for _ in range(5):  # the best of five, each from fresh caches (the machine's noise only adds)
            for cache in (d6_fight._pmf, d6_fight.result_chances, d6wild_fight._pmf, d6wild_fight._wild_die,
                          d6wild_fight._die, d6wild_fight.band_chances,
                          d6wild_fight.after_band,
                          ffg_fight.attack_outcomes):
                cache.cache_clear()
            began = time.perf_counter()
            odds = fights.duel_odds(enc[system])
            best = min(best, time.perf_counter() - began)
        rows.append((system, 1000 * best, odds.states or 0))
    return rows


def run() -> list[str]:
    engine, floor = bench_simulation()
    lines = ["fights: 1v1 D6 simulation (Roark against a stormtrooper), fight-rounds a second on one core",
             (f"  engine {engine / 1e6:5.2f} M/s   plain-Python loop {floor / 1e3:6.1f} k/s   "
              f"ratio {engine / floor:5.0f}x   (target >= 1 M/s, 100x)")]
    lines.append("fights: exact duel odds, fresh caches (target < 50 ms)")
    for system, ms, states in bench_exact():
        lines.append(f"  {system:<7} {ms:6.1f} ms  {states:4d} states")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
