"""A table's members: a new table, joining it, leaving it or being removed, the keys (128 bits from :mod:`secrets`,
kept hashed, rotated by their holder or a game master), and what each member may read of the log."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from diceengine.i18n import N_

from .errors import TableAccessError, TableError, TableFull
from .model import Entry, Member, Play, Table
from .rulesets import state_class
from .steps import appended, game_master, member_of, new_entry, now

#: the bits of a member's key (from :mod:`secrets`)
KEY_BYTES = 16
#: the most members a table seats, game masters and players (a table of friends, or a club's table of a few dozen;
#: the join link is all a newcomer needs, so an unbounded table would grow with every stranger who has it)
MAX_MEMBERS = 50


def new_key() -> str:
    """A fresh member key: 128 random bits from :mod:`secrets`, URL-safe text."""
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    """What the table stores of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_table(table_id: str, system: str, gm: str | Sequence[str], players: Sequence[str] = (),
              scene: BaseModel | Mapping[str, Any] | None = None, seed: int | None = None, lang: str | None = None,
              pools: Mapping[str, int] | None = None, time: datetime | None = None, provable: bool | None = None
              ) -> tuple[Table, dict[str, str]]:
    """A new table of ``system`` with its game master(s) and players, and each member's key (give each their
    own; the table keeps only their hashes). ``scene``: the ruleset's state of play to start from (an instance
    of one of its rules of play's state classes; ``None``: its default scene, when it has one); ``seed``: the
    rolls are drawn from it, step by step, reproducibly; ``pools``: the table's own counters; ``provable``: the
    dice are derived from a secret server seed committed by the first step (:mod:`diceengine.table.provable`):
    ``None`` (the default) when no ``seed`` is given, ``True`` always (``seed`` is then ignored), ``False``
    never (without a ``seed``, fresh entropy that nobody can check afterwards)."""
    from diceengine.registry import get_system

    from .provable import committed

    sys_ = get_system(system)
    play = Play(pools=dict(pools or {}))
    if scene is not None:
        play = play.model_copy(update=state_update(sys_, scene))
    table = Table(id=table_id, system=sys_.name, seed=seed, lang=lang, created=now(time), play=play)
    keys: dict[str, str] = {}
    gms = [gm] if isinstance(gm, str) else list(gm)
    if provable is None:
        provable = seed is None
    if provable and gms:
        table = committed(table.model_copy(update={"seed": None}), gms[0], time)
    for name in gms:
        table, keys[name] = join(table, name, "gm", time=time)
    for name in players:
        table, keys[name] = join(table, name, time=time)
    return table, keys


