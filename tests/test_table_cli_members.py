"""``dice table remove`` and ``dice table rekey``: a member removed by the game master, a key rotated by its
holder or by the game master (printed once), the old key refused; in English and French."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("sqlalchemy")

from diceengine import table as T
from diceengine.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_remove_and_rekey_on_the_command_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = str(tmp_path / "night.db")
    code, out, _ = run(capsys, "table", "new", path, "--system", "standard", "--gm", "Ana", "--player", "Kira", "Jax")
    keys = dict(re.findall(r"key of (\w+) \(\w+\): (\S+)", out))
    code, out, _ = run(capsys, "table", "rekey", path, "Kira", "--json")
    assert code == 0 and json.loads(out)["name"] == "Kira"
    new = json.loads(out)["key"]
    code, out, _ = run(capsys, "table", "rekey", path, "Jax", "--as", "Ana")
    assert code == 0 and out.startswith("Jax's new key (shown once; the old one opens the table no more): ")
    jax = out.rsplit(" ", 1)[1].strip()
    code, _, err = run(capsys, "table", "rekey", path, "Jax", "--as", "Kira")
    assert code != 0 and "only the game master may change another member's key" in err
    code, out, _ = run(capsys, "table", "remove", path, "Kira")
    assert code == 0 and out.strip() == "Kira is no longer a member of the table: their key opens it no more"
    code, _, err = run(capsys, "table", "remove", path, "Ana", "--lang", "fr")
    assert code != 0 and "seul meneur de jeu" in err
    code, out, _ = run(capsys, "table", "log", path, "--lang", "fr")
    assert out.startswith("#1 Ana s'engage sur une graine serveur")  # a new table commits its seed first
    assert "#5 Kira donne une nouvelle clé à Kira" in out and "#6 Ana donne une nouvelle clé à Jax" in out
    assert "#7 Ana retire Kira de la table" in out
    with T.open_store(path, create=False) as store:
        table = store.load("table")
    for old in (keys["Kira"], keys["Jax"], new):
        with pytest.raises(T.TableAccessError):
            T.authenticate(table, old)
    assert T.authenticate(table, jax) == "Jax" and set(table.members) == {"Ana", "Jax"}


def test_a_removed_member_joins_again_only_once_let_back(tmp_path, capsys) -> None:
    path = str(tmp_path / "night.db")
    run(capsys, "table", "new", path, "--system", "standard", "--gm", "Ana", "--player", "Kira", "Jax")
    assert run(capsys, "table", "remove", path, "Kira")[0] == 0
    code, _, err = run(capsys, "table", "join", path, "Kira", "--lang", "fr")
    assert code != 0 and "'Kira' a été retiré par le meneur de jeu et ne peut revenir" in err and "Traceback" not in err
    code, _, err = run(capsys, "table", "readmit", path, "Kira", "--as", "Jax")
    assert code != 0 and "only the game master may let a removed member back" in err
    code, out, _ = run(capsys, "table", "readmit", path, "Kira")
    assert code == 0 and out.strip() == "Kira may join the table again"
    assert run(capsys, "table", "join", path, "Kira")[0] == 0
    code, out, _ = run(capsys, "table", "log", path, "--lang", "fr")
    assert "#5 Ana retire Kira de la table" in out and "#6 Ana permet à Kira de revenir à la table" in out
    assert "#7 Kira " in out
