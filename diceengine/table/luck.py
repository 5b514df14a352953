"""Luck and fairness, exactly: each roll of the log against the exact odds of its expression.

- :func:`roll_odds`: where one outcome fell in its expression's exact distribution (:class:`Odds`).
- :func:`fairness`: a chi-square (or G) test of the observed outcomes of the log (all of it, one member's,
  one expression's) against their exact odds: rolls are grouped by expression, each group's outcomes binned
  so that every bin expects at least :data:`MIN_EXPECTED` rolls, and the groups' statistics and degrees of
  freedom added up. ``p_value`` is the chance that fair dice stray at least that far.
- :func:`luck`: each member's mean percentile (0.5 on average for fair dice: above, luckier than the odds),
  over the rolls placed by a score (:data:`SCORE_FIELDS`, where more is better); a roll of Force dice alone
  is no check and no luck (its odds place its light side points, which the fairness test counts).

Every roll thrown counts, a re-rolled or undone one too (the dice were thrown; leaving out the rolls a player
chose to re-roll would bias the test); a secret roll counts only for a reader who may see it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from diceengine.errors import DiceError
from diceengine.i18n import N_

from .model import Entry, Odds, Table

__all__ = ["MIN_EXPECTED", "Fairness", "GroupFit", "Luck", "chi2_sf", "fairness", "luck", "roll_odds"]

#: the fewest rolls a bin of the fairness test expects (smaller bins join their neighbour)
MIN_EXPECTED = 5.0
#: the fields an outcome is ranked by, first found first (else its first numeric field)
SCORE_FIELDS = ("total", "successes", "success")
#: the boolean fields that say whether a check succeeded
CHANCE_FIELDS = ("success", "succeeded")


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom: the regularised upper incomplete
    gamma function Q(dof / 2, statistic / 2) (a series below a + 1, a continued fraction above)."""
    if dof <= 0:
        return 1.0
    if not statistic > 0:
        return 1.0
    if math.isinf(statistic):
        return 0.0
    a, x = dof / 2.0, statistic / 2.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1.0
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, min(1.0, 1.0 - total * math.exp(log_front)))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return max(0.0, min(1.0, h * math.exp(log_front)))


class _Marginal:
    """The exact odds of one expression reduced to what the table needs: the sorted values of its score field
    with their probabilities, and its chance of success."""

    __slots__ = ("chance", "field", "probabilities", "values")

    def __init__(self, field: str, values: np.ndarray, probabilities: np.ndarray, chance: float | None) -> None:
        self.field, self.values, self.probabilities, self.chance = field, values, probabilities, chance


def _varies(column: np.ndarray) -> bool:
    return len(column) > 1 and bool((column != column[0]).any())


def _score_field(columns: Mapping[str, np.ndarray]) -> str | None:
    """The field a roll is placed by: the first of :data:`SCORE_FIELDS` whose value can vary, else the first
    numeric field that can (a lone Force die: its light side points), else the first of them at all."""
    numeric = [name for name in SCORE_FIELDS if name in columns and columns[name].dtype != bool]
    numeric += [name for name, col in columns.items() if col.dtype.kind in "iuf" and name not in numeric]
    for name in numeric:
        if _varies(columns[name]):
            return name
    if numeric:
        return numeric[0]
    for name in CHANCE_FIELDS:
        if name in columns:
            return name
    return None


@lru_cache(maxsize=512)
def _marginal(system: str, expression: str, options: tuple[tuple[str, Any], ...]) -> _Marginal | None:
    from diceengine.api import distribution

    try:
        dist = distribution(expression, system, **dict(options))
    except DiceError:  # over the work budget, or no exact odds: the roll is logged without them
        return None
    field = _score_field(dist.columns)
    if field is None:
        return None
    try:
        column = dist.columns[field].astype(np.float64)
    except (TypeError, ValueError):
        return None
    values, inverse = np.unique(column, return_inverse=True)
    probabilities = np.bincount(inverse.ravel(), weights=dist.probabilities, minlength=len(values))
    chance = None
    for name in CHANCE_FIELDS:  # a check's chance; none for dice that cannot change it (Force dice alone)
        if name in dist.columns and dist.columns[name].dtype == bool:
            if _varies(dist.columns[name]):
                chance = dist.chance(name)
            break
    return _Marginal(field, values, probabilities, chance)


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


