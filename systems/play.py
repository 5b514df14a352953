"""What the state-of-play modules share: the immutable base of a state and the :class:`Step` a rule returns.

A state of play is plain pydantic data (``model_dump_json()`` / ``model_validate_json()`` store it between
the messages of a bot); its rules are functions ``rule(state, ...) -> Step``. A rule never changes the
state it is given: it returns a new one, or raises the engine's error (:class:`~diceengine.DiceError`)
when the texts forbid the action, so the caller's state is left as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from diceengine.errors import DiceValueError
from diceengine.i18n import N_

__all__ = ["PlayState", "Step", "in_order", "named", "one_of", "player_names", "recast", "refuse", "rolling"]


class PlayState(BaseModel):
    """Base of every state of play: frozen (rules return new states), no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


S = TypeVar("S", bound=PlayState)
C = TypeVar("C")


class Step(NamedTuple, Generic[S]):
    """What a rule returns: the new ``state`` and, when the rule calls for dice, the exact ``check`` to
    roll (an expression of ``system``, with ``options``), else ``None``."""

    state: S
    check: str | None = None
    system: str | None = None
    options: Mapping[str, Any] = MappingProxyType({})  # read-only: shared by every step without options

    def roll(self, seed: Any = None) -> Any:
        """Roll the check once (:func:`diceengine.roll`)."""
        from diceengine.api import roll

        return roll(self._expression(), self._system(), seed=seed, **self.options)

    def distribution(self) -> Any:
        """The exact odds of the check (:func:`diceengine.distribution`)."""
        from diceengine.api import distribution

        return distribution(self._expression(), self._system(), **self.options)

    def sample(self, n: int, seed: Any = None) -> Any:
        """``n`` rolls of the check at once (:func:`diceengine.sample`)."""
        from diceengine.api import sample

        return sample(self._expression(), n, self._system(), seed=seed, **self.options)

    def _expression(self) -> str:
        if self.check is None:
            raise DiceValueError(N_("this step calls for no roll"))
        return self.check

    def _system(self) -> str:
        return self.system or "standard"


def rolling(state: S, check: str, system: str, options: dict[str, Any] | None = None) -> Step[S]:
    """A step calling for ``check``, which is first read by the engine: a check the system cannot roll
    (an unknown difficulty name...) is the engine's error now, not when the table rolls it."""
    from diceengine.api import plan

    plan(check, system, **(options or {}))
    return Step(state, check, system, options or {})


def refuse(message: str, **params: object) -> DiceValueError:
    """The engine's error for an action the texts forbid (raise it: the state stays as it was):
    ``message`` is a template of the catalogues (marked with ``N_``), its ``{fields}`` filled from
    ``params``, so that :func:`diceengine.i18n.translate_error` says it in the user's language."""
    return DiceValueError(message, None, None, **params)  # None, None: typed apart from the params


def one_of(value: Any, choices: Any, what: str) -> None:
    """Refuse ``value`` unless it is one of ``choices``."""
    if value not in choices:
        raise refuse(N_("{what} is one of {choices}, not {value}"), what=what,
                     choices=", ".join(map(str, choices)), value=repr(value))


def named(characters: Mapping[str, C], name: str) -> C:
    """The character ``name`` of a state's ``characters``, else the refusal that lists those there are."""
    if name not in characters:
        raise refuse(N_("no character named {name} (known: {known})"), name=repr(name),
                     known=", ".join(characters) or "none")
    return characters[name]


def player_names(state: Any) -> list[str]:
    """The names of a state's characters a player plays."""
    return [name for name, c in state.characters.items() if c.player]


def in_order(state: S, result: Any) -> Step[S]:
    """``state`` with the order of an initiative ``result`` (its ``order``), refused while its ``roll_again``
    holds ties to roll again."""
    if result.roll_again:
        raise refuse(N_("tied, roll again: {groups}"), groups=", ".join(" and ".join(g) for g in result.roll_again))
    return Step(state.model_copy(update={"order": result.order}))


def recast(state: S, *characters: Any, **update: object) -> S:
    """``state`` with ``characters`` in place of those of the same ``name`` (and its fields ``update``d)."""
    held: Mapping[str, Any] = getattr(state, "characters")  # noqa: B009 - every scene has its characters
    return state.model_copy(update={"characters": {**held, **{c.name: c for c in characters}},
                                    **update})
