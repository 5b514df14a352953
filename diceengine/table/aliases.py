"""Saved rolls: a member names a roll at the table (``hit`` for ``1d20+5 >= 15``), and anyone there rolls it by
that name, as the chat bots' aliases do. The names live in the state of play (:attr:`Play.saved`), so that saving
one is a step of the log that the game master can undo, and an exported log carries them.

- :func:`save_roll`: the expression is read when it is saved (a fault is the engine's error, nothing saved); a
  name saved again is replaced, by the member who saved it or a game master; no expression forgets it.
- :func:`roll_saved`: a roll of the saved expression, logged like any roll.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from diceengine.i18n import N_

from .errors import TableAccessError, TableError
from .model import SavedRoll, Table
from .rolls import roll
from .steps import changed, jsonable, member_of

__all__ = ["MAX_SAVED", "roll_saved", "save_roll"]

#: the most rolls a table saves
MAX_SAVED = 100
_NAME = re.compile(r"[^\W_][\w-]{0,39}")


def save_roll(table: Table, actor: str, name: str, expression: str | None, system: str | None = None,
              time: datetime | None = None, **options: Any) -> Table:
    """``actor`` saves ``expression`` (of ``system``, by default the table's, with ``options``) under ``name``:
    letters, digits, ``-`` and ``_``, at most 40, starting with a letter or a digit. ``expression=None`` forgets
    the name. Replacing or forgetting a name another member saved is the game master's."""
    member = member_of(table, actor)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise TableError(N_("a saved roll's name is a word of at most 40 letters, digits, - or _, not {name}"),
                         name=repr(name))
    found = table.play.saved.get(name)
    if found is not None and found.saved != actor and member.role != "gm":
        raise TableAccessError(N_("{name} was saved by {member}: only they or the game master change it"),
                               name=name, member=found.saved)
    saved = dict(table.play.saved)
    if expression is None:
        if found is None:
            raise TableError(N_("no saved roll named {name}"), name=repr(name))
        del saved[name]
    else:
        if found is None and len(saved) >= MAX_SAVED:
            raise TableError(N_("a table saves at most {limit} rolls"), limit=MAX_SAVED)
        from diceengine.api import plan

        plan(expression, system or table.system, **options)  # read now: a fault is said when saving
        saved[name] = SavedRoll(expression=expression, system=system, options=jsonable(dict(options)), saved=actor)
    after = table.play.model_copy(update={"saved": saved})
    return changed(table, "save", actor, time, after, target=name,
                   args={"name": name, "expression": expression, "system": system})


def roll_saved(table: Table, actor: str, name: str, secret: bool = False, seed: Any = None,
               time: datetime | None = None) -> Table:
    """``actor`` rolls the roll saved as ``name``: logged as any roll of its expression."""
    found = table.play.saved.get(name)
    if found is None:
        raise TableError(N_("no saved roll named {name} (saved: {known})"), name=repr(name),
                         known=", ".join(table.play.saved) or "none")
    return roll(table, actor, found.expression, found.system, secret, seed, time, **found.options)
