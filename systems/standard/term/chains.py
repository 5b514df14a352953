"""How far a dice term's throws reach: the first face of a die after its re-rolls, the explosion chains the
exact odds follow, the range of the term's score (the engine's integer rule) and the throws one roll makes."""

from __future__ import annotations

from collections import Counter

from diceengine.algebra.rerolls import expected_rerolls, reroll_masses
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION

from .faces import split_faces
from .spec import TermSpec

#: most faces whose re-rolled chances are worked in Python floats (beyond: numpy arrays)
SMALL_SUPPORT = 1024

__all__ = ["bounds", "chain_depth", "chain_tolerance", "expected_throws", "explode_chance", "first_face",
           "first_face_arrays", "kept_units"]


def chain_tolerance(spec: TermSpec) -> float:
    """The mass an explosion chain may leave out of the exact odds (the truncation, shared by the dice)."""
    return TRUNCATION / max(1, spec.count) / 10


def first_face(spec: TermSpec) -> dict[int, float]:
    """Distribution of the first kept face of one die (after re-rolls: :func:`~diceengine.algebra.rerolls.reroll_masses`)."""
    s, faces = spec.sides, spec.faces
    if isinstance(faces, range):  # each face once
        if spec.reroll is None:
            return {f: 1 / s for f in faces}
        values, probs = first_face_arrays(spec)
        return {f: p for f, p in zip(values.tolist(), probs.tolist()) if p > 0}
    shown = Counter(faces)
    chances = [c / s for c in shown.values()]
    if spec.reroll is None:
        return dict(zip(shown, chances))
    test = spec.reroll.test
    probs = reroll_masses(chances, [bool(test(f)) for f in shown], _depth(spec))
    return {f: p for f, p in zip(shown, probs) if p > 0}


def first_face_arrays(spec: TermSpec) -> tuple[np.ndarray, np.ndarray]:
    """``(faces, probabilities)`` of the first kept face of one die (vectorised :func:`first_face`; faces a range)."""
    values = np.arange(spec.faces.start, spec.faces.stop)
    s = spec.sides
    if spec.reroll is None:
        return values, np.full(s, 1 / s)
    if s <= SMALL_SUPPORT:  # in Python floats, one array at the end (a first call's numpy routines are dear)
        test = spec.reroll.test
        return values, np.array(reroll_masses([1 / s] * s, [bool(test(f)) for f in spec.faces], _depth(spec)))
    return values, reroll_masses(np.full(s, 1 / s), _rerolled(spec, values), _depth(spec))


def _rerolled(spec: TermSpec, values: np.ndarray) -> np.ndarray:
    """The mask of the faces ``values`` the term's re-roll throws again."""
    assert spec.reroll is not None
    return np.asarray(spec.reroll.test(values), dtype=bool)


def _depth(spec: TermSpec) -> int | None:
    """The re-rolls a die of the term makes at most, in the exact odds: one (``ro``), or until a face is kept."""
    return 1 if spec.reroll_once else None


def explode_chance(spec: TermSpec) -> float:
    """Chance that one throw explodes (0 without ``!``)."""
    if spec.explode is None:
        return 0.0
    return len(split_faces(spec.faces, spec.explode)[0]) / spec.sides


def chain_depth(spec: TermSpec) -> int:
    """Dice one explosion chain adds at most in the exact odds: until the chains still going weigh at most
    the truncation (0 without explosion; ``ra``: its limit)."""
    if spec.explode is None:
        return 0
    if spec.explode_limit is not None:
        return spec.explode_limit
    q = explode_chance(spec)
    if spec.reroll is None:
        q1 = q
    elif spec.consecutive:
        values, probs = first_face_arrays(spec)
        q1 = float(probs[spec.explode.test(values)].sum())
    else:
        q1 = sum(p for f, p in first_face(spec).items() if spec.explode.test(f))
    mass, depth, tol = q1, 0, chain_tolerance(spec)
    while mass > tol and depth < MAX_EXPLOSIONS:
        mass *= q
        depth += 1
    return depth


def kept_units(spec: TermSpec) -> tuple[int, int, int]:
    """``(units, lo, hi)``: at most how many units (dice, with explosions="dice") the term keeps and the range
    of one's score, for the chains the exact odds follow (:func:`chain_depth`)."""
    links = chain_depth(spec) + 1
    pen = int(spec.penetrate)
    f_lo, f_hi = (spec.faces[0], spec.faces[-1]) if spec.consecutive else (min(spec.faces), max(spec.faces))
    if spec.per_die:  # every die thrown is ranked on its own: up to `links` dice per die
        units = spec.count * links
        if spec.selection is None and any(k.kind in ("kh", "kl") for k in spec.keeps):
            units = min(units, *[k.n for k in spec.keeps if k.kind in ("kh", "kl")])
        elif spec.selection is not None and spec.selection.groups[0][0] == "k" and \
                all(kind in "hl" for kind, _ in spec.selection.groups[0][1]):
            units = min(units, sum(n for _, n in spec.selection.groups[0][1]))
        if spec.success is not None:
            return (units, *spec.success_range)
        return units, min(f_lo, f_lo - pen), f_hi
    if spec.success is not None:
        b_lo, b_hi = spec.success_range
        if spec.explode is not None and not spec.compound:  # every face of the unit counted
            b_lo, b_hi = links * b_lo, links * b_hi
        return spec.count + _added(spec), b_lo, b_hi
    return spec.count + _added(spec), f_lo + (links - 1) * min(0, f_lo - pen), f_hi + (links - 1) * max(0, f_hi - pen)


def bounds(spec: TermSpec) -> tuple[int, int]:
    """``(lo, hi)``: every score the term can produce lies between (explosion chains counted to their
    limit of ``MAX_EXPLOSIONS + 1`` faces): the term's part of the engine's integer rule."""
    links = MAX_EXPLOSIONS + 1 if spec.explode is not None else 1
    if spec.explode_limit is not None:
        links = spec.explode_limit + 1
    if spec.success is None:
        f_lo, f_hi = min(spec.faces[0], spec.faces[0] - 1), spec.faces[-1]
        lo, hi = min(f_lo, links * f_lo), max(f_hi, links * f_hi)
    else:
        lo, hi = spec.success_range
        if not spec.compound:
            lo, hi = links * lo, links * hi
    units = (spec.count if spec.keep is None else spec.keep) + _added(spec)
    return min(0, units * lo), max(0, units * hi)


def _added(spec: TermSpec) -> int:
    """Dice d20's ``ralN`` / ``rahN`` add to the term (one, or none)."""
    rank = spec.reroll_rank
    return rank[2] if rank is not None and rank[0] == "ra" else 0


def expected_throws(spec: TermSpec) -> float:
    """Dice one roll of the term throws on average, re-rolls and explosions included."""
    extra = 0.0
    if spec.reroll is not None:
        extra = expected_rerolls(1.0 - len(spec.allowed) / spec.sides, 1 if spec.reroll_once else spec.reroll_cap)
    if spec.unique_on:
        extra += spec.count / max(1, spec.sides - spec.count + 1)
    q = explode_chance(spec) if spec.explode_limit is None else 0.0
    ranked = spec.reroll_rank[2] if spec.reroll_rank is not None else 0
    return spec.count * (1.0 + extra) / (1.0 - q) + ranked
