"""Comparing checks across systems: side-by-side profiles, the converter and difficulty ladders.

Every number comes from :func:`~diceengine.distribution` (exact, never sampled). Systems are read
through their outcome fields, by convention: the chance of success is the boolean ``success`` (or
``succeeded``) field; the mean shown is of ``margin``, else the numeric ``success`` (net successes),
else ``successes``, else ``total``; the flags are ``complication``, ``complications``, ``triumph``
and ``despair`` (the chance of at least one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from diceengine import registry

from .api import distribution
from .errors import DiceError
from .i18n import N_
from .registry import get_system

__all__ = ["Match", "Profile", "convert", "convert_ladder", "ladder", "profile", "success_chance"]

_FLAGS = ("complication", "complications", "triumph", "despair")


@dataclass(frozen=True)
class Profile:
    """What a game master wants to know of one check."""

    system: str
    expression: str
    success: float | None
    mean_field: str
    mean: float
    flags: dict[str, float]
    histogram: dict[Any, float] = field(repr=False)


def _options_key(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((options or {}).items()))


def _success(dist: Any) -> float | None:
    cols = dist.columns
    for name in ("success", "succeeded"):
        if name in cols and cols[name].dtype == bool:
            return dist.chance(name)
    return None


def profile(system: str, expression: str, **options: Any) -> Profile:
    """The chance of success, the mean margin (or net successes), the chance of each flag, and the
    distribution of that main field."""
    dist = distribution(expression, system, **options)
    cols = dist.columns
    main = next(f for f in ("margin", "success", "successes", "total") if f in cols and cols[f].dtype != bool)
    flags = {}
    for name in _FLAGS:
        if name in cols:
            flags[name] = dist.chance(name) if cols[name].dtype == bool else dist.at_least(1, name)
    return Profile(system, expression, _success(dist), main, dist.mean(main), flags, dist.marginal(main))


@lru_cache(maxsize=65536)
def _chance(system: str, expression: str, options: tuple[tuple[str, Any], ...]) -> float:
    chance = _success(distribution(expression, system, **dict(options)))
    if chance is None:
        raise DiceError(N_("{system}: {written} has no success to compare (write a check with vs)"), system=system,
                        written=repr(expression))
    return chance


registry.on_replace.append(lambda name: _chance.cache_clear())  # a system replaced: its chances asked again


def success_chance(system: str, expression: str, **options: Any) -> float:
    """Exact chance of success of a check (cached)."""
    return _chance(system, expression, _options_key(options))


@dataclass(frozen=True)
class Match:
    """A check of the target system and how far its chance of success is from the source's."""

    label: str
    expression: str
    chance: float
    distance: float
    """difference in points of probability (target - source, x100)"""


def convert(expression: str, source: str, target: str, source_options: Mapping[str, Any] | None = None,
            target_options: Mapping[str, Any] | None = None, top: int = 5) -> tuple[float, list[Match]]:
    """The chance of success of ``expression`` in ``source``, and the ``top`` checks of ``target``'s
    catalogue whose chance is closest, best first."""
    chance = _chance(source, expression, _options_key(source_options))
    return chance, nearest(chance, target, target_options, top)


def nearest(chance: float, target: str, target_options: Mapping[str, Any] | None = None, top: int = 5) -> list[Match]:
    """The ``top`` checks of ``target``'s catalogue closest to ``chance``."""
    catalogue = get_system(target).catalogue()
    if not catalogue:
        raise DiceError(N_("system {target} has no catalogue of checks to convert to"), target=repr(target))
    key = _options_key(target_options)
    scored = []
    for label, expr in catalogue:
        c = _chance(target, expr, key)
        scored.append((abs(c - chance), label, expr, c))
    scored.sort(key=lambda t: (t[0], t[2]))
    return [Match(label, expr, c, 100 * (c - chance)) for _, label, expr, c in scored[:top]]


def ladder(system: str, **options: Any) -> tuple[list[str], list[tuple[str, list[float]]]]:
    """``(difficulty names, rows)``: each character of the system's ladder with its chance of success
    against each named difficulty."""
    rows_spec, cols_spec = get_system(system).ladder()
    if not rows_spec:
        raise DiceError(N_("system {system} has no difficulty ladder"), system=repr(system))
    key = _options_key(options)
    rows = [(label, [_chance(system, f"{text} vs {diff}", key) for _, diff in cols_spec]) for label, text in rows_spec]
    return [name for name, _ in cols_spec], rows


def convert_ladder(source: str, target: str, source_options: Mapping[str, Any] | None = None,
                   target_options: Mapping[str, Any] | None = None) -> list[tuple[str, str, float, Match]]:
    """Each character of ``source``'s ladder against each of its difficulties, with the nearest check of
    ``target``: ``(character, difficulty, chance, match)``."""
    rows_spec, cols_spec = get_system(source).ladder()
    key = _options_key(source_options)
    out = []
    for label, text in rows_spec:
        for name, diff in cols_spec:
            chance = _chance(source, f"{text} vs {diff}", key)
            out.append((label, name, chance, nearest(chance, target, target_options, 1)[0]))
    return out
