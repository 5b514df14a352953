"""Pools, tokens and turns: the destiny pool's flips, a counter's adjustments, the initiative order, turns and
rounds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from diceengine.i18n import N_

from .errors import TableError
from .model import Play, Table
from .rulesets import state_class
from .steps import changed, game_master, member_of


def _path(path: str) -> list[str]:
    if not isinstance(path, str) or not path or any(not p for p in path.split(".")):
        raise TableError(N_("a pool is named by a path such as destiny.light, not {path}"), path=repr(path))
    return path.split(".")


def _counter(table: Table, play: Play, path: str, delta: int) -> Play:
    """``play`` with ``delta`` added to the integer at ``path``: a pool of the table's own, else a field of the
    scene (``destiny.light``, ``impulsion``, ``characters.Kel.force_points``), read back through the scene's
    class so that its bounds hold (a pool never below zero)."""
    parts = _path(path)
    if parts[0] in play.pools and len(parts) == 1:
        value = play.pools[path] + delta
        if value < 0:
            raise TableError(N_("the pool {pool} holds {held}, not enough to take {taken}"), pool=path,
                             held=play.pools[path], taken=-delta)
        return play.model_copy(update={"pools": {**play.pools, path: value}})
    if play.scene is None or play.scene_kind is None:
        raise TableError(N_("no pool {pool} at this table (its pools: {known})"), pool=path,
                         known=", ".join(play.pools) or "none")
    scene = json.loads(json.dumps(play.scene))
    node: Any = scene
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    held = node.get(parts[-1]) if isinstance(node, dict) else None
    if isinstance(held, bool) or not isinstance(held, int):
        raise TableError(N_("no pool {pool} at this table (its pools: {known})"), pool=path,
                         known=", ".join(play.pools) or "none")
    if held + delta < 0:
        raise TableError(N_("the pool {pool} holds {held}, not enough to take {taken}"), pool=path, held=held,
                         taken=-delta)
    node[parts[-1]] = held + delta
    cls = state_class(table.system, play.scene_kind)
    try:
        checked = cls.model_validate(scene)
    except ValidationError as err:
        raise TableError(N_("the pool {pool} cannot hold {value} ({reason})"), pool=path, value=held + delta,
                         reason=err.errors()[0]["msg"]) from None
    return play.model_copy(update={"scene": checked.model_dump(mode="json")})


def flip(table: Table, actor: str, source: str, to: str, tokens: int = 1, time: datetime | None = None) -> Table:
    """Flip ``tokens`` token(s) from the pool ``source`` to the pool ``to`` (the destiny pool's
    ``destiny.light`` -> ``destiny.dark``): one step, so two members flipping the same token on the same
    version give one flip and one :class:`~diceengine.table.errors.TableConflict`."""
    member_of(table, actor)
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise TableError(N_("flip at least one token, not {tokens}"), tokens=repr(tokens))
    if source == to:
        raise TableError(N_("a token flips from one pool to another, not to {pool} itself"), pool=source)
    after = _counter(table, _counter(table, table.play, source, -tokens), to, tokens)
    return changed(table, "flip", actor, time, after, args={"from": source, "to": to, "tokens": tokens})


def adjust(table: Table, actor: str, pool: str, delta: int, time: datetime | None = None) -> Table:
    """Add ``delta`` (negative: take) to the pool ``pool`` (see :func:`flip` for the names); a pool of the
    table's own is created by the game master's first adjustment of a name the scene does not have."""
    member = member_of(table, actor)
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise TableError(N_("a pool changes by a whole number, not {delta}"), delta=repr(delta))
    play = table.play
    parts = _path(pool)
    if len(parts) == 1 and pool not in play.pools and member.role == "gm" and delta >= 0 and \
            not (play.scene is not None and pool in play.scene):
        play = play.model_copy(update={"pools": {**play.pools, pool: 0}})
    after = _counter(table, play, pool, delta)
    return changed(table, "adjust", actor, time, after, args={"pool": pool, "delta": delta})


def set_order(table: Table, actor: str, order: Sequence[str], time: datetime | None = None) -> Table:
    """The game master sets the initiative order (names of characters or members); the first acts first."""
    game_master(table, actor, N_("only the game master may set the initiative order"))
    order = list(order)
    if not order or len(set(order)) != len(order) or not all(isinstance(n, str) and n for n in order):
        raise TableError(N_("an initiative order names each one once"))
    after = table.play.model_copy(update={"order": order, "turn": 0})
    return changed(table, "order", actor, time, after, args={"order": order})


def next_turn(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The next in the initiative order acts; after the last, a new round begins with the first."""
    member_of(table, actor)
    play = table.play
    if not play.order:
        raise TableError(N_("there is no initiative order yet"))
    turn = play.turn + 1
    after = play.model_copy(update={"turn": 0, "round": play.round + 1} if turn >= len(play.order) else {"turn": turn})
    return changed(table, "turn", actor, time, after)


def next_round(table: Table, actor: str, time: datetime | None = None) -> Table:
    """A new round begins, with the first in the initiative order."""
    member_of(table, actor)
    after = table.play.model_copy(update={"turn": 0, "round": table.play.round + 1})
    return changed(table, "turn", actor, time, after, args={"round": True})
