"""A function enumerated over its arguments' values (a die given where a number or a sequence is asked) run for
every combination at once: its body read once over numpy arrays, one entry a call, instead of once a call.

Only what is sure to give each call's answer is read this way: a body of ``result:``, ``if`` / ``else`` and
assignments, whose expressions are numbers, parameters and variables, ``@`` of a sequence, ``#``, the arithmetic
``+ - * /``, the comparisons, ``& |`` and the unary operators, on numbers a die can hold. Anything else (a loop, a
call, a die, a division by zero, a number past :data:`~diceengine.limits.MAX_VALUE`, a variable that is not
there...) gives ``None``, and the interpreter calls the function once per combination as before: the same answers,
the same errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from diceengine.algebra import Die
from diceengine.errors import DiceError
from diceengine.lazy import np
from diceengine.limits import MAX_SIDES, MAX_VALUE
from diceengine.pmf import PMF

from .calls import Choices, Function
from .operators import MAX_NUMBER
from .tree import Assign, Binary, Expr, If, Name, Number, Result, Statement, Unary
from .values import BLANK, Dice, Value

__all__ = ["MAX_CELLS", "call"]

#: most numbers one argument's values may hold across every combination (past it: one call a combination)
MAX_CELLS = 4_000_000

_TESTS: dict[str, Callable[[Any, Any], Any]] = {
    "=": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
}


class _Unbatched(Exception):
    """The body holds something this module does not read: the function is called once per combination."""


class _Array:
    """A value in every call: a number (``array`` of one entry a call, or a 0-d array: the same in all) or a
    sequence (``seq``: one row a call, or one row for all)."""

    __slots__ = ("array", "seq")

    def __init__(self, array: Any, seq: bool = False) -> None:
        self.array = array
        self.seq = seq

    def number(self) -> Any:
        """The value where a number is asked (a sequence summed)."""
        if not self.seq:
            return self.array
        out = self.array.sum(axis=-1)
        _check(out)
        return out


def call(function: Function, per_argument: list[Choices], lookup: Callable[[str], Value]) -> Value | None:
    """The die of the enumerated call, every combination of the arguments' values at once; ``None`` when the
    body is not one this module reads (``lookup`` reads a variable that is not a parameter)."""
    if not all(per_argument):
        return None
    try:
        env, weights = _arguments(function.names, per_argument)
        run = _Run(env, lookup, len(weights))
        run.block(function.body.statements, np.ones(len(weights), dtype=bool))
    except (_Unbatched, DiceError):
        return None
    if not run.done.any():  # no call reached a result: each gives nothing
        return BLANK
    results, weights = run.result[run.done], weights[run.done]
    low, high = int(results.min()), int(results.max())
    if high - low < MAX_SIDES:  # the outcomes counted in place
        return Dice.of(Die(PMF(low, np.bincount(results - low, weights=weights))))
    outcomes, where = np.unique(results, return_inverse=True)  # a die this wide: refused as the calls would be
    chances = np.bincount(where.ravel(), weights=weights)
    return Dice.of(Die.from_weights(dict(zip(outcomes.tolist(), chances.tolist(), strict=True))))


class _Run:
    """The body's statements run for the calls of ``active`` (a mask): ``result`` holds each call's result
    where ``done`` is set; ``env`` the function's variables (its parameters first)."""

    def __init__(self, env: dict[str, _Array], lookup: Callable[[str], Value], calls: int) -> None:
        self.env, self.lookup = env, lookup
        self.result = np.zeros(calls, dtype=np.int64)
        self.done = np.zeros(calls, dtype=bool)

    def value(self, node: Expr) -> _Array:
        return _evaluate(node, self.env, self.lookup)

    def block(self, statements: tuple[Statement, ...], active: Any) -> None:
        for statement in statements:
            if not active.any():
                return
            if isinstance(statement, Result):
                value = np.broadcast_to(self.value(statement.value).number(), active.shape)
                _check(value)
                self.result = np.where(active, value, self.result)
                self.done = self.done | active
                return
            if isinstance(statement, If):
                self.branch(statement, active)
            elif isinstance(statement, Assign):
                self.assign(statement, active)
            else:
                raise _Unbatched
            active = active & ~self.done

    def branch(self, node: If, active: Any) -> None:
        condition = self.value(node.condition)
        if condition.seq:
            raise _Unbatched  # a sequence is no condition: the interpreter says so
        hold = np.broadcast_to(condition.array != 0, active.shape)
        self.block(node.then.statements, active & hold)
        rest = active & ~hold
        if isinstance(node.otherwise, If):
            self.branch(node.otherwise, rest)
        elif node.otherwise is not None:
            self.block(node.otherwise.statements, rest)

    def assign(self, node: Assign, active: Any) -> None:
        value, old = self.value(node.value), self.env.get(node.name)
        if old is None:
            if not (active | self.done).all():  # some calls would not have the variable
                raise _Unbatched
            self.env[node.name] = value
            return
        if old.seq != value.seq or (old.seq and old.array.shape[-1] != value.array.shape[-1]):
            raise _Unbatched
        mask = active[:, None] if old.seq else active
        self.env[node.name] = _Array(np.where(mask, value.array, old.array), old.seq)


