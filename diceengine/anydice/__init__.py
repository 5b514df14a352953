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

__all__ = ["KEEP", "Output", "outputs", "parse_program", "run"]


#: programs answered lately (a program's outputs depend on its text alone): text -> outputs, oldest first
_ANSWERS: dict[str, tuple[Output, ...]] = {}
#: how many programs :data:`_ANSWERS` keeps
KEEP = 64


def run(program: str) -> list[Output]:
    """Run an AnyDice program; its outputs in order (each a label and a die, ``None`` where AnyDice shows
    nothing). The answers of the last :data:`KEEP` programs are kept: a program asked again is not run again."""
    found = _ANSWERS.pop(program, None)
    if found is None:
        found = tuple(Interpreter(parse_program(program)).run())
        if len(_ANSWERS) >= KEEP:
            del _ANSWERS[next(iter(_ANSWERS))]
    _ANSWERS[program] = found
    return list(found)


def outputs(program: str, lang: str | None = None) -> list[Distribution]:
    """The outputs of ``program`` as distributions (:func:`diceengine.api.anydice`); an error said in ``lang``."""
    from diceengine.errors import DiceError
    from diceengine.i18n import language

    from .errors import say
    from .results import distribution_of

    if type(program) is not str:
        if not isinstance(program, str):
            raise DiceError(f"a program must be a string, not {type(program).__name__}")
        program = str.__str__(program)
    try:
        if lang is not None:
            language(lang)
        return [distribution_of(output) for output in run(program)]
    except DiceError as err:
        raise (say(err, lang) if lang is not None else err) from None


class _AnyDicePackage(types.ModuleType):
    """The package, callable: ``diceengine.anydice(program, lang=None)`` is :func:`outputs`, as
    :func:`diceengine.api.anydice` is."""

    def __call__(self, program: str, lang: str | None = None) -> list[Distribution]:
        return outputs(program, lang)


sys.modules[__name__].__class__ = _AnyDicePackage
