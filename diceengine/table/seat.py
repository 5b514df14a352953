""":class:`Seat`, a member's handle on a stored table, found by their key: every step it takes is that member's,
every read leaves out what that member may not see."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel

import diceengine.table.rules as rules  # noqa: PLR0402 - the module itself, not its package's re-exports

from .luck import fairness as _fairness
from .luck import luck as _luck_of
from .model import Entry, Table

__all__ = ["Seat"]


class TableStore(Protocol):
    """What a seat needs of a store (:class:`diceengine.table.store.TableStore`; named here, not imported, so that
    the store and its seats import one way)."""

    def load(self, table_id: str) -> Table: ...

    def update(self, table_id: str, step: Callable[[Table], Table], retries: int = 0) -> Table: ...


class Seat:
    """A member's handle on a stored table, found by their key: each step is taken as that member and
    committed (retried ``retries`` times on a conflict, the step taken again on the newer table); each read
    is the table as that member may see it (:func:`~diceengine.table.rules.view`)."""

    def __init__(self, store: TableStore, table_id: str, key: str, retries: int = 0) -> None:
        self.store, self.table_id, self._key, self.retries = store, table_id, key, retries
        self.name = rules.authenticate(store.load(table_id), key)

    def _step(self, op: Callable[..., Table], *args: Any, **kwargs: Any) -> Entry:
        def step(table: Table) -> Table:
            return op(table, rules.authenticate(table, self._key), *args, **kwargs)

        table = self.store.update(self.table_id, step, self.retries)
        return rules.readable(table, self.name, table.log[-1])

    def table(self) -> Table:
        """The table as this member may read it."""
        table = self.store.load(self.table_id)
        return rules.view(table, rules.authenticate(table, self._key))

    def log(self) -> tuple[Entry, ...]:
        """The log as this member may read it."""
        return self.table().log

    def roll(self, expression: str, system: str | None = None, secret: bool = False, seed: Any = None,
             **options: Any) -> Entry:
        """Roll (:func:`~diceengine.table.rules.roll`); returns the step as this member reads it."""
        return self._step(rules.roll, expression, system, secret, seed, **options)

    def reroll(self, seed: Any = None) -> Entry:
        """Re-roll this member's last roll."""
        return self._step(rules.reroll, seed)

    def rule(self, name: str, target: str | None = None, **args: Any) -> Entry:
        """Apply a rule of play (:func:`~diceengine.table.rules.rule`)."""
        return self._step(rules.rule, name, target, args)

    def add_character(self, state: BaseModel, name: str | None = None, owner: str | None = None) -> Entry:
        """A character joins the table."""
        return self._step(rules.add_character, state, name, owner)

    def flip(self, source: str, to: str, tokens: int = 1) -> Entry:
        """Flip tokens from one pool to another."""
        return self._step(rules.flip, source, to, tokens)

    def adjust(self, pool: str, delta: int) -> Entry:
        """Add to (or take from) a pool."""
        return self._step(rules.adjust, pool, delta)

    def set_order(self, order: Sequence[str]) -> Entry:
        """Set the initiative order (the game master)."""
        return self._step(rules.set_order, order)

    def next_turn(self) -> Entry:
        """The next in the initiative order acts."""
        return self._step(rules.next_turn)

    def next_round(self) -> Entry:
        """A new round begins."""
        return self._step(rules.next_round)

    def undo(self) -> Entry:
        """Undo the last step that stands (the game master)."""
        return self._step(rules.undo)

    def remove(self, name: str) -> Entry:
        """Remove the member ``name`` (the game master; anyone: themselves), their key refused from then on."""
        return self._step(rules.remove_member, name)

    def readmit(self, name: str) -> Entry:
        """Let ``name``, removed by a game master, join again (the game master)."""
        return self._step(rules.readmit, name)

    def rotate_key(self, name: str | None = None) -> str:
        """A new key for ``name`` (``None``: this member's own, which this seat then uses); returns it."""
        given: list[str] = []

        def rotate(table: Table, actor: str) -> Table:
            new, key = rules.rotate_key(table, actor, name)
            given.append(key)
            return new

        self._step(rotate)
        if name is None or name == self.name:
            self._key = given[-1]
        return given[-1]

    def fairness(self, member: str | None = None, expression: str | None = None, method: str = "chi2") -> Any:
        """The fairness test of the rolls this member may read."""
        return _fairness(self.table(), member, expression, method)  # type: ignore[arg-type]

    def luck(self) -> dict[str, Any]:
        """Each member's luck over the rolls this member may read."""
        return _luck_of(self.table())

    def export_log(self) -> str:
        """The table and its log as this member may read them, as JSON."""
        return rules.export_log(self.table())
