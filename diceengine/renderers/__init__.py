"""A roll as text in several formats, one small module each: ``plain`` (the line ``str(roll)`` prints),
``markdown`` (chat: Discord, Slack), ``html`` (a fragment for a web page) and ``symbols`` (narrative
and d6 faces as Unicode symbols or emoji names).

Each module has ``render(roll, lang=None, **settings) -> str``; it reads the roll's parts
(:meth:`diceengine.rolls.Roll.parts`: its dice, words and outcome) and the system's declared
``symbols``; systems never format. Words come from the catalogues of :mod:`diceengine.i18n`.

The renderers depend on the results (:mod:`diceengine.parts`, :mod:`diceengine.registry`,
:mod:`diceengine.rolls`), never the reverse: importing this package installs its writers into them
(:func:`diceengine.rolls.set_renderers` for :meth:`~diceengine.rolls.Roll.render`,
:func:`diceengine.registry.set_plain_text` for the default of :meth:`~diceengine.registry.Plan.describe`),
and ``import diceengine`` imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import DiceError
from ..i18n import N_
from ..registry import set_plain_text
from ..rolls import set_renderers
from .explain import (
    Context,
    Writers,
    compile_explainer,
    context,
    face_marks,
    narrative_text,
    walk,
    words_text,
)

if TYPE_CHECKING:
    from ..registry import Plan
    from ..rolls import Roll

__all__ = ["FORMATS", "Context", "Writers", "compile_explainer", "context", "face_marks", "narrative_text",
           "render", "renderer", "walk", "words_text"]

#: format name -> module of :mod:`diceengine.renderers`
FORMATS = {"plain": "plain", "markdown": "markdown", "html": "html", "symbols": "symbols"}

_loaded: dict[str, Callable[..., str]] = {}


def renderer(fmt: str) -> Callable[..., str]:
    """The ``render`` function of format ``fmt``; an unknown format raises the engine's error."""
    found = _loaded.get(fmt)
    if found is None:
        if fmt not in FORMATS:
            raise DiceError(N_("unknown format {fmt} (known: {known})"), fmt=repr(fmt), known=', '.join(FORMATS))
        found = _loaded[fmt] = import_module(f"{__name__}.{FORMATS[fmt]}").render
    return found


def render(roll: Roll, fmt: str = "plain", lang: str | None = None, **settings: Any) -> str:
    """``roll`` in format ``fmt`` and language ``lang``."""
    return renderer(fmt)(roll, lang, **settings)


def _describe(plan: Plan, outcome: Any, record: Any) -> str:
    """The default of :meth:`~diceengine.registry.Plan.describe` until the plain renderer is loaded: it loads
    it (on first use, as every format) and installs its ``describe``, which later calls reach directly."""
    describe = import_module(f"{__name__}.plain").describe
    set_plain_text(describe)
    return describe(plan, outcome, record)


set_renderers(renderer)
set_plain_text(_describe)
