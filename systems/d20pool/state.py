"""The states of play of the d20 pool (rule text ``001``): the pools of a scene (:class:`PoolState`), the
check in progress (:class:`PendingCheck`) and the characters who earn and spend experience
(:class:`Character`). The rules that change them are in :mod:`~diceengine.systems.d20pool.play` and
:mod:`~diceengine.systems.d20pool.experience`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..play import PlayState
from .rules import MAX_ATTRIBUTE, MAX_DISCIPLINE

__all__ = ["Character", "PendingCheck", "PoolState"]


class PendingCheck(PlayState):
    """A check rolled but not yet resolved."""

    who: str
    expression: str
    difficulty: int
    npc: bool = False
    power: str | None = None
    alignment: Literal["matching", "opposed", "neutral"] = "neutral"
    base_cost: int = 5


class Character(PlayState):
    """A character of text ``001`` as experience sees it: attributes (« Forme », « Dextérité »... at most
    13), disciplines (« Pilotage », « Combat »... at most 5; one not listed is at 0), specialisations,
    the experience not yet spent, and whether the character is dead."""

    name: str
    attributes: dict[str, Annotated[int, Field(ge=0, le=MAX_ATTRIBUTE)]] = Field(default_factory=dict)
    disciplines: dict[str, Annotated[int, Field(ge=0, le=MAX_DISCIPLINE)]] = Field(default_factory=dict)
    specialisations: list[str] = Field(default_factory=list)
    xp: int = Field(default=0, ge=0)
    dead: bool = False


class PoolState(PlayState):
    """The pools of a scene of text ``001``, and its characters by name."""

    impulsion: int = Field(default=0, ge=0)
    menace: int = Field(default=0, ge=0)
    force_points: dict[str, int] = Field(default_factory=dict)
    pending: PendingCheck | None = None
    menace_per_complication: int = Field(default=2, ge=0)
    impulsion_cap: int | None = None
    characters: dict[str, Character] = Field(default_factory=dict)
