"""Star Wars D6 with the Wild Die (2nd edition Revised style): the ``d6wild`` system.

The rule text it follows (``../shared/rules/``, mapped by its ``README.md``): ``003`` (the attributes,
codes with pips, the difficulty ladder 5 to 30, the Wild Die and its complications, multiple actions,
reactions, damage bands, character points, Force points, advancement and training). Where ``003`` is
silent it reads classic D6's texts ``000`` / ``002`` (ties, initiative order), shared with
:mod:`diceengine.systems.d6`: the notation, the codes and the checks are D6's
(:mod:`~diceengine.systems.d6.codes`, :mod:`~diceengine.systems.d6.checks`), as is what both rulesets
share (:mod:`~diceengine.systems.d6.shared`, the combatant of :mod:`~diceengine.systems.d6.fighters`).

Where each rule lives:

- :mod:`~diceengine.systems.d6wild.system`: the :class:`D6WildSystem` plug-in (options, the plan of a
  check), its outcome, and ``RULES`` / ``RULE_SUMMARIES`` / ``RULE_WORDS`` for ``dice rule d6wild``;
- :mod:`~diceengine.systems.d6wild.dice`: throwing a code with the Wild Die (one roll and its text,
  exact odds, bulk samples) and a character point spent after the roll;
- :mod:`~diceengine.systems.d6wild.rules`: the ladder, damage bands and health, multiple actions,
  reactions, initiative, advancement and training;
- :mod:`~diceengine.systems.d6wild.play`: the state of play (a scene, its characters, the round;
  ``dice rule d6wild`` runs its rules on a JSON state);
- :mod:`~diceengine.systems.d6wild.fight`: the combat of ``003`` for the fights layer.
"""

from __future__ import annotations

from ..d6.codes import Code, parse_code
from ..d6.shared import Initiative, advance, advance_cost, modified_code
from . import dice, rules, system
from .dice import *
from .rules import *
from .system import *

#: the package's names are its modules' own (each module's ``__all__``)
__all__ = ["Code", "Initiative", "advance", "advance_cost", "modified_code", "parse_code"]
__all__ += dice.__all__
__all__ += rules.__all__
__all__ += system.__all__
