"""AnyDice's function library: the functions every program starts with (a program may define its own in their
place). Each is called with its arguments already made the types its parameters ask, enumerated as any function's
are, so ``[highest 1 of 2d20]`` and ``[absolute d6 - 3]`` follow the rules of :mod:`diceengine.anydice.calls`."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .calls import Function
from .settings import Settings
from .values import BLANK, Dice, Empty, Value

__all__ = ["library"]


def _absolute(settings: Settings, n: int) -> Value:
    return abs(n)


def _contains(settings: Settings, seq: tuple, n: int) -> Value:
    return int(n in seq)


def _count(settings: Settings, values: tuple, seq: tuple) -> Value:
    return sum(seq.count(v) for v in values)


def _explode(settings: Settings, die: Value) -> Value:
    if isinstance(die, Empty):
        return die
    assert isinstance(die, Dice)
    return Dice.of(die.total().explode(depth=settings.explode_depth))


def _ranked(which: str) -> Callable[[Settings, int, Value], Value]:
    def keep(settings: Settings, n: int, dice: Value) -> Value:
        if isinstance(dice, Empty):
            return BLANK
        assert isinstance(dice, Dice)
        count = dice.count
        n = max(0, min(n, count))
        if n == 0:
            return 0
        if n == count:
            return Dice.of(dice.total())
        pool = dice.pool()
        if which == "highest":
            return Dice.of(pool.highest(n))
        if which == "lowest":
            return Dice.of(pool.lowest(n))
        skip = (count - n) // 2  # no exact middle: the lower of the two middles
        return Dice.of(pool.window(skip, skip + n, order="lowest"))

    return keep


def _maximum(settings: Settings, dice: Value) -> Value:
    if isinstance(dice, Empty):
        return BLANK
    assert isinstance(dice, Dice)
    return dice.total().max()


def _reverse(settings: Settings, seq: tuple) -> Value:
    return seq[::-1]


def _sort(settings: Settings, seq: tuple) -> Value:
    return tuple(sorted(seq, reverse=settings.order == "highest"))


_LIBRARY: list[tuple[str, Callable[..., Value]]] = [
    ("absolute NUMBER:n", _absolute),
    ("SEQUENCE:s contains NUMBER:n", _contains),
    ("count VALUES:s in SEQUENCE:s", _count),
    ("explode DIE:d", _explode),
    ("highest NUMBER:n of DICE:d", _ranked("highest")),
    ("lowest NUMBER:n of DICE:d", _ranked("lowest")),
    ("middle NUMBER:n of DICE:d", _ranked("middle")),
    ("highest of NUMBER:n and NUMBER:n", lambda settings, a, b: max(a, b)),
    ("lowest of NUMBER:n and NUMBER:n", lambda settings, a, b: min(a, b)),
    ("maximum of DIE:d", _maximum),
    ("reverse SEQUENCE:s", _reverse),
    ("sort SEQUENCE:s", _sort),
]


def _function(signature: str, fn: Callable[..., Value]) -> Function:
    key: list[str | None] = []
    names: list[str] = []
    types: list[str] = []
    for part in signature.split():
        if part.islower():
            key.append(part)
        else:
            name, kind = part.split(":")
            key.append(None)
            names.append(name)
            types.append(kind)
    return Function(tuple(key), tuple(names), tuple(types), builtin=fn)


@cache
def _functions() -> tuple[Function, ...]:
    """The library's functions, made once (a function is never changed: a program's definition replaces it)."""
    return tuple(_function(signature, fn) for signature, fn in _LIBRARY)


def library() -> dict[tuple[str | None, ...], Function]:
    """The library's functions by name (a new dictionary: a program's definitions go into it)."""
    return {f.key: f for f in _functions()}
