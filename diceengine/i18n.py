"""The user's language: every human word the engine reads or writes, from one gettext catalogue per
language.

The catalogues are ``diceengine/locale/<lang>/LC_MESSAGES/diceengine.po`` (the sources, edited by
hand) compiled to the ``.mo`` files beside them (shipped as package data, read by Python's
:mod:`gettext`). Message ids are the English text; the English catalogue repeats them, so a
catalogue that misses a message is caught by the tests rather than read as a silent fallback.
Messages are marked in the code with :func:`N_` (and :func:`NP_` for a singular / plural pair) and
extracted with Babel (in the ``test`` extra; the commands are in ``babel.cfg``). After editing a
``.po`` file, recompile: ``pybabel compile -D diceengine -d diceengine/locale``. The compiled
``.mo`` files are committed so that every install (wheel, editable, sdist) has them without a build
step; tests fail while a marked message misses a translation in any catalogue, and while a ``.mo``
file says other than its ``.po``.

A new language is one new ``.po`` file (and its ``.mo``) and its code in :data:`LANGUAGES`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from .errors import DiceError

if TYPE_CHECKING:
    import gettext as _gettext

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "NP_",
    "N_",
    "accepted_language",
    "gettext",
    "language",
    "language_from_environment",
    "locale_dir",
    "ngettext",
    "translate_error",
    "translations",
]

DOMAIN = "diceengine"
#: the languages with a catalogue
LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues (extracted by ``pybabel extract -k N_``); returns it as is."""
    return message


def locale_dir() -> str:
    """The folder holding the catalogues."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")


def language(lang: str | None) -> str:
    """The catalogue code of ``lang``: ``"fr_FR.UTF-8"`` -> ``"fr"``; ``None`` -> English. An unknown
    language raises the engine's error naming the known ones."""
    if lang is None:
        return DEFAULT_LANGUAGE
    if type(lang) is not str:
        if not isinstance(lang, str):
            raise DiceError(N_("a language is a code such as 'fr', not {kind}"), kind=type(lang).__name__)
        lang = str(lang)  # a str subclass: a plain copy before it is cached
    return _code(lang)


@cache
def _code(lang: str) -> str:
    code = lang.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code not in LANGUAGES:
        raise DiceError(N_("no catalogue for language {lang} (known: {known})"), lang=repr(lang),
                        known=", ".join(LANGUAGES))
    return code


def accepted_language(header: str) -> str:
    """The first language of an HTTP ``Accept-Language`` header (``"fr-CH, fr;q=0.9, en;q=0.5"``) that has a
    catalogue, by weight, else English."""
    asked = []
    for i, part in enumerate(header[:500].split(",")[:20]):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        if tag and weight > 0:
            asked.append((-weight, i, tag))
    for _, _, tag in sorted(asked):
        try:
            return language(tag)
        except DiceError:
            continue
    return DEFAULT_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as
    gettext reads them), or English when it names none with a catalogue."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if not value:
            continue
        for item in value.split(":"):
            try:
                return language(item)
            except DiceError:
                continue
        if name != "LANGUAGE":  # the first variable set decides, as in gettext
            break
    return DEFAULT_LANGUAGE


@cache
def translations(lang: str | None) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (English when ``None``)."""
    import gettext as _gettext  # on first use: importing the engine stays light

    return _gettext.translation(DOMAIN, localedir=locale_dir(), languages=[language(lang)], fallback=True)


def gettext(message: str, lang: str | None = None, **args: Any) -> str:
    """``message`` in ``lang``, its ``{fields}`` filled from ``args``."""
    text = translations(lang).gettext(message)
    return text.format(**args) if args else text


def ngettext(singular: str, plural: str, n: int, lang: str | None = None, **args: Any) -> str:
    """The singular or plural form for ``n`` in ``lang`` (``{n}`` and ``args`` filled in)."""
    return translations(lang).ngettext(singular, plural, n).format(n=n, **args)


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular / plural pair for the catalogues; returns it as is."""
    return singular, plural


OR = N_("or")


def translate_error(err: DiceError, lang: str | None) -> DiceError:
    """``err`` with its message said in ``lang`` (its template and the names in its lists translated)."""
    from .errors import join_choices

    t = translations(lang)
    params = {k: join_choices([t.gettext(i) for i in v], t.gettext(OR)) if isinstance(v, (list, tuple)) else v
              for k, v in err.params.items()}
    text = t.gettext(err.template)
    err.reword(text.format(**params) if params else text)
    return err
