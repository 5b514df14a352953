"""What a roll's text is made of, before any format: the plan says which dice and words, in which
order; the renderers (:mod:`diceengine.renderers`) decide how they look in plain text, Markdown,
HTML or symbols, in the user's language.

A part is one of:

- a ``str``: verbatim text (numbers, operators, brackets, separators);
- :class:`Words`: a message of the catalogues (its English text is the message id), translated when
  rendered;
- :class:`Face`: one die as thrown, with what it counts for;
- :class:`Dice`: a run of plain kept dice of one kind (``3 + 5 + 1``), the common case, kept compact;
- :class:`Group`: parts with a role: ``"struck"`` (dropped as a whole), ``"result"`` (the outcome),
  ``"expression"`` (the text the user typed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .rolls import Die

__all__ = ["Dice", "Face", "Group", "Part", "Words"]


class Words(NamedTuple):
    """A message of the catalogues: ``Words("success by {margin}", args=(("margin", 3),))``; with
    ``plural`` and ``n``, the form for ``n`` (``{n}`` is filled in). Hashable: renderers remember texts."""

    message: str
    plural: str | None = None
    n: int | None = None
    args: tuple[tuple[str, Any], ...] = ()


class Face(NamedTuple):
    """One die as thrown."""

    die: Die
    score: int = 0
    """successes it counts (negative: failures), shown after the face"""
    complication: bool = False
    """it flags a complication (a 20 in a d20 pool)"""
    symbols: tuple[str, ...] | None = None
    """narrative dice: the names of the symbols on the face (empty: a blank face)"""
    critical: bool | None = None
    """a critical face (``None``: a numeric die's highest face, a triumph or a despair)"""


class Dice(NamedTuple):
    """Kept dice of one kind that count their faces, nothing more, written one after the other."""

    kind: str
    sides: int
    values: tuple[int, ...]
    sep: str = " + "
    label: str | None = None


class Group(NamedTuple):
    """Parts with a role: ``"struck"``, ``"result"`` or ``"expression"``."""

    parts: tuple[Part, ...]
    role: str = "struck"


Part = str | Words | Face | Dice | Group
