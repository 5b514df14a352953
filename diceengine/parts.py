"""The types every result module shares, a leaf that imports nothing of the engine: :class:`Die`, one die
thrown, and the parts of a roll's text.

The parts are what a roll's text is made of, before any format: the plan says which dice and words, in
which order; the renderers (:mod:`diceengine.renderers`, which depend on the results, never the reverse)
decide how they look in plain text, Markdown, HTML or symbols, in the user's language.

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

from collections.abc import Callable, Sequence
from typing import Any

from .records import NamedTuple

__all__ = ["Dice", "Die", "Face", "Group", "Part", "TextMemo", "Words", "dice_writer"]


class Die(NamedTuple):
    """One die thrown in a roll."""

    kind: str
    """what was thrown: ``"d6"``, ``"dF"``, ``"wild"``, ``"ability"``, ..."""
    sides: int
    value: int
    """the face (its number; for narrative dice, the index of the face)"""
    kept: bool = True
    """counts toward the result (false: dropped, or a face replaced by a re-roll)"""
    exploded: bool = False
    """its face triggered another die (or, compounded, was added to)"""
    rerolled: bool = False
    """its face was discarded and the die thrown again"""
    added: bool = False
    """it was thrown because of an explosion or a bonus (character point)"""
    wild: bool = False
    """it is the Wild Die"""
    face: str | None = None
    """the symbols shown, for narrative dice"""
    label: str | None = None
    critical: str | None = None
    """``"success"`` or ``"failure"`` when a critical marker (``cs`` / ``cf``) flags the face, ``"match"`` when the
    face matches another die's (``m`` / ``mt``)"""

    @property
    def dropped(self) -> bool:
        """Does not count toward the result."""
        return not self.kept


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
    """Kept dice of one kind that count their faces, nothing more, written one after the other: in every
    format, a run's text is the texts of its one-die runs joined by the text of ``sep`` (see
    :func:`dice_writer`)."""

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


def dice_writer(text: Callable[[Any], str], kind: str, sides: int, sep: str = " + ",
                label: str | None = None) -> Callable[[Sequence[int]], str]:
    """``values -> the text of Dice(kind, sides, values, sep, label)`` in the format of ``text`` (a part's
    text, as a plan's explainer is given it), each face's text asked once (for plans' explainers)."""
    between = text(sep)
    faces: dict[int, str] = {}

    def write(values: Sequence[int]) -> str:
        try:
            return between.join([faces[v] for v in values])
        except KeyError:
            for v in values:
                if v not in faces:
                    faces[v] = text(Dice(kind, sides, (v,), sep, label))
            return between.join([faces[v] for v in values])

    return write


class TextMemo(dict):  # type: ignore[type-arg]
    """Key (a face, a face and its state) -> its text, written by ``write`` once, on first use; at most
    :attr:`LIMIT` texts remembered (the rarer faces of a d100000 are written each time)."""

    __slots__ = ("write",)
    LIMIT = 128

    def __init__(self, write: Callable[[Any], str]) -> None:
        super().__init__()
        self.write = write

    def __missing__(self, key: Any) -> str:
        text = self.write(key)
        if len(self) < self.LIMIT:
            self[key] = text
        return text
