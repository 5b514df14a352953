"""The table's rules, a member's seat and the package's lazy names: tests written against mutants the table tests
let through (issue 38), each seen failing on its mutant planted by hand."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

import diceengine as de
from diceengine import table as T
from diceengine.i18n import translate_error

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


def test_every_step_is_dated_at_the_time_given() -> None:
    """Each rule takes the step's time from its caller (a replayed or imported game keeps its dates)."""
    from diceengine.table import provable as P
    from diceengine.table.aliases import roll_saved, save_roll

    table, _ = T.new_table("game", "standard", "GM", ["Kira", "Jax"], seed=3, pools={"gold": 5}, time=WHEN)
    steps = [lambda t: T.adjust(t, "GM", "gold", -1, time=WHEN),
             lambda t: T.set_order(t, "GM", ["Kira", "Jax"], time=WHEN),
             lambda t: T.next_turn(t, "GM", time=WHEN),
             lambda t: T.next_round(t, "GM", time=WHEN),
             lambda t: save_roll(t, "Kira", "atk", "1d20+2", time=WHEN),
             lambda t: roll_saved(t, "Kira", "atk", time=WHEN),
             lambda t: T.reroll(t, "Kira", time=WHEN),
             lambda t: T.undo(t, "GM", time=WHEN),
             lambda t: T.remove_member(t, "GM", "Jax", time=WHEN),
             lambda t: T.readmit(t, "GM", "Jax", time=WHEN)]
    for step in steps:
        table = step(table)
        assert table.log[-1].time == WHEN, table.log[-1].kind
    provable, _ = T.new_table("p", "standard", "GM", ["Kira"], time=WHEN)
    for step in (lambda t: P.set_client_seed(t, "Kira", "mine", time=WHEN),
                 lambda t: T.roll(t, "Kira", "1d6", secret=True, time=WHEN),
                 lambda t: P.reveal_secret(t, "GM", t.version, time=WHEN),
                 lambda t: P.rotate_seed(t, "GM", time=WHEN), lambda t: P.end_table(t, "GM", time=WHEN)):
        provable = step(provable)
        assert provable.log[-1].time == WHEN, provable.log[-1].kind


def test_each_step_of_a_seeded_table_draws_its_own_dice() -> None:
    """A seeded table gives each step a stream of its own: the same roll twice in a row gives other dice (here
    ten d20, whose chance of falling alike is 20**-10 for independent streams, and fixed by the seed)."""
    table, _ = T.new_table("game", "standard", "GM", ["Kira"], seed=7)
    table = T.roll(T.roll(table, "Kira", "10d20"), "Kira", "10d20")
    first, second = table.log[-2], table.log[-1]
    assert first.dice != second.dice
    again = T.roll(T.roll(T.new_table("game", "standard", "GM", ["Kira"], seed=7)[0], "Kira", "10d20"), "Kira", "10d20")
    assert [e.dice for e in again.log[-2:]] == [first.dice, second.dice]  # and reproducible


def test_a_secret_rolls_seal_covers_its_letters_as_written() -> None:
    """The sealed body is compact sorted JSON with the member's and the expression's letters as they are (not
    escaped), as the derivation's JSON: written here by hand for a member named Zoë."""
    from diceengine.table import provable as P

    body = ('{"dice":[],"expression":"1d6","member":"Zoë","options":{},"outcome":{"total":4},"seq":9,'
            '"system":"standard"}')
    assert P.sealed_body({"seq": 9, "member": "Zoë", "expression": "1d6", "system": "standard", "options": {},
                          "dice": [], "outcome": {"total": 4}}) == body


class _MemoryStore(T.TableStore):
    """The smallest store a plug-in could write on :class:`TableStore`: tables in a dict, a commit refused when the
    table moved on since the version it was taken on; it remembers the tables it committed when ``remembers``."""

    def __init__(self, remembers: bool) -> None:
        self.tables: dict[str, T.Table] = {}
        self.remembers = remembers

    def create(self, table: T.Table) -> T.Table:
        self.tables[table.id] = table
        return table

    def load(self, table_id: str) -> T.Table:
        return self.tables[table_id]

    def commit(self, table: T.Table, expected: int) -> T.Table:
        if self.tables[table.id].version != expected:
            raise T.TableConflict("the table moved on")
        self.tables[table.id] = table
        return table

    def ids(self) -> list[str]:
        return sorted(self.tables)

    def cached(self, table_id: str) -> T.Table | None:
        return self.tables.get(table_id) if self.remembers else None


