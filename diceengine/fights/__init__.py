"""Fights compared across rulesets: exact odds of a duel, vectorised simulation, sweeps on Dask.

>>> from diceengine import fights
>>> enc = fights.load_encounter("roark.toml")           # doctest: +SKIP
>>> fights.duel_odds(enc["d6"]).a_wins                  # doctest: +SKIP
>>> fights.simulate(enc["d6"], 1_000_000, seed=1)       # doctest: +SKIP
>>> fights.compare(enc)                                 # doctest: +SKIP

The generic machinery lives here; each ruleset's combat (health states, the round's exact
transitions, the vectorised round) lives beside its system, behind :mod:`diceengine.fights.rules`.
"""

from __future__ import annotations

from .chain import duel_odds
from .compare import compare, odds
from .encounter import Encounter, Fight, fight_rules, load_encounter
from .outcome import FightOdds
from .rules import A_WINS, B_WINS, BOTH_DOWN, GOING, Battle, Duel, FightRules
from .simulate import simulate
from .sweep import SweepRow, parse_grid, sweep

__all__ = [
    "A_WINS",
    "BOTH_DOWN",
    "B_WINS",
    "GOING",
    "Battle",
    "Duel",
    "Encounter",
    "Fight",
    "FightOdds",
    "FightRules",
    "SweepRow",
    "compare",
    "duel_odds",
    "fight_rules",
    "load_encounter",
    "odds",
    "parse_grid",
    "simulate",
    "sweep",
]
