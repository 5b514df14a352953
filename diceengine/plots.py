"""Plots of distributions, comparisons and ladders (the optional ``plot`` extra: matplotlib)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import DiceError
from .i18n import N_

__all__ = ["DPI", "FIGSIZE", "plot_compare", "plot_ladder", "plot_odds"]

FIGSIZE = (8.0, 5.0)
DPI = 100


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise DiceError(N_("plots need matplotlib: pip install 'diceengine[plot]'")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str) -> None:
    try:
        fig.savefig(path, dpi=DPI)
    except OSError as err:
        raise DiceError(N_("cannot write {path}: {err}"), path=path, err=str(err)) from None
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def plot_odds(dist: Any, fields: Sequence[str], path: str, title: str = "") -> None:
    """Bar charts of the exact distribution of each field."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(fields), figsize=FIGSIZE, squeeze=False)
    for ax, name in zip(axes[0], fields):
        marginal = dist.marginal(name)
        ax.bar([float(v) for v in marginal], list(marginal.values()), color="#3a6ea5")
        ax.set_xlabel(name)
        ax.set_ylabel("probability")
    fig.suptitle(title)
    _save(fig, path)


def plot_compare(profiles: Sequence[Any], path: str) -> None:
    """The main field of each check, as lines on one chart, with its chance of success in the legend."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for p in profiles:
        label = f"{p.system}: {p.expression}" + (f" ({100 * p.success:.1f}%)" if p.success is not None else "")
        ax.plot([float(v) for v in p.histogram], list(p.histogram.values()), marker="o", label=label)
    ax.set_xlabel("margin / net successes")
    ax.set_ylabel("probability")
    ax.legend(fontsize="small")
    _save(fig, path)


def plot_ladder(system: str, names: Sequence[str], rows: Sequence[tuple[str, Sequence[float]]], path: str) -> None:
    """Chance of success of each character against each difficulty."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for label, chances in rows:
        ax.plot(list(names), [100 * c for c in chances], marker="o", label=label)
    ax.set_ylabel("chance of success (%)")
    ax.set_title(f"{system}: difficulty ladder")
    ax.legend(fontsize="x-small")
    _save(fig, path)
