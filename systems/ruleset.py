"""The base of the built-in rulesets: a :class:`~diceengine.registry.System` whose state of play and combat are
modules of its package, named by the class and imported only when asked for (a roll never imports them)."""

from __future__ import annotations

import importlib
import types
from typing import Any, ClassVar

from diceengine.registry import System

__all__ = ["Ruleset"]


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
