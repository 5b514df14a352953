"""A d20 success pool of the 2d20 family: the ``d20pool`` system.

The rule text it follows (``../shared/rules/``, mapped by its ``README.md``): ``001`` (threshold =
attribute + discipline, two d20 and up to three extra dice bought with Impulsion or Menace, successes,
specialisations, complications, difficulty and Impulsion, Force powers, experience costs and caps).

Where each rule lives:

- :mod:`~diceengine.systems.d20pool.system`: the :class:`D20PoolSystem` plug-in: its syntax-tree nodes
  (``grammars/d20pool.lark``), the plan of a pool (roll, exact odds, samples, text), its outcome, and
  ``RULES`` / ``RULE_SUMMARIES`` for ``dice rule d20pool``;
- :mod:`~diceengine.systems.d20pool.rules`: a character's check (:func:`build_check`), the cost of a
  Force power, experience costs;
- :mod:`~diceengine.systems.d20pool.play`: the state of play (Impulsion, Menace, a pending check;
  ``dice rule d20pool`` runs its rules on a JSON state). The ruleset has no combat of its own;
- :mod:`~diceengine.systems.d20pool.experience`: experience in play (earned, spent, given, lost at
  death), on the characters of :mod:`~diceengine.systems.d20pool.state`.
"""

from __future__ import annotations

from . import rules, system
from .rules import *
from .system import *

#: the package's names are its modules' own (each module's ``__all__``)
__all__ = []
__all__ += rules.__all__
__all__ += system.__all__
