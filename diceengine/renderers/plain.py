"""Plain text: the line ``str(roll)`` prints (``4d6kh3: [~1~, 6, 5, 2] = 13``). A dropped die is
``~1~``, a re-rolled one ``~1~r``, an exploding face ``6!``, successes ``*``, failures ``_``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..parts import Dice, Face, Words
from .explain import Context, Writers, compiled, context, face_marks, narrative_text, walk, words_text

if TYPE_CHECKING:
    from ..registry import Plan
    from ..rolls import Roll

__all__ = ["describe", "face_text", "render", "render_parts"]


def render(roll: Roll, lang: str | None = None, **settings: Any) -> str:
    """The roll in one line of plain text."""
    return describe(roll._plan, roll.outcome, roll._record, lang)


_WRITERS: Writers = {}


def describe(plan: Plan, outcome: Any, record: Any, lang: str | None = None) -> str:
    """A roll of ``plan`` as one line of plain text (through the plan's explainer when it has one)."""
    write = compiled(_WRITERS, (id(plan), lang), plan, _walk, "plain", lang=lang)
    if write is not None:
        return write(outcome, record)
    return render_parts(plan.explain(outcome, record), lang)


def render_parts(parts: Iterable[Any], lang: str | None = None) -> str:
    """Parts as one line of plain text."""
    out: list[str] = []
    _walk(parts, out, context("plain", lang=lang))
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


def _text(part: Any, ctx: Context, struck: bool) -> str:
    kind = type(part)
    if kind is Face:
        return face_text(part, ctx.gettext, struck)
    if kind is Words:
        return words_text(part, ctx.gettext, ctx.ngettext)
    inner: list[str] = []  # a group
    _walk(part.parts, inner, ctx, struck or part.role == "struck")
    return f"~{''.join(inner)}~" if part.role == "struck" else "".join(inner)


def _dice(run: Dice, struck: bool) -> str:
    return run.sep.join(map(str, run.values))


def _walk(parts: Iterable[Any], out: list[str], ctx: Context, struck: bool = False) -> None:
    walk(parts, out, ctx, struck, _text, _dice)
