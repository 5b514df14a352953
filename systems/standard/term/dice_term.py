"""A compiled dice term (:class:`DiceTerm`): its spec and its interpretations, built once and put together."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from diceengine.lazy import np
from diceengine.limits import Cost
from diceengine.parts import Part
from diceengine.pmf import PMF
from diceengine.rolls import Die

from .chains import bounds
from .dice import TermDice
from .exact import TermOdds
from .roll import TermRoll
from .sample import sample
from .scores import untally, with_tally
from .spec import TermSpec
from .text import TermText


class DiceTerm:
    """A dice term ready to roll: :attr:`spec` (:class:`~.spec.TermSpec`, the data) and one object per
    interpretation holding it (:attr:`rolls`, :attr:`shown`, :attr:`views`, :attr:`odds`). The term owns the
    records its rolls write (``(term, data)``) and reads them back (:meth:`render`, :meth:`parts`,
    :meth:`dice`...). Its entry points are the interpretations' own methods, bound once: no call in between
    on the hot path."""

    __slots__ = ("dice", "dice_json", "exact_cost", "odds", "parts", "pmf", "render", "roller", "rolls", "sample",
                 "shown", "spec", "truncated_mass", "views", "writer")

    #: ``() -> (random, record) -> score``: a function throwing the term once (:meth:`.roll.TermRoll.roller`)
    roller: Callable[[], Callable[[Any, list], int]]
    #: ``(n, gen) -> scores``: ``n`` throws in bulk (:func:`.sample.sample`)
    sample: Callable[[int, np.random.Generator], np.ndarray]
    #: the exact distribution, its cost ``(cost, lo, hi)`` and the mass it leaves out (:class:`.exact.TermOdds`)
    pmf: Callable[[], PMF]
    exact_cost: Callable[[], tuple[Cost, int, int]]
    truncated_mass: Callable[[], float]
    #: a record's data as plain text, as parts, as a writer for one format (:class:`.text.TermText`)
    render: Callable[[list], str]
    parts: Callable[[list], list[Part]]
    writer: Callable[[Callable[[Any], str]], Callable[[list], str]]
    #: a record's data as dice and as their JSON (:class:`.dice.TermDice`)
    dice: Callable[[list], list[Die]]
    dice_json: Callable[..., str]

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self.rolls = TermRoll(spec, self)
        self.shown = TermText(spec)
        self.views = TermDice(spec)
        self.odds = TermOdds(spec)
        self.roller = self.rolls.roller
        self.sample = partial(sample, spec)
        self.pmf, self.exact_cost, self.truncated_mass = self.odds.pmf, self.odds.exact_cost, self.odds.truncated_mass
        self.render, self.parts, self.writer = self.shown.render, self.shown.parts, self.shown.writer
        self.dice, self.dice_json = self.views.dice, self.views.dice_json

    def bounds(self) -> tuple[int, int]:
        """The range of the term's score (:func:`.chains.bounds`)."""
        return bounds(self.spec)

    def with_tally(self) -> DiceTerm:
        """This term scoring its critical marks too (:func:`.scores.with_tally`)."""
        return DiceTerm(with_tally(self.spec))

    def untally(self, encoded: Any) -> tuple[Any, Any, Any]:
        """``(score, critical successes, critical failures)`` of tallied scores (:func:`.scores.untally`)."""
        return untally(self.spec, encoded)

    def __repr__(self) -> str:
        return f"DiceTerm({self.spec.text!r})"
