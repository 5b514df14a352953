"""Markdown for chat (Discord, Slack): the expression as code, kept dice in bold, dropped and
re-rolled dice struck through, a die showing its highest face (a natural 20, an exploding 6) or a
triumph / despair in bold italics, the result in bold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Group, Words
from . import catalogue, face_cache, face_marks, narrative_text, words_text

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
    gettext, ngettext = catalogue(lang)
    out: list[str] = []
    _walk(roll.parts(), out, gettext, ngettext, False, face_cache("markdown", lang))
    return "".join(out)


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


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, struck: bool,
          cache: dict[Any, str]) -> None:
    append = out.append
    for part in parts:
        kind = type(part)
        if kind is str:
            append(escape(part))
        elif kind is Face:
            if struck:
                append(face_text(part, gettext, True))
                continue
            text = cache.get(part)
            if text is None:
                text = cache[part] = face_text(part, gettext)
            append(text)
        elif kind is Dice:
            if struck:
                append(escape(part.sep).join(map(str, part.values)))
            else:
                top = part.sides if part.sides >= 4 else 0
                append(escape(part.sep).join([f"***{v}***" if v == top else f"**{v}**" for v in part.values]))
        elif kind is Words:
            text = cache.get(part)
            if text is None:
                text = cache[part] = escape(words_text(part, gettext, ngettext))
            append(text)
        elif kind is Group:
            if part.role == "expression":
                append("`" + "".join(str(p) for p in part.parts).replace("`", "'") + "`")
                continue
            inner: list[str] = []
            _walk(part.parts, inner, gettext, ngettext, struck or part.role == "struck", cache)
            text = "".join(inner)
            append(f"~~{text}~~" if part.role == "struck" else f"**{text}**")
