"""Import paths that moved keep working (``diceengine.systems.MOVED``): the old name gives the very module
that holds the code now, and every import line and module path the README and the docs site document still imports."""

from __future__ import annotations

import importlib
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
#: the ``from diceengine... import ...`` / ``import diceengine...`` lines of the README's and the docs' code blocks
IMPORT_LINES = sorted(set(re.findall(r"^(?:from diceengine[\w.]* import [\w, ]+|import diceengine[\w.]*(?: as \w+)?)$", TEXT,
                                     flags=re.MULTILINE)))
#: every module path under ``diceengine.systems`` the README and the docs name (``diceengine.systems.d6_fight``...)
MODULE_PATHS = sorted(set(re.findall(r"\bdiceengine\.systems\.[a-z_][a-z0-9_]*\b(?!\.[A-Z])", TEXT)))


def test_the_old_play_path_is_the_new_module():
    import diceengine.systems.d6_play as old
    from diceengine.systems.d6 import play

    assert old is play
    assert old.D6Scene is play.D6Scene


@pytest.mark.parametrize(("old", "new"), [("d6_play", "diceengine.systems.d6.play"),
                                          ("d6_fight", "diceengine.systems.d6.fight"),
                                          ("d6wild_play", "diceengine.systems.d6wild.play"),
                                          ("d6wild_fight", "diceengine.systems.d6wild.fight"),
                                          ("d20pool_play", "diceengine.systems.d20pool.play"),
                                          ("ffg_play", "diceengine.systems.ffg.play"),
                                          ("ffg_fight", "diceengine.systems.ffg.fight")])
def test_every_documented_old_path_gives_the_module_that_holds_it_now(old, new):
    assert importlib.import_module(f"diceengine.systems.{old}") is importlib.import_module(new)


def test_an_old_path_imports_in_a_fresh_interpreter():
    """Nothing imported before: the old name alone finds the new module (no earlier import helps)."""
    code = ("import diceengine.systems.ffg_fight as f, sys; "
            "print(f.__name__, sys.modules['diceengine.systems.ffg_fight'] is sys.modules[f.__name__])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["diceengine.systems.ffg.fight", "True"]


def test_an_unknown_old_name_is_still_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("diceengine.systems.d7_play")


def test_the_docs_document_import_lines_and_paths():
    assert any("play" in line for line in IMPORT_LINES)  # the states of play are imported in the ruleset pages
    assert any(path.startswith("diceengine.systems.d6") for path in MODULE_PATHS)


@pytest.mark.parametrize("line", IMPORT_LINES)
def test_every_readme_import_line_still_works(line):
    namespace: dict = {}
    exec(line, namespace)  # noqa: S102 (a documented import line, run as a reader would)
    imported = line.split(" import ", 1)[1] if line.startswith("from ") else line.split(" ", 1)[1]
    for name in imported.split(","):
        bound = name.split(" as ")[-1].strip() if " as " in name else name.strip().split(".")[0]
        assert namespace[bound] is not None


@pytest.mark.parametrize("path", MODULE_PATHS)
def test_every_module_path_the_readme_names_imports(path):
    assert importlib.import_module(path).__name__.startswith("diceengine.systems.")
