"""An example diceengine plug-in: percentile roll-under checks in the manner of Call of Cthulhu.

``d100<=60`` rolls a tens die (00-90) and a units die (0-9) against a skill of 60; ``bonus [N]`` /
``penalty [N]`` add one or two tens dice and keep the best / worst result; ``vs hard`` / ``vs extreme``
asks for half / a fifth of the skill. The package holds its system (:mod:`dice_percentile.system`) and
its grammar (``percentile.lark``, read from this package), and registers through the entry point
``percentile`` of the group ``diceengine.systems``.
"""

from .system import LEVELS, PercentileOutcome, PercentilePlan, PercentileSystem, level_of

__all__ = ["LEVELS", "PercentileOutcome", "PercentilePlan", "PercentileSystem", "level_of"]
