"""Members removed and keys rotated (diceengine.table.members): the old key refused at once, the log says who
did what and nothing of any key, a table keeps a game master, and a table seats at most MAX_MEMBERS members."""

from __future__ import annotations

from pathlib import Path

import pytest

from diceengine import table as T
from diceengine.i18n import translate_error
from diceengine.table.notices import payload, read


def seated() -> tuple[T.Table, dict[str, str]]:
    return T.new_table("night", "standard", "Ana", ["Kira", "Jax"], seed=3)


def refused(table: T.Table, key: str) -> None:
    with pytest.raises(T.TableAccessError):
        T.authenticate(table, key)


def test_the_game_master_removes_a_member_whose_key_then_opens_nothing() -> None:
    table, keys = seated()
    table = T.roll(table, "Jax", "1d6")
    after = T.remove_member(table, "Ana", "Jax")
    refused(after, keys["Jax"])
    assert set(after.members) == {"Ana", "Kira"} and after.version == table.version + 1
    step = after.log[-1]
    assert (step.kind, step.member, step.target) == ("remove", "Ana", "Jax")
    assert after.log[:-1] == table.log  # Jax's roll stays, under his name
    assert T.luck(after)["Jax"].rolls == 1
    with pytest.raises(T.TableAccessError):  # a removed member takes no step
        T.roll(after, "Jax", "1d6")
    assert T.authenticate(after, keys["Kira"]) == "Kira"


def test_only_the_game_master_removes_another_a_member_may_leave_the_last_game_master_stays() -> None:
    table, keys = seated()
    with pytest.raises(T.TableAccessError):
        T.remove_member(table, "Kira", "Jax")
    left = T.remove_member(table, "Kira", "Kira")
    refused(left, keys["Kira"])
    with pytest.raises(T.TableError, match="only game master"):
        T.remove_member(table, "Ana", "Ana")
    with pytest.raises(T.TableAccessError):
        T.remove_member(table, "Ana", "Nobody")
    two, more = T.join(table, "Bo", "gm")
    gone = T.remove_member(two, "Bo", "Ana")  # a second game master may remove the first
    refused(gone, keys["Ana"])
    assert T.authenticate(gone, more) == "Bo"


def test_a_key_rotated_by_its_holder_or_the_game_master() -> None:
    table, keys = seated()
    mine, new = T.rotate_key(table, "Kira")
    refused(mine, keys["Kira"])
    assert T.authenticate(mine, new) == "Kira" and new != keys["Kira"] and len(new) >= 22
    step = mine.log[-1]
    assert (step.kind, step.member, step.target) == ("rekey", "Kira", "Kira")
    assert new not in step.model_dump_json() and T.rules.hash_key(new) not in step.model_dump_json()
    theirs, given = T.rotate_key(table, "Ana", "Jax")
    refused(theirs, keys["Jax"])
    assert T.authenticate(theirs, given) == "Jax" and theirs.log[-1].member == "Ana"
    with pytest.raises(T.TableAccessError):  # a player changes only their own key
        T.rotate_key(table, "Kira", "Jax")
    assert T.authenticate(table, keys["Kira"]) == "Kira"  # the table before the step is unchanged


def test_an_undo_passes_over_removals_and_new_keys() -> None:
    table, _ = seated()
    table = T.roll(table, "Kira", "1d6")
    table, _ = T.rotate_key(T.remove_member(table, "Ana", "Jax"), "Ana", "Kira")
    undone = T.undo(table, "Ana")
    assert undone.log[-1].undoes == 4  # the roll, not the new key nor the removal
    assert "Jax" not in undone.members


def test_a_table_seats_at_most_max_members() -> None:
    table, _ = seated()
    for i in range(T.rules.MAX_MEMBERS - 3):
        table, _ = T.join(table, f"p{i}")
    assert len(table.members) == T.rules.MAX_MEMBERS == 50
    with pytest.raises(T.TableFull) as caught:
        T.join(table, "one too many")
    assert str(caught.value) == "this table is full: it seats at most 50 members"
    assert translate_error(caught.value, "fr").message == "cette table est complète : elle accueille au plus 50 membres"
    table = T.remove_member(table, "Ana", "p0")  # a seat freed is a seat again
    table, _ = T.join(table, "one more")
    with pytest.raises(T.TableFull):
        T.new_table("big", "standard", "Ana", [f"p{i}" for i in range(50)])


def test_a_watcher_reads_the_table_again_after_a_members_step() -> None:
    """A notice of a removal or a new key carries no entries: the watcher reads the table (its members) again."""
    table, _ = seated()
    for after in (T.remove_member(table, "Ana", "Jax"), T.rotate_key(table, "Kira")[0]):
        new = after.log[table.version:]
        assert read(payload(after.id, after.version, new, [e.model_dump_json() for e in new])) == (
            after.id, after.version, None)
    rolled = T.roll(table, "Kira", "1d6")
    new = rolled.log[table.version:]
    assert read(payload(rolled.id, rolled.version, new, [e.model_dump_json() for e in new]))[2] == list(new)


