"""The commonest expressions read and prepared directly (:func:`read`): sums of whole numbers and plain dice
terms, ``NdM`` with at most one keep / drop (``1d20+5``, ``4d6kh3``, ``3d6+2d8-1``, ``d20 - 2``). A term may also carry,
before its keep / drop, one re-roll on a face (``r1``, ``ro1``) or a minimum (``mi2``) and a count of successes and
failures (``>=7``, ``>=7f1``): such an expression is read
here (the parser's tree, for a grammar's reading saved) and compiled by the general path (``build`` is ``None``:
:meth:`~.system.StandardSystem.prepare` lowers its modifiers, the one definition), its plan walked by the plan cache.

:func:`read` gives the very syntax tree the parser gives (positions included) and a builder of the very plan
the general path prepares from it (:meth:`~.system.StandardSystem.prepare`): the same evaluators, term and
spec, built without reading a grammar or every modifier. Anything else, and anything the general path could
refuse or read otherwise (a number out of bounds, too many dice, a bare ``k``, another dialect), is left to
the general path (``None``): errors are its own, word for word. ``tests/test_quick_path.py`` checks trees,
specs, rolls, texts and odds against the general path, seed for seed.

A plan built here also says its shape (:meth:`~.system.StandardPlan.footprint_shape`): plans of one shape
hold the same objects, only their texts and numbers differ, so that the plan cache measures one plan of each
shape and knows the size of the others (:mod:`diceengine.plan_cache`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from diceengine.ast import Add, Number, Sub
from diceengine.limits import MAX_DICE, MAX_EXPRESSION_LENGTH, MAX_SIDES
from diceengine.records import fields

from .evaluate.arith import Binary
from .evaluate.base import Context, Evaluator
from .evaluate.leaves import Const, Term
from .evaluate.terms import plain_term
from .nodes import Clamp, Compare, CountFailures, CountSuccesses, Dice, Keep, Modifiers, Reroll

__all__ = ["read", "reference"]

#: one item and the operator after it: a dice term ``[N]dM[keep N]`` or a whole number, blanks around (the
#: grammar's blanks: ``common.WS``); digits bounded so that no number reaches a limit of the general path
_ITEM = re.compile(r"[ \t\f\r\n]*(?:([0-9]{1,5})?[dD]([0-9]{1,7})(?:([rR][oO]?|[mM][iI])([0-9]{1,5}))?"
                   r"(?:([<>]=?|=)([0-9]{1,5})(?:[fF]([0-9]{1,5}))?)?"
                   r"(?:([kKdD][hHlL]?)([0-9]{1,5}))?|([0-9]{1,9}))[ \t\f\r\n]*([-+]?)", re.ASCII)
#: keep / drop as typed (lower case) -> its meaning in Roll20's reading (:data:`.nodes._KEEP_SPELLINGS`)
_KEEPS = {"k": "kh", "kh": "kh", "kl": "kl", "d": "dl", "dh": "dh", "dl": "dl"}
#: most items read here (the tree stays far from MAX_DEPTH)
_MOST_ITEMS = 12

#: an item of a shape: ("n",) a number, or ("d", how the count is written, the keep / drop as typed or "") for many
#: dice, ("d", how the count is written, the keep / drop, the count, the dice it keeps or drops) for a few
Shape = tuple[Any, ...]
#: a term of at most this many dice is a shape of its own for each count and keep / drop (its text is prepared for
#: them: :mod:`.term.text` writes up to 32 dice with one format, one format per die struck)
_FEW = 40


def _maker(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    """``make(*values)``: a node of ``cls`` (a frozen record, :mod:`diceengine.records`) with these field values,
    as ``cls(*values)`` builds it from values (not tokens: its ``__post_init__`` then changes nothing), its slots
    set directly; ``cls`` itself when its fields are not ``names`` (a node changed since: the constructor stays
    right)."""
    if tuple(f.name for f in fields(cls)) != names:
        return cls
    new = object.__new__
    slots = [getattr(cls, name) for name in names]  # the member descriptors of its slots

    def make(*values: Any) -> Any:
        node: Any = new(cls)
        for slot, value in zip(slots, values):
            slot.__set__(node, value)
        return node
    return make


_dice = _maker(Dice, ("count", "die", "sides", "modifiers", "pos"))
_keep = _maker(Keep, ("kind", "n", "point", "pos", "spelled", "fresh"))
_number = _maker(Number, ("value", "pos"))
_add = _maker(Add, ("left", "op", "right", "pos"))
_sub = _maker(Sub, ("left", "op", "right", "pos"))
#: the modifiers of a term without any (one node for all: nodes never change)
_NONE = Modifiers(())


def read(expression: str, options: Mapping[str, Any], plan: Callable[..., Any]) \
        -> tuple[Any, Callable[[], Any] | None, Shape] | None:
    """``(tree, build, shape)`` of an expression of the commonest shapes, else ``None``: ``tree`` is the
    parser's; ``build()`` prepares its plan (``plan(root, expression, None, bounds, shape)``, a
    :class:`~.system.StandardPlan`) as :meth:`~.system.StandardSystem.prepare` does (``None`` when the options
    ask for another reading or a term has a modifier but keep / drop: the general path prepares the tree)."""
    length = len(expression)
    if length > MAX_EXPRESSION_LENGTH:
        return None
    match = _ITEM.match
    pos = 0
    tree: Any = None
    op = ""
    op_pos = 0
    dice = 0
    shape: list[Any] = []
    items: list[tuple[Any, Any]] = []  # (node, keep or None); a number's keep is False
    general = False  # a modifier but keep / drop read: the general path compiles the tree (StandardSystem.prepare)
    while True:
        m = match(expression, pos)
        if m is None:
            return None
        groups = m.groups()
        if groups[1] is not None:
            term = _term(m, groups)
            if term is None:
                return None
            node, keep, count, item, modified = term
            dice += count
            general = general or modified
            shape.append(item)
        else:
            node = _number(int(groups[9]), m.start(10))
            keep = False
            shape.append(("n",))
        items.append((node, keep))
        if tree is None:
            tree = node
        else:
            tree = (_add if op == "+" else _sub)(tree, op, node, op_pos)
        pos, next_op = m.end(), groups[10]
        if not next_op:
            if pos != length:
                return None
            break
        if len(items) == _MOST_ITEMS:
            return None
        op, op_pos = next_op, m.start(11)
        shape.append(op)
    if dice == 0 or dice > MAX_DICE:
        return None
    if general or options.get("dialect", "roll20") != "roll20":
        return tree, None, ()
    found = tuple(shape)
    return tree, lambda: _build(tree, items, expression, options, found, plan), found


def _term(m: re.Match[str], groups: tuple[Any, ...]) -> tuple[Any, Any, int, tuple[Any, ...], bool] | None:
    """The dice term :data:`_ITEM` matched (``m``, its ``groups``): its node, its keep / drop (or ``None``), its
    number of dice, its item of the shape, and whether the general path compiles it (a modifier but keep / drop);
    ``None`` when the general path must read it (a number out of bounds, ``r1d1``)."""
    count_text, sides_text, mod_text, _, op_text, _, _, keep_text, keep_n, _, _ = groups
    sides = int(sides_text)
    count = 1 if count_text is None else int(count_text)
    if not 1 <= sides <= MAX_SIDES or count < 1:
        return None
    start = m.start(1) if count_text is not None else m.start(2) - 1
    keep: Keep | None = None
    if keep_text is not None:
        spelled = keep_text.lower()
        keep = _keep(_KEEPS[spelled], int(keep_n), None, m.start(8), spelled, False)
    else:
        spelled = ""
    modified = mod_text is not None or op_text is not None
    if modified:  # the tree read here, compiled by the general path
        if spelled == "d":  # ``r1d1``: the grammar refuses a bare ``d`` after another modifier (its error)
            return None
        mods = Modifiers(_modifiers(m, keep))
    else:
        mods = _NONE if keep is None else Modifiers((keep,))
    node = _dice(None if count_text is None else count, "d", sides, mods, start)
    if count > _FEW:
        item: tuple[Any, ...] = ("d", None if count_text is None else count == 1, spelled)
    else:  # a few dice: their text is prepared for their number and the ranks kept (.term.text)
        item = ("d", None if count_text is None else count == 1, spelled, count,
                min(int(keep_n), count) if keep_text is not None else 0)
    return node, keep, count, item, modified


def _build(tree: Any, items: list[tuple[Any, Any]], expression: str, options: Mapping[str, Any],
           shape: Shape, plan_class: Callable[..., Any]) -> Any:
    """The plan of a tree :func:`read` read, as :func:`~.evaluate.compile.compile_node` compiles it."""
    explosions = options.get("explosions", "unit")
    leaves: list[Evaluator] = []
    ranges: list[tuple[int, int]] = []  # each leaf's bounds (:meth:`Evaluator.bounds`, as the plan asks them)
    for node, keep in items:
        if keep is False:
            leaves.append(Const(node.value))
            ranges.append((node.value, node.value))
        else:
            count = 1 if node.count is None else node.count
            term = plain_term(node, count, node.sides, node.modifiers.items, None, explosions)
            leaves.append(Term(term))
            window = term.spec.window  # a plain term scores 0 to (the dice it keeps) x sides (.term.chains.bounds)
            ranges.append((0, (count if window is None else window[1] - window[0]) * node.sides))
    root = leaves[0]
    lo, hi = ranges[0]
    if len(leaves) > 1:
        ctx = Context(expression, options)
        nodes: list[Any] = []
        node = tree
        while len(nodes) < len(leaves) - 1:  # the operators, innermost (leftmost) first
            nodes.append(node)
            node = node.left
        nodes.reverse()
        for node, leaf, (a, b) in zip(nodes, leaves[1:], ranges[1:]):
            root = Binary(node.op, root, leaf, node, ctx)
            lo, hi = (lo + a, hi + b) if node.op == "+" else (lo - b, hi - a)
    # (within the engine's integer range: at most MAX_DICE dice of MAX_SIDES sides and _MOST_ITEMS numbers < 10**9)
    return plan_class(root, expression, None, (lo, hi), shape)


def _modifiers(m: re.Match[str], keep: Keep | None) -> tuple[Any, ...]:
    """A term's modifiers as the parser builds them from their tokens: a re-roll (``r1``, ``ro1``) or a minimum
    (``mi2``), a count of successes (``>=5``) and of failures (``f1``), the keep / drop, in this order."""
    found: list[Any] = []
    letters = m.group(3)
    if letters is not None:
        letters = letters.lower()
        n, pos = int(m.group(4)), m.start(3)
        found.append(Clamp("min", None, n, pos) if letters == "mi" else Reroll(letters, Compare.of("=", n), pos))
    if m.group(5) is not None:
        found.append(CountSuccesses((), Compare.of(m.group(5), int(m.group(6))), m.start(5)))
        if m.group(7) is not None:
            found.append(CountFailures("f", Compare.of("=", int(m.group(7))), m.start(7) - 1))
    if keep is not None:
        found.append(keep)
    return tuple(found)


def reference(shape: Shape, plan: Callable[..., Any]) -> Any:
    """A plan of ``shape`` whose numbers are all distinct and beyond the small integers Python shares: the largest a
    plan of this shape is, its texts aside (what the plan cache measures, :mod:`diceengine.plan_cache`, with what its
    terms make when first asked)."""
    parts = []
    for i, item in enumerate(shape):
        if item in ("+", "-"):
            parts.append(item)
        elif item[0] == "n":
            parts.append(str(100_000 + i))
        else:
            if len(item) == 3:
                _, one, spelled = item
                count = "" if one is None else "1" if one else str(600 + i)
                kept = 300 + i
            else:  # a few dice: their very number, and as many kept
                _, one, spelled, n, kept = item
                count = "" if one is None else str(n)
            parts.append(f"{count}d{1_000 + i}" + (f"{spelled}{kept}" if spelled else ""))
    found = read("".join(parts), {}, plan)
    assert found is not None and found[1] is not None and found[2] == shape
    return found[1]()
