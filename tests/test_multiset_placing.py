"""The two placings of ranked dice held together: the multiset evaluation over numpy arrays
(:func:`diceengine.algebra.multiset.evaluate`, what AnyDice-style evaluators, ``mt`` / ``even`` / ``odd`` and the
RISK problem read) and the pool's placing (:func:`diceengine.algebra.pool.kept_total`, what keep / drop of mixed
dice and the pooled keep read) answer the same weighted sum of ranks on generated pools, both against every roll
enumerated here. The array form stays beside the placing for its speed (a placing entry by entry in Python was
5x-260x slower on ``6d6mt`` / RISK, session 38's report); this test is what keeps them one definition."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from diceengine.algebra import Die, Evaluator, Pool, evaluate
from diceengine.algebra.pool import kept_total

D4, D6 = Die.uniform(4), Die.uniform(6)
LOADED = Die.from_weights({1: 1, 2: 3, 5: 2})  # uneven chances, a gap in its faces
SIGNED = Die.of([-1, 0, 0, 2])
KINDS = [D4, D6, LOADED, SIGNED, Die.of([3, 3, 7])]


class WeightedRanks(Evaluator):
    """The sum of each die times the weight of its rank (``weights[0]`` for the first in ``order``), offset so
    that the states start at 0 (weights at least 0)."""

    def __init__(self, weights: list[int], order: str, low: int, high: int) -> None:
        self.weights, self.order, self.low, self.high = weights, order, low, high

    def size(self, sizes: tuple[int, ...]) -> int:
        return sum(self.weights) * (self.high - self.low) + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: tuple[np.ndarray, ...],
                   counts: tuple[np.ndarray, ...]) -> np.ndarray:
        taken = sum(w * ((seen[0] <= r) & (r < seen[0] + counts[0])).astype(np.int64)
                    for r, w in enumerate(self.weights))
        return state + taken * (outcome - self.low)

    def final(self, state: np.ndarray) -> np.ndarray:
        return state + sum(self.weights) * self.low


def _enumerated(dice: list[Die], weights: list[int], highest: bool) -> dict[int, float]:
    """Every roll of ``dice``: sorted, each die times its rank's weight."""
    out: dict[int, float] = {}
    for roll in itertools.product(*[d.items() for d in dice]):
        ranked = sorted((v for v, _ in roll), reverse=highest)
        total = sum(w * v for w, v in zip(weights, ranked, strict=True))
        out[total] = out.get(total, 0.0) + float(np.prod([p for _, p in roll]))
    return out


def _cases() -> list[tuple[list[Die], list[int], bool]]:
    """Pools of two to five dice of mixed kinds with rank weights of 0 to 2 (fixed seed: the same cases each run)."""
    gen = random.Random(38)
    cases = []
    for _ in range(60):
        dice = [gen.choice(KINDS) for _ in range(gen.randint(2, 5))]
        cases.append((dice, [gen.choice([0, 0, 1, 1, 2]) for _ in dice], gen.random() < 0.5))
    return cases


@pytest.mark.parametrize(("dice", "weights", "highest"), _cases())
def test_the_array_evaluation_and_the_pools_placing_agree(dice: list[Die], weights: list[int], highest: bool) -> None:
    want = _enumerated(dice, weights, highest)
    low, high = min(d.min() for d in dice), max(d.max() for d in dice)
    arrays = evaluate(WeightedRanks(weights, "highest" if highest else "lowest", low, high), Pool(dice))
    placed = kept_total(Pool(dice).groups, weights, highest)
    for die in (arrays, placed):
        assert set(die.outcomes()) == {v for v, p in want.items() if p > 0}
        for v, p in want.items():
            assert die.probability(v) == pytest.approx(p, abs=1e-12)
