"""The syntax tree compiled into evaluators (:func:`compile_node`): one evaluator per node, chosen by its kind."""

from __future__ import annotations

from typing import Any

from diceengine.ast import Add, Div, Mul, Neg, Number, Sub
from diceengine.errors import DiceError

from ..nodes import (
    Call,
    Comparison,
    Critical,
    Dice,
    FloorDiv,
    Group,
    Keep,
    Labelled,
    Mod,
    Pos,
    Pow,
)
from ..term import compile_term
from .arith import Binary, Function, Unary
from .base import Context, Evaluator
from .computed import MAX_COMPUTED_PAIRS, ComputedDice  # noqa: F401
from .criticals import CriticalGroup, conditioned, conditioned_cost  # noqa: F401
from .groups import GroupEval, LabelledGroup
from .leaves import COSTING_GIVEN, CRITICALS_GIVEN, CRITICALS_SAMPLED, Const, CriticalTerm, Term  # noqa: F401

__all__ = ["Context", "Evaluator", "compile_node"]


_BINARY = {Add: "+", Sub: "-", Mul: "*", Div: "/", FloorDiv: "//", Mod: "%", Pow: "^"}


def compile_node(node: Any, ctx: Context, label: str | None = None) -> Evaluator:
    """The evaluator of ``node`` (``label``: the label written right after it, for a dice term)."""
    t = type(node)
    if t is Number:
        return Const(node.value)
    if t is Dice:
        if node.computed:
            outer, ctx.marked = ctx.marked, []
            try:
                count = compile_node(node.count, ctx) if not isinstance(node.count, (int, type(None))) else None
                sides = compile_node(node.sides, ctx) if not isinstance(node.sides, (int, str)) else None
            finally:
                inner, ctx.marked = ctx.marked, outer
            if inner or any(isinstance(m, Critical) for m in node.modifiers.items):
                ctx.uncounted = True  # the dice thrown depend on the counts: not followed
            return ComputedDice(node, count, sides, label, ctx)
        term = compile_term(node, ctx.expression, label=label, dialect=ctx.dialect, explosions=ctx.explosions)
        if term.spec.crit_success is None and term.spec.crit_failure is None:
            return Term(term)
        marked = CriticalTerm(term)
        ctx.marked.append(marked)
        return marked
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
    raise DiceError(f"unexpected {t.__name__} in a standard expression")
