"""Issue 36, the command line as a new user meets it: each example of the issue's list replayed with its new answer.

Expected numbers come from enumerations written here (a d20's faces, the Force die's published faces of the rule
texts' README), never from the engine's tables.
"""

from __future__ import annotations

import argparse
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from diceengine.cli import build_parser, main
from diceengine.cli.args import columns, width

ROOT = Path(__file__).resolve().parents[1]
ROARK = str(ROOT / "examples" / "roark.toml")
#: the Force die (rule texts' README): D x6, D+D, L, L, L+L x3 -> light side points 0 (7 faces), 1 (2), 2 (3)
FORCE_LIGHT = {0: Fraction(7, 12), 1: Fraction(2, 12), 2: Fraction(3, 12)}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


# ----------------------------------------------------------------------------- docs/cli.md is complete


def test_every_subcommand_is_in_the_docs():
    """`docs/cli.md` never mentioned `dice table`: now every command and every table sub-command is there."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    commands = _subcommands(build_parser())
    assert "table" in commands
    for name in commands:
        assert f"dice {name}" in text, name
    for name in _subcommands(commands["table"]):
        assert re.search(rf"dice table (\w+ \| )*{name}\b", text), name


def test_table_log_help_names_only_commands_that_exist(capsys):
    """`dice table log --help` pointed to a `dice table export` that did not exist."""
    with pytest.raises(SystemExit):
        main(["table", "log", "--help"])
    helped = capsys.readouterr().out
    table_commands = _subcommands(_subcommands(build_parser())["table"])
    for name in re.findall(r"dice table (\w+)", helped):
        assert name in table_commands
    assert "export" in table_commands and "import" in table_commands


def test_export_then_import_gives_the_same_log(capsys, tmp_path):
    db, copy, doc = tmp_path / "night.db", tmp_path / "copy.db", tmp_path / "night.json"
    assert _run(capsys, "table", "new", str(db), "--system", "ffg", "--gm", "Ana", "--player", "Kira",
                "--seed", "5")[0] == 0
    assert _run(capsys, "table", "roll", str(db), "Kira", "2a1p vs 2d")[0] == 0
    assert _run(capsys, "table", "roll", str(db), "Ana", "3d", "--secret")[0] == 0
    status, out, _ = _run(capsys, "table", "export", str(db), "-o", str(doc))
    assert status == 0 and str(doc) in out
    exported = json.loads(doc.read_text(encoding="utf-8"))
    assert exported["kind"] == "diceengine.table" and exported["table"]["version"] == 4
    assert exported["table"]["log"][3]["expression"] == "3d"  # the whole table: the secret roll too
    assert _run(capsys, "table", "import", str(copy), str(doc))[0] == 0
    assert _run(capsys, "table", "log", str(copy), "--as", "Ana")[1] == _run(capsys, "table", "log", str(db),
                                                                               "--as", "Ana")[1]
    status, out, _ = _run(capsys, "table", "export", str(db), "--as", "Kira")
    assert status == 0 and json.loads(out)["table"]["log"][3]["expression"] is None  # as a player reads it
    # refusals: an existing file, a missing document, a document that is not a table's log
    assert _run(capsys, "table", "import", str(copy), str(doc))[0] == 2
    status, _, err = _run(capsys, "table", "import", str(tmp_path / "x.db"), str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err and "Traceback" not in err
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    status, _, err = _run(capsys, "--lang", "fr", "table", "import", str(tmp_path / "y.db"), str(tmp_path / "bad.json"))
    assert status == 2 and err.startswith("dice: erreur:")
    assert not (tmp_path / "x.db").exists() and not (tmp_path / "y.db").exists()


# ----------------------------------------------------------------------------- tables that line up


def test_columns_line_up_by_display_width():
    lines = columns([["a", "🟨", "x"], ["bbb", "c", "yy"]], "<><")
    assert lines == ["a    🟨  x", "bbb   c  yy"]
    assert width("🟨") == 2 and width("é") == 1 and width("e\u0301") == 1


def _right_edges(line: str) -> list[int]:
    return [m.end() for m in re.finditer(r"\S+", line)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_odds_header_lines_up_with_its_rows(capsys, lang):
    """`dice odds`'s header did not line up with its rows: now each header ends where its column does."""
    status, out, _ = _run(capsys, "odds", "ffg: 2a1p vs 2d", "--lang", lang)
    assert status == 0
    block = out.split("\n\n")[1].splitlines()
    head = _right_edges(block[0])
    assert len(head) == 3
    for row in block[1:]:
        assert _right_edges(row)[:3] == head, row


