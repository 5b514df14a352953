"""The seven FFG narrative dice: face tables and the exact distribution of a pool.

Each face is a vector (net success, net advantage, triumph, despair, light, dark): a success is
+1 and a failure -1 on the first axis, an advantage +1 and a threat -1 on the second; a triumph
also counts one success and a despair one failure (each counted exactly once).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import comb

import numpy as np

from diceengine.i18n import N_
from diceengine.limits import NUMPY_CALL, PYTHON_STEP, Cost

__all__ = [
    "DICE",
    "FACES",
    "FIELDS",
    "LETTERS",
    "MAX_POOL",
    "ORDER",
    "SIDES",
    "SYMBOLS",
    "WORDS",
    "face_symbols",
    "face_text",
    "face_vectors",
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


def _vector(face: str) -> tuple[int, int, int, int, int, int]:
    s = face.count("S") - face.count("F") + face.count("R") - face.count("X")
    a = face.count("A") - face.count("T")
    return (s, a, face.count("R"), face.count("X"), face.count("L"), face.count("D"))


def face_vectors(die: str) -> np.ndarray:
    """``(sides, 6)`` array: the outcome vector of each face."""
    return np.array([_vector(f) for f in FACES[die]], dtype=np.int64)


VECTORS = {die: face_vectors(die) for die in DICE}

#: what a face adds to each symbol of :data:`FIELDS` lies in ``-PACK_BIAS .. PACK_BIAS``
PACK_BIAS = 2
#: most dice whose symbols sum in packed form: a byte per symbol holds ``2 * PACK_BIAS`` per die
PACK_MAX_DICE = 255 // (2 * PACK_BIAS)


def packed_faces(die: str) -> np.ndarray:
    """``(sides,)`` int64: each face's vector packed a byte per symbol of :data:`FIELDS` (the first in the lowest
    byte), each value plus :data:`PACK_BIAS`: the sum of the packed faces of up to :data:`PACK_MAX_DICE` dice is
    the packed sum of their vectors, plus the bias once per die."""
    vectors = face_vectors(die) + PACK_BIAS
    return (vectors << (8 * np.arange(len(FIELDS), dtype=np.int64))).sum(axis=1)


PACKED = {die: packed_faces(die) for die in DICE}


def face_text(die: str, index: int) -> str:
    """The symbols of a face, in words (``"success + advantage"``, ``"blank"``)."""
    face = FACES[die][index]
    return " + ".join(_SYMBOL[c] for c in face) if face else "blank"


def face_symbols(die: str, index: int) -> tuple[str, ...]:
    """The names of the symbols of a face (``("success", "advantage")``; a blank face: ``()``)."""
    return tuple(_SYMBOL[c] for c in FACES[die][index])


def _kernel(faces: Iterable[str]) -> list[tuple[int, int, float]]:
    """Distinct (net success, net advantage) of faces with their probabilities."""
    faces = list(faces)
    out: dict[tuple[int, int], float] = {}
    for f in faces:
        v = _vector(f)
        out[(v[0], v[1])] = out.get((v[0], v[1]), 0.0) + 1 / len(faces)
    return [(s, a, p) for (s, a), p in out.items()]


def _add_die(x0: int, y0: int, p: np.ndarray, kernel: list[tuple[int, int, float]]) -> tuple[int, int, np.ndarray]:
    """Mass ``p`` (over its last two axes: net success from ``x0``, net advantage from ``y0``) plus one
    more independent die with the given (success, advantage, probability) faces."""
    dxs = [k[0] for k in kernel]
    dys = [k[1] for k in kernel]
    lo_x, hi_x, lo_y, hi_y = min(dxs), max(dxs), min(dys), max(dys)
    h, w = p.shape[-2:]
    out = np.zeros(p.shape[:-2] + (h + hi_x - lo_x, w + hi_y - lo_y))
    for dx, dy, q in kernel:
        out[..., dx - lo_x:dx - lo_x + h, dy - lo_y:dy - lo_y + w] += q * p
    return x0 + lo_x, y0 + lo_y, out


_PLAIN = {die: _kernel(FACES[die]) for die in ("boost", "setback", "ability", "difficulty")}
_YELLOW = _kernel(FACES["proficiency"][:-1])   # the eleven faces without the triumph
_RED = _kernel(FACES["challenge"][:-1])        # the eleven faces without the despair
_FORCE = [(v[4], v[5], 1 / 12) for v in (_vector(f) for f in FACES["force"])]


def pool_arrays(counts: Mapping[str, int]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Exact distribution of a pool: columns of the six fields and the probabilities.

    Triumphs and despairs are handled by conditioning: with ``t`` triumphs among ``P`` proficiency
    dice, the other ``P - t`` show one of the eleven other faces uniformly, so the (success,
    advantage) grid stays two-dimensional.
    """
    x0, y0, base = 0, 0, np.ones((1, 1))
    for die, kernel in _PLAIN.items():
        for _ in range(counts.get(die, 0)):
            x0, y0, base = _add_die(x0, y0, base, kernel)
    P, C = counts.get("proficiency", 0), counts.get("challenge", 0)
    l0, d0, force = 0, 0, np.ones((1, 1))
    for _ in range(counts.get("force", 0)):
        l0, d0, force = _add_die(l0, d0, force, _FORCE)
    fl, fd = np.nonzero(force)
    fp = force[fl, fd]
    fl, fd = fl + l0, fd + d0
    # grids[t]: the other P - t proficiency dice show one of their eleven non-triumph faces
    by_t = [(x0, y0, base)]
    for _ in range(P):
        by_t.append(_add_die(*by_t[-1], _YELLOW))
    by_t.reverse()  # index t: P - t dice added
    gx = min(g[0] for g in by_t)
    gy = min(g[1] for g in by_t)
    h = max(g[0] + g[2].shape[0] for g in by_t) - gx
    w = max(g[1] + g[2].shape[1] for g in by_t) - gy
    stack = np.zeros((P + 1, h, w))
    for t, (tx, ty, grid) in enumerate(by_t):
        stack[t, tx - gx:tx - gx + grid.shape[0], ty - gy:ty - gy + grid.shape[1]] = grid
    w_t = np.array([comb(P, t) * (1 / 12) ** t * (11 / 12) ** (P - t) for t in range(P + 1)])
    stack *= w_t[:, None, None]
    cols: dict[str, list[np.ndarray]] = {f: [] for f in FIELDS}
    probs: list[np.ndarray] = []
    k = len(fp)
    for e in range(C, -1, -1):  # C - e challenge dice show a non-despair face
        w_e = comb(C, e) * (1 / 12) ** e * (11 / 12) ** (C - e)
        ts, xs, ys = np.nonzero(stack)
        ps = stack[ts, xs, ys] * w_e
        if k == 1:  # no force dice
            cols["success"].append(xs + (gx - e) + ts)
            cols["advantage"].append(ys + gy)
            cols["triumph"].append(ts)
            cols["light"].append(np.zeros(len(xs), dtype=np.int64))
            cols["dark"].append(np.zeros(len(xs), dtype=np.int64))
            probs.append(ps)
        else:
            cols["success"].append(np.repeat(xs + (gx - e) + ts, k))
            cols["advantage"].append(np.repeat(ys + gy, k))
            cols["triumph"].append(np.repeat(ts, k))
            cols["light"].append(np.tile(fl, len(xs)))
            cols["dark"].append(np.tile(fd, len(xs)))
            probs.append(np.outer(ps, fp).ravel())
        cols["despair"].append(np.full(len(xs) * k, e))
        if e:
            gx, gy, stack = _add_die(gx, gy, stack, _RED)
    columns = {f: np.concatenate(v) for f, v in cols.items()}
    return columns, np.concatenate(probs)


