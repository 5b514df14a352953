"""Roll20's matching dice (``2d6m``, ``4d10mt``, ``8d10mt3``), everything of the modifier in one module: its node
(:class:`Matching`, built by the grammar's rule ``matching``) and its class in the table
(:class:`MatchingModifier`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diceengine.ast import Node, Token, to_int
from diceengine.errors import DiceValueError
from diceengine.i18n import N_
from diceengine.records import dataclass, field

from ..nodes import Clamp, NamedModifier
from .base import Building, Modifier

__all__ = ["Matching", "MatchingModifier"]


@dataclass(frozen=True, slots=True)
class Matching(Node):
    """Roll20's matching dice: ``m`` marks the dice showing a face that other dice show too, ``mt`` scores the
    number of such sets; ``m3`` / ``mt3``: sets of at least 3 dice (``size``; 2 when not written)."""

    kind: Any
    size: Any = None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            object.__setattr__(self, "pos", self.kind.start_pos)
            object.__setattr__(self, "kind", str(self.kind).lower())
        if isinstance(self.size, Token):
            object.__setattr__(self, "size", to_int(self.size))


class MatchingModifier(Modifier):
    """Roll20's matching dice, as its Dice Reference ("Dice Matching") describes them: the dice of a roll that
    match are shown in the chat, ``2d6m`` marking the dice whose face another die of the roll shows; ``mt``
    makes the total the number of matching sets; a number after it (``4d6m3``, ``8d10mt3``) is the least size
    of a set (2 when not written). No compare point is read: ``4d6mt>3`` is refused, not read otherwise.
    Where Roll20 is silent (docs/notation.md): the total of ``m`` stays the dice's sum; it goes with the face
    maps only (a per-die minimum / maximum, a plug-in's), which change the faces matched; any other modifier on
    the same term is refused with a caret (:mod:`..term.matching`)."""

    letters = ("m", "mt")
    nodes = (Matching,)
    single = "matching (m)"

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
        return {"match": (mod.kind == "mt", size)}