def state_update(sys_: Any, scene: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(scene, Mapping):
        raise TableError(N_("a scene is given as an instance of a state class of the rules of play"))
    state_class(sys_, type(scene).__name__)
    return {"scene": scene.model_dump(mode="json"), "scene_kind": type(scene).__name__}


def join(table: Table, name: str, role: str = "player", key: str | None = None,
         time: datetime | None = None) -> tuple[Table, str]:
    """``name`` joins the table as a ``"player"`` (or ``"gm"``); returns the table and their key (a new one
    unless ``key`` is given)."""
    if role not in ("gm", "player"):
        raise TableError(N_("a member is a 'gm' or a 'player', not {role}"), role=repr(role))
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise TableError(N_("a member's name is 1 to 100 characters, not {name}"), name=repr(name))
    if name in table.members:
        raise TableError(N_("{name} is already a member of this table"), name=repr(name))
    if name in table.barred:
        raise TableAccessError(N_("{name} was removed by the game master and may join again only once a game master "
                                  "lets them back"), name=repr(name))
    if len(table.members) >= MAX_MEMBERS:
        raise TableFull(N_("this table is full: it seats at most {most} members"), most=MAX_MEMBERS)
    key = key or new_key()
    member = Member(name=name, role=role, key_hash=hash_key(key))  # type: ignore[arg-type]
    entry = new_entry(table, "join", name, time, result=role)
    return appended(table, entry, members={**table.members, name: member}), key


def remove_member(table: Table, actor: str, name: str, time: datetime | None = None) -> Table:
    """``name`` leaves the table, removed by a game master or by their own choice: their key opens it no more
    (every request with it refused, their live logs closed); their steps stay in the log, under their name. A
    table keeps at least one game master. A removal by a game master sticks: the name may not join again until a
    game master lets it back (:func:`readmit`); a member who left may join again."""
    if actor != name:
        game_master(table, actor, N_("only the game master may remove another member"))
    removed = member_of(table, name)
    if removed.role == "gm" and len(table.gm()) == 1:
        raise TableError(N_("{name} is the table's only game master and cannot be removed"), name=repr(name))
    entry = new_entry(table, "remove", actor, time, target=name)
    barred = table.barred if actor == name else (*table.barred, name)
    return appended(table, entry, members={n: m for n, m in table.members.items() if n != name}, barred=barred)


def readmit(table: Table, actor: str, name: str, time: datetime | None = None) -> Table:
    """A game master lets ``name``, whom a game master removed, join the table again (a step of the log; they
    join as anyone does, with a new key)."""
    game_master(table, actor, N_("only the game master may let a removed member back"))
    if name not in table.barred:
        raise TableError(N_("{name} was not removed by the game master: there is no one to let back"), name=repr(name))
    entry = new_entry(table, "readmit", actor, time, target=name)
    return appended(table, entry, barred=tuple(n for n in table.barred if n != name))


def rotate_key(table: Table, actor: str, name: str | None = None, key: str | None = None,
               time: datetime | None = None) -> tuple[Table, str]:
    """A new key for the member ``name`` (``None``: the ``actor``'s own), asked by its holder or by a game master:
    the old key opens the table no more. Returns the table and the new key (a fresh one unless ``key`` is given);
    the log says who changed whose key, nothing of either key."""
    name = actor if name is None else name
    if actor != name:
        game_master(table, actor, N_("only the game master may change another member's key"))
    member = member_of(table, name)
    key = key or new_key()
    entry = new_entry(table, "rekey", actor, time, target=name)
    members = {**table.members, name: member.model_copy(update={"key_hash": hash_key(key)})}
    return appended(table, entry, members=members), key


def authenticate(table: Table, key: str) -> str:
    """The name of the member whose key is ``key`` (compared in constant time), else the engine's error."""
    digest = hash_key(key) if isinstance(key, str) else ""
    found = None
    for member in table.members.values():
        if hmac.compare_digest(digest, member.key_hash) and member.key_hash:
            found = member.name
    if found is None:
        raise TableAccessError(N_("no member of this table has that key"))
    return found


_HIDDEN: dict[str, Any] = {"expression": None, "system": None, "options": {}, "outcome": None, "dice": None, "text": None,
           "odds": None, "salt": None}


def _reads_secrets(table: Table, reader: str | None) -> bool:
    return reader is not None and member_of(table, reader).role == "gm"


def readable(table: Table, reader: str | None, entry: Entry) -> Entry:
    """``entry`` as the member ``reader`` may read it (see :func:`view`)."""
    if entry.secret and not _reads_secrets(table, reader):
        return entry.model_copy(update=_HIDDEN)
    return entry


def view(table: Table, reader: str | None) -> Table:
    """The table as the member ``reader`` may read it (``None``: as anyone, a member or not, may): for anyone
    but a game master, a secret roll shows who rolled and when, nothing of its dice, and the members' key
    hashes are left out. No one reads the server seed of a table of committed seeds before its reveal."""
    if table.server_seed is not None:
        table = table.model_copy(update={"server_seed": None})
    if _reads_secrets(table, reader):
        return table
    log = tuple(e.model_copy(update=_HIDDEN) if e.secret else e for e in table.log)
    members = {n: m.model_copy(update={"key_hash": ""}) for n, m in table.members.items()}
    return table.model_copy(update={"log": log, "members": members})
