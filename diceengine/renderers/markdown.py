"""Markdown for chat (Discord, Slack): the expression as code, kept dice in bold, dropped and
re-rolled dice struck through, a die showing its highest face (a natural 20, an exploding 6) or a
triumph / despair in bold italics, the result in bold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Words
from .explain import Context, Writers, compiled, context, face_marks, narrative_text, walk, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["escape", "is_critical", "render"]

_SPECIAL = str.maketrans({c: "\\" + c for c in "\\*_~`|"})


def escape(text: str) -> str:
    """``text`` with Markdown's special characters escaped."""
    return text.translate(_SPECIAL)


def is_critical(face: Face) -> bool:
    """What the system calls critical, else a natural maximum (numeric dice of 4 sides or more), a
    triumph or a despair."""
    if face.critical is not None:
        return face.critical
    if face.symbols is not None:
        return "triumph" in face.symbols or "despair" in face.symbols
    die = face.die
    return die.sides >= 4 and die.value == die.sides


def render(roll: Roll, lang: str | None = None, **settings: Any) -> str:
    """The roll as one line of Markdown."""
    plan = roll._plan
    write = compiled(_WRITERS, (id(plan), lang), plan, _walk, "markdown", lang=lang)
    if write is not None:
        return write(roll.outcome, roll._record)
    out: list[str] = []
    _walk(roll.parts(), out, context("markdown", lang=lang))
    return "".join(out)


_WRITERS: Writers = {}


def face_text(face: Face, gettext: Callable, struck: bool = False) -> str:
    """One die in Markdown."""
    die = face.die
    text = narrative_text(face, gettext) if face.symbols is not None else str(die.value)
    marks = escape(face_marks(face)) if face.symbols is None else ""
    if struck:
        return text + marks
    if die.rerolled or not die.kept:
        return f"~~{text}~~{marks}" + ("r" if die.rerolled else "")
    if is_critical(face):
        return f"***{text}***{marks}"
    return f"**{text}**{marks}"


def _dice(dice: Dice, struck: bool) -> str:
    if struck:
        return escape(dice.sep).join(map(str, dice.values))
    top = dice.sides if dice.sides >= 4 else 0
    return escape(dice.sep).join([f"***{v}***" if v == top else f"**{v}**" for v in dice.values])


def _text(part: Any, ctx: Context, struck: bool) -> str:
    kind = type(part)
    if kind is Face:
        return face_text(part, ctx.gettext, struck)
    if kind is Words:
        return escape(words_text(part, ctx.gettext, ctx.ngettext))
    if part.role == "expression":  # a group
        return "`" + "".join(str(p) for p in part.parts).replace("`", "'") + "`"
    inner: list[str] = []
    _walk(part.parts, inner, ctx, struck or part.role == "struck")
    text = "".join(inner)
    return f"~~{text}~~" if part.role == "struck" else f"**{text}**"


def _walk(parts: Iterable[Any], out: list[str], ctx: Context, struck: bool = False) -> None:
    walk(parts, out, ctx, struck, _text, _dice, escape)