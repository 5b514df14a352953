"""A dice term scored as a multiset (``4d10mt``; the spec's ``pool``, :class:`~.spec.PoolScore`): :class:`PoolTerm`,
the term thrown as its dice without that modifier, its score read from the modifier's evaluator, its dice marked.

Every interpretation reads the one definition, the die algebra's :class:`~diceengine.algebra.multiset.Evaluator`:
a roll and a sample run it over the faces thrown (:func:`run`: each face once, with how many dice show it), the
exact odds are :func:`diceengine.algebra.multiset.evaluate` of it. The text and the dice mark the dice the
modifier's ``marks`` choose. A modifier of this kind writes its evaluator, nothing here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from diceengine.algebra.die import Die as AlgebraDie
from diceengine.algebra.multiset import Evaluator, evaluate, evaluate_cost
from diceengine.algebra.pool import Pool
from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.parts import Face, Part
from diceengine.pmf import PMF
from diceengine.records import replace
from diceengine.rolljson import dice_json
from diceengine.rolls import Die

from .dice_term import DiceTerm
from .sample import draw
from .spec import PoolScore, TermSpec

__all__ = ["PoolTerm", "run", "run_one"]


def run(evaluator: Evaluator, rows: np.ndarray, faces: Sequence[int]) -> np.ndarray:
    """The evaluator's result for each row of ``rows`` (one roll a row, its faces in any order), visiting
    ``faces`` in the evaluator's order (every face of the die, or those shown when the state ignores the others)."""
    values = sorted(set(faces), reverse=evaluator.order == "highest")
    n = len(rows)
    state = np.full(n, evaluator.initial(), dtype=np.int64)
    seen = np.zeros(n, dtype=np.int64)
    for value in values:
        counts = (rows == value).sum(axis=1)
        state = np.asarray(evaluator.next_state(state, value, (seen,), (counts,)), dtype=np.int64)
        seen = seen + counts
    out: np.ndarray = np.asarray(evaluator.final(state), dtype=np.int64)
    return out


def run_one(evaluator: Evaluator, faces: Sequence[int], visited: Iterable[int]) -> int:
    """:func:`run` of one roll; an evaluator that says its ``next_state`` reads plain integers as well (``scalar =
    True``: a few times faster on one roll) is handed them, the faces counted here."""
    if not getattr(evaluator, "scalar", False):
        return int(run(evaluator, np.array([faces], dtype=np.int64), list(visited))[0])
    shown = Counter(faces)
    state, seen = evaluator.initial(), 0
    step: Any = evaluator.next_state  # given integers (scalar)
    for value in sorted(set(visited), reverse=evaluator.order == "highest"):
        n = shown.get(value, 0)
        state = step(state, value, (seen,), (n,))
        seen += n
    if type(evaluator).final is Evaluator.final:  # the state is the result
        return int(state)
    return int(evaluator.final(np.array([state], dtype=np.int64))[0])


def _faces_of(data: list) -> list[int]:
    """The faces of a record's data: a flat term's list, or units of ``[face, flags]`` (one throw each here)."""
    return [u[0][0] if type(u) is list else u for u in data]


