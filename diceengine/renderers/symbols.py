"""Symbols: the faces of narrative dice and of six-sided dice as Unicode symbols (the system's
declared ``symbols``: ``🟩 ✹▲`` for an ability die showing a success and an advantage, ``⚄`` for a
five), or as emoji names a chat bot maps to its server's emoji (``emoji=True``: ``:ability: :success:
:advantage:``; ``symbols={"success": "<:s:123>"}`` replaces any of them). Dice without a symbol are
written as in plain text. ``colour_emoji=False`` writes each colour emoji (the FFG dice's squares, empty boxes
where no colour emoji font is installed) as its name in the user's language (``capacité ✹▲``);
:func:`legend` says what each symbol stands for."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Words
from ..registry import get_system
from .explain import Context, Writers, compiled, context, face_marks, walk, words_text

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["emoji_name", "legend", "render", "text_fallback"]


def emoji_name(key: str) -> str:
    """``"d6:5"`` -> ``":d6_5:"``, ``"success"`` -> ``":success:"``."""
    return ":" + key.replace(":", "_").replace("-", "minus") + ":"


def _wide(text: str) -> bool:
    """``text`` holds a colour emoji or another character two columns wide (the FFG dice's squares)."""
    import unicodedata

    return any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in text)


def text_fallback(system: str, lang: str | None = None) -> dict[str, str]:
    """The system's symbols that are colour emoji, each as its name in ``lang`` (``{"ability": "capacité"}``): the
    ``symbols`` to pass where no colour emoji font draws them."""
    from ..i18n import gettext

    return {key: gettext(key, lang) for key, shown in get_system(system).symbols.items() if _wide(shown)}


def legend(system: str, lang: str | None = None, colour_emoji: bool = True) -> str:
    """What each of the system's symbols stands for, in ``lang``: ``🟩 ability, 🟨 proficiency, ..., ✹ success``
    (the faces of numeric dice, ``d6:5``, left out); an empty text for a system without symbols."""
    from ..i18n import gettext

    shown = {**get_system(system).symbols, **({} if colour_emoji else text_fallback(system, lang))}
    return ", ".join(f"{symbol} {gettext(key, lang)}" for key, symbol in shown.items()
                     if ":" not in key and symbol != gettext(key, lang))


def render(roll: Roll, lang: str | None = None, *, emoji: bool = False,
           symbols: Mapping[str, str] | None = None, colour_emoji: bool = True, **settings: Any) -> str:
    """The roll with its faces as symbols (``colour_emoji=False``: a colour emoji as its name)."""
    table: Mapping[str, str]
    if not colour_emoji and not emoji:
        symbols = {**text_fallback(roll.system, lang), **(symbols or {})}
    if symbols:  # a table given by the caller: its texts are not remembered
        table = {**_table(roll.system, emoji), **symbols}
        shared = context("symbols", roll.system, emoji, lang=lang)
        ctx = Context(shared.gettext, shared.ngettext, {})
    else:
        plan = roll._plan
        write = compiled(_WRITERS, (id(plan), lang, emoji), plan,
                         lambda parts, out, c: _walk(parts, out, c, _table(roll.system, emoji), False),
                         "symbols", roll.system, emoji, lang=lang)
        if write is not None:
            return write(roll.outcome, roll._record)
        ctx = context("symbols", roll.system, emoji, lang=lang)
        table = _table(roll.system, emoji)
    out: list[str] = []
    _walk(roll.parts(), out, ctx, table, False)
    return "".join(out)


_WRITERS: Writers = {}
_TABLES: dict[tuple[int, bool], tuple[Any, Mapping[str, str]]] = {}


def _table(system: str, emoji: bool) -> Mapping[str, str]:
    """The system's declared symbols, or their emoji names."""
    plugin = get_system(system)
    found = _TABLES.get((id(plugin), emoji))
    if found is None or found[0] is not plugin:
        found = (plugin, {k: emoji_name(k) for k in plugin.symbols} if emoji else plugin.symbols)
        if len(_TABLES) >= 64:
            _TABLES.clear()
        _TABLES[(id(plugin), emoji)] = found
    return found[1]


def _face(face: Face, table: Mapping[str, str], gettext: Callable) -> str:
    die = face.die
    if face.symbols is not None:
        shown = "".join(table.get(s, gettext(s)) for s in face.symbols) if face.symbols else table.get("blank", "")
        return f"{table.get(die.kind, gettext(die.kind))} {shown}".rstrip()
    symbol = table.get(f"{die.kind}:{die.value}")
    return (symbol if symbol is not None else str(die.value)) + face_marks(face)


def _text(part: Any, ctx: Context, table: Mapping[str, str], struck: bool) -> str:
    kind = type(part)
    if kind is Face:
        text = _face(part, table, ctx.gettext)
        if struck:
            return text
        if part.die.rerolled:
            return f"~{text}~r"
        return text if part.die.kept else f"~{text}~"
    if kind is Words:
        return words_text(part, ctx.gettext, ctx.ngettext)
    inner: list[str] = []  # a group
    _walk(part.parts, inner, ctx, table, struck or part.role == "struck")
    return f"~{''.join(inner)}~" if part.role == "struck" else "".join(inner)


def _walk(parts: Iterable[Any], out: list[str], ctx: Context, table: Mapping[str, str], struck: bool) -> None:
    def dice(run: Dice, struck: bool) -> str:
        prefix = run.kind + ":"
        return run.sep.join([table.get(prefix + str(v)) or str(v) for v in run.values])

    walk(parts, out, ctx, struck, lambda part, c, s: _text(part, c, table, s), dice)