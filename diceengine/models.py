"""Pydantic views of results, built on demand (never on the hot path).

The results build their views (:meth:`diceengine.rolls.Roll.model`,
:meth:`diceengine.distributions.Distribution.model`); this module imports none of them (only the shared
:class:`~diceengine.parts.Die`): it reads what :class:`Rolled` and :class:`Distributed` name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from .parts import Die

__all__ = ["DieModel", "Distributed", "DistributionModel", "RollModel", "Rolled"]


class Rolled(Protocol):
    """What a :class:`RollModel` is built from (a :class:`diceengine.rolls.Roll`)."""

    system: str
    expression: str

    @property
    def dice(self) -> Sequence[Die]: ...

    @property
    def description(self) -> str | None: ...

    def fields(self) -> dict[str, Any]: ...


class Distributed(Protocol):
    """What a :class:`DistributionModel` is built from (a :class:`diceengine.distributions.Distribution`)."""

    system: str
    expression: str
    truncated: float

    @property
    def fields(self) -> list[str]: ...

    def rows(self) -> Iterable[tuple[tuple[Any, ...], float]]: ...

    def mean(self, field: str = ...) -> float: ...


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
    def from_roll(cls, roll: Rolled) -> RollModel:
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
    def from_distribution(cls, dist: Distributed) -> DistributionModel:
        outcomes = []
        for values, p in dist.rows():
            row = dict(zip(dist.fields, values))
            row["probability"] = p
            outcomes.append(row)
        return cls(system=dist.system, expression=dist.expression, fields=list(dist.fields), outcomes=outcomes,
                   means={f: dist.mean(f) for f in dist.fields}, truncated=dist.truncated)
