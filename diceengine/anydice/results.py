"""A program's outputs as the engine's exact distributions (:class:`~diceengine.distributions.Distribution`),
and their views as text: AnyDice's "normal", "at least" and "at most" tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diceengine.lazy import np
from diceengine.records import NamedTuple

if TYPE_CHECKING:
    from diceengine.distributions import Distribution

    from .interpreter import Output

__all__ = ["VIEWS", "AnyDiceOutcome", "at_most", "distribution_of", "table", "to_json"]

#: AnyDice's views of an output: the chance of each value, of at least it, of at most it
VIEWS = ("normal", "at least", "at most")


class AnyDiceOutcome(NamedTuple):
    """One outcome of an AnyDice output: its value."""

    total: int


def distribution_of(output: Output) -> Distribution:
    """The output as a distribution of one field, ``total`` (no rows where AnyDice shows nothing); its
    ``expression`` is the output's label, its ``truncated`` the mass AnyDice's answer lacks."""
    from diceengine.distributions import Distribution

    items = output.die.items() if output.die is not None else []
    items = [(v, p) for v, p in items if p > 0]
    values = np.array([v for v, _ in items], dtype=np.int64)
    probabilities = np.array([p for _, p in items], dtype=np.float64)
    truncated = output.die.truncated if output.die is not None else 0.0
    return Distribution(AnyDiceOutcome, {"total": values}, probabilities, truncated, system="anydice",
                        expression=output.label)


def at_most(dist: Distribution, threshold: int) -> float:
    """The chance that the output is at most ``threshold``."""
    return dist._mass(dist.column("total") <= threshold)


def _percent(p: float) -> str:
    return f"{100 * p:.2f}"


def table(dist: Distribution, view: str = "normal", width: int = 40) -> list[str]:
    """The rows of one view of ``dist``: value, percentage, bar."""
    marginal = dist.marginal()
    if view == "normal":
        shown = marginal
    elif view == "at least":
        shown = {v: dist.at_least(v) for v in marginal}
    else:
        shown = {v: at_most(dist, v) for v in marginal}
    top = max(shown.values(), default=1.0) or 1.0
    vw = max((len(str(v)) for v in shown), default=1)
    return [f"{v!s:>{vw}}  {_percent(p):>6}  {'#' * round(width * p / top)}" for v, p in shown.items()]


def to_json(dist: Distribution) -> dict[str, Any]:
    """The output as JSON: its label, mean, standard deviation, and value -> probability in each view."""
    marginal = dist.marginal()
    empty = not marginal
    return {
        "label": dist.expression,
        "mean": None if empty else dist.mean(),
        "stdev": None if empty else dist.stdev(),
        "truncated": dist.truncated,
        "normal": [[v, p] for v, p in marginal.items()],
        "at least": [[v, dist.at_least(v)] for v in marginal],
        "at most": [[v, at_most(dist, v)] for v in marginal],
    }
