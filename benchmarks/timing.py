"""The timing every benchmark shares."""

from __future__ import annotations

import timeit
from collections.abc import Callable

__all__ = ["best"]


def best(fn: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Best time of one call, in seconds."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number