@pytest.mark.parametrize("remembers", [False, True])
def test_a_stores_update_takes_a_conflicting_step_again_as_many_times_as_asked(remembers: bool) -> None:
    """:meth:`TableStore.update` for any store: a step that conflicts is taken again on the table as loaded, up to
    ``retries`` more times, then its conflict is raised; a first try on the remembered table is not counted."""
    store = _MemoryStore(remembers)
    store.create(T.new_table("game", "standard", "GM", ["Kira"], seed=1)[0])
    tried: list[int] = []

    def stale(table: T.Table) -> T.Table:
        tried.append(table.version)
        if len(tried) > 10:  # a store that never stops trying fails here instead of hanging
            raise RuntimeError("taken again without end")
        raise T.TableConflict("the table moved on")

    with pytest.raises(T.TableConflict):
        store.update("game", stale, retries=2)
    assert len(tried) == 3 + remembers
    taken = store.update("game", lambda t: T.roll(t, "Kira", "1d6"))
    assert taken.version == 3 and store.load("game") is taken


def _document_of(table: T.Table) -> dict[str, Any]:
    return dict(json.loads(T.export_log(table)))


def test_an_imported_log_numbered_out_of_order_is_refused_naming_the_step() -> None:
    table = T.roll(T.new_table("game", "standard", "GM", ["Kira"], provable=False)[0], "Kira", "1d6", seed=1)
    document = _document_of(table)
    document["table"]["log"][1]["seq"] = 3
    with pytest.raises(T.TableFormatError) as info:
        T.import_log(json.dumps(document))
    assert info.value.message == "not a table's log: step 3 where 2 was due"
    assert translate_error(info.value, "fr").message == "ce n'est pas le journal d'une table : step 3 where 2 was due"


def test_an_imported_table_whose_state_is_not_its_last_steps_will_not_undo_it() -> None:
    """A document whose state of play is not the one its last step left (edited by hand): undoing that step would
    bring back a state that was never there; it is refused, naming the step."""
    table = T.adjust(T.new_table("game", "standard", "GM", ["Kira"], pools={"gold": 5}, provable=False)[0],
                     "GM", "gold", -1)
    document = _document_of(table)
    document["table"]["play"]["pools"]["gold"] = 9
    edited = T.import_log(json.dumps(document))
    with pytest.raises(T.TableError) as info:
        T.undo(edited, "GM")
    assert info.value.message == f"step {table.version} cannot be undone: the state of play has changed since"
    assert translate_error(info.value, "fr").message == \
        f"l'étape {table.version} ne peut pas être annulée : l'état du jeu a changé depuis"
    assert T.undo(table, "GM").play.pools == {"gold": 5}  # the table as its steps left it undoes


def test_a_seats_fairness_of_one_member_counts_only_their_rolls(tmp_path: Any) -> None:
    pytest.importorskip("sqlalchemy")
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        table, keys = T.new_table("t7", "standard", "GM", ["Kira", "Jax"], seed=2)
        for member, count in (("Kira", 3), ("Jax", 5)):
            for _ in range(count):
                table = T.roll(table, member, "1d6")
        store.create(table)
        seat = T.Seat(store, "t7", keys["Kira"])
        assert (seat.fairness().rolls, seat.fairness("Kira").rolls, seat.fairness("Jax").rolls) == (8, 3, 5)


def test_a_french_tables_roll_is_logged_in_french() -> None:
    table, _ = T.new_table("jeu", "d6", "MJ", ["Kira"], lang="fr", provable=False)
    entry = T.roll(table, "Kira", "2D vs 3D", seed=5).log[-1]
    assert entry.text == "2D vs 3D: 4 + 5 = 9 contre 5 + 6 + 5 = 16, échec de 7"  # the English says "against"


def test_a_scene_without_its_kind_holds_no_pool() -> None:
    """A document edited by hand to hold a scene but not its kind: its fields are no pools (the state class that
    would bound them is unknown); the table's refusal, not a crash."""
    table = T.new_table("game", "standard", "GM", ["Kira"], pools={"gold": 5}, provable=False)[0]
    document = _document_of(table)
    document["table"]["play"]["scene"] = {"destiny": {"light": 2}}
    edited = T.import_log(json.dumps(document))
    with pytest.raises(T.TableError) as info:
        T.adjust(edited, "GM", "destiny.light", 1)
    assert info.value.message == "no pool destiny.light at this table (its pools: gold)"


def test_every_seed_step_stores_its_derivation_version() -> None:
    """docs/table.md: each step stores its ``derivation`` version (1, frozen): the first seed's step and a rotated
    seed's step alike, so that a log made today verifies with any later release."""
    from diceengine.table import provable as P

    table = T.new_table("p", "standard", "GM", ["Kira"])[0]
    table = P.rotate_seed(T.roll(table, "Kira", "1d6"), "GM")
    seeds = [e for e in table.log if e.kind == "seed"]
    assert len(seeds) == 2 and [e.derivation for e in seeds] == [1, 1] and seeds[1].revealed is not None


