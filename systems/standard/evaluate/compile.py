"""The syntax tree compiled into evaluators (:func:`compile_node`): one evaluator per node, chosen by its kind."""

from __future__ import annotations

from typing import Any

from diceengine import records as dataclasses
from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.errors import DiceError, DiceValueError
from diceengine.i18n import N_

from ..expressions import Call, Comparison, Decimal, FloorDiv, Group, Labelled, Mod, Pos, Pow
from ..nodes import Critical, Dice, Keep, Modifiers
from .arith import Binary, Function, Unary
from .base import Context, Evaluator
from .computed import MAX_COMPUTED_PAIRS, ComputedDice  # noqa: F401
from .criticals import CriticalGroup, conditioned, conditioned_cost  # noqa: F401
from .groups import GroupEval, LabelledGroup
from .leaves import (  # noqa: F401
    COSTING_GIVEN,
    CRITICALS_GIVEN,
    CRITICALS_SAMPLED,
    Const,
    CriticalTerm,
    ScaledTerm,
    Term,
)
from .pooled import pooled
from .terms import compile_term, decimal_scale

__all__ = ["Context", "Evaluator", "compile_node"]


_BINARY = {Add: "+", Sub: "-", Mul: "*", Div: "/", FloorDiv: "//", Mod: "%", Pow: "^"}

#: a stand-in for what a group's keep / drop cannot reach die by die (computed dice, a group of several items)
_OPAQUE = object()


def _rolls_of(node: Any, out: list) -> None:
    """The dice terms of ``node`` (:data:`_OPAQUE` for computed dice and groups of several items)."""
    if isinstance(node, Dice):
        out.append(_OPAQUE if node.computed else node)
    elif isinstance(node, Group):
        if len(node.exprs) == 1 and any(isinstance(m, Keep) for m in node.modifiers):
            _rolls_of(node.exprs[0], out)  # its keep / drop reach the same dice
        else:
            for e in node.exprs:
                found: list = []
                _rolls_of(e, found)
                if found:
                    out.append(_OPAQUE)
    elif isinstance(node, Call):
        for a in node.args:
            _rolls_of(a, out)
    elif isinstance(node, (Labelled,)):
        _rolls_of(node.term, out)
    elif hasattr(node, "operand"):
        _rolls_of(node.operand, out)
    elif hasattr(node, "left"):
        _rolls_of(node.left, out)
        _rolls_of(node.right, out)


def _paren_roll(node: Any, out: list) -> None:
    """The dice term a parenthesis holds, in d20's reading: itself, or that of the parenthesis it holds."""
    while isinstance(node, Labelled):
        node = node.term
    if isinstance(node, Dice) and not node.computed:
        out.append(node)
    elif isinstance(node, Group) and not node.brace and len(node.exprs) == 1 \
            and any(isinstance(m, Keep) for m in node.modifiers):
        _paren_roll(node.exprs[0], out)


def _one_roll(node: Group, ctx: Context) -> Evaluator | None:
    """A group or parenthesis holding one roll, with keep / drop: its keep / drop apply to that roll's dice
    (rpg-dice-roller: ``{4d6}kh2`` keeps the two highest dice; d20: ``(10d6kh5)kl2`` the two lowest of the
    dice still kept), the other modifiers to its total. None: the group keeps or drops its items."""
    if len(node.exprs) != 1 or not any(isinstance(m, Keep) for m in node.modifiers):
        return None
    found: list = []
    if node.brace:
        _rolls_of(node.exprs[0], found)
    else:  # d20: a parenthesis of dice is its dice; of any other expression, one item ("(1d6+1d4)kh1")
        _paren_roll(node.exprs[0], found)
    if not found:
        return None  # no dice: the item is kept or dropped whole ("(1)k2" is 0 in d20)
    keeps = [m for m in node.modifiers if isinstance(m, Keep)]
    rest = tuple(m for m in node.modifiers if not isinstance(m, Keep))
    item: Evaluator | None = None
    if node.brace and len(found) > 1:  # {4d10+5d6}k2: the two highest of the nine dice (rpg-dice-roller, Roll20)
        item = pooled(node, node.exprs[0], keeps, ctx, compile_node)
    if item is None and (len(found) > 1 or found[0] is _OPAQUE):
        raise DiceValueError(N_("keep / drop on a group holding one expression rank the dice of its dice terms when "
                                "they have no modifiers ({4d10+5d6}k2): this one holds other dice (write the keep / "
                                "drop on a dice term, or list the items: {4d6, 2d8}kh1)"),
                             ctx.expression,
                             keeps[0].pos or 0)
    if item is None:  # its keep / drop pushed down to its one dice term
        pushed = ctx.pushed.setdefault(id(found[0]), [])
        pushed.append(tuple(dataclasses.replace(k, fresh=i == 0) for i, k in enumerate(keeps)))
        item = compile_node(node.exprs[0], ctx)
    if not rest:
        return item
    return GroupEval([item], dataclasses.replace(node, items=[node.exprs[0], *rest]), ctx)


