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
  computed dice).
- :mod:`.selection`: d20's keep / drop operators (``dialect="d20"``), for terms and groups alike.
- :mod:`.exact`: exact distributions whose values may be fractions (``division="exact"``).

Adding a dice modifier: every file it touches
---------------------------------------------

1. ``grammars/standard.lark``: its rule among the dice modifiers.
2. :mod:`.nodes`: its node (a frozen dataclass named after the rule; it reads its tokens in ``__post_init__``).
3. :mod:`.term.spec`: its field(s) on :class:`~.term.TermSpec`, its semantics in the module docstring, and the
   derived flags (``flat``, ``plain``, ``explode_only``) if it must leave a fast path.
4. :mod:`.term.compile`: the node read into the field in :func:`~.term.compile_term`, what cannot be rolled
   refused there (with a caret), and its text in ``_term_text``.
5. :mod:`.term.roll`: how one roll throws and records it (``TermRoll.general``).
6. :mod:`.term.sample`: the same in bulk (``sample_general``).
7. :mod:`.term.exact`: its exact odds and their cost (``TermOdds.pmf``, ``TermOdds.exact_cost``);
   :mod:`.term.each_die` if it meets ``explosions="dice"``.
8. :mod:`.term.chains` if it changes how far the score reaches or how many dice are thrown (``bounds``,
   ``expected_throws``); :mod:`.term.scores` if it changes what a face scores or marks.
9. :mod:`.term.text` and :mod:`.term.dice` if its dice show differently (text, ``Die`` flags, JSON).
10. Tests (roll, sample and exact odds against an enumeration, a chi-square of samples against the odds) and the
    notation reference of the docs.
"""

from .system import ArithmeticPlan, CriticalOutcome, CriticalPlan, StandardOutcome, StandardPlan, StandardSystem

__all__ = ["ArithmeticPlan", "CriticalOutcome", "CriticalPlan", "StandardOutcome", "StandardPlan", "StandardSystem"]
