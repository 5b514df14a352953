"""Words of the rulesets' notations as their tables key them, shared by every ruleset that reads names
(the D6 ladders' difficulties, the FFG dice's names)."""

from __future__ import annotations

import unicodedata

__all__ = ["plain_word"]


def plain_word(word: str) -> str:
    """A word of a name as the ladders key it: lower case, accents dropped (``"Très"`` -> ``"tres"``)."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
