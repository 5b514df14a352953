"""The table's errors: each a :class:`~diceengine.DiceError`, its message a template of the catalogues."""

from __future__ import annotations

from diceengine.errors import DiceError

__all__ = ["TableAccessError", "TableConflict", "TableError", "TableFormatError", "TableFull", "TableNotFound"]


class TableError(DiceError):
    """A step the table refuses (an unknown member, a rule that does not apply...): the table is unchanged."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message, None, None, **params)

    def at(self, expression: str | None, column: int | None) -> DiceError:
        return DiceError(self.template, expression, column, **self.params)


class TableAccessError(TableError):
    """The caller is not a member of the table (an unknown name or key) or may not take that step."""


class TableFull(TableError):
    """The table seats no more members (:data:`~diceengine.table.members.MAX_MEMBERS`)."""


class TableConflict(TableError):
    """Another writer stored a step first: the table moved on from the version this step was taken on.
    Nothing was stored; reload the table and take the step again if it still makes sense."""


class TableNotFound(TableError):
    """No table by that name in the store."""


class TableFormatError(TableError):
    """A database or a log that is not a table's of this version: a corrupt or foreign file, another schema, a
    log exported by another version."""
