"""An AnyDice program's errors: the engine's, located at a line of the program (its text and a caret under the
fault), said in the user's language."""

from __future__ import annotations

from typing import Any

from diceengine.errors import DiceError
from diceengine.i18n import N_, gettext, translate_error

__all__ = ["LINE", "locate", "located", "say"]

#: what precedes an error's message
LINE = N_("line {line}: ")


def locate(text: str, pos: int) -> tuple[int, str, int]:
    """``(line number from 1, the line's text, column in it)`` of the character offset ``pos``."""
    pos = max(0, min(pos, len(text)))
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start:] if end < 0 else text[start:end]
    return text.count("\n", 0, pos) + 1, line, pos - start


def located(cls: type[DiceError], template: str, text: str, pos: int, **params: Any) -> DiceError:
    """An error of class ``cls`` (``template`` filled from ``params``) at the offset ``pos`` of the program ``text``:
    its line's number before the message, the line and a caret after it."""
    line, shown, column = locate(text, pos)
    err = cls(template, shown, column, line=line, **params)
    err.reword(LINE.format(line=line) + err.message)
    return err


def say(err: DiceError, lang: str | None) -> DiceError:
    """``err`` said in ``lang`` (its line's number kept before the message)."""
    line = err.params.get("line")
    translate_error(err, lang)
    if line is not None:
        err.reword(gettext(LINE, lang, line=line) + err.message)
    return err
