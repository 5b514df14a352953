"""Plots of fights (the optional ``plot`` extra): rounds to the end, and each side's chance of having
won by each round, one line per ruleset."""

from __future__ import annotations

from collections.abc import Sequence

from ..plots import FIGSIZE, _pyplot, _save
from .outcome import FightOdds

__all__ = ["plot_fights"]


def plot_fights(results: Sequence[FightOdds], path: str) -> None:
    """Two panels: the chance the fight ends in each round, and the chance each side has won by each
    round (side a solid, side b dashed), for each ruleset."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(FIGSIZE[0] * 1.5, FIGSIZE[1]))
    for r in results:
        rounds = list(range(1, len(r.ended) + 1))
        label = f"{r.system} ({r.method})"
        line = left.plot(rounds, [100 * p for p in r.ended], marker="o", label=label)[0]
        right.plot(rounds, [100 * p for p in r.a_by_round], color=line.get_color(),
                   label=f"{r.system}: {r.sides[0]}")
        right.plot(rounds, [100 * p for p in r.b_by_round], color=line.get_color(), linestyle="--",
                   label=f"{r.system}: {r.sides[1]}")
    first = results[0] if results else None
    from matplotlib.ticker import MaxNLocator

    for ax in (left, right):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_xlabel("round")
    left.set_ylabel("chance the fight ends in this round (%)")
    left.legend(fontsize="small")
    right.set_xlabel("round")
    right.set_ylabel("chance of having won by this round (%)")
    right.set_ylim(0, 100)
    right.legend(fontsize="x-small")
    if first is not None:
        fig.suptitle(first.encounter)
    _save(fig, path)