def test_a_seat_rotates_its_key_and_removes_through_the_store(tmp_path: Path) -> None:
    table, keys = seated()
    with T.open_store(str(tmp_path / "t.sqlite")) as store:
        store.create(table)
        kira = store.seat("night", keys["Kira"])
        new = kira.rotate_key()
        assert kira.roll("1d6").member == "Kira"  # the seat goes on with its new key
        with pytest.raises(T.TableAccessError):
            store.seat("night", keys["Kira"])
        assert store.seat("night", new).name == "Kira"
        store.seat("night", keys["Ana"]).remove("Jax")
        with pytest.raises(T.TableAccessError):
            store.seat("night", keys["Jax"])
        assert [e.kind for e in T.open_store(str(tmp_path / "t.sqlite")).load("night").log][-3:] == [
            "rekey", "roll", "remove"]


def test_a_member_removed_by_the_game_master_may_not_join_again_until_let_back() -> None:
    table, keys = seated()
    table = T.remove_member(table, "Ana", "Jax")
    for lang, words in (("en", ("'Jax' was removed by the game master and may join again only once a game master "
                                "lets them back")),
                        ("fr", ("'Jax' a été retiré par le meneur de jeu et ne peut revenir à la table que si un "
                                "meneur de jeu le lui permet"))):
        with pytest.raises(T.TableAccessError) as err:
            T.join(table, "Jax")
        assert str(translate_error(err.value, lang)) == words
    with pytest.raises(T.TableAccessError):  # not as a game master either
        T.join(table, "Jax", "gm")
    # only a game master lets him back, and only a name a game master removed
    with pytest.raises(T.TableAccessError) as err:
        T.readmit(table, "Kira", "Jax")
    assert str(translate_error(err.value, "fr")) == "seul le meneur de jeu permet à un membre retiré de revenir"
    for name in ("Kira", "Nobody"):
        with pytest.raises(T.TableError) as err:
            T.readmit(table, "Ana", name)
        assert str(translate_error(err.value, "en")) == \
            f"'{name}' was not removed by the game master: there is no one to let back"
    back = T.readmit(table, "Ana", "Jax")
    step = back.log[-1]
    assert (step.kind, step.member, step.target, step.seq) == ("readmit", "Ana", "Jax", table.version + 1)
    assert "Jax" not in back.members  # let back is not joined: he joins as anyone does, with a new key
    again, key = T.join(back, "Jax")
    assert T.authenticate(again, key) == "Jax" and key != keys["Jax"]
    refused(again, keys["Jax"])  # his old key stays dead
    with pytest.raises(T.TableError):  # let back once: a second readmit has no one to let back
        T.readmit(again, "Ana", "Jax")


def test_a_member_who_leaves_may_join_again_and_a_removal_sticks_across_the_store(tmp_path: Path) -> None:
    table, _ = seated()
    left = T.remove_member(table, "Kira", "Kira")
    assert T.join(left, "Kira")[0].members["Kira"].role == "player"
    with pytest.raises(T.TableError):  # leaving bars no one: nothing to let back
        T.readmit(left, "Ana", "Kira")
    # the bar is the table's state: kept by the store, in an export, and never undone
    removed = T.remove_member(table, "Ana", "Jax")
    with T.open_store(str(tmp_path / "t.db")) as store:
        store.create(removed)
        with pytest.raises(T.TableAccessError):
            store.update("night", lambda t: T.join(t, "Jax")[0])
    with pytest.raises(T.TableAccessError):
        T.join(T.import_log(T.export_log(removed)), "Jax")
    with pytest.raises(T.TableError, match="no step to undo"):
        T.undo(T.readmit(removed, "Ana", "Jax"), "Ana")  # neither the removal nor the readmission is undone


def test_the_barred_names_are_stored_and_exported_only_when_there_are_some(tmp_path: Path) -> None:
    """A table nobody was removed from stores and exports no ``barred`` (it reads in a release older than
    removals that stick); one with a removal keeps it through the store and the export."""
    import json

    table, _ = seated()
    plain = json.loads(T.export_log(table))["table"]
    assert "barred" not in plain
    barred = T.remove_member(table, "Ana", "Jax")
    assert json.loads(T.export_log(barred))["table"]["barred"] == ["Jax"]
    assert T.import_log(T.export_log(barred)).barred == ("Jax",)
    with T.open_store(f"sqlite:///{tmp_path / 't.db'}") as store:
        store.create(table)
        store.update(table.id, lambda t: T.remove_member(t, "Ana", "Jax"))
        again = store.load(table.id)
    assert again.barred == ("Jax",)
    with pytest.raises(T.TableError):
        T.join(again, "Jax")
