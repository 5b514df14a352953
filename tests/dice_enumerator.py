"""A brute-force enumerator of small dice terms of the standard notation, written from the rules as the notation's
page states them (docs/notation.md) and nothing of the engine: every sequence of faces thrown, with its
probability, run through a plain procedure that throws a term die by die.

- :func:`enumerate_draws` runs any procedure ``(draw) -> outcome`` on every sequence of draws (``draw(n)`` gives
  0..n-1, each equally likely) up to ``max_draws`` draws; what longer sequences carry is the truncated mass
  (explosions, re-rolls until a face misses). It also keeps one sequence per outcome, to replay on scripted dice.
- :class:`Term` is a dice term's modifiers as data, :func:`throw_term` the procedure of one throw of it.

The semantics followed (where the peers differ, the notation's page says which reading it takes):
a per-die minimum / maximum changes the faces themselves (every later test reads the clamped face); a re-roll
tests the first face of a die (``r`` until it misses, ``ro`` once); ``u`` throws a die again while its face is one
an earlier die of the term shows (``uo`` once; a die keeps its face when every face is shown); an explosion adds a
die while the face thrown meets its point (``ra`` at most one), a penetrating added die counting one less; an
exploding die and its added dice are one unit, ranked by keep / drop on its sum (equal sums in the order thrown),
each keep / drop choosing among all the units and a unit counting if none drops it; a success count tests every
face of a unit (``!!``: its sum), a face meeting the success point scoring 1 (2 when it also meets ``dbl``'s),
else -1 when it meets the failure point; critical marks count the faces of the kept units, a face marked a
success not also a failure; d20's ``rolN`` / ``rohN`` throw the lowest / highest N first faces again once,
``ralN`` / ``rahN`` add one die to the lowest / highest one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

Point = Callable[[int], bool]


class _Need(Exception):
    """The procedure asked for one draw more than the sequence holds."""

    def __init__(self, n: int) -> None:
        self.n = n


class _Draws:
    def __init__(self, given: tuple[tuple[int, int], ...]) -> None:
        self.given = given
        self.used = 0

    def __call__(self, n: int) -> int:
        if self.used == len(self.given):
            raise _Need(n)
        index, sides = self.given[self.used]
        assert sides == n, "a procedure must ask the same draws along the same sequence"
        self.used += 1
        return index


@dataclass
class Enumeration:
    """What :func:`enumerate_draws` found: each outcome's probability, the mass of the sequences longer than the
    bound, and one sequence of draws ``((index, n), ...)`` per outcome."""

    probability: dict[Hashable, float]
    truncated: float
    example: dict[Hashable, tuple[tuple[int, int], ...]]


def enumerate_draws(procedure: Callable[[Callable[[int], int]], Hashable], max_draws: int) -> Enumeration:
    """Every sequence of draws ``procedure`` can ask for, up to ``max_draws`` draws, with its probability."""
    found: dict[Hashable, float] = {}
    example: dict[Hashable, tuple[tuple[int, int], ...]] = {}
    truncated = 0.0
    stack: list[tuple[tuple[tuple[int, int], ...], float]] = [((), 1.0)]
    while stack:
        given, p = stack.pop()
        try:
            outcome = procedure(_Draws(given))
        except _Need as need:
            if len(given) >= max_draws:
                truncated += p
            else:
                stack.extend((given + ((i, need.n),), p / need.n) for i in range(need.n))
            continue
        found[outcome] = found.get(outcome, 0.0) + p
        example.setdefault(outcome, given)
    return Enumeration(found, truncated, example)


def point(op: str, n: int) -> Point:
    """A compare point: ``op`` one of ``= != < <= > >=``."""
    tests: dict[str, Callable[[int], bool]] = {
        "=": lambda f: f == n, "!=": lambda f: f != n, "<": lambda f: f < n, "<=": lambda f: f <= n,
        ">": lambda f: f > n, ">=": lambda f: f >= n,
    }
    return tests[op]


@dataclass(frozen=True)
class Term:
    """``count`` dice of ``sides`` faces and their modifiers (``None``: absent)."""

    count: int
    sides: int
    lowest: int | None = None            # mi / min: a face under it counts as it
    highest: int | None = None           # ma / max: a face over it counts as it
    reroll: Point | None = None
    reroll_once: bool = False
    unique: Point | None = None          # faces that must differ from the earlier dice's
    unique_once: bool = False
    explode: Point | None = None
    explode_once: bool = False           # d20's ra: at most one added die
    compound: bool = False
    penetrate: bool = False
    rank_reroll: tuple[str, str, int] | None = None  # ("ro" | "ra", "l" | "h", n)
    keeps: tuple[tuple[str, int], ...] = ()        # ("kh" | "kl" | "dh" | "dl", n), as written
    success: Point | None = None
    failure: Point | None = None
    double: Point | None = None
    crit_success: Point | None = None
    crit_failure: Point | None = None
    notes: dict[str, Any] = field(default_factory=dict, compare=False)

    def faces(self) -> list[int]:
        """The faces of one die, clamped."""
        out = []
        for f in range(1, self.sides + 1):
            if self.lowest is not None:
                f = max(f, self.lowest)
            if self.highest is not None:
                f = min(f, self.highest)
            out.append(f)
        return out

    def with_(self, **changes: Any) -> Term:
        return replace(self, **changes)


def _first_face(term: Term, faces: list[int], draw: Callable[[int], int], seen: list[int]) -> int:
    """A die's first face: thrown, re-rolled, thrown again while an earlier die shows it (``u``)."""
    v = faces[draw(len(faces))]
    if term.reroll is not None:
        if term.reroll_once:
            if term.reroll(v):
                v = faces[draw(len(faces))]
        else:
            while term.reroll(v):
                v = faces[draw(len(faces))]
    if term.unique is not None:
        def taken(f: int) -> bool:
            return f in seen and term.unique(f)  # type: ignore[misc]
        if term.unique_once:
            if taken(v):
                v = faces[draw(len(faces))]
        elif any(not taken(f) for f in faces):
            while taken(v):
                v = faces[draw(len(faces))]
    return v