def test_compare_reads_a_comparison_as_a_success(capsys):
    """`"1d20+5 >= 15"` was a total of +0.55; it is a 55% success (a d20 of 10 or more: 11 faces of 20)."""
    chance = Fraction(sum(1 for face in range(1, 21) if face + 5 >= 15), 20)
    status, out, _ = _run(capsys, "compare", "1d20+5 >= 15", "d6: 4D+1 vs 15", "ffg: 2a1p vs 2d")
    assert status == 0
    lines = out.splitlines()
    row = lines[1]
    assert row.startswith("standard: 1d20+5 >= 15") and f"{100 * float(chance):.2f}%" in row
    assert "+0.55" not in out and "total" not in row
    # the sparklines start at one column, under the success column's left edge
    sparks = lines[2::2]
    starts = {len(line) - len(line.lstrip(" ")) for line in sparks}
    assert len(starts) == 1 and starts == {lines[0].index("success")}
    assert all(line.strip()[0] in "▁▂▃▄▅▆▇█" for line in sparks)


def test_convert_ladder_columns_line_up(capsys):
    status, out, _ = _run(capsys, "convert", "--from", "d6", "--to", "ffg", "--ladder")
    assert status == 0
    rows = out.splitlines()[1:]
    assert len(rows) > 8 and len({row.index("->") for row in rows}) == 1
    assert len({len(row.split("->")[1].rstrip()) for row in rows}) == 1  # right-aligned to one edge


# ----------------------------------------------------------------------------- fight and rule


def test_fight_shows_the_rounds_that_matter_and_says_what_its_columns_count(capsys):
    status, out, _ = _run(capsys, "fight", ROARK)
    assert status == 0
    rows = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\s+[\d.]+%", line)]
    assert rows and len(rows) < 20
    going_before = 1.0
    for row in rows:  # every round shown starts with at least 0.1% of the fights going
        assert going_before >= 0.001
        going_before = float(row[2].rstrip("%")) / 100
    assert "0.00%" not in "".join(row[1] for row in rows)
    assert "later rounds not shown" in out and "--full" in out
    assert "ends: " in out and "going: " in out and "Roark by now: " in out
    status, full, _ = _run(capsys, "fight", ROARK, "--full")
    assert len([line for line in full.splitlines() if re.match(r"^\s+\d+\s+[\d.]+%", line)]) == 20
    status, out, _ = _run(capsys, "fight", "compare", ROARK)
    assert status == 0 and "over by N: " in out
    head, *rows = out.splitlines()[1:5]
    assert [_right_edges(r)[-1] for r in rows] == [_right_edges(head)[-1]] * 3


def test_rule_shows_arguments_as_a_game_master_reads_them(capsys):
    for system in ("d6", "d6wild", "d20pool", "ffg"):
        status, out, _ = _run(capsys, "rule", system)
        assert status == 0
        assert not re.search(r"'(int|str|bool)'|Code \| str|Literal\[|-> '", out), system
    status, out, _ = _run(capsys, "rule", "d6wild")
    assert "  training_days code=CODE used=yes|no teacher=yes|no\n" in out
    status, out, _ = _run(capsys, "rule", "ffg")
    assert "by=players|gm choice=bonus|penalty" in out
    status, out, _ = _run(capsys, "rule", "ffg", "--lang", "fr")
    assert "characteristic=NOMBRE skill=NOMBRE" in out


# ----------------------------------------------------------------------------- the table's log in words


def _table(capsys, tmp_path) -> str:
    db = str(tmp_path / "night.db")
    assert _run(capsys, "table", "new", db, "--system", "ffg", "--gm", "Ana", "--player", "Kira", "--scene",
                'Encounter={"destiny": {"light": 2, "dark": 1}}', "--seed", "3")[0] == 0
    return db


def test_the_log_says_what_happened_in_words(capsys, tmp_path):
    from diceengine import table as T

    db = _table(capsys, tmp_path)
    store = T.open_store(db)
    with store:
        store.update("table", lambda t: T.flip(t, "Ana", "destiny.light", "destiny.dark"))
        store.update("table", lambda t: T.adjust(t, "Ana", "wounds", 3))
    status, out, _ = _run(capsys, "table", "log", db)
    assert status == 0
    assert "#3 Ana flips 1 destiny token from the light side to the dark side\n" in out
    assert "#4 Ana adds 3 to wounds\n" in out and "destiny.light" not in out
    status, out, _ = _run(capsys, "table", "log", db, "--lang", "fr")
    assert "#3 Ana retourne 1 jeton de destinée du côté lumineux au côté obscur\n" in out


