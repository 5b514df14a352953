"""The die algebra: dice and pools as values, each operation written once.

A :class:`Die` is the exact distribution of one integer outcome; a :class:`Pool` is several dice thrown together.
Every operation returns a new value, so the standard notation, the rulesets and the AnyDice language compose
their dice from the same pieces:

- arithmetic between dice and numbers (``+ - * //``, ``abs``, unary ``-``), :meth:`Die.compare` (a die over
  {0, 1}), :meth:`Die.map`, :meth:`Die.mix`, :meth:`Die.repeat` (``NdM`` is ``Die.uniform(M).repeat(N)``); ``Pool.of(die, n)`` throws ``n`` copies together;
- a die changed: :meth:`Die.explode` (on a set of outcomes, to a depth or truncated; penetrating),
  :meth:`Die.reroll` (once, to a depth, until), :meth:`Die.clip`;
- a re-roll's three interpretations, written once in :mod:`.rerolls`: the roll step (a face thrown away and
  thrown again, once, until or to a cap, each face thrown away recorded), the sample step (numpy, the same rounds
  and cap) and the chances of the face kept (what :meth:`Die.reroll` and the standard notation's ``r`` / ``ro``
  read);
- a pool read: :meth:`Pool.sum`, :meth:`Pool.highest` / :meth:`Pool.lowest` / :meth:`Pool.middle` /
  :meth:`Pool.window` (keep and drop), :meth:`Pool.positions` (AnyDice's ``@``), :meth:`Pool.count`,
  :meth:`Pool.sorted_outcomes` (every sorted roll, for what reads a pool as a sequence);
- drawn (:mod:`.draws`): :meth:`Die.roll` / :meth:`Die.sample` (outcomes drawn from the exact distribution),
  :meth:`Pool.roll` / :meth:`Pool.sample` (each die's face in throw order) read by the keep readers of a
  :class:`PoolRoll` / :class:`PoolSample` (``highest``, ``lowest``, ``window``: the dice kept and their total), which
  dice a window of ranks keeps defined once for the exact odds, the roll and the sample (ties: the later die ranks
  higher);
- a count written once, in :mod:`.counts`: a :class:`Count` (successes, failures, doubled successes; a face
  meeting both tests a success) scores one face (a roll), an array (a sample) and a die exactly
  (:meth:`Die.count`, :meth:`Pool.count`, the standard notation's ``>=7f1``, ``dbl``, ``cs`` / ``cf``);
  :func:`point` is a comparison's test (``point(">=", 7)``);
- several pools read outcome by outcome (:mod:`~diceengine.algebra.multiset`): an :class:`Evaluator` updates a
  state from how many dice of each pool show each outcome, :func:`evaluate` gives the die of its result without
  listing the sorted rolls; :func:`compare_sorted` pairs two sorted pools rank by rank (icepool's RISK problem);
- :class:`SymbolDie`, :class:`SymbolPool`, :class:`Symbols`: dice whose faces are vectors of symbol counts (FFG's
  narrative dice, a d20 pool's successes and complications), a pool's sum as an exact joint distribution, maps
  (cancellation) and marginals (:mod:`.symbols`);
- :class:`Throw`: one die's throws as the three interpretations of an operation: a roll that records every face
  thrown, a numpy sample, and the exact die (an explosion chain is written once, here, for all three).

Exact operations check the work budget of :mod:`diceengine.limits` and raise
:class:`~diceengine.errors.DiceLimitError` past it, never hang.

Each name is imported from its module when first read (a ruleset using the symbol dice loads neither multiset
evaluation nor the throws).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .counts import Count, point
    from .die import COMPARISONS, Die, Operand, as_die
    from .draws import PoolRoll, PoolSample
    from .multiset import Evaluator, SortedPairs, compare_sorted, evaluate
    from .pool import Pool
    from .symbols import SymbolDie, SymbolPool, Symbols
    from .throw import Throw

__all__ = [
    "COMPARISONS", "Count", "Die", "Evaluator", "Operand", "Pool", "PoolRoll", "PoolSample", "SortedPairs", "SymbolDie",
    "SymbolPool", "Symbols", "Throw", "as_die", "compare_sorted", "evaluate", "point",
]

#: the module of each exported name
_MODULES = {"COMPARISONS": "die", "Count": "counts", "Die": "die", "Operand": "die", "as_die": "die",
            "point": "counts", "Evaluator": "multiset", "SortedPairs": "multiset", "compare_sorted": "multiset", "evaluate": "multiset", "Pool": "pool",
            "PoolRoll": "draws", "PoolSample": "draws",
            "SymbolDie": "symbols", "SymbolPool": "symbols", "Symbols": "symbols", "Throw": "throw"}


def __getattr__(name: str) -> Any:
    """An exported name, imported from its module on first use (then an attribute of the package)."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
