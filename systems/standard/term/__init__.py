"""The dice term of the standard notation (``NdM`` and its modifiers): one spec, its interpretations around it.

- :mod:`.spec`: :class:`TermSpec`, the term as data (a frozen dataclass of its modifiers, and the facts derived
  from them that the interpretations branch on); its module docstring says how the modifiers combine.
- :mod:`.faces`: a die's faces (ranges, never listed), the ranks keep / drop choose, the flags of a throw.
- :mod:`.chains`: the first face after re-rolls, explosion chains, the range of the score, the throws of a roll.
- :mod:`.scores`: what a face, a die, a unit scores; critical marks; the tally folding their counts in the score.
- :mod:`.roll`: one roll (:class:`~.roll.TermRoll`): the fast rollers the spec's flags choose, the general one.
- :mod:`.sample`: many rolls at once (numpy).
- :mod:`.exact`: the exact odds and their cost (:class:`~.exact.TermOdds`); :mod:`.each_die`: the same when
  keep / drop rank every die thrown (``explosions="dice"``).
- :mod:`.text`: a roll's text (plain, parts, compiled writers); :mod:`.dice`: its dice (``Die``) and their JSON.
- :mod:`.dice_term`: :class:`DiceTerm`, the spec and one object per interpretation, their entry points bound.

A dice node is read into a term by :func:`..evaluate.terms.compile_term`, above this package and the modifiers
(which lower into the spec): nothing here imports :mod:`..modifiers`.
"""

from .dice_term import DiceTerm
from .spec import TermSpec

__all__ = ["DiceTerm", "TermSpec"]
