"""One roll: its outcome and every die, with the human line and the JSON built only when asked for.

A result module: it imports the shared types (:mod:`diceengine.parts`) and the JSON writers below it, never a
renderer. The formats a roll renders in are installed by :mod:`diceengine.renderers` (which depends on the
results) when ``diceengine`` is imported: see :func:`set_renderers`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import Unwritten
from .i18n import language as _language
from .parts import Die

if TYPE_CHECKING:
    from .models import RollModel
    from .registry import Plan

__all__ = ["Die", "Roll", "roll_json", "set_renderers"]

_RENDERERS: dict[str, Callable[..., str]] = {}  # format -> render function, looked up on first use


def _unset(fmt: str) -> Callable[..., str]:
    raise RuntimeError("no renderers installed: importing diceengine installs diceengine.renderers")


_renderer: Callable[[str], Callable[..., str]] = _unset


def set_renderers(renderer: Callable[[str], Callable[..., str]]) -> None:
    """Install ``renderer(fmt) -> render(roll, lang, **settings)``, through which :meth:`Roll.render` finds a
    format (an unknown one raises the engine's error). :mod:`diceengine.renderers` installs its own when
    ``diceengine`` is imported: the renderers depend on the results, never the reverse."""
    global _renderer
    _renderer = renderer
    _RENDERERS.clear()


def roll_json(roll: Roll) -> str:
    """The roll as JSON, written directly (:mod:`diceengine.rolljson`): the same text as
    ``roll.model().model_dump_json()``; raises :class:`~diceengine.errors.Unwritten` for a value only pydantic
    knows how to write."""
    return _write_roll(roll._plan, roll.outcome, roll._record, roll.system, roll.expression)


def _write_roll(plan: Plan, outcome: Any, record: Any, system: str, expression: str) -> str:
    global _write_roll
    from .rolljson import write_roll

    _write_roll = write_roll  # imported on first use (it is not needed to roll), then called directly
    return write_roll(plan, outcome, record, system, expression)


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
            found = _RENDERERS[fmt] = _renderer(fmt)
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
                return _write_roll(self._plan, self.outcome, self._record, self.system, self.expression)
            except Unwritten:  # a value only pydantic knows how to write (any other error is a bug: it shows)
                pass
        return self.model().model_dump_json(**kwargs)
