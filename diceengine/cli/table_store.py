"""Where a ``dice table`` command finds its table (shared by :mod:`.table` and :mod:`.table_provable`): the store of
a file or a database URL, the game master who acts when none is named, and the fairness test's words."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from ..errors import DiceError
from ..i18n import N_

__all__ = ["FAIR", "FAIR_NONE", "FILE_TABLE", "game_master_of", "stepped", "store_of"]

#: the id of the table a SQLite file of the command line holds
FILE_TABLE = "table"
FAIR = N_("fairness: p = {p} ({method}, {rolls} rolls, {dof} degrees of freedom)")
FAIR_NONE = N_("fairness: too few rolls to test")


def store_of(args: argparse.Namespace, create: bool = False) -> tuple[Any, str]:
    """The store of the command's table and the table's id in it (a SQLite file holds one table)."""
    try:
        from ..table.store import open_store
    except ImportError:
        raise DiceError(N_("dice table needs the table extra: pip install 'diceengine[table]'")) from None
    if args.db:
        return open_store(args.db, create=True), args.file
    if not create and not os.path.exists(args.file):
        from ..table import TableNotFound

        raise TableNotFound(N_("no table database at {where}"), where=args.file)
    return open_store(args.file, create=create), FILE_TABLE


def stepped(args: argparse.Namespace, step: Callable[[Any], Any], retries: int = 0) -> Any:
    """The command's table after ``step`` is taken on it and committed (``retries``: as
    :meth:`diceengine.table.store.TableStore.update` takes them)."""
    store, table_id = store_of(args)
    with store:
        return store.update(table_id, step, retries=retries)


def game_master_of(table: Any, name: str | None) -> str:
    """``name``, or the table's first game master when none is named."""
    from ..table import TableAccessError

    if name is not None:
        return name
    found = table.gm()
    if not found:
        raise TableAccessError(N_("only the game master may undo a step"))
    return str(found[0])
