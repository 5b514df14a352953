"""Exact odds of a duel: the Markov chain over the combatants' health states, round by round.

The states reachable from the start are enumerated (at most :data:`MAX_STATES`, the work budget of
exact odds); the chances of each ending come from the absorbing-chain equations, the table of
rounds from the distribution of states after each round.
"""

from __future__ import annotations

import time
from typing import Hashable

import numpy as np

from ..errors import DiceLimitError, DiceValueError
from ..limits import TRUNCATION
from .encounter import Fight
from .outcome import FightOdds
from .rules import A_WINS, B_WINS, BOTH_DOWN, GOING

__all__ = ["duel_odds", "build_chain", "MAX_STATES"]

#: most states an exact duel may have (a dense transition matrix of this side)
MAX_STATES = 2_000


def build_chain(fight: Fight) -> tuple[list[Hashable], np.ndarray, np.ndarray, np.ndarray]:
    """``(states, start vector, transition matrix, status of each state)`` of a one-against-one fight;
    finished states are absorbing (they stay where they are)."""
    if not fight.one_against_one:
        raise DiceValueError("exact odds are for one combatant a side (a minion group counts as one); "
                             "simulate the others")
    duel = fight.rules.duel(fight.setup)
    start = duel.start()
    index: dict[Hashable, int] = {}
    states: list[Hashable] = []
    moves: list[tuple[int, dict[Hashable, float]]] = []
    todo = list(start)
    while todo:
        state = todo.pop()
        if state in index:
            continue
        index[state] = len(states)
        states.append(state)
        if len(states) > MAX_STATES:
            raise DiceLimitError(f"too many health states for exact odds (more than {MAX_STATES}): simulate")
        if duel.status(state) == GOING:
            after = dict(duel.advance(state))
            moves.append((index[state], after))
            todo.extend(s for s in after if s not in index)
    size = len(states)
    matrix = np.zeros((size, size))
    status = np.array([duel.status(s) for s in states], dtype=np.int8)
    for i, after in moves:
        for s, p in after.items():
            matrix[i, index[s]] += p
    done = status != GOING
    matrix[done, done.nonzero()[0]] = 1.0
    rows = matrix.sum(axis=1, keepdims=True)
    matrix /= rows  # truncated explosion series leave rows a hair under 1
    vector = np.zeros(size)
    for s, p in start.items():
        vector[index[s]] += p
    return states, vector / vector.sum(), matrix, status


def _can_end(matrix: np.ndarray, done: np.ndarray) -> np.ndarray:
    """States from which some finished state can be reached."""
    reach = done.copy()
    linked = matrix > 0
    while True:
        grown = reach | (linked[:, reach].any(axis=1))
        if (grown == reach).all():
            return reach
        reach = grown


def duel_odds(fight: Fight, rounds: int | None = None) -> FightOdds:
    """The exact odds of a one-against-one fight: who wins, and the table of the first ``rounds`` rounds."""
    began = time.perf_counter()
    horizon = rounds or fight.rounds
    states, vector, matrix, status = build_chain(fight)
    done = status != GOING
    going_idx = (~done).nonzero()[0]
    ends = _can_end(matrix, done)
    solvable = going_idx[ends[going_idx]]
    finals = {code: 0.0 for code in (A_WINS, B_WINS, BOTH_DOWN)}
    for code in finals:
        finals[code] = float(vector[status == code].sum())
    mean_rounds = None
    if len(solvable):
        q = matrix[np.ix_(solvable, solvable)]
        system = np.eye(len(solvable)) - q
        absorb = np.stack([matrix[np.ix_(solvable, (status == code).nonzero()[0])].sum(axis=1)
                           for code in finals], axis=1)
        solved = np.linalg.solve(system, np.concatenate([absorb, np.ones((len(solvable), 1))], axis=1))
        start = vector[solvable]
        for k, code in enumerate(finals):
            finals[code] += float(start @ solved[:, k])
        never = 1.0 - sum(finals.values())
        if never < 1e-9:
            # expected rounds: one per round spent in a state still going
            mean_rounds = float(start @ solved[:, -1])
    never = max(0.0, 1.0 - sum(finals.values()))
    ended, going, a_by, b_by = [], [], [], []
    v = vector.copy()
    a_mask, b_mask = status == A_WINS, status == B_WINS
    prev_done = float(v[done].sum())
    for _ in range(horizon):
        v = v @ matrix
        now_done = float(v[done].sum())
        ended.append(max(0.0, now_done - prev_done))
        going.append(max(0.0, 1.0 - now_done))
        a_by.append(float(v[a_mask].sum()))
        b_by.append(float(v[b_mask].sum()))
        prev_done = now_done
        if going[-1] < TRUNCATION and never < TRUNCATION:
            break
    a, b = fight.rules.roster(fight.setup)
    return FightOdds(system=fight.system, encounter=fight.name, sides=fight.sides, roster=(list(a), list(b)),
                     method="exact", a_wins=_p(finals[A_WINS]), b_wins=_p(finals[B_WINS]),
                     both_down=_p(finals[BOTH_DOWN]), unfinished=_p(never), mean_rounds=mean_rounds,
                     ended=ended, going=going, a_by_round=a_by, b_by_round=b_by, states=len(states),
                     seconds=time.perf_counter() - began)


def _p(x: float) -> float:
    return min(1.0, max(0.0, x))
