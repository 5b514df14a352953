"""What every modifier of a dice term is: :class:`Modifier` (its letters, its node, how it is written and how it is
lowered) and :class:`Building`, the term being built that each lowering reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from diceengine.errors import DiceSyntaxError
from diceengine.i18n import N_

from ..nodes import Compare, Dice

__all__ = ["Building", "Modifier", "point_text"]


class Building:
    """A dice term while its modifiers are lowered: what the dice are (``count``, ``faces``, ``kind``), the options
    of the expression, the modifiers as written (``mods``), the fields of its :class:`~..term.spec.TermSpec` lowered
    so far (``fields``: name -> value; absent, the field's default), and how the table writes any modifier's node
    (``write``: for a refusal that names another modifier)."""

    __slots__ = ("count", "dialect", "explosions", "expression", "faces", "fields", "kind", "mods", "node", "pos",
                 "scale", "text", "write")

    def __init__(self, node: Dice, expression: str, count: int, faces: Any, kind: str, text: str, dialect: str,
                 explosions: str, scale: int) -> None:
        self.node = node
        self.expression = expression
        self.pos = node.pos or 0
        self.count = count
        self.faces = faces
        self.kind = kind
        self.text = text
        self.dialect = dialect
        self.explosions = explosions
        self.scale = scale
        self.mods: tuple[Any, ...] = node.modifiers.items
        self.fields: dict[str, Any] = {}
        self.write: Callable[[Any], str] = str  # the table's writer, given by the table that lowers the term

    def get(self, name: str) -> Any:
        """A field lowered so far (``None`` when no modifier set it)."""
        return self.fields.get(name)

    def where(self, mod: Any) -> int:
        """The column of a modifier (the term's when it has none)."""
        pos = getattr(mod, "pos", None)
        return self.pos if pos is None else pos


class Modifier:
    """One modifier of the standard notation's dice term, everything known of it in one class:

    - ``letters``: how it is spelled right after the dice (for "did you mean" and the docs);
    - ``nodes``: the syntax-tree node(s) its grammar rule builds (:mod:`..nodes`; the rule is named after the node);
    - ``single``: the name said when a term has it twice ("more than one explosion"), for a modifier written once
      (lowered by :meth:`lower_one`; one that may repeat overrides :meth:`lower`);
    - :meth:`written`: the node as the term's text writes it (``kh3``, ``!>=5``);
    - :meth:`lower`: the term being built, and the modifier's nodes on it (in the order written), to the fields of
      the term's :class:`~..term.spec.TermSpec` it sets; what no roll could honour is refused here with a caret.

    The table (:data:`..modifiers.TABLE`) lowers them in its order: a modifier reads what those before it set."""

    letters: ClassVar[tuple[str, ...]] = ()
    nodes: ClassVar[tuple[type, ...]] = ()
    single: ClassVar[str | None] = None

    def written(self, mod: Any) -> str:
        """The node as the term's text writes it."""
        raise NotImplementedError

    def lower(self, term: Building, found: Sequence[Any]) -> Mapping[str, Any]:
        """The fields of the term's spec this modifier sets (``found``: its nodes on the term, in order); by
        default, a modifier written once (:attr:`single`) and lowered by :meth:`lower_one`."""
        if len(found) > 1:
            raise DiceSyntaxError(N_("more than one {single} on one dice term"), term.expression,
                                  getattr(found[1], "pos", None) or 0,
                                  single=[self.single])  # a list: its word is translated
        return self.lower_one(term, found[0])

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        """The fields of the term's spec set by the modifier's one node."""
        raise NotImplementedError


def point_text(compare: Compare | None) -> str:
    """A compare point as written after a modifier's letters (``>=5``, ``=1``; nothing without one)."""
    return str(compare) if compare is not None else ""
