"""A character sheet under the FFG narrative dice (rule text ``004``): characteristics, skills, experience,
and what the character has suffered (wounds, strain, critical injuries) and bought (talents).

The rules that change a sheet are :mod:`~diceengine.systems.ffg.play` (characteristics, skills, the pool
of a check), :mod:`~diceengine.systems.ffg.harm` (wounds, strain, critical injuries) and
:mod:`~diceengine.systems.ffg.talents` (talents by tier). Player characters, nemeses and rivals all have a
sheet: « Les rivaux et les Némésis ont des rangs dans les compétences comme les personnages joueurs »;
minions fight as groups (:class:`~diceengine.systems.ffg.play.MinionGroup`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..play import PlayState

__all__ = ["CharacterSheet", "Talent"]

Kind = Literal["player", "nemesis", "rival"]


class Talent(PlayState):
    """A talent bought on a specialisation tree: its ``tree``, its ``tier`` (the row, 1 at the top: « Plus
    le diagramme est bas, plus les Talents deviennent chers ») and its ``column`` (1 to 4, the published
    trees' width): one place on one tree."""

    name: str
    tree: str
    tier: int = Field(ge=1, le=5)
    column: int = Field(default=1, ge=1, le=4)


class CharacterSheet(PlayState):
    """A character's characteristics (``"brawn"``, ``"agility"``, ``"willpower"``...), skill ranks, career
    skills and the experience left to spend; ``created`` once character creation is over (characteristics
    up to 6).

    Harm: ``kind`` (a ``"player"`` character, a ``"nemesis"``, treated as one, or a ``"rival"``),
    ``wound_base`` and ``strain_base`` (the species' minimums: « un minimum racial plus le Brawn », « un
    minimum racial plus la Volonté »), ``soak``, the ``wounds`` and ``strain`` suffered, the results of the
    critical injuries suffered (``criticals``) and the modifier of a critical roll asked for and not yet
    recorded (``critical_pending``). ``talents``: the talents bought."""

    name: str
    characteristics: dict[str, int]
    skills: dict[str, int] = Field(default_factory=dict)
    career_skills: list[str] = Field(default_factory=list)
    xp: int = Field(default=0, ge=0)
    created: bool = True
    kind: Kind = "player"
    wound_base: int | None = Field(default=None, ge=0)
    strain_base: int | None = Field(default=None, ge=0)
    soak: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0)
    strain: int = Field(default=0, ge=0)
    criticals: list[int] = Field(default_factory=list)
    critical_pending: int | None = None
    talents: list[Talent] = Field(default_factory=list)

    def ranks(self, talent: str) -> int:
        """Ranks of a talent, wherever bought: « Les niveaux du talent s'empilent, même s'ils sont achetés
        pour différentes quantités de points d'expérience » (names compared without case)."""
        return sum(t.name.casefold() == talent.casefold() for t in self.talents)

    @property
    def wound_threshold(self) -> int | None:
        """The species' minimum plus Brawn (``None`` when the sheet gives no ``wound_base``)."""
        return None if self.wound_base is None else self.wound_base + self.characteristics.get("brawn", 0)

    @property
    def strain_threshold(self) -> int | None:
        """The species' minimum plus Willpower plus one per rank of Grit (« Grit est un talent passif qui
        accorde un bonus de +1 par niveau à la souche du personnage »); a rival has none (« Les Sbires et
        les Rivaux ne se fatiguent pas »)."""
        if self.kind == "rival" or self.strain_base is None:
            return None
        return self.strain_base + self.characteristics.get("willpower", 0) + self.ranks("grit")

    @property
    def out_of_action(self) -> bool:
        """Wounds past the wound threshold (a character « s'évanouit ou tombe dans le coma », a rival « peut
        mourir »), or strain past the strain threshold (« avant de s'effondrer »)."""
        wounds, strain = self.wound_threshold, self.strain_threshold
        return (wounds is not None and self.wounds > wounds) or (strain is not None and self.strain > strain)
