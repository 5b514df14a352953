"""One encounter in every ruleset it is written for, side by side."""

from __future__ import annotations

from ..i18n import N_
from ..rng import Seed, numpy_rng
from .chain import duel_odds
from .encounter import Encounter, Fight
from .outcome import FightOdds
from .simulate import simulate

__all__ = ["compare", "odds"]


def odds(fight: Fight, method: str = "auto", fights: int = 200_000, seed: Seed = None,
         rounds: int | None = None) -> FightOdds:
    """How the fight goes: ``"exact"`` (a duel), ``"simulated"``, or ``"auto"`` (exact when each side
    has one combatant, simulated otherwise)."""
    if method == "exact" or (method == "auto" and fight.one_against_one):
        return duel_odds(fight, rounds)
    if method not in ("auto", "simulated"):
        from ..errors import DiceValueError

        raise DiceValueError(N_("method is 'auto', 'exact' or 'simulated', not {method!r}"), method=method)
    return simulate(fight, fights, seed=seed, rounds=rounds)


def compare(encounter: Encounter, systems: list[str] | None = None, method: str = "auto",
            fights: int = 200_000, seed: Seed = None, rounds: int | None = None) -> list[FightOdds]:
    """The encounter in each ruleset (default: every ruleset it is written for, in file order)."""
    gen = numpy_rng(seed)
    return [odds(encounter[s], method, fights, gen, rounds) for s in (systems or encounter.systems)]
