"""``dice table``: new, join, roll (secret too), log (text and JSON), luck, undo, in English and French, on a SQLite
file and (with ``--db``) on the PostgreSQL server of ``DICEENGINE_TEST_POSTGRES``; bad input is the engine's
error and leaves the file as it was."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("sqlalchemy")

from diceengine import table as T
from diceengine.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_game_night_on_the_command_line(tmp_path, capsys):
    path = str(tmp_path / "night.db")
    code, out, _ = run(capsys, "table", "new", path, "--system", "ffg", "--gm", "Ana", "--player", "Kira", "Jax",
                       "--scene", 'Encounter={"destiny": {"light": 2, "dark": 1}}', "--seed", "4")
    assert code == 0 and "ffg" in out
    keys = dict(re.findall(r"key of (\w+) \(\w+\): (\S+)", out))
    assert set(keys) == {"Ana", "Kira", "Jax"}
    code, out, _ = run(capsys, "table", "join", path, "Lea", "--json")
    assert code == 0 and len(json.loads(out)["key"]) == 22
    code, out, _ = run(capsys, "table", "roll", path, "Kira", "2a1p vs 2d")
    assert code == 0 and out.startswith("#5 Kira: 2a1p vs 2d") and "chance of success 65.1%" in out
    code, out, _ = run(capsys, "table", "roll", path, "Ana", "3d", "--secret", "--json")
    secret = json.loads(out)
    assert secret["secret"] and secret["outcome"] is not None  # the roller sees it on their own screen
    code, out, _ = run(capsys, "table", "log", path)
    assert "#6 secret roll by Ana" in out and "3d" not in out.split("#6")[1]
    code, out, _ = run(capsys, "table", "log", path, "--as", "Ana")
    assert "#6 Ana: 3d" in out
    code, out, _ = run(capsys, "table", "log", path, "--json")
    back = T.import_log(out)
    assert back.version == 6 and back.log[5].redacted and back.log[4].outcome["succeeded"] in (True, False)
    with T.open_store(path, create=False) as store:
        stored = store.load("table")
    assert T.authenticate(stored, keys["Jax"]) == "Jax"
    assert stored.log[4].outcome == back.log[4].outcome
    code, out, _ = run(capsys, "table", "luck", path)
    assert code == 0 and "Kira: 1 roll, mean percentile" in out and "Ana: no rolls" in out
    code, out, _ = run(capsys, "table", "luck", path, "--as", "Ana", "--json")
    assert json.loads(out)["luck"]["Ana"]["rolls"] == 1
    code, out, _ = run(capsys, "table", "undo", path)
    assert code == 0 and "#6" in out
    code, out, _ = run(capsys, "--lang", "fr", "table", "log", path)
    assert "(annulé par #7)" in out and "rejoint la table" in out and "jet secret de Ana" in out
    code, out, _ = run(capsys, "table", "luck", path, "--lang", "fr")
    assert "Kira : 1 jet, centile moyen" in out


def test_bad_input_is_the_engines_error_and_changes_nothing(tmp_path, capsys):
    path = tmp_path / "t.db"
    assert run(capsys, "table", "new", str(path), "--system", "d6", "--gm", "Ana", "--player", "Kira")[0] == 0
    with T.open_store(str(path), create=False) as store:
        before = store.load("table")
    for argv, said in [
        (("table", "roll", str(path), "Nobody", "3D"), "'Nobody' is not a member"),
        (("table", "roll", str(path), "Kira", "3D +"), "error"),
        (("table", "undo", str(path)), "no step to undo"),
        (("table", "undo", str(path), "--as", "Kira"), "only the game master"),
        (("table", "join", str(path), "Kira"), "already a member"),
        (("table", "new", str(path), "--system", "d6", "--gm", "X"), "exists already"),
        (("table", "new", str(tmp_path / "u.db"), "--system", "nope", "--gm", "X"), "unknown system"),
    ]:
        code, _, err = run(capsys, *argv)
        assert code == 2 and said in err, (argv, err)
    assert not (tmp_path / "u.db").exists()
    with T.open_store(str(path), create=False) as store:
        assert store.load("table") == before
    code, _, err = run(capsys, "table", "log", str(tmp_path / "missing.db"))
    assert code == 2 and "no table database" in err and not (tmp_path / "missing.db").exists()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database, not at all " * 50)
    code, _, err = run(capsys, "--lang", "fr", "table", "roll", str(junk), "Kira", "3D")
    assert code == 2 and "n'est pas une base de tables" in err
    assert junk.read_text() == "not a database, not at all " * 50


def test_a_table_in_a_database_by_url(where, capsys):
    assert run(capsys, "table", "new", "night", "--db", where, "--system", "d20pool", "--gm", "Ana",
               "--player", "Kael")[0] == 0
    code, out, _ = run(capsys, "table", "roll", "night", "--db", where, "Kael", "3d20<=12 vs 1")
    assert code == 0 and out.startswith("#4 Kael")  # after the seed's commitment and the two joinings
    code, out, _ = run(capsys, "table", "log", "night", "--db", where, "--json")
    assert T.import_log(out).version == 4
    assert run(capsys, "table", "undo", "night", "--db", where)[0] == 0
    code, _, err = run(capsys, "table", "roll", "other", "--db", where, "Kael", "1d20")
    assert code == 2 and "no table named 'other'" in err
