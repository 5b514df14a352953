"""A roll's JSON written directly: the same text as ``RollModel.from_roll(roll).model_dump_json()``, without
building (and validating) the pydantic model, and without importing pydantic. It writes dice
(:class:`~diceengine.parts.Die`) and the pieces of a roll, never importing the roll itself
(:func:`diceengine.rolls.roll_json` writes a :class:`~diceengine.rolls.Roll` through :func:`write_roll`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Protocol

try:  # json.encoder's own string writer (the C one), without importing the json package on a roll
    from _json import encode_basestring as _quote
except ImportError:  # pragma: no cover - an interpreter without the C accelerator
    from json.encoder import encode_basestring as _quote  # type: ignore[attr-defined]

from .errors import Unwritten
from .parts import Die, TextMemo

__all__ = ["FaceJson", "WrittenPlan", "dice_json", "die_json", "write_roll"]

_TF = {True: "true", False: "false"}


def _text(v: Any) -> str:
    if v is None:
        return "null"
    if type(v) is not str:
        raise Unwritten(v)
    return _quote(v)


def _scalar(v: Any) -> str:
    """An outcome's field as JSON: a die's kinds of value as a die writes them, a Fraction as pydantic does,
    anything else by json's rules."""
    t = type(v)
    if t is bool or t is int or t is str:
        return _plain(v)
    if t is Fraction:
        return _quote(str(v))  # as pydantic writes a Fraction
    from json import dumps as _dumps  # a float, or another type: json's rules

    try:
        return _dumps(v, allow_nan=False)
    except (TypeError, ValueError):  # not a JSON value, or not a finite number
        raise Unwritten(v) from None


#: a die's fields before its face and after it (:class:`~diceengine.parts.Die`: the one place they are written)
_BEFORE, _AFTER = Die._fields[:Die._fields.index("value")], Die._fields[Die._fields.index("value") + 1:]
_DIE_PARTS: dict[tuple, tuple[str, str]] = {}


def _plain(v: Any) -> str:
    """A die's field as JSON: a bool, a whole number, a text or ``None``."""
    t = type(v)
    if t is bool:
        return _TF[v]
    if t is int:
        return str(v)
    return _text(v)


#: a die's JSON before its face and after it, as templates of its fields' values
_HEAD = "{{" + ",".join([f'"{name}":{{}}' for name in _BEFORE]) + ',"value":'
_TAIL = "".join([f',"{name}":{{}}' for name in _AFTER]) + "}}"


def _die_parts(key: tuple) -> tuple[str, str]:
    """The JSON of a die before and after its face (``key``: the die without its face)."""
    cut = len(_BEFORE)
    parts = _HEAD.format(*[_plain(v) for v in key[:cut]]), _TAIL.format(*[_plain(v) for v in key[cut:]])
    if len(_DIE_PARTS) < 4096:
        _DIE_PARTS[key] = parts
    return parts


_VALUE = len(_BEFORE)
_DIE_JSON: dict[tuple, str] = {}


def _die_json(d: Any) -> str:
    value = d[_VALUE]
    if type(value) is not int:
        raise Unwritten(value)
    key = d[:_VALUE] + d[_VALUE + 1:]
    parts = _DIE_PARTS.get(key) or _die_parts(key)
    text = parts[0] + str(value) + parts[1]
    if len(_DIE_JSON) < 65536:
        _DIE_JSON[d] = text
    return text


def die_json(d: Any) -> str:
    """One :class:`~diceengine.parts.Die` as JSON (dice repeat: each distinct die is written once and cached)."""
    return _DIE_JSON.get(d) or _die_json(d)


def dice_json(dice: Iterable[Any]) -> str:
    """The items of the JSON array of ``dice`` (:class:`~diceengine.parts.Die`), without the brackets."""
    get = _DIE_JSON.get
    return ",".join([get(d) or _die_json(d) for d in dice])


class FaceJson(TextMemo):
    """Face value -> JSON of one kind of die showing it (``FaceJson(lambda v: Die(...))[6]``), each face
    written once, on first use: a plan's dice of one kind differ only by their face."""

    __slots__ = ()

    def __init__(self, die: Callable[[Any], Any]) -> None:
        super().__init__(lambda v: die_json(die(v)))


class WrittenPlan(Protocol):
    """What :func:`write_roll` asks of a plan (:class:`diceengine.registry.Plan` has both)."""

    def dice_json(self, record: Any) -> str: ...

    def describe(self, outcome: Any, record: Any) -> str: ...


def write_roll(plan: WrittenPlan, outcome: Any, record: Any, system: str, expression: str) -> str:
    """The JSON of a roll of ``plan`` (its outcome and raw record, the system's name and the expression as
    spelt); raises :class:`~diceengine.errors.Unwritten` for a value only pydantic knows how to write."""
    try:
        head, tail = plan._json_ends[expression]  # type: ignore[attr-defined]
    except (AttributeError, KeyError):
        head, tail = _ends(plan, system, expression)
    if len(outcome) == 1 and type(outcome[0]) is int:  # one whole number: the common case
        return (f'{head}"{outcome._fields[0]}":{outcome[0]}}},"dice":[{plan.dice_json(record)}],"text":'
                f'{_quote(plan.describe(outcome, record))}{tail}')
    fields = ",".join([f'"{k}":{_scalar(v)}' for k, v in zip(outcome._fields, outcome) if v is not None])
    return (f'{head}{fields}}},"dice":[{plan.dice_json(record)}],"text":{_quote(plan.describe(outcome, record))}'
            f'{tail}')


def _ends(plan: Any, system: str, expression: str) -> tuple[str, str]:
    """The JSON before the outcome's fields and after the text: the same for every roll of a plan and a
    spelling, remembered on the plan (a copy of a plan showing another spelling shares them)."""
    description = getattr(plan, "description", None)
    ends = ('{"system":' + _quote(system) + ',"expression":' + _quote(expression) + ',"outcome":{',
            ',"description":' + _text(description) + "}")
    try:
        known = plan.__dict__.setdefault("_json_ends", {})
    except AttributeError:  # a plan without a __dict__: nothing remembered
        return ends
    if len(known) < 16:
        known[expression] = ends
    return ends
