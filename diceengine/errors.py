"""The engine's errors: every failure a user can cause raises one of these."""

from __future__ import annotations

__all__ = ["DiceError", "DiceSyntaxError", "DiceLimitError", "DiceValueError"]


def caret_line(expression: str, column: int) -> str:
    """The expression and a caret under ``column`` (0-based), on two lines."""
    column = max(0, min(column, len(expression)))
    shown = "".join(" " if c in "\t\r\n\x0b\x0c" else c for c in expression)
    return f"  {shown}\n  {' ' * column}^"


class DiceError(Exception):
    """Base class of every error the engine raises on bad input."""

    def __init__(self, message: str, expression: str | None = None, column: int | None = None) -> None:
        self.message = message
        self.expression = expression
        self.column = column
        super().__init__(self._render())

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