def roll_odds(system: str, expression: str, options: Mapping[str, Any], outcome: Mapping[str, Any]) -> Odds | None:
    """Where ``outcome`` falls in the exact odds of ``expression`` (``None``: no exact odds within the budget)."""
    try:
        found = _marginal(system, expression, _options_key(options))
    except TypeError:  # an unhashable option: the roll itself said so already
        return None
    if found is None or outcome.get(found.field) is None:
        return None
    value = float(outcome[found.field])
    values, probabilities = found.values, found.probabilities
    lo = int(np.searchsorted(values, value, "left"))
    hi = int(np.searchsorted(values, value, "right"))
    below = float(probabilities[:lo].sum())
    at = float(probabilities[lo:hi].sum())
    return Odds(field=found.field, value=value, below=min(1.0, below), at=min(1.0, at),
                percentile=min(1.0, below + at / 2), chance=found.chance)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class GroupFit(_Frozen):
    """The fit of one expression's rolls: ``rolls`` thrown, the ``bins`` compared (value ranges as
    ``[low, high]`` of the score ``field``), their ``observed`` and ``expected`` counts, the ``statistic``
    and its ``dof``; ``tested``: false when the rolls are too few for two bins."""

    system: str
    expression: str
    options: dict[str, Any]
    field: str
    rolls: int
    bins: list[tuple[float, float]]
    observed: list[int]
    expected: list[float]
    statistic: float
    dof: int
    tested: bool


class Fairness(_Frozen):
    """The fairness test over a set of rolls: the ``method`` (``"chi2"``, Pearson's, or ``"g"``, the
    likelihood ratio), the ``statistic`` summed over the expressions, its ``dof``, the ``p_value`` (1: no
    evidence against fair dice, near 0: the dice stray from their odds), each expression's ``groups``, and the
    rolls counted and those left out for want of exact odds."""

    method: Literal["chi2", "g"]
    rolls: int
    untested: int
    statistic: float
    dof: int
    p_value: float
    groups: list[GroupFit]


def _bins(probabilities: np.ndarray, n: int) -> list[tuple[int, int]]:
    """Index ranges ``[lo, hi)`` over the sorted values, each expecting at least MIN_EXPECTED rolls (the
    remainder joins the last bin)."""
    bins: list[tuple[int, int]] = []
    start, mass = 0, 0.0
    for i, p in enumerate(probabilities.tolist()):
        mass += p
        if mass * n >= MIN_EXPECTED:
            bins.append((start, i + 1))
            start, mass = i + 1, 0.0
    if start < len(probabilities):
        if bins:
            bins[-1] = (bins[-1][0], len(probabilities))
        else:
            bins.append((start, len(probabilities)))
    return bins


def _fit(system: str, expression: str, options: Mapping[str, Any], found: _Marginal, rolls: list[Entry],
         method: str) -> GroupFit:
    n = len(rolls)
    values, probabilities = found.values, found.probabilities
    bins = _bins(probabilities, n)
    observed_values = np.array([float((e.outcome or {})[found.field]) for e in rolls])
    index = np.searchsorted(values, observed_values, "left")
    edges = np.array([hi for _, hi in bins])
    which = np.searchsorted(edges, index, "right")
    observed = np.bincount(which, minlength=len(bins))[:len(bins)]
    expected = np.array([probabilities[lo:hi].sum() for lo, hi in bins]) * n
    tested = len(bins) >= 2
    statistic = 0.0
    if tested:
        if method == "g":
            nz = observed > 0
            statistic = float(2.0 * np.sum(observed[nz] * np.log(observed[nz] / expected[nz])))
        else:
            statistic = float(np.sum((observed - expected) ** 2 / expected))
    return GroupFit(system=system, expression=expression, options=dict(options), field=found.field, rolls=n,
                    bins=[(float(values[lo]), float(values[hi - 1])) for lo, hi in bins],
                    observed=[int(o) for o in observed], expected=[float(x) for x in expected],
                    statistic=max(0.0, statistic), dof=len(bins) - 1 if tested else 0, tested=tested)


