"""The dice command: exit status, JSON, errors on stderr without a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from diceengine.cli import main


def test_roll(capsys):
    assert main(["roll", "4d6kh3", "--seed", "1"]) == 0
    first = capsys.readouterr().out
    assert main(["roll", "4d6kh3", "--seed", "1"]) == 0
    assert capsys.readouterr().out == first and first.startswith("4d6kh3: [")
    assert main(["roll", "3d6", "-n", "3", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    assert main(["roll", "d6wild: 4D+2 vs 15", "-o", "complication=none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"]["complication"] is False
    assert main(["roll", "2a1p vs 2d", "--system", "ffg"]) == 0


def test_odds(capsys):
    assert main(["odds", "2d6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert abs(data["summary"]["mean total"] - 7) < 1e-12
    assert abs(sum(row["probability"] for row in data["outcomes"]) - 1) < 1e-12
    assert main(["odds", "1d6!"]) == 0
    assert "truncated mass" in capsys.readouterr().out


def test_systems(capsys):
    assert main(["systems"]) == 0
    out = capsys.readouterr().out
    for name in ("standard", "d6", "d6wild", "d20pool", "ffg"):
        assert f"{name}:" in out
    assert "complication=" in out


def test_errors_exit_2_without_traceback():
    proc = subprocess.run([sys.executable, "-m", "diceengine", "roll", "3d6 +"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "^" in proc.stderr and "expected" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "diceengine", "odds", "4D vs 4D", "--system", "nope"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "unknown system" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "diceengine", "roll", "1d6", "-o", "bad"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the command line


def test_roll_count_zero_is_an_error(capsys):
    assert main(["roll", "3d6", "-n", "0"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "-n" in out.err
    assert main(["roll", "3d6", "-n", "-1"]) == 2
    assert main(["roll", "3d6", "-n", "2", "--seed", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_rule_with_a_missing_argument_is_an_error(capsys):
    assert main(["rule", "d6", "damage_result", "damage=12"]) == 2
    err = capsys.readouterr().err
    assert "damage_result" in err and "strength" in err
    assert main(["rule", "d6", "damage_result", "damage=12", "strength=5"]) == 0
    assert capsys.readouterr().out.strip() == "incapacitated"  # 12 is at least twice 5, below three times
    assert main(["rule", "d6", "damage_result", "power=3"]) == 2
    assert main(["rule", "d6", "no_such_rule"]) == 2
    proc = subprocess.run([sys.executable, "-m", "diceengine", "rule", "d6", "damage_result", "damage=12"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.startswith("dice: error")
    proc = subprocess.run([sys.executable, "-m", "diceengine", "rule"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_odds_table_columns(capsys):
    assert main(["odds", "2d6"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+)\s+([\d.]+)%\s+([\d.]+)%", line)
        if m:
            rows[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    assert sorted(rows) == list(range(2, 13))
    for total, (p_eq, p_ge) in rows.items():
        eq = Fraction(6 - abs(total - 7), 36)
        ge = sum(Fraction(6 - abs(t - 7), 36) for t in range(total, 13))
        assert p_eq == pytest.approx(float(100 * eq), abs=0.006)
        assert p_ge == pytest.approx(float(100 * ge), abs=0.006)


@pytest.mark.parametrize("argv, guess", [(["rol", "1d6"], "roll"), (["odd", "1d6"], "odds"),
                                          (["table", "lgo", "night.db"], "log"), (["sytems"], "systems")])
def test_a_misspelt_command_says_what_was_meant(capsys, argv, guess):
    with pytest.raises(SystemExit) as code:
        main(argv)
    assert code.value.code == 2
    assert f"did you mean {guess}?" in capsys.readouterr().err


def test_a_command_too_far_from_any_is_refused_as_before(capsys):
    with pytest.raises(SystemExit):
        main(["xyzzy"])
    err = capsys.readouterr().err
    assert "invalid choice" in err and "did you mean" not in err
