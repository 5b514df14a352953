"""A step's notice on PostgreSQL (``diceengine.table.notices``): the payload the store writes carries the
step's entries when it adds no member and fits, and reads back to the same entries; anything else is the
table's id and version alone, and a payload it cannot make out says so instead of guessing."""

from __future__ import annotations

import pytest

from diceengine import table as T
from diceengine.table.notices import MAX_PAYLOAD, payload, read


def _stored(entries: list[T.Entry]) -> list[str]:
    return [e.model_dump_json(exclude={"rerolled_by", "undone_by"}) for e in entries]


def _table() -> T.Table:
    table, _ = T.new_table("t1", "ffg", "GM", players=["Kira"], seed=5)
    return table


def test_a_roll_comes_with_its_entry_and_reads_back_the_same() -> None:
    table = T.roll(_table(), "Kira", "2a1p vs 2d")
    new = list(table.log[-1:])
    text = payload(table.id, table.version, new, _stored(new))
    assert text.startswith(f"t1 {table.version}\n") and len(text.encode()) <= MAX_PAYLOAD
    table_id, version, entries = read(text)
    assert (table_id, version) == ("t1", table.version)
    assert entries == new


def test_a_join_or_a_step_too_large_is_the_version_alone() -> None:
    joined, _ = T.join(_table(), "Jax")
    new = list(joined.log[-1:])
    assert payload(joined.id, joined.version, new, _stored(new)) == f"t1 {joined.version}"
    big = T.roll(_table(), "Kira", "300d6", "standard")
    new = list(big.log[-1:])
    assert len(_stored(new)[0]) > MAX_PAYLOAD
    assert payload(big.id, big.version, new, _stored(new)) == f"t1 {big.version}"
    assert read(f"t1 {big.version}") == ("t1", big.version, None)


@pytest.mark.parametrize("text", ["", "t1", "t1 x", "t1 -3", "t 1 2 z\n[]"])
def test_a_payload_without_a_version_is_read_as_such(text: str) -> None:
    assert read(text)[1] is None


@pytest.mark.parametrize("body", ["{", "[1]", '[{"seq": 1}]', "null"])
def test_entries_that_do_not_read_are_none(body: str) -> None:
    assert read("t1 4\n" + body) == ("t1", 4, None)


def test_a_table_id_with_spaces_keeps_them() -> None:
    assert read("a b 3") == ("a b", 3, None)
