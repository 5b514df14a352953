"""The ``standard`` system: standard dice notation (Roll20 / avrae's d20): ``3d6+2``, ``4d6kh3``, ``8d10>=7f1``.

Where things are:

- :mod:`.system`: :class:`StandardSystem` (its options), the plans (:class:`StandardPlan`,
  :class:`CriticalPlan`) and the outcomes (:class:`StandardOutcome`, :class:`CriticalOutcome`).
- :mod:`.nodes`: the syntax-tree nodes of the dice term and its modifiers, one frozen dataclass per rule of
  ``grammars/standard.lark``; :mod:`.expressions`: the nodes around the terms (descriptions, operators, labels,
  calls, groups and sets).
- :mod:`.term`: one dice term (``NdM`` and its modifiers): :class:`~.term.TermSpec` (the data) and its
  interpretations, one module each (roll, sample, exact odds, every die ranked, text, dice); see its guide.
- :mod:`.evaluate`: the tree compiled into evaluators, each kind of node with its three evaluations (roll,
  sample, exact odds), its text and its bounds, filed by kin (leaves, arithmetic, groups, critical marks,
  computed dice); a dice node read into a term (:mod:`.evaluate.terms`: its modifiers lowered by their table).
- :mod:`.selection`: d20's keep / drop operators (``dialect="d20"``), for terms and groups alike.
- :mod:`.exact`: exact distributions whose values may be fractions (``division="exact"``).

- :mod:`.modifiers`: each modifier of the dice term one class (its letters, its node, its text, its lowering to
  the term's spec) in one table, and the one slot of a plug-in's modifier (:class:`~.modifiers.FaceMap`).

Imports flow one way: the nodes, then the term (its spec and interpretations), the modifiers (which lower into
the spec), the evaluators (which read a dice node into a term through the modifiers), the system;
``tests/test_core_layers.py`` holds it.

Adding a dice modifier: ``docs/contributing.md`` ("Adding a modifier") has the checklist: its grammar rule, its
node, its class in :mod:`.modifiers`, its docs row and its tests (and, only when it needs a field of the spec the
interpretations do not read yet, that field and its reading in :mod:`.term`).
"""

from .system import ArithmeticPlan, CriticalOutcome, CriticalPlan, StandardOutcome, StandardPlan, StandardSystem

__all__ = ["ArithmeticPlan", "CriticalOutcome", "CriticalPlan", "StandardOutcome", "StandardPlan", "StandardSystem"]
