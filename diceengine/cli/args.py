"""What the command lines share: a system prefix on an expression, ``name=value`` options, and the
one-line views of a distribution (:func:`trim`, :func:`sparkline`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import DiceError
from ..i18n import N_

__all__ = ["parse_options", "sparkline", "split_system", "trim"]


def split_system(text: str, default: str | None) -> tuple[str, str]:
    """``"d6: 4D+1 vs 15"`` -> ``("d6", "4D+1 vs 15")``; no prefix -> the default system."""
    from ..registry import system_names

    head, sep, rest = text.partition(":")
    name = head.strip()
    if sep and name and name.replace("_", "").isalnum() and " " not in name and name in system_names():
        return name, rest.strip()
    return default or "standard", text.strip()


#: keyword arguments of the entry points themselves, never system options
_NOT_OPTIONS = ("seed", "system", "expression", "n")


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["complication=none", "wild=false", "n=3"]`` -> typed keyword options."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise DiceError(N_("an option is written name=value, not {pair!r}"), pair=pair)
        if key.strip() in _NOT_OPTIONS:
            raise DiceError(N_("{name} is not a system option (use --{name})"), name=key.strip())
        value: Any = raw
        low = raw.lower()
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        else:
            try:
                value = int(raw)
            except ValueError:
                pass
        options[key.strip()] = value
    return options


def trim(marginal: dict[Any, float], share: float = 1e-3) -> dict[Any, float]:
    """The marginal without its tails below ``share`` of the most likely value."""
    top = max(marginal.values()) if marginal else 0.0
    keys = [k for k, p in marginal.items() if p >= share * top]
    if not keys:
        return marginal
    lo, hi = keys[0], keys[-1]
    return {k: p for k, p in marginal.items() if lo <= k <= hi}


def sparkline(marginal: dict[Any, float]) -> str:
    """A one-line text histogram."""
    blocks = " ▁▂▃▄▅▆▇█"
    top = max(marginal.values()) if marginal else 1.0
    return "".join(blocks[min(8, round(8 * p / top))] for p in marginal.values())