def test_a_pool_refuses_to_go_below_zero_or_past_its_bound_in_both_languages() -> None:
    """A table's own pool and a scene's field each refuse a change below zero, naming what they hold and what was
    asked; a scene's field refuses a value its state class bounds (text 001: a discipline is at most 5)."""
    from diceengine.systems.d20pool.state import Character, PoolState

    scene = PoolState(characters={"Kel": Character(name="Kel", disciplines={"Combat": 5})})
    table = T.new_table("g", "d20pool", "GM", ["Kira"], scene=scene, pools={"gold": 2}, provable=False)[0]
    refusals = [
        (lambda: T.adjust(table, "GM", "gold", -3), "the pool gold holds 2, not enough to take 3",
         "la réserve gold contient 2, pas assez pour en prendre 3"),
        (lambda: T.adjust(table, "GM", "impulsion", -1), "the pool impulsion holds 0, not enough to take 1",
         "la réserve impulsion contient 0, pas assez pour en prendre 1"),
        (lambda: T.adjust(table, "GM", "characters.Kel.disciplines.Combat", 1),
         "the pool characters.Kel.disciplines.Combat cannot hold 6 (Input should be less than or equal to 5)",
         ("la réserve characters.Kel.disciplines.Combat ne peut pas contenir 6 (Input should be less than or equal "
          "to 5)")),
    ]
    for call, english, french in refusals:
        with pytest.raises(T.TableError) as info:
            call()
        assert (info.value.message, translate_error(info.value, "fr").message) == (english, french)


def test_a_missing_saved_roll_lists_the_table_s_names_and_the_members_own() -> None:
    """The names a member rolls by: the table's, and their own without the member's prefix; never another
    member's own."""
    from diceengine.table.aliases import roll_saved, save_roll

    table = T.new_table("g", "standard", "GM", ["Kira", "Jax"], provable=False)[0]
    table = save_roll(table, "GM", "atk", "1d20")
    table = save_roll(table, "Kira", "mine", "1d6", personal=True)
    table = save_roll(table, "Jax", "his", "1d8", personal=True)
    with pytest.raises(T.TableError) as info:
        roll_saved(table, "Kira", "nope")
    assert info.value.message == "no saved roll named 'nope' (saved: atk, mine)"


def test_a_members_luck_counts_their_checks_and_successes() -> None:
    """Rolls against a difficulty are checks: luck counts them, their successes (read from the log here) and the
    successes fair dice give on average (2D against 7: 21 of 36 totals, counted by hand)."""
    table = T.new_table("g", "d6", "GM", ["Kira"], seed=4, provable=False)[0]
    for _ in range(6):
        table = T.roll(table, "Kira", "2D vs 7")
    rolls = [e for e in table.log if e.kind == "roll"]
    kira = T.luck(table)["Kira"]
    assert (kira.rolls, kira.checks) == (6, 6)
    assert kira.successes == sum(e.outcome["success"] for e in rolls) == 2  # fixed by the seed
    assert kira.expected_successes == pytest.approx(6 * sum(1 for a in range(1, 7) for b in range(1, 7)
                                                            if a + b >= 7) / 36)


def test_an_undone_reroll_reads_back_as_it_was_logged() -> None:
    """Export and import of a log where a re-roll was undone: every step reads back as it was, the first roll's
    mark cleared in its own place."""
    table, _ = T.new_table("t5", "standard", "GM", ["Kira"], seed=5, provable=False)
    table = T.undo(T.reroll(T.roll(table, "Kira", "1d20"), "Kira"), "GM")
    table = T.roll(table, "Kira", "1d8")
    assert T.import_log(T.export_log(table)).log == table.log


def test_a_seat_rolls_from_the_seed_it_is_given_and_readmits(tmp_path: Any) -> None:
    pytest.importorskip("sqlalchemy")
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        table, keys = T.new_table("t8", "standard", "GM", ["Kira", "Jax"], seed=7)
        store.create(table)
        seat, gm = T.Seat(store, "t8", keys["Kira"]), T.Seat(store, "t8", keys["GM"])
        assert seat.roll("10d20", seed=123).outcome == {"total": de.roll("10d20", seed=123).total}
        gm.remove("Jax")
        assert "Jax" in store.load("t8").barred
        entry = gm.readmit("Jax")
        assert (entry.kind, entry.target) == ("readmit", "Jax") and store.load("t8").barred == ()
