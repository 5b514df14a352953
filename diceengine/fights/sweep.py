"""Sweeps: one fight simulated over a grid of parameters, locally on every core or on a Dask cluster.

Each cell of the grid is the fight with some fields set by dotted path (``"a.0.attack"``,
``"range"``), simulated with its own random stream: stream ``i`` of the seed
(``numpy.random.SeedSequence(seed, spawn_key=(i,))``). A cell's numbers therefore depend only on the
seed and its place in the grid, never on where or in which order it ran: a sweep on a Dask cluster
gives the same numbers as the local run with the same seed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

from ..errors import DiceError, DiceValueError
from ..i18n import N_
from .encounter import Fight, fight_rules, validate_setup
from .rules import A_WINS, B_WINS, BOTH_DOWN, GOING
from .simulate import check_count, check_rounds, simulate_counts

__all__ = ["MAX_CELLS", "SweepRow", "grid_cells", "parse_grid", "run_cell", "sweep"]

#: most cells in one sweep
MAX_CELLS = 10_000


class SweepRow(BaseModel):
    """One cell of a sweep: the values set and how the fights went."""

    values: dict[str, Any]
    fights: int
    a_wins: float
    b_wins: float
    both_down: float
    unfinished: float
    mean_rounds: float | None
    fight_rounds: int


def _value(text: str) -> Any:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        low = text.lower()
        if low in ("true", "false"):
            return low == "true"
        return text


def parse_grid(specs: Sequence[str]) -> dict[str, list[Any]]:
    """``["a.0.attack=3D,4D", "range=short,medium"]`` -> ``{"a.0.attack": ["3D", "4D"], ...}``."""
    grid: dict[str, list[Any]] = {}
    for spec in specs:
        path, sep, values = spec.partition("=")
        if not sep or not path.strip() or not values.strip():
            raise DiceValueError(N_("a grid axis is written path=value,value,... (a.0.attack=3D,4D), not {spec!r}"), spec=spec)
        grid[path.strip()] = [_value(v) for v in values.split(",") if v.strip()]
    return grid


def grid_cells(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values, the last axis varying fastest."""
    axes = list(grid)
    cells = [dict(zip(axes, combo)) for combo in itertools.product(*(grid[a] for a in axes))]
    if len(cells) > MAX_CELLS:
        raise DiceValueError(N_("too many cells in the sweep: {cells} (at most {most})"), cells=len(cells), most=MAX_CELLS)
    return cells


def run_cell(system: str, data: Mapping[str, Any], values: Mapping[str, Any], fights: int, entropy: int,
             index: int, max_rounds: int) -> tuple[np.ndarray, int]:
    """Simulate one cell: ``(counts, fight-rounds)`` (runs in a worker process: plain data in and out)."""
    rules = fight_rules(system)
    fight = Fight(system, rules, validate_setup(rules, data, system), data).with_values(values)
    gen = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))
    return simulate_counts(fight, fights, gen, max_rounds)


def _row(values: dict[str, Any], counts: np.ndarray, played: int, fights: int) -> SweepRow:
    per_round = counts[1:, 1:-1].sum(axis=0)
    finished = int(per_round.sum())
    mean = float((np.arange(1, len(per_round) + 1) * per_round).sum() / finished) if finished else None
    return SweepRow(values=values, fights=fights, a_wins=counts[A_WINS].sum() / fights,
                    b_wins=counts[B_WINS].sum() / fights, both_down=counts[BOTH_DOWN].sum() / fights,
                    unfinished=counts[GOING].sum() / fights, mean_rounds=mean, fight_rounds=played)


def _client(dask: Any) -> Any:
    if not isinstance(dask, str):
        return dask
    try:
        from distributed import Client
    except ImportError:
        raise DiceError(N_("sweeps on Dask need dask: pip install 'diceengine[dask]'")) from None
    try:
        return Client(dask, timeout="10s")
    except (OSError, TimeoutError) as err:
        raise DiceError(N_("cannot reach the Dask scheduler {address}: {reason}"), address=dask, reason=str(err)) from None


def sweep(fight: Fight, grid: Mapping[str, Sequence[Any]], fights: int = 100_000, seed: int = 0,
          dask: Any = None, workers: int | None = None, max_rounds: int = 1000) -> list[SweepRow]:
    """Simulate ``fights`` fights in every cell of ``grid`` (path -> values).

    ``dask``: a ``dask.distributed.Client`` or a scheduler address (``"tcp://host:8786"``) to run the
    cells on; otherwise they run in local processes (``workers``, default: every core; ``1``: in this
    process), which end if this process dies (:func:`diceengine.orphans.end_with_parent`)."""
    check_count(fights)
    check_rounds(max_rounds)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise DiceError(N_("a sweep's seed is a non-negative integer, not {seed!r}"), seed=seed)
    cells = grid_cells(grid)
    for values in cells:  # a bad path or value is reported before any work is sent out
        fight.with_values(values)
    data = dict(fight.data)
    args = [(fight.system, data, values, fights, seed, i, max_rounds) for i, values in enumerate(cells)]
    if dask is not None:
        client = _client(dask)
        futures = client.map(run_cell, *zip(*args), pure=False)
        results = client.gather(futures)
        if isinstance(dask, str):
            client.close()
    else:
        count = workers or os.cpu_count() or 1
        if count <= 1 or len(cells) == 1:
            results = [run_cell(*a) for a in args]
        else:
            from concurrent.futures import ProcessPoolExecutor

            from ..orphans import end_with_parent

            # the workers end with this process, even killed (SIGKILL): no orphan left computing
            with ProcessPoolExecutor(max_workers=min(count, len(cells)), initializer=end_with_parent,
                                     initargs=(os.getpid(),)) as pool:
                results = list(pool.map(run_cell, *zip(*args)))
    return [_row(values, counts, played, fights) for values, (counts, played) in zip(cells, results)]
