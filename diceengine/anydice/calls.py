"""Function calls: each argument made the type its parameter asks (``:n`` a number, ``:s`` a sequence, ``:d`` a
die), and AnyDice's enumeration of a die given where a number or a sequence is asked: the function is called once
per outcome (per sorted roll for a sequence), and the results, weighted, are one new die."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from itertools import product
from typing import Any

from diceengine.algebra import Die

from .values import BLANK, NULL, Dice, Empty, Value, check_number, sum_of

__all__ = ["Function", "choices", "mix_results"]

#: an argument as the function sees it: ``(value, chance)`` for each value it takes (one, with chance 1, when it
#: is not enumerated)
Choices = list[tuple[Value, float]]


class Function:
    """A function of the program or of the library: its name (words, ``None`` at each parameter), its parameters'
    names and types, and either its body (a :class:`~diceengine.anydice.tree.Block`) or a Python callable."""

    __slots__ = ("body", "builtin", "key", "names", "types")

    def __init__(self, key: tuple[str | None, ...], names: tuple[str, ...], types: tuple[str, ...],
                 body: Any = None, builtin: Callable[..., Value] | None = None) -> None:
        self.key = key
        self.names = names
        self.types = types
        self.body = body
        self.builtin = builtin

    def title(self) -> str:
        """The function's name as AnyDice writes it: ``[highest NUMBER of DICE]``."""
        names = iter(self.names)
        return "[" + " ".join(w if w is not None else next(names) for w in self.key) + "]"


def _as_die(value: Value) -> Value:
    if isinstance(value, (Dice, Empty)):
        return value
    if isinstance(value, int):
        return Dice(Die.constant(check_number(value)), 1, "d{?}")
    if not value:
        return BLANK
    return Dice.of(Die.of([check_number(v) for v in value]))


#: the sorted rolls of the pools enumerated lately: (the die's chances, count, order) -> choices, oldest first
_SORTED: dict[tuple[object, ...], Choices] = {}
#: how many pools :data:`_SORTED` keeps
KEEP_SORTED = 64


def _sequences(value: Dice, order: str) -> Choices:
    if value.count == 0:
        return [((), 1.0)]
    if value.count == 1:
        return [((v,), p) for v, p in value.base.items()]
    base = value.base
    key = (base.pmf.offset, base.pmf.p.tobytes(), base.truncated, value.count, order)
    found = _SORTED.pop(key, None)
    if found is None:
        found = list(value.pool().sorted_outcomes(order))
        if len(_SORTED) >= KEEP_SORTED:
            del _SORTED[next(iter(_SORTED))]
    _SORTED[key] = found
    return found


def choices(kind: str, value: Value, order: str) -> Choices:
    """The values a parameter of type ``kind`` takes for the argument ``value``, each with its chance (none: the
    function is not called)."""
    if kind == "d":
        return [(_as_die(value), 1.0)]
    if kind == "":
        return [(value, 1.0)]
    if isinstance(value, Empty):
        return []
    if kind == "n":
        if isinstance(value, Dice):
            return list(value.total().items())
        return [(sum_of(value), 1.0)]
    if isinstance(value, Dice):
        return _sequences(value, order)
    return [((value,) if isinstance(value, int) else value, 1.0)]


def combinations(per_argument: list[Choices]) -> Iterator[tuple[tuple[Value, ...], float]]:
    """Every combination of the arguments' values with its chance."""
    for combo in product(*per_argument):
        yield tuple(v for v, _ in combo), math.prod(p for _, p in combo)


def mix_results(results: list[tuple[Value, float]]) -> Value:
    """The die of an enumerated call: each result (a sequence summed) with its chance. A blank result is left out
    and the others weigh as much as before together; a NULL result keeps its weight but shows nothing (AnyDice's
    total then falls short of 100%: the die's ``truncated`` is what it lost)."""
    numbers: dict[int, float] = {}
    dice: list[tuple[Die, float]] = []
    lost = kept = 0.0
    for value, weight in results:
        if value is BLANK:
            continue
        kept += weight
        if value is NULL:
            lost += weight
        elif isinstance(value, Dice):
            dice.append((value.total(), weight))
        else:
            number = check_number(sum_of(value))  # type: ignore[arg-type]
            numbers[number] = numbers.get(number, 0.0) + weight
    if numbers:
        dice.append((Die.from_weights(numbers), sum(numbers.values())))
    if not dice:
        return NULL if lost else BLANK
    die = Die.mix(dice)
    if lost:
        die = Die(die.pmf, die.truncated + lost / kept)
    return Dice.of(die)
