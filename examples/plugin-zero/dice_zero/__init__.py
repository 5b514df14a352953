"""An example plug-in modifier of diceengine's standard notation: ``z``, faces that count zero.

``4d6z1`` rolls four d6 whose ones count 0; ``5d10z<=2`` zeroes the ones and twos; a bare ``z`` zeroes the lowest
face. Every other modifier reads the zeroed faces, in the order written: ``4d6z1kh3`` keeps the highest three
after zeroing, ``6d6z1>=1`` counts the dice that did not come up zero.

The whole plug-in is :class:`Zero`: its letters and one face map (the contract is
``diceengine.systems.standard.modifiers.FaceMap``); roll, sample and exact odds come from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["Zero"]


class Zero:
    """``z`` / ``zN`` / ``z<=N``...: a face meeting the point (bare: the lowest face) counts zero."""

    name = "z"

    def face(self, face: int, point: Any, faces: Sequence[int]) -> int:
        """The face's new value: 0 when it meets the point, itself otherwise."""
        hit = face == faces[0] if point is None else point.test(face)
        return 0 if hit else face
