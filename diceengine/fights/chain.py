"""Exact odds of a duel: the Markov chain over the combatants' health states, round by round.

The states reachable from the start are enumerated (at most :data:`MAX_STATES`, the work budget of
exact odds) with their one-round transitions (sparse); the distribution of states is carried round
by round until the fights that can still end hold less than the engine's truncation mass, which
gives the chance of each ending, the table of rounds and the mean length; a fight that can last
longer than :data:`MAX_ITERATIONS` rounds is solved from the absorbing-chain equations instead.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

import numpy as np

from ..errors import DiceLimitError, DiceValueError
from ..i18n import N_
from ..limits import TRUNCATION
from .encounter import Fight
from .outcome import FightOdds
from .rules import A_WINS, B_WINS, BOTH_DOWN, GOING

__all__ = ["MAX_ITERATIONS", "MAX_STATES", "Chain", "build_chain", "duel_odds"]

#: most states an exact duel may have (a dense transition matrix of this side)
MAX_STATES = 2_000
#: most rounds carried one by one before solving the absorbing-chain equations instead
MAX_ITERATIONS = 20_000


class Chain:
    """The transitions of a duel as sparse arrays: ``probs[k]`` is the chance of going from state
    ``rows[k]`` to state ``cols[k]`` in one round; finished states stay where they are."""

    def __init__(self, states: list[Hashable], start: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                 probs: np.ndarray, status: np.ndarray) -> None:
        self.states, self.start, self.status = states, start, status
        self.rows, self.cols, self.probs = rows, cols, probs

    @property
    def size(self) -> int:
        return len(self.states)

    def step(self, v: np.ndarray) -> np.ndarray:
        """The distribution of states one round after ``v``."""
        return np.bincount(self.cols, weights=v[self.rows] * self.probs, minlength=self.size)

    def dense(self) -> np.ndarray:
        matrix = np.zeros((self.size, self.size))
        np.add.at(matrix, (self.rows, self.cols), self.probs)
        return matrix

    def can_end(self) -> np.ndarray:
        """States from which a finished state can be reached."""
        reach = self.status != GOING
        while True:
            grown = reach.copy()
            grown[self.rows[reach[self.cols]]] = True
            if (grown == reach).all():
                return reach
            reach = grown


def build_chain(fight: Fight) -> Chain:
    """The chain of a one-against-one fight, over the states reachable from the start."""
    if not fight.one_against_one:
        raise DiceValueError(N_("exact odds are for one combatant a side (a minion group counts as one); "
                                "simulate the others"))
    duel = fight.rules.duel(fight.setup)
    start = duel.start()
    index: dict[Hashable, int] = {}
    states: list[Hashable] = []
    status: list[int] = []
    moves: list[tuple[int, Hashable, float]] = []
    todo = list(start)
    while todo:
        state = todo.pop()
        if state in index:
            continue
        i = index[state] = len(states)
        states.append(state)
        if len(states) > MAX_STATES:
            raise DiceLimitError(N_("too many health states for exact odds (more than {most}): simulate"), most=MAX_STATES)
        code = duel.status(state)
        status.append(code)
        if code != GOING:
            moves.append((i, state, 1.0))
            continue
        for s, p in duel.advance(state).items():
            moves.append((i, s, p))
            if s not in index:
                todo.append(s)
    rows = np.fromiter((m[0] for m in moves), dtype=np.int64, count=len(moves))
    cols = np.fromiter((index[m[1]] for m in moves), dtype=np.int64, count=len(moves))
    probs = np.fromiter((m[2] for m in moves), dtype=np.float64, count=len(moves))
    probs /= np.bincount(rows, weights=probs, minlength=len(states))[rows]  # truncated series: rows a hair under 1
    vector = np.zeros(len(states))
    for s, p in start.items():
        vector[index[s]] += p
    return Chain(states, vector / vector.sum(), rows, cols, probs, np.array(status, dtype=np.int8))


def _solve(chain: Chain) -> tuple[dict[int, float], float | None]:
    """The chance of each ending and the expected rounds, from the absorbing-chain equations (used
    when the fight can last too long for round-by-round iteration)."""
    matrix, vector, status = chain.dense(), chain.start, chain.status
    done = status != GOING
    going_idx = (~done).nonzero()[0]
    ends = chain.can_end()
    solvable = going_idx[ends[going_idx]]
    finals = {code: float(vector[status == code].sum()) for code in (A_WINS, B_WINS, BOTH_DOWN)}
    mean = None
    if len(solvable):
        q = matrix[np.ix_(solvable, solvable)]
        # x (I - Q) = start: the expected visits of each state still going
        visits = np.linalg.solve((np.eye(len(solvable)) - q).T, vector[solvable])
        for code in finals:
            finals[code] += float(visits @ matrix[np.ix_(solvable, (status == code).nonzero()[0])].sum(axis=1))
        if 1.0 - sum(finals.values()) < 1e-9:
            mean = float(visits.sum())
    return finals, mean


def duel_odds(fight: Fight, rounds: int | None = None) -> FightOdds:
    """The exact odds of a one-against-one fight: who wins, and the table of the first ``rounds`` rounds.

    The distribution of states is carried round by round until the fights that can still end hold
    less than :data:`~diceengine.limits.TRUNCATION` of the mass (at most :data:`MAX_ITERATIONS`
    rounds; past that the absorbing-chain equations are solved)."""
    began = time.perf_counter()
    horizon = rounds or fight.rounds
    chain = build_chain(fight)
    status = chain.status
    done = status != GOING
    live = ~done & chain.can_end()
    stuck = ~done & ~live
    a_mask, b_mask, both_mask = status == A_WINS, status == B_WINS, status == BOTH_DOWN
    ended, going, a_by, b_by = [], [], [], []
    v = chain.start.copy()
    prev_done = float(v[done].sum())
    expected = 1.0  # sum over t >= 0 of P(still going after t rounds)
    converged = False
    for t in range(1, MAX_ITERATIONS + 1):
        v = chain.step(v)
        now_done = float(v[done].sum())
        still = max(0.0, 1.0 - now_done)
        expected += still
        if t <= horizon:
            ended.append(max(0.0, now_done - prev_done))
            going.append(still)
            a_by.append(float(v[a_mask].sum()))
            b_by.append(float(v[b_mask].sum()))
        prev_done = now_done
        if float(v[live].sum()) < TRUNCATION / 10:
            converged = True
            if t >= horizon:
                break
    if converged:
        finals = {A_WINS: float(v[a_mask].sum()), B_WINS: float(v[b_mask].sum()),
                  BOTH_DOWN: float(v[both_mask].sum())}
        never = float(v[stuck].sum())
        mean_rounds = expected if never < 1e-9 else None
    else:
        finals, mean_rounds = _solve(chain)
        never = max(0.0, 1.0 - sum(finals.values()))
    a, b = fight.rules.roster(fight.setup)
    return FightOdds(system=fight.system, encounter=fight.name, sides=fight.sides, roster=(list(a), list(b)),
                     method="exact", a_wins=_p(finals[A_WINS]), b_wins=_p(finals[B_WINS]),
                     both_down=_p(finals[BOTH_DOWN]), unfinished=_p(never), mean_rounds=mean_rounds,
                     ended=ended, going=going, a_by_round=a_by, b_by_round=b_by, states=chain.size,
                     seconds=time.perf_counter() - began)


def _p(x: float) -> float:
    return min(1.0, max(0.0, x))