def _rolls(table: Table, member: str | None, expression: str | None) -> list[Entry]:
    return [e for e in table.log if e.kind == "roll" and not e.redacted and e.outcome is not None
            and (member is None or e.member == member) and (expression is None or e.expression == expression)]


def fairness(table: Table, member: str | None = None, expression: str | None = None,
             method: Literal["chi2", "g"] = "chi2") -> Fairness:
    """The fairness test of the rolls in ``table``'s log (only ``member``'s, only ``expression``'s when given;
    pass a table as its reader sees it, :func:`~diceengine.table.rules.view`, to leave out what they may not
    read)."""
    if method not in ("chi2", "g"):
        raise DiceError(N_("the fairness test is 'chi2' or 'g', not {method}"), method=repr(method))
    groups: dict[tuple[str, str, tuple[tuple[str, Any], ...]], list[Entry]] = {}
    for e in _rolls(table, member, expression):
        groups.setdefault((e.system or "standard", e.expression or "", _options_key(e.options)), []).append(e)
    fits, untested, counted = [], 0, 0
    for (system, expr, options), entries in groups.items():
        found = _marginal(system, expr, options)
        if found is None:
            untested += len(entries)
            continue
        counted += len(entries)
        fits.append(_fit(system, expr, dict(options), found, entries, method))
    statistic = sum(f.statistic for f in fits)
    dof = sum(f.dof for f in fits)
    return Fairness(method=method, rolls=counted, untested=untested, statistic=statistic, dof=dof,
                    p_value=chi2_sf(statistic, dof), groups=fits)


class Luck(_Frozen):
    """A member's luck: the ``rolls`` with exact odds, their ``mean`` percentile (0.5: as the odds say;
    higher: luckier), the ``expected_error`` of that mean for fair dice (its standard deviation), and the
    ``successes`` of their checks against the ``expected_successes`` the odds gave."""

    member: str
    rolls: int
    mean: float | None
    expected_error: float | None
    checks: int
    successes: int
    expected_successes: float


def _luck_of(member: str, entries: Iterable[Entry]) -> Luck:
    percentiles, variance, checks, successes, expected = [], 0.0, 0, 0, 0.0
    for e in entries:
        if e.odds is None or e.odds.field not in SCORE_FIELDS:  # a Force roll's light side points: no luck
            continue
        percentiles.append(e.odds.percentile)
        # the variance of a mid-percentile for fair dice: (1 - sum p^3) / 12 for the value's distribution;
        # bounded here by that of a continuous uniform, 1/12
        variance += 1.0 / 12.0
        if e.odds.chance is not None:
            for name in CHANCE_FIELDS:
                if (e.outcome or {}).get(name) is not None and isinstance(e.outcome[name], bool):  # type: ignore[index]
                    checks += 1
                    successes += bool(e.outcome[name])  # type: ignore[index]
                    expected += e.odds.chance
                    break
    n = len(percentiles)
    return Luck(member=member, rolls=n, mean=sum(percentiles) / n if n else None,
                expected_error=math.sqrt(variance) / n if n else None, checks=checks, successes=successes,
                expected_successes=expected)


def luck(table: Table) -> dict[str, Luck]:
    """Each member's luck over the rolls of ``table``'s log (pass a table as its reader sees it,
    :func:`~diceengine.table.rules.view`)."""
    by: dict[str, list[Entry]] = {name: [] for name in table.members}
    for e in _rolls(table, None, None):
        by.setdefault(e.member, []).append(e)
    return {name: _luck_of(name, entries) for name, entries in by.items()}
