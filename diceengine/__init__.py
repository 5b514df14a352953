"""diceengine: roll, sample in bulk and compute the exact odds of the dice of the Star Wars
role-playing games (classic D6, D6 with a Wild Die, a d20 success pool, FFG narrative dice) and of
standard dice notation.

>>> import diceengine as de
>>> de.roll("4d6kh3", seed=1).total
13
"""

# renderers: the formats a roll is written in; they depend on the results and, imported, install their
# writers into them (Roll.render, Plan.describe), so the results never import a renderer.
# systems: the package of built-in systems, callable: systems() -> registered systems. It is installed from
# the repository's systems/ folder (pyproject: package-dir), which mypy reading the source tree cannot map
from . import (  # type: ignore[attr-defined]
    renderers,  # noqa: F401
    systems,
)
from ._version import __version__ as __version__
from .api import anydice, distribution, roll, sample
from .errors import DiceError, DiceLimitError, DiceSyntaxError, DiceValueError
from .registry import Option, Plan, System, register
from .rolls import Die, Roll

__all__ = [
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DiceValueError",
    "Die",
    "Option",
    "Plan",
    "Roll",
    "System",
    "anydice",
    "distribution",
    "register",
    "roll",
    "sample",
    "systems",
]

