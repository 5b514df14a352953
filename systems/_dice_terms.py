"""One dice term of the standard notation (``NdM`` with its modifiers), in the three evaluations.

Semantics, where tables differ:

- a per-die minimum / maximum (``mi``/``min``, ``ma``/``max``) changes the faces themselves: every later
  test (explosion, re-roll, success) reads the clamped face;
- re-rolls apply to the first face of a die; ``r`` re-rolls until the face misses the compare point
  (after :data:`~diceengine.limits.MAX_REROLLS` recorded re-rolls the final face is drawn directly
  among the allowed faces, which has the same distribution), ``ro`` re-rolls once; bare ``r`` / ``ro``
  re-roll the lowest face;
- ``u`` throws again a die whose face (meeting the compare point, if one is given) an earlier die of the
  term already shows, until it differs; ``uo`` once;
- an exploding die and the dice its explosions add form one *unit*: keep / drop rank units by their
  sum; with ``!`` success counting counts every face of the unit, with ``!!`` (compound) it tests
  the unit's sum, as one die; ``!p`` (penetrating) counts each added die one less (the explosion
  tests the face thrown); d20's ``ra`` is an explosion that adds at most one die;
- several keep / drop each choose among all the dice, and a die counts if none drops it (rpg-dice-roller):
  ``4d6dl1dh1`` keeps the middle two, ``3d10k1dh1`` none;
- ``!N`` explodes on a face equal to N (Roll20), ``!`` alone on the maximum face;
- ``s`` / ``sd`` sort the text; ``cs`` / ``cf`` mark dice in the text and the dice (``critical``), and the
  outcome counts the kept dice marked (:meth:`DiceTerm.with_tally` folds the marks into the score for the
  sample and the exact odds): every face of an exploding die is marked on its own, on the value recorded
  (one less for a penetrating added die), compound or not;
- a die that meets both the success point and the failure point (``4d6>=1f<=1``) counts as a success
  only, as python-dice and rpg-dice-roller count it.

Bounds (README, "Bounds"): a term's faces are ranges, never listed, so a d1000000 costs no more memory
than a d6 (a per-die minimum / maximum or ``dF.1`` lists them: at most ``MAX_SIDES``).
:meth:`DiceTerm.bounds` gives the range of the term's score for the engine's integer rule.
A die whose explosions would run past :data:`~diceengine.limits.MAX_EXPLOSIONS` with a probability
above the truncation of exact odds is refused up front (by roll, sample and distribution alike), and
one roll throws about :data:`~diceengine.limits.MAX_THROWS` dice at most on average: re-rolls are
recorded up to ``reroll_cap`` per die (fewer when the term has many dice), after which the final face
is drawn directly among the allowed faces (the same distribution).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from math import comb
from typing import Any

import numpy as np

from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import (
    MAX_DICE,
    MAX_EXPLOSIONS,
    MAX_REROLLS,
    MAX_SIDES,
    MAX_THROWS,
    MAX_WORK,
    NUMPY_CALL,
    PYTHON_STEP,
    TRUNCATION,
    Cost,
)
from diceengine.parts import Dice as DiceRun
from diceengine.parts import Face, Group, Part, TextMemo, dice_writer
from diceengine.pmf import (
    PMF,
    WORK,
    convolve_cost,
    keep_dp,
    keep_dp_cost,
    keep_sum,
    keep_sum_cost,
    keep_window,
    power_cost,
)
from diceengine.rolljson import FaceJson
from diceengine.rolls import Die

from ._dice_ast import (
    Clamp,
    Compare,
    CountFailures,
    CountSuccesses,
    Critical,
    Dice,
    Explode,
    Keep,
    Reroll,
    Sort,
    Unique,
)
from ._selection import Selection, selection_of

__all__ = ["DiceTerm", "Faces", "compile_term", "split_faces", "window_of"]

_new_tuple = tuple.__new__  # builds a Die without the NamedTuple constructor's argument parsing

# flags of one throw in a general record
REROLLED, EXPLODED, ADDED, DROPPED = 1, 2, 4, 8
#: most states the exact odds of unique dice may follow
MAX_UNIQUE_STATES = 200_000
#: most (state, face) steps the exact odds of explosions="dice" may take (a safety net: the work budget refuses
#: long before, see benchmarks/cost_fit.py)
MAX_EACH_DIE_STEPS = 2_000_000
#: work units of one (state, face) step of those odds: a new state built, its mass filed (about 3.5 us measured,
#: benchmarks/cost_fit.py)
EACH_DIE_STEP = 14 * PYTHON_STEP
#: work units of one cell of the sums' arrays merged by those steps (a weighted numpy slice added: about 20 ns)
EACH_DIE_CELL = 8

_EachKey = tuple[int, tuple[int, ...], tuple[int, ...]]  # (dice thrown up to a cap, lowest, highest faces)


class Faces(Sequence[int]):
    """Faces of a die held as at most two ranges (a range, or a range without one face): never listed."""

    __slots__ = ("_cut", "parts")

    def __init__(self, *parts: range) -> None:
        self.parts = tuple(p for p in parts if len(p))
        self._cut = len(self.parts[0]) if self.parts else 0

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    def __getitem__(self, i: Any) -> Any:
        if i < 0:
            i += len(self)
        return self.parts[0][i] if i < self._cut else self.parts[1][i - self._cut]

    def __iter__(self) -> Iterator[int]:
        for p in self.parts:
            yield from p

    def take(self, idx: np.ndarray) -> np.ndarray:
        """The faces at indices ``idx`` (vectorised)."""
        first = self.parts[0]
        out = idx + first.start
        if len(self.parts) > 1:
            out = np.where(idx < self._cut, out, idx - self._cut + self.parts[1].start)
        return out


class Listed(tuple):
    """Faces listed one by one (a clamped die, ``dF.1``): the same interface as :class:`Faces`."""

    def take(self, idx: np.ndarray) -> np.ndarray:
        return np.asarray(self, dtype=np.int64)[idx]


def split_faces(faces: Any, point: Compare) -> tuple[Any, Any]:
    """``(faces meeting point, faces missing it)``, without listing the faces of a range."""
    if not isinstance(faces, range):
        return (Listed(f for f in faces if point.test(f)), Listed(f for f in faces if not point.test(f)))
    lo, end, v, op = faces.start, faces.stop, point.value, point.op
    if op in ("=", "=="):
        return Faces(range(max(v, lo), min(v + 1, end))), Faces(range(lo, min(max(v, lo), end)),
                                                              range(max(v + 1, lo), end))
    if op in ("!=", "<>"):
        miss, meet = split_faces(faces, Compare.of("=", v))
        return meet, miss
    if op in (">", "<="):
        v += 1  # x > v  <=>  x >= v + 1 ; x <= v  <=>  x < v + 1
    cut = min(max(v, lo), end)
    high, low = range(cut, end), range(lo, cut)
    return (Faces(high), Faces(low)) if op in (">=", ">") else (Faces(low), Faces(high))


@dataclass(frozen=True, eq=False)
class DiceTerm:
    """A validated dice term, ready to roll."""

    node: Dice
    text: str
    count: int
    faces: Any                      # a range, or Listed faces (clamped dice, dF.1)
    kind: str
    window: tuple[int, int] | None  # ranks kept, lowest first: [lo, hi) (None: all)
    explode: Compare | None
    compound: bool
    reroll: Compare | None
    reroll_once: bool
    success: Compare | None
    failure: Compare | None
    label: str | None
    penetrate: bool = False
    explode_limit: int | None = None   # ra: at most one added die
    unique: Compare | None = None      # faces that must be unique (all faces: a point nothing misses)
    unique_once: bool = False
    unique_on: bool = False
    sort: str | None = None
    crit_success: Compare | None = None
    crit_failure: Compare | None = None
    reroll_cap: int = MAX_REROLLS  # re-rolls recorded per die before drawing among the allowed faces
    selection: Selection | None = None  # d20's keep / drop when it is no window of ranks
    keeps: tuple = ()                   # the keep / drop modifiers as written
    each_die: bool = False              # explosions="dice": keep / drop rank every die thrown, not units
    tally: tuple[int, ...] | None = None  # (lo, width, ws, wf, most cs, most cf): critical counts in the score
    consecutive: bool = field(init=False)
    flat: bool = field(init=False)
    plain: bool = field(init=False)
    explode_only: bool = field(init=False)
    _label_suffix: str = field(init=False, repr=False)
    per_die: bool = field(init=False)  # every thrown die ranked on its own (explosions="dice")
    _json: tuple[FaceJson, FaceJson, FaceJson] | None = field(init=False, default=None, repr=False)
    _flat_texts: tuple[TextMemo, TextMemo] | None = field(init=False, default=None, repr=False)

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def keep(self) -> int | None:
        """Number of units kept (None: all)."""
        return None if self.window is None else self.window[1] - self.window[0]

    def __post_init__(self) -> None:
        consecutive = isinstance(self.faces, range)
        object.__setattr__(self, "consecutive", consecutive)
        # each die thrown once: the record is the list of faces
        flat = self.explode is None and self.reroll is None and not self.unique_on and consecutive
        object.__setattr__(self, "flat", flat)
        object.__setattr__(self, "_label_suffix", f"] ({self.label})" if self.label else "]")
        object.__setattr__(self, "per_die", self.each_die and self.explode is not None and not self.compound
                           and (self.window is not None or self.selection is not None))
        # no modifier but an explosion (the record: units of [face, flags])
        object.__setattr__(self, "explode_only", self.explode is not None and self.reroll is None
                           and not self.unique_on and self.success is None and self.window is None
                           and self.selection is None and consecutive and not self.penetrate
                           and self.explode_limit is None and self.sort is None and self.crit_success is None
                           and self.crit_failure is None)
        # no modifier but keep/drop
        object.__setattr__(self, "plain", flat and self.success is None and self.sort is None
                           and self.crit_success is None and self.crit_failure is None and self.selection is None)

    @property
    def allowed(self) -> Any:
        """The faces a re-roll keeps (all of them without a re-roll)."""
        if self.reroll is None:
            return Faces(self.faces) if isinstance(self.faces, range) else self.faces
        return split_faces(self.faces, self.reroll)[1]

    def with_tally(self) -> DiceTerm:
        """This term scoring each kept die ``base + ws * [critical success] + wf * [critical failure]`` (``base``
        its value, or its success score): the sum of the kept dice's scores holds the term's score and its
        counts of kept critical successes and failures, split again by :meth:`untally`. An exploding die's
        faces are each marked (the value recorded: one less for a penetrating added die); the widths come from
        the chains the exact odds follow (:meth:`chain_depth`), so that every count they hold is told apart."""
        units, b_lo, b_hi = self._kept_units()
        per_unit = (1, 1) if self.per_die else self.marks_per_unit()
        lo, hi = min(0, units * b_lo), max(0, units * b_hi)
        width = hi - lo + 1
        most_s = units * per_unit[0] if self.crit_success is not None else 0
        most_f = units * per_unit[1] if self.crit_failure is not None else 0
        ws = width if self.crit_success is not None else 0
        wf = width * (most_s + 1) if self.crit_failure is not None else 0
        return replace(self, tally=(lo, width, ws, wf, most_s, most_f))

    def _kept_units(self) -> tuple[int, int, int]:
        """``(units, lo, hi)``: at most how many units (dice, with explosions="dice") the term keeps and the range
        of one's score, for the chains the exact odds follow (:meth:`chain_depth`)."""
        links = self.chain_depth() + 1
        pen = int(self.penetrate)
        f_lo, f_hi = (self.faces[0], self.faces[-1]) if self.consecutive else (min(self.faces), max(self.faces))
        if self.per_die:  # every die thrown is ranked on its own: up to `links` dice per die
            units = self.count * links
            if self.selection is None and any(k.kind in ("kh", "kl") for k in self.keeps):
                units = min(units, *[k.n for k in self.keeps if k.kind in ("kh", "kl")])
            elif self.selection is not None and self.selection.groups[0][0] == "k" and \
                    all(kind in "hl" for kind, _ in self.selection.groups[0][1]):
                units = min(units, sum(n for _, n in self.selection.groups[0][1]))
            if self.success is not None:
                return units, (-1 if self.failure is not None else 0), 1
            return units, min(f_lo, f_lo - pen), f_hi
        if self.success is not None:
            b_lo, b_hi = (-1 if self.failure is not None else 0), 1
            if self.explode is not None and not self.compound:  # every face of the unit counted
                b_lo, b_hi = links * b_lo, links * b_hi
            return self.count, b_lo, b_hi
        return self.count, f_lo + (links - 1) * min(0, f_lo - pen), f_hi + (links - 1) * max(0, f_hi - pen)

    def chain_depth(self) -> int:
        """Dice one explosion chain adds at most in the exact odds: until the chains still going weigh at most
        the truncation (0 without explosion; ``ra``: its limit)."""
        if self.explode is None:
            return 0
        if self.explode_limit is not None:
            return self.explode_limit
        q = self.explode_chance()
        if self.reroll is None:
            q1 = q
        elif self.consecutive:
            values, probs = self._first_face_arrays()
            q1 = float(probs[self.explode.test(values)].sum())
        else:
            q1 = sum(p for f, p in self._first_face().items() if self.explode.test(f))
        mass, depth, tolerance = q1, 0, self._tolerance()
        while mass > tolerance and depth < MAX_EXPLOSIONS:
            mass *= q
            depth += 1
        return depth

    def marks_per_unit(self) -> tuple[int, int]:
        """At most how many faces of one unit (a die and the dice its explosions add) meet the critical success
        and the critical failure points: one, unless a face that explodes can be marked."""
        if self.explode is None:
            return 1, 1
        links = self.chain_depth() + 1
        on_faces = split_faces(self.faces, self.explode)[0]
        on = on_faces.take(np.arange(len(on_faces)))
        recorded = np.concatenate([on, on - int(self.penetrate)])
        return tuple(links if point is not None and bool(point.test(recorded).any()) else 1  # type: ignore[return-value]
                     for point in (self.crit_success, self.crit_failure))

    def untally(self, encoded: Any) -> tuple[Any, Any, Any]:
        """``(score, critical successes, critical failures)`` of sums of :meth:`with_tally` scores (ints or
        numpy arrays)."""
        assert self.tally is not None
        lo, width, ws, wf = self.tally[:4]
        score = lo + (encoded - lo) % width
        rest = (encoded - score) // width
        if ws and wf:
            per = wf // width
            return score, rest % per, rest // per
        return (score, rest, rest * 0) if ws else (score, rest * 0, rest)

    def _score_of(self, v: int) -> int:
        """A kept die's score: its value or success score, with its critical marks when tallied."""
        base = v if self.success is None else self._face_score(v)
        if self.tally is None:
            return base
        crit = self._critical(v)
        return base + (self.tally[2] if crit == "success" else self.tally[3] if crit == "failure" else 0)

    def _score_array(self, values: np.ndarray) -> np.ndarray:
        """:meth:`_score_of` of an array of faces."""
        score = self._base_array(values)
        return score if self.tally is None else score + self._mark_array(values)

    def _base_array(self, values: np.ndarray) -> np.ndarray:
        """The value, or the success score, of an array of faces (critical marks aside)."""
        if self.success is None:
            return values.copy()
        hit = self.success.test(values)
        score = hit.astype(np.int64)
        if self.failure is not None:
            score -= self.failure.test(values) & ~hit
        return score

    def _mark_array(self, values: np.ndarray) -> np.ndarray:
        """The critical marks of an array of faces as :meth:`with_tally` folds them (``ws`` or ``wf`` or 0)."""
        assert self.tally is not None
        crit_s = self.crit_success.test(values) if self.crit_success is not None else np.zeros(values.shape, bool)
        crit_f = self.crit_failure.test(values) & ~crit_s if self.crit_failure is not None else crit_s & False
        return self.tally[2] * crit_s + self.tally[3] * crit_f

    def explode_chance(self) -> float:
        """Chance that one throw explodes (0 without ``!``)."""
        if self.explode is None:
            return 0.0
        return len(split_faces(self.faces, self.explode)[0]) / self.sides

    def bounds(self) -> tuple[int, int]:
        """``(lo, hi)``: every score the term can produce lies between (explosion chains counted to their
        limit of ``MAX_EXPLOSIONS + 1`` faces): the term's part of the engine's integer rule."""
        links = MAX_EXPLOSIONS + 1 if self.explode is not None else 1
        if self.explode_limit is not None:
            links = self.explode_limit + 1
        if self.success is None:
            f_lo, f_hi = min(self.faces[0], self.faces[0] - 1), self.faces[-1]
            lo, hi = min(f_lo, links * f_lo), max(f_hi, links * f_hi)
        else:
            lo, hi = (-1 if self.failure is not None else 0), 1
            if not self.compound:
                lo, hi = links * lo, links * hi
        units = self.count if self.keep is None else self.keep
        return min(0, units * lo), max(0, units * hi)

    def expected_throws(self) -> float:
        """Dice one roll of the term throws on average, re-rolls and explosions included."""
        extra = 0.0
        if self.reroll is not None:
            hit = 1.0 - len(self.allowed) / self.sides
            extra = hit if self.reroll_once else hit * (1 - hit ** self.reroll_cap) / (1 - hit) if hit < 1 else 0.0
        if self.unique_on:
            extra += self.count / max(1, self.sides - self.count + 1)
        q = self.explode_chance() if self.explode_limit is None else 0.0
        return self.count * (1.0 + extra) / (1.0 - q)

    def _unique_test(self, v: int) -> bool:
        return self.unique is None or bool(self.unique.test(v))

    # ---------------------------------------------------------------- one roll
    def roller(self) -> Callable[[Any, list], int]:
        """A function ``(random, record) -> score`` throwing this term once."""
        n, faces, s = self.count, self.faces, self.sides
        lo = faces[0]
        if self.plain:
            if self.window is None:
                if n == 1:
                    def roll_one(r: Any, rec: list) -> int:
                        v = int(r() * s) + lo
                        rec.append((self, [v]))
                        return v
                    return roll_one

                def roll_plain(r: Any, rec: list) -> int:
                    vals = [int(r() * s) + lo for _ in range(n)]
                    rec.append((self, vals))
                    return sum(vals)
                return roll_plain
            a, b = self.window

            def roll_keep(r: Any, rec: list) -> int:
                vals = [int(r() * s) + lo for _ in range(n)]
                rec.append((self, vals))
                return sum(sorted(vals)[a:b])
            return roll_keep
        if self.flat:
            return self._flat_roller()
        if self.explode_only:
            return self._explode_roller()
        return self._roll_general

    def _explode_roller(self) -> Callable[[Any, list], int]:
        """``NdM!`` and ``NdM!!`` with nothing else: the general roller's record and total, without its
        questions (the most common modified term)."""
        n, s, lo = self.count, self.sides, self.faces[0]
        explodes = self.explode.predicate()  # type: ignore[union-attr]

        def roll_explode(r: Any, rec: list) -> int:
            units = []
            total = 0
            for _ in range(n):
                v = int(r() * s) + lo
                if not explodes(v):
                    units.append([[v, 0]])
                    total += v
                    continue
                throws = [[v, EXPLODED]]
                total += v
                for _depth in range(MAX_EXPLOSIONS):
                    v = int(r() * s) + lo
                    total += v
                    if not explodes(v):
                        throws.append([v, ADDED])
                        break
                    throws.append([v, ADDED | EXPLODED])
                else:
                    raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                units.append(throws)
            rec.append((self, units))
            return total
        return roll_explode

    def _flat_roller(self) -> Callable[[Any, list], int]:
        n, s, lo = self.count, self.sides, self.faces[0]
        a, b = self.window if self.window is not None else (0, n)
        whole = self.window is None
        hit = self.success.predicate() if self.success is not None else None
        miss = self.failure.predicate() if self.failure is not None else None
        selection = self.selection

        def roll_flat(r: Any, rec: list) -> int:
            vals = [int(r() * s) + lo for _ in range(n)]
            rec.append((self, vals))
            if selection is not None:
                kept = [v for v, k in zip(vals, selection.kept(vals)) if k]
            else:
                kept = vals if whole else sorted(vals)[a:b]
            if hit is None:
                return sum(kept)
            if miss is None:
                return sum(map(hit, kept))
            return sum(1 if hit(v) else -1 if miss(v) else 0 for v in kept)
        return roll_flat

    def _dropped(self, data: list) -> set[int]:
        if self.selection is not None:
            return {i for i, k in enumerate(self.selection.kept(data)) if not k}
        if self.window is None or self.keep == len(data):
            return set()
        a, b = self.window
        order = sorted(range(len(data)), key=data.__getitem__)
        return set(order[:a] + order[b:])

    def _roll_general(self, r: Any, rec: list) -> int:
        faces, s = self.faces, self.sides
        reroll, explode, pen = self.reroll, self.explode, int(self.penetrate)
        allowed, cap = self.allowed, self.reroll_cap
        units: list[list[list[int]]] = []
        seen: set[int] = set()
        limit = MAX_EXPLOSIONS if self.explode_limit is None else self.explode_limit
        for _ in range(self.count):
            throws: list[list[int]] = []
            v = faces[int(r() * s)]
            if reroll is not None:
                tries = 0
                while reroll.test(v):
                    throws.append([v, REROLLED])
                    tries += 1
                    if self.reroll_once:
                        v = faces[int(r() * s)]
                        break
                    if tries >= cap:
                        v = allowed[int(r() * len(allowed))]
                        break
                    v = faces[int(r() * s)]
            if self.unique_on:
                tries = 0
                while v in seen and self._unique_test(v):
                    throws.append([v, REROLLED])
                    tries += 1
                    if self.unique_once:
                        v = faces[int(r() * s)]
                        break
                    if tries >= MAX_REROLLS:
                        free = [f for f in faces if f not in seen or not self._unique_test(f)]
                        v = free[int(r() * len(free))]
                        break
                    v = faces[int(r() * s)]
                seen.add(v)
            throws.append([v, 0])
            if explode is not None:
                depth = 0
                while explode.test(v):
                    depth += 1
                    if depth > limit:
                        if self.explode_limit is not None:
                            break
                        raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                    throws[-1][1] |= EXPLODED
                    v = faces[int(r() * s)]
                    throws.append([v - pen, ADDED])  # a penetrating die counts one less; its face explodes
            units.append(throws)
        if self.per_die:
            rec.append((self, units))
            return self._rank_each_die(units)
        scores = [self._unit_score(u) for u in units]
        if self.selection is not None:
            keys = [sum(t[0] for t in u if not t[1] & REROLLED) for u in units]
            for i, k in enumerate(self.selection.kept(keys)):
                if not k:
                    for t in units[i]:
                        t[1] |= DROPPED
                    scores[i] = 0
        if self.window is not None and self.keep != len(units):
            a, b = self.window
            keys = [sum(t[0] for t in u if not t[1] & REROLLED) for u in units]
            order = sorted(range(len(units)), key=keys.__getitem__)
            for i in order[:a] + order[b:]:
                for t in units[i]:
                    t[1] |= DROPPED
                scores[i] = 0
        rec.append((self, units))
        return sum(scores)

    def _rank_each_die(self, units: list) -> int:
        """explosions="dice": keep / drop rank every die thrown (d20, rpg-dice-roller); marks the dropped."""
        throws = [t for u in units for t in u if not t[1] & REROLLED]
        keys = [t[0] for t in throws]
        if self.selection is not None:
            kept = self.selection.kept(keys)
        else:
            a, b = window_of(self.keeps, len(throws)) or (0, len(throws))
            order = sorted(range(len(throws)), key=keys.__getitem__)
            keep_set = set(order[a:b])
            kept = [i in keep_set for i in range(len(throws))]
        score = 0
        for t, k in zip(throws, kept):
            if k:
                score += t[0] if self.success is None else self._face_score(t[0])
            else:
                t[1] |= DROPPED
        return score

    def _unit_score(self, unit: list[list[int]]) -> int:
        faces = [t[0] for t in unit if not t[1] & REROLLED]
        if self.success is None:
            return sum(faces)
        if self.compound:
            faces = [sum(faces)]
        return sum(self._face_score(f) for f in faces)

    def _critical(self, v: int) -> str | None:
        if self.crit_success is not None and self.crit_success.test(v):
            return "success"
        if self.crit_failure is not None and self.crit_failure.test(v):
            return "failure"
        return None

    def dice(self, data: list) -> list[Die]:
        """Die views of this term's record."""
        kind, sides, label = self.kind, self.sides, self.label
        if self.plain:
            dropped: set[int] = set()
            if self.window is not None and self.keep != len(data):
                a, b = self.window
                order = sorted(range(len(data)), key=data.__getitem__)
                dropped = set(order[:a] + order[b:])
            if not dropped:
                return [_new_tuple(Die, (kind, sides, v, True, False, False, False, False, None, label, None))
                        for v in data]
            return [_new_tuple(Die, (kind, sides, v, i not in dropped, False, False, False, False, None, label, None))
                    for i, v in enumerate(data)]
        marks = self.crit_success is not None or self.crit_failure is not None
        if self.flat:
            gone = self._dropped(data)
            return [Die(kind, sides, v, i not in gone, False, False, False, False, None, label,
                        self._critical(v) if marks else None) for i, v in enumerate(data)]
        out = []
        for unit in data:
            for v, f in unit:
                out.append(Die(kind, sides, v, not f & (REROLLED | DROPPED), bool(f & EXPLODED), bool(f & REROLLED),
                               bool(f & ADDED), False, None, label, self._critical(v) if marks else None))
        return out

    def dice_json(self, data: list, dropped: bool = False) -> str:
        """The JSON of :meth:`dice`, each kind of die written once (:class:`~diceengine.rolljson.FaceJson`);
        ``dropped``: every die marked not kept (its group's item is dropped)."""
        kept, dropped_faces, thrown = self._json or self._json_tables()
        if dropped:
            if self.flat:
                return ",".join(map(dropped_faces.__getitem__, data))
            return ",".join([thrown[(v << 4) | f | DROPPED] for unit in data for v, f in unit])
        if self.flat:
            gone = self._dropped(data)
            if not gone:
                return ",".join(map(kept.__getitem__, data))
            return ",".join([dropped_faces[v] if i in gone else kept[v] for i, v in enumerate(data)])
        return ",".join([thrown[(v << 4) | f] for unit in data for v, f in unit])  # flags < 16

    def _json_tables(self) -> tuple[FaceJson, FaceJson, FaceJson]:
        """Face -> JSON of the die kept, dropped; ``face << 4 | flags`` -> JSON of a die of a unit."""
        kind, sides, label = self.kind, self.sides, self.label
        marks = self.crit_success is not None or self.crit_failure is not None
        crit = self._critical if marks else lambda v: None
        tables = (FaceJson(lambda v: Die(kind, sides, v, True, label=label, critical=crit(v))),
                  FaceJson(lambda v: Die(kind, sides, v, False, label=label, critical=crit(v))),
                  FaceJson(lambda k: Die(kind, sides, k >> 4, not k & (REROLLED | DROPPED), bool(k & EXPLODED),
                                         bool(k & REROLLED), bool(k & ADDED), label=label, critical=crit(k >> 4))))
        object.__setattr__(self, "_json", tables)
        return tables

    def _face(self, v: int, kept: bool, score: int = 0, flags: int = 0) -> Face:
        """The part of one face (made once per face, state and score: parts are immutable)."""
        faces = self.__dict__.get("_faces")
        if faces is None:
            faces = self.__dict__["_faces"] = {}
        key = (v, kept, score, flags)
        found = faces.get(key)
        if found is None:
            crit = self._critical(v) if (self.crit_success is not None or self.crit_failure is not None) else None
            die = Die(self.kind, self.sides, v, kept, bool(flags & EXPLODED), bool(flags & REROLLED),
                      bool(flags & ADDED), False, None, self.label, crit)
            marked = None if crit is None and self.crit_success is None else crit == "success"
            found = Face(die, score=score, critical=marked)
            if len(faces) < _FACE_PARTS:
                faces[key] = found
        return found

    def parts(self, data: list) -> list[Part]:
        """The term's dice as parts of a text (:mod:`diceengine.parts`): ``[6, 5, 3, ~1~]``; ``6!+4`` an
        explosion; ``*`` a success; ``20(cs)`` a critical success."""
        parts: list[Part] = ["["]
        window = self.window
        if self.plain and (window is None or window[1] - window[0] >= len(data)):
            parts.append(DiceRun(self.kind, self.sides, tuple(data), ", ", self.label))
        elif self.flat:
            gone = self._dropped(data)
            order: Any = range(len(data))
            if self.sort is not None:
                order = sorted(order, key=data.__getitem__, reverse=self.sort == "sd")
            counts = self.success is not None
            marks = self.crit_success is not None or self.crit_failure is not None
            make = self._face
            for j, i in enumerate(order):
                if j:
                    parts.append(", ")
                v = data[i]
                kept = i not in gone
                face = make(v, kept, self._face_score(v) if counts and kept else 0)
                if not marks:
                    parts.append(face)
                    continue
                score = face.score
                mark = _CRIT_MARKS.get(face.die.critical or "")
                if mark and kept and not score:
                    parts += (face, mark)
                elif mark and kept:  # the mark goes right after the face, before its success marks
                    parts += (face._replace(score=0), mark, "*" * max(score, 0) + "_" * max(-score, 0))
                elif mark:
                    parts.append(Group((face, mark)))
                else:
                    parts.append(face)
        else:
            units = data
            if self.sort is not None:
                units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                               reverse=self.sort == "sd")
            for j, unit in enumerate(units):
                if j:
                    parts.append(", ")
                parts.extend(self._unit_parts(unit))
        parts.append("]")
        if self.label:
            parts.append(f" ({self.label})")
        return parts

    def _unit_parts(self, unit: list) -> list[Part]:
        """One die and the dice its explosions and re-rolls added: ``6!+4``, ``~1~r 5``."""
        unit_dropped = not self.per_die and any(f & DROPPED for _, f in unit)
        shown: list[Part] = []
        after_reroll = False
        for k, (v, f) in enumerate(unit):
            if k:
                shown.append(" " if after_reroll else "+")
            after_reroll = bool(f & REROLLED)
            score = self._face_score(v) if self.per_die and self.success is not None and \
                not f & (DROPPED | REROLLED) else 0
            shown.append(self._face(v, not f & (REROLLED | DROPPED), score, f))
        last = shown[-1]
        if self.success is not None and not unit_dropped and not self.per_die and isinstance(last, Face):
            shown[-1] = last._replace(score=self._unit_score(unit))
        return [Group(tuple(shown))] if unit_dropped else shown

    def writer(self, text: Callable[[Any], str]) -> Callable[[list], str]:
        """:meth:`parts` compiled for one format and language (``text``: a part's text): ``data -> the
        text of the parts``, each face's text asked once."""
        opening, sep = text("["), text(", ")
        closing = text("]") + (text(f" ({self.label})") if self.label else "")
        run = dice_writer(text, self.kind, self.sides, ", ", self.label) if self.plain else None
        literals = {s: text(s) for s in ("+", " ")}
        known: dict[int, tuple[Any, str]] = {}  # other dice: id(part) -> (part, text); parts made once per face

        def part_text(part: Any) -> str:
            if type(part) is str:
                found = literals.get(part)
                return found if found is not None else text(part)
            seen = known.get(id(part))
            if seen is not None and seen[0] is part:
                return seen[1]
            found = text(part)
            if len(known) >= _FACE_PARTS:
                known.clear()
            known[id(part)] = (part, found)
            return found

        if not self.flat:
            units_seen: dict[Any, str] = {}  # a unit's dice ((face, flags) of each) -> its text

            def write_units(data: list) -> str:
                units = data
                if self.sort is not None:
                    units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                                   reverse=self.sort == "sd")
                shown = []
                for unit in units:
                    key = (unit[0][0], unit[0][1]) if len(unit) == 1 else tuple(map(tuple, unit))
                    found = units_seen.get(key)
                    if found is None:
                        found = "".join([part_text(p) for p in self._unit_parts(unit)])
                        if len(units_seen) < _FACE_PARTS:
                            units_seen[key] = found
                    shown.append(found)
                return opening + sep.join(shown) + closing
            return write_units
        if self.crit_success is not None or self.crit_failure is not None:
            return lambda data: "".join([part_text(p) for p in self.parts(data)])
        counts = self.success is not None
        make, score = self._face, self._face_score
        window = self.window

        kept_texts = TextMemo(lambda v: text(make(v, True, score(v) if counts else 0)))
        dropped_texts = TextMemo(lambda v: text(make(v, False, 0)))

        def write_flat(data: list) -> str:
            if run is not None and (window is None or window[1] - window[0] >= len(data)):
                return opening + run(data) + closing
            gone = self._dropped(data)
            if not gone and self.sort is None:
                return opening + sep.join(map(kept_texts.__getitem__, data)) + closing
            order: Any = range(len(data))
            if self.sort is not None:
                order = sorted(order, key=data.__getitem__, reverse=self.sort == "sd")
            return opening + sep.join([dropped_texts[data[i]] if i in gone else kept_texts[data[i]]
                                       for i in order]) + closing

        return write_flat

    def render(self, data: list) -> str:
        """The term's dice as text: ``[6, 5, 3, ~1~]``; ``6!+4`` an explosion; ``*`` a success; ``20(cs)``
        a critical success."""
        if self.plain:
            if self.window is None:
                return "[" + ", ".join(map(str, data)) + self._label_suffix
            if self.keep == len(data):
                text = ", ".join(map(str, data))
            else:
                a, b = self.window
                order = sorted(range(len(data)), key=data.__getitem__)
                gone = set(order[:a] + order[b:])
                text = ", ".join(f"~{v}~" if i in gone else str(v) for i, v in enumerate(data))
            return f"[{text}] ({self.label})" if self.label else f"[{text}]"
        if self.flat:
            return self._render_flat(data)
        if self.explode_only:
            texts = [str(unit[0][0]) if len(unit) == 1 else "+".join([f"{v}!" if f & EXPLODED else str(v)
                                                                      for v, f in unit]) for unit in data]
            return "[" + ", ".join(texts) + self._label_suffix
        parts = []
        units = data
        if self.sort is not None:
            units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                           reverse=self.sort == "sd")
        marks = self.crit_success is not None or self.crit_failure is not None
        per_die = self.per_die
        for unit in units:
            shown = []
            dropped = not per_die and any(f & DROPPED for _, f in unit)
            for v, f in unit:
                mark = ""
                if marks:
                    crit = self._critical(v)
                    mark = "" if crit is None else "(cs)" if crit == "success" else "(cf)"
                if f & REROLLED:
                    shown.append(f"~{v}~r ")
                elif per_die and f & DROPPED:
                    shown.append(f"~{v}{mark}{'!' if f & EXPLODED else ''}~")
                else:
                    shown.append(f"{v}{mark}{'!' if f & EXPLODED else ''}")
            text = "".join(s if s.endswith(" ") else s + "+" for s in shown).rstrip("+").replace("r +", "r ")
            if self.success is not None and not dropped and not per_die:
                score = self._unit_score(unit)
                text += "*" * max(score, 0) + "_" * max(-score, 0)
            parts.append(f"~{text}~" if dropped else text)
        label = f" ({self.label})" if self.label else ""
        return "[" + ", ".join(parts) + "]" + label

    def _render_flat(self, data: list) -> str:
        kept, dropped = self._flat_texts or self._flat_text_tables()
        gone = self._dropped(data)
        if self.sort is None and not gone:
            return "[" + ", ".join(map(kept.__getitem__, data)) + self._label_suffix
        order: Any = range(len(data))
        if self.sort is not None:
            order = sorted(order, key=data.__getitem__, reverse=self.sort == "sd")
        return "[" + ", ".join([dropped[data[i]] if i in gone else kept[data[i]] for i in order]) + self._label_suffix

    def _flat_text_tables(self) -> tuple[TextMemo, TextMemo]:
        """Face -> its text kept (``10*``, ``20(cs)*``, ``1_``) and dropped (``~3~``), each written once."""
        hit = self.success.predicate() if self.success is not None else None
        miss = self.failure.predicate() if self.failure is not None else None
        marks = self.crit_success is not None or self.crit_failure is not None

        def shown(v: int) -> str:
            crit = self._critical(v) if marks else None
            return str(v) + ("" if crit is None else _CRIT_MARKS[crit])

        def kept(v: int) -> str:
            if hit is None:
                return shown(v)
            return shown(v) + ("*" if hit(v) else "_" if miss is not None and miss(v) else "")

        tables = (TextMemo(kept), TextMemo(lambda v: f"~{shown(v)}~"))
        object.__setattr__(self, "_flat_texts", tables)
        return tables

    # ---------------------------------------------------------------- exact
    def _tolerance(self) -> float:
        return TRUNCATION / max(1, self.count) / 10

    def exact_cost(self) -> tuple[Cost, int, int]:
        """``(cost, lo, hi)``: what :meth:`pmf` will cost and the range of its support, estimated from the
        term alone (nothing is allocated); the simulation follows :meth:`_units` and :meth:`pmf` step by step."""
        if self.count == 0:
            return Cost(), 0, 0
        s = self.sides
        if self._keeps_nothing():
            return Cost(), 0, 0
        if self.per_die:
            return self._each_die_cost()
        if self.unique_on:  # state by state: at most MAX_UNIQUE_STATES states per die
            lo, hi = self.bounds()
            states = min(MAX_UNIQUE_STATES, comb(s + self.count, self.count))
            depth = 1 if self.explode is None else 8
            return Cost(self.count * depth * states * s * PYTHON_STEP, states), lo, hi
        ranked = (self.keep is not None and self.keep < self.count) or self.selection is not None
        if self.explode is None and not ranked:  # vectorised: a few numpy passes over the faces
            s_lo, s_hi = self._tallied(((-1 if self.failure is not None else 0), 1) if self.success is not None else
                                       (self.faces[0], self.faces[-1]))
            power, _ = power_cost(s_hi - s_lo + 1, self.count)
            return Cost(12 * s + 4 * NUMPY_CALL, 4 * s) + power, self.count * s_lo, self.count * s_hi
        cost = Cost(4 * s * PYTHON_STEP, s)  # the first face, listed once per face
        first = self.allowed if self.reroll is not None and not self.reroll_once else self.faces
        counting = self.success is not None
        per_count = counting and not self.compound
        if self.explode is None:
            keys, lo, hi = len(first), first[0], first[-1]
            s_lo, s_hi = self._tallied(((-1 if self.failure is not None else 0), 1) if counting else (lo, hi))
        else:
            on, off = split_faces(self.faces, self.explode)
            q = len(on) / s
            tol = self._tolerance()
            depth = 0
            mass = q  # about the chance that a first face explodes
            limit = MAX_EXPLOSIONS if self.explode_limit is None else self.explode_limit
            while mass > tol and depth < limit:
                mass *= q
                depth += 1
            codes = 1  # counts of marked faces a unit's chains are followed apart for (tallied)
            if self.tally is not None:
                depth = self.chain_depth()
                ns, nf = self.marks_per_unit()
                codes = (ns + 1 if self.crit_success is not None else 1) * (nf + 1 if self.crit_failure is not None else 1)
            on_lo, on_hi = on[0], on[-1]
            lo = min(first[0], first[0] + depth * (on_lo - 1))
            hi = max(first[-1], first[-1] + depth * on_hi)
            if not per_count:  # chain sums by convolutions
                span_on, span_off = on_hi - on_lo + 1, (off[-1] - off[0] + 1) if len(off) else 1
                going = span_on
                done = span_off
                for _ in range(depth):
                    step = convolve_cost(going, span_off) + convolve_cost(going, span_on) + Cost(done, done)
                    if codes > 1:  # each count apart, each face's mark apart: a few numpy calls each
                        step = Cost(3 * codes * (step.work + 8 * NUMPY_CALL), step.cells)
                    cost = cost + step
                    done = going + span_off + done
                    going += span_on - 1
                keys = hi - lo + 1
                cost = cost + Cost(3 * codes * keys * PYTHON_STEP, 2 * codes * keys)
                s_lo, s_hi = ((-1 if self.failure is not None else 0), 1) if counting else (lo, hi)
            else:  # per-face success counts, state by state
                states, steps = 1, 0.0
                for i in range(depth):
                    states = (i + 1) * (on_hi - on_lo + 1) * (2 * i + 3) if ranked else 2 * i + 3
                    states *= codes
                    steps += states * s
                cost = cost + Cost(2 * steps * PYTHON_STEP, states)
                keys = hi - lo + 1 if ranked else 1
                s_lo, s_hi = (-(depth + 1) if self.failure is not None else 0), depth + 1
            s_lo, s_hi = self._tallied((s_lo, s_hi))
        if self.selection is not None and not self.selection.by_value:
            cost = cost + Cost(keys * 4 * PYTHON_STEP, keys) + self.selection.pmf_cost(keys, self.count, s_hi - s_lo + 1)
            return cost, min(0, self.count * s_lo), max(0, self.count * s_hi)
        if not ranked or self.selection is not None:
            power, _ = power_cost(s_hi - s_lo + 1, self.count)
            return cost + power, min(0, self.count * s_lo), max(0, self.count * s_hi)
        k = self.keep or 0
        if not counting and self.tally is None and self.window is not None and \
                (self.window[0] == 0 or self.window[1] == self.count):
            return cost + keep_sum_cost(keys, self.count, k, s_lo, s_hi), min(0, k * s_lo), max(0, k * s_hi)
        return cost + keep_dp_cost(keys, self.count, k, s_hi - s_lo + 1), min(0, k * s_lo), max(0, k * s_hi)

    def _keeps_nothing(self) -> bool:
        """Whether the keep / drop leave no die (``5d10!kh2kl2``: the two highest and the two lowest are four
        distinct dice): the score is 0, whatever is thrown."""
        if self.selection is not None or self.tally is not None or self.unique_on or not self.keeps:
            return False
        if not self.per_die:
            return self.window is not None and self.window[1] <= self.window[0]
        # every die ranked: as many dice as asked or more are thrown; past count + the keep sizes, the same ranks
        last = self.count + sum(k.n for k in self.keeps) + 2
        return all((w := window_of(self.keeps, n)) is not None and w[1] <= w[0] for n in range(self.count, last))

    def _tallied(self, scores: tuple[int, int]) -> tuple[int, int]:
        """The range of a unit's score, critical marks included when tallied (:meth:`with_tally`)."""
        if self.tally is None:
            return scores
        if self.per_die:
            return scores[0], scores[1] + self.tally[2] + self.tally[3]
        ns, nf = self.marks_per_unit()
        return scores[0], scores[1] + self.tally[2] * ns + self.tally[3] * nf

    def _each_die_cost(self) -> tuple[Cost, int, int]:
        """:meth:`exact_cost` of :meth:`_each_die_pmf`: its steps counted by :meth:`_each_die_shape` (the same walk
        over the states, without the masses), each at the work it takes."""
        assert self.explode is not None
        units, u_lo, u_hi = self._kept_units()
        lo, hi = min(0, units * u_lo), max(0, units * u_hi)  # the chains followed
        if self.tally is not None:
            lo, hi = self.tally[0], self.tally[0] + self.tally[1] * (self.tally[4] + 1) * (self.tally[5] + 1)
        mode, _, _ = self._each_die_mode()
        steps, cells, most, width = self._each_die_shape()
        work = steps * EACH_DIE_STEP * (4 if mode == "d20" else 1) + cells * EACH_DIE_CELL
        if most > MAX_UNIQUE_STATES or steps > MAX_EACH_DIE_STEPS:  # what _each_die_pmf refuses
            work = max(work, 2 * MAX_WORK)
        return Cost(work, max(most, 1) * width), lo, hi

    def _each_die_shape(self) -> tuple[float, float, int, int]:
        """What :meth:`_each_die_pmf` will do, found by walking its states without their masses: ``(steps, cells
        merged, most states at once, widest sum array)``. The explosions' depth is known from the faces (a
        throw's mass is that of its chain); a level of a chain that repeats the one before (the same states,
        their sums shifted alike), and a die that repeats the one before (the same states, no sums followed),
        make every later one cost the same: counted without walking them. Stops once past the work budget (the
        answer is then only known to exceed it)."""
        found = getattr(self, "_each_die_shape_cache", None)
        if found is not None:
            return found
        explode = self.explode
        assert explode is not None
        mode, low, high = self._each_die_mode()
        add = self._each_die_add(mode, low, high)
        need_total = self._each_die_total(mode)
        gain = self._each_die_gain(mode)
        pen = int(self.penetrate)
        first_faces = self._first_face()
        q1 = sum(p for f, p in first_faces.items() if explode.test(f))
        q = sum(1 for f in self.faces if explode.test(f)) / self.sides
        levels, mass = 1, q1  # levels walked per die: the chain's mass left after a level stops the walk
        while mass > self._tolerance() * (1 - 1e-9) and levels <= MAX_EACH_DIE_STEPS:
            mass *= q
            levels += 1
        limit = self.explode_limit
        step_work = EACH_DIE_STEP * (4 if mode == "d20" else 1)
        # each face: (the value added, what it adds to the sum followed, whether the chain goes on)
        first = [(f, gain(f) if need_total else 0, explode.test(f)) for f in first_faces]
        later = [(f - pen, gain(f - pen) if need_total else 0, explode.test(f)) for f in sorted(set(self.faces))]
        moves: dict[tuple[_EachKey, int], _EachKey] = {}  # add() remembered: the same moves come back die after die
        Ranges = dict[_EachKey, tuple[int, int]]  # a state's sum array: [lo, hi) (one cell when no sum is followed)

        def put(target: Ranges, key: _EachKey, lo: int, hi: int) -> None:
            had = target.get(key)
            target[key] = (lo, hi) if had is None else (min(had[0], lo), max(had[1], hi))

        states: Ranges = {(0, (), ()): (0, 1)}
        steps = cells = 0.0
        most = width = 1
        for die in range(self.count):
            die_steps, die_cells = steps, cells
            done: Ranges = {}
            going, level = states, 0
            while going and level < levels:
                faces = first if level == 0 else later
                last = limit is not None and level >= limit
                nxt: Ranges = {}
                to_done: Ranges = {}
                for state, (lo, hi) in going.items():
                    for v, d, on in faces:
                        key = moves.get((state, v))
                        if key is None:
                            key = moves[(state, v)] = add(state, v)
                        target = nxt if on and not last else to_done
                        if not need_total:  # no sums: the states only
                            target[key] = (0, 1)
                        else:
                            put(target, key, lo + d, hi + d)
                span = sum(hi - lo for lo, hi in going.values()) if need_total else 0
                steps += len(going) * len(faces)
                cells += span * len(faces)
                if not need_total:
                    done.update(to_done)
                else:
                    for key, (lo, hi) in to_done.items():
                        put(done, key, lo, hi)
                most = max(most, len(done) + len(nxt))
                if need_total:
                    width = max([width] + [hi - lo for lo, hi in nxt.values()] + [hi - lo for lo, hi in done.values()])
                if steps * step_work + cells * EACH_DIE_CELL > MAX_WORK:  # over the budget: refused anyway
                    result = (steps, cells, most, width)
                    object.__setattr__(self, "_each_die_shape_cache", result)
                    return result
                delta = _shifted(going, nxt) if level >= 1 and limit is None else None
                level += 1
                if delta is not None:  # every level left repeats this one, shifted by delta
                    left = levels - level
                    steps += left * len(nxt) * len(later)
                    cells += left * span * len(later)
                    for key, (lo, hi) in to_done.items():
                        put(done, key, lo + delta, hi + delta)
                        put(done, key, lo + left * delta, hi + left * delta)
                    break
                going = nxt
            left = self.count - die - 1
            if not need_total and done.keys() == states.keys():  # every die left repeats this one
                steps += left * (steps - die_steps)
                cells += left * (cells - die_cells)
                break
            states = done
            # the dice left follow at least as many states as this one: past the budget already, refused
            if (steps + left * (steps - die_steps)) * step_work + (cells + left * (cells - die_cells)) * \
                    EACH_DIE_CELL > MAX_WORK:
                steps += left * (steps - die_steps)
                cells += left * (cells - die_cells)
                break
        object.__setattr__(self, "_each_die_moves", moves)  # for _each_die_pmf: the same moves, not built again
        result = (steps, cells, most, width)
        object.__setattr__(self, "_each_die_shape_cache", result)
        return result

    def _first_face_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(faces, probabilities)`` of the first kept face of one die (vectorised :meth:`_first_face`)."""
        values = np.arange(self.faces.start, self.faces.stop)
        s = self.sides
        if self.reroll is None:
            return values, np.full(s, 1 / s)
        hit = self.reroll.test(values)
        if self.reroll_once:
            return values, np.where(hit, 0.0, 1 / s) + hit.sum() / s / s
        return values, np.where(hit, 0.0, 1 / (s - hit.sum()))

    def _first_face(self) -> dict[int, float]:
        """Distribution of the first kept face of one die (after re-rolls)."""
        s = self.sides
        if self.reroll is None and isinstance(self.faces, range):
            return {f: 1 / s for f in self.faces}
        shown = Counter(self.faces)
        if self.reroll is None:
            return {f: c / s for f, c in shown.items()}
        hit = sum(c for f, c in shown.items() if self.reroll.test(f))
        miss = {f: c for f, c in shown.items() if not self.reroll.test(f)}
        if self.reroll_once:
            out = {f: c / s for f, c in miss.items()}
            for f, c in shown.items():
                out[f] = out.get(f, 0.0) + hit / s * c / s
            return out
        total = sum(miss.values())
        return {f: c / total for f, c in miss.items()}

    def _face_score(self, f: int) -> int:
        """+1 a success, -1 a failure; a face meeting both points is a success (as the peers count)."""
        if self.success.test(f):  # type: ignore[union-attr]
            return 1
        return -1 if self.failure is not None and self.failure.test(f) else 0

    def truncated_mass(self) -> float:
        """Probability mass the exact distribution leaves out (explosion chains cut short)."""
        if self.explode is None or self.count == 0 or self.explode_limit is not None or self._keeps_nothing():
            return 0.0
        if self.per_die:
            return self._each_die_pmf()[1]
        return 1.0 - (1.0 - self._units()[1]) ** self.count

    def _units(self) -> tuple[dict[tuple[int, int], float], float]:
        """Joint distribution of (sort key, score) of one unit, and the mass truncated."""
        counting = self.success is not None
        face_score = self._face_score if counting else (lambda f: f)
        first = self._first_face()
        if self.tally is not None:
            face_score = self._score_of
        if self.explode is None:
            out: dict[tuple[int, int], float] = {}
            for f, p in first.items():
                key = (f, face_score(f))
                out[key] = out.get(key, 0.0) + p
            return out, 0.0
        per_count = counting and not self.compound
        tolerance = self._tolerance()
        if not per_count and self.tally is not None:
            return self._marked_chains(first)
        if not per_count:
            return self._chain_sums(first, face_score if counting else None, tolerance)
        most = self.chain_depth() if self.tally is not None else MAX_EXPLOSIONS  # the widths of the tally
        pen = int(self.penetrate)
        ranked = (self.window is not None and self.keep != self.count) or self.selection is not None
        done: dict[tuple[int, int], float] = {}
        going: dict[tuple[int, int], float] = {}
        for f, p in first.items():
            state = (f if ranked else 0, face_score(f))
            target = going if self.explode.test(f) else done
            target[state] = target.get(state, 0.0) + p
        depth = 0
        while going and sum(going.values()) > tolerance and depth < most:
            depth += 1
            last = self.explode_limit is not None and depth >= self.explode_limit
            nxt: dict[tuple[int, int], float] = {}
            for (total, sc), p in going.items():
                for f in self.faces:
                    g = f - pen
                    state = (total + g if ranked else 0, sc + face_score(g))
                    target = nxt if self.explode.test(f) and not last else done
                    target[state] = target.get(state, 0.0) + p / self.sides
            going = nxt
        return done, sum(going.values())

    def _chain_sums(self, first: dict[int, float], score: Any, tolerance: float) \
            -> tuple[dict[tuple[int, int], float], float]:
        """Units of an exploding die whose key is the sum of its chain (numpy convolutions)."""
        explode = self.explode
        assert explode is not None
        pen = int(self.penetrate)
        going = PMF.from_mapping({f: p for f, p in first.items() if explode.test(f)})
        done = PMF.from_mapping({f: p for f, p in first.items() if not explode.test(f)})
        on, off = split_faces(self.faces, explode)
        step_on = PMF.from_counts(on, 1 / self.sides).shift(-pen)
        step_off = PMF.from_counts(off, 1 / self.sides).shift(-pen)
        if self.explode_limit is not None:
            done = done.mix(going + step_on.mix(step_off))
            going = PMF.point(0, 0.0)
        while going.mass > tolerance:
            done = done.mix(going + step_off)
            going = going + step_on
        out: dict[tuple[int, int], float] = {}
        for total, p in done.items():
            key = (total, score(total) if score is not None else total)
            out[key] = out.get(key, 0.0) + p
        return out, going.mass

    def _marked_chains(self, first: dict[int, float]) -> tuple[dict[tuple[int, int], float], float]:
        """:meth:`_chain_sums` of a tallied term (:meth:`with_tally`): the chains' sums followed apart for each
        count of marked faces (numpy convolutions), every face marked as recorded (one less for a penetrating
        added die), the score (the sum, or compound: its success score) tallied with the counts at the end."""
        explode = self.explode
        assert explode is not None and self.tally is not None
        pen = int(self.penetrate)
        ws, wf = self.tally[2], self.tally[3]
        Code = tuple[int, int]

        def mark(v: Any) -> Any:  # 0: none, 1: success, 2: failure (arrays)
            crit_s = self.crit_success.test(v) if self.crit_success is not None else np.zeros(np.shape(v), bool)
            crit_f = self.crit_failure.test(v) & ~crit_s if self.crit_failure is not None else crit_s & False
            return crit_s * 1 + crit_f * 2

        def put(table: dict[Code, PMF], code: Code, part: PMF) -> None:
            found = table.get(code)
            table[code] = part if found is None else found.mix(part)

        shifts = {0: (0, 0), 1: (1, 0), 2: (0, 1)}
        going: dict[Code, PMF] = {}
        done: dict[Code, PMF] = {}
        firsts: dict[tuple[bool, int], dict[int, float]] = {}
        for f, p in first.items():
            cls = firsts.setdefault((bool(explode.test(f)), int(mark(f))), {})
            cls[f] = cls.get(f, 0.0) + p
        for (on, m), table in firsts.items():
            put(going if on else done, shifts[m], PMF.from_mapping(table))
        thrown = self.faces.take(np.arange(self.sides)) if not isinstance(self.faces, range) else \
            np.arange(self.faces.start, self.faces.stop)
        recorded = thrown - pen
        ons, marks = explode.test(thrown), mark(recorded)
        steps: list[tuple[bool, Code, PMF]] = []
        for on in (True, False):
            for m in (0, 1, 2):
                pick = (ons == on) & (marks == m)
                if pick.any():
                    vals = recorded[pick]
                    low = int(vals.min())
                    steps.append((on, shifts[m], PMF(low, np.bincount(vals - low) / self.sides)))
        depth, most = 0, self.chain_depth()
        while going and depth < most:
            depth += 1
            last = self.explode_limit is not None and depth >= self.explode_limit
            nxt: dict[Code, PMF] = {}
            for (cs, cf), chains in going.items():
                for on, (ds, df), step in steps:
                    put(nxt if on and not last else done, (cs + ds, cf + df), chains + step)
            going = nxt
        out: dict[tuple[int, int], float] = {}
        counting = self.success is not None
        for (cs, cf), sums in done.items():
            tally = ws * cs + wf * cf
            for total, p in sums.items():
                key = (total, (self._face_score(total) if counting else total) + tally)
                out[key] = out.get(key, 0.0) + p
        return out, sum(chains.mass for chains in going.values())

    def pmf(self) -> PMF:
        """Exact distribution of the term's score."""
        if self.count == 0:
            return PMF.point(0)
        if self._keeps_nothing():
            return PMF.point(0)
        if self.unique_on:
            return self._unique_pmf()
        if self.per_die:
            return self._each_die_pmf()[0]
        if self.explode is None and self.window is None and self.selection is None and self.consecutive:
            values, probs = self._first_face_arrays()
            if self.success is not None or self.tally is not None:
                values = self._score_array(values)
            lo = int(values.min())
            return PMF(lo, np.bincount(values - lo, weights=probs)).power(self.count)
        units, _ = self._units()
        if self.selection is not None and not self.selection.by_value:  # ranks mixed: key by key
            return self.selection.pmf(_by_key(units), self.count)
        if self.selection is not None:
            keeps = self.selection.keeps_value
            picked: dict[tuple[int, int], float] = {}
            for (key, sc), p in units.items():
                state = (key, sc if keeps(key) else 0)
                picked[state] = picked.get(state, 0.0) + p
            units = picked
        if self.window is None or self.keep == self.count:
            score: dict[int, float] = {}
            for (_, sc), p in units.items():
                score[sc] = score.get(sc, 0.0) + p
            return PMF.from_mapping(score).power(self.count)
        a, b = self.window
        n = self.count
        if self.success is None and self.tally is None and (a == 0 or b == n):  # a die's score is its value
            return keep_sum([(key, p) for (key, _), p in units.items()], n, b - a, a > 0)
        table = _by_key(units)
        if a == 0 or b == n:
            return keep_dp(table, n, b - a, a > 0)
        return keep_window(table, n, a, b)

    def _each_die_mode(self) -> tuple[str, int, int]:
        """How :meth:`_each_die_pmf` follows the dice: ``(mode, low, high)``. ``mode`` is one keep / drop kind
        (``kh kl dh dl``: the ``high`` or ``low`` extreme faces it needs), ``value`` (d20's selection by value:
        a sum), ``window`` (several keep / drop of Roll20: the count, the sum and the ``low`` lowest and
        ``high`` highest faces), ``union`` (one d20 operator joining selectors: the same, with the sum of the
        scores of the dice its value selectors choose, or do not choose for ``p``) or ``d20`` (d20's operators
        in a row mixing ranks: every face, sorted)."""
        sel = self.selection
        if sel is not None:
            if sel.by_value:
                return "value", 0, 0
            if len(sel.groups) == 1 and len(sel.groups[0][1]) == 1:
                mode, (kind, n) = sel.groups[0][0], sel.groups[0][1][0]
                one = {"k": "k", "p": "d"}[mode] + kind
                return one, (n if kind == "l" else 0), (n if kind == "h" else 0)
            if len(sel.groups) == 1:  # one operator: its selectors joined
                sels = sel.groups[0][1]
                return ("union", max([n for k, n in sels if k == "l"], default=0),
                        max([n for k, n in sels if k == "h"], default=0))
            return "d20", 0, 0
        keeps = self._each_die_keeps()
        if len(keeps) == 1:
            kind, n = keeps[0].kind, keeps[0].n
            return kind, (n if kind in ("kl", "dl") else 0), (n if kind in ("kh", "dh") else 0)
        low = max([k.n for k in keeps if k.kind in ("kl", "dl")], default=0)
        high = max([k.n for k in keeps if k.kind in ("kh", "dh")], default=0)
        return "window", low, high

    def _each_die_keeps(self) -> tuple[Keep, ...]:
        """Roll20's keep / drop without those that change nothing when at least ``count`` dice are thrown
        (``6d6!kh3dl1`` is ``6d6!kh3``): fewer faces to follow."""
        def kept(keeps: Sequence[Keep], n: int) -> tuple[int, int]:
            lo, hi = window_of(keeps, n) or (0, n)
            return (lo, hi) if hi > lo else (0, 0)

        keeps = list(self.keeps)
        last = self.count + sum(k.n for k in keeps) + 2  # past it every window is the same (see _each_die_pmf)
        for k in list(keeps):
            rest = [x for x in keeps if x is not k]
            if rest and all(kept(rest, n) == kept(keeps, n) for n in range(self.count, last)):
                keeps = rest
        return tuple(keeps)

    def _each_die_pmf(self) -> tuple[PMF, float]:
        """Exact odds when keep / drop rank every die thrown: the dice followed throw by throw, keeping what the
        keep / drop needs (:meth:`_each_die_mode`): the few extreme faces one keep / drop needs, the count too
        for several, every face for d20's operators mixing ranks; when the sum of the scores is needed too
        (drops, d20's selection by value), each state holds its distribution as an array."""
        found = getattr(self, "_each_die_cache", None)
        if found is not None:
            return found
        explode = self.explode
        assert explode is not None
        mode, low, high = self._each_die_mode()
        score = (lambda v: v) if self.success is None and self.tally is None else self._score_of
        need_total = self._each_die_total(mode)
        pen = int(self.penetrate)
        tolerance = self._tolerance()
        most = self.chain_depth() if self.tally is not None else None
        first = self._first_face()
        later = {f: c / self.sides for f, c in Counter(self.faces).items()}
        every = mode == "d20"
        add = self._each_die_add(mode, low, high)
        gain = self._each_die_gain(mode)
        moves: dict[tuple[_EachKey, int], _EachKey] = getattr(self, "_each_die_moves", None) or {}  # add() remembered

        # a state's mass: a probability, or (offset, array) the distribution of the sum of the scores
        states: dict[_EachKey, Any] = {(0, (), ()): (0, np.ones(1)) if need_total else 1.0}
        lost = 0.0
        steps = 0

        def merge(parts: list[tuple[int, float, Any]]) -> Any:
            if not need_total:
                return sum(w * m for _, w, m in parts)
            WORK.work += sum(len(m[1]) for _, _, m in parts) * EACH_DIE_CELL
            lo = min(d + m[0] for d, _, m in parts)
            hi = max(d + m[0] + len(m[1]) for d, _, m in parts)
            out = np.zeros(hi - lo)
            for d, w, (off, arr) in parts:
                out[d + off - lo:d + off - lo + len(arr)] += w * arr
            return lo, out

        def mass(m: Any) -> float:
            return float(m[1].sum()) if need_total else float(m)

        for _ in range(self.count):
            done: dict[_EachKey, list[tuple[int, float, Any]]] = {}
            going = states
            faces, shift, depth = first, 0, 0
            while going:
                nxt: dict[_EachKey, list[tuple[int, float, Any]]] = {}
                last = self.explode_limit is not None and depth >= self.explode_limit
                for state, m in going.items():
                    for f, q in faces.items():
                        v = f - shift
                        target = nxt if explode.test(f) and not last else done
                        key = moves.get((state, v))
                        if key is None:
                            key = moves[(state, v)] = add(state, v)
                        target.setdefault(key, []).append((gain(v) if need_total else 0, q, m))
                steps += len(going) * len(faces)
                going = {key: merge(parts) for key, parts in nxt.items()}
                faces, shift, depth = later, pen, depth + 1
                left = sum(mass(m) for m in going.values())
                if left <= tolerance or (most is not None and depth > most):  # tallied: the widths' chains
                    lost += left
                    break
                if len(done) + len(going) > MAX_UNIQUE_STATES or steps > MAX_EACH_DIE_STEPS:
                    raise DiceLimitError(f"too many dice for exact odds of {self.text} with explosions='dice'",
                                         column=self.node.pos)
            states = {key: merge(parts) for key, parts in done.items()}
        WORK.work += steps * EACH_DIE_STEP * (4 if every else 1)  # every face: longer tuples sorted at each step
        out = PMF.point(0, 0.0)
        for state, m in states.items():
            minus, value = self._each_die_kept(mode, state, score)
            if minus:  # the sum of the scores, minus those dropped
                out = out.mix(PMF(m[0] - value, m[1]))
            else:
                out = out.mix(PMF.point(value, mass(m)))
        result = (out, lost)
        object.__setattr__(self, "_each_die_cache", result)
        object.__setattr__(self, "_each_die_moves", None)  # the odds are kept: their moves are not needed again
        return result

    def _each_die_add(self, mode: str, low: int, high: int) -> Callable[[_EachKey, int], _EachKey]:
        """The state of :meth:`_each_die_pmf` after one more die showing a face."""
        # past this many dice the window keeps the same ranks of the faces followed (of the highest ones, of the
        # lowest ones, or none): the count is followed up to it
        cap = sum(k.n for k in self._each_die_keeps()) + 1 if mode == "window" else low + high + 1
        every = mode == "d20"

        def add(state: _EachKey, v: int) -> _EachKey:
            n, lows, highs = state
            if every:
                return n, tuple(sorted(lows + (v,))), highs
            if low:
                lows = tuple(sorted(lows + (v,))[:low])
            if high:
                highs = tuple(sorted(highs + (v,))[-high:])
            return min(n + 1, cap), lows, highs

        return add

    def _each_die_gain(self, mode: str) -> Callable[[int], int]:
        """What a die showing a face adds to the sum :meth:`_each_die_pmf` follows (when it follows one)."""
        keeps = self.selection.keeps_value if self.selection is not None else None
        score = (lambda v: v) if self.success is None and self.tally is None else self._score_of
        chosen = self._union_values()

        def gain(v: int) -> int:
            if mode == "value":
                return score(v) if keeps(v) else 0  # type: ignore[misc]
            if mode == "union":  # k: the dice its value selectors choose; p: the others
                return score(v) if chosen(v) == (self.selection.groups[0][0] == "k") else 0  # type: ignore[union-attr]
            return score(v)

        return gain

    def _each_die_total(self, mode: str) -> bool:
        """Whether :meth:`_each_die_pmf` follows a sum of scores (drops only, d20's selection by value, one d20
        operator dropping or with value selectors)."""
        if mode == "union":
            assert self.selection is not None
            return self.selection.groups[0][0] == "p" or any(k not in "hl" for k, _ in self.selection.groups[0][1])
        return mode in ("dh", "dl", "value") or (mode == "window" and not any(
            k.kind in ("kh", "kl") for k in self._each_die_keeps()))

    def _union_values(self) -> Callable[[int], bool]:
        """Whether a face is chosen by a value selector of the first d20 operator (none without a selection)."""
        sels = [(k, n) for k, n in self.selection.groups[0][1] if k not in "hl"] if self.selection else []
        return lambda v: any((v == n) if k == "=" else (v < n) if k == "<" else (v > n) for k, n in sels)

    def _each_die_kept(self, mode: str, state: tuple[int, tuple[int, ...], tuple[int, ...]],
                       score: Callable[[int], int]) -> tuple[bool, int]:
        """The kept score of one state of :meth:`_each_die_pmf`: ``(False, score)``, or ``(True, dropped)`` when it
        is the sum of all the scores minus ``dropped``."""
        n, lows, highs = state
        if mode in ("kh", "kl"):
            return False, sum(score(v) for v in lows + highs)
        if mode in ("dh", "dl"):
            return True, sum(score(v) for v in lows + highs)
        if mode == "value":
            return True, 0
        if mode == "d20":
            assert self.selection is not None
            counts = sorted(Counter(lows).items())
            return False, sum(score(v) * k for (v, _), k in zip(counts, self.selection.kept_counts(counts)))
        if mode == "union":
            assert self.selection is not None
            _, low, high = self._each_die_mode()
            if n <= low + high:  # every face is among those followed
                counts = sorted(Counter(lows + highs[len(highs) - (n - len(lows)):]).items())
                return False, sum(score(v) * k for (v, _), k in zip(counts, self.selection.kept_counts(counts)))
            # the lowest and the highest faces followed are distinct dice: of each face not chosen by value, the
            # operator chooses as many as the more of its rank selectors does (the first thrown among equals)
            chosen = self._union_values()
            low_n, high_n = Counter(lows), Counter(highs)
            part = sum(score(v) * max(low_n[v], high_n[v]) for v in set(lows) | set(highs) if not chosen(v))
            if self.selection.groups[0][0] == "k":
                return (True, -part) if self._each_die_total(mode) else (False, part)
            return True, part
        lo, hi = window_of(self._each_die_keeps(), n) or (0, n)  # n: the count of dice, or the cap (_each_die_pmf)
        if hi <= lo:
            return False, 0
        if hi <= len(lows):  # within the lowest faces followed
            return False, sum(score(v) for v in lows[lo:hi])
        top = n - len(highs)  # the rank of the first of the highest faces followed
        if lo >= top:
            return False, sum(score(v) for v in highs[lo - top:hi - top])
        # no kh / kl: lo is a dl (among the lowest followed), n - hi a dh (among the highest followed)
        return True, sum(score(v) for v in lows[:lo]) + sum(score(v) for v in highs[len(highs) - (n - hi):])

    def _unique_pmf(self) -> PMF:
        """Exact odds of unique dice: the multiset of faces followed die by die."""
        s = self.sides
        shown = Counter(self.faces)
        states: dict[tuple[int, ...], float] = {(): 1.0}
        for _ in range(self.count):
            nxt: dict[tuple[int, ...], float] = {}
            for seen, p in states.items():
                seen_set = set(seen)
                forbidden = {f for f in shown if f in seen_set and self._unique_test(f)}
                bad = sum(shown[f] for f in forbidden)
                if self.unique_once:
                    dist = {f: c / s for f, c in shown.items() if f not in forbidden}
                    for f, c in shown.items():
                        dist[f] = dist.get(f, 0.0) + bad / s * c / s
                else:
                    dist = {f: c / (s - bad) for f, c in shown.items() if f not in forbidden}
                for f, q in dist.items():
                    key = tuple(sorted(seen + (f,)))
                    nxt[key] = nxt.get(key, 0.0) + p * q
            states = nxt
            if len(states) > MAX_UNIQUE_STATES:
                raise DiceLimitError(f"too many dice for exact odds of unique dice in {self.text}",
                                     column=self.node.pos)
        a, b = self.window if self.window is not None else (0, self.count)
        out: dict[int, float] = {}
        for faces, p in states.items():
            kept = faces[a:b]
            if self.success is None and self.tally is None:
                value = sum(kept)
            else:
                value = sum(self._score_of(f) for f in kept)
            out[value] = out.get(value, 0.0) + p
        return PMF.from_mapping(out)

    # ---------------------------------------------------------------- bulk
    def _draw(self, gen: np.random.Generator, size: Any) -> np.ndarray:
        if self.consecutive:
            lo = self.faces[0]
            return gen.integers(lo, lo + self.sides, size=size)
        return self.faces.take(gen.integers(0, self.sides, size=size))

    def sample(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """Scores of ``n`` throws of this term (vectorised)."""
        c = self.count
        if c == 0:
            return np.zeros(n, dtype=np.int64)
        if self.plain and self.window is None:
            if c == 1:
                return self._draw(gen, n)
            return self._draw(gen, (n, c)).sum(axis=1)
        values = self._draw(gen, (n, c))
        if self.plain:
            a, b = self.window  # type: ignore[misc]
            if b - a == 0:
                return np.zeros(n, dtype=np.int64)
            if b - a >= c:
                return values.sum(axis=1)
            if b - a == c - 1:
                drop = values.min(axis=1) if a else values.max(axis=1)
                return values.sum(axis=1) - drop
            values.sort(axis=1)
            return values[:, a:b].sum(axis=1)
        return self._sample_general(values, gen)

    def _sample_each_die(self, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        return _sample_each_die_impl(self, values, gen)

    def _sample_unique(self, values: np.ndarray, gen: np.random.Generator) -> None:
        rows, c = values.shape
        test = (lambda v: np.ones(v.shape, dtype=bool)) if self.unique is None else self.unique.test
        allowed_faces = np.asarray(self.faces, dtype=np.int64)
        for j in range(1, c):
            prev = values[:, :j]
            col = values[:, j].copy()
            clash = (prev == col[:, None]).any(axis=1) & test(col)
            tries = 0
            while clash.any():
                idx = np.flatnonzero(clash)
                tries += 1
                if tries > MAX_REROLLS:  # draw among the free faces directly (same distribution)
                    for i in idx:
                        free = [f for f in allowed_faces if not (f in prev[i] and test(np.array(f)))]
                        col[i] = free[gen.integers(0, len(free))]
                    break
                col[idx] = self._draw(gen, len(idx))
                if self.unique_once:
                    break
                clash = np.zeros(rows, dtype=bool)
                clash[idx] = (prev[idx] == col[idx][:, None]).any(axis=1) & test(col[idx])
            values[:, j] = col

    def _sample_general(self, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        c = values.shape[1]
        if self.reroll is not None:
            mask = self.reroll.test(values)
            allowed = self.allowed
            tries = 0
            while mask.any():
                idx = np.flatnonzero(mask)
                tries += 1
                if tries > self.reroll_cap:
                    values.flat[idx] = allowed.take(gen.integers(0, len(allowed), size=len(idx)))
                    break
                new = self._draw(gen, len(idx))
                values.flat[idx] = new
                if self.reroll_once:
                    break
                mask = np.zeros_like(mask)
                mask.flat[idx] = self.reroll.test(new)
        if self.unique_on:
            self._sample_unique(values, gen)
        counting = self.success is not None
        per_count = counting and (self.explode is None or not self.compound)  # every face counted
        total = values.copy()
        pen = int(self.penetrate)
        base = self._base_array

        if self.per_die:
            return self._sample_each_die(values, gen)
        score = base(values) if per_count else None
        marks = self._mark_array(values) if self.tally is not None else None  # every face of a unit marked
        if self.explode is not None:
            active = self.explode.test(values)
            depth = 0
            limit = MAX_EXPLOSIONS if self.explode_limit is None else self.explode_limit
            while active.any():
                depth += 1
                if depth > limit:
                    if self.explode_limit is not None:
                        break
                    raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                idx = np.flatnonzero(active)
                new = self._draw(gen, len(idx))
                total.flat[idx] += new - pen
                if per_count:
                    score.flat[idx] += base(new - pen)  # type: ignore[union-attr]
                if marks is not None:
                    marks.flat[idx] += self._mark_array(new - pen)
                active = np.zeros_like(active)
                active.flat[idx] = self.explode.test(new)
        if not counting:
            score = total.copy()
        elif not per_count:
            score = base(total)  # compound: the unit's sum counted as one die
        if marks is not None:
            score = score + marks
        assert score is not None
        if self.selection is not None:
            return np.where(self.selection.mask(total), score, 0).sum(axis=1)
        if self.window is not None and self.keep != c:
            a, b = self.window
            order = np.argsort(total, axis=1, kind="stable")
            return np.take_along_axis(score, order[:, a:b], axis=1).sum(axis=1)
        return score.sum(axis=1)


def _sample_each_die_impl(term: DiceTerm, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """explosions="dice" in bulk: every die thrown is a column (padded), keep / drop rank them per row."""
    explode = term.explode
    assert explode is not None
    pen = int(term.penetrate)
    blocks, alive_blocks = [values], [np.ones(values.shape, dtype=bool)]
    active = explode.test(values)
    depth = 0
    limit = MAX_EXPLOSIONS if term.explode_limit is None else term.explode_limit
    while active.any() and depth < limit:
        depth += 1
        raw = np.zeros(values.shape, dtype=np.int64)
        idx = np.flatnonzero(active)
        raw.flat[idx] = term._draw(gen, len(idx))
        blocks.append(raw - pen)
        alive_blocks.append(active.copy())
        active = active & explode.test(raw)
    keys = np.concatenate(blocks, axis=1)
    alive = np.concatenate(alive_blocks, axis=1)
    score = term._score_array(keys)  # the value or success score, critical marks folded in when tallied
    if term.selection is not None:
        kept = term.selection.mask(keys, alive)
        return np.where(kept, score, 0).sum(axis=1)
    big = np.iinfo(np.int64).max
    order = np.argsort(np.where(alive, keys, big), axis=1, kind="stable")
    ranked = np.take_along_axis(np.where(alive, score, 0), order, axis=1)
    count = alive.sum(axis=1)
    lo, hi = np.zeros_like(count), count.copy()
    for k in term.keeps:
        n = np.minimum(k.n, count)
        if k.kind == "kh":
            lo = np.maximum(lo, count - n)
        elif k.kind == "kl":
            hi = np.minimum(hi, n)
        elif k.kind == "dh":
            hi = np.minimum(hi, count - n)
        else:
            lo = np.maximum(lo, n)
    pos = np.arange(keys.shape[1])[None, :]
    return np.where((pos >= lo[:, None]) & (pos < hi[:, None]), ranked, 0).sum(axis=1)


#: most face parts a term remembers (one per face, state and score)
_FACE_PARTS = 4096
_CRIT_MARKS = {"success": "(cs)", "failure": "(cf)"}


def _by_key(units: dict[tuple[int, int], float]) -> list[tuple[int, float, PMF]]:
    """``(key, probability, score PMF given the key)`` of a unit's joint ``{(key, score): probability}``."""
    by_key: dict[int, dict[int, float]] = {}
    for (key, sc), p in units.items():
        scores = by_key.setdefault(key, {})
        scores[sc] = scores.get(sc, 0.0) + p
    table = []
    for key, scores in by_key.items():
        q = sum(scores.values())
        table.append((key, q, PMF.from_mapping({v: w / q for v, w in scores.items()})))
    return table


def _shifted(before: dict[Any, tuple[int, int]], after: dict[Any, tuple[int, int]]) -> int | None:
    """``delta`` when ``after`` holds the states of ``before``, each range shifted by ``delta``; else ``None``."""
    if before.keys() != after.keys() or not before:
        return None
    key = next(iter(before))
    delta = after[key][0] - before[key][0]
    return delta if all(after[k] == (lo + delta, hi + delta) for k, (lo, hi) in before.items()) else None


def window_of(keeps: Sequence[Keep], count: int) -> tuple[int, int] | None:
    """The ranks kept (lowest first), or None without any keep / drop. Each keep / drop chooses among all
    the dice and a die counts only if none drops it (rpg-dice-roller): ``4d10dh1dl2`` keeps one die."""
    if not keeps:
        return None
    lo, hi = 0, count
    for k in keeps:
        n = max(0, min(k.n, count))
        if k.kind == "kh":
            lo = max(lo, count - n)
        elif k.kind == "kl":
            hi = min(hi, n)
        elif k.kind == "dh":
            hi = min(hi, count - n)
        else:  # dl
            lo = max(lo, n)
    return (lo, max(lo, hi))


def keep_rule(keeps: Sequence[Keep], count: int, dialect: str, expression: str) \
        -> tuple[tuple[int, int] | None, Selection | None]:
    """``(window, selection)`` of the keep / drop modifiers in the dialect: Roll20's (a window of ranks) or
    d20's (:mod:`._selection`; a window too when it is one)."""
    if dialect == "d20" and keeps:
        selection = selection_of(keeps)
        window = selection.window(count)
        return (window, None) if window is not None else (None, selection)
    for k in keeps:
        if k.point is not None or k.spelled.rstrip("\x00") == "p":
            raise DiceValueError(f"{k.text} is d20's notation (keep / drop dice by value): "
                                 f"use the option dialect='d20'", expression, k.pos or 0)
    return window_of(keeps, count), None


def _unique(mods: tuple, kind: type, name: str, expression: str) -> Any:
    found: list[Any] = [m for m in mods if isinstance(m, kind)]
    if len(found) > 1:
        raise DiceSyntaxError(f"more than one {name} on one dice term", expression, found[1].pos
                              if getattr(found[1], "pos", None) is not None else 0)
    return found[0] if found else None


def compile_term(node: Dice, expression: str, count: int | None = None, sides_value: Any = None,
                 label: str | None = None, dialect: str = "roll20", explosions: str = "unit") -> DiceTerm:
    """Validate a dice node and build its term (``count`` and ``sides_value`` when they were computed)."""
    pos = node.pos or 0
    if count is None:
        count = 1 if node.count is None else node.count
    if count < 0:
        raise DiceValueError(f"a negative number of dice ({count})", expression, pos)
    if count > MAX_DICE:
        raise DiceLimitError(N_("too many dice: {count} (at most {limit} in one roll)"), expression, pos, count=count,
                             limit=MAX_DICE)
    sides_spec = node.sides if sides_value is None else sides_value
    faces: Any
    if sides_spec == "F":
        faces = range(-1, 2)
        kind = "dF"
    elif sides_spec == "F.1":
        faces = Listed((-1, 0, 0, 0, 0, 1))
        kind = "dF.1"
    else:
        sides = 100 if sides_spec == "%" else sides_spec
        if sides < 1:
            raise DiceValueError("a die needs at least one side", expression, pos)
        if sides > MAX_SIDES:
            raise DiceLimitError(N_("too many sides: {sides} (at most {limit})"), expression, pos, sides=sides,
                                 limit=MAX_SIDES)
        faces = range(1, sides + 1)
        kind = f"d{sides}"
    mods = node.modifiers.items
    keeps = [m for m in mods if isinstance(m, Keep)]
    window, selection = keep_rule(keeps, count, dialect, expression)
    explode_mod: Explode | None = _unique(mods, Explode, "explosion", expression)
    rerolls = [m for m in mods if isinstance(m, Reroll)]
    reroll_mod = next((m for m in rerolls if not m.added), None)
    add_mod = next((m for m in rerolls if m.added), None)
    if len([m for m in rerolls if not m.added]) > 1 or len([m for m in rerolls if m.added]) > 1:
        raise DiceSyntaxError("more than one re-roll on one dice term", expression, rerolls[1].pos or pos)
    success_mod: CountSuccesses | None = _unique(mods, CountSuccesses, "success count", expression)
    failure_mod: CountFailures | None = _unique(mods, CountFailures, "failure count", expression)
    unique_mod: Unique | None = _unique(mods, Unique, "unique", expression)
    sort_mod: Sort | None = _unique(mods, Sort, "sort", expression)
    for clamp in (m for m in mods if isinstance(m, Clamp)):
        bound = clamp.value
        faces = Listed(sorted(max(f, bound) if clamp.kind == "min" else min(f, bound) for f in faces))
    crit_s = crit_f = None
    for crit in (m for m in mods if isinstance(m, Critical)):
        point = crit.compare or Compare.of("=", faces[-1] if crit.kind == "cs" else faces[0])
        if crit.kind == "cs":
            crit_s = point
        else:
            crit_f = point
    if explode_mod is not None and add_mod is not None:
        raise DiceSyntaxError("an explosion and a re-roll-and-add (ra) on one dice term", expression,
                              add_mod.pos or pos)
    explode: Compare | None = None
    limit: int | None = None
    if explode_mod is not None:
        explode = explode_mod.compare or Compare.of("=", faces[-1])
        on = len(split_faces(faces, explode)[0])
        if on == 0:  # no face can explode (1d6!7): a plain die
            explode = None
        if on == len(faces):
            raise DiceLimitError(N_("this die would explode on every face and never stop"), expression,
                                 explode_mod.pos or pos)
        # chains longer than MAX_EXPLOSIONS must be rarer than what exact odds may leave out
        if (on / len(faces)) ** MAX_EXPLOSIONS > TRUNCATION / max(1, count) / 10:
            raise DiceLimitError(f"{_term_text(node, count, sides_spec)} explodes too often: chains longer than "
                                 f"{MAX_EXPLOSIONS} dice would be too likely", expression, explode_mod.pos or pos)
    elif add_mod is not None:
        explode, limit = add_mod.compare or Compare.of("=", faces[0]), 1
    if explosions == "dice" and dialect == "d20" and keeps and explode is not None and window is not None:
        # every die thrown is ranked: d20's operators choose among the dice thrown, not among ``count`` of them
        window, selection = None, selection_of(keeps)
    reroll: Compare | None = None
    if reroll_mod is not None:
        reroll = reroll_mod.compare or Compare.of("=", faces[0])
        if not reroll_mod.once and not len(split_faces(faces, reroll)[1]):
            raise DiceLimitError(N_("this die would be re-rolled on every face and never stop"), expression,
                                 reroll_mod.pos or pos)
    if failure_mod is not None and success_mod is None:
        raise DiceSyntaxError(N_("a failure count (f) needs a success count before it (e.g. 8d10>=7f1)"),
                              expression, failure_mod.pos if failure_mod.pos is not None else pos)
    if unique_mod is not None:
        if explode is not None or reroll is not None:
            raise DiceValueError("unique dice (u) cannot also explode or be re-rolled", expression,
                                 unique_mod.pos or pos)
        only = unique_mod.compare
        must = {f for f in faces if only is None or only.test(f)}
        free = any(f not in must for f in faces)
        if not unique_mod.once and not free and count > len(must):
            raise DiceValueError(f"{count} dice cannot all show different faces among {len(must)}", expression,
                                 unique_mod.pos or pos)
    term = DiceTerm(
        node=node, text=_term_text(node, count, sides_spec), count=count, faces=faces, kind=kind,
        window=window, selection=selection, keeps=tuple(keeps), each_die=explosions == "dice", explode=explode,
        compound=bool(explode is not None and explode_mod and explode_mod.compound), reroll=reroll,
        reroll_once=bool(reroll_mod and reroll_mod.once),
        success=success_mod.compare if success_mod else None,
        failure=failure_mod.compare if failure_mod else None, label=label,
        penetrate=bool(explode_mod and explode_mod.penetrate), explode_limit=limit,
        unique=unique_mod.compare if unique_mod else None, unique_once=bool(unique_mod and unique_mod.once),
        unique_on=unique_mod is not None, sort=sort_mod.kind if sort_mod else None,
        crit_success=crit_s, crit_failure=crit_f,
        # many dice: fewer re-rolls recorded per die, so that one roll stays within MAX_THROWS throws
        reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1)),
    )
    throws = term.expected_throws()
    if throws > MAX_THROWS:
        raise DiceLimitError(f"{term.text} would throw about {throws:,.0f} dice in one roll (at most "
                             f"{MAX_THROWS:,} with re-rolls and explosions)", expression, pos)
    return term


def _term_text(node: Dice, count: int, sides: Any) -> str:
    text = f"{'' if node.count is None and count == 1 else count}d{sides}"
    for m in node.modifiers.items:
        if isinstance(m, Keep):
            text += m.text
        elif isinstance(m, Explode):
            text += m.bang + (str(m.compare) if m.compare else "")
        elif isinstance(m, Reroll):
            text += m.kind + (str(m.compare) if m.compare else "")
        elif isinstance(m, CountSuccesses):
            text += str(m.compare)
        elif isinstance(m, CountFailures):
            text += "f" + str(m.compare)
        elif isinstance(m, Clamp):
            text += f"{m.kind}{m.value}"
        elif isinstance(m, (Unique, Critical)):
            text += m.kind + (str(m.compare) if m.compare else "")
        elif isinstance(m, Sort):
            text += m.kind
    return text
