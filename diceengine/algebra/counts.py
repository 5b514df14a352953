"""A count of dice, written once: which faces are successes, failures and doubled successes, and what each scores.

A :class:`Count` is one frozen definition with its three interpretations: :meth:`Count.score` (one face: the hot
path of a roll), :meth:`Count.scores` (an array of faces: a sample) and :meth:`Count.pmf` (the exact score of a
die: :meth:`Die.count <diceengine.algebra.Die.count>` and :meth:`Pool.count <diceengine.algebra.Pool.count>` read
it). A face meeting both the success test and the failure test is a success, as the peers count it (python-dice,
rpg-dice-roller); a doubled success is a success that also meets the doubled test (``10d10>=8dbl10``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, Any

from diceengine.errors import DiceValueError
from diceengine.lazy import np
from diceengine.records import dataclass, field

from ..i18n import N_

if TYPE_CHECKING:
    from diceengine.pmf import PMF

__all__ = ["Count", "Test", "point"]

#: a test of a face: the faces it names, or a function of a face (given a numpy array of faces it may answer for
#: each at once, as a comparison does; one that cannot is asked face by face)
Test = Collection[int] | Callable[[Any], Any]

#: each comparison as the function of ``(value, face)`` that tests ``face op value`` (``>= 7`` is ``7 <= face``):
#: one call on an int or a numpy array alike, and a built-in for the roll's hot path
_POINTS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.gt, "<=": operator.ge, ">": operator.lt, ">=": operator.le, "==": operator.eq, "=": operator.eq,
    "!=": operator.ne, "<>": operator.ne,
}

#: the functions of :data:`_POINTS`: a test made by :func:`point` takes an array as it takes a face
_VECTORISED = frozenset(_POINTS.values())


def point(op: str, value: int) -> Callable[[Any], Any]:
    """The test ``face op value`` (``op`` one of ``< <= > >= = == != <>``), of one face or an array of faces."""
    test = _POINTS.get(op)
    if test is None:
        raise DiceValueError(N_("unknown comparison {op}"), op=repr(op))
    return partial(test, value)


class _Members:
    """The test of the faces a collection names."""

    __slots__ = ("members",)

    def __init__(self, faces: Collection[int]) -> None:
        self.members = frozenset(int(f) for f in faces)

    def __call__(self, face: Any) -> Any:
        if isinstance(face, np.ndarray):
            return np.isin(face, np.fromiter(self.members, np.int64, len(self.members)))
        return face in self.members

    def __getstate__(self) -> frozenset[int]:
        return self.members

    def __setstate__(self, members: frozenset[int]) -> None:
        self.members = members


def _never(face: Any) -> bool:
    """The test no face meets (of one face: an absent test is never asked of an array)."""
    return False


def _as_test(test: Test | None) -> Callable[[Any], Any]:
    if test is None:
        return _never
    return test if callable(test) else _Members(test)


def _on_array(test: Callable[[Any], Any], values: np.ndarray) -> np.ndarray:
    """``test`` of each face of ``values``: the whole array at once, or face by face for a test that cannot."""
    if type(test) is _Members or type(test) is partial and test.func in _VECTORISED:  # the algebra's own tests
        return test(values)  # type: ignore[no-any-return]
    try:
        hit = test(values)
    except (TypeError, ValueError):  # a test of one face only (``lambda v: v in (1, 2)``)
        hit = None
    if isinstance(hit, np.ndarray) and hit.shape == values.shape:
        return hit.astype(bool, copy=False)
    flat = [bool(test(v)) for v in values.ravel().tolist()]
    return np.array(flat, dtype=bool).reshape(values.shape)


@dataclass(frozen=True, slots=True)
class Count:
    """How one die counts: ``success`` (the faces that are successes), ``failure`` (failures, subtracted: a face
    meeting both is a success), ``double`` (a success meeting it counts twice), each a :data:`Test` or None (no
    such face); ``weights``: what a success, a failure and a doubled success score (1, -1, 2). Two counts are
    equal when their tests and weights are.

    A face scores ``weights[2]`` if it is a doubled success, else ``weights[0]`` if a success, else ``weights[1]``
    if a failure, else 0: :attr:`score` of one face, :meth:`scores` of an array, :meth:`pmf` the exact score of a
    die.

    A count is a value its maker may share (the standard notation makes one per compare points and shares it):
    the plan cache counts a plan holding one these few bytes, without walking it (``__footprint_shared__``)."""

    __footprint_shared__ = 832

    success: Test | None
    failure: Test | None = None
    double: Test | None = None
    weights: tuple[int, int, int] = (1, -1, 2)
    # the three tests, each a function of a face
    hits: Callable[[Any], Any] = field(init=False, repr=False, compare=False)
    misses: Callable[[Any], Any] = field(init=False, repr=False, compare=False)
    doubles: Callable[[Any], Any] = field(init=False, repr=False, compare=False)
    #: what one face scores (the roll's hot path: a function of the face, its tests and weights bound)
    score: Callable[[Any], int] = field(init=False, repr=False, compare=False)
    extent: tuple[int, int] = field(init=False, repr=False, compare=False)  # :meth:`bounds`

    def __post_init__(self) -> None:
        hits, misses, doubles = _as_test(self.success), _as_test(self.failure), _as_test(self.double)
        object.__setattr__(self, "hits", hits)
        object.__setattr__(self, "misses", misses)
        object.__setattr__(self, "doubles", doubles)
        object.__setattr__(self, "score", _scalar(hits, misses if self.failure is not None else None,
                                                  doubles if self.double is not None else None, *self.weights))
        success, failure, doubled = self.weights
        possible = [0, success] + ([failure] if self.failure is not None else []) + \
            ([doubled] if self.double is not None else [])
        object.__setattr__(self, "extent", (min(possible), max(possible)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Count) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Any, ...]:
        """The tests (a comparison's by its point) and the weights."""
        return (*(_test_key(t) for t in (self.success, self.failure, self.double)), self.weights)

    def __getstate__(self) -> tuple[Any, ...]:
        return self.success, self.failure, self.double, self.weights

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(("success", "failure", "double", "weights"), state, strict=True):
            object.__setattr__(self, name, value)
        self.__post_init__()

    def scorer(self) -> Callable[[Any], int]:
        """:attr:`score` as the cheapest function of a face that sums to the same: the success test itself when
        nothing else counts and a success scores 1 (its truth is its score)."""
        if self.failure is None and self.double is None and self.weights[0] == 1 and self.success is not None:
            return self.hits
        return self.score

    def scores(self, values: np.ndarray) -> np.ndarray:
        """What each face of an integer array scores (an array of the same shape)."""
        success, failure, doubled = self.weights
        hit = _on_array(self.hits, values) if self.success is not None else None
        out = np.zeros(values.shape, dtype=np.int64) if hit is None else _weighed(hit, success)
        if hit is not None and self.double is not None and doubled != success:
            out = _add(out, hit & _on_array(self.doubles, values), doubled - success)
        if self.failure is not None and failure:
            miss = _on_array(self.misses, values)
            out = _add(out, miss if hit is None else miss & ~hit, failure)
        return out

    def pmf(self, pmf: PMF) -> PMF:
        """The exact distribution of the score of one face drawn from ``pmf`` (:meth:`Die.count
        <diceengine.algebra.Die.count>`: the score die of a die)."""
        return pmf.map(self.scores)

    def bounds(self) -> tuple[int, int]:
        """The lowest and the highest score a face can have (whatever the die)."""
        return self.extent

    def with_weights(self, success: int, failure: int, doubled: int | None = None) -> Count:
        """The same tests, a success scoring ``success``, a failure ``failure``, a doubled success ``doubled``
        (twice ``success`` if not given)."""
        return Count(self.success, self.failure, self.double, (success, failure, 2 * success if doubled is None
                                                                else doubled))


def _test_key(test: Test | None) -> Any:
    """What tells a test apart: a comparison's point, the faces a collection names, or the test itself."""
    if type(test) is partial:
        return test.func, test.args
    return frozenset(test) if isinstance(test, Collection) and not callable(test) else test


def _scalar(hits: Callable[[Any], Any], misses: Callable[[Any], Any] | None, doubles: Callable[[Any], Any] | None,
            success: int, failure: int, doubled: int) -> Callable[[Any], int]:
    """The score of one face: ``doubled`` a success that ``doubles`` meets, ``success`` another, ``failure`` a
    face ``misses`` meets that is no success, 0 any other (None: no such face)."""
    def score(face: Any) -> int:
        if hits(face):
            return doubled if doubles is not None and doubles(face) else success
        return failure if misses is not None and misses(face) else 0
    return score


def _weighed(mask: np.ndarray, weight: int) -> np.ndarray:
    """``weight`` where ``mask`` holds, 0 elsewhere (int64)."""
    out = mask.astype(np.int64)
    if weight != 1:
        out *= weight
    return out


def _add(out: np.ndarray, mask: np.ndarray, weight: int) -> np.ndarray:
    """``out`` plus ``weight`` where ``mask`` holds (in place)."""
    if weight == 1:
        out += mask
    elif weight == -1:
        out -= mask
    else:
        out += weight * mask
    return out