def _units(term: Term, draw: Callable[[int], int]) -> list[list[int]]:
    """Every die of the term with the dice its explosions (or a d20 rank re-roll) add: the values recorded."""
    faces = term.faces()
    units: list[list[int]] = []
    seen: list[int] = []
    for _ in range(term.count):
        v = _first_face(term, faces, draw, seen)
        seen.append(v)
        unit = [v]
        while term.explode is not None and term.explode(v) and not (term.explode_once and len(unit) > 1):
            v = faces[draw(len(faces))]
            unit.append(v - 1 if term.penetrate else v)
        units.append(unit)
    if term.rank_reroll is not None:
        kind, side, n = term.rank_reroll
        n = 1 if kind == "ra" else n  # d20 adds at most one die, whatever N
        order = sorted(range(len(units)), key=lambda i: units[i][0], reverse=side == "h")
        for i in order[:n]:
            thrown = faces[draw(len(faces))]
            units[i] = [thrown] if kind == "ro" else units[i] + [thrown]
    return units


def kept_units(term: Term, units: Sequence[list[int]]) -> list[bool]:
    """Which units no keep / drop leaves out: each ranks all the units by their sums (equal sums in the order
    thrown)."""
    order = sorted(range(len(units)), key=lambda i: sum(units[i]))
    n = len(units)
    dropped: set[int] = set()
    for kind, k in term.keeps:
        k = min(k, n)
        dropped |= set({"kh": order[:n - k], "kl": order[k:], "dh": order[n - k:], "dl": order[:k]}[kind])
    return [i not in dropped for i in range(n)]


def _face_score(term: Term, f: int) -> int:
    assert term.success is not None
    if term.success(f):
        return 2 if term.double is not None and term.double(f) else 1
    return -1 if term.failure is not None and term.failure(f) else 0


def unit_score(term: Term, unit: list[int]) -> int:
    """A unit's value, or its success score (every face tested; a compound unit its sum)."""
    if term.success is None:
        return sum(unit)
    return _face_score(term, sum(unit)) if term.compound else sum(_face_score(term, f) for f in unit)


def throw_term(term: Term, draw: Callable[[int], int]) -> tuple:
    """One throw of the term: ``(total,)``, or ``(total, critical successes, critical failures)`` when it marks
    criticals (``None`` for a mark it does not have)."""
    units = _units(term, draw)
    kept = [u for u, k in zip(units, kept_units(term, units)) if k]
    total = sum(unit_score(term, u) for u in kept)
    if term.crit_success is None and term.crit_failure is None:
        return (total,)
    faces = [f for u in kept for f in u]
    cs = sum(1 for f in faces if term.crit_success(f)) if term.crit_success is not None else None
    cf = None
    if term.crit_failure is not None:
        cf = sum(1 for f in faces if term.crit_failure(f) and not (term.crit_success and term.crit_success(f)))
    return (total, cs, cf)


def enumerate_term(term: Term, max_draws: int) -> Enumeration:
    """Every throw of ``term`` up to ``max_draws`` dice thrown."""
    return enumerate_draws(lambda draw: throw_term(term, draw), max_draws)
