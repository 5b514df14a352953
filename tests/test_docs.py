"""The documentation site builds strictly: every page, link and API reference of ``mkdocs.yml`` resolves, and
the README is a front page that opens with its two commands and links into the site."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                          check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "notation/index.html", "d6/index.html", "writing-a-system/index.html",
                 "design/index.html", "api/registry/index.html"):
        assert (site / page).is_file(), page
    # the API reference is rendered from the docstrings, not left as a ::: directive
    registry = (site / "api/registry/index.html").read_text(encoding="utf-8")
    assert "extension point of the engine" in registry and ":::" not in registry
    assert (site / "fight-compare.png").is_file() and (site / "web-page.jpg").is_file()


def test_readme_is_a_front_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text) <= 10_000
    first = re.search(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    assert first is not None and text.index(first.group(0)) < text.index("\n## ")
    assert first.group(1).splitlines()[:2] == ['pip install -e . && dice roll "4d6kh3"',
                                               'pip install -e ".[test]" && python -m pytest']
    # .ci/run executes these two commands as written
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in first.group(1).splitlines()[:2]:
        assert command in ci, command
    # every page the README links to exists
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert len(links) >= 10
    for link in links:
        assert (ROOT / link).exists(), link


def _shown_rolls() -> list[tuple[str, str]]:
    """Each ``$ dice roll ...`` of the README's text blocks followed by the line it prints."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = []
    for block in re.findall(r"```text\n(.*?)```", text, flags=re.DOTALL):
        lines = block.splitlines()
        for command, printed in itertools.pairwise(lines):
            if command.startswith("$ dice roll ") and not printed.startswith("$"):
                shown.append((command[2:], printed))
    return shown


@pytest.mark.parametrize(("command", "printed"), _shown_rolls())
def test_every_roll_the_readme_shows_prints_what_it_shows(command, printed, capsys):
    import shlex

    from diceengine.cli import main

    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.rstrip("\n") == printed


def test_the_readme_shows_rolls():
    assert len(_shown_rolls()) >= 7
