"""Exact probability mass functions over the integers: :class:`PMF` (numpy arrays with an offset), their sums, the
order statistics of independent dice (keep / drop, windows, rules by rank) and what each costs.

The names are defined in :mod:`diceengine.pmf_core` (the mass functions, their sums, the work counter),
:mod:`diceengine.pmf_keep` (the order statistics) and :mod:`diceengine.pmf_rank` (the die of one rank); this module
is where callers read them.
"""

from __future__ import annotations

from .pmf_core import (
    MAX_SUPPORT,
    PMF,
    WORK,
    _check_support,  # noqa: F401  (evaluate.base and evaluate.arith read it here)
    convolve,
    convolve_cost,
    power_cost,
)
from .pmf_keep import (
    RankStep,
    keep_dp,
    keep_dp_cost,
    keep_sum,
    keep_sum_cost,
    keep_window,
    kept_scores,
    kept_scores_cost,
    rank_dp,
    rank_dp_cost,
    window_sum,
    window_sum_cost,
)
from .pmf_rank import ranked_die, ranked_die_cost

__all__ = [
    "MAX_SUPPORT",
    "PMF",
    "WORK",
    "RankStep",
    "convolve",
    "convolve_cost",
    "keep_dp",
    "keep_dp_cost",
    "keep_sum",
    "keep_sum_cost",
    "keep_window",
    "kept_scores",
    "kept_scores_cost",
    "power_cost",
    "rank_dp",
    "rank_dp_cost",
    "ranked_die",
    "ranked_die_cost",
    "window_sum",
    "window_sum_cost",
]
