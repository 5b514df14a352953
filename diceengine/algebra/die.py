"""A die as an exact value: the distribution of one integer outcome, and the operations that return new dice."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Union

from diceengine.errors import DiceValueError
from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.pmf import PMF, keep_sum_cost, power_cost

from ..i18n import N_
from .chains import chains_total
from .rerolls import reroll_masses

if TYPE_CHECKING:  # counts read when a die is counted (cold start: a first roll imports no count)
    from diceengine.rng import Seed

    from .counts import Test

__all__ = ["COMPARISONS", "Die", "Operand"]

#: what an operation takes beside a die: another die, or a number (a die that always shows it)
Operand = Union["Die", int]

#: each comparison's spelling and the numpy function that tests it (d20's ``SetOperator`` table: one row a
#: comparison; names, so that importing the algebra imports no numpy)
COMPARISONS: dict[str, str] = {
    "<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal", "==": "equal", "!=": "not_equal",
    "=": "equal", "<>": "not_equal",
}


def _trunc_div(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Integer division truncated toward zero (as AnyDice and C divide); a division by zero gives 0."""
    safe = np.where(y == 0, 1, y)
    q = np.abs(x) // np.abs(safe) * np.sign(x) * np.sign(safe)
    return np.where(y == 0, 0, q)


class Die:
    """The exact distribution of one integer outcome (immutable).

    Every operation returns a new die: arithmetic with another die or a number treats the two as independent
    (``d + d`` is two dice, :meth:`repeat` the sum of copies), :meth:`compare` gives a die over {0, 1},
    :meth:`map` applies a function to each outcome, :meth:`explode`, :meth:`reroll` and :meth:`clip` change
    the die itself, :meth:`given` conditions it on some outcomes; :meth:`Pool.of(die, n) <diceengine.algebra.Pool.of>`
    throws ``n`` copies together. :meth:`repeat_cost` and :meth:`keep_cost` estimate the work of a sum of copies and of
    a keep before it is done; :meth:`sample` and :meth:`roll` draw outcomes from it. ``truncated`` is the probability
    an unbounded explosion left out (below :data:`~diceengine.limits.TRUNCATION`).
    """

    __slots__ = ("pmf", "truncated")

    def __init__(self, pmf: PMF, truncated: float = 0.0) -> None:
        total = pmf.mass
        if total <= 0:
            raise DiceValueError(N_("a die needs at least one face"))
        target = 1.0 - truncated  # what a truncated explosion left out stays out
        self.pmf = pmf if abs(total - target) < 1e-15 else pmf.scale_mass(target / total)
        self.truncated = truncated

    # ------------------------------------------------------------ making dice
    @classmethod
    def uniform(cls, sides: int) -> Die:
        """A fair die numbered 1 to ``sides``."""
        if sides < 1:
            raise DiceValueError(N_("a die needs at least one face"))
        return cls(PMF(1, np.full(sides, 1.0 / sides)))

    @classmethod
    def of(cls, faces: Iterable[int]) -> Die:
        """A fair die with these faces (a face listed twice is twice as likely: AnyDice's ``d{1,1,2}``)."""
        return cls(PMF.from_counts([int(f) for f in faces]))

    @classmethod
    def constant(cls, value: int) -> Die:
        """A die that always shows ``value``."""
        return cls(PMF.point(int(value)))

    @classmethod
    def from_weights(cls, weights: Mapping[int, float]) -> Die:
        """Outcomes with these relative weights (non-negative, not all zero)."""
        if any(w < 0 for w in weights.values()):
            raise DiceValueError(N_("a weight cannot be negative"))
        return cls(PMF.from_mapping({int(k): float(w) for k, w in weights.items()}))

    @classmethod
    def mix(cls, parts: Iterable[tuple[Operand, float]]) -> Die:
        """The mixture of dice (or numbers), each chosen with its relative weight."""
        out = PMF.point(0, 0.0)
        truncated = total = 0.0
        for part, weight in parts:
            die = as_die(part)
            out = out.mix(die.pmf.scale_mass(weight))
            truncated += die.truncated * weight
            total += weight
        if total <= 0:
            raise DiceValueError(N_("a die needs at least one face"))
        return cls(out, truncated / total)

    # ------------------------------------------------------------ reading
    def items(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` for each possible outcome, lowest first."""
        return self.pmf.items()

    def outcomes(self) -> list[int]:
        """The possible outcomes, lowest first."""
        return [v for v, _ in self.items()]

    def probability(self, outcome: int) -> float:
        """The chance of exactly ``outcome``."""
        return self.pmf.prob(int(outcome))

    def mean(self) -> float:
        """The expected outcome."""
        return self.pmf.mean()

    def variance(self) -> float:
        """The variance of the outcome."""
        values = self.pmf.values
        return float(np.dot((values - self.mean()) ** 2, self.pmf.p))

    def min(self) -> int:
        """The lowest possible outcome."""
        return self.pmf.offset

    def max(self) -> int:
        """The highest possible outcome."""
        return self.pmf.offset + len(self.pmf.p) - 1

    def chance(self, op: str, other: Operand) -> float:
        """The probability that ``self op other`` holds (``op`` a key of :data:`COMPARISONS`)."""
        return self.compare(op, other).probability(1)

    def __repr__(self) -> str:
        shown = ", ".join(f"{v}: {p:.6g}" for v, p in self.items()[:12])
        return f"Die({{{shown}{', ...' if len(self.pmf.p) > 12 else ''}}})"

    def __len__(self) -> int:
        return len(self.items())

    def same(self, other: Die, tolerance: float = 1e-12) -> bool:
        """Whether the two dice have the same outcomes with the same chances (within ``tolerance``)."""
        a, b = self.pmf, other.pmf
        lo, hi = min(a.offset, b.offset), max(a.offset + len(a.p), b.offset + len(b.p))
        pa, pb = np.zeros(hi - lo), np.zeros(hi - lo)
        pa[a.offset - lo:a.offset - lo + len(a.p)] = a.p
        pb[b.offset - lo:b.offset - lo + len(b.p)] = b.p
        return bool(np.abs(pa - pb).max() <= tolerance)

    # ------------------------------------------------------------ two values
    def combine(self, other: Operand, op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Die:
        """The die of ``op(self, other)`` for independent outcomes (``op`` vectorised)."""
        o = as_die(other)
        return Die(self.pmf.combine(o.pmf, op), self.truncated + o.truncated)

    def __add__(self, other: Operand) -> Die:
        if isinstance(other, int):
            return Die(self.pmf.shift(other), self.truncated)
        return Die(self.pmf + other.pmf, self.truncated + other.truncated)

    __radd__ = __add__

    def __neg__(self) -> Die:
        return Die(-self.pmf, self.truncated)

    def __sub__(self, other: Operand) -> Die:
        return self + (-as_die(other) if isinstance(other, Die) else -other)

    def __rsub__(self, other: int) -> Die:
        return (-self) + other

    def __mul__(self, other: Operand) -> Die:
        return self.combine(other, np.multiply)

    __rmul__ = __mul__

    def __floordiv__(self, other: Operand) -> Die:
        return self.combine(other, _trunc_div)

    def __rfloordiv__(self, other: int) -> Die:
        return as_die(other).combine(self, _trunc_div)

    def __abs__(self) -> Die:
        return self.map(abs)

    def compare(self, op: str, other: Operand) -> Die:
        """A die showing 1 where ``self op other`` holds and 0 elsewhere."""
        name = COMPARISONS.get(op)
        if name is None:
            raise DiceValueError(N_("unknown comparison {op}"), op=repr(op))
        test = getattr(np, name)
        return self.combine(other, lambda x, y: test(x, y).astype(np.int64))

    # ------------------------------------------------------------ one die changed
    def map(self, fn: Callable[[int], Operand]) -> Die:
        """The die of ``fn(outcome)``: a number, or a die thrown in its place."""
        return Die.mix((fn(v), p) for v, p in self.items())

    def repeat(self, n: Operand) -> Die:
        """The sum of ``n`` independent copies (``n`` a number, or a die: that many copies)."""
        if isinstance(n, Die):
            return Die.mix((self.repeat(k), p) for k, p in n.items())
        if n < 0:
            return -self.repeat(-n)
        return Die(self.pmf.power(n), self.truncated * n)

    def clip(self, lo: int | None = None, hi: int | None = None) -> Die:
        """Outcomes below ``lo`` read as ``lo``, above ``hi`` as ``hi``."""
        low = -(2**62) if lo is None else lo
        high = 2**62 if hi is None else hi
        return Die(self.pmf.map(lambda v: np.clip(v, low, high)), self.truncated)

    def reroll(self, on: Collection[int] | Callable[[int], bool], depth: int | None = 1) -> Die:
        """Thrown again while it shows an outcome ``on`` names, at most ``depth`` times (None: until it does not;
        the last throw stands): :func:`~.rerolls.reroll_masses`."""
        hit = _membership(on)
        mask = np.array([hit(v) for v in self.pmf.values]) & (self.pmf.p > 0)
        return Die(PMF(self.pmf.offset, reroll_masses(self.pmf.p, mask, depth)), self.truncated)

    def count(self, success: Test, failure: Test | None = None, double: Test | None = None) -> Die:
        """The die's score as a count (:class:`~.counts.Count`): 1 a face ``success`` names, 2 one that ``double``
        names too, -1 a face ``failure`` names and ``success`` does not, 0 any other."""
        from .counts import Count  # here: cold start (a first roll counts nothing)

        return Die(Count(success, failure, double).pmf(self.pmf), self.truncated)

    def explode(self, on: Collection[int] | Callable[[int], bool] | None = None, depth: int | None = 2,
                penetrate: bool = False) -> Die:
        """Thrown again and added while the throw shows an outcome ``on`` names (None: the highest), at most
        ``depth`` more throws (None: until the chance left is below the truncation). ``penetrate``: each added
        throw counts one less (the test reads the face thrown)."""
        hit = _membership([self.max()] if on is None else on)
        faces = frozenset(v for v in self.outcomes() if hit(v))
        return Die(*chains_total(self.pmf, faces, depth, penetrate))

    def repeat_cost(self, n: int) -> tuple[Cost, int]:
        """What :meth:`repeat` of ``n`` copies (a number, at least 0) will cost, estimated without computing it, and
        how many outcomes its die spans."""
        return power_cost(len(self.pmf.p), n)

    def keep_cost(self, n: int, keep: int) -> Cost:
        """What the total of the ``keep`` highest (or lowest) of ``n`` copies will cost (:meth:`Pool.highest
        <diceengine.algebra.Pool.highest>` / :meth:`~diceengine.algebra.Pool.lowest` of :meth:`Pool.of(self, n)
        <diceengine.algebra.Pool.of>`), estimated without computing it."""
        return keep_sum_cost(len(self), n, keep, self.min(), self.max())

    def given(self, on: Collection[int] | Callable[[int], bool]) -> tuple[float, Die]:
        """``(chance, die)``: the chance that the die shows an outcome ``on`` names, and the die given that it does
        (the engine's error when it never does)."""
        hit = _membership(on)
        mask = np.array([hit(v) for v in self.pmf.values], dtype=bool)
        kept = PMF(self.pmf.offset, np.where(mask, self.pmf.p, 0.0))
        return kept.mass, Die(kept)

    # ------------------------------------------------------------ drawn
    def sample(self, n: int, rng: Seed = None) -> np.ndarray:
        """``n`` independent outcomes drawn from the die's distribution, a numpy array (``rng`` a seed or a
        ``numpy.random.Generator``, as every random entry point of the engine takes; what a truncated explosion left
        out is never drawn: its chance is shared out in proportion)."""
        from diceengine.rng import numpy_rng

        from .draws import sample_size

        gen, n = numpy_rng(rng), sample_size(n)
        p = np.clip(self.pmf.p, 0.0, None)
        possible = np.flatnonzero(p)
        if (p[possible] == p[possible[0]]).all():  # equally likely outcomes (a fair die): an index drawn
            low, k = self.pmf.offset + int(possible[0]), len(possible)
            if int(possible[-1] - possible[0]) == k - 1:  # consecutive outcomes: the same draws, read directly
                return gen.integers(low, low + k, size=n)
            return self.pmf.offset + possible[gen.integers(0, k, size=n)]
        return self.pmf.values[gen.choice(len(p), size=n, p=p / p.sum())]

    def roll(self, rng: Seed = None) -> int:
        """One outcome drawn from the die's distribution: the first of :meth:`sample` with the same ``rng``."""
        return int(self.sample(1, rng)[0])


def _membership(on: Collection[int] | Callable[[int], bool]) -> Callable[[int], bool]:
    if callable(on):
        return on
    members = frozenset(int(v) for v in on)
    return members.__contains__


def as_die(value: Operand) -> Die:
    """A die as it is; a number as the die that always shows it."""
    if isinstance(value, Die):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise DiceValueError(N_("expected a die or a whole number, not {value}"), value=repr(value))
    return Die.constant(int(value))
