"""The combat hook of a ruleset: what the fights layer needs from a system, and nothing more.

A system that has damage rules returns a :class:`FightRules` from its optional ``System.fight_rules()``
hook (the core names no system; a third-party system plugs in the same way).

The contract, all of it:

- ``setup_model``: the pydantic model of an encounter as written for this ruleset: two sides ``a``
  and ``b``, each a list of combatants in the ruleset's terms, plus the settings and the policies for
  the choices the texts leave to players (each one a documented field). The core validates the
  ruleset's table of an encounter file with it and reports a bad field as the engine's error.
- :meth:`FightRules.duel` turns a setup into a :class:`Duel`: the exact Markov chain of a fight of
  one combatant a side. States are hashable; :meth:`Duel.start` gives the initial states with their
  probabilities (a mixture when something is rolled once, before the first round),
  :meth:`Duel.advance` the states one round later with their exact probabilities, and
  :meth:`Duel.status` whether a state is still a fight (:data:`GOING`) or who won. It raises
  :class:`~diceengine.errors.DiceValueError` when the setup is not a duel.
- :meth:`FightRules.battle` turns a setup into a :class:`Battle` of ``n`` independent fights held as
  numpy arrays; :meth:`Battle.step` advances every fight it holds by one round with vectorised code
  (no Python loop over fights), :meth:`Battle.status` reads who won each fight, and
  :meth:`Battle.keep` drops the finished ones. It must play the same rules as the duel, so that the
  simulation and the exact chain agree wherever both apply.
- :meth:`FightRules.roster` names the combatants of each side, for tables.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

__all__ = ["A_WINS", "BOTH_DOWN", "B_WINS", "GOING", "Battle", "Duel", "FightRules"]

#: the fight goes on
GOING = 0
#: side ``a`` is the last standing
A_WINS = 1
#: side ``b`` is the last standing
B_WINS = 2
#: both sides fell in the same round
BOTH_DOWN = 3


class Duel(ABC):
    """The exact chain of a fight of one combatant a side (see the module docstring)."""

    @abstractmethod
    def start(self) -> Mapping[Hashable, float]:
        """The states before the first round, with their probabilities."""

    @abstractmethod
    def advance(self, state: Hashable) -> Mapping[Hashable, float]:
        """The states after one round from ``state`` (a fight still going), with their probabilities."""

    @abstractmethod
    def status(self, state: Hashable) -> int:
        """:data:`GOING`, :data:`A_WINS`, :data:`B_WINS` or :data:`BOTH_DOWN`."""


class Battle(ABC):
    """``n`` fights advanced round by round as numpy arrays (see the module docstring)."""

    @property
    @abstractmethod
    def size(self) -> int:
        """How many fights it holds."""

    @abstractmethod
    def step(self, gen: np.random.Generator) -> None:
        """Play one round of every fight held."""

    @abstractmethod
    def status(self) -> np.ndarray:
        """One status per fight held (``int8``: :data:`GOING`, :data:`A_WINS`, ...)."""

    @abstractmethod
    def keep(self, mask: np.ndarray) -> None:
        """Keep only the fights where ``mask`` is true (in order)."""


class FightRules(ABC):
    """The combat of one ruleset (see the module docstring for the contract)."""

    setup_model: type[BaseModel]

    @abstractmethod
    def duel(self, setup: Any) -> Duel:
        """The exact chain of a one-against-one setup."""

    @abstractmethod
    def battle(self, setup: Any, n: int, gen: np.random.Generator) -> Battle:
        """``n`` fights of this setup, before the first round (``gen`` draws anything rolled once)."""

    def roster(self, setup: Any) -> tuple[Sequence[str], Sequence[str]]:
        """The names of the combatants of sides ``a`` and ``b``."""
        return [f.name for f in setup.a], [f.name for f in setup.b]
