"""Fantasy Flight Games Star Wars narrative dice (Edge of the Empire, Age of Rebellion, Force and
Destiny): the ``ffg`` system.

The rule text it follows (``../shared/rules/``, mapped by its ``README.md``): ``004`` (the seven dice
and their symbols, pools from characteristic and skill, difficulty, opposed checks, boost and setback,
upgrades and downgrades, cancellation, the Force die and the destiny pool, critical injuries,
initiative, minion groups, XP costs); the face tables are the published ones, printed in that README.

Where each rule lives:

- :mod:`~diceengine.systems.ffg.system`: the :class:`FFGSystem` plug-in: reading the notation (counts,
  letters, names in English and French, colours), its syntax-tree nodes, the plan of a pool (roll,
  exact odds, samples, text) and its outcome; ``RULES`` / ``RULE_SUMMARIES`` for ``dice rule ffg``;
- :mod:`~diceengine.systems.ffg.dice`: the seven dice's faces as vectors and the exact distribution of
  a pool;
- :mod:`~diceengine.systems.ffg.rules`: building pools (:class:`DicePool`, :func:`build_pool`), the
  destiny pool, minions, critical injuries, initiative, advancement;
- :mod:`~diceengine.systems.ffg.play`: the state of play (destiny, minion groups, character sheets;
  ``dice rule ffg`` runs its rules on a JSON state);
- :mod:`~diceengine.systems.ffg.fight`: the combat of ``004`` for the fights layer.
"""

from __future__ import annotations

from . import rules, system
from .rules import *
from .system import *

#: the package's names are its modules' own (each module's ``__all__``)
__all__ = []
__all__ += rules.__all__
__all__ += system.__all__
