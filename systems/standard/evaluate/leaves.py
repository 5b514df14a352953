"""The leaves of a standard expression: an integer literal, a dice term, a dice term with critical marks
(and the context variables through which a plan reads and conditions on those marks)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from fractions import Fraction
from typing import Any

from diceengine.arith import check_interval
from diceengine.lazy import np
from diceengine.limits import NUMPY_CALL, Cost
from diceengine.parts import Part
from diceengine.pmf import PMF, WORK
from diceengine.rolljson import dice_json
from diceengine.rolls import Die

from ..exact import build, show
from ..term import DiceTerm
from .base import Evaluator, _as_array


class Const(Evaluator):
    """An integer literal, or a decimal one (``1.5``: its exact fraction, written as typed)."""

    def __init__(self, value: Any, text: str | None = None) -> None:
        self.value = value
        self.text = str(value) if text is None else text
        self.rational = type(value) is Fraction
        self._sampled = float(value) if self.rational else value  # samples of fractions are floats

    def roller(self) -> Any:
        return self.value

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self._sampled

    def exact(self) -> Any:
        return build([(self.value, 1.0)])

    def render(self, records: Iterator[Any]) -> str:
        return self.text

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        value = text(self.text)
        return lambda records: value

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        return self.text.replace("{", "{{").replace("}", "}}"), []

    def bounds(self) -> tuple[Any, Any]:
        return self.value, self.value

    def exact_cost(self) -> tuple[Cost, int, int]:
        return Cost(), math.floor(self.value), math.ceil(self.value)


class Term(Evaluator):
    """A dice term ``NdM`` with its modifiers (:class:`~..term.DiceTerm`)."""

    def __init__(self, term: DiceTerm) -> None:
        self.term = term
        self.dice_count = term.spec.count

    def roller(self) -> Any:
        return self.term.roller()

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return self.term.sample(n, gen)

    def exact(self) -> Any:
        return self.term.pmf()

    def render(self, records: Iterator[Any]) -> str:
        return self.term.render(next(records)[1])

    def template(self) -> tuple[str, list[Callable[[Any], str]]] | None:
        return "{}", [self.term.render]

    def parts(self, records: Iterator[Any], out: list[Part]) -> None:
        out.extend(self.term.parts(next(records)[1]))

    def writer(self, text: Callable[[Any], str]) -> Callable[[Iterator[Any]], str]:
        write = self.term.writer(text)
        return lambda records: write(next(records)[1])

    def truncated(self) -> float:
        return self.term.truncated_mass()

    def bounds(self) -> tuple[Any, Any]:
        return check_interval(*self.term.bounds(), column=self.term.spec.node.pos)

    def exact_cost(self) -> tuple[Cost, int, int]:
        return self.term.exact_cost()


class ScaledTerm(Term):
    """A dice term whose faces are fractions (a decimal minimum / maximum: ``6d%max50.45``): rolled and written
    with its faces as they are; sampled and given exact odds through its twin, the same term with every face
    ``scale`` times larger (whole numbers), whose score is divided back (floats for samples, exact fractions
    for the odds)."""

    rational = True

    def __init__(self, term: DiceTerm, twin: DiceTerm, scale: int) -> None:
        super().__init__(term)
        self.twin, self.scale = twin, scale
        views = term.views

        def dice(data: list) -> list[Die]:  # a die's value is whole: a decimal face shows in its face text
            return [d if type(d.value) is int else d._replace(value=math.floor(d.value), face=show(d.value))
                    for d in views.dice(data)]

        def json(data: list, dropped: bool = False) -> str:
            return dice_json([d._replace(kept=False) for d in dice(data)] if dropped else dice(data))
        term.dice, term.dice_json = dice, json  # the term owns its records: their readers are its attributes

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        return np.asarray(self.twin.sample(n, gen), dtype=np.float64) / self.scale

    def exact(self) -> Any:
        scale = self.scale
        return build((Fraction(v, scale), p) for v, p in self.twin.pmf().items())

    def truncated(self) -> float:
        return self.twin.truncated_mass()

    def bounds(self) -> tuple[Any, Any]:
        lo, hi = self.twin.bounds()
        return check_interval(math.floor(Fraction(lo, self.scale)), math.ceil(Fraction(hi, self.scale)),
                              column=self.term.spec.node.pos)

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost, lo, hi = self.twin.exact_cost()
        span = hi - lo + 1  # each value of the twin's support made a fraction, in Python
        return cost + Cost(span * 40, span * 2), math.floor(Fraction(lo, self.scale)), math.ceil(Fraction(hi, self.scale))


#: the marked dice terms' critical counts that exact() conditions on, while a plan's joint odds are computed
CRITICALS_GIVEN: ContextVar[dict[int, tuple[int, int]] | None] = ContextVar("given_criticals", default=None)
#: where sample() of marked dice terms leaves each row's critical counts, while a plan samples
CRITICALS_SAMPLED: ContextVar[list[tuple[Any, Any]] | None] = ContextVar("sampled_criticals", default=None)
#: set while a plan estimates exact() given the critical counts: a marked node's exact() then costs little
COSTING_GIVEN: ContextVar[bool] = ContextVar("costing_given", default=False)


class Marked(Evaluator):
    """A node whose critical counts the outcome gives: ``exact`` is its distribution given the counts the plan is
    computing (:data:`CRITICALS_GIVEN`, read from :meth:`joint`), and costs one pass over it then."""

    def joint(self) -> dict[tuple[int, int], tuple[float, Any]]:
        raise NotImplementedError

    def exact(self) -> Any:
        given = CRITICALS_GIVEN.get()
        if given is None or id(self) not in given:
            return super().exact()
        return self.joint()[given[id(self)]][1]

    def exact_cost(self) -> tuple[Cost, int, int]:
        cost, lo, hi = super().exact_cost()
        if COSTING_GIVEN.get():  # exact() hands out a distribution joint() computed
            return Cost(hi - lo + 1, hi - lo + 1), lo, hi
        return cost, lo, hi


class CriticalTerm(Marked, Term):
    """A dice term with critical marks (``cs`` / ``cf``) whose counts the outcome gives (``critical_successes``,
    ``critical_failures``: the kept dice marked); inside a group that keeps or drops, the group counts those of
    the items it keeps (:class:`CriticalGroup`).

    ``sample`` throws the term scoring each die with its marks folded in (:meth:`DiceTerm.with_tally`), gives
    the score to the expression and the counts to the plan (:data:`CRITICALS_SAMPLED`); ``joint`` is the exact joint
    distribution of (counts, score), and ``exact`` the score's distribution given the counts the plan is
    computing (:data:`CRITICALS_GIVEN`)."""

    def __init__(self, term: DiceTerm) -> None:
        super().__init__(term)
        self.tallied = term.with_tally()
        self._joint: dict[tuple[int, int], tuple[float, PMF]] | None = None

    def sample(self, n: int, gen: np.random.Generator) -> Any:
        score, cs, cf = self.tallied.untally(_as_array(self.tallied.sample(n, gen), n))
        sink = CRITICALS_SAMPLED.get()
        if sink is not None:
            sink.append((cs, cf))
        return score

    def joint(self) -> dict[tuple[int, int], tuple[float, PMF]]:
        """``{(critical successes, critical failures): (probability, distribution of the score given them)}``."""
        if self._joint is None:
            encoded = self.tallied.pmf()
            held = encoded.p > 0
            score, cs, cf = self.tallied.untally(encoded.values[held])
            probs = encoded.p[held]
            per = self.tallied.spec.tally[5] + 1  # type: ignore[index]
            code = cs * per + cf  # one number per pair of counts
            order = np.argsort(code, kind="stable")
            code, score, probs = code[order], score[order], probs[order]
            starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
            self._joint = {}
            work = 12 * len(encoded.p)
            for a, b in zip(starts.tolist(), [*starts[1:].tolist(), len(code)]):
                values, q = score[a:b], probs[a:b]
                lo = int(values.min())
                mass = float(q.sum())
                pair = divmod(int(code[a]), per)
                self._joint[pair] = (mass, PMF(lo, np.bincount(values - lo, weights=q) / mass))
                work += int(values.max()) - lo + 1 + NUMPY_CALL
            WORK.work += work
        return self._joint

    @property
    def marks(self) -> tuple[bool, bool]:
        """Whether it counts critical successes, critical failures."""
        return self.term.spec.crit_success is not None, self.term.spec.crit_failure is not None

    def truncated(self) -> float:
        if self.term.spec.per_die:  # the mass joint() left out (every die ranked: remembered, not walked again)
            return self.tallied.truncated_mass()
        return self.term.truncated_mass()

    def joint_cost(self) -> tuple[Cost, int]:
        """What :meth:`joint` costs, and at most how many pairs of counts it has."""
        cost, lo, hi = self.tallied.exact_cost()
        most_s, most_f = self.tallied.spec.tally[4:]  # type: ignore[index]
        pairs = (most_s + 1) * (most_f + 1)
        span = hi - lo + 1  # the encoded support, split by pair of counts
        return cost + Cost(12 * span + pairs * (span // max(1, pairs) + NUMPY_CALL), 6 * span), pairs
