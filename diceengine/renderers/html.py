"""An HTML fragment for a web page: one ``<span class="dice-roll dice-SYSTEM">`` holding the
expression (``<code>``), each die as a ``<span class="die die-KIND ...">`` whose classes say what it
did (``kept`` / ``dropped``, ``rerolled``, ``exploded``, ``wild``, ``added``, ``critical``,
``success``, ``failure``, ``complication``, and the narrative symbols), and the result in
``<strong>``. Style it with CSS; every text is escaped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from html import escape
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Words
from .explain import Context, Writers, compile_explainer, context, face_marks, narrative_text, walk, words_text
from .markdown import is_critical

if TYPE_CHECKING:
    from ..rolls import Roll

__all__ = ["die_classes", "render"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def die_classes(face: Face) -> str:
    """The CSS classes of a die."""
    die = face.die
    classes = ["die", "die-" + _UNSAFE.sub("", die.kind), "kept" if die.kept else "dropped"]
    for flag in ("rerolled", "exploded", "wild", "added"):
        if getattr(die, flag):
            classes.append(flag)
    if is_critical(face):
        classes.append("critical")
    if face.score > 0:
        classes.append("success")
    elif face.score < 0:
        classes.append("failure")
    if face.complication:
        classes.append("complication")
    if face.symbols is not None:
        classes.extend(sorted(set(face.symbols)) or ["blank"])
    return " ".join(classes)


def render(roll: Roll, lang: str | None = None, **settings: Any) -> str:
    """The roll as an HTML fragment."""
    plan = roll._plan
    found = _WRITERS.get((id(plan), lang, roll.system))
    if found is None or found[0] is not plan:
        found = compile_explainer(_WRITERS, (id(plan), lang, roll.system), plan, _walk, "html", lang=lang)
        if found[1] is not None:  # the explainer's text inside the roll's <span>
            write, head = found[1], _head(roll.system, lang)
            found = _WRITERS[(id(plan), lang, roll.system)] = (plan, lambda o, r: head + write(o, r) + "</span>")
    if found[1] is not None:
        return found[1](roll.outcome, roll._record)
    out = [_head(roll.system, lang)]
    _walk(roll.parts(), out, context("html", lang=lang))
    out.append("</span>")
    return "".join(out)


def _head(system: str, lang: str | None) -> str:
    """The roll's opening ``<span>``."""
    found = _HEADS.get((system, lang))
    if found is None:
        found = _HEADS[(system, lang)] = \
            f'<span class="dice-roll dice-{_UNSAFE.sub("", system)}" lang="{escape(lang or "en")}">'
    return found


_WRITERS: Writers = {}
_HEADS: dict[tuple[str, str | None], str] = {}  # (system, language) -> the opening tag


def face_text(face: Face, gettext: Callable) -> str:
    """One die as a ``<span>``."""
    die = face.die
    text = narrative_text(face, gettext) if face.symbols is not None else f"{die.value}{face_marks(face)}"
    title = f' title="{escape(die.label)}"' if die.label else ""
    return f'<span class="{die_classes(face)}"{title}>{escape(text)}</span>'


def _dice_span(dice: Dice, value: int) -> str:
    critical = " critical" if value == dice.sides and dice.sides >= 4 else ""
    title = f' title="{escape(dice.label)}"' if dice.label else ""
    return f'<span class="die die-{_UNSAFE.sub("", dice.kind)} kept{critical}"{title}>{value}</span>'


_TAGS = {"struck": ("s", "dropped"), "result": ("strong", "dice-result"), "expression": ("code", "dice-expression")}


def _text(part: Any, ctx: Context, struck: bool = False) -> str:
    kind = type(part)
    if kind is Face:
        return face_text(part, ctx.gettext)
    if kind is Words:
        return escape(words_text(part, ctx.gettext, ctx.ngettext))
    tag, cls = _TAGS.get(part.role, ("span", part.role))  # a group
    inner = [f'<{tag} class="{cls}">']
    _walk(part.parts, inner, ctx)
    inner.append(f"</{tag}>")
    return "".join(inner)


def _dice_run(run: Dice, struck: bool) -> str:
    return escape(run.sep).join([_dice_span(run, v) for v in run.values])


def _walk(parts: Iterable[Any], out: list[str], ctx: Context) -> None:
    walk(parts, out, ctx, False, _text, _dice_run, escape)