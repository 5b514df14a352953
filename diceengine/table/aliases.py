"""Saved rolls: a member names a roll at the table (``hit`` for ``1d20+5 >= 15``), and anyone there rolls it by
that name, as the chat bots' aliases do. The names live in the state of play (:attr:`Play.saved`), so that saving
one is a step of the log that the game master can undo, and an exported log carries them.

- :func:`save_roll`: the expression is read when it is saved (a fault is the engine's error, nothing saved); a
  name saved again is replaced, by the member who saved it or a game master; no expression forgets it.
  ``personal=True`` keeps it for its member alone (as a bot's per-user alias), under ``MEMBER/NAME``: each member
  may have their own ``hit``.
- :func:`roll_saved`: a roll of the saved expression, logged like any roll: the member's own roll of that name
  first, else the table's.
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

__all__ = ["MAX_SAVED", "personal_key", "readable_names", "roll_saved", "save_roll"]

#: the most rolls a table saves
MAX_SAVED = 100
_NAME = re.compile(r"[^\W_][\w-]{0,39}")


def personal_key(member: str, name: str) -> str:
    """The key of ``member``'s own roll saved as ``name`` in :attr:`Play.saved`."""
    return f"{member}/{name}"


def save_roll(table: Table, actor: str, name: str, expression: str | None, system: str | None = None,
              time: datetime | None = None, personal: bool = False, **options: Any) -> Table:
    """``actor`` saves ``expression`` (of ``system``, by default the table's, with ``options``) under ``name``:
    letters, digits, ``-`` and ``_``, at most 40, starting with a letter or a digit. ``expression=None`` forgets
    the name. Replacing or forgetting a name another member saved is the game master's. ``personal``: the
    member's own, which only they roll by that name."""
    member = member_of(table, actor)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise TableError(N_("a saved roll's name is a word of at most 40 letters, digits, - or _, not {name}"),
                         name=repr(name))
    key = personal_key(actor, name) if personal else name
    found = table.play.saved.get(key)
    if found is not None and found.saved != actor and member.role != "gm":
        raise TableAccessError(N_("{name} was saved by {member}: only they or the game master change it"),
                               name=name, member=found.saved)
    saved = dict(table.play.saved)
    if expression is None:
        if found is None:
            raise TableError(N_("no saved roll named {name}"), name=repr(name))
        del saved[key]
    else:
        if found is None and len(saved) >= MAX_SAVED:
            raise TableError(N_("a table saves at most {limit} rolls"), limit=MAX_SAVED)
        from diceengine.api import plan

        plan(expression, system or table.system, **options)  # read now: a fault is said when saving
        saved[key] = SavedRoll(expression=expression, system=system, options=jsonable(dict(options)), saved=actor)
    after = table.play.model_copy(update={"saved": saved})
    return changed(table, "save", actor, time, after, target=key,
                   args={"name": name, "expression": expression, "system": system, "personal": personal})


def roll_saved(table: Table, actor: str, name: str, secret: bool = False, seed: Any = None,
               time: datetime | None = None) -> Table:
    """``actor`` rolls the roll saved as ``name`` (their own of that name first, else the table's): logged as any
    roll of its expression."""
    member_of(table, actor)
    found = table.play.saved.get(personal_key(actor, name)) or ("/" not in name and table.play.saved.get(name)) or None
    if found is None:
        raise TableError(N_("no saved roll named {name} (saved: {known})"), name=repr(name),
                         known=", ".join(readable_names(table, actor)) or "none")
    return roll(table, actor, found.expression, found.system, secret, seed, time, **found.options)


def readable_names(table: Table, member: str) -> list[str]:
    """The names ``member`` rolls by: the table's saved rolls and their own (another member's own are theirs)."""
    mine = personal_key(member, "")
    return list(dict.fromkeys(key.removeprefix(mine) for key in table.play.saved
                              if "/" not in key or key.startswith(mine)))
