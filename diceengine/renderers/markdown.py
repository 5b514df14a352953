"""Markdown for chat (Discord, Slack): the expression as code, kept dice in bold, dropped and
re-rolled dice struck through, a die showing its highest face (a natural 20, an exploding 6) or a
triumph / despair in bold italics, the result in bold."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..parts import Face, Group, Words
from . import catalogue, face_marks, narrative_text, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["render", "escape", "is_critical"]

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


def render(roll: "Roll", lang: str | None = None, **settings: Any) -> str:
    """The roll as one line of Markdown."""
    gettext, ngettext = catalogue(lang)
    out: list[str] = []
    _walk(roll.parts(), out, gettext, ngettext, False)
    return "".join(out)


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, struck: bool) -> None:
    for part in parts:
        kind = type(part)
        if kind is str:
            out.append(escape(part))
        elif kind is Face:
            die = part.die
            text = narrative_text(part, gettext) if part.symbols is not None else str(die.value)
            marks = escape(face_marks(part)) if part.symbols is None else ""
            if struck:
                out.append(text + marks)
            elif die.rerolled or not die.kept:
                out.append(f"~~{text}~~{marks}" + ("r" if die.rerolled else ""))
            elif is_critical(part):
                out.append(f"***{text}***{marks}")
            else:
                out.append(f"**{text}**{marks}")
        elif kind is Words:
            out.append(escape(words_text(part, gettext, ngettext)))
        elif kind is Group:
            if part.role == "expression":
                out.append("`" + "".join(str(p) for p in part.parts).replace("`", "'") + "`")
                continue
            inner: list[str] = []
            _walk(part.parts, inner, gettext, ngettext, struck or part.role == "struck")
            text = "".join(inner)
            out.append(f"~~{text}~~" if part.role == "struck" else f"**{text}**")
