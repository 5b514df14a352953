"""The AnyDice language (anydice.com) on the engine's die algebra: a program's outputs, exact, without AnyDice's
time limit but within the engine's work budget.

``diceengine.anydice`` is both this package and the public function ``diceengine.anydice(program, lang=None)``
(:func:`diceengine.api.anydice`: the outputs as distributions), as ``diceengine.systems`` is: importing the package
sets the attribute ``anydice`` of ``diceengine`` to it, so the package answers the call.

>>> from diceengine.anydice import run
>>> [(o.label, o.die.mean()) for o in run('output 2d6 named "two dice"')]
[('two dice', 7.0)]
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from .interpreter import Interpreter, Output
from .parse import parse_program

if TYPE_CHECKING:
    from diceengine.distributions import Distribution

__all__ = ["Output", "parse_program", "run"]


def run(program: str) -> list[Output]:
    """Run an AnyDice program; its outputs in order (each a label and a die, ``None`` where AnyDice shows
    nothing)."""
    return Interpreter(parse_program(program)).run()


class _AnyDicePackage(types.ModuleType):
    """The package, callable: ``diceengine.anydice(program)`` is :func:`diceengine.api.anydice`."""

    def __call__(self, program: str, lang: str | None = None) -> list[Distribution]:
        from diceengine.api import anydice

        return anydice(program, lang)


sys.modules[__name__].__class__ = _AnyDicePackage
