"""``dice table`` and the committed seeds: new --provable, seed, rotate, reveal, end, verify, in English and
French; a tampered log names its step and exits 1; what is not a log is the engine's error."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sqlalchemy")

from diceengine.cli import main
from diceengine.table import provable as P


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_provable_night_on_the_command_line(tmp_path, capsys):
    path, log = str(tmp_path / "night.db"), tmp_path / "night.json"
    assert run(capsys, "table", "new", path, "-s", "standard", "--gm", "Ana", "--player", "Kira", "--provable")[0] == 0
    code, out, _ = run(capsys, "table", "seed", path, "Kira", "my own")
    assert code == 0 and out.strip() == "Kira's client seed: my own"
    run(capsys, "table", "roll", path, "Kira", "3d6")
    run(capsys, "table", "roll", path, "Ana", "1d20", "--secret")
    code, out, _ = run(capsys, "table", "rotate", path)
    revealed = out.split("revealed: ")[1].split(";")[0]
    code, out, _ = run(capsys, "table", "log", path)
    assert f"#1 Ana commits to a server seed (SHA-256 {P.commitment_of(revealed)})" in out
    assert run(capsys, "table", "reveal", path, "6")[1].strip() == "secret roll #6 revealed"
    assert run(capsys, "table", "end", path)[0] == 0
    code, out, _ = run(capsys, "table", "log", path, "--json")
    log.write_text(out, encoding="utf-8")
    code, out, _ = run(capsys, "table", "verify", str(log))
    assert code == 0 and out.startswith("verified: 9 steps, 2 recomputed")
    assert "fairness: too few rolls to test" in out  # the dice were not chosen, and the odds' test says how they fell
    code, out, _ = run(capsys, "table", "verify", str(log), "--lang", "fr")
    assert code == 0 and out.startswith("vérifié : 9 étapes")
    forged = json.loads(log.read_text(encoding="utf-8"))
    forged["table"]["log"][4]["client_seed"] = "not mine"
    log.write_text(json.dumps(forged), encoding="utf-8")
    code, out, _ = run(capsys, "table", "verify", str(log), "--lang", "fr")
    assert code == 1 and out.startswith("l'étape 5 ne correspond pas (client-seed)")


def test_the_seed_commands_refuse_in_the_engines_words(tmp_path, capsys):
    path = str(tmp_path / "night.db")
    run(capsys, "table", "new", path, "-s", "standard", "--gm", "Ana", "--player", "Kira", "--no-provable")
    code, _, err = run(capsys, "table", "seed", path, "Kira", "abc")
    assert code != 0 and "no committed seed" in err
    code, _, err = run(capsys, "table", "rotate", path, "--as", "Kira", "--lang", "fr")
    assert code != 0 and "seul le meneur de jeu" in err
    code, _, err = run(capsys, "table", "verify", str(tmp_path / "none.json"))
    assert code != 0 and "cannot read" in err and "Traceback" not in err
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    code, out, _ = run(capsys, "table", "verify", str(tmp_path / "bad.json"))
    assert code == 1 and "the log does not hold together (format)" in out


@pytest.mark.parametrize(("flags", "committed"), [((), True), (("--no-provable",), False), (("--seed", "7"), False),
                                                  (("--seed", "7", "--provable"), True)])
def test_a_new_table_commits_its_seed_unless_told_otherwise(tmp_path, capsys, flags, committed):
    path = str(tmp_path / "night.db")
    assert run(capsys, "table", "new", path, "-s", "standard", "--gm", "Ana", *flags)[0] == 0
    code, out, _ = run(capsys, "table", "log", path)
    assert code == 0 and out.startswith("#1 Ana commits to a server seed (SHA-256 ") is committed
    code, out, err = run(capsys, "table", "seed", path, "Ana", "mine")
    assert (code == 0) is committed and ("no committed seed" in err) is not committed


def test_the_log_says_each_step_of_the_committed_seeds_in_english_and_french(tmp_path, capsys):
    """Every kind of step of the committed seeds has its sentence in the log (the commitment, a client seed, a
    revealed secret roll, a rotation, the end), in both languages, with the seeds and digests it names."""
    path = str(tmp_path / "night.db")
    run(capsys, "table", "new", path, "-s", "standard", "--gm", "Ana", "--player", "Kira", "--provable")
    run(capsys, "table", "seed", path, "Kira", "my own")
    run(capsys, "table", "roll", path, "Ana", "1d20", "--secret")
    run(capsys, "table", "reveal", path, "5")
    rotated = run(capsys, "table", "rotate", path)[1]
    first, new = rotated.split("revealed: ")[1].split("; new commitment: ")
    last = run(capsys, "table", "end", path)[1].split("its server seed: ")[1].strip()
    english = run(capsys, "table", "log", path)[1].splitlines()
    assert english[0] == f"#1 Ana commits to a server seed (SHA-256 {P.commitment_of(first)})"
    assert english[3:] == [
        "#4 Kira sets their client seed to my own",
        "#5 secret roll by Ana",
        "#6 Ana reveals the secret roll #5",
        f"#7 Ana reveals the server seed {first} and commits to a new one (SHA-256 {new.strip()})",
        f"#8 Ana ends the table and reveals the server seed {last}"]
    french = run(capsys, "table", "log", path, "--lang", "fr")[1].splitlines()
    assert french[0] == f"#1 Ana s'engage sur une graine serveur (SHA-256 {P.commitment_of(first)})"
    assert french[3] == "#4 Kira fixe sa graine client à my own"
    assert french[5] == "#6 Ana révèle le jet secret n°5"
    assert french[6] == (f"#7 Ana révèle la graine serveur {first} et s'engage sur une nouvelle "
                         f"(SHA-256 {new.strip()})")
    assert french[7] == f"#8 Ana clôt la table et révèle la graine serveur {last}"
