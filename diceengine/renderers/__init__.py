"""A roll as text in several formats, one small module each: ``plain`` (the line ``str(roll)`` prints),
``markdown`` (chat: Discord, Slack), ``html`` (a fragment for a web page) and ``symbols`` (narrative
and d6 faces as Unicode symbols or emoji names).

Each module has ``render(roll, lang=None, **settings) -> str``; it reads the roll's parts
(:meth:`diceengine.rolls.Roll.parts`: its dice, words and outcome) and the system's declared
``symbols``; systems never format. Words come from the catalogues of :mod:`diceengine.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import DiceError
from ..i18n import N_, translations

if TYPE_CHECKING:
    from ..parts import Face, Words
    from ..rolls import Roll

__all__ = ["FORMATS", "Context", "catalogue", "context", "face_marks", "narrative_text", "render", "renderer",
           "words_text"]

#: format name -> module of :mod:`diceengine.renderers`
FORMATS = {"plain": "plain", "markdown": "markdown", "html": "html", "symbols": "symbols"}

_loaded: dict[str, Callable[..., str]] = {}


def renderer(fmt: str) -> Callable[..., str]:
    """The ``render`` function of format ``fmt``; an unknown format raises the engine's error."""
    found = _loaded.get(fmt)
    if found is None:
        if fmt not in FORMATS:
            raise DiceError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        found = _loaded[fmt] = import_module(f"{__name__}.{FORMATS[fmt]}").render
    return found


def render(roll: Roll, fmt: str = "plain", lang: str | None = None, **settings: Any) -> str:
    """``roll`` in format ``fmt`` and language ``lang``."""
    return renderer(fmt)(roll, lang, **settings)


def words_text(words: Words, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> str:
    """The text of a :class:`~diceengine.parts.Words` in a catalogue."""
    if words.plural is not None and words.n is not None:
        return ngettext(words.message, words.plural, words.n).format(n=words.n, **dict(words.args))
    text = gettext(words.message)
    return text.format(**dict(words.args)) if words.args else text


def face_marks(face: Face) -> str:
    """What a numeric face counts for, after its value: ``!`` exploded, ``*`` per success, ``_`` per
    failure, ``!`` a complication."""
    die = face.die
    marks = "!" if die.exploded else ""
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
    """What a renderer needs for one format and language: the catalogue and the texts it remembers."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    cache: dict[Any, str]


_CONTEXTS: dict[tuple[Any, ...], Context] = {}
#: most texts remembered per format and language (faces repeat: a d6 has six; words, verdicts...)
CACHE_SIZE = 4096


def context(*key: Any, lang: str | None) -> Context:
    """The :class:`Context` of ``key`` (format, ...) in ``lang``. Parts are immutable and their text
    depends only on the part, the format and the language, so each is written once."""
    found = _CONTEXTS.get((lang, *key))
    if found is None or len(found.cache) > CACHE_SIZE:
        t = translations(lang)
        found = _CONTEXTS[(lang, *key)] = Context(t.gettext, t.ngettext, {})
    return found


def catalogue(lang: str | None) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """``(gettext, ngettext)`` of ``lang``'s catalogue."""
    t = translations(lang)
    return t.gettext, t.ngettext
