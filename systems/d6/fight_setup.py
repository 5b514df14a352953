"""The setup of a classic D6 fight (rule text ``000``) shared by its exact chain and its simulation
(:mod:`~diceengine.systems.d6.fight`): the encounter's settings, a hit's damage results, the penalties of
wounds and stuns."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ..combat import MAX_SIDE, exact_weights
from .codes import Code
from .fighters import (
    D6Fighter,
    ForcePolicy,
    RangedEncounter,
    code_pmf,
    relies_on_force,
)
from .rules import Health, Wound, damage_result
from .shared import RANGE_DIFFICULTIES

__all__ = ["NONE", "RESULTS", "D6Setup", "after_hit", "penalty", "result_chances", "result_weights"]

SYSTEM = "d6"
#: damage results a hit can give, in order
RESULTS = (Wound.STUNNED, Wound.WOUNDED, Wound.INCAPACITATED, Wound.MORTALLY_WOUNDED)
NONE = 0  # no hit this round


class D6Setup(RangedEncounter):
    """An encounter in classic D6 terms."""

    ranges = RANGE_DIFFICULTIES
    a: list[D6Fighter] = Field(min_length=1, max_length=MAX_SIDE)
    b: list[D6Fighter] = Field(min_length=1, max_length=MAX_SIDE)
    dodge: Literal["never", "always", "reaction"] = "never"
    force_point: ForcePolicy = "never"

    def spends(self, level: int, points: int, opening: bool) -> bool:
        """Whether a character with ``points`` Force points left spends one at the start of a round."""
        return relies_on_force(self.force_point, level == Wound.WOUNDED, points, opening)

    def dodges(self, f: D6Fighter) -> bool:
        return self.dodge != "never" and f.dodge is not None

    def shot_penalty(self, f: D6Fighter) -> int:
        """Dice the shot loses to the dodge: 1 when declared with it (``"always"``), none when the dodge
        is a reaction made after the shot (``"reaction"``, text ``000``)."""
        return int(self.dodge == "always" and f.dodge is not None)


@lru_cache(maxsize=4096)
def _pmf(code: Code) -> tuple[np.ndarray, np.ndarray] | None:
    return code_pmf(code, SYSTEM)


def result_weights(damage: Code, resist: Code, exact: bool = False) -> list[Any]:
    """The weight of each damage result (``RESULTS`` order) of a hit: the damage roll against the Strength roll
    (plus armour), both totals enumerated through :func:`damage_result`; integer weights when ``exact`` and both
    distributions have them, else their chances."""
    dv, dp = _pmf(damage)  # type: ignore[misc]
    sv, sp = _pmf(resist)  # type: ignore[misc]
    dw, sw = (exact_weights(dp), exact_weights(sp)) if exact else (None, None)
    weights = (dw[0].tolist(), sw[0].tolist()) if dw is not None and sw is not None else (dp.tolist(), sp.tolist())
    row: list[Any] = [0] * len(RESULTS)
    for d, x in zip(dv.tolist(), weights[0]):
        for v, y in zip(sv.tolist(), weights[1]):
            row[int(damage_result(d, v)) - 1] += x * y
    return row


@lru_cache(maxsize=1024)
def result_chances(damage: Code, resist: Code) -> np.ndarray:
    """Exact chance of each damage result (``RESULTS`` order) of a hit (:func:`result_weights`)."""
    out = np.array(result_weights(damage, resist), dtype=np.float64)
    return out / out.sum()


def after_hit(level: int, result: int) -> tuple[int, int]:
    """``(level, stunned this round)`` after a round's damage result (``NONE``: not hit), by
    :meth:`Health.hit`; a stun passes, so the level keeps only the lasting wounds."""
    if result == NONE:
        return level, 0
    state = Health(Wound(level)).hit(Wound(result)).state
    return (Wound.HEALTHY if state == Wound.STUNNED else int(state)), int(result == Wound.STUNNED)


def penalty(level: int, stunned: int) -> int:
    """Dice lost on skill rolls at the start of a round: stuns of the last round, and a wound."""
    return Health(Wound(level), stunned).penalty
