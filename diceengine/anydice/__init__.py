"""The AnyDice language (anydice.com) on the engine's die algebra: a program's outputs, exact, without AnyDice's
time limit but within the engine's work budget.

>>> from diceengine.anydice import run
>>> [(o.label, o.die.mean()) for o in run("output 2d6 named \\"two dice\\"")]
[('two dice', 7.0)]
"""

from __future__ import annotations

from .interpreter import Interpreter, Output
from .parse import parse_program

__all__ = ["Output", "parse_program", "run"]


def run(program: str) -> list[Output]:
    """Run an AnyDice program; its outputs in order (each a label and a die, ``None`` where AnyDice shows
    nothing)."""
    return Interpreter(parse_program(program)).run()
