"""AnyDice's operators on its values: the rule of each type pair (a sequence summed where a number is wanted, a die
compared with a number giving a 0/1 die, ``@`` reading a sorted pool, ``#`` a length), and those of the dice
without outcomes (:data:`~diceengine.anydice.values.BLANK`, :data:`~diceengine.anydice.values.NULL`) as AnyDice
has them."""

from __future__ import annotations

from collections.abc import Callable

from diceengine.algebra import Die
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_DICE, MAX_SIDES

from .values import BLANK, NULL, Dice, Empty, Value, check_number, sum_of, type_name

__all__ = ["BINARY", "MAX_NUMBER", "UNARY", "binary", "pick", "roll", "unary"]

#: largest literal AnyDice reads (a larger one is read as this: PHP's largest integer)
MAX_NUMBER = 2**63 - 1

_TESTS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
}


def _number(value: int) -> int:
    if -MAX_NUMBER - 1 <= value <= MAX_NUMBER:
        return value
    raise DiceLimitError(N_("a number too large: {value} (at most {limit} in magnitude)"), value=value,
                         limit=MAX_NUMBER)


def _divide(x: int, y: int) -> int:
    if y == 0:
        raise DiceValueError(N_("division by zero"))
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def _power(x: int, y: int) -> int:
    if y < 0:
        if x == 0:
            raise DiceValueError(N_("division by zero"))
        return 1 if x == 1 else ((-1) ** (-y) if x == -1 else 0)
    if abs(x) > 1 and y > 64:
        raise DiceLimitError(N_("a number too large: {value} (at most {limit} in magnitude)"),
                             value=f"{x}^{y}", limit=MAX_NUMBER)
    return x**y


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y, "/": _divide, "^": _power,
}


def _die(value: int | Dice) -> Die:
    return value.total() if isinstance(value, Dice) else Die.constant(check_number(value))


def _pairwise(a: Die, b: Die, fn: Callable[[int, int], int]) -> Die:
    """The die of ``fn(x, y)`` for independent outcomes, ``fn`` on Python ints (any value a die can hold)."""
    weights: dict[int, float] = {}
    for x, p in a.items():
        for y, q in b.items():
            z = check_number(fn(x, y))
            weights[z] = weights.get(z, 0.0) + p * q
    return Die.from_weights(weights)


def _arithmetic(op: str, a: int | Dice, b: int | Dice) -> Value:
    fn = _ARITHMETIC[op]
    if isinstance(a, int) and isinstance(b, int):
        return _number(fn(a, b))
    da, db = _die(a), _die(b)
    if op == "+":
        return Dice.of(da + db)
    if op == "-":
        return Dice.of(da - db)
    if len(da) * len(db) > MAX_SIDES:
        raise DiceLimitError(N_("too many outcomes to combine: {count} (at most {limit})"),
                             count=len(da) * len(db), limit=MAX_SIDES)
    return Dice.of(_pairwise(da, db, fn))


def _with_empty(op: str, a: Value, b: Value) -> Value:
    """Arithmetic with a die without outcomes: NULL absorbs everything; BLANK is nothing to add (``+`` gives the
    other operand as it is, ``-`` its negation or its sum) and absorbs every other operator."""
    if a is NULL or b is NULL:
        return NULL
    if a is BLANK and b is BLANK:
        return BLANK
    if op == "+":
        return b if a is BLANK else a
    if op == "-":
        if a is BLANK:
            return unary("-", b)
        return sum_of(a) if isinstance(a, (int, tuple)) else a
    return BLANK


def _compare(op: str, a: Value, b: Value) -> Value:
    test = _TESTS[op]
    if isinstance(a, int) and isinstance(b, int):
        return int(test(a, b))
    if isinstance(a, tuple) and isinstance(b, int):
        return sum(1 for x in a if test(x, b))
    if isinstance(a, int) and isinstance(b, tuple):
        return sum(1 for y in b if test(a, y))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return int(test(a, b))  # type: ignore[arg-type]
    da = _die(sum_of(a) if isinstance(a, tuple) else a)  # type: ignore[arg-type]
    db = _die(sum_of(b) if isinstance(b, tuple) else b)  # type: ignore[arg-type]
    return Dice.of(da.compare("==" if op == "=" else op, db))


def _logic(op: str, a: Value, b: Value) -> Value:
    if a is NULL or b is NULL:
        return 1
    if isinstance(a, Empty) or isinstance(b, Empty):
        if op == "|" and not (isinstance(a, Empty) and isinstance(b, Empty)):
            return b if isinstance(a, Empty) else a
        return BLANK
    a = sum_of(a) if isinstance(a, tuple) else a
    b = sum_of(b) if isinstance(b, tuple) else b
    if isinstance(a, int) and isinstance(b, int):
        return int(bool(a) and bool(b)) if op == "&" else int(bool(a) or bool(b))
    both = np.logical_and if op == "&" else np.logical_or
    return Dice.of(_die(a).combine(_die(b), lambda x, y: both(x != 0, y != 0).astype(np.int64)))


