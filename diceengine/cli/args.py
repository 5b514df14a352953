"""What the command lines share: a system prefix on an expression, ``name=value`` options, the one-line views
of a distribution (:func:`trim`, :func:`sparkline`), and text tables whose columns line up (:func:`columns`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import DiceError
from ..i18n import N_

__all__ = ["columns", "parse_options", "percent", "sparkline", "split_system", "trim", "width"]


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


def percent(p: float | None, digits: int = 2) -> str:
    """A chance as a percentage with ``digits`` decimals (``-`` for none)."""
    return "-" if p is None else f"{100 * p:.{digits}f}%"


def trim(marginal: dict[Any, float], share: float = 1e-3) -> dict[Any, float]:
    """The marginal without its tails below ``share`` of the most likely value."""
    top = max(marginal.values()) if marginal else 0.0
    keys = [k for k, p in marginal.items() if p >= share * top]
    if not keys:
        return marginal
    lo, hi = keys[0], keys[-1]
    return {k: p for k, p in marginal.items() if lo <= k <= hi}


def sparkline(marginal: dict[Any, float]) -> str:
    """A one-line text histogram: one block a value, as high as its probability (the lowest block for any value
    that can happen, a space for one that cannot), so that it starts where the values do."""
    blocks = " ▁▂▃▄▅▆▇█"
    top = max(marginal.values()) if marginal else 1.0
    return "".join(blocks[min(8, max(1, round(8 * p / top)))] if p > 0 else " " for p in marginal.values())


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character (CJK, colour emoji), none for a
    combining mark, one for any other."""
    import unicodedata

    total = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u200d\ufe0f":
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def _pad(text: str, size: int, align: str) -> str:
    room = " " * max(0, size - width(text))
    return text + room if align == "<" else room + text


def columns(rows: Sequence[Sequence[Any]], align: str, indent: str = "", gap: str = "  ") -> list[str]:
    """``rows`` (the first one is usually the header) as lines of text whose columns line up: each column as
    wide as its widest cell, aligned by ``align`` (one character a column: ``<`` left, ``>`` right); the last
    column is not padded on the right, so that no line ends in spaces."""
    cells = [[str(c) for c in row] for row in rows]
    count = max((len(r) for r in cells), default=0)
    sizes = [max((width(r[i]) for r in cells if i < len(r)), default=0) for i in range(count)]
    lines = []
    for row in cells:
        parts = [_pad(c, sizes[i], align[i] if i < len(align) else "<") for i, c in enumerate(row)]
        lines.append((indent + gap.join(parts)).rstrip())
    return lines
