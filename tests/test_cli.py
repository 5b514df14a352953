"""The dice command: exit status, JSON, errors on stderr without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

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
