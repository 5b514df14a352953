"""The steps of a table's log: who may take one, a new table with one more step, and the game master's undo."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic_core import to_jsonable_python

from diceengine.i18n import N_

from .errors import TableAccessError, TableError
from .model import KEPT_KINDS, Entry, Member, Play, Table


def now(time: datetime | None) -> datetime:
    return time if time is not None else datetime.now(UTC)


def member_of(table: Table, name: str) -> Member:
    found = table.members.get(name)
    if found is None:
        raise TableAccessError(N_("{name} is not a member of this table (members: {members})"), name=repr(name),
                               members=", ".join(table.members) or "none")
    return found


def game_master(table: Table, name: str, refused: str) -> Member:
    member = member_of(table, name)
    if member.role != "gm":
        raise TableAccessError(refused)
    return member


def appended(table: Table, entry: Entry, **update: Any) -> Table:
    return table.model_copy(update={"version": entry.seq, "log": (*table.log, entry), **update})


def new_entry(table: Table, kind: str, actor: str, time: datetime | None, **fields: Any) -> Entry:
    return Entry(seq=table.version + 1, kind=kind, member=actor, time=now(time), **fields)  # type: ignore[arg-type]


def changed(table: Table, kind: str, actor: str, time: datetime | None, after: Play, **fields: Any) -> Table:
    entry = new_entry(table, kind, actor, time, before=table.play, after=after, **fields)
    return appended(table, entry, play=after)


def jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


def undo(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The game master undoes the last step that stands (a roll, a rule, a flip, a turn...; never a member's
    joining, removal or new key, never an undo): its state of play comes back and it is marked ``undone_by``; the log keeps it."""
    game_master(table, actor, N_("only the game master may undo a step"))
    for e in reversed(table.log):
        if e.kind != "undo" and e.kind not in KEPT_KINDS and e.undone_by is None:
            break
    else:
        raise TableError(N_("there is no step to undo"))
    after = table.play
    if e.before is not None:
        if e.after != table.play:  # never: a later step that changed the state stands before it
            raise TableError(N_("step {seq} cannot be undone: the state of play has changed since"), seq=e.seq)
        after = e.before
    new = changed(table, "undo", actor, time, after, undoes=e.seq)
    log = list(new.log)
    log[e.seq - 1] = e.model_copy(update={"undone_by": new.version})
    if e.reroll_of is not None:
        log[e.reroll_of - 1] = log[e.reroll_of - 1].model_copy(update={"rerolled_by": None})
    return new.model_copy(update={"log": tuple(log)})
