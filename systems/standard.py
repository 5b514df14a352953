"""The ``standard`` system: the dice notation of Roll20 and avrae's d20.

``NdM`` (``N`` optional), ``d%`` (1-100), ``dF`` (-1/0/+1); keep / drop ``khN klN dhN dlN`` (``kN`` is
``khN``); explode ``!`` (on the maximum), ``!>=N``, ``!N`` (on a face equal to N); compound ``!!``;
re-roll until ``r1``, ``r<2``, once ``ro1``, ``ro<2``; success counting ``8d10>=7`` (``>N <=N <N =N``)
with failures subtracted by ``f<=N``; labels ``3d6[fire]``; integer arithmetic ``+ - * /`` (division
rounds down) and parentheses around them. The outcome is the ``total``.

How modifiers combine is documented in :mod:`diceengine.systems._dice_terms`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple, Sequence

import numpy as np

from diceengine.arith import Algebra, check_bounds, fold
from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.distributions import Distribution
from diceengine.errors import DiceError, DiceValueError
from diceengine.limits import MAX_DICE
from diceengine.i18n import N_
from diceengine.parts import Group, Part
from diceengine.pmf import PMF, arithmetic_cost
from diceengine.registry import Plan, System
from diceengine.rolls import Die

from . import _dice_ast
from ._symbols import D6_FACES, FUDGE_FACES
from ._dice_ast import Dice
from ._dice_terms import DiceTerm, compile_term

__all__ = ["StandardSystem", "StandardOutcome", "ArithmeticPlan"]


class StandardOutcome(NamedTuple):
    """The outcome of a standard-notation roll."""

    total: int


Roller = Callable[[Any, list], int]
_new_tuple = tuple.__new__  # builds an outcome without the NamedTuple constructor's argument parsing


class _LeafAlgebra(Algebra[Any]):
    """An algebra whose leaves (dice terms) are evaluated by a function of the node."""

    def __init__(self, leaf: Callable[[Any], Any], expression: str) -> None:
        self._leaf = leaf
        self.expression = expression

    def leaf(self, node: Any) -> Any:
        return self._leaf(node)


class _RollAlgebra(_LeafAlgebra):
    """Values are ints (constants, folded) or functions ``(random, record) -> int``."""

    def _binary(self, a: Any, b: Any, op: Callable[[int, int], int]) -> Any:
        if not callable(a) and not callable(b):
            return op(a, b)
        if not callable(b):
            return lambda r, rec: op(a(r, rec), b)
        if not callable(a):
            return lambda r, rec: op(a, b(r, rec))
        return lambda r, rec: op(a(r, rec), b(r, rec))

    def add(self, a: Any, b: Any, node: Any) -> Any:
        if callable(a) and not callable(b):  # the common "dice + modifier": one call less per roll
            return lambda r, rec: a(r, rec) + b
        return self._binary(a, b, int.__add__)

    def sub(self, a: Any, b: Any, node: Any) -> Any:
        return self._binary(a, b, int.__sub__)

    def mul(self, a: Any, b: Any, node: Any) -> Any:
        return self._binary(a, b, int.__mul__)

    def div(self, a: Any, b: Any, node: Any) -> Any:
        expression = self.expression

        def divide(x: int, y: int) -> int:
            if y == 0:
                raise DiceValueError("division by zero", expression, node.pos)
            return x // y
        return self._binary(a, b, divide)

    def neg(self, a: Any, node: Any) -> Any:
        return (lambda r, rec: -a(r, rec)) if callable(a) else -a


class _SampleAlgebra(_LeafAlgebra):
    """Values are ints or int64 arrays of the sample's length."""

    def div(self, a: Any, b: Any, node: Any) -> Any:
        if np.any(np.asarray(b) == 0):
            raise DiceValueError("division by zero", self.expression, node.pos)
        return np.floor_divide(a, b)


class _PMFAlgebra(_LeafAlgebra):
    """Values are exact distributions."""

    def number(self, value: int) -> PMF:
        return PMF.point(value)

    def add(self, a: PMF, b: PMF, node: Any) -> PMF:
        return a + b

    def sub(self, a: PMF, b: PMF, node: Any) -> PMF:
        return a - b

    def mul(self, a: PMF, b: PMF, node: Any) -> PMF:
        if len(a.p) == 1:
            return b.map(lambda v: v * a.offset)
        if len(b.p) == 1:
            return a.map(lambda v: v * b.offset)
        return a.combine(b, np.multiply)

    def div(self, a: PMF, b: PMF, node: Any) -> PMF:
        if b.prob(0) > 0:
            raise DiceValueError("division by zero is possible", self.expression, node.pos)
        with np.errstate(divide="ignore"):  # a zero inside b's support has no mass
            return a.combine(b, np.floor_divide)

    def neg(self, a: PMF, node: Any) -> PMF:
        return -a


