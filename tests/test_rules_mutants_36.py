"""Tests written for the mutants of session 36's mutation run over the rules and the re-roll after the
refactors of session 35 (d6 / d6wild helpers shared, the symbol pools' plan, re-roll in the algebra). Each
was seen failing on the mutant it is for; the expected values come from the rule texts or from an
enumeration written here."""

from __future__ import annotations

import os
import subprocess
import sys

import diceengine as de


def test_the_grammars_read_in_an_ascii_locale():
    """The grammars are UTF-8 (ffg.lark's « capacité », d6.lark's « très »): a process started in an ASCII locale,
    with Python's locale coercion and UTF-8 mode off, still reads them and rolls in every built-in system."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8"))}
    env.update(LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0")
    rolls = [("2a1p vs 2d", "ffg"), ("3D+1 vs 10", "d6"), ("4d6kh3", "standard")]
    code = ("import locale, diceengine as de\n"
            "assert locale.getpreferredencoding(False) != 'UTF-8', locale.getpreferredencoding(False)\n"
            "de.roll('2 capacit\\u00e9 vs 1 difficult\\u00e9', system='ffg')\n"
            f"for e, s in {rolls!r}: print(str(de.roll(e, system=s, seed=1, lang='en')))\n")
    # the command line itself is ASCII (an ASCII locale cannot decode it otherwise): the French words escaped
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(de.roll(e, system=s, seed=1, lang="en")) for e, s in rolls]
