"""Cold start (issue 33, session 36): a first roll that counts nothing does not import the die algebra's counts
(:mod:`diceengine.algebra.counts`, imported where a term or a die is counted), and a roll does not import the term's
exact odds (:mod:`.term.exact`, imported when the odds are first asked); what needs them still reads them.
In fresh processes, as a user's first command runs; nothing here is timed (benchmarks/cold_start.py times it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

_COUNTS, _ODDS = "diceengine.algebra.counts", "diceengine.systems.standard.term.exact"
_CHECK = "import sys\n{call}\nprint('LOADED', {module!r} in sys.modules)"


def _loaded(call: str, module: str) -> bool:
    out = subprocess.run([sys.executable, "-c", _CHECK.format(call=call, module=module)], capture_output=True,
                         text=True, check=True).stdout
    return out[out.rindex("LOADED"):].split()[1] == "True"


def _counts_loaded(call: str) -> bool:
    return _loaded(call, _COUNTS)


@pytest.mark.parametrize("call", [
    "import diceengine; diceengine.roll('4d6kh3')",
    "import diceengine; print(diceengine.roll('2d20kl1+5', seed=1))",
    "from diceengine.cli import main; sys.argv = ['dice', 'roll', '4d6kh3']; main()",
])
def test_a_first_roll_counting_nothing_leaves_the_counts_unloaded(call: str) -> None:
    assert not _counts_loaded(call)


@pytest.mark.parametrize("expression", ["8d10>=7f1", "10d10>=8dbl10", "2d6cs>5"])
def test_a_roll_that_counts_reads_them(expression: str) -> None:
    assert _counts_loaded(f"import diceengine; diceengine.roll({expression!r})")


@pytest.mark.parametrize("call", [
    "import diceengine; diceengine.roll('4d6kh3')",
    "import diceengine; [diceengine.roll(e) for e in ('1d6!', '8d10>=7f1', '4d6r1!', '10d10>=8dbl10', '3d6u')]",
    "from diceengine.cli import main; sys.argv = ['dice', 'roll', '4d6kh3']; main()",
])
def test_a_roll_leaves_the_exact_odds_unloaded(call: str) -> None:
    assert not _loaded(call, _ODDS)


def test_the_odds_read_them() -> None:
    assert _loaded("import diceengine; diceengine.distribution('4d6kh3')", _ODDS)
