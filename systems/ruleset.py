"""The base of the built-in rulesets: a :class:`~diceengine.registry.System` whose state of play and combat are
modules of its package, named by the class and imported only when asked for (a roll never imports them); and the
plan of the rulesets whose dice are one symbol pool (``d20pool``, ``ffg``)."""

from __future__ import annotations

import importlib
import types
from typing import Any, ClassVar

from diceengine.distributions import Distribution
from diceengine.limits import Cost
from diceengine.registry import Plan, System

__all__ = ["Ruleset", "SymbolPoolPlan"]


class Ruleset(System):
    """A system with its state of play (``play_module``: its ``RULES``) and its combat (``fight_module``: its
    ``FIGHT_RULES``), each a module name or ``None``."""

    play_module: ClassVar[str | None] = None
    fight_module: ClassVar[str | None] = None

    def rules_of_play(self) -> types.ModuleType | None:
        """The module of the ruleset's state of play (``play_module``), or ``None``."""
        return None if self.play_module is None else importlib.import_module(self.play_module)

    def fight_rules(self) -> Any:
        """The ruleset's combat (``fight_module``'s ``FIGHT_RULES``), or ``None``."""
        return None if self.fight_module is None else importlib.import_module(self.fight_module).FIGHT_RULES()


class SymbolPoolPlan(Plan):
    """A plan whose dice are one :class:`~diceengine.algebra.SymbolPool` (``pool``): its bulk samples, the cost of
    its exact odds and the odds themselves, each with the fields the ruleset reads from the pool's sums
    (:meth:`_check`)."""

    pool: Any  # a SymbolPool

    def _check(self, sums: dict[str, Any]) -> dict[str, Any]:
        """The outcome's columns from the pool's sums (a ruleset's verdict added): the sums themselves."""
        return sums

    def sample(self, n: int, rng: Any) -> dict[str, Any]:
        return self._check(self.pool.sample(n, rng))

    def exact_cost(self) -> Cost:
        """What :meth:`distribution` will cost (:meth:`~diceengine.algebra.SymbolPool.sum_cost`)."""
        return self.pool.sum_cost()

    def distribution(self) -> Distribution:
        cols, probs = self.pool.sum().columns()
        return Distribution(self.outcome_type, self._check(cols), probs)
