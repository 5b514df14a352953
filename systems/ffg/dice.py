"""The seven FFG narrative dice as die-algebra values (:mod:`diceengine.algebra.symbols`), and a pool of them.

Each die is a :class:`~diceengine.algebra.SymbolDie` whose faces count the symbols printed on them (:data:`PRINTED`:
success, failure, advantage, threat, triumph, despair, light, dark); cancellation is a map of each face
(:func:`cancel`) to the outcome's vector (net success, net advantage, triumph, despair, light, dark): a success is
+1 and a failure -1 on the first axis, an advantage +1 and a threat -1 on the second; a triumph also counts one
success and a despair one failure (each counted exactly once). Cancellation is linear, so a pool of cancelled dice
sums to the cancelled sum. A pool (:func:`pool`) rolls, samples and gives its exact distribution through the algebra.
"""

from __future__ import annotations

from collections.abc import Mapping

from diceengine.algebra import SymbolDie, SymbolPool
from diceengine.algebra.symbols import Vector
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import Cost

__all__ = [
    "DICE",
    "FACES",
    "FIELDS",
    "LETTERS",
    "MAX_POOL",
    "NARRATIVE",
    "ORDER",
    "PRINTED",
    "PRINTED_SYMBOLS",
    "SIDES",
    "SYMBOLS",
    "WORDS",
    "cancel",
    "face_symbols",
    "face_text",
    "face_vectors",
    "pool",
    "pool_arrays",
    "pool_cost",
]

#: most dice in one pool (a roll, a destiny pool)
MAX_POOL = 60

FIELDS = ("success", "advantage", "triumph", "despair", "light", "dark")

#: published faces (README of the rules): S success, F failure, A advantage, T threat,
#: R triumph, X despair, L light side point, D dark side point
FACES: dict[str, tuple[str, ...]] = {
    "boost": ("", "", "S", "SA", "AA", "A"),
    "setback": ("", "", "F", "F", "T", "T"),
    "ability": ("", "S", "S", "SS", "A", "A", "SA", "AA"),
    "difficulty": ("", "F", "FF", "T", "T", "T", "TT", "FT"),
    "proficiency": ("", "S", "S", "SS", "SS", "A", "SA", "SA", "SA", "AA", "AA", "R"),
    "challenge": ("", "F", "F", "FF", "FF", "T", "T", "FT", "FT", "TT", "TT", "X"),
    "force": ("D", "D", "D", "D", "D", "D", "DD", "L", "L", "LL", "LL", "LL"),
}
DICE = tuple(FACES)
SIDES = {die: len(faces) for die, faces in FACES.items()}
#: order dice are listed in, positive side first
ORDER = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback", "force")
LETTERS = {"ability": "a", "proficiency": "p", "boost": "b", "difficulty": "d", "challenge": "c",
           "setback": "s", "force": "f"}
_SYMBOL = {"S": "success", "F": "failure", "A": "advantage", "T": "threat", "R": "triumph", "X": "despair",
           "L": "light", "D": "dark"}
#: the human words of the narrative dice: die names and symbol names (messages of the catalogues)
WORDS = (N_("ability"), N_("proficiency"), N_("boost"), N_("difficulty"), N_("challenge"), N_("setback"),
         N_("force"), N_("success"), N_("failure"), N_("advantage"), N_("threat"), N_("triumph"), N_("despair"),
         N_("light"), N_("dark"))
#: Unicode symbols of the dice (their colours) and of the symbols on their faces, for the symbols renderer
SYMBOLS = {
    "ability": "🟩", "proficiency": "🟨", "boost": "🟦", "difficulty": "🟪", "challenge": "🟥", "setback": "⬛",
    "force": "⬜", "success": "✹", "failure": "✖", "advantage": "▲", "threat": "▼", "triumph": "⍟",
    "despair": "⊗", "light": "○", "dark": "●", "blank": "·",
}


#: the symbols printed on the faces, in the order of a printed die's vectors
PRINTED_SYMBOLS = ("success", "failure", "advantage", "threat", "triumph", "despair", "light", "dark")
#: each die with the symbols printed on its faces (a face counting each symbol it shows)
PRINTED = {die: SymbolDie.of(PRINTED_SYMBOLS, [{_SYMBOL[c]: face.count(c) for c in set(face)} for face in faces],
                             name=die, labels=[(die, i) for i in range(len(faces))])
           for die, faces in FACES.items()}


def cancel(printed: Vector) -> Vector:
    """Cancellation (text 004): the symbols of :data:`PRINTED_SYMBOLS` as the outcome's vector over :data:`FIELDS`
    (successes less failures, a triumph one more success and a despair one more failure; advantages less threats;
    triumphs, despairs and the Force points as they are). Linear: it maps a pool's sum as it maps each face."""
    success, failure, advantage, threat, triumph, despair, light, dark = printed
    return (success - failure + triumph - despair, advantage - threat, triumph, despair, light, dark)


#: each die with its faces cancelled: the vectors a pool sums
NARRATIVE = {die: d.map(cancel, FIELDS) for die, d in PRINTED.items()}


def face_vectors(die: str) -> np.ndarray:
    """``(sides, 6)`` array: the outcome vector of each face."""
    return NARRATIVE[die].vectors.copy()


def face_text(die: str, index: int) -> str:
    """The symbols of a face, in words (``"success + advantage"``, ``"blank"``)."""
    face = FACES[die][index]
    return " + ".join(_SYMBOL[c] for c in face) if face else "blank"


def face_symbols(die: str, index: int) -> tuple[str, ...]:
    """The names of the symbols of a face (``("success", "advantage")``; a blank face: ``()``)."""
    return tuple(_SYMBOL[c] for c in FACES[die][index])


def pool(counts: Mapping[str, int]) -> SymbolPool:
    """The pool of these dice (``{"ability": 2, ...}``), listed in :data:`ORDER` (the order they are thrown in)."""
    return SymbolPool([NARRATIVE[die] for die in ORDER for _ in range(counts.get(die, 0))])


def pool_arrays(counts: Mapping[str, int]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Exact distribution of a pool: columns of the six fields and the probabilities (one row an outcome)."""
    return pool(counts).sum().columns()


def pool_cost(counts: Mapping[str, int]) -> Cost:
    """What :func:`pool_arrays` will cost, from the dice counts alone (:meth:`SymbolPool.sum_cost`)."""
    return pool(counts).sum_cost()
