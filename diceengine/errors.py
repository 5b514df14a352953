"""The engine's errors: every failure a user can cause raises one of these."""

from __future__ import annotations

__all__ = ["DiceError", "DiceLimitError", "DiceSyntaxError", "DiceValueError"]


def caret_line(expression: str, column: int) -> str:
    """The expression and a caret under ``column`` (0-based), on two lines."""
    column = max(0, min(column, len(expression)))
    shown = "".join(" " if c in "\t\r\n\x0b\x0c" else c for c in expression)
    return f"  {shown}\n  {' ' * column}^"


def join_choices(items: list[str] | tuple[str, ...], or_word: str = "or") -> str:
    """``"a, b or c"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {or_word} " + items[-1]


class DiceError(Exception):
    """Base class of every error the engine raises on bad input.

    ``message`` may be a template of the catalogues with ``{fields}`` filled from ``params`` (a list
    value reads as "a, b or c"), so that :func:`diceengine.i18n.translate_error` can say it in the
    user's language.
    """

    def __init__(self, message: str, expression: str | None = None, column: int | None = None,
                 **params: object) -> None:
        self.template = message
        self.params = params
        self.message = message.format(**{k: join_choices(v) if isinstance(v, (list, tuple)) else v
                                         for k, v in params.items()}) if params else message
        self.expression = expression
        self.column = column
        super().__init__(self._render())

    def at(self, expression: str | None, column: int | None) -> DiceError:
        """The same error located in ``expression`` at ``column``."""
        return type(self)(self.template, expression, column, **self.params)

    def reword(self, message: str) -> None:
        """Replace the message (translated), keeping the location."""
        self.message = message
        self.args = (self._render(),)

    def _render(self) -> str:
        if self.expression is None or self.column is None:
            return self.message
        return f"{self.message}\n{caret_line(self.expression, self.column)}"


class DiceSyntaxError(DiceError):
    """The expression does not follow the system's notation; carries the position of the fault."""


class DiceLimitError(DiceError):
    """A bound was reached: too many dice, an explosion or re-roll too deep, an expression too long or too nested."""


class DiceValueError(DiceError):
    """The expression parses but means nothing rollable (0D, division by zero, a pool out of range...)."""


class Unwritten(Exception):
    """A value the direct JSON of a roll (:mod:`diceengine.rolljson`) does not write: pydantic writes that roll.
    Internal: never reaches a user."""
