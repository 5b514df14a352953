"""The ``standard`` system: the dice notation of Roll20 and avrae's d20.

``NdM`` (``N`` optional), ``d%`` (1-100), ``dF`` (-1/0/+1); keep / drop ``khN klN dhN dlN`` (``kN`` is
``khN``); explode ``!`` (on the maximum), ``!>=N``, ``!N`` (on a face equal to N); compound ``!!``;
re-roll until ``r1``, ``r<2``, once ``ro1``, ``ro<2``; success counting ``8d10>=7`` (``>N <=N <N =N``)
with failures subtracted by ``f<=N`` and doubled successes ``dbl10``; labels ``3d6[fire]``; integer arithmetic ``+ - * /`` (division
rounds down) and parentheses around them. The outcome is the ``total``; with critical marks (``cs`` /
``cf``) also the counts of kept dice marked (:class:`CriticalOutcome`, see :class:`CriticalPlan`).

How modifiers combine is documented in :mod:`diceengine.systems.standard.term.spec`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cache, partial
from sys import getsizeof
from types import MappingProxyType
from typing import Any, ClassVar

import diceengine.systems.standard.expressions as expressions  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.systems.standard.nodes as nodes  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.systems.standard.quick as quick  # noqa: PLR0402 - the module itself, not its package's re-exports

from diceengine.distributions import Distribution
from diceengine.errors import DiceLimitError
from diceengine.hints import OPERATOR, TERMINAL_WORDS
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_DICE, PYTHON_STEP, Cost
from diceengine.parts import Group, Part
from diceengine.pmf import PMF
from diceengine.records import NamedTuple
from diceengine.registry import Option, Plan, System
from diceengine.rolls import Die

from ..symbols import D6_FACES, FUDGE_FACES
from .evaluate.arith import Binary
from .evaluate.base import INT_TEXT as ints
from .evaluate.base import faces_of, pieces
from .evaluate.compile import (
    CRITICALS_SAMPLED,
    Const,
    Context,
    CriticalGroup,
    CriticalTerm,
    Evaluator,
    Term,
    compile_node,
    conditioned,
    conditioned_cost,
)
from .exact import column, show
from .expressions import Described
from .modifiers import NODES, modifier_tokens, spellings

__all__ = ["ArithmeticPlan", "CriticalOutcome", "CriticalPlan", "StandardOutcome", "StandardPlan", "StandardSystem"]


class StandardOutcome(NamedTuple):
    """The outcome of a standard-notation roll."""

    total: int | Fraction | float
    """an ``int``; a ``fractions.Fraction`` with ``division="exact"`` or decimals (``1.5``); a ``float`` for a
    real function's value (``sqrt(2)``)"""


class CriticalOutcome(NamedTuple):
    """The outcome of a standard-notation roll whose dice carry critical marks (``cs`` / ``cf``)."""

    total: int | Fraction
    """as :class:`StandardOutcome`"""
    critical_successes: int | None = None
    """kept dice marked as critical successes (``None`` without a ``cs`` mark)"""
    critical_failures: int | None = None
    """kept dice marked as critical failures (``None`` without a ``cf`` mark)"""


#: bytes a plan built by :mod:`.quick` holds at most, its texts aside: ``(the plan, each term, each number and the
#: operator before it)``, what the plan cache counts it until it measures its shape (:mod:`diceengine.plan_cache`).
#: Measured on CPython 3.11 (every term, counts 1 to 45 and 100, each keep and drop, and what it makes when first
#: asked): a plan of one term at most 11.4 KB (32d6kh31; 4.7 KB for 1d6), a number 1.4 KB;
#: ``tests/test_plan_cache.py`` holds every term and many shapes under this bound.
QUICK_BYTES = (4096, 16384, 2048)

_new_tuple = tuple.__new__  # builds an outcome without the NamedTuple constructor's argument parsing


