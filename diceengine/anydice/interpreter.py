"""Runs an AnyDice program: its statements in order, its variables (scoped as AnyDice scopes them: a function
sees its caller's), its functions and the library's, its settings, and the outputs it makes; within the engine's
budget (steps, function depth, sequence sizes), refused with the engine's limit error past it, never a hang."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from typing import Any

from diceengine.algebra import Die
from diceengine.errors import DiceError, DiceLimitError, DiceValueError
from diceengine.i18n import N_

from .batch import call as batched_call
from .calls import Function, choices, combinations, mix_results
from .errors import located
from .library import library
from .operators import MAX_NUMBER, binary, unary
from .settings import Settings
from .tree import (
    Assign,
    Binary,
    Call,
    Expr,
    FunctionDef,
    If,
    Item,
    Loop,
    Name,
    Number,
    Program,
    Result,
    Sequence,
    Set,
    Statement,
    Unary,
)
from .tree import (
    Output as OutputStatement,
)
from .values import BLANK, Dice, Empty, Value, describe, output_die, sum_of, type_name

__all__ = ["MAX_FUNCTION_DEPTH", "MAX_SEQUENCE", "MAX_STEPS", "Interpreter", "Output", "Settings"]

#: most steps (statements run, functions called) one program may take
MAX_STEPS = 500_000
#: highest "maximum function depth" a program may set
MAX_FUNCTION_DEPTH = 100
#: most elements one sequence may hold
MAX_SEQUENCE = 100_000
#: Python frames a run may nest (calls and expressions deep inside calls)
RECURSION = 20_000
#: results of calls kept for reuse
MAX_MEMO = 200_000

_LABEL_NAME = re.compile(r"\[([A-Z_]+)\]")


class Output:
    """One output of a program: its label and its die (``None`` when AnyDice shows nothing)."""

    __slots__ = ("die", "label")

    def __init__(self, label: str, die: Die | None) -> None:
        self.label = label
        self.die = die

    def __repr__(self) -> str:
        return f"Output({self.label!r}, {self.die!r})"


class _Returned(Exception):
    """``result:`` reached: carries the function's value out of its blocks."""

    def __init__(self, value: Value) -> None:
        self.value = value


