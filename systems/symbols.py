"""Unicode symbols of numeric dice faces, for the ``symbols`` renderer (keys ``"kind:value"``)."""

from __future__ import annotations

__all__ = ["D6_FACES", "FUDGE_FACES", "WILD_FACES"]

D6_FACES = {f"d6:{v}": s for v, s in zip(range(1, 7), "⚀⚁⚂⚃⚄⚅")}
WILD_FACES = {f"wild:{v}": s for v, s in zip(range(1, 7), "⚀⚁⚂⚃⚄⚅")}
FUDGE_FACES = {"dF:-1": "⊟", "dF:0": "▢", "dF:1": "⊞"}
