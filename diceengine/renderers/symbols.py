"""Symbols: the faces of narrative dice and of six-sided dice as Unicode symbols (the system's
declared ``symbols``: ``🟩 ✹▲`` for an ability die showing a success and an advantage, ``⚄`` for a
five), or as emoji names a chat bot maps to its server's emoji (``emoji=True``: ``:ability: :success:
:advantage:``; ``symbols={"success": "<:s:123>"}`` replaces any of them). Dice without a symbol are
written as in plain text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Group, Words
from ..registry import get_system
from . import catalogue, face_cache, face_marks, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["emoji_name", "render"]


def emoji_name(key: str) -> str:
    """``"d6:5"`` -> ``":d6_5:"``, ``"success"`` -> ``":success:"``."""
    return ":" + key.replace(":", "_").replace("-", "minus") + ":"


def render(roll: Roll, lang: str | None = None, *, emoji: bool = False,
           symbols: Mapping[str, str] | None = None, **settings: Any) -> str:
    """The roll with its faces as symbols."""
    declared = get_system(roll.system).symbols
    table = {k: emoji_name(k) for k in declared} if emoji else declared
    if symbols:
        table = {**table, **symbols}
    gettext, ngettext = catalogue(lang)
    # faces are remembered for the system's own table; a table given by the caller is not
    cache = face_cache("symbols", lang, roll.system, emoji) if not symbols else {}
    out: list[str] = []
    _walk(roll.parts(), out, gettext, ngettext, table, False, cache)
    return "".join(out)


def _face(face: Face, table: Mapping[str, str], gettext: Callable) -> str:
    die = face.die
    if face.symbols is not None:
        shown = "".join(table.get(s, gettext(s)) for s in face.symbols) if face.symbols else table.get("blank", "")
        return f"{table.get(die.kind, gettext(die.kind))} {shown}".rstrip()
    symbol = table.get(f"{die.kind}:{die.value}")
    return (symbol if symbol is not None else str(die.value)) + face_marks(face)


def _walk(parts: Iterable[Any], out: list[str], gettext: Callable, ngettext: Callable, table: Mapping[str, str],
          struck: bool, cache: dict[Any, str]) -> None:
    append = out.append
    for part in parts:
        kind = type(part)
        if kind is str:
            append(part)
        elif kind is Face:
            if struck:
                append(_face(part, table, gettext))
                continue
            text = cache.get(part)
            if text is None:
                text = _face(part, table, gettext)
                die = part.die
                if die.rerolled:
                    text = f"~{text}~r"
                elif not die.kept:
                    text = f"~{text}~"
                cache[part] = text
            append(text)
        elif kind is Dice:
            prefix = part.kind + ":"
            append(part.sep.join([table.get(prefix + str(v)) or str(v) for v in part.values]))
        elif kind is Words:
            text = cache.get(part)
            if text is None:
                text = cache[part] = words_text(part, gettext, ngettext)
            append(text)
        elif kind is Group:
            if part.role == "struck":
                append("~")
                _walk(part.parts, out, gettext, ngettext, table, True, cache)
                append("~")
            else:
                _walk(part.parts, out, gettext, ngettext, table, struck, cache)