def binary(op: str, a: Value, b: Value, order: str = "highest") -> Value:
    """``a op b`` (``op`` one of :data:`BINARY`; ``order`` the setting "position order" for ``@``)."""
    if type(a) is int and type(b) is int:  # the commonest case, first
        test = _TESTS.get(op)
        if test is not None:
            return int(test(a, b))
        fn = _ARITHMETIC.get(op)
        if fn is not None:
            return _number(fn(a, b))
    if op == "d":
        return roll(a, b)
    if op == "@":
        return pick(a, b, order)
    if op in _TESTS:
        if a is NULL or b is NULL:
            return 1
        if isinstance(a, Empty) or isinstance(b, Empty):
            return BLANK
        return _compare(op, a, b)
    if op in ("&", "|"):
        return _logic(op, a, b)
    if isinstance(a, Empty) or isinstance(b, Empty):
        return _with_empty(op, a, b)
    a = sum_of(a) if isinstance(a, tuple) else a
    b = sum_of(b) if isinstance(b, tuple) else b
    return _arithmetic(op, a, b)  # type: ignore[arg-type]


def _digits(value: int, order: str) -> list[int]:
    digits = [int(c) for c in str(abs(value))]
    sign = -1 if value < 0 else 1
    return [sign * d for d in (digits if order == "highest" else digits[::-1])]


def pick(a: Value, b: Value, order: str = "highest") -> Value:
    """``a @ b``: the sum of the elements of ``b`` at the positions ``a`` names (1-based; a die's dice sorted by
    ``order``, a number's digits)."""
    if type(a) is int and type(b) is tuple:  # the commonest case, first
        return b[a - 1] if 1 <= a <= len(b) else 0
    if not isinstance(a, (int, tuple)):
        raise DiceValueError(N_("a position is a number or a sequence, not {got}"), got=[type_name(a)])
    positions = (a,) if isinstance(a, int) else a
    if b is BLANK:
        return BLANK
    if b is NULL:
        return NULL if 1 in positions else 0
    if isinstance(b, (int, tuple)):
        items = _digits(b, order) if isinstance(b, int) else list(b)
        return sum(items[i - 1] for i in positions if 1 <= i <= len(items))
    assert isinstance(b, Dice)
    if b.count == 0:
        return 0
    if b.count == 1:
        hits = sum(1 for i in positions if i == 1)
        return Dice.of(b.base.repeat(hits)) if hits else 0
    return Dice.of(b.pool().positions(positions, order))


def _sides(value: Value) -> tuple[Die, str, int] | None:
    """The die ``d value`` throws, its name and sign for a label (``None``: a die without outcomes)."""
    if isinstance(value, Empty):
        return None
    if isinstance(value, int):
        if abs(value) > MAX_SIDES:
            raise DiceLimitError(N_("too many sides: {count} (at most {limit})"), count=value, limit=MAX_SIDES)
        if value == 0:
            return Die.constant(0), "{0..0}", 1
        die = Die.uniform(abs(value))
        return (die, str(value), 1) if value > 0 else (-die, str(-value), -1)
    if isinstance(value, tuple):
        if not value:
            return None
        for v in value:
            check_number(v)
        return Die.of(value), "{?}", 1
    name = value.name
    if value.count == 1 and name.startswith("d") and name[1:].isdigit():
        return value.base, name[1:], 1
    return value.total(), "{?}", 1


def _label(count: int, name: str, sign: int) -> str:
    if count == 0:
        return "d{0..0}"
    shown = f"{abs(count)}d{name}" if abs(count) != 1 else f"d{name}"
    negative = sign * (1 if count > 0 else -1) < 0 and not name.startswith("{")
    return "-" + shown if negative else shown


def roll(count: Value, sides: Value) -> Value:
    """``count d sides``: a pool of ``count`` dice (a die as the count: that many, for each of its outcomes)."""
    found = _sides(sides)
    if found is None:
        return BLANK
    if isinstance(count, Empty):
        return NULL
    die, name, sign = found
    if isinstance(count, tuple):
        count = sum(count)
    if isinstance(count, int):
        if abs(count) > MAX_DICE:
            raise DiceLimitError(N_("too many dice: {count} (at most {limit})"), count=count, limit=MAX_DICE)
        if count == 0:
            return Dice(Die.constant(0), 0, "d{0..0}")
        return Dice(die if count > 0 else -die, abs(count), _label(count, name, sign))
    assert isinstance(count, Dice)
    outcomes = count.total().items()
    if outcomes and max(abs(k) for k, _ in outcomes) > MAX_DICE:
        raise DiceLimitError(N_("too many dice: {count} (at most {limit})"), count=count.total().max(),
                             limit=MAX_DICE)
    return Dice.of(Die.mix(((die.repeat(k) if k >= 0 else -die.repeat(-k)), p) for k, p in outcomes))


def unary(op: str, a: Value) -> Value:
    """``op a`` for ``op`` one of :data:`UNARY`."""
    if op == "d":
        return roll(1, a)
    if op == "#":
        if isinstance(a, Empty):
            return 1 if a.null else 0
        if isinstance(a, int):
            return len(str(abs(a)))
        return len(a) if isinstance(a, tuple) else a.count
    if isinstance(a, Empty):
        return 1 if (a.null and op == "!") else a
    if isinstance(a, tuple):
        a = sum(a)
    if isinstance(a, int):
        return a if op == "+" else -a if op == "-" else int(a == 0)
    assert isinstance(a, Dice)
    if op == "+":
        return a
    if op == "-":
        return Dice(-a.base, a.count)
    total = a.total()
    return Dice.of(total.combine(0, lambda x, _y: (x == 0).astype(np.int64)))


BINARY = ("d", "@", "^", "*", "/", "+", "-", "=", "!=", "<", "<=", ">", ">=", "&", "|")
UNARY = ("-", "+", "!", "#", "d")
