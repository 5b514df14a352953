"""The rules of the table, one module a concern (:mod:`.members`, :mod:`.rolls`, :mod:`.play`, :mod:`.turns`,
:mod:`.steps`, :mod:`.logfile`), gathered here: functions that take a :class:`~diceengine.table.model.Table` and return a new one
with one more step in its log (or raise a :class:`~diceengine.table.errors.TableError`, the table left as it
was).

A step is taken by a member, named by ``actor``; a caller who holds only a key finds that name with
:func:`authenticate`, and reads the table through :func:`view`, which leaves out what that member may not
see (the dice of a secret roll, for anyone but a game master). The rulesets plug in through their
system's :meth:`~diceengine.registry.System.rules_of_play`: :func:`apply` runs one of its ``RULES`` on the
scene or on a character, and logs the state before and after.
"""

from __future__ import annotations

from .logfile import LOG_KIND, check_log, export_log, import_log, validated
from .members import (
    KEY_BYTES,
    MAX_MEMBERS,
    authenticate,
    hash_key,
    join,
    new_key,
    new_table,
    readable,
    readmit,
    remove_member,
    rotate_key,
    view,
)
from .play import add_character, rule, state_of
from .rolls import last_roll, reroll, roll
from .rulesets import rules_of, state_class
from .steps import undo
from .turns import adjust, flip, next_round, next_turn, set_order

__all__ = [
    "KEY_BYTES",
    "LOG_KIND",
    "MAX_MEMBERS",
    "add_character",
    "adjust",
    "authenticate",
    "check_log",
    "export_log",
    "flip",
    "hash_key",
    "import_log",
    "join",
    "last_roll",
    "new_key",
    "new_table",
    "next_round",
    "next_turn",
    "readable",
    "readmit",
    "remove_member",
    "reroll",
    "roll",
    "rotate_key",
    "rule",
    "rules_of",
    "set_order",
    "state_class",
    "state_of",
    "undo",
    "validated",
    "view",
]
