"""The game table: a game's members, its state of play, its roll log and its luck, kept in a database.

- :mod:`~diceengine.table.model`: the state as plain data (:class:`Table`, :class:`Entry`...), JSON both ways;
- :mod:`~diceengine.table.rules`: the rules of the table, functions from a table to a new one (a member joins,
  leaves or is removed, a key rotated; roll, secret roll, re-roll, undo, a rule of play, flip a token, next turn,
  export and import the log);
- :mod:`~diceengine.table.provable`: committed seeds (the dice derived from a server seed committed before any
  roll, a member's client seed, sealed secret rolls); :mod:`~diceengine.table.verify`: a log verified offline;
- :mod:`~diceengine.table.luck`: luck and fairness against the exact odds;
- :mod:`~diceengine.table.store`: storage behind :class:`TableStore` (SQLAlchemy: SQLite, PostgreSQL; the
  ``table`` extra), and :class:`Seat`, a member's handle on a stored table, by key.

The table names no ruleset: the rulesets' states of play plug in through their system's ``rules_of_play()``.
"""

from __future__ import annotations

from typing import Any

from .errors import TableAccessError, TableConflict, TableError, TableFormatError, TableFull, TableNotFound
from .luck import Fairness, GroupFit, Luck, chi2_sf, fairness, luck
from .model import FORMAT, Character, Entry, Member, Odds, Play, Table
from .provable import end_table, reveal_secret, rotate_seed, set_client_seed
from .rules import (
    add_character,
    adjust,
    authenticate,
    export_log,
    flip,
    import_log,
    join,
    last_roll,
    new_table,
    next_round,
    next_turn,
    readmit,
    remove_member,
    reroll,
    roll,
    rotate_key,
    rule,
    set_order,
    state_of,
    undo,
    view,
)
from .verify import Problem, Report, verify

__all__ = [
    "FORMAT", "Character", "Entry", "Fairness", "GroupFit", "Luck", "Member", "Odds", "Play", "Problem", "Report",
    "Seat",
    "SqlTableStore", "Table", "TableAccessError", "TableConflict", "TableError", "TableFormatError",
    "TableFull", "TableNotFound", "TableStore", "add_character", "adjust", "authenticate", "chi2_sf", "end_table", "export_log",
    "fairness", "flip", "import_log", "join", "last_roll", "luck", "new_table", "next_round", "next_turn",
    "open_store", "readmit", "remove_member", "reroll", "reveal_secret", "roll", "rotate_key", "rotate_seed", "rule",
    "set_client_seed", "set_order", "state_of", "undo", "verify", "view",
]

_STORE = ("Seat", "SqlTableStore", "TableStore", "open_store")


def __getattr__(name: str) -> Any:
    if name in _STORE:  # SQLAlchemy (the ``table`` extra) is imported only when storage is asked for
        import diceengine.table.store as store  # noqa: PLR0402 - the module itself, not its package

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
