"""Pydantic views of results, built on demand (never on the hot path).

The results build their views (:meth:`diceengine.rolls.Roll.model`,
:meth:`diceengine.distributions.Distribution.model`); this module imports none of them (only the shared
:class:`~diceengine.parts.Die`): it reads what :class:`Rolled` and :class:`Distributed` name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, create_model

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


def _die_model() -> type[BaseModel]:
    """:class:`DieModel`, made from :class:`~diceengine.parts.Die` (the one place a die's fields are written):
    its fields in order, with their types and defaults."""
    from typing import get_type_hints

    hints = get_type_hints(Die)
    fields: dict[str, Any] = {name: (hints[name], Die._field_defaults.get(name, ...)) for name in Die._fields}
    return create_model("DieModel", __config__=ConfigDict(frozen=True), __doc__="One die of a roll.",
                        __module__=__name__, **fields)


#: one die of a roll: the fields of :class:`~diceengine.parts.Die`
DieModel = _die_model()


class RollModel(BaseModel):
    """One roll: system, expression, outcome fields, every die and the human line."""

    model_config = ConfigDict(frozen=True)

    system: str
    expression: str
    outcome: dict[str, Any]
    dice: list[DieModel]  # type: ignore[valid-type]  # a model made from the fields of Die
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