def _with_pushed(node: Dice, ctx: Context) -> Dice:
    """``node`` with the keep / drop of the groups holding it as their one roll, innermost first."""
    pushed = ctx.pushed.pop(id(node), None)
    if not pushed:
        return node
    keeps = [k for level in reversed(pushed) for k in level]
    return dataclasses.replace(node, modifiers=Modifiers(list(node.modifiers.items) + keeps))


def compile_node(node: Any, ctx: Context, label: str | None = None) -> Evaluator:
    """The evaluator of ``node`` (``label``: the label written right after it, for a dice term)."""
    t = type(node)
    if t is Number:
        return Const(node.value)
    if t is Decimal:
        return Const(node.value, node.text)
    if t is Dice:
        return _dice(node, ctx, label)
    if t in _BINARY:
        return Binary(_BINARY[t], compile_node(node.left, ctx), compile_node(node.right, ctx), node, ctx)
    if t is Comparison:
        return Binary(node.op, compile_node(node.left, ctx), compile_node(node.right, ctx), node, ctx)
    if t is Neg:
        return Unary("-", compile_node(node.operand, ctx))
    if t is Pos:
        return Unary("+", compile_node(node.operand, ctx))
    if t is Labelled:
        if type(node.term) is Dice:
            return compile_node(node.term, ctx, label=node.label)
        return LabelledGroup(compile_node(node.term, ctx), node.label)
    if t is Call:
        return Function(node.name, [compile_node(a, ctx) for a in node.args], node, ctx)
    if isinstance(node, Group):
        return _group(node, ctx)
    raise DiceError(N_("unexpected {kind} in a standard expression"), kind=t.__name__)


def _dice(node: Dice, ctx: Context, label: str | None) -> Evaluator:
    """The evaluator of a dice term: a slot of a pooled keep / drop, computed dice, a term (scaled for a decimal
    minimum / maximum), or a term with critical marks (followed by the context)."""
    if ctx.slots and id(node) in ctx.slots:  # a dice term of a pooled keep / drop ({4d10+5d6}k2)
        return ctx.slots[id(node)]
    if ctx.pushed:
        node = _with_pushed(node, ctx)
    scale = decimal_scale(node)
    if node.computed and scale != 1:
        raise DiceValueError(N_("a decimal minimum or maximum (max50.45) needs a whole number of dice and sides"),
                             ctx.expression, node.pos or 0)
    if node.computed:
        outer, ctx.marked = ctx.marked, []
        try:
            count = compile_node(node.count, ctx) if not isinstance(node.count, (int, type(None))) else None
            sides = compile_node(node.sides, ctx) if not isinstance(node.sides, (int, str, tuple)) else None
        finally:
            inner, ctx.marked = ctx.marked, outer
        if inner or any(isinstance(m, Critical) for m in node.modifiers.items):
            ctx.uncounted = True  # the dice thrown depend on the counts: not followed
        return ComputedDice(node, count, sides, label, ctx)
    term = compile_term(node, ctx.expression, label=label, dialect=ctx.dialect, explosions=ctx.explosions)
    if scale != 1:
        return ScaledTerm(term, compile_term(node, ctx.expression, label=label, dialect=ctx.dialect,
                                             explosions=ctx.explosions, scale=scale), scale)
    if term.spec.crit_success is None and term.spec.crit_failure is None:
        return Term(term)
    marked = CriticalTerm(term)
    ctx.marked.append(marked)
    return marked


def _group(node: Group, ctx: Context) -> Evaluator:
    """The evaluator of a group or a set: one roll, a group keeping every item, or one whose keep / drop follows its
    items' critical marks."""
    one = _one_roll(node, ctx)
    if one is not None:
        return one
    if not any(isinstance(m, Keep) for m in node.modifiers):  # every item kept: its marks count as they are
        return GroupEval([compile_node(e, ctx) for e in node.exprs], node, ctx)
    outer, item_marks, items = ctx.marked, [], []
    try:
        for e in node.exprs:
            ctx.marked = []
            items.append(compile_node(e, ctx))
            item_marks.append(ctx.marked)
    finally:
        ctx.marked = outer
    if not any(item_marks):
        return GroupEval(items, node, ctx)
    group = CriticalGroup(items, node, ctx, item_marks)
    ctx.marked.append(group)
    return group