def _arguments(names: tuple[str, ...], per_argument: list[Choices]) -> tuple[dict[str, _Array], Any]:
    """Each parameter's values across the combinations (itertools.product's order) and each combination's
    chance."""
    sizes = [len(c) for c in per_argument]
    total = math.prod(sizes)
    weights = np.ones(total)
    params: dict[str, _Array] = {}
    stride = total
    for name, size, values in zip(names, sizes, per_argument, strict=True):
        stride //= size
        index = np.arange(total) // stride % size
        weights = weights * np.array([w for _, w in values])[index]
        if name not in params:  # a name given twice: the first parameter's value
            array = _values([v for v, _ in values], total)[index]
            params[name] = _Array(array, array.ndim == 2)
    return params, weights


def _values(values: list[Value], total: int) -> Any:
    """One argument's values as an array (numbers: one entry each; sequences of one length: one row each)."""
    if all(type(v) is int for v in values):
        pass
    elif all(type(v) is tuple for v in values) and len({len(v) for v in values}) == 1:  # type: ignore[arg-type]
        if total * len(values[0]) > MAX_CELLS:  # type: ignore[arg-type]
            raise _Unbatched
    else:
        raise _Unbatched
    try:
        array = np.array(values, dtype=np.int64)
    except OverflowError:  # past 2**63: not a number a die holds
        raise _Unbatched from None
    _check(array)
    return array


def _check(array: Any) -> None:
    """Go on only with numbers a die can hold (and sequences whose sums cannot overflow)."""
    if array.size and (array.max() > MAX_VALUE or array.min() < -MAX_VALUE):
        raise _Unbatched
    if array.ndim == 2 and array.size and array.shape[1] * int(abs(array).max()) > 2**62:
        raise _Unbatched


def _evaluate(node: Expr, params: dict[str, _Array], lookup: Callable[[str], Value]) -> _Array:
    """The value of ``node`` in every call."""
    if isinstance(node, Number):
        return _constant(min(node.value, MAX_NUMBER))
    if isinstance(node, Name):
        found = params.get(node.name)
        return found if found is not None else _constant(lookup(node.name))
    if isinstance(node, Unary):
        return _unary(node.op, _evaluate(node.operand, params, lookup))
    if isinstance(node, Binary):
        left, right = _evaluate(node.left, params, lookup), _evaluate(node.right, params, lookup)
        return _binary(node.op, left, right)
    raise _Unbatched


def _constant(value: Value) -> _Array:
    """A number or a sequence that is the same in every call."""
    if type(value) is int:
        array = np.array(value, dtype=object)
    elif type(value) is tuple:
        array = np.array(value, dtype=object).reshape(1, -1)
    else:
        raise _Unbatched
    _check(array)
    return _Array(array.astype(np.int64), array.ndim == 2)


def _unary(op: str, a: _Array) -> _Array:
    if op == "#" and a.seq:
        return _Array(np.array(a.array.shape[-1]))
    if op == "#" and a.array.ndim == 0:
        return _Array(np.array(len(str(abs(int(a.array))))))
    if op in ("-", "+", "!"):
        x = a.number()
        return _Array(-x if op == "-" else x if op == "+" else (x == 0).astype(np.int64))
    raise _Unbatched


def _binary(op: str, a: _Array, b: _Array) -> _Array:
    test = _TESTS.get(op)
    if test is not None:
        if a.seq and b.seq:
            raise _Unbatched  # sequences compared as wholes
        if a.seq or b.seq:  # a sequence against a number: how many of its elements pass
            x, y = (a.array, b.array[..., None]) if a.seq else (a.array[..., None], b.array)
            return _Array(test(x, y).sum(axis=-1).astype(np.int64))
        return _Array(test(a.array, b.array).astype(np.int64))
    if op == "@" and not a.seq and b.seq:
        return _Array(_pick(a.array, b.array))
    if op in ("&", "|"):
        both = np.logical_and if op == "&" else np.logical_or
        return _Array(both(a.number() != 0, b.number() != 0).astype(np.int64))
    if op == "/":
        x, y = a.number(), b.number()
        if (y == 0).any():
            raise _Unbatched  # the interpreter says which call divides by zero
        q = np.abs(x) // np.abs(y)
        return _Array(np.where((x >= 0) == (y >= 0), q, -q))
    if op in ("+", "-", "*"):
        x, y = a.number(), b.number()
        if op == "*" and x.size and y.size and int(np.abs(x).max()) * int(np.abs(y).max()) > MAX_VALUE:
            raise _Unbatched
        out = x + y if op == "+" else x - y if op == "-" else x * y
        _check(out)
        return _Array(out)
    raise _Unbatched


def _pick(position: Any, rows: Any) -> Any:
    """The element at each 1-based ``position`` of each row, 0 past either end."""
    length = rows.shape[-1]
    if position.ndim == 0:  # the same position in every call
        at = int(position)
        return rows[:, at - 1] if 1 <= at <= length else np.zeros(rows.shape[:-1], dtype=np.int64)
    inside = (position >= 1) & (position <= length)
    if length == 0:
        return np.zeros(np.broadcast_shapes(position.shape, rows.shape[:-1]), dtype=np.int64)
    index = np.clip(position - 1, 0, length - 1)
    return np.where(inside, np.take_along_axis(np.broadcast_to(rows, (len(index), length)), index[:, None],
                                               axis=1)[:, 0], 0)