class Interpreter:
    """One run of one program."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.settings = Settings()
        self.functions = library()
        self.frames: list[dict[str, Value]] = [{}]
        self.outputs: list[Output] = []
        self.depth = 0
        self.steps = 0
        self.version = 0  # changes when a function is (re)defined: calls remembered before are stale
        self.memo: dict[Any, Value] = {}
        self.free_names: set[str] = set()
        self._expr: dict[type, Callable[[Any], Value]] = {Number: self._number, Name: self._name, Sequence: self._sequence, Unary: self._unary,
                      Binary: self._binary, Call: self._call}
        self._stmt: dict[type, Callable[[Any], None]] = {Assign: self._assign, OutputStatement: self._output, Result: self._result,
                      FunctionDef: self._define, If: self._if, Loop: self._loop, Set: self._set}

    # ------------------------------------------------------------ running
    def run(self) -> list[Output]:
        """Run the program; its outputs in order."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION))
        try:
            self._block(self.program.statements)
        except _Returned as returned:
            raise self._at(DiceValueError(N_("result: outside a function")), returned.value) from None
        except RecursionError:
            raise DiceLimitError(N_("this program nests its calls and expressions too deeply (deeper than {limit} "
                                    "Python frames)"), limit=RECURSION) from None
        finally:
            sys.setrecursionlimit(limit)
        return self.outputs

    def _at(self, err: DiceError, node: Any) -> DiceError:
        """``err`` located at ``node`` (a line and a caret), unless it already is."""
        if err.expression is not None:
            return err
        return located(type(err), err.template, self.program.text, int(getattr(node, "pos", 0)), **err.params)

    def _step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise DiceLimitError(N_("this program takes more than {limit} steps"), limit=MAX_STEPS)

    def _block(self, statements: tuple[Statement, ...]) -> None:
        for statement in statements:
            self._step()
            try:
                self._stmt[type(statement)](statement)
            except DiceError as err:
                raise self._at(err, statement) from None

    # ------------------------------------------------------------ statements
    def _assign(self, node: Assign) -> None:
        self.frames[-1][node.name] = self.evaluate(node.value)

    def _output(self, node: OutputStatement) -> None:
        if self.depth:
            raise DiceValueError(N_("output inside a function"))
        value = self.evaluate(node.value)
        label = f"output {len(self.outputs) + 1}" if node.label is None else self._label(node.label)
        self.outputs.append(Output(label, output_die(value)))

    def _label(self, text: str) -> str:
        return _LABEL_NAME.sub(lambda m: describe(self.lookup(m.group(1))), text)

    def _result(self, node: Result) -> None:
        if not self.depth:
            raise DiceValueError(N_("result: outside a function"))
        raise _Returned(self.evaluate(node.value))

    def _define(self, node: FunctionDef) -> None:
        if self.depth:
            raise DiceValueError(N_("a function can only be defined outside functions"))
        params = node.params
        self.functions[node.key] = Function(node.key, tuple(p.name for p in params), tuple(p.type for p in params),
                                            body=node.body)
        self.free_names |= _names_read(node.body)
        self.version += 1

    def _if(self, node: If) -> None:
        condition = self.evaluate(node.condition)
        if not isinstance(condition, int):
            raise DiceValueError(N_("a condition is a number, not {got}"), got=[type_name(condition)])
        if condition:
            self._block(node.then.statements)
        elif isinstance(node.otherwise, If):
            self._step()
            self._if(node.otherwise)
        elif node.otherwise is not None:
            self._block(node.otherwise.statements)

    def _loop(self, node: Loop) -> None:
        over = self.evaluate(node.over)
        if isinstance(over, int):
            over = (over,)
        if not isinstance(over, tuple):
            raise DiceValueError(N_("a loop goes over a sequence, not {got}"), got=[type_name(over)])
        for value in over:
            self.frames[-1][node.name] = value
            self._block(node.body.statements)

    def _set(self, node: Set) -> None:
        if self.depth:
            raise DiceValueError(N_("set inside a function"))
        value = node.value if isinstance(node.value, str) else self.evaluate(node.value)
        if node.setting == "position order" and value in ("highest first", "lowest first"):
            self.settings.order = str(value).split()[0]
        elif node.setting in ("explode depth", "maximum function depth") and isinstance(value, (int, tuple)):
            number = sum_of(value)
            if number < 0:
                raise DiceValueError(N_("{setting} is a number at least 0, not {got}"), setting=node.setting,
                                     got=number)
            if node.setting == "explode depth":
                if number > 200:
                    raise DiceLimitError(N_("{setting} is at most {limit}"), setting=node.setting, limit=200)
                self.settings.explode_depth = number
            else:
                if number > MAX_FUNCTION_DEPTH:
                    raise DiceLimitError(N_("{setting} is at most {limit}"), setting=node.setting,
                                         limit=MAX_FUNCTION_DEPTH)
                self.settings.max_depth = number
        else:
            raise DiceValueError(N_("unknown setting {setting} or value {got}"), setting=repr(node.setting),
                                 got=repr(value) if isinstance(value, str) else describe(value))

    # ------------------------------------------------------------ expressions
    def evaluate(self, node: Expr) -> Value:
        """The value of an expression."""
        try:
            return self._expr[type(node)](node)
        except DiceError as err:
            raise self._at(err, node) from None

    def lookup(self, name: str) -> Value:
        """A variable's value: the innermost frame that has it (a function sees its caller's variables)."""
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        raise DiceValueError(N_("unknown variable {name}"), name=name)

    def _number(self, node: Number) -> Value:
        return min(node.value, MAX_NUMBER)

    def _name(self, node: Name) -> Value:
        return self.lookup(node.name)

    def _sequence(self, node: Sequence) -> Value:
        out: list[int] = []
        for item in node.items:
            out.extend(self._item(item))
            if len(out) > MAX_SEQUENCE:
                raise DiceLimitError(N_("a sequence of more than {limit} elements"), limit=MAX_SEQUENCE)
        return tuple(out)

    def _item(self, item: Item) -> list[int]:
        value = self.evaluate(item.value)
        if item.upto is not None:
            lo, hi = self._bound(value), self._bound(self.evaluate(item.upto))
            if hi - lo + 1 > MAX_SEQUENCE:
                raise DiceLimitError(N_("a sequence of more than {limit} elements"), limit=MAX_SEQUENCE)
            values = list(range(lo, hi + 1))
        elif isinstance(value, int):
            values = [value]
        elif isinstance(value, tuple):
            values = list(value)
        elif isinstance(value, Dice):
            values = value.total().outcomes()
        else:
            values = []
        if item.repeat is None:
            return values
        times = self.evaluate(item.repeat)
        if not isinstance(times, (int, tuple)):
            raise DiceValueError(N_("a repetition is a number, not {got}"), got=[type_name(times)])
        times = max(0, sum_of(times))
        if len(values) * times > MAX_SEQUENCE:
            raise DiceLimitError(N_("a sequence of more than {limit} elements"), limit=MAX_SEQUENCE)
        return values * times

    def _bound(self, value: Value) -> int:
        if isinstance(value, (Dice, Empty)):
            raise DiceValueError(N_("a range is between numbers, not {got}"), got=[type_name(value)])
        return sum_of(value)

    def _unary(self, node: Unary) -> Value:
        return unary(node.op, self.evaluate(node.operand))

    def _binary(self, node: Binary) -> Value:
        return binary(node.op, self.evaluate(node.left), self.evaluate(node.right), self.settings.order)

    # ------------------------------------------------------------ calls
    def _call(self, node: Call) -> Value:
        function = self.functions.get(node.key)
        if function is None:
            shown = " ".join(p if isinstance(p, str) else "?" for p in node.parts)
            raise DiceValueError(N_("no function [{name}]"), name=shown)
        args = [self.evaluate(a) for a in node.arguments]
        if self.depth >= self.settings.max_depth:
            return BLANK
        self._step()
        order = self.settings.order
        per_argument = [choices(kind, value, order) for kind, value in zip(function.types, args, strict=True)]
        if all(len(c) == 1 and c[0][1] == 1.0 for c in per_argument):
            return self._invoke(function, tuple(c[0][0] for c in per_argument))
        calls = math.prod(len(c) for c in per_argument)
        if calls + self.steps > MAX_STEPS:
            raise DiceLimitError(N_("this program takes more than {limit} steps"), limit=MAX_STEPS)
        if function.body is not None:
            found = batched_call(function, per_argument, self.lookup)
            if found is not None:  # every call at once: each counts two steps, as a call and its result would
                self._step(2 * calls)
                return found
        results = [(self._invoke(function, values), weight) for values, weight in combinations(per_argument)]
        return mix_results(results)

    def _invoke(self, function: Function, values: tuple[Value, ...]) -> Value:
        key = self._memo_key(function, values)
        found = self.memo.get(key) if key is not None else None
        if found is not None:
            return found
        self._step()
        if function.builtin is not None:
            result = function.builtin(self.settings, *values)
        else:
            result = self._run(function, values)
        if key is not None:
            if len(self.memo) >= MAX_MEMO:
                self.memo.clear()
            self.memo[key] = result
        return result

    def _memo_key(self, function: Function, values: tuple[Value, ...]) -> Any:
        """What a call's result depends on: the function and its arguments, the depth, the settings, the functions
        defined, and every variable a function of the program reads (AnyDice's functions see their callers')."""
        seen = tuple(self._peek(name) for name in sorted(self.free_names)) if function.body is not None else ()
        return (id(function), self.version, self.depth, self.settings.key(), values, seen)

    def _peek(self, name: str) -> Any:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def _run(self, function: Function, values: tuple[Value, ...]) -> Value:
        frame: dict[str, Value] = {}
        for name, value in reversed(list(zip(function.names, values, strict=True))):
            frame[name] = value  # a name given twice: the first parameter's value
        self.frames.append(frame)
        self.depth += 1
        try:
            self._block(function.body.statements)
        except _Returned as returned:
            return returned.value
        finally:
            self.frames.pop()
            self.depth -= 1
        return BLANK


def _names_read(node: Any) -> set[str]:
    """Every variable name an expression or block reads (walked without recursion)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Name):
            found.add(item.name)
        elif isinstance(item, tuple):
            stack.extend(item)
        elif hasattr(item, "__slots__") and type(item).__module__ == Name.__module__:
            stack.extend(getattr(item, name) for name in type(item).__slots__ if name != "pos")
    return found
