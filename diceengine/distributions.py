"""Exact distributions of outcomes, held as columns of numpy arrays."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from diceengine.lazy import np

from .errors import DiceError
from .i18n import N_

if TYPE_CHECKING:
    from .models import DistributionModel

__all__ = ["Distribution"]


#: below this many outcomes a Python pass reads the chances faster than numpy on a first question (each distinct
#: numpy routine costs 10-35 µs with cold caches, a short Python loop a few)
_SMALL = 64


def _all_positive(probabilities: np.ndarray) -> bool:
    """Every chance is above 0 (an outcome of chance 0 is left out of a distribution)."""
    if len(probabilities) <= _SMALL:
        return all(p > 0 for p in probabilities.tolist())
    return bool((probabilities > 0).all())


class Distribution:
    """The exact distribution of one expression's outcome.

    Each row is one outcome (in no particular order; ``merge=True`` sums duplicate rows and sorts);
    ``columns[field][i]`` is its value of ``field`` and ``probabilities[i]`` its probability. Fields the expression does not produce (``None`` in its outcomes) have no
    column. ``truncated`` is the probability mass left out by truncating an infinite series
    (explosions) below :data:`~diceengine.limits.TRUNCATION`.
    """

    __slots__ = ("_items", "columns", "expression", "outcome_type", "probabilities", "system", "truncated")

    def __init__(self, outcome_type: type, columns: Mapping[str, np.ndarray], probabilities: np.ndarray,
                 truncated: float = 0.0, system: str = "", expression: str = "", merge: bool = False) -> None:
        probabilities = np.asarray(probabilities, dtype=np.float64)
        cols = {name: np.asarray(col) for name, col in columns.items()}
        if not _all_positive(probabilities):
            keep = probabilities > 0
            probabilities = probabilities[keep]
            cols = {name: col[keep] for name, col in cols.items()}
        if merge and len(probabilities) and cols:
            stacked = np.stack([col.astype(np.int64) for col in cols.values()], axis=1)
            unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
            probabilities = np.bincount(inverse.ravel(), weights=probabilities, minlength=len(unique))
            cols = {name: unique[:, i].astype(col.dtype) for i, (name, col) in enumerate(cols.items())}
        self.outcome_type = outcome_type
        self.columns = cols
        self.probabilities = probabilities
        self.truncated = float(truncated)
        self.system = system
        self.expression = expression
        self._items: list[tuple[Any, float]] | None = None

    def copy(self) -> Distribution:
        """A copy that shares nothing a caller may change (its arrays are copied; its outcomes made again when
        asked)."""
        out = object.__new__(type(self))
        out.outcome_type, out.truncated = self.outcome_type, self.truncated
        out.system, out.expression = self.system, self.expression
        out.columns = {name: col.copy() for name, col in self.columns.items()}
        out.probabilities = self.probabilities.copy()
        out._items = None
        return out

    @property
    def fields(self) -> list[str]:
        """The outcome fields this distribution has a column for."""
        return list(self.columns)

    def __len__(self) -> int:
        return len(self.probabilities)

    def rows(self) -> Iterator[tuple[tuple[Any, ...], float]]:
        """``(values of the fields, probability)`` for each outcome, values as Python scalars."""
        lists = [col.tolist() for col in self.columns.values()]
        return zip(zip(*lists), self.probabilities.tolist())

    def items(self) -> list[tuple[Any, float]]:
        """``(outcome, probability)`` pairs; the probabilities sum to 1 within 1e-12."""
        if self._items is None:
            names = self.fields
            make = self.outcome_type
            if names and issubclass(make, tuple) and make.__dict__.get("_fields") == tuple(names):
                # a NamedTuple of these very fields (not a subclass, whose __new__ may differ): its rows as they are,
                # as the NamedTuple's own __new__ builds them, without its argument parsing
                lists = [col.tolist() for col in self.columns.values()]
                self._items = list(zip(map(partial(tuple.__new__, make), zip(*lists)), self.probabilities.tolist()))
            else:
                self._items = [(make(**dict(zip(names, values))), p) for values, p in self.rows()]
        return self._items

    def __iter__(self) -> Iterator[tuple[Any, float]]:
        return iter(self.items())

    def sample(self, n: int, seed: Any = None) -> Any:
        """``n`` outcomes drawn by their exact chances, as a :class:`~diceengine.samples.Sample` (one array a field):
        how any distribution is sampled, an AnyDice output's too (what a truncation left out is never drawn).
        ``seed``: ``None``, an int or a ``numpy.random.Generator``."""
        from .rng import numpy_rng, sample_size
        from .samples import Sample

        sample_size(n)
        if not len(self.probabilities):
            raise DiceError(N_("this distribution has no outcome to draw"))
        rows = numpy_rng(seed).choice(len(self.probabilities), size=n, p=self.probabilities / self.probabilities.sum())
        return Sample({name: col[rows] for name, col in self.columns.items()}, n, self.system, self.expression)

    def draw(self, seed: Any = None) -> Any:
        """One outcome drawn by its exact chance (the roll of a distribution that has no dice of its own to show, such
        as an AnyDice output)."""
        from .rng import python_rng

        if not len(self.probabilities):
            raise DiceError(N_("this distribution has no outcome to draw"))
        cumulative = np.cumsum(self.probabilities)
        row = int(np.searchsorted(cumulative, python_rng(seed).random() * cumulative[-1], side="right"))
        return self.items()[min(row, len(cumulative) - 1)][0]

    def probability(self, predicate: Callable[[Any], bool]) -> float:
        """Probability that ``predicate(outcome)`` holds."""
        return self._mass(np.fromiter((bool(predicate(outcome)) for outcome, _ in self.items()), dtype=bool,
                                      count=len(self)))

    def column(self, field: str) -> np.ndarray:
        """The values of ``field``, one per outcome."""
        try:
            return self.columns[field]
        except KeyError:
            raise DiceError(N_("this distribution has no field {field} (fields: {fields})"), field=repr(field),
                            fields=', '.join(self.fields)) from None

    def mean(self, field: str = "total") -> float:
        """Expected value of ``field``."""
        return float(np.dot(self.column(field).astype(np.float64), self.probabilities))

    def variance(self, field: str = "total") -> float:
        """Variance of ``field``."""
        values = self.column(field).astype(np.float64)
        mean = float(np.dot(values, self.probabilities))
        return float(np.dot((values - mean) ** 2, self.probabilities))

    def stdev(self, field: str = "total") -> float:
        """Standard deviation of ``field``."""
        return self.variance(field) ** 0.5

    def at_least(self, threshold: int, field: str = "total") -> float:
        """Probability that ``field`` (the total by default) is at least ``threshold``."""
        return self._mass(self.column(field) >= threshold)

    def chance(self, field: str) -> float:
        """Probability that the boolean ``field`` is true (``success``, ``complication``, ...)."""
        return self._mass(self.column(field).astype(bool))

    def _mass(self, mask: np.ndarray) -> float:
        """Probability of the outcomes where ``mask`` holds: a sure event is exactly ``1 - truncated`` and an
        impossible one exactly 0 (float sums of the masses may miss them by an ulp); the larger side is
        computed as the whole less the smaller, so a chance near 1 keeps its digits."""
        inside = int(np.count_nonzero(mask))
        if inside == 0:
            return 0.0
        whole = float(self.probabilities.sum())
        if abs(whole - (1.0 - self.truncated)) < 1e-9:  # the masses are the whole less the truncation
            whole = 1.0 - self.truncated
        if inside == len(mask):
            return _clamp(whole)
        small = float(self.probabilities[mask].sum())
        if small <= 0.5:
            return _clamp(small)
        return _clamp(whole - float(self.probabilities[~mask].sum()))

    def marginal(self, field: str = "total") -> dict[Any, float]:
        """The distribution of one field: value -> probability, values in increasing order."""
        values, inverse = np.unique(self.column(field), return_inverse=True)
        sums = np.bincount(inverse.ravel(), weights=self.probabilities, minlength=len(values))
        return dict(zip(values.tolist(), sums.tolist()))

    def total_probability(self) -> float:
        """Sum of the probabilities (1 minus the truncated mass)."""
        return float(self.probabilities.sum())

    def model(self) -> DistributionModel:
        """The pydantic view of this distribution."""
        from .models import DistributionModel

        return DistributionModel.from_distribution(self)

    def __repr__(self) -> str:
        return f"<Distribution {self.system} {self.expression!r}: {len(self)} outcomes>"


def _clamp(p: Any) -> float:
    """A sum of probabilities as a probability: float rounding never takes it outside [0, 1]."""
    return min(1.0, max(0.0, float(p)))