def test_a_lone_force_die_is_a_force_roll_not_a_failed_check(capsys, tmp_path):
    from diceengine import table as T

    db = _table(capsys, tmp_path)
    status, out, _ = _run(capsys, "table", "roll", db, "Kira", "1f")
    assert status == 0
    assert "failed" not in out and "chance of success" not in out and "no check" in out
    store = T.open_store(db)
    with store:
        table = store.load("table")
    entry = table.log[-1]
    assert entry.odds.chance is None and entry.odds.field == "light"
    light = int(entry.outcome["light"])
    assert entry.odds.below == pytest.approx(float(sum(p for v, p in FORCE_LIGHT.items() if v < light)))
    assert entry.odds.at == pytest.approx(float(FORCE_LIGHT[light]))
    assert T.luck(table)["Kira"].rolls == 0  # not counted in luck
    assert T.fairness(table).rolls == 1  # its dice still tested against their odds


def test_a_check_in_the_notation_is_logged_as_a_success_or_a_failure(capsys, tmp_path):
    """``1d20+5>=15`` at a table was logged as ``= 0 [percentile ...]``: its success or failure is said in words, with
    its chance of success (11 faces of 20 reach 15 with +5: 55%), in the reader's language."""
    db = str(tmp_path / "night.db")
    assert _run(capsys, "table", "new", db, "--system", "standard", "--gm", "Ana", "--player", "Kira")[0] == 0
    for seed in range(12):  # both a success and a failure among the rolls
        assert _run(capsys, "table", "roll", db, "Kira", "1d20+5>=15", "--seed", str(seed))[0] == 0
    assert _run(capsys, "table", "roll", db, "Kira", "1d20+5")[0] == 0
    status, out, _ = _run(capsys, "table", "log", db)
    assert status == 0
    lines = [line for line in out.splitlines() if "Kira: 1d20+5" in line]
    checks, plain = lines[:-1], lines[-1]
    for line in checks:
        face = int(re.search(r"\[(\d+)\]", line).group(1))
        said = "success" if face + 5 >= 15 else "failure"
        assert line.endswith(f": {said} (55.00% chance of success)"), line
        assert "percentile" not in line
    assert {"success", "failure"} <= {("success" if "success (" in line else "failure") for line in checks}
    assert "success" not in plain and "failure" not in plain
    status, out, _ = _run(capsys, "table", "log", db, "--lang", "fr")
    assert status == 0
    assert re.search(r": (réussite|échec) \(55[,.]00 ?% de chances de réussite\)$", out.splitlines()[-2]), out


def test_a_logged_roll_is_read_in_the_readers_language(capsys, tmp_path):
    """A table's stored roll text stayed English under `--lang fr`: the log keeps the dice, and the text is written
    when read, in the reader's language (the table was made in English)."""
    from diceengine import table as T
    from diceengine.table.rolls import roll_text

    db = _table(capsys, tmp_path)
    for expression in ("2a1p vs 2d", "1f"):
        assert _run(capsys, "table", "roll", db, "Kira", expression)[0] == 0
    assert _run(capsys, "table", "roll", db, "Kira", "4D+2 vs moderate", "--system", "d6wild")[0] == 0
    status, out, _ = _run(capsys, "table", "log", db, "--lang", "fr")
    assert status == 0
    lines = out.splitlines()
    assert "compétence" in lines[2] and "proficiency" not in lines[2] and ("réussite" in lines[2] or "échec" in lines[2])
    assert re.search(r"^#4 Kira : 1f: \[Force : [^]]+\] = \d points? de côté (obscur|lumineux)", lines[3]), lines[3]
    assert "aucun succès" not in lines[3] and "échec" not in lines[3]
    assert "Dé Libre" in lines[4] and "wild" not in lines[4]
    store = T.open_store(db)
    with store:
        table = store.load("table")
    for entry in table.log[2:]:
        assert roll_text(entry, "en") == entry.text  # thrown again with the stored faces: the very roll
    # a die whose face is not 1..sides (a fudge die) is not thrown again: its stored text, as it was written
    entry = T.roll(table, "Kira", "4dF", system="standard").log[-1]
    assert roll_text(entry, "fr") == entry.text
    # a stored die that does not match the roll thrown again: the stored text, never another roll's
    forged = entry.model_copy(update={"expression": "4d6", "dice": [dict(d, value=7, sides=6) for d in entry.dice]})
    assert roll_text(forged, "fr") == forged.text


# ----------------------------------------------------------------------------- glyphs in the terminal


