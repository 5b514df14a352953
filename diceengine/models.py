"""Pydantic views of results, built on demand (never on the hot path)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from .distributions import Distribution
    from .rolls import Roll

__all__ = ["DieModel", "DistributionModel", "RollModel"]


class DieModel(BaseModel):
    """One die of a roll."""

    model_config = ConfigDict(frozen=True)

    kind: str
    sides: int
    value: int
    kept: bool = True
    exploded: bool = False
    rerolled: bool = False
    added: bool = False
    wild: bool = False
    face: str | None = None
    label: str | None = None
    critical: str | None = None


class RollModel(BaseModel):
    """One roll: system, expression, outcome fields, every die and the human line."""

    model_config = ConfigDict(frozen=True)

    system: str
    expression: str
    outcome: dict[str, Any]
    dice: list[DieModel]
    text: str
    description: str | None = None

    @classmethod
    def from_roll(cls, roll: Roll) -> RollModel:
        return cls(
            system=roll.system,
            expression=roll.expression,
            outcome=roll.fields(),
            dice=[DieModel(**d._asdict()) for d in roll.dice],
            text=str(roll),
            description=roll.description,
        )


class DistributionModel(BaseModel):
    """An exact distribution: outcomes with their probabilities, means and truncated mass."""

    system: str
    expression: str
    fields: list[str]
    outcomes: list[dict[str, Any]]
    means: dict[str, float]
    truncated: float

    @classmethod
    def from_distribution(cls, dist: Distribution) -> DistributionModel:
        outcomes = []
        for values, p in dist.rows():
            row = dict(zip(dist.fields, values))
            row["probability"] = p
            outcomes.append(row)
        return cls(system=dist.system, expression=dist.expression, fields=list(dist.fields), outcomes=outcomes,
                   means={f: dist.mean(f) for f in dist.fields}, truncated=dist.truncated)
