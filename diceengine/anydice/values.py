"""The values of an AnyDice program and the conversions between their types.

A **number** is a Python ``int``; a **sequence** a ``tuple`` of ints; a **die** a :class:`Dice`: a pool of ``count``
copies of one :class:`~diceengine.algebra.Die` (``3d6`` is three d6, read by ``@`` and ``#`` as a pool and summed
everywhere else), with the name AnyDice gives it in a label (``3d6``, ``d{?}``). Two dice without any outcome
exist as AnyDice has them: :data:`BLANK` (``d{}``, what a function returns without ``result``, ``d{}``, ``1d{}``)
and :data:`NULL` (a count that is blank, ``[f]d4``), each with its own rules in the operators.
"""

from __future__ import annotations

from diceengine.algebra import Die, Pool
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_VALUE

__all__ = [
    "BLANK", "NULL", "Dice", "Empty", "Value", "check_number", "describe", "output_die", "sum_of", "to_die",
    "type_name",
]


class Empty:
    """A die without outcomes: :data:`BLANK` or :data:`NULL` (see the module)."""

    __slots__ = ("null",)

    def __init__(self, null: bool) -> None:
        self.null = null

    def __repr__(self) -> str:
        return "NULL" if self.null else "BLANK"


BLANK = Empty(False)
NULL = Empty(True)


class Dice:
    """``count`` copies of ``base`` thrown together, named ``name`` in a label."""

    __slots__ = ("_total", "base", "count", "name")

    def __init__(self, base: Die, count: int = 1, name: str = "d{?}") -> None:
        self.base = base
        self.count = count
        self.name = name
        self._total: Die | None = base if count == 1 else None

    @classmethod
    def of(cls, die: Die) -> Dice:
        """One die, named as AnyDice names a die it made (``d{?}``)."""
        return cls(die, 1, "d{?}")

    def total(self) -> Die:
        """The sum of the pool (a pool of no dice is 0)."""
        if self._total is None:
            self._total = self.base.repeat(self.count) if self.count else Die.constant(0)
        return self._total

    def pool(self) -> Pool:
        """The dice as a pool (to read by position)."""
        return Pool([self.base] * self.count)

    def __repr__(self) -> str:
        return f"Dice({self.name}: {self.total()!r})"


Value = int | tuple | Dice | Empty


def check_number(value: int) -> int:
    """``value`` if a die can hold it (at most 2**53 - 1 in magnitude), else the engine's limit error."""
    if -MAX_VALUE <= value <= MAX_VALUE:
        return value
    raise DiceLimitError(N_("a number too large for a die: {value} (at most {limit} in magnitude)"),
                         value=value, limit=MAX_VALUE)


def sum_of(value: tuple | int) -> int:
    """A sequence read as a number: the sum of its elements."""
    return value if isinstance(value, int) else sum(value)


def to_die(value: Value) -> Die | None:
    """``value`` as one die (a sequence is a die with those faces), ``None`` for a die without outcomes."""
    if isinstance(value, Dice):
        return value.total()
    if isinstance(value, Empty):
        return None
    if isinstance(value, int):
        return Die.constant(check_number(value))
    if not value:
        return None
    for v in value:
        check_number(v)
    return Die.of(value)


def output_die(value: Value) -> Die | None:
    """What ``output`` shows of ``value`` (``None``: nothing, as AnyDice shows nothing)."""
    return to_die(value)


def type_name(value: Value) -> str:
    """The type of ``value`` in words (messages of the catalogues)."""
    if isinstance(value, int):
        return N_("a number")
    if isinstance(value, tuple):
        return N_("a sequence")
    return N_("a die")


def describe(value: Value) -> str:
    """``value`` as AnyDice writes it in a label: a number, ``{?}`` for a sequence, a die's name."""
    if isinstance(value, bool):
        raise DiceValueError("a boolean is not a value")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "{?}"
    if isinstance(value, Empty):
        return "d{?}" if value.null else "d{}"
    return value.name
