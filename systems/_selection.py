"""d20's keep / drop (``dialect="d20"``): a sequence of operators, each choosing among the dice still kept.

Consecutive operators of one kind join (d20 merges them): ``kh1kl1`` keeps the highest and the lowest,
``k1k2`` the dice showing 1 or 2, ``p1p2`` drops both. A selector is ``hN`` / ``lN`` (the N highest / lowest
still kept), ``N`` (the dice showing N), ``<N`` or ``>N``. ``k`` keeps what its selectors choose and drops
the rest, ``p`` drops what they choose.

Exact odds: value selectors only are one test per die (independent dice); one rank selector per operator
is a window of ranks; other mixes roll and sample but have no exact odds (``DiceLimitError``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from diceengine.errors import DiceLimitError

from ._dice_ast import Keep

__all__ = ["Selection", "selection_of"]

#: one selector: ("h" | "l", n) by rank, ("=" | "<" | ">", v) by value
Selector = tuple[str, int]


class Selection:
    """d20's keep / drop operators on one term or set (module docstring)."""

    def __init__(self, groups: list[tuple[str, list[Selector]]]) -> None:
        self.groups = groups

    @property
    def by_value(self) -> bool:
        return all(kind not in "hl" for _, sels in self.groups for kind, _ in sels)

    def keeps_value(self, v: Any) -> bool:
        """Whether a die of value ``v`` is kept (value selectors only)."""
        for mode, sels in self.groups:
            hit = any(_match(kind, n, v) for kind, n in sels)
            if hit != (mode == "k"):
                return False
        return True

    def window(self, count: int) -> tuple[int, int] | None:
        """The ranks kept (lowest first) when every operator has one rank selector, else None."""
        lo, hi = 0, count
        for mode, sels in self.groups:
            if len(sels) != 1 or sels[0][0] not in "hl":
                return None
            kind, n = sels[0]
            n = max(0, min(n, hi - lo))
            if (mode, kind) == ("k", "h"):
                lo = hi - n
            elif (mode, kind) == ("k", "l"):
                hi = lo + n
            elif (mode, kind) == ("p", "h"):
                hi = hi - n
            else:
                lo = lo + n
        return lo, hi

    def check_exact(self, count: int) -> None:
        if not self.by_value and self.window(count) is None:
            raise DiceLimitError("no exact odds for d20 keep / drop mixing several rank selectors or ranks "
                                 "with values (roll and sample work)")

    def kept(self, keys: Sequence[Any]) -> list[bool]:
        """Which of these dice (by key) stay kept, for one roll."""
        kept = [True] * len(keys)
        for mode, sels in self.groups:
            alive = [i for i in range(len(keys)) if kept[i]]
            chosen: set[int] = set()
            order = sorted(alive, key=keys.__getitem__)
            for kind, n in sels:
                if kind == "h":
                    chosen.update(order[len(order) - min(n, len(order)):])
                elif kind == "l":
                    chosen.update(order[:n])
                else:
                    chosen.update(i for i in alive if _match(kind, n, keys[i]))
            for i in alive:
                if (i in chosen) != (mode == "k"):
                    kept[i] = False
        return kept

    def mask(self, keys: np.ndarray, alive: np.ndarray | None = None) -> np.ndarray:
        """Which dice stay kept, for rows of dice (vectorised; ``alive``: the cells that hold a die)."""
        kept = np.ones(keys.shape, dtype=bool) if alive is None else alive.copy()
        rows = np.arange(keys.shape[0])[:, None]
        for mode, sels in self.groups:
            chosen = np.zeros(keys.shape, dtype=bool)
            for kind, n in sels:
                if kind in "hl":
                    fill = np.iinfo(np.int64).min if kind == "h" else np.iinfo(np.int64).max
                    ranked = np.argsort(np.where(kept, keys, fill), axis=1, kind="stable")
                    alive = kept.sum(axis=1)
                    pos = np.arange(keys.shape[1])[None, :]
                    if kind == "h":
                        pick = pos >= keys.shape[1] - np.minimum(n, alive)[:, None]
                    else:
                        pick = pos < np.minimum(n, alive)[:, None]
                    sel = np.zeros(keys.shape, dtype=bool)
                    sel[rows, ranked] = pick
                    chosen |= sel & kept
                else:
                    chosen |= _match(kind, n, keys) & kept
            kept &= chosen if mode == "k" else ~chosen
        return kept


def _match(kind: str, n: int, v: Any) -> Any:
    if kind == "=":
        return v == n
    if kind == "<":
        return v < n
    return v > n


def selection_of(keeps: Sequence[Keep]) -> Selection:
    """d20's operators from the keep / drop modifiers as written."""
    groups: list[tuple[str, list[Selector]]] = []
    for k in keeps:
        spelled = k.spelled.rstrip("\x00")
        mode = "k" if spelled.startswith("k") else "p" if spelled.startswith("p") else None
        if mode is None:  # Roll20's dh / dl in d20's dialect: drop by rank
            mode, sel = "p", ("h" if k.kind == "dh" else "l", k.n)
        elif k.point is not None:
            sel = (k.point, k.n)
        elif spelled in ("k", "p"):
            sel = ("=", k.n)
        else:
            sel = (spelled[1], k.n)
        if groups and groups[-1][0] == mode:
            groups[-1][1].append(sel)
        else:
            groups.append((mode, [sel]))
    return Selection(groups)