class PoolTerm(DiceTerm):
    """A term with a multiset score (``spec.pool``): :attr:`inner`, the same term without it, throws the dice;
    this term writes its record (so that its text and dice are read back here), scores and marks it."""

    __slots__ = ("inner", "pool")

    def __init__(self, spec: TermSpec) -> None:
        assert spec.pool is not None
        self.spec = spec
        self.pool: PoolScore = spec.pool
        self.inner = DiceTerm(replace(spec, pool=None))
        self.render = self._render

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)

    def _visited(self, faces: Sequence[int]) -> Sequence[int]:
        """The faces an evaluation of a roll showing ``faces`` visits."""
        return faces if self.pool.sparse else self.spec.faces

    def score(self, faces: list[int]) -> int:
        """The score of one roll's faces."""
        return run_one(self.pool.evaluator, faces, self._visited(faces))

    def roller(self) -> Callable[[Any, list], int]:
        throw, scores = self.inner.roller(), self.pool.scores
        if scores and self._counted_faces():
            return self._counted_roller(throw)

        def roll_pooled(r: Any, rec: list) -> int:
            held: list = []
            value = throw(r, held)
            data = held[0][1]
            rec.append((self, data))
            return self.score(_faces_of(data)) if scores else value
        return roll_pooled

    def _counted_faces(self) -> bool:
        """Whether a roll may run the evaluator over the faces shown alone, in plain integers, its state the score
        (``sparse``, ``scalar``, no ``final``), its dice thrown as a flat list: :meth:`_counted_roller`."""
        evaluator = self.pool.evaluator
        return self.pool.sparse and getattr(evaluator, "scalar", False) and \
            type(evaluator).final is Evaluator.final and self.inner.spec.flat

    def _counted_roller(self, throw: Callable[[Any, list], int]) -> Callable[[Any, list], int]:
        """:func:`run_one` with what it reads bound once a term (the evaluator's own ``next_state``, the shown faces
        in its order): the hot path of ``6d6mt``; ``tests/test_pooled_fast_roll.py`` compares it with :func:`run_one`."""
        evaluator = self.pool.evaluator
        step, start, highest = evaluator.next_state, evaluator.initial(), evaluator.order == "highest"

        def roll_counted(r: Any, rec: list) -> int:
            held: list = []
            throw(r, held)
            data = held[0][1]
            rec.append((self, data))
            shown: dict[int, int] = {}
            for v in data:
                shown[v] = shown.get(v, 0) + 1
            state, seen = start, 0
            for value in sorted(shown, reverse=highest):
                n = shown[value]
                state = step(state, value, (seen,), (n,))
                seen += n
            return int(state)
        return roll_counted

    def _marked(self, data: list) -> list[tuple[int, bool]]:
        faces = _faces_of(data)
        marks = self.pool.marks
        return list(zip(faces, marks(faces) if marks is not None else [False] * len(faces), strict=True))

    def _render(self, data: list) -> str:
        mark = self.pool.mark_text
        shown = ", ".join(f"{v}{mark}" if on else str(v) for v, on in self._marked(data))
        return f"[{shown}{self.spec.label_suffix}"

    def dice(self, data: list) -> list[Die]:  # type: ignore[override]
        spec, mark = self.spec, self.pool.mark
        return [Die(spec.kind, spec.sides, v, True, False, False, False, False, None, spec.label,
                    (mark or None) if on else None) for v, on in self._marked(data)]

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
                out.append(self.pool.mark_text)
        out.append("]")
        if spec.label:
            out.append(f" ({spec.label})")
        return out

    def writer(self, text: Callable[[Any], str]) -> Callable[[list], str]:  # type: ignore[override]
        return lambda data: "".join(text(p) for p in self.parts(data))

    def sample(self, n: int, gen: np.random.Generator) -> np.ndarray:  # type: ignore[override]
        if not self.pool.scores:
            return self.inner.sample(n, gen)
        thrown = draw(self.spec, gen, (n, self.spec.count))  # the term's own draw, as its dice are thrown
        return run(self.pool.evaluator, thrown, np.unique(thrown).tolist() if self.pool.sparse else list(self.spec.faces))

    def _die(self) -> AlgebraDie:
        return evaluate(self.pool.evaluator, Pool.of(AlgebraDie.of(self.spec.faces), self.spec.count))

    def pmf(self) -> PMF:  # type: ignore[override]
        return self._die().pmf if self.pool.scores else self.inner.pmf()

    def _states(self) -> int:
        return int(self.pool.evaluator.size((self.spec.count,)))

    def exact_cost(self) -> tuple[Cost, int, int]:  # type: ignore[override]
        if not self.pool.scores:
            return self.inner.exact_cost()
        return evaluate_cost([self.spec.count], self._states(), len(set(self.spec.faces))), *self.bounds()

    def truncated_mass(self) -> float:  # type: ignore[override]
        return 0.0

    def bounds(self) -> tuple[int, int]:
        if not self.pool.scores:
            return self.inner.bounds()
        evaluator = self.pool.evaluator
        if type(evaluator).final is Evaluator.final:  # the states are the results (no numpy for a roll)
            return 0, self._states() - 1
        results = np.asarray(evaluator.final(np.arange(self._states())))
        return int(results.min()), int(results.max())

    def with_tally(self) -> DiceTerm:
        """Never asked: critical marks on a term scored as a multiset are refused when it is compiled."""
        raise TypeError(f"{self.spec.text} has no critical marks to tally")

    def __repr__(self) -> str:
        return f"PoolTerm({self.spec.text!r})"