def test_symbols_without_colour_emoji_and_a_legend(capsys):
    """The FFG colour squares are empty boxes without a colour emoji font: `--text-symbols` names each die instead,
    and `--legend` says what each symbol stands for."""
    from diceengine.renderers.symbols import legend

    status, out, _ = _run(capsys, "roll", "ffg: 2a1p vs 2d1f", "--seed", "2", "-f", "symbols", "--text-symbols",
                          "--legend", "--lang", "fr")
    assert status == 0
    line, said = out.splitlines()
    assert all(width(ch) == 1 for ch in line)  # no character two columns wide: no colour emoji
    assert line.startswith("2a1p vs 2d1f: [compétence ") and "capacité" in line and "Force" in line
    assert said.startswith("légende : ✹ succès, ✖ échec, ▲ avantage, ▼ menace")
    status, out, _ = _run(capsys, "roll", "ffg: 2a1p vs 2d1f", "--seed", "2", "-f", "symbols", "--legend")
    assert out.splitlines()[0].startswith("2a1p vs 2d1f: [🟨 ")
    # every symbol of the system is in its legend, each once, with its name
    table = __import__("diceengine").systems()["ffg"].symbols
    full = legend("ffg", "en")
    for key, symbol in table.items():
        assert f"{symbol} {key}" in full
    assert legend("d6", "en") == ""  # a die's pips say themselves



def test_the_docs_command_line_page_is_what_the_cli_prints(capsys, tmp_path, monkeypatch):
    """Every ``$ dice ...`` example of `docs/cli.md`, run in order in an empty directory (the table's session
    builds on its earlier lines), prints what the page shows (a ``...`` line stands for the rest)."""
    import shlex

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "120")
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    examples: list[tuple[str, list[str]]] = []
    for block in text.split("```text")[1:]:
        for line in block.split("```")[0].strip("\n").splitlines():
            if line.startswith("$ dice "):
                examples.append((line[2:].split("  #")[0].strip(), []))
            elif examples:
                examples[-1][1].append(line.rstrip())
    assert len(examples) >= 20
    for command, shown in examples:
        status = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        assert status == 0, (command, err)
        printed = (out + err).splitlines()
        for i, line in enumerate(shown):
            if line.strip() == "...":
                break
            assert printed[i].rstrip() == line, command


# ----------------------------------------------------------------------------- outputs in words

def _d20_check(bonus: int, target: int) -> Fraction:
    """P(1d20 + bonus >= target), by the d20's faces."""
    return Fraction(sum(1 for face in range(1, 21) if face + bonus >= target), 20)


@pytest.mark.parametrize("lang, yes, no, chance", [("en", "success", "failure", "chance of success"),
                                                   ("fr", "réussite", "échec", "de chances de réussite")])
def test_a_check_in_the_standard_notation_is_a_success_or_a_failure_with_its_chance(capsys, lang, yes, no, chance):
    percent = f"{100 * float(_d20_check(5, 15)):.2f}%"  # 11 faces of 20: 55.00%
    said = {}
    for expr in ("1d20+5>=15", "1d20+5 vs 15"):
        status, out, _ = _run(capsys, "roll", expr, "-n", "20", "--seed", "4", "--lang", lang)
        assert status == 0
        lines = out.splitlines()
        assert len(lines) == 20
        for line in lines:
            face = int(re.search(r"\[(\d+)\]", line).group(1))
            word = yes if face + 5 >= 15 else no
            assert line.endswith(f"= {int(word == yes)}{' ' if lang == 'fr' else ''}: {word} ({percent} {chance})"), line
            said[word] = True
    assert said == {yes: True, no: True}


def test_a_check_keeps_its_data_in_json(capsys):
    status, out, _ = _run(capsys, "roll", "1d20+5>=15", "--seed", "4", "--json")
    assert status == 0
    data = json.loads(out)
    face = data["dice"][0]["value"]
    assert data["outcome"] == {"total": int(face + 5 >= 15)}


def test_a_success_count_is_no_check(capsys):
    status, out, _ = _run(capsys, "roll", "4d6>3", "--seed", "1")
    assert status == 0 and "success" not in out and "failure" not in out


@pytest.mark.parametrize("lang, words", [("en", ("mean critical successes", "mean critical failures")),
                                         ("fr", ("moyenne (réussites critiques)", "moyenne (échecs critiques)"))])
def test_odds_say_the_critical_marks_in_words(capsys, lang, words):
    status, out, _ = _run(capsys, "odds", "2d20kh1cs20cf1", "--lang", lang)
    assert status == 0 and "_" not in out
    # a natural 20 with advantage: 1 - (19/20)^2; a natural 1: (1/20)^2
    lines = {line.rsplit(None, 1)[0].strip(): float(line.rsplit(None, 1)[1]) for line in out.splitlines()
             if line.strip().startswith(words)}
    assert lines[words[0]] == pytest.approx(1 - (19 / 20) ** 2, abs=1e-4)
    assert lines[words[1]] == pytest.approx((1 / 20) ** 2, abs=1e-4)
