"""What every format of :mod:`diceengine.renderers` shares: the words of a part in a catalogue, the marks of a
face, the per-language :class:`Context` that remembers texts, the compiled explainer of a plan, and
:func:`walk`, which writes a roll's parts in one format."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..i18n import N_, translations
from ..parts import Dice
from ..records import NamedTuple

if TYPE_CHECKING:
    from ..parts import Face, Words
    from ..registry import Plan

__all__ = ["BLANK", "CACHE_SIZE", "PLANS", "Context", "Writers", "compile_explainer", "compiled", "context",
           "face_marks", "narrative_text", "walk", "words_text"]


def words_text(words: Words, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
    """The text of a :class:`~diceengine.parts.Words` in a catalogue."""
    if words.plural is not None and words.n is not None:
        return ngettext(words.message, words.plural, words.n).format(n=words.n, **dict(words.args))
    text = gettext(words.message)
    return text.format(**dict(words.args)) if words.args else text


#: a face a critical marker flags (``cs`` / ``cf``), right after its value: ``20(cs)``, ``4(cs)!``
_CRITICAL_MARKS = {"success": "(cs)", "failure": "(cf)"}


def face_marks(face: Face) -> str:
    """What a numeric face counts for, after its value: ``(cs)`` / ``(cf)`` a critical mark, ``!`` exploded,
    ``*`` per success, ``_`` per failure, ``!`` a complication."""
    die = face.die
    marks = _CRITICAL_MARKS.get(die.critical, "") if die.critical is not None else ""
    if die.exploded:
        marks += "!"
    if face.score > 0:
        marks += "*" * face.score
    elif face.score < 0:
        marks += "_" * -face.score
    if face.complication:
        marks += "!"
    return marks


BLANK = N_("blank")


def narrative_text(face: Face, gettext: Callable[[str], str]) -> str:
    """``"ability success + advantage"``: the die's name and the symbols on its face, in words."""
    shown = " + ".join(gettext(s) for s in face.symbols) if face.symbols else gettext(BLANK)
    return gettext("{die} {face}").format(die=gettext(face.die.kind), face=shown)


class Context(NamedTuple):
    """What a renderer needs for one format and language: the catalogue and the texts it remembers (by
    part, and by the identity of the part objects a system reuses from roll to roll)."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    cache: dict[Any, str]
    known: dict[int, tuple[Any, str]] | None = None
    """``id(part) -> (part, text)``: holding the part keeps its id from being reused (``None``: not kept)"""


_CONTEXTS: dict[tuple[Any, ...], Context] = {}
#: most texts remembered per format and language (faces repeat: a d6 has six; words, verdicts...)
CACHE_SIZE = 4096


def context(*key: Any, lang: str | None) -> Context:
    """The :class:`Context` of ``key`` (format, ...) in ``lang``. Parts are immutable and their text
    depends only on the part, the format and the language, so each is written once."""
    found = _CONTEXTS.get((lang, *key))
    if found is None or len(found.cache) > CACHE_SIZE:
        t = translations(lang)
        found = _CONTEXTS[(lang, *key)] = Context(t.gettext, t.ngettext, {}, {})
    return found


#: most (plan, language) explainers a format remembers
PLANS = 1024
Writers = dict[tuple[Any, ...], tuple[Any, Any]]
"""A format's compiled explainers: ``(id(plan), lang, ...) -> (plan, explainer or None)``; the plan held
in the entry keeps its id from being reused. A renderer reads it directly (one look-up per roll)."""


def compile_explainer(writers: Writers, key: tuple[Any, ...], plan: Plan,
                      walk_parts: Callable[[Iterable[Any], list[str], Context], None],
                      *fmt: Any, lang: str | None) -> tuple[Any, Any]:
    """``writers[key] = (plan, the plan's explainer in format fmt and lang)`` (see
    :meth:`diceengine.registry.Plan.explainer`; ``walk_parts`` writes parts at the top level of a text)."""
    ctx = context(*fmt, lang=lang)
    known = ctx.known

    def text(part: Any) -> str:
        if known is not None:
            seen = known.get(id(part))
            if seen is not None and seen[0] is part:
                return seen[1]
        if len(ctx.cache) > CACHE_SIZE:  # an explainer may ask for texts long after it was compiled
            ctx.cache.clear()
        out: list[str] = []
        walk_parts((part,), out, ctx)
        return "".join(out)

    if len(writers) >= PLANS:
        writers.clear()
    found = writers[key] = (plan, plan.explainer(text))
    return found


def compiled(writers: Writers, key: tuple[Any, ...], plan: Plan,
             walk_parts: Callable[[Iterable[Any], list[str], Context], None], *fmt: Any,
             lang: str | None) -> Callable[[Any, Any], str] | None:
    """The plan's explainer in format ``fmt`` and ``lang``, compiled once and kept in ``writers`` under ``key``
    (``None``: the plan has none, its parts are walked)."""
    found = writers.get(key)
    if found is None or found[0] is not plan:
        found = compile_explainer(writers, key, plan, walk_parts, *fmt, lang=lang)
    return found[1]  # type: ignore[no-any-return]


def walk(parts: Iterable[Any], out: list[str], ctx: Context, struck: bool, text: Callable[[Any, Context, bool], str],
         dice: Callable[[Dice, bool], str], literal: Callable[[str], str] | None = None) -> None:
    """Append the text of each part to ``out``, as one format writes it: literal strings through
    ``literal`` (as they are when ``None``), runs of plain dice through ``dice(run, struck)``, faces, words
    and groups through ``text(part, ctx, struck)``. Texts not struck are remembered in ``ctx``: a part
    object seen before is found by its identity (hashing a part hashes every field of it)."""
    append = out.append
    cache = ctx.cache
    known = ctx.known
    for part in parts:
        kind = type(part)
        if kind is str:
            if literal is None:
                append(part)
                continue
            found = cache.get(part)
            if found is None:
                found = cache[part] = literal(part)
            append(found)
        elif kind is Dice:
            append(dice(part, struck))
        elif struck:
            append(text(part, ctx, True))
        else:
            if known is not None:
                seen = known.get(id(part))
                if seen is not None and seen[0] is part:
                    append(seen[1])
                    continue
            found = cache.get(part)
            if found is None:
                found = cache[part] = text(part, ctx, False)
            if known is not None:
                if len(known) >= CACHE_SIZE:
                    known.clear()
                known[id(part)] = (part, found)
            append(found)
