"""The answer to "how does this fight go": who wins, how often, in how many rounds."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

__all__ = ["FightOdds"]


class FightOdds(BaseModel):
    """How one encounter goes in one ruleset, exactly (a Markov chain) or simulated.

    ``a_wins``, ``b_wins`` and ``both_down`` are the chances of each ending (exact: at any round;
    simulated: within ``max_rounds``); ``unfinished`` is what is left (exact: fights that can never
    end; simulated: fights still going after ``max_rounds``). ``ended[t]`` is the chance the fight
    ends in round ``t + 1``, ``going[t]`` the chance it is still going after round ``t + 1``,
    ``a_by_round[t]`` / ``b_by_round[t]`` the chance that side has won by then, for the first
    ``len(ended)`` rounds. ``mean_rounds`` is the expected length of the fights that end.
    """

    system: str
    encounter: str
    sides: tuple[str, str]
    roster: tuple[list[str], list[str]]
    method: Literal["exact", "simulated"]
    fights: int | None = None
    a_wins: float
    b_wins: float
    both_down: float
    unfinished: float
    mean_rounds: float | None
    ended: list[float]
    going: list[float]
    a_by_round: list[float]
    b_by_round: list[float]
    states: int | None = None
    fight_rounds: int | None = None
    seconds: float | None = None

    def median_rounds(self) -> int | None:
        """The round by which half the fights are over (``None`` past the table)."""
        for t, g in enumerate(self.going):
            if g <= 0.5:
                return t + 1
        return None
