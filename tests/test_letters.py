"""Letters are ASCII letters: Unicode look-alikes are syntax errors with a caret, in every system."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import diceengine as de

#: every non-ASCII character that Python's Unicode case-insensitive matching takes for an ASCII letter
#: (the long s, the Kelvin sign, the dotted capital I, ...), found by asking ``re`` itself
LOOK_ALIKES = {
    c: letter
    for c in map(chr, range(0x80, 0x10000))
    for letter in "abcdefghijklmnopqrstuvwxyz"
    if re.fullmatch(letter, c, re.IGNORECASE)
}

EXPRESSIONS = {
    "standard": ["4d6kh3", "1d6!", "2d10ro1", "8d10>=7f1", "4dF", "3d6dl1"],
    "d6": ["4D+2 vs 15", "3D vs short", "3D vs 2D"],
    "d6wild": ["4D+1 vs moderate", "5D vs easy"],
    "d20pool": ["3d20<=12 spec 3 vs 2"],
    "ffg": ["2a1p1b vs 2d1s", "2 ability 1 proficiency", "1 force + 2 setbacks"],
}


def test_there_are_look_alikes_to_refuse():
    assert {"\u017f": "s", "\u212a": "k", "\u0130": "i"}.items() <= LOOK_ALIKES.items()


@pytest.mark.parametrize("system", sorted(EXPRESSIONS))
def test_look_alikes_are_syntax_errors_with_a_caret(system):
    tried = 0
    for text in EXPRESSIONS[system]:
        de.roll(text, system, seed=1)  # the ASCII spelling is valid
        for i, ch in enumerate(text):
            for odd, letter in LOOK_ALIKES.items():
                if letter != ch.lower():
                    continue
                bad = text[:i] + odd + text[i + 1:]
                with pytest.raises(de.DiceSyntaxError) as err:
                    de.roll(bad, system, seed=1)
                assert err.value.column == i, (bad, str(err.value))
                assert str(err.value).splitlines()[-1] == "  " + " " * i + "^"
                tried += 1
    assert tried > 0


@pytest.mark.parametrize("call", ["roll", "sample", "distribution"])
def test_issue_inputs(call):
    for text in ("\u017f", "1\u017f", "prof\u0130ciencies", "2a vs 1\u017f"):
        with pytest.raises(de.DiceSyntaxError):
            if call == "sample":
                de.sample(text, 1000, system="ffg")
            else:
                getattr(de, call)(text, system="ffg")


def test_command_line_answers_with_the_error_not_a_traceback():
    out = subprocess.run([sys.executable, "-m", "diceengine", "roll", "ffg: 1\u017f"], capture_output=True,
                         text=True, encoding="utf-8", check=False)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "^" in out.stderr