class ArithmeticPlan(Plan):
    """An arithmetic expression whose leaves are the system's terms, each with a total.

    ``terms`` maps ``id(leaf node)`` to an object with ``bounds()``, ``roller()``, ``sample(n, gen)``,
    ``pmf()``, ``dice(data)`` and ``parts(data)``; the plan folds the arithmetic around them.
    ``bounds() -> (lo, hi)`` is the range of every score the term can produce: the plan proves the
    engine's integer rule with it (:func:`diceengine.arith.check_bounds`) before anything is thrown,
    so a new kind of term only has to say its range.
    """

    outcome_type = StandardOutcome

    def __init__(self, tree: Any, expression: str, terms: Mapping[Any, Any], dice_per_roll: int) -> None:
        self.tree = tree
        self.expression = expression
        self.terms = terms
        self.dice_per_roll = dice_per_roll
        self.bounds = check_bounds(tree, expression, lambda node: terms[id(node)].bounds())
        compiled = fold(tree, _RollAlgebra(lambda node: terms[id(node)].roller(), expression))
        if callable(compiled):
            self._roll = compiled
        else:
            value = compiled
            self._roll = lambda r, rec: value

    def roll(self, rng: Any) -> tuple[StandardOutcome, list]:
        record: list = []
        return _new_tuple(StandardOutcome, (self._roll(rng.random, record),)), record

    def dice(self, record: list) -> list[Die]:
        out: list[Die] = []
        for term, data in record:
            out.extend(term.dice(data))
        return out

    def explain(self, outcome: Any, record: list) -> list[Part]:
        parts: list[Part] = [Group((self.expression,), "expression"), ": "]
        _parts(self.tree, iter(record), parts)
        parts += [" = ", Group((str(outcome.total),), "result")]
        return parts

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        algebra = _SampleAlgebra(lambda node: self.terms[id(node)].sample(n, rng), self.expression)
        total = np.broadcast_to(np.asarray(fold(self.tree, algebra), dtype=np.int64), (n,))
        return {"total": total if total.flags.writeable else total.copy()}

    def pmf(self) -> PMF:
        return fold(self.tree, _PMFAlgebra(lambda node: self.terms[id(node)].pmf(), self.expression))

    def exact_cost(self) -> Any:
        """What :meth:`distribution` will cost (:func:`diceengine.pmf.arithmetic_cost` of the terms' ``exact_cost()``)."""
        return arithmetic_cost(self.tree, lambda node: self.terms[id(node)].exact_cost())

    def distribution(self) -> Distribution:
        pmf = self.pmf()
        truncated = sum(term.truncated_mass() for term in self.terms.values())
        return Distribution(StandardOutcome, {"total": pmf.values}, pmf.p, truncated=truncated)


_PRECEDENCE = {Add: 1, Sub: 1, Mul: 2, Div: 2, Neg: 3}
_SYMBOL = {Add: "+", Sub: "-", Mul: "*", Div: "/"}


def _parts(node: Any, groups: Any, out: list[Part]) -> None:
    t = type(node)
    if t is Number:
        out.append(str(node.value))
    elif t in _SYMBOL:
        mine = _PRECEDENCE[t]
        _wrapped(node.left, groups, out, _PRECEDENCE.get(type(node.left), 9) < mine)
        out.append(f" {_SYMBOL[t]} ")
        rp = _PRECEDENCE.get(type(node.right), 9)
        _wrapped(node.right, groups, out, rp < mine or (rp == mine and t in (Sub, Div)))
    elif t is Neg:
        out.append("-")
        _wrapped(node.operand, groups, out, _PRECEDENCE.get(type(node.operand), 9) < 3)
    else:
        term, data = next(groups)
        out.extend(term.parts(data))


def _wrapped(node: Any, groups: Any, out: list[Part], paren: bool) -> None:
    if paren:
        out.append("(")
    _parts(node, groups, out)
    if paren:
        out.append(")")


def leaves(tree: Any) -> list[Any]:
    """The non-arithmetic nodes of ``tree``, left to right."""
    found: list[Any] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        t = type(node)
        if t in _SYMBOL:
            stack.append(node.right)
            stack.append(node.left)
        elif t is Neg:
            stack.append(node.operand)
        elif t is not Number:
            found.append(node)
    return found


class StandardSystem(System):
    """Standard dice notation (Roll20 / d20 style)."""

    name = "standard"
    summary = N_("standard dice notation: NdM, d%, dF, keep/drop, explode, re-roll, success counts")
    symbols = {**D6_FACES, **FUDGE_FACES}
    examples = ("3d6+2", "4d6kh3", "1d6!", "8d10>=7f1", "2d20kl1+5", "3d6[fire] + 1d4", "4dF")
    grammar = "standard.lark"
    outcome = StandardOutcome
    options = {}

    def ast_modules(self) -> Sequence[Any]:
        return (_dice_ast,)

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        terms: dict[int, DiceTerm] = {}
        total_dice = 0
        for node in leaves(tree):
            if not isinstance(node, Dice):
                raise DiceError(f"unexpected {type(node).__name__} in a standard expression")
            term = compile_term(node, expression)
            terms[id(node)] = term
            total_dice += term.count
        if total_dice > MAX_DICE:
            from diceengine.errors import DiceLimitError

            raise DiceLimitError(N_("too many dice: {count} in one roll (at most {limit})"), expression, 0,
                                 count=total_dice, limit=MAX_DICE)
        return ArithmeticPlan(tree, expression, terms, total_dice)
