"""Exact probability mass functions over the integers (numpy arrays with an offset), their sums and what they cost
(read through :mod:`diceengine.pmf`, with the order statistics of :mod:`diceengine.pmf_keep`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from diceengine.lazy import np

from .errors import DiceLimitError
from .i18n import N_
from .limits import NUMPY_CALL, Cost

__all__ = ["MAX_SUPPORT", "PMF", "WORK", "convolve", "convolve_cost", "power_cost"]

#: largest support an exact distribution may have
MAX_SUPPORT = 2_000_000
#: largest support :meth:`PMF.from_mapping` sums in a Python list before making it an array
_LISTED = 1024


class _Counter:
    """Work actually done by the primitives below, in the units of :class:`~diceengine.limits.Cost` (what keeps
    the estimates honest: a test compares them)."""

    __slots__ = ("work",)

    def __init__(self) -> None:
        self.work = 0.0


#: the work counter of this process
WORK = _Counter()


def _fft_size(la: int, lb: int) -> int:
    return 1 << (la + lb - 2).bit_length()


def _direct(la: int, lb: int) -> bool:
    return la * lb <= 4_000_000 or min(la, lb) < 64


def convolve_cost(la: int, lb: int) -> Cost:
    """Cost of :func:`convolve` of two arrays of lengths ``la`` and ``lb``."""
    if _direct(la, lb):
        return Cost(la * lb + NUMPY_CALL, la + lb)
    size = _fft_size(la, lb)
    return Cost(6 * size * size.bit_length() + NUMPY_CALL, 4 * size)


def power_cost(length: int, n: int) -> tuple[Cost, int]:
    """Cost of :meth:`PMF.power` of a support of ``length`` to ``n`` copies, and the resulting length."""
    cost, result, base = Cost(), 0, length  # 0: nothing summed yet (the first copy taken as it is)
    while n:
        if n & 1:
            if result:
                cost = cost + convolve_cost(result, base)
            result += base - 1 if result else base
        n >>= 1
        if n:
            cost = cost + convolve_cost(base, base)
            base = 2 * base - 1
    return cost, max(result, 1)


class PMF:
    """``P(X = offset + i) = p[i]`` (the mass may be less than 1 while building mixtures)."""

    __slots__ = ("offset", "p")

    def __init__(self, offset: int, p: np.ndarray) -> None:
        if type(p) is not np.ndarray:
            p = np.asarray(p, dtype=np.float64)
        nz = p.nonzero()[0]  # one-dimensional: np.flatnonzero without its two Python calls
        if len(nz) == 0:
            self.offset, self.p = 0, np.zeros(1)
            return
        lo, hi = int(nz[0]), int(nz[-1])
        self.offset = int(offset) + lo
        self.p = p[lo:hi + 1]

    @classmethod
    def point(cls, value: int, mass: float = 1.0) -> PMF:
        return cls(value, np.array([mass], dtype=np.float64))

    @classmethod
    def from_counts(cls, values: Iterable[int], weight: float | None = None) -> PMF:
        """Each value (repeats allowed) with weight ``weight`` (default: uniform over the values)."""
        vals = np.fromiter(values, dtype=np.int64)
        if len(vals) == 0:
            return cls.point(0, 0.0)
        w = 1.0 / len(vals) if weight is None else weight
        lo = int(vals.min())
        _check_support(int(vals.max()) - lo + 1)
        return cls(lo, np.bincount(vals - lo).astype(np.float64) * w)

    @classmethod
    def from_floats(cls, offset: int, masses: list[float]) -> PMF:
        """``P(X = offset + i) = masses[i]``, a small support's masses as Python floats: the zeros at both ends cut
        in Python, one array made (a first question pays each numpy call; see :meth:`__init__`)."""
        lo, hi = 0, len(masses)
        while lo < hi and not masses[lo]:
            lo += 1
        while hi > lo and not masses[hi - 1]:
            hi -= 1
        if lo == hi:
            return cls.point(0, 0.0)
        out = object.__new__(cls)
        out.offset, out.p = int(offset) + lo, np.array(masses[lo:hi], dtype=np.float64)
        return out

    @classmethod
    def from_mapping(cls, mapping: Mapping[int, float]) -> PMF:
        if not mapping:
            return cls.point(0, 0.0)
        lo, hi = min(mapping), max(mapping)
        _check_support(hi - lo + 1)
        span = hi - lo + 1
        # a small support summed in Python floats, then made one array (no numpy call per value); a large one in place
        p: Any = [0.0] * span if span <= _LISTED else np.zeros(span)
        for v, q in mapping.items():
            p[v - lo] += q
        return cls.from_floats(lo, p) if span <= _LISTED else cls(lo, p)

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + len(self.p))

    @property
    def mass(self) -> float:
        return float(self.p.sum())

    def mean(self) -> float:
        return float(np.dot(self.values, self.p) / self.p.sum())

    def items(self) -> list[tuple[int, float]]:
        return [(self.offset + i, float(q)) for i, q in enumerate(self.p) if q > 0]

    def shift(self, k: int) -> PMF:
        return PMF(self.offset + k, self.p)

    def scale_mass(self, w: float) -> PMF:
        return PMF(self.offset, self.p * w)

    def __add__(self, other: PMF) -> PMF:
        _check_support(len(self.p) + len(other.p))
        return PMF(self.offset + other.offset, convolve(self.p, other.p))

    def __neg__(self) -> PMF:
        return PMF(-(self.offset + len(self.p) - 1), self.p[::-1].copy())

    def __sub__(self, other: PMF) -> PMF:
        return self + (-other)

    def mix(self, other: PMF) -> PMF:
        """The sum of the two mass functions (a mixture of disjoint events)."""
        if not other.p.any():
            return self
        if not self.p.any():  # an empty start (offset 0) must not stretch the support to 0
            return other
        lo = min(self.offset, other.offset)
        hi = max(self.offset + len(self.p), other.offset + len(other.p))
        _check_support(hi - lo)
        p = np.zeros(hi - lo)
        p[self.offset - lo:self.offset - lo + len(self.p)] += self.p
        p[other.offset - lo:other.offset - lo + len(other.p)] += other.p
        return PMF(lo, p)

    def power(self, n: int) -> PMF:
        """The sum of ``n`` independent copies."""
        _check_support((len(self.p) - 1) * n + 1)
        if n == 0:
            return PMF.point(0)
        result: PMF | None = None  # nothing summed yet: the first copy is taken as it is (no convolution by [1])
        base = self
        while n:
            if n & 1:
                result = base if result is None else result + base
            n >>= 1
            if n:
                base = base + base
        assert result is not None
        return result

    def combine(self, other: PMF, op: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> PMF:
        """The distribution of ``op(X, Y)`` for independent X (self) and Y (other)."""
        _check_support(len(self.p) * len(other.p))
        x = self.values[:, None]
        y = other.values[None, :]
        z = op(x, y).ravel()
        w = (self.p[:, None] * other.p[None, :]).ravel()
        lo = int(z.min())
        _check_support(int(z.max()) - lo + 1)
        return PMF(lo, np.bincount(z - lo, weights=w))

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> PMF:
        """The distribution of ``fn(X)`` (vectorised ``fn``)."""
        z = fn(self.values)
        lo = int(z.min())
        _check_support(int(z.max()) - lo + 1)
        return PMF(lo, np.bincount(z - lo, weights=self.p))

    def prob(self, value: int) -> float:
        i = value - self.offset
        return float(self.p[i]) if 0 <= i < len(self.p) else 0.0

    def __repr__(self) -> str:
        return f"PMF({dict(self.items())})"


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full convolution of two mass arrays: direct when small; when large, pair by pair if few values are held, else
    by FFT (negatives clipped)."""
    WORK.work += convolve_cost(len(a), len(b)).work
    if _direct(len(a), len(b)):
        if len(a) * len(b) > 50_000_000:
            raise DiceLimitError(N_("too many possible results for exact odds"))
        return np.convolve(a, b)
    n = len(a) + len(b) - 1
    size = 1 << (n - 1).bit_length()
    ia, ib = np.flatnonzero(a), np.flatnonzero(b)
    if len(ia) * len(ib) <= size * size.bit_length():  # few values in long arrays (a joint held in one number):
        # every pair, exactly, for less than the FFT's work; an FFT gives every index between a chance of ~1e-17
        return np.bincount(np.add.outer(ia, ib).ravel(), weights=np.outer(a[ia], b[ib]).ravel(), minlength=n)
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    return np.clip(out, 0.0, None)


def _check_support(size: int) -> None:
    if size > MAX_SUPPORT:
        raise DiceLimitError(N_("too many possible results for exact odds ({size}, at most {max_support})"), size=size,
                             max_support=MAX_SUPPORT)

