"""Foundry VTT's counts of even and odd faces (``6d6even``, ``6d6odd``), everything of the modifier in one module:
its node (:class:`Parity`, built by the grammar's rule ``parity``), its class in the table
(:class:`ParityModifier`) and its score, the number of dice showing an even (an odd) face, as the die algebra's
multiset evaluator (:class:`ParityCount`), which the roll, the sample and the exact odds all read
(:class:`~..term.spec.PoolScore`).

Foundry's API (``Die.countEven`` / ``countOdd``): "Even numbers are marked as a success and counted as 1, odd
numbers are marked as a non-success and counted as 0", and the reverse for ``odd``. The dice counted are written
as successes are (``6*``); a face is odd when 2 does not divide it (``-1`` of ``dF`` is odd, as in Foundry)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from diceengine.algebra.multiset import Counts, Evaluator
from diceengine.ast import Node, at_token
from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.records import dataclass, field

from ..nodes import Clamp, NamedModifier, lowered
from ..term.spec import PoolScore
from .base import Building, Modifier

__all__ = ["Parity", "ParityCount", "ParityModifier"]


@dataclass(frozen=True, slots=True)
class Parity(Node):
    """Foundry's ``even`` / ``odd``: the term's total is the number of dice showing an even (odd) face."""

    kind: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "kind", lowered)


class ParityModifier(Modifier):
    """``even`` / ``odd`` (Foundry VTT): the dice showing an even (an odd) face are counted, the count is the term's
    total. It goes with the face maps only (a per-die minimum / maximum, a plug-in's), which change the faces
    counted; any other modifier on the same term is refused with a caret."""

    letters = ("even", "odd")
    nodes = (Parity,)
    single = N_("count of even or odd faces (even, odd)")

    def written(self, mod: Any) -> str:
        return str(mod.kind)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        other = next((m for m in term.mods if not isinstance(m, (Clamp, NamedModifier, Parity))), None)
        if other is not None:
            raise DiceValueError(N_("a count of even or odd faces (even, odd) goes with a per-die minimum or maximum "
                                    "only, not with {modifier}"), term.expression, term.where(other),
                                 modifier=term.write(other))
        odd = mod.kind == "odd"
        return {"pool": PoolScore(ParityCount(odd), sparse=True, marks=lambda faces: counted(faces, odd),
                                  mark_text="*")}


def counted(faces: Sequence[int], odd: bool) -> list[bool]:
    """For each face, whether it is counted: odd (``odd``) or even."""
    return [(v % 2 != 0) == odd for v in faces]


class ParityCount(Evaluator):
    """How many dice of one pool show an odd face (``odd``) or an even one."""

    scalar = True  # next_state reads plain integers too (one roll: :func:`..term.pooled.run_one`)

    def __init__(self, odd: bool) -> None:
        self.odd = odd

    def size(self, sizes: tuple[int, ...]) -> int:
        return sum(sizes) + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: Counts, counts: Counts) -> np.ndarray:
        if (outcome % 2 != 0) == self.odd:
            out: np.ndarray = state + counts[0]
            return out
        return state
