"""A member's seat (``diceengine.table.seat``) and the table package's lazy names, on a real SQLite file: tests
written against mutants the table tests let through (issue 38)."""

from __future__ import annotations

from typing import Any

import pytest

import diceengine as de
from diceengine import table as T


def test_a_seat_rerolls_from_the_seed_it_is_given(tmp_path: Any) -> None:
    """A re-roll with a seed throws the dice that seed gives (the same total as the engine's own roll of the
    expression with that seed), not the table's next draw; without one, the table's seeded draw for that step."""
    pytest.importorskip("sqlalchemy")
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        table, keys = T.new_table("t6", "standard", "GM", ["Kira"], seed=7)
        store.create(table)
        seat = T.Seat(store, "t6", keys["Kira"])
        first = seat.roll("10d20")
        again = seat.reroll(seed=123)
        assert again.outcome == {"total": de.roll("10d20", seed=123).total}
        assert (again.member, again.expression, again.reroll_of) == ("Kira", "10d20", first.seq)
        unseeded = seat.reroll()
        drawn = T.reroll(T.reroll(T.roll(table, "Kira", "10d20"), "Kira", seed=123), "Kira")
        assert unseeded.outcome == drawn.log[-1].outcome != again.outcome
