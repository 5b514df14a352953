"""Cold start (issue 25): what a first roll loads. Nothing here is timed (benchmarks/cold_start.py times it)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

import diceengine as de
from diceengine import registry


def test_the_shipped_systems_are_the_installed_entry_points():
    # loaded by package name without reading the metadata: each must be what pyproject.toml installs
    for ep in entry_points(group="diceengine.systems"):
        shipped = registry._Shipped.find(ep.name)
        if ep.value.startswith("diceengine.systems."):
            assert shipped is not None and shipped.load() is ep.load()
        else:  # a plug-in (examples/plugin-percentile): through its entry point
            assert shipped is None
    for name in ("play", "combat", "symbols", "standard.term", "../x", ""):  # helpers and odd names are no system
        assert registry._Shipped.find(name) is None
        with pytest.raises(de.DiceError):
            de.roll("1d6", name)


def test_a_shipped_system_loads_without_reading_every_entry_point():
    code = ("import sys, diceengine; from diceengine import registry\n"
            "registry.entry_points_of = lambda: (_ for _ in ()).throw(AssertionError('read'))\n"
            "print(diceengine.roll('4d6kh3', seed=1).total, diceengine.roll('3D', 'd6', seed=1).total)\n"
            "print('importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-1] == "False"
    assert 3 <= int(out[0]) <= 18 and 3 <= int(out[1])


def test_an_unknown_system_still_lists_the_installed_ones():
    with pytest.raises(de.DiceError, match="standard"):
        de.roll("1d6", "no such system")


#: what a standard roll (and ``dice roll``) leaves unloaded: numpy, Lark, pydantic, reading the installed metadata,
#: dataclasses (and the inspect, ast, dis, tokenize it imports: the nodes are diceengine.records), json (the roll
#: JSON writer takes json's C string writer alone), copy and weakref (the plan cache copies on first use)
_NOT_LOADED = ("numpy", "lark", "pydantic", "importlib.metadata", "dataclasses", "inspect", "ast", "dis", "tokenize",
               "json", "copy", "weakref", "shutil", "threading")
_CHECK = "import sys\n{call}\nprint('LOADED', *[m for m in {names!r} if m in sys.modules])"


@pytest.mark.parametrize("call", [
    "import diceengine; diceengine.roll('4d6kh3')",
    ("import diceengine; [diceengine.roll(e) for e in ('1d6!', '8d10>=7f1', '2d20kl1+5', '3d6[fire] + 1d4', '4dF', "
     "'{1d6,2d4}kh1', '4d6kh3 fire damage', '1.5*2d6', 'max(1d6, 2)', '2d6cs>5', '4d6r1!', '3d6u', '10d10>=8dbl10', "
     "'(1d6, 2d4)kh1', '4d6mi2', '4d6kh3 + 1d4 - 2', '2d20kh1 // 3')]"),
    "import diceengine; print(diceengine.roll('4d6kh3', seed=1))",
    "from diceengine.cli import main; sys.argv = ['dice', 'roll', '4d6kh3']; main()",
    "from diceengine.cli import main; sys.argv = ['dice', 'roll', '-2d6+1d4', '-n', '2', '--seed', '3']; main()",
])
def test_a_standard_roll_leaves_these_modules_unloaded(call):
    # in a fresh process, as a user's first command runs (benchmarks/cold_start.py times it; nothing here is timed)
    out = subprocess.run([sys.executable, "-c", _CHECK.format(call=call, names=_NOT_LOADED)], capture_output=True,
                         text=True, check=True).stdout
    loaded = out[out.rindex("LOADED"):].split()[1:]
    assert loaded == []


def test_the_cli_reads_a_negative_expression_as_its_pattern_does():
    # dice roll "-1d6": the hand-written test of diceengine.cli, against the regular expression it stands for
    import itertools
    import re

    from diceengine.cli import _negative_expression

    pattern = re.compile(r"-\s*(\d|\(|[dD](\d|%|[fF]))")
    alphabet = ["-", " ", "\t", "\u2003", "1", "\u0663", "(", "d", "D", "%", "f", "F", "x", "²", "+"]
    for size in range(5):
        for chars in itertools.product(alphabet, repeat=size):
            text = "".join(chars)
            assert _negative_expression(text) is bool(pattern.match(text)), repr(text)
