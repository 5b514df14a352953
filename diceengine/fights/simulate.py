"""Vectorised simulation: whole arrays of fights advanced round by round, finished fights dropped.

The ruleset's :class:`~diceengine.fights.rules.Battle` plays one round of every fight it holds with
numpy; this driver loops over rounds (never over fights), records who won each fight and when, and
runs large counts in chunks of bounded memory, each chunk with its own stream of the seed.
"""

from __future__ import annotations

import time

import numpy as np

from ..errors import DiceError, DiceLimitError
from ..i18n import N_
from ..limits import MAX_SAMPLE
from ..rng import Seed, numpy_rng
from .encounter import MAX_ROUNDS, Fight
from .outcome import FightOdds
from .rules import A_WINS, B_WINS, BOTH_DOWN, GOING

__all__ = ["CHUNK", "simulate", "simulate_counts"]

#: fights held in memory at once
CHUNK = 1 << 20


def simulate_counts(fight: Fight, n: int, gen: np.random.Generator, max_rounds: int) -> tuple[np.ndarray, int]:
    """``(counts, fight-rounds played)``: ``counts[status, t]`` fights that ended with ``status`` in round
    ``t`` (``t = max_rounds + 1``: still going after the last round)."""
    counts = np.zeros((4, max_rounds + 2), dtype=np.int64)
    played = 0
    for start in range(0, n, CHUNK):
        size = min(CHUNK, n - start)
        battle = fight.rules.battle(fight.setup, size, gen)
        for t in range(1, max_rounds + 1):
            if battle.size == 0:
                break
            played += battle.size
            battle.step(gen)
            status = battle.status()
            going = status == GOING
            if np.count_nonzero(going) < battle.size:
                for ended in (A_WINS, B_WINS, BOTH_DOWN):
                    counts[ended, t] += np.count_nonzero(status == ended)
                battle.keep(going)
        counts[GOING, max_rounds + 1] += battle.size
    return counts, played


def odds_from_counts(fight: Fight, counts: np.ndarray, n: int, played: int, horizon: int,
                     seconds: float | None = None) -> FightOdds:
    """The simulated :class:`FightOdds` of ``counts`` (see :func:`simulate_counts`)."""
    total = max(n, 1)
    per_round = counts[1:, 1:-1].sum(axis=0)
    ended = (per_round / total).tolist()
    cumulative = np.cumsum(per_round) / total
    going = (1.0 - cumulative).tolist()
    a_by = (np.cumsum(counts[A_WINS, 1:-1]) / total).tolist()
    b_by = (np.cumsum(counts[B_WINS, 1:-1]) / total).tolist()
    finished = int(per_round.sum())
    rounds = np.arange(1, len(per_round) + 1)
    mean = float((rounds * per_round).sum() / finished) if finished else None
    a, b = fight.rules.roster(fight.setup)
    return FightOdds(system=fight.system, encounter=fight.name, sides=fight.sides, roster=(list(a), list(b)),
                     method="simulated", fights=n, a_wins=counts[A_WINS].sum() / total,
                     b_wins=counts[B_WINS].sum() / total, both_down=counts[BOTH_DOWN].sum() / total,
                     unfinished=counts[GOING].sum() / total, mean_rounds=mean, ended=ended[:horizon],
                     going=going[:horizon], a_by_round=a_by[:horizon], b_by_round=b_by[:horizon],
                     fight_rounds=played, seconds=seconds)


def check_count(n: object) -> int:
    """``n`` as a number of fights, or the engine's error."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise DiceError(N_("the number of fights must be a positive integer, not {n!r}"), n=n)
    if n > MAX_SAMPLE:
        raise DiceLimitError(N_("too many fights in one run: {n} (at most {most})"), n=n, most=MAX_SAMPLE)
    return n


def check_rounds(rounds: object) -> int:
    """``rounds`` as a number of rounds, or the engine's error."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise DiceError(N_("rounds must be an integer from 1 to {most}, not {rounds!r}"), most=MAX_ROUNDS, rounds=rounds)
    return rounds


def simulate(fight: Fight, n: int = 100_000, seed: Seed = None, max_rounds: int = 1000,
             rounds: int | None = None) -> FightOdds:
    """Simulate ``n`` fights (vectorised, seeded); each runs at most ``max_rounds`` rounds, and the
    table keeps the first ``rounds`` (default: the encounter's)."""
    n = check_count(n)
    max_rounds = check_rounds(max_rounds)
    horizon = check_rounds(rounds or fight.rounds)
    gen = numpy_rng(seed)
    began = time.perf_counter()
    counts, played = simulate_counts(fight, n, gen, max(max_rounds, horizon))
    return odds_from_counts(fight, counts, n, played, horizon, time.perf_counter() - began)
