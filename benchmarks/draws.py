"""The die algebra rolled and sampled (issue 33), as ratios from one run.

- The D6 Wild Die's complication "remove the highest" (``complication="remove_highest"``), which reads the
  algebra's keep (``PoolRoll`` / ``PoolSample``), against the same code under ``"flag"`` (the same draws, no die
  removed): one roll through ``de.roll``, the model's roll alone with every roll a complication, and a sample.
- ``Die.sample`` and ``Pool.sample`` with a keep against the hand-written numpy draws of the same dice (the floor).

``python -m benchmarks.draws``. Timings on a shared machine are indicative; compare a tree with another by running
this file under each, one after the other.
"""

from __future__ import annotations

import random

import numpy as np
from diceengine.systems.d6.codes import Code
from diceengine.systems.d6wild.dice import WildDice

import diceengine as de
from benchmarks.timing import best
from diceengine.algebra import Die, Pool

N = 1_000_000


def _wild_rows() -> list[tuple[str, float, float]]:
    rows = []
    for expr, dice in (("4D", 4), ("8D+2", 8)):
        times = {}
        for complication in ("remove_highest", "flag"):
            r = random.Random(1)
            de.roll(expr, "d6wild", seed=r, complication=complication)
            times[complication] = best(lambda e=expr, c=complication, r=r: de.roll(e, "d6wild", seed=r,
                                                                               complication=c), 5000)
        rows.append((f"de.roll {expr} d6wild", times["remove_highest"], times["flag"]))
        draws = [random.Random(k).random() for k in range(dice - 1)] + [0.01]  # the Wild Die's first throw a 1
        code = Code(dice, 2 if "+" in expr else 0)
        for complication in ("remove_highest", "flag"):
            model = WildDice(complication=complication)
            times[complication] = best(lambda m=model, c=code, d=draws: m.roll(c, iter(d).__next__), 5000)
        rows.append((f"model roll {expr}, a complication", times["remove_highest"], times["flag"]))
        for complication in ("remove_highest", "flag"):
            times[complication] = best(lambda e=expr, c=complication: de.sample(e, N, "d6wild", seed=1,
                                                                                complication=c), 1, 3)
        rows.append((f"de.sample {expr} d6wild, {N:,}", times["remove_highest"], times["flag"]))
    return rows


def _algebra_rows() -> list[tuple[str, float, float]]:
    d6 = Die.uniform(6)
    pool = Pool.of(d6, 4)

    def floor_die() -> object:
        return np.random.default_rng(1).integers(1, 7, size=N)

    def floor_keep() -> object:
        faces = np.random.default_rng(1).integers(1, 7, size=(N, 4))
        return faces.sum(axis=1) - faces.min(axis=1)

    return [
        (f"Die.uniform(6).sample({N:,})", best(lambda: d6.sample(N, 1), 1, 5), best(floor_die, 1, 5)),
        (f"Pool.of(d6, 4).sample({N:,}).highest(3).total", best(lambda: pool.sample(N, 1).highest(3).total, 1, 5),
         best(floor_keep, 1, 5)),
    ]


def main() -> None:
    print(f"{'row':48s} {'this':>12s} {'against':>12s} {'ratio':>7s}")
    print("remove_highest against flag (the same code and draws):")
    for name, this, against in _wild_rows():
        print(f"{name:48s} {this * 1e6:10.2f}us {against * 1e6:10.2f}us {this / against:7.3f}")
    print("the algebra against numpy's own draws:")
    for name, this, against in _algebra_rows():
        print(f"{name:48s} {this * 1e3:10.2f}ms {against * 1e3:10.2f}ms {this / against:7.3f}")


if __name__ == "__main__":
    main()
