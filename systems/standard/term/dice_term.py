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
from .roll import TermRoll
from .sample import sample
from .scores import untally, with_tally
from .spec import TermSpec
from .text import TermText

#: the entry points a term makes when first asked, by what makes them
_LAZY = {"parts": "shown", "writer": "shown", "views": "views", "dice": "views", "dice_json": "views", "odds": "odds",
         "pmf": "odds", "exact_cost": "odds", "truncated_mass": "odds", "sample": "sample"}


class DiceTerm:
    """A dice term ready to roll: :attr:`spec` (:class:`~.spec.TermSpec`, the data) and one object per
    interpretation holding it (:attr:`rolls`, :attr:`shown`, :attr:`views`, :attr:`odds`). The term owns the
    records its rolls write (``(term, data)``) and reads them back (:meth:`render`, :meth:`parts`,
    :meth:`dice`...). Its entry points are the interpretations' own methods, bound once: no call in between
    on the hot path (those a roll and its plain text do not need bound when first asked)."""

    __slots__ = ("dice", "dice_json", "exact_cost", "odds", "parts", "pmf", "render", "rolls", "sample",
                 "shown", "spec", "truncated_mass", "views", "writer")

    #: bytes that what a term makes when first asked (its parts and writer, dice and their JSON, sample, odds) may
    #: hold, counted by the plan cache from the start (:func:`diceengine.plan_cache.footprint`): about 1.1 KB on
    #: CPython 3.11; tests/test_quick_path.py checks that this covers them
    __footprint_later__ = 2048

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
        self.render = self.shown.render

    def __getattr__(self, name: str) -> Any:
        # an entry point not set yet: those a roll and its plain text do not need (the parts, the dice, the
        # sample, the odds) are made when first asked, then read as the others (a never-seen expression pays for
        # its roll and its text only)
        group = _LAZY.get(name)
        if group is None:  # not an entry point (or the term is not built yet: a copy being made)
            raise AttributeError(name)
        spec = self.spec
        if group == "shown":
            self.parts, self.writer = self.shown.parts, self.shown.writer
        elif group == "views":
            self.views = views = TermDice(spec)
            self.dice, self.dice_json = views.dice, views.dice_json
        elif group == "odds":
            from .exact import TermOdds  # here: cold start (a roll never reads the odds)

            self.odds = odds = TermOdds(spec)
            self.pmf, self.exact_cost, self.truncated_mass = odds.pmf, odds.exact_cost, odds.truncated_mass
        else:
            self.sample = partial(sample, spec)
        return object.__getattribute__(self, name)

    def roller(self) -> Callable[[Any, list], int]:
        """A function ``(random, record) -> score`` throwing the term once (:meth:`.roll.TermRoll.roller`)."""
        return self.rolls.roller()

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
