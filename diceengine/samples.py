"""Bulk samples: one numpy array per outcome field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from .errors import DiceError
from .i18n import N_

__all__ = ["Sample"]


class Sample(Mapping[str, np.ndarray]):
    """``n`` rolls of one expression: ``sample["total"]`` is an array of length ``n``."""

    __slots__ = ("arrays", "expression", "n", "system")

    def __init__(self, arrays: dict[str, np.ndarray], n: int, system: str, expression: str) -> None:
        self.arrays = arrays
        self.n = n
        self.system = system
        self.expression = expression

    def __getitem__(self, field: str) -> np.ndarray:
        try:
            return self.arrays[field]
        except KeyError:
            raise DiceError(N_("this sample has no field {field} (fields: {known})"), field=repr(field),
                            known=', '.join(self.arrays)) from None

    def __contains__(self, field: object) -> bool:
        return field in self.arrays

    def get(self, field: str, default: Any = None) -> Any:
        """The array of ``field``, or ``default`` when the sample has no such field (as a mapping's ``get``)."""
        return self.arrays.get(field, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.arrays)

    def __len__(self) -> int:
        return len(self.arrays)

    def mean(self, field: str = "total") -> float:
        """Sample mean of ``field``."""
        return float(self[field].mean())

    def __repr__(self) -> str:
        return f"<Sample {self.system} {self.expression!r}: n={self.n}, fields={list(self.arrays)}>"