class StandardPlan(Plan):
    """A compiled standard expression (:mod:`.evaluate`): its three evaluations and its description."""

    outcome_type: type = StandardOutcome
    language_free = True  # numbers, operators and marks: the same text in every language
    #: the shape of a plan built by :mod:`.quick` (None: another plan)
    shape: tuple | None = None

    def __init__(self, root: Evaluator, expression: str, description: str | None,
                 bounds: tuple[Any, Any] | None = None, shape: tuple | None = None) -> None:
        self.root = root
        self.expression = expression
        self.description = description
        self.dice_per_roll = max(1, root.dice_count)
        # the engine's integer rule, proved before anything is thrown (``bounds``: what root.bounds() gives, known
        # to whoever built the plan: :mod:`.quick`)
        self.bounds = root.bounds() if bounds is None else bounds
        if shape is not None:
            self.shape = shape
        compiled = root.roller()
        if callable(compiled):
            self._roll = compiled
        else:
            value = compiled
            self._roll = lambda r, rec: value

    def roll(self, rng: Any) -> tuple[Any, list]:
        record: list = []
        return _new_tuple(StandardOutcome, (self._roll(rng.random, record),)), record

    def footprint_shape(self) -> tuple[Hashable, int, Callable[[], Any], int] | None:
        """``(shape, bytes of its texts, reference, bound)`` of a plan built by :mod:`.quick`: plans of one shape
        hold the same objects but their texts (the expression, each term's and number's), ``reference()`` is the
        largest plan of that shape, texts aside (:func:`.quick.reference`), and ``bound`` bytes more than any plan of
        the shape holds, texts aside (:data:`QUICK_BYTES`), known without building one; ``None`` for other plans
        (the plan cache measures them, :mod:`diceengine.plan_cache`)."""
        shape = self.shape
        if shape is None:
            return None
        texts = [self.expression]
        stack: list[Any] = [self.root]
        bound = QUICK_BYTES[0]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is Binary:
                stack += (node.left, node.right)
            elif kind is Term:
                spec = node.term.spec
                texts += (spec.text, spec.kind)
                bound += QUICK_BYTES[1]
            else:
                assert kind is Const
                texts.append(node.text)
                bound += QUICK_BYTES[2]
        return (("standard", shape), sum(map(getsizeof, texts)), partial(quick.reference, shape, type(self)),
                bound)

    def dice(self, record: list) -> list[Die]:
        if len(record) == 1:
            owner, data = record[0]
            return owner.dice(data)
        out: list[Die] = []
        for owner, data in record:
            out.extend(owner.dice(data))
        return out

    def dice_json(self, record: list) -> str:
        if len(record) == 1:
            owner, data = record[0]
            return owner.dice_json(data)
        return ",".join([text for owner, data in record if (text := owner.dice_json(data))])

    @property
    def expression(self) -> str:
        """The expression as spelt; a respelled copy (the plan cache's) sets its own, which its line follows."""
        return self._expression

    @expression.setter
    def expression(self, text: str) -> None:
        self._expression = text
        self.__dict__.pop("describe", None)  # the line compiled for the other spelling

    def describe(self, outcome: Any, record: list) -> str:
        # compiled on second use into a function of this plan (an attribute: later lines call it directly); the
        # first line is written by the tree (the same line: tests/test_fast_paths.py), so that an expression
        # rolled once does not pay for compiling its line
        if self.__dict__.get("_described"):
            self.describe = _describer(self.expression, self.root)  # type: ignore[method-assign,assignment]
            return self.describe(outcome, record)
        self._described = True
        total = outcome[0]
        return (f"{self.expression}: {self.root.render(iter(record))} = "
                f"{ints[total] if type(total) is int else show(total)}")

    def explain(self, outcome: Any, record: list) -> list[Part]:
        """The parts of the roll's text (:mod:`diceengine.parts`): the expression, every die, the result."""
        parts: list[Part] = [Group((self.expression,), "expression"), ": "]
        self.root.parts(iter(record), parts)
        parts += [" = ", Group((show(outcome.total),), "result")]
        return parts

    def explainer(self, text: Callable[[Any], str]) -> Callable[[Any, list], str]:
        """:meth:`explain` compiled: each node's texts asked once (:meth:`.evaluate.base.Evaluator.writer`)."""
        opening = text(Group((self.expression,), "expression")) + text(": ")
        root = self.root.writer(text)
        equals = text(" = ")
        results: dict[Any, str] = {}

        def write(outcome: Any, record: list) -> str:
            total = outcome.total
            result = results.get(total)
            if result is None:
                result = text(Group((show(total),), "result"))
                if len(results) < 1024:
                    results[total] = result
            return opening + root(iter(record)) + equals + result

        return write

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        total = self.root.sample(n, rng)
        if self.root.rational:
            return {"total": np.broadcast_to(np.asarray(total, dtype=np.float64), (n,)).copy()}
        total = np.broadcast_to(np.asarray(total, dtype=np.int64), (n,))
        return {"total": total if total.flags.writeable else total.copy()}

    def exact_cost(self) -> Cost:
        """What :meth:`distribution` will cost, estimated node by node without computing it."""
        return self.root.exact_cost()[0]

    def pmf(self) -> Any:
        """The exact distribution of the total (a ``PMF``, or a ``RationalPMF`` when it may be a fraction)."""
        return self.root.exact()

    def distribution(self) -> Distribution:
        values, chances = _rows(self.pmf())
        return Distribution(StandardOutcome, {"total": values}, chances, truncated=self.root.truncated())


