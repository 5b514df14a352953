"""Roll20's matching dice (``2d6m``, ``4d10mt``, ``8d10mt3``), everything of the modifier in one module: its node
(:class:`Matching`, built by the grammar's rule ``matching``), its class in the table (:class:`MatchingModifier`)
and its score, the number of sets, as the die algebra's multiset evaluator (:class:`SetCount`), which the roll, the
sample and the exact odds all read (:class:`~..term.spec.PoolScore`).

A *set* is the dice showing one face when at least ``size`` dice show it (2 unless written: ``m3``). ``m`` marks
the dice of every set (``3(m)`` in the text, ``critical="match"`` in :attr:`roll.dice`) and leaves the total the
dice's sum; ``mt`` scores the number of sets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from diceengine.algebra.multiset import Counts, Evaluator
from diceengine.ast import Node, Token, at_token, to_int
from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.records import dataclass, field

from ..nodes import Clamp, NamedModifier, lowered
from ..term.spec import PoolScore
from .base import Building, Modifier

__all__ = ["MARK", "Matching", "MatchingModifier", "SetCount", "matched"]

#: the mark written after a matching die's face
MARK = "(m)"


@dataclass(frozen=True, slots=True)
class Matching(Node):
    """Roll20's matching dice: ``m`` marks the dice showing a face that other dice show too, ``mt`` scores the
    number of such sets; ``m3`` / ``mt3``: sets of at least 3 dice (``size``; 2 when not written)."""

    kind: Any
    size: Any = None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "kind", lowered)
        if isinstance(self.size, Token):
            object.__setattr__(self, "size", to_int(self.size))


class MatchingModifier(Modifier):
    """Roll20's matching dice, as its Dice Reference ("Dice Matching") describes them: the dice of a roll that
    match are shown in the chat, ``2d6m`` marking the dice whose face another die of the roll shows; ``mt``
    makes the total the number of matching sets; a number after it (``4d6m3``, ``8d10mt3``) is the least size
    of a set (2 when not written). No compare point is read: ``4d6mt>3`` is refused, not read otherwise.
    Where Roll20 is silent (docs/notation.md): the total of ``m`` stays the dice's sum; it goes with the face
    maps only (a per-die minimum / maximum, a plug-in's), which change the faces matched; any other modifier on
    the same term is refused with a caret."""

    letters = ("m", "mt")
    nodes = (Matching,)
    single = N_("matching (m)")

    def written(self, mod: Any) -> str:
        return str(mod.kind) + ("" if mod.size is None else str(mod.size))

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        other = next((m for m in term.mods if not isinstance(m, (Clamp, NamedModifier, Matching))), None)
        if other is not None:
            raise DiceValueError(N_("matching dice (m, mt) go with a per-die minimum or maximum only, not with "
                                    "{modifier}"), term.expression, term.where(other), modifier=term.write(other))
        size = 2 if mod.size is None else mod.size
        if size < 2:
            raise DiceValueError(N_("a set of matching dice has at least 2 dice (m2), not {size}"), term.expression,
                                 term.where(mod), size=size)
        return {"pool": PoolScore(SetCount(size), scores=mod.kind == "mt", sparse=True,
                                  marks=lambda faces: matched(faces, size), mark="match", mark_text=MARK)}


def matched(faces: Sequence[int], size: int) -> list[bool]:
    """For each face, whether it belongs to a set (at least ``size`` dice showing it)."""
    seen = Counter(faces)
    return [seen[v] >= size for v in faces]


class SetCount(Evaluator):
    """The number of outcomes shown by at least ``size`` dice of one pool (Roll20's ``mt``)."""

    scalar = True  # next_state reads plain integers too (one roll: :func:`..term.pooled.run_one`)

    def __init__(self, size: int) -> None:
        self.least = size

    def size(self, sizes: tuple[int, ...]) -> int:
        return sum(sizes) // self.least + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: Counts, counts: Counts) -> np.ndarray:
        out: np.ndarray = state + (counts[0] >= self.least)
        return out
