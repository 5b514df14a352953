"""Plain text: the line ``str(roll)`` prints (``4d6kh3: [~1~, 6, 5, 2] = 13``). A dropped die is
``~1~``, a re-rolled one ``~1~r``, an exploding face ``6!``, successes ``*``, failures ``_``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..parts import Face, Group, Words
from . import catalogue, face_marks, narrative_text, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["render", "render_parts"]


def render(roll: "Roll", lang: str | None = None, **settings: Any) -> str:
    """The roll in one line of plain text."""
    return render_parts(roll.parts(), lang)


def render_parts(parts: Iterable[Any], lang: str | None = None) -> str:
    """Parts as one line of plain text."""
    gettext, ngettext = catalogue(lang)
    out: list[str] = []
    _walk(parts, out, gettext, ngettext, False)
    return "".join(out)


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, struck: bool) -> None:
    for part in parts:
        kind = type(part)
        if kind is str:
            out.append(part)
        elif kind is Face:
            if part.symbols is not None:
                out.append(narrative_text(part, gettext))
                continue
            die = part.die
            if die.rerolled:
                out.append(f"~{die.value}~r")
            elif die.kept or struck:
                out.append(f"{die.value}{face_marks(part)}")
            else:
                out.append(f"~{die.value}{face_marks(part)}~")
        elif kind is Words:
            out.append(words_text(part, gettext, ngettext))
        elif kind is Group:
            if part.role == "struck":
                out.append("~")
                _walk(part.parts, out, gettext, ngettext, True)
                out.append("~")
            else:
                _walk(part.parts, out, gettext, ngettext, struck)