ArithmeticPlan = StandardPlan


def _rows(exact: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(totals, chances)`` of an exact total: a ``PMF``'s arrays, or the items of a ``RationalPMF`` (fractions,
    or whole numbers held sparse)."""
    if isinstance(exact, PMF):
        return exact.values, exact.p
    items = exact.items()
    return column([v for v, _ in items]), np.array([p for _, p in items])


def _describer(expression: str, root: Evaluator) -> Callable[[Any, list], str]:
    """``(outcome, record) -> "1d20+5: [12] + 5 = 17"``: a plan's line with its fixed texts joined once
    (:func:`~.evaluate.base.pieces` of the root's template)."""
    slow = root.list_writer()

    def other(outcome: Any, record: list) -> str:  # any record, as render() writes it
        total = outcome[0]
        return f"{expression}: {slow(record)} = {ints[total] if type(total) is int else show(total)}"

    cut = pieces(root.template())
    if cut is None or len(cut[1]) > 2:
        return other
    literals, writers = cut
    head, last = f"{expression}: {literals[0]}", f"{literals[-1]} = "
    if not writers:
        head = f"{expression}: "

        def constant(outcome: Any, record: list) -> str:
            if record:
                return other(outcome, record)
            total = outcome[0]
            return f"{head}{last}{ints[total] if type(total) is int else show(total)}"
        return constant
    if len(writers) == 1:
        write = writers[0]
        faces = faces_of(write)
        if faces is not None:  # 1d20+5: one die, its text read directly
            def one_die(outcome: Any, record: list) -> str:
                if len(record) != 1:
                    return other(outcome, record)
                total, data = outcome[0], record[0][1]
                return (f"{head}{faces[data[0]] if len(data) == 1 else write(data)}{last}"
                        f"{ints[total] if type(total) is int else show(total)}")
            return one_die

        def one(outcome: Any, record: list) -> str:
            if len(record) != 1:
                return other(outcome, record)
            total = outcome[0]
            return f"{head}{write(record[0][1])}{last}{ints[total] if type(total) is int else show(total)}"
        return one
    (w1, w2), middle = writers, literals[1]

    def two(outcome: Any, record: list) -> str:
        if len(record) != 2:
            return other(outcome, record)
        total = outcome[0]
        return (f"{head}{w1(record[0][1])}{middle}{w2(record[1][1])}{last}"
                f"{ints[total] if type(total) is int else show(total)}")
    return two


class CriticalPlan(StandardPlan):
    """A standard expression with critical marks whose counts the outcome gives (:class:`CriticalOutcome`).

    A roll counts the marked dice it keeps; a sample counts them on the dice it throws; the exact odds are the
    joint distribution of the total and the counts: for each combination of the counts of the marked nodes
    (dice terms, :class:`~.evaluate.leaves.CriticalTerm`, and groups that keep or drop around marked dice,
    :class:`~.evaluate.criticals.CriticalGroup`; independent of each other), the expression's distribution given
    them, weighted by their probability (:func:`~.evaluate.criticals.conditioned`)."""

    outcome_type = CriticalOutcome

    def __init__(self, root: Evaluator, expression: str, description: str | None,
                 marked: Sequence[CriticalTerm | CriticalGroup]) -> None:
        super().__init__(root, expression, description)
        self.marked = list(marked)
        self.successes = any(m.marks[0] for m in self.marked)
        self.failures = any(m.marks[1] for m in self.marked)

    def _counts(self, cs: Any, cf: Any) -> tuple[Any, Any]:
        return (cs if self.successes else None), (cf if self.failures else None)

    def roll(self, rng: Any) -> tuple[Any, list]:
        record: list = []
        total = self._roll(rng.random, record)
        marks = [die.critical for die in self.dice(record) if die.kept]  # "match" (a matching term's) is neither
        return CriticalOutcome(total, *self._counts(marks.count("success"), marks.count("failure"))), record

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        token = CRITICALS_SAMPLED.set([])
        try:
            out = super().sample(n, rng)
            counts = CRITICALS_SAMPLED.get() or []
        finally:
            CRITICALS_SAMPLED.reset(token)
        cs = sum((np.broadcast_to(c, (n,)) for c, _ in counts), np.zeros(n, dtype=np.int64))
        cf = sum((np.broadcast_to(f, (n,)) for _, f in counts), np.zeros(n, dtype=np.int64))
        if self.successes:
            out["critical_successes"] = cs
        if self.failures:
            out["critical_failures"] = cf
        return out

    def exact_cost(self) -> Cost:
        """The marked nodes' joint odds, then the expression once per combination of their counts (each
        answer's rows gathered: as many as the expression's support)."""
        cost, combos, lo, hi = conditioned_cost(self.root, self.marked)
        rows = combos * (hi - lo + 1)
        per_row = PYTHON_STEP if self.root.rational else 8
        return cost + Cost(rows * per_row, 6 * rows)

    def distribution(self) -> Distribution:
        totals: list[Any] = []
        successes: list[np.ndarray] = []
        failures: list[np.ndarray] = []
        probs: list[np.ndarray] = []
        for cs, cf, weight, exact in conditioned(self.root, self.marked):
            values, chances = _rows(exact)  # a total of chance 0: left out by the Distribution
            totals.append(values)
            probs.append(weight * chances)
            successes.append(np.full(len(chances), cs, dtype=np.int64))
            failures.append(np.full(len(chances), cf, dtype=np.int64))
        total = np.concatenate(totals)
        columns: dict[str, np.ndarray] = {"total": total}
        if self.successes:
            columns["critical_successes"] = np.concatenate(successes)
        if self.failures:
            columns["critical_failures"] = np.concatenate(failures)
        # several marked nodes: two combinations may give the same counts (merged, for whole totals)
        return Distribution(CriticalOutcome, columns, np.concatenate(probs), truncated=self.root.truncated(),
                            merge=len(self.marked) > 1 and total.dtype != object)


#: what a syntax error calls a token that begins a modifier
_MODIFIER = N_("a modifier (kh3, dl1, !, r1, cs20, s...)")
#: what a syntax error calls the grammar's own tokens before the modifiers: first tokens that, expected together, are
#: one thing to a player (the sides of a die, an operator after a term), then a number, a die, a function, operators
_OPERANDS: Mapping[str, str] = {
    "INT PERCENT FUDGE": N_("the die's sides (6, %, F)"),
    "STAR PLUS MINUS PERCENT": OPERATOR,
    "DECIMAL": N_("a number"),
    "DIE": N_("a die (d6, d20...)"),
    "FUDGE": N_("F (Fudge dice)"),
    "FUNCTION": N_("a function (floor, max...)"),
    **dict.fromkeys(("DSLASH", "POW"), OPERATOR),
}
#: ... and after the modifiers (a comparison, though one begins a success count, keeps its words)
_AFTER_MODIFIERS: Mapping[str, str] = {
    "COMPARATOR": N_("a comparison (>=, >, <=, <, =)"),
    "LABEL": N_("a label in brackets ([fire])"),
    "DESCRIPTION": N_("a description (# a note)"),
    "_QUESTION": N_("a question P(...)"),
}


@cache
def _token_words() -> Mapping[str, str]:
    """:meth:`StandardSystem.token_words`, read once from the tables above, the modifier table and the grammar."""
    named = {*TERMINAL_WORDS, *_OPERANDS, *_AFTER_MODIFIERS}
    modifiers = {t: _MODIFIER for t in modifier_tokens() if t not in named}
    return MappingProxyType({**_OPERANDS, **modifiers, **_AFTER_MODIFIERS})


class StandardSystem(System):
    """Standard dice notation (Roll20 / d20 style)."""

    name = "standard"
    summary = N_("standard dice notation: NdM, d%, dF, keep/drop, explode, re-roll, success counts")
    symbols: ClassVar[dict[str, Any]] = {**D6_FACES, **FUDGE_FACES}
    examples = ("3d6+2", "4d6kh3", "1d6!", "8d10>=7f1", "2d20kl1+5", "3d6[fire] + 1d4", "4dF")
    grammar = "standard.lark"
    grammar_package = "diceengine.grammars"
    outcome = StandardOutcome
    options: ClassVar[Mapping[str, Option]] = {
        "division": Option("floor", N_("what / does: 'floor' rounds the quotient down (an integer total); 'exact' "
                           "keeps fractions, as d20, Roll20 and rpg-dice-roller do (exact rational odds)"),
                           choices=("floor", "exact")),
        "dialect": Option("roll20", N_("whose reading of the spellings two peers give two meanings: 'roll20' (kN keeps "
                          "the N highest) or 'd20' (avrae's d20: kN keeps the dice showing N, k<N / k>N / pN "
                          "select dice by value, consecutive k or p join)"), choices=("roll20", "d20")),
        "explosions": Option("unit", N_("what keep / drop ranks when dice explode: 'unit' (an exploding die and the "
                             "dice it adds, summed, are one) or 'dice' (every die thrown on its own, as d20 and "
                             "rpg-dice-roller do)"), choices=("unit", "dice")),
    }

    def ast_modules(self) -> Sequence[Any]:
        return (nodes, NODES, expressions)

    def modifier_letters(self) -> frozenset[str]:
        """The spellings in letters of the modifier table (``kh``, ``mt``, ``even``): what "did you mean" proposes,
        and words after a roll that are one of them are notation (:func:`.words.meant`, handed down by
        :meth:`.expressions.Described.meant`)."""
        return spellings()

    def token_words(self) -> Mapping[str, str]:
        """The words of the grammar's own tokens, in the order a syntax error lists them: the sides of a die and an
        operator after a term (tokens expected together), a number, a die, a function, the operators ``//`` and
        ``^``, then each token the rules of the modifier table begin with
        (:func:`.modifiers.modifier_tokens`), "a modifier", then a comparison (though one begins a success
        count), a label, a description, a question."""
        return _token_words()

    def quick(self, expression: str, options: Mapping[str, Any]) -> tuple[Any, Callable[[], Plan] | None, Any] | None:
        """The commonest expressions read and prepared directly (:func:`.quick.read`): ``(tree, build, shape)``
        or ``None`` (the parser and :meth:`prepare` read the expression; always for a subclass, whose grammar,
        nodes or plans may differ)."""
        if type(self) is not StandardSystem:
            return None
        return quick.read(expression, options, StandardPlan)

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        description = None
        if isinstance(tree, Described):
            description = tree.text or None
            tree = tree.expr
        ctx = Context(expression, options)
        root = compile_node(tree, ctx)
        if root.dice_count > MAX_DICE:
            raise DiceLimitError(N_("too many dice: {count} in one roll (at most {limit})"), expression, 0,
                                 count=root.dice_count, limit=MAX_DICE)
        if ctx.marked and not ctx.uncounted:
            return CriticalPlan(root, expression, description, ctx.marked)
        return StandardPlan(root, expression, description)
