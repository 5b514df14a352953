"""Classic Star Wars D6 (West End Games 1st edition): the ``d6`` system, and what D6 with the Wild Die
(:mod:`diceengine.systems.d6wild`) shares with it.

The rule texts it follows (``../shared/rules/``, mapped by its ``README.md``): ``000`` (WEG 1st edition,
book 1 ch. 2: codes, difficulties, opposed rolls, modifiers, reactions, damage, the death roll, Force
points, advancement) and ``002`` (the table rules: circumstance dice added to the difficulty, hurrying,
group initiative, reactions that replace the difficulty, parries, cover).

Where each rule lives:

- :mod:`~diceengine.systems.d6.system`: the :class:`D6System` plug-in (notation, options, the plan of a
  check), its outcome, and ``RULES`` / ``RULE_SUMMARIES`` / ``RULE_WORDS`` for ``dice rule d6``;
- :mod:`~diceengine.systems.d6.codes`: dice codes (``4D+2``) and their arithmetic, the syntax-tree nodes
  of ``grammars/d6.lark`` (shared with ``d6wild``);
- :mod:`~diceengine.systems.d6.checks`: throwing a code (one roll, exact odds, bulk samples), checks
  against a difficulty or an opposing code, the tie option, a roll's text (shared with ``d6wild``);
- :mod:`~diceengine.systems.d6.shared`: the rules both D6 rulesets use: range difficulties, modifiers of
  a code, health states, ties, initiative order, reactions, advancement by pips;
- :mod:`~diceengine.systems.d6.rules`: the rules of classic D6 only: a round's penalties,
  circumstances, cover, damage and wounds, death rolls, opposed rolls, parries, Force points;
- :mod:`~diceengine.systems.d6.scene` and :mod:`~diceengine.systems.d6.play`: the state of play (a scene,
  its characters, the round step by step; ``dice rule d6`` runs its rules on a JSON state), with
  :mod:`~diceengine.systems.d6.order` (who acts when);
- :mod:`~diceengine.systems.d6.fighters` and :mod:`~diceengine.systems.d6.fight`: the D6 combatant of
  an encounter file (shared with ``d6wild``), and classic D6's combat for the fights layer.
"""

from __future__ import annotations

from . import rules, shared, system
from .codes import Code, parse_code
from .rules import *
from .shared import *
from .system import *

#: the package's names are its modules' own (each module's ``__all__``)
__all__ = ["Code", "parse_code"]
__all__ += rules.__all__
__all__ += shared.__all__
__all__ += system.__all__
