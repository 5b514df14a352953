"""The evaluators of the standard notation: each node of the syntax tree with its three evaluations, the node
kinds filed by kin.

Every evaluator has

- ``roller()``: a constant (the node holds no dice) or a function ``(random, record) -> value`` that
  throws its dice once and appends ``(owner, data)`` pairs to ``record`` (owners explain their dice);
- ``sample(n, gen)``: a scalar or a numpy array of ``n`` values (vectorised);
- ``exact()``: the exact distribution (:mod:`..exact`: integer ``PMF`` or rational ``RationalPMF``);
- ``render(records)``: the node's text, reading the owners' data in the order they were recorded;
- ``bounds()``: the range ``(lo, hi)`` of its values, proved within the engine's integer rule
  (:func:`diceengine.arith.check_interval`, caret under the node) before anything is thrown;
- ``exact_cost()``: ``(cost, lo, hi)``, what ``exact()`` will cost (:class:`~diceengine.limits.Cost`) and
  the range of its support, estimated without computing it (the engine's work budget of exact odds).

Values are ``int``; with ``division="exact"`` a ``/`` keeps fractions (``fractions.Fraction``, never floats;
bulk samples of such expressions are float64 arrays).

Modules: :mod:`.compile` (the tree to evaluators: :func:`~.compile.compile_node`), :mod:`.base` (:class:`~.base.Context`,
the :class:`~.base.Evaluator` contract, shared cost helpers), :mod:`.leaves` (numbers, dice terms, dice terms with
critical marks), :mod:`.arith` (operators, functions), :mod:`.groups` (labels, ``{...}`` groups),
:mod:`.criticals` (critical marks inside groups that keep or drop), :mod:`.computed` (dice whose count or sides
are expressions), :mod:`.terms` (a dice node read into a term: its modifiers lowered by the modifier table).
"""

from .base import Context, Evaluator
from .compile import compile_node

__all__ = ["Context", "Evaluator", "compile_node"]
