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
            "registry._entry_points = lambda: (_ for _ in ()).throw(AssertionError('read'))\n"
            "print(diceengine.roll('4d6kh3', seed=1).total, diceengine.roll('3D', 'd6', seed=1).total)\n"
            "print('importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-1] == "False"
    assert 3 <= int(out[0]) <= 18 and 3 <= int(out[1])


def test_an_unknown_system_still_lists_the_installed_ones():
    with pytest.raises(de.DiceError, match="standard"):
        de.roll("1d6", "no such system")
