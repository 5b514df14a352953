"""Saved rolls (issue 36): a member names a roll at a table, anyone there rolls it by name; every refusal."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import diceengine as de
from diceengine import table as T
from diceengine.cli import main
from diceengine.table.aliases import MAX_SAVED, roll_saved, save_roll


def _table() -> T.Table:
    table, _ = T.new_table("night", "standard", "Ana", ["Kira", "Jax"], seed=3)
    return table


def test_a_member_saves_a_roll_and_anyone_rolls_it_by_name():
    table = save_roll(_table(), "Kira", "hit", "1d20+5 >= 15")
    assert table.log[-1].kind == "save" and table.log[-1].member == "Kira"
    assert table.play.saved["hit"].expression == "1d20+5 >= 15" and table.play.saved["hit"].saved == "Kira"
    table = roll_saved(table, "Jax", "hit")
    entry = table.log[-1]
    assert entry.kind == "roll" and entry.member == "Jax" and entry.expression == "1d20+5 >= 15"
    # its exact odds as any roll's: the comparison holds on a d20 of 10 or more, 11 faces of 20
    below = Fraction(sum(1 for f in range(1, 21) if f + 5 < 15), 20)
    if entry.outcome["total"] == 1:
        assert entry.odds.below == pytest.approx(float(below))
    else:
        assert entry.odds.below == 0
    # another system, with its options
    table = save_roll(table, "Jax", "shot", "4D+2 vs 15", system="d6wild", complication="none")
    entry = roll_saved(table, "Kira", "shot", seed=random.Random(1)).log[-1]
    assert entry.system == "d6wild" and entry.options == {"complication": "none"}
    assert entry.outcome == {k: v for k, v in de.roll("4D+2 vs 15", "d6wild", seed=random.Random(1),
                                                      complication="none").outcome._asdict().items()}


def test_replacing_forgetting_and_undoing():
    table = save_roll(_table(), "Kira", "hit", "1d20+5")
    table = save_roll(table, "Kira", "hit", "1d20+7")  # its saver replaces it
    assert table.play.saved["hit"].expression == "1d20+7"
    table = save_roll(table, "Ana", "hit", "1d20+6")  # so does a game master
    assert table.play.saved["hit"].saved == "Ana"
    with pytest.raises(T.TableAccessError):
        save_roll(table, "Jax", "hit", "1d20")  # not another player
    table = T.undo(table, "Ana")
    assert table.play.saved["hit"].expression == "1d20+7"
    table = save_roll(table, "Kira", "hit", None)  # forgotten
    assert "hit" not in table.play.saved
    with pytest.raises(T.TableError):
        roll_saved(table, "Kira", "hit")
    # the exported log carries the saved rolls back
    back = T.import_log(T.export_log(save_roll(table, "Jax", "dmg", "2d6")))
    assert back.play.saved["dmg"].expression == "2d6"


@pytest.mark.parametrize("name", ["", "two words", "-x", "x" * 41, "é!", 3])
def test_a_name_that_is_not_a_word_is_refused(name):
    table = _table()
    with pytest.raises(T.TableError):
        save_roll(table, "Kira", name, "1d6")  # type: ignore[arg-type]


def test_other_refusals_save_nothing():
    table = _table()
    with pytest.raises(de.DiceSyntaxError):
        save_roll(table, "Kira", "bad", "1d6 +")  # read when saved
    with pytest.raises(T.TableAccessError):
        save_roll(table, "Nobody", "hit", "1d6")
    with pytest.raises(T.TableError):
        save_roll(table, "Kira", "never", None)  # nothing to forget
    with pytest.raises(T.TableError):
        roll_saved(table, "Kira", "nope")
    full = table
    for i in range(MAX_SAVED):
        full = save_roll(full, "Kira", f"r{i}", "1d6")
    with pytest.raises(T.TableError):
        save_roll(full, "Kira", "one-more", "1d6")
    assert save_roll(full, "Kira", "r0", "1d8").play.saved["r0"].expression == "1d8"  # a name saved is replaced


def test_the_command_line_saves_lists_and_rolls_by_name(capsys, tmp_path):
    db = str(tmp_path / "night.db")
    assert main(["table", "new", db, "--system", "standard", "--gm", "Ana", "--player", "Kira", "Jax"]) == 0
    assert main(["table", "save", db, "Kira", "shot", "d6wild: 4D+2 vs 15"]) == 0
    assert main(["table", "roll", db, "Jax", "@shot"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "#5 Kira saves the roll @shot: d6wild: 4D+2 vs 15" in out and "@shot: d6wild: 4D+2 vs 15 (saved by Kira)" in out
    assert out[-1].startswith("#6 Jax: 4D+2 vs 15: ") and "wild" in out[-1]
    assert main(["table", "save", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shot"]["system"] == "d6wild"
    assert main(["table", "save", db, "--lang", "fr"]) == 0
    assert capsys.readouterr().out == "@shot : 4D+2 vs 15 (enregistré par Kira)\n".replace("4D", "d6wild: 4D")
    assert main(["table", "save", db, "Jax", "shot", "1d6"]) == 2  # Kira's
    assert "only they or the game master" in capsys.readouterr().err
    assert main(["table", "roll", db, "Jax", "@nope"]) == 2
    assert main(["table", "save", db, "Kira", "shot", "--forget"]) == 0
    assert main(["table", "save", db]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "no saved rolls"


def test_each_member_keeps_their_own_saved_rolls():
    """Per user, as the bots' aliases: each member's own `hit`, rolled by them first, the table's by the others."""
    from diceengine.table.aliases import readable_names

    table = save_roll(_table(), "Kira", "hit", "1d20+5", personal=True)
    table = save_roll(table, "Jax", "hit", "1d20+2", personal=True)
    table = save_roll(table, "Ana", "hit", "1d20")
    assert roll_saved(table, "Kira", "hit").log[-1].expression == "1d20+5"
    assert roll_saved(table, "Jax", "hit").log[-1].expression == "1d20+2"
    assert roll_saved(table, "Ana", "hit").log[-1].expression == "1d20"  # the table's
    assert readable_names(table, "Kira") == ["hit"]
    table = save_roll(table, "Kira", "dmg", "1d8+3", personal=True)
    with pytest.raises(T.TableError):
        roll_saved(table, "Jax", "dmg")  # Kira's own
    with pytest.raises(T.TableError):
        roll_saved(table, "Jax", "Kira/dmg")  # nor by the key it is kept under
    table = save_roll(table, "Kira", "hit", None, personal=True)  # forgotten: the table's again
    assert roll_saved(table, "Kira", "hit").log[-1].expression == "1d20"


def test_the_command_line_keeps_a_members_own(capsys, tmp_path):
    db = str(tmp_path / "night.db")
    assert main(["table", "new", db, "--system", "standard", "--gm", "Ana", "--player", "Kira", "Jax"]) == 0
    assert main(["table", "save", db, "Kira", "hit", "1d20+5", "--mine"]) == 0
    assert "#5 Kira saves their own roll @hit: 1d20+5" in capsys.readouterr().out
    assert main(["table", "roll", db, "Kira", "@hit"]) == 0
    assert capsys.readouterr().out.startswith("#6 Kira: 1d20+5: ")
    assert main(["table", "roll", db, "Jax", "@hit"]) == 2
    assert main(["table", "save", db, "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "@hit : 1d20+5 (à Kira)"
