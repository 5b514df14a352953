"""The table's rules, a member's seat and the package's lazy names: tests written against mutants the table tests
let through (issue 38), each seen failing on its mutant planted by hand."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

import diceengine as de
from diceengine import table as T

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


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


def test_a_name_the_table_package_lacks_is_pythons_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError) as missing:
        T.open_stor  # noqa: B018 - the attribute read is the test
    assert str(missing.value) == "module 'diceengine.table' has no attribute 'open_stor'"


def test_a_log_referring_back_to_its_first_step_reads() -> None:
    """A re-roll or an undo may refer to any earlier step, the first one too (the check refuses only a reference
    to the step itself, a later one, or none that exists)."""
    table, _ = T.new_table("game", "standard", "GM", ["Kira"], time=WHEN, provable=False)
    table = T.roll(table, "Kira", "1d6", seed=1, time=WHEN)
    for field in ("reroll_of", "undoes"):
        document = json.loads(T.export_log(table))
        document["table"]["log"][1][field] = 1
        assert getattr(T.import_log(json.dumps(document)).log[1], field) == 1


def test_a_new_table_dates_every_first_step_at_the_time_given() -> None:
    for provable in (False, True):
        table, _ = T.new_table("game", "standard", ["GM", "GM2"], ["Kira", "Jax"], time=WHEN, provable=provable)
        assert len(table.log) == 4 + provable and {e.time for e in table.log} == {WHEN}
