"""Symbols: the faces of narrative dice and of six-sided dice as Unicode symbols (the system's
declared ``symbols``: ``🟩 ✹▲`` for an ability die showing a success and an advantage, ``⚄`` for a
five), or as emoji names a chat bot maps to its server's emoji (``emoji=True``: ``:ability: :success:
:advantage:``; ``symbols={"success": "<:s:123>"}`` replaces any of them). Dice without a symbol are
written as in plain text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..parts import Face, Group, Words
from ..registry import get_system
from . import catalogue, face_marks, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["render", "emoji_name"]


def emoji_name(key: str) -> str:
    """``"d6:5"`` -> ``":d6_5:"``, ``"success"`` -> ``":success:"``."""
    return ":" + key.replace(":", "_").replace("-", "minus") + ":"


def render(roll: "Roll", lang: str | None = None, *, emoji: bool = False,
           symbols: Mapping[str, str] | None = None, **settings: Any) -> str:
    """The roll with its faces as symbols."""
    declared = get_system(roll.system).symbols
    table = {k: emoji_name(k) for k in declared} if emoji else dict(declared)
    if symbols:
        table.update(symbols)
    gettext, ngettext = catalogue(lang)
    out: list[str] = []
    _walk(roll.parts(), out, gettext, ngettext, table, False)
    return "".join(out)


def _face(face: Face, table: Mapping[str, str], gettext: Callable) -> str:
    die = face.die
    if face.symbols is not None:
        shown = "".join(table.get(s, gettext(s)) for s in face.symbols) if face.symbols else table.get("blank", "")
        return f"{table.get(die.kind, gettext(die.kind))} {shown}".rstrip()
    symbol = table.get(f"{die.kind}:{die.value}")
    return (symbol if symbol is not None else str(die.value)) + face_marks(face)


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, table: Mapping[str, str],
          struck: bool) -> None:
    for part in parts:
        kind = type(part)
        if kind is str:
            out.append(part)
        elif kind is Face:
            text = _face(part, table, gettext)
            die = part.die
            if die.rerolled:
                out.append(f"~{text}~r")
            elif die.kept or struck:
                out.append(text)
            else:
                out.append(f"~{text}~")
        elif kind is Words:
            out.append(words_text(part, gettext, ngettext))
        elif kind is Group:
            if part.role == "struck":
                out.append("~")
                _walk(part.parts, out, gettext, ngettext, table, True)
                out.append("~")
            else:
                _walk(part.parts, out, gettext, ngettext, table, struck)