def _reach(kernel: list[tuple[int, int, float]]) -> tuple[int, int]:
    """How far one die stretches the (success, advantage) grid on each axis."""
    return max(k[0] for k in kernel) - min(k[0] for k in kernel), max(k[1] for k in kernel) - min(k[1] for k in kernel)


def pool_cost(counts: Mapping[str, int]) -> Cost:
    """What :func:`pool_arrays` will cost, from the dice counts alone: the grids it builds and one row per
    nonzero cell of each grid and each (light, dark) outcome of the Force dice (an upper bound)."""
    h = w = 1
    for die, kernel in _PLAIN.items():
        dx, dy = _reach(kernel)
        h, w = h + dx * counts.get(die, 0), w + dy * counts.get(die, 0)
    P, C, F = counts.get("proficiency", 0), counts.get("challenge", 0), counts.get("force", 0)
    force: set[tuple[int, int]] = {(0, 0)}
    for _ in range(F):  # the (light, dark) pairs the Force dice can show
        force = {(x + a, y + b) for x, y in force for a, b, _ in _FORCE}
    (px, py), (cx, cy) = _reach(_YELLOW), _reach(_RED)
    rows = 0
    work = 0.0
    for e in range(C + 1):
        cells = sum((h + px * p + cx * e) * (w + py * p + cy * e) for p in range(P + 1))
        rows += cells * len(force)
        work += cells * (len(_RED) + 4) + 8 * NUMPY_CALL
    work += (P + F + sum(counts.values())) * 8 * NUMPY_CALL + len(force) * F * 4 * PYTHON_STEP
    return Cost(work + rows * len(FIELDS) * 6, rows * (len(FIELDS) + 1) * 2)
