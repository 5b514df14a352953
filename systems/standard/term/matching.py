"""A dice term with Roll20's matching dice (``2d6m``, ``4d6mt3``): :class:`MatchTerm`, the term thrown as
its dice without the modifier, the matching dice marked and, with ``mt``, the sets counted.

A *set* is the dice showing one face when at least ``size`` dice show it (2 unless written: ``m3``). ``m``
marks the dice of every set (``3(m)`` in the text, ``critical="match"`` in :attr:`roll.dice`) and leaves the
total the dice's sum; ``mt`` scores the number of sets. The exact odds of ``mt`` are a multiset question,
answered by the die algebra's evaluation (:class:`SetCount`, :func:`diceengine.algebra.multiset.evaluate`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from diceengine.algebra.die import Die as AlgebraDie
from diceengine.algebra.multiset import Counts, Evaluator, evaluate
from diceengine.algebra.pool import Pool
from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.parts import Face, Part
from diceengine.pmf import PMF
from diceengine.records import replace
from diceengine.rolljson import dice_json
from diceengine.rolls import Die

from .dice_term import DiceTerm
from .spec import TermSpec

__all__ = ["MARK", "MatchTerm", "SetCount", "matched", "sets"]

#: the mark written after a matching die's face
MARK = "(m)"


def matched(faces: Sequence[int], size: int) -> list[bool]:
    """For each face, whether it belongs to a set (at least ``size`` dice showing it)."""
    seen = Counter(faces)
    return [seen[v] >= size for v in faces]


def sets(faces: Iterable[int], size: int) -> int:
    """How many sets the faces hold (faces shown by at least ``size`` dice)."""
    return sum(1 for n in Counter(faces).values() if n >= size)


class SetCount(Evaluator):
    """The number of outcomes shown by at least ``size`` dice of one pool (Roll20's ``mt``)."""

    def __init__(self, size: int) -> None:
        self.least = size

    def size(self, sizes: tuple[int, ...]) -> int:
        return sum(sizes) // self.least + 1

    def next_state(self, state: np.ndarray, outcome: int, seen: Counts, counts: Counts) -> np.ndarray:
        out: np.ndarray = state + (counts[0] >= self.least)
        return out


def _faces_of(data: list) -> list[int]:
    """The faces of a record's data: a flat term's list, or units of ``[face, flags]`` (one throw each here)."""
    return [u[0][0] if type(u) is list else u for u in data]


class MatchTerm(DiceTerm):
    """A term with ``m`` / ``mt``: :attr:`inner`, the same term without it, throws the dice; this term writes its
    record (so that its text and dice are read back here) and scores it."""

    __slots__ = ("inner", "least", "total")

    def __init__(self, spec: TermSpec) -> None:
        assert spec.match is not None
        self.spec = spec
        self.total, self.least = spec.match
        self.inner = DiceTerm(replace(spec, match=None))
        self.render = self._render

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)

    def roller(self) -> Callable[[Any, list], int]:
        throw, total, least = self.inner.roller(), self.total, self.least

        def roll_matching(r: Any, rec: list) -> int:
            held: list = []
            value = throw(r, held)
            data = held[0][1]
            rec.append((self, data))
            return sets(_faces_of(data), least) if total else value
        return roll_matching

    def _marked(self, data: list) -> list[tuple[int, bool]]:
        faces = _faces_of(data)
        return list(zip(faces, matched(faces, self.least), strict=True))

    def _render(self, data: list) -> str:
        shown = ", ".join(f"{v}{MARK}" if on else str(v) for v, on in self._marked(data))
        return f"[{shown}{self.spec.label_suffix}"

    def dice(self, data: list) -> list[Die]:  # type: ignore[override]
        spec = self.spec
        return [Die(spec.kind, spec.sides, v, True, False, False, False, False, None, spec.label,
                    "match" if on else None) for v, on in self._marked(data)]

    def dice_json(self, data: list, dropped: bool = False) -> str:  # type: ignore[override]
        dice = self.dice(data)
        return dice_json([d._replace(kept=False) for d in dice] if dropped else dice)

    def parts(self, data: list) -> list[Part]:  # type: ignore[override]
        spec = self.spec
        out: list[Part] = ["["]
        for i, (die, (_, on)) in enumerate(zip(self.dice(data), self._marked(data), strict=True)):
            if i:
                out.append(", ")
            out.append(Face(die))
            if on:
                out.append(MARK)
        out.append("]")
        if spec.label:
            out.append(f" ({spec.label})")
        return out

    def writer(self, text: Callable[[Any], str]) -> Callable[[list], str]:  # type: ignore[override]
        return lambda data: "".join(text(p) for p in self.parts(data))

    def sample(self, n: int, gen: np.random.Generator) -> np.ndarray:  # type: ignore[override]
        if not self.total:
            return self.inner.sample(n, gen)
        faces = np.asarray(list(self.spec.faces), dtype=np.int64)
        thrown = np.sort(faces[gen.integers(0, len(faces), size=(n, self.spec.count))], axis=1)
        k, count = self.least, self.spec.count
        if count < k:
            return np.zeros(n, dtype=np.int64)
        # a set ends at a position whose face differs from the next one and equals the face k - 1 before it
        ends = np.ones((n, count), dtype=bool)
        ends[:, :-1] = thrown[:, 1:] != thrown[:, :-1]
        long = np.zeros((n, count), dtype=bool)
        long[:, k - 1:] = thrown[:, k - 1:] == thrown[:, :count - k + 1]
        out: np.ndarray = (ends & long).sum(axis=1)
        return out

    def _sets_die(self) -> AlgebraDie:
        return evaluate(SetCount(self.least), Pool.of(AlgebraDie.of(self.spec.faces), self.spec.count))

    def pmf(self) -> PMF:  # type: ignore[override]
        return self._sets_die().pmf if self.total else self.inner.pmf()

    def exact_cost(self) -> tuple[Cost, int, int]:  # type: ignore[override]
        if not self.total:
            return self.inner.exact_cost()
        n = self.spec.count
        entries = (n + 1) * (n + 2) // 2 * (n // self.least + 1)
        return Cost(len(set(self.spec.faces)) * 20 * entries, 8 * entries), 0, n // self.least

    def truncated_mass(self) -> float:  # type: ignore[override]
        return 0.0

    def bounds(self) -> tuple[int, int]:
        return (0, self.spec.count // self.least) if self.total else self.inner.bounds()

    def with_tally(self) -> DiceTerm:
        """Never asked: critical marks on a term with matching dice are refused when it is compiled."""
        raise TypeError(f"{self.spec.text} has no critical marks to tally")

    def __repr__(self) -> str:
        return f"MatchTerm({self.spec.text!r})"
