"""The dice term of the standard notation (``NdM`` and its modifiers): placeholder, see the guide below."""

from .compile import compile_term, keep_rule
from .dice_term import DiceTerm
from .spec import TermSpec

__all__ = ["DiceTerm", "TermSpec", "compile_term", "keep_rule"]
