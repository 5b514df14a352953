"""Plain text: the line ``str(roll)`` prints (``4d6kh3: [~1~, 6, 5, 2] = 13``). A dropped die is
``~1~``, a re-rolled one ``~1~r``, an exploding face ``6!``, successes ``*``, failures ``_``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Group, Words
from . import catalogue, face_cache, face_marks, narrative_text, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["face_text", "render", "render_parts"]


def render(roll: Roll, lang: str | None = None, **settings: Any) -> str:
    """The roll in one line of plain text."""
    return render_parts(roll.parts(), lang)


def render_parts(parts: Iterable[Any], lang: str | None = None) -> str:
    """Parts as one line of plain text."""
    gettext, ngettext = catalogue(lang)
    out: list[str] = []
    _walk(parts, out, gettext, ngettext, False, face_cache("plain", lang))
    return "".join(out)


def face_text(face: Face, gettext: Callable, struck: bool = False) -> str:
    """One die: ``5``, ``~1~`` dropped, ``~1~r`` re-rolled, ``6!`` exploding, ``10*`` a success,
    ``ability success + advantage``."""
    if face.symbols is not None:
        return narrative_text(face, gettext)
    die = face.die
    if die.rerolled:
        return f"~{die.value}~r"
    if die.kept or struck:
        return f"{die.value}{face_marks(face)}"
    return f"~{die.value}{face_marks(face)}~"


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, struck: bool,
          cache: dict[Any, str]) -> None:
    append = out.append
    for part in parts:
        kind = type(part)
        if kind is str:
            append(part)
        elif kind is Face:
            if struck:
                append(face_text(part, gettext, True))
                continue
            text = cache.get(part)
            if text is None:
                text = cache[part] = face_text(part, gettext)
            append(text)
        elif kind is Dice:
            append(part.sep.join(map(str, part.values)))
        elif kind is Words:
            text = cache.get(part)
            if text is None:
                text = cache[part] = words_text(part, gettext, ngettext)
            append(text)
        elif kind is Group:
            if part.role == "struck":
                append("~")
                _walk(part.parts, out, gettext, ngettext, True, cache)
                append("~")
            else:
                _walk(part.parts, out, gettext, ngettext, struck, cache)
