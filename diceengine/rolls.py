"""One roll: its outcome and every die, with the human line and the JSON built only when asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import Unwritten
from .i18n import language as _language

if TYPE_CHECKING:
    from .models import RollModel
    from .registry import Plan

__all__ = ["Die", "Roll"]

_RENDERERS: dict[str, Any] = {}  # format -> render function, loaded on first use


def _roll_json(roll: Roll) -> str:
    global _roll_json
    from .rolljson import roll_json

    _roll_json = roll_json  # imported on first use, then called directly
    return roll_json(roll)


class Die(NamedTuple):
    """One die thrown in a roll."""

    kind: str
    """what was thrown: ``"d6"``, ``"dF"``, ``"wild"``, ``"ability"``, ..."""
    sides: int
    value: int
    """the face (its number; for narrative dice, the index of the face)"""
    kept: bool = True
    """counts toward the result (false: dropped, or a face replaced by a re-roll)"""
    exploded: bool = False
    """its face triggered another die (or, compounded, was added to)"""
    rerolled: bool = False
    """its face was discarded and the die thrown again"""
    added: bool = False
    """it was thrown because of an explosion or a bonus (character point)"""
    wild: bool = False
    """it is the Wild Die"""
    face: str | None = None
    """the symbols shown, for narrative dice"""
    label: str | None = None
    critical: str | None = None
    """``"success"`` or ``"failure"`` when a critical marker (``cs`` / ``cf``) flags the face"""

    @property
    def dropped(self) -> bool:
        """Does not count toward the result."""
        return not self.kept


class Roll:
    """The result of :func:`diceengine.rolls`: the outcome, the system, the expression and every die."""

    __slots__ = ("_plan", "_record", "expression", "lang", "outcome", "system")

    def __init__(self, plan: Plan, outcome: Any, record: Any, expression: str, system: str,
                 lang: str | None = None) -> None:
        self._plan = plan
        self.outcome = outcome
        self._record = record
        self.expression = expression
        self.system = system
        self.lang = lang
        """the language its text is rendered in by default (``None``: English)"""

    def __getattr__(self, name: str) -> Any:
        # outcome fields read through: roll.total, roll.success, ...
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return getattr(self.outcome, name)
        except AttributeError:
            raise AttributeError(f"a {self.system} roll has no field {name!r}") from None

    @property
    def description(self) -> str | None:
        """The text after the expression (``1d20+5 to hit`` -> ``"to hit"``), for systems that read one."""
        return getattr(self._plan, "description", None)

    @property
    def dice(self) -> list[Die]:
        """Every die thrown, in order (kept, dropped, exploded, re-rolled, wild)."""
        return self._plan.dice(self._record)

    def fields(self) -> dict[str, Any]:
        """The outcome fields this expression produces (``None`` ones left out)."""
        return {k: v for k, v in self.outcome._asdict().items() if v is not None}

    def parts(self) -> list[Any]:
        """What the roll's text is made of (:mod:`diceengine.parts`): dice, words, the result."""
        return self._plan.explain(self.outcome, self._record)

    def render(self, fmt: str = "plain", lang: str | None = None, **settings: Any) -> str:
        """The roll as text: ``fmt`` is ``"plain"``, ``"markdown"``, ``"html"`` or ``"symbols"``
        (:mod:`diceengine.renderers`); ``lang`` defaults to the roll's own."""
        if fmt == "plain" and not settings:
            lang = self.lang if lang is None else lang
            if lang in (None, "en") or (self._plan.language_free and _language(lang)):
                return self._plan.describe(self.outcome, self._record)  # the plan's own plain English line
        found = _RENDERERS.get(fmt)
        if found is None:
            from .renderers import renderer

            found = _RENDERERS[fmt] = renderer(fmt)
        return found(self, self.lang if lang is None else lang, **settings)

    def __str__(self) -> str:
        if self.lang is None:
            return self._plan.describe(self.outcome, self._record)
        return self.render()

    def __repr__(self) -> str:
        return f"<Roll {self.system} {self.expression!r}: {self.fields()}>"

    def model(self) -> RollModel:
        """The pydantic view of this roll."""
        from .models import RollModel

        return RollModel.from_roll(self)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """The roll as plain Python data (pydantic ``model_dump``)."""
        return self.model().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        """The roll as JSON (pydantic ``model_dump_json``; without arguments, the same JSON written directly)."""
        if not kwargs:
            try:
                return _roll_json(self)
            except Unwritten:  # a value only pydantic knows how to write (any other error is a bug: it shows)
                pass
        return self.model().model_dump_json(**kwargs)
