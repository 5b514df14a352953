"""The seven FFG narrative dice: face tables and the exact distribution of a pool.

Each face is a vector (net success, net advantage, triumph, despair, light, dark): a success is
+1 and a failure -1 on the first axis, an advantage +1 and a threat -1 on the second; a triumph
also counts one success and a despair one failure (each counted exactly once).
"""

from __future__ import annotations

from math import comb
from typing import Iterable, Mapping

import numpy as np

__all__ = ["DICE", "FACES", "SIDES", "face_vectors", "face_text", "pool_arrays", "FIELDS", "ORDER", "LETTERS"]

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


def _vector(face: str) -> tuple[int, int, int, int, int, int]:
    s = face.count("S") - face.count("F") + face.count("R") - face.count("X")
    a = face.count("A") - face.count("T")
    return (s, a, face.count("R"), face.count("X"), face.count("L"), face.count("D"))


def face_vectors(die: str) -> np.ndarray:
    """``(sides, 6)`` array: the outcome vector of each face."""
    return np.array([_vector(f) for f in FACES[die]], dtype=np.int64)


VECTORS = {die: face_vectors(die) for die in DICE}


def face_text(die: str, index: int) -> str:
    """The symbols of a face, in words (``"success + advantage"``, ``"blank"``)."""
    face = FACES[die][index]
    return " + ".join(_SYMBOL[c] for c in face) if face else "blank"


def _kernel(faces: Iterable[str]) -> list[tuple[int, int, float]]:
    """Distinct (net success, net advantage) of faces with their probabilities."""
    faces = list(faces)
    out: dict[tuple[int, int], float] = {}
    for f in faces:
        v = _vector(f)
        out[(v[0], v[1])] = out.get((v[0], v[1]), 0.0) + 1 / len(faces)
    return [(s, a, p) for (s, a), p in out.items()]


class _Grid:
    """A 2-D mass function: ``p[i, j]`` is the mass at ``(x0 + i, y0 + j)``."""

    __slots__ = ("x0", "y0", "p")

    def __init__(self, x0: int, y0: int, p: np.ndarray) -> None:
        self.x0, self.y0, self.p = x0, y0, p

    def add(self, kernel: list[tuple[int, int, float]]) -> "_Grid":
        """The sum with one more independent die."""
        dxs = [k[0] for k in kernel]
        dys = [k[1] for k in kernel]
        lo_x, hi_x, lo_y, hi_y = min(dxs), max(dxs), min(dys), max(dys)
        h, w = self.p.shape
        out = np.zeros((h + hi_x - lo_x, w + hi_y - lo_y))
        for dx, dy, q in kernel:
            out[dx - lo_x:dx - lo_x + h, dy - lo_y:dy - lo_y + w] += q * self.p
        return _Grid(self.x0 + lo_x, self.y0 + lo_y, out)

    def power_add(self, kernel: list[tuple[int, int, float]], n: int) -> "_Grid":
        grid = self
        for _ in range(n):
            grid = grid.add(kernel)
        return grid


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
    base = _Grid(0, 0, np.ones((1, 1)))
    for die, kernel in _PLAIN.items():
        base = base.power_add(kernel, counts.get(die, 0))
    P, C = counts.get("proficiency", 0), counts.get("challenge", 0)
    force = _Grid(0, 0, np.ones((1, 1))).power_add(_FORCE, counts.get("force", 0))
    fl, fd = np.nonzero(force.p)
    fp = force.p[fl, fd]
    fl, fd = fl + force.x0, fd + force.y0
    cols: dict[str, list[np.ndarray]] = {f: [] for f in FIELDS}
    probs: list[np.ndarray] = []
    a_t = base
    grids_by_t: list[tuple[int, _Grid]] = []
    for t in range(P, -1, -1):  # P - t proficiency dice show a non-triumph face
        grids_by_t.append((t, a_t))
        if t:
            a_t = a_t.add(_YELLOW)
    for t, grid_t in grids_by_t:
        w_t = comb(P, t) * (1 / 12) ** t * (11 / 12) ** (P - t)
        b = grid_t
        for e in range(C, -1, -1):
            w = w_t * comb(C, e) * (1 / 12) ** e * (11 / 12) ** (C - e)
            xs, ys = np.nonzero(b.p)
            ps = b.p[xs, ys] * w
            k = len(fp)
            cols["success"].append(np.repeat(xs + b.x0 + t - e, k))
            cols["advantage"].append(np.repeat(ys + b.y0, k))
            cols["triumph"].append(np.full(len(xs) * k, t))
            cols["despair"].append(np.full(len(xs) * k, e))
            cols["light"].append(np.tile(fl, len(xs)))
            cols["dark"].append(np.tile(fd, len(xs)))
            probs.append(np.outer(ps, fp).ravel())
            if e:
                b = b.add(_RED)
    columns = {f: np.concatenate(v) for f, v in cols.items()}
    return columns, np.concatenate(probs)
