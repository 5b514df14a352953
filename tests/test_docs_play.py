"""The documentation's scenes of the rulesets in play run as written (one per ruleset's page, section "In play"):
each ``expression  # -> value`` line holds; the command lines of the states of play print what the page shows."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import pytest

from diceengine.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
RULESETS = ("d6", "d6wild", "d20pool", "ffg")


def blocks() -> list[str]:
    found = []
    for name in RULESETS:
        text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
        section = text.split("\n## In play\n", 1)[1].split("\n## ", 1)[0]
        found += re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    return found


def test_there_is_one_scene_per_ruleset():
    found = blocks()
    assert len(found) == 4
    for module in ("d6_play", "d6wild_play", "d20pool_play", "ffg_play"):
        assert any(module in b for b in found), module


@pytest.mark.parametrize("block", blocks(), ids=["d6", "d6wild", "d20pool", "ffg"])
def test_docs_scene(block):
    namespace: dict = {}
    lines = block.splitlines()
    checked = 0
    for stmt in ast.parse(block).body:
        source = ast.get_source_segment(block, stmt)
        _, sep, expected = lines[stmt.end_lineno - 1].partition("# ->")
        if sep and isinstance(stmt, ast.Expr):
            value = eval(compile(source, "docs", "eval"), namespace)
            want = ast.literal_eval(expected.split("  (")[0].strip())
            assert value == want, source
            checked += 1
        else:
            exec(compile(source, "docs", "exec"), namespace)  # noqa: S102
    assert checked >= 2


def test_docs_command_lines(capsys):
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8").split("## The rulesets in play", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", text, flags=re.DOTALL).group(1).splitlines()
    runs = [(i, line[2:]) for i, line in enumerate(block) if line.startswith("$ ")]
    assert len(runs) == 2
    for i, command in runs:
        args = shlex.split(command)[1:]
        status = main(args)
        out = capsys.readouterr()
        shown = (out.out or out.err).strip()
        assert shown == block[i + 1], command
        assert status == (2 if shown.startswith("dice: error") else 0)
