"""One dice term of the standard notation (``NdM`` with its modifiers), in the three evaluations.

Semantics, where tables differ:

- re-rolls apply to the first face of a die; ``r`` re-rolls until the face misses the compare point
  (after :data:`~diceengine.limits.MAX_REROLLS` recorded re-rolls the final face is drawn directly
  among the allowed faces, which has the same distribution), ``ro`` re-rolls once;
- an exploding die and the dice its explosions add form one *unit*: keep / drop rank units by their
  sum; with ``!`` success counting counts every face of the unit, with ``!!`` (compound) it tests
  the unit's sum, as one die;
- ``!N`` explodes on a face equal to N (Roll20), ``!`` alone on the maximum face;
- a die that meets both the success point and the failure point (``4d6>=1f<=1``) counts as a success
  only, as python-dice and rpg-dice-roller count it.

Bounds (README, "Bounds"): a term's faces are ranges, never listed, so a d1000000 costs no more memory
than a d6. :meth:`DiceTerm.bounds` gives the range of the term's score for the engine's integer rule.
A die whose explosions would run past :data:`~diceengine.limits.MAX_EXPLOSIONS` with a probability
above the truncation of exact odds is refused up front (by roll, sample and distribution alike), and
one roll throws about :data:`~diceengine.limits.MAX_THROWS` dice at most on average: re-rolls are
recorded up to ``reroll_cap`` per die (fewer when the term has many dice), after which the final face
is drawn directly among the allowed faces (the same distribution).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import (
    MAX_DICE,
    MAX_EXPLOSIONS,
    MAX_REROLLS,
    MAX_SIDES,
    MAX_THROWS,
    NUMPY_CALL,
    PYTHON_STEP,
    TRUNCATION,
    Cost,
)
from diceengine.pmf import PMF, convolve_cost, keep_dp, keep_dp_cost, keep_sum, keep_sum_cost, power_cost
from diceengine.parts import Dice as DiceRun
from diceengine.parts import Face, Group, Part
from diceengine.rolls import Die

from ._dice_ast import Compare, CountFailures, CountSuccesses, Dice, Explode, Keep, Reroll

__all__ = ["DiceTerm", "compile_term", "Faces", "split_faces"]

# flags of one throw in a general record
REROLLED, EXPLODED, ADDED, DROPPED = 1, 2, 4, 8


class Faces(Sequence[int]):
    """Faces of a die held as at most two ranges (a range, or a range without one face): never listed."""

    __slots__ = ("parts", "_cut")

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


def split_faces(faces: range, point: Compare) -> tuple[Faces, Faces]:
    """``(faces meeting point, faces missing it)`` without listing the faces."""
    lo, end, v, op = faces.start, faces.stop, point.value, point.op
    if op == "=":
        return Faces(range(max(v, lo), min(v + 1, end))), Faces(range(lo, min(max(v, lo), end)),
                                                              range(max(v + 1, lo), end))
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
    faces: range
    kind: str
    keep: int | None          # number of units kept (None: all)
    highest: bool             # keep the highest (True) or the lowest
    explode: Compare | None
    compound: bool
    reroll: Compare | None
    reroll_once: bool
    success: Compare | None
    failure: Compare | None
    label: str | None
    reroll_cap: int = MAX_REROLLS  # re-rolls recorded per die before drawing among the allowed faces

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def allowed(self) -> Faces:
        """The faces a re-roll keeps (all of them without a re-roll)."""
        if self.reroll is None:
            return Faces(self.faces)
        return split_faces(self.faces, self.reroll)[1]

    def explode_chance(self) -> float:
        """Chance that one throw explodes (0 without ``!``)."""
        if self.explode is None:
            return 0.0
        return len(split_faces(self.faces, self.explode)[0]) / self.sides

    def bounds(self) -> tuple[int, int]:
        """``(lo, hi)``: every score the term can produce lies between (explosion chains counted to their
        limit of ``MAX_EXPLOSIONS + 1`` faces): the term's part of the engine's integer rule."""
        links = MAX_EXPLOSIONS + 1 if self.explode is not None else 1
        if self.success is None:
            f_lo, f_hi = self.faces[0], self.faces[-1]
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
        q = self.explode_chance()
        return self.count * (1.0 + extra) / (1.0 - q)

    @property
    def plain(self) -> bool:
        """No modifier but keep/drop: the record is the list of faces."""
        return self.explode is None and self.reroll is None and self.success is None

    # ---------------------------------------------------------------- one roll
    def roller(self) -> Callable[[Any, list], int]:
        """A function ``(random, record) -> score`` throwing this term once."""
        n, faces, s = self.count, self.faces, self.sides
        lo = faces[0]
        if self.plain:
            if self.keep is None:
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
            k, cut = self.keep, n - self.keep

            if self.highest:
                def roll_keep_high(r: Any, rec: list) -> int:
                    vals = [int(r() * s) + lo for _ in range(n)]
                    rec.append((self, vals))
                    return sum(sorted(vals)[cut:])
                return roll_keep_high

            def roll_keep_low(r: Any, rec: list) -> int:
                vals = [int(r() * s) + lo for _ in range(n)]
                rec.append((self, vals))
                return sum(sorted(vals)[:k])
            return roll_keep_low
        return self._roll_general

    def _roll_general(self, r: Any, rec: list) -> int:
        faces, s = self.faces, self.sides
        reroll, explode = self.reroll, self.explode
        allowed, cap = self.allowed, self.reroll_cap
        units: list[list[list[int]]] = []
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
            throws.append([v, 0])
            if explode is not None:
                depth = 0
                while explode.test(v):
                    depth += 1
                    if depth > MAX_EXPLOSIONS:
                        raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                    throws[-1][1] |= EXPLODED
                    v = faces[int(r() * s)]
                    throws.append([v, ADDED])
            units.append(throws)
        scores = [self._unit_score(u) for u in units]
        if self.keep is not None and self.keep < len(units):
            keys = [sum(t[0] for t in u if not t[1] & REROLLED) for u in units]
            order = sorted(range(len(units)), key=keys.__getitem__, reverse=self.highest)
            for i in order[self.keep:]:
                for t in units[i]:
                    t[1] |= DROPPED
                scores[i] = 0
        rec.append((self, units))
        return sum(scores)

    def _unit_score(self, unit: list[list[int]]) -> int:
        faces = [t[0] for t in unit if not t[1] & REROLLED]
        if self.success is None:
            return sum(faces)
        if self.compound:
            faces = [sum(faces)]
        return sum(self._face_score(f) for f in faces)

    def dice(self, data: list) -> list[Die]:
        """Die views of this term's record."""
        kind, sides, label = self.kind, self.sides, self.label
        if self.plain:
            dropped: set[int] = set()
            if self.keep is not None and self.keep < len(data):
                order = sorted(range(len(data)), key=data.__getitem__, reverse=self.highest)
                dropped = set(order[self.keep:])
            return [Die(kind, sides, v, kept=i not in dropped, label=label) for i, v in enumerate(data)]
        out = []
        for unit in data:
            for v, f in unit:
                out.append(Die(kind, sides, v, kept=not f & (REROLLED | DROPPED), exploded=bool(f & EXPLODED),
                               rerolled=bool(f & REROLLED), added=bool(f & ADDED), label=label))
        return out

    def parts(self, data: list) -> list[Part]:
        """The term's dice as parts of a text: ``[6, 5, 3, ~1~]``; ``6!+4`` an explosion; ``*`` a success."""
        parts: list[Part] = ["["]
        if self.plain and (self.keep is None or self.keep >= len(data)):
            parts.append(DiceRun(self.kind, self.sides, tuple(data), ", ", self.label))
        elif self.plain:
            dropped: set[int] = set()
            if self.keep is not None and self.keep < len(data):
                order = sorted(range(len(data)), key=data.__getitem__, reverse=self.highest)
                dropped = set(order[self.keep:])
            cache = self.__dict__.setdefault("_face_parts", {})  # the faces shown, built once each
            for i, v in enumerate(data):
                kept = i not in dropped
                face = cache.get((v, kept))
                if face is None:
                    face = Face(Die(self.kind, self.sides, v, kept=kept, label=self.label))
                    if len(cache) < 1024:
                        cache[(v, kept)] = face
                parts += (face, ", ")
            if data:
                parts.pop()
        else:
            kind, sides, label = self.kind, self.sides, self.label
            for j, unit in enumerate(data):
                if j:
                    parts.append(", ")
                unit_dropped = any(f & DROPPED for _, f in unit)
                shown: list[Part] = []
                after_reroll = False
                for k, (v, f) in enumerate(unit):
                    if k:
                        shown.append(" " if after_reroll else "+")
                    after_reroll = bool(f & REROLLED)
                    shown.append(Face(Die(kind, sides, v, kept=not f & (REROLLED | DROPPED),
                                          exploded=bool(f & EXPLODED), rerolled=after_reroll, added=bool(f & ADDED),
                                          label=label)))
                last = shown[-1]
                if self.success is not None and not unit_dropped and isinstance(last, Face):
                    shown[-1] = last._replace(score=self._unit_score(unit))
                parts.extend([Group(tuple(shown))] if unit_dropped else shown)
        parts.append("]")
        if self.label:
            parts.append(f" ({self.label})")
        return parts

    # ---------------------------------------------------------------- exact
    def _tolerance(self) -> float:
        return TRUNCATION / max(1, self.count) / 10

    def exact_cost(self) -> tuple[Cost, int, int]:
        """``(cost, lo, hi)``: what :meth:`pmf` will cost and the range of its support, estimated from the
        term alone (nothing is allocated); the simulation follows :meth:`_units` and :meth:`pmf` step by step."""
        if self.count == 0:
            return Cost(), 0, 0
        s = self.sides
        ranked = self.keep is not None and self.keep < self.count
        if self.explode is None and not ranked:  # vectorised: a few numpy passes over the faces
            s_lo, s_hi = ((-1 if self.failure is not None else 0), 1) if self.success is not None else \
                (self.faces[0], self.faces[-1])
            power, _ = power_cost(s_hi - s_lo + 1, self.count)
            return Cost(12 * s + 4 * NUMPY_CALL, 4 * s) + power, self.count * s_lo, self.count * s_hi
        cost = Cost(4 * s * PYTHON_STEP, s)  # the first face, listed once per face
        first = self.allowed if self.reroll is not None and not self.reroll_once else Faces(self.faces)
        counting = self.success is not None
        per_count = counting and not self.compound
        if self.explode is None:
            keys, lo, hi = len(first), first[0], first[-1]
            s_lo, s_hi = ((-1 if self.failure is not None else 0), 1) if counting else (lo, hi)
        else:
            on, off = split_faces(self.faces, self.explode)
            q = len(on) / s
            tol = self._tolerance()
            depth = 0
            mass = q  # about the chance that a first face explodes
            while mass > tol and depth <= MAX_EXPLOSIONS:
                mass *= q
                depth += 1
            on_lo, on_hi = on[0], on[-1]
            lo = min(first[0], first[0] + depth * on_lo)
            hi = max(first[-1], first[-1] + depth * on_hi)
            if not per_count:  # chain sums by convolutions
                span_on, span_off = on_hi - on_lo + 1, (off[-1] - off[0] + 1) if len(off) else 1
                going = span_on
                done = span_off
                for _ in range(depth):
                    cost = cost + convolve_cost(going, span_off) + convolve_cost(going, span_on) + Cost(done, done)
                    done = going + span_off + done
                    going += span_on - 1
                keys = hi - lo + 1
                cost = cost + Cost(3 * keys * PYTHON_STEP, 2 * keys)
                s_lo, s_hi = ((-1 if self.failure is not None else 0), 1) if counting else (lo, hi)
            else:  # per-face success counts, state by state
                states, steps = 1, 0.0
                for i in range(depth):
                    states = (i + 1) * (on_hi - on_lo + 1) * (2 * i + 3) if ranked else 2 * i + 3
                    steps += states * s
                cost = cost + Cost(2 * steps * PYTHON_STEP, states)
                keys = hi - lo + 1 if ranked else 1
                s_lo, s_hi = (-(depth + 1) if self.failure is not None else 0), depth + 1
        if not ranked:
            power, length = power_cost(s_hi - s_lo + 1, self.count)
            return cost + power, self.count * s_lo, self.count * s_hi
        k = self.keep or 0
        if not counting:
            return cost + keep_sum_cost(keys, self.count, k, s_lo, s_hi), min(0, k * s_lo), max(0, k * s_hi)
        return cost + keep_dp_cost(keys, self.count, k, s_hi - s_lo + 1), min(0, k * s_lo), max(0, k * s_hi)

    def _first_face(self) -> dict[int, float]:
        """Distribution of the first kept face of one die (after re-rolls)."""
        s = self.sides
        if self.reroll is None:
            return {f: 1 / s for f in self.faces}
        hit, miss = split_faces(self.faces, self.reroll)
        if self.reroll_once:
            out = {f: 1 / s for f in miss}
            for f in self.faces:
                out[f] = out.get(f, 0.0) + len(hit) / s / s
            return out
        return {f: 1 / len(miss) for f in miss}

    def _face_score(self, f: int) -> int:
        """+1 a success, -1 a failure; a face meeting both points is a success (as the peers count)."""
        if self.success.test(f):  # type: ignore[union-attr]
            return 1
        return -1 if self.failure is not None and self.failure.test(f) else 0

    def truncated_mass(self) -> float:
        """Probability mass the exact distribution leaves out (explosion chains cut short)."""
        if self.explode is None or self.count == 0:
            return 0.0
        return 1.0 - (1.0 - self._units()[1]) ** self.count

    def _units(self) -> tuple[dict[tuple[int, int], float], float]:
        """Joint distribution of (sort key, score) of one unit, and the mass truncated."""
        counting = self.success is not None
        face_score = self._face_score if counting else (lambda f: f)
        first = self._first_face()
        if self.explode is None:
            out: dict[tuple[int, int], float] = {}
            for f, p in first.items():
                key = (f, face_score(f))
                out[key] = out.get(key, 0.0) + p
            return out, 0.0
        per_count = counting and not self.compound
        tolerance = self._tolerance()
        if not per_count:
            return self._chain_sums(first, face_score if counting else None, tolerance)
        ranked = self.keep is not None and self.keep < self.count
        done: dict[tuple[int, int], float] = {}
        going: dict[tuple[int, int], float] = {}
        for f, p in first.items():
            state = (f if ranked else 0, face_score(f))
            target = going if self.explode.test(f) else done
            target[state] = target.get(state, 0.0) + p
        while going and sum(going.values()) > tolerance:
            nxt: dict[tuple[int, int], float] = {}
            for (total, sc), p in going.items():
                for f in self.faces:
                    state = (total + f if ranked else 0, sc + face_score(f))
                    target = nxt if self.explode.test(f) else done
                    target[state] = target.get(state, 0.0) + p / self.sides
            going = nxt
        return done, sum(going.values())

    def _chain_sums(self, first: dict[int, float], score: Any, tolerance: float) \
            -> tuple[dict[tuple[int, int], float], float]:
        """Units of an exploding die whose key is the sum of its chain (numpy convolutions)."""
        explode = self.explode
        assert explode is not None
        going = PMF.from_mapping({f: p for f, p in first.items() if explode.test(f)})
        done = PMF.from_mapping({f: p for f, p in first.items() if not explode.test(f)})
        on, off = split_faces(self.faces, explode)
        step_on = PMF.from_counts(on, 1 / self.sides)
        step_off = PMF.from_counts(off, 1 / self.sides)
        while going.mass > tolerance:
            done = done.mix(going + step_off)
            going = going + step_on
        out: dict[tuple[int, int], float] = {}
        for total, p in done.items():
            key = (total, score(total) if score is not None else total)
            out[key] = out.get(key, 0.0) + p
        return out, going.mass

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

    def pmf(self) -> PMF:
        """Exact distribution of the term's score."""
        if self.count == 0:
            return PMF.point(0)
        if self.explode is None and (self.keep is None or self.keep >= self.count):
            values, p = self._first_face_arrays()
            if self.success is not None:
                hit = self.success.test(values)
                score = hit.astype(np.int64)
                if self.failure is not None:
                    score -= self.failure.test(values) & ~hit
                values = score
            lo = int(values.min())
            return PMF(lo, np.bincount(values - lo, weights=p)).power(self.count)
        units, _ = self._units()
        if self.keep is None or self.keep >= self.count:
            score: dict[int, float] = {}
            for (_, sc), p in units.items():
                score[sc] = score.get(sc, 0.0) + p
            return PMF.from_mapping(score).power(self.count)
        if self.success is None:  # a die's score is its value
            return keep_sum([(key, p) for (key, _), p in units.items()], self.count, self.keep, self.highest)
        by_key: dict[int, dict[int, float]] = {}
        for (key, sc), p in units.items():
            by_key.setdefault(key, {})[sc] = by_key.get(key, {}).get(sc, 0.0) + p
        table = []
        for key, scores in by_key.items():
            q = sum(scores.values())
            table.append((key, q, PMF.from_mapping({v: w / q for v, w in scores.items()})))
        return keep_dp(table, self.count, self.keep, self.highest)

    # ---------------------------------------------------------------- bulk
    def _draw(self, gen: np.random.Generator, size: Any) -> np.ndarray:
        lo = self.faces[0]
        return gen.integers(lo, lo + self.sides, size=size)

    def sample(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """Scores of ``n`` throws of this term (vectorised)."""
        c = self.count
        if c == 0:
            return np.zeros(n, dtype=np.int64)
        if self.plain and self.keep is None:
            if c == 1:
                return self._draw(gen, n)
            return self._draw(gen, (n, c)).sum(axis=1)
        values = self._draw(gen, (n, c))
        if self.plain:
            k = self.keep
            assert k is not None
            if k == 0:
                return np.zeros(n, dtype=np.int64)
            if k >= c:
                return values.sum(axis=1)
            if k == c - 1:
                drop = values.min(axis=1) if self.highest else values.max(axis=1)
                return values.sum(axis=1) - drop
            values.sort(axis=1)
            return values[:, c - k:].sum(axis=1) if self.highest else values[:, :k].sum(axis=1)
        return self._sample_general(values, gen)

    def _sample_general(self, values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        n, c = values.shape
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
        counting = self.success is not None
        per_count = counting and (self.explode is None or not self.compound)
        total = values.copy()

        def face_score(v: np.ndarray) -> np.ndarray:
            hit = self.success.test(v)  # type: ignore[union-attr]
            sc = hit.astype(np.int64)
            if self.failure is not None:
                sc -= self.failure.test(v) & ~hit
            return sc

        score = face_score(values) if per_count else None
        if self.explode is not None:
            active = self.explode.test(values)
            depth = 0
            while active.any():
                depth += 1
                if depth > MAX_EXPLOSIONS:
                    raise DiceLimitError(f"explosion deeper than {MAX_EXPLOSIONS} dice in {self.text}")
                idx = np.flatnonzero(active)
                new = self._draw(gen, len(idx))
                total.flat[idx] += new
                if per_count:
                    score.flat[idx] += face_score(new)  # type: ignore[union-attr]
                active = np.zeros_like(active)
                active.flat[idx] = self.explode.test(new)
        if not counting:
            score = total
        elif not per_count:
            score = face_score(total)
        assert score is not None
        if self.keep is not None and self.keep < c:
            order = np.argsort(total, axis=1, kind="stable")
            chosen = order[:, c - self.keep:] if self.highest else order[:, :self.keep]
            return np.take_along_axis(score, chosen, axis=1).sum(axis=1)
        return score.sum(axis=1)


def _unique(mods: tuple, kind: type, name: str, expression: str) -> Any:
    found: list[Any] = [m for m in mods if isinstance(m, kind)]
    if len(found) > 1:
        raise DiceSyntaxError(f"more than one {name} on one dice term", expression, found[1].pos
                              if getattr(found[1], "pos", None) is not None else 0)
    return found[0] if found else None


def compile_term(node: Dice, expression: str) -> DiceTerm:
    """Validate a dice node and build its term."""
    pos = node.pos or 0
    count = 1 if node.count is None else node.count
    if count > MAX_DICE:
        raise DiceLimitError(N_("too many dice: {count} (at most {limit} in one roll)"), expression, pos, count=count,
                             limit=MAX_DICE)
    if node.sides == "F":
        faces = range(-1, 2)
        kind = "dF"
    else:
        sides = 100 if node.sides == "%" else node.sides
        if sides < 1:
            raise DiceValueError("a die needs at least one side", expression, pos)
        if sides > MAX_SIDES:
            raise DiceLimitError(N_("too many sides: {sides} (at most {limit})"), expression, pos, sides=sides,
                                 limit=MAX_SIDES)
        faces = range(1, sides + 1)
        kind = f"d{sides}"
    mods = node.modifiers.items
    keep_mod: Keep | None = _unique(mods, Keep, "keep/drop", expression)
    explode_mod: Explode | None = _unique(mods, Explode, "explosion", expression)
    reroll_mod: Reroll | None = _unique(mods, Reroll, "re-roll", expression)
    success_mod: CountSuccesses | None = _unique(mods, CountSuccesses, "success count", expression)
    failure_mod: CountFailures | None = _unique(mods, CountFailures, "failure count", expression)
    keep, highest = None, True
    if keep_mod is not None:
        k = keep_mod.n
        if keep_mod.kind == "kh":
            keep, highest = min(k, count), True
        elif keep_mod.kind == "kl":
            keep, highest = min(k, count), False
        elif keep_mod.kind == "dh":
            keep, highest = max(count - k, 0), False
        else:
            keep, highest = max(count - k, 0), True
    explode = None
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
            raise DiceLimitError(f"{_term_text(node)} explodes too often: chains longer than {MAX_EXPLOSIONS} "
                                 f"dice would be too likely", expression, explode_mod.pos or pos)
    reroll = None
    if reroll_mod is not None:
        reroll = reroll_mod.compare
        if not reroll_mod.once and not len(split_faces(faces, reroll)[1]):
            raise DiceLimitError(N_("this die would be re-rolled on every face and never stop"), expression,
                                 reroll_mod.pos or pos)
    if failure_mod is not None and success_mod is None:
        raise DiceSyntaxError(N_("a failure count (f) needs a success count before it (e.g. 8d10>=7f1)"),
                              expression, failure_mod.pos if failure_mod.pos is not None else pos)
    term = DiceTerm(
        node=node, text=_term_text(node), count=count, faces=faces, kind=kind,
        keep=keep, highest=highest, explode=explode, compound=bool(explode is not None and explode_mod and explode_mod.compound),
        reroll=reroll, reroll_once=bool(reroll_mod and reroll_mod.once),
        success=success_mod.compare if success_mod else None,
        failure=failure_mod.compare if failure_mod else None, label=node.label,
        # many dice: fewer re-rolls recorded per die, so that one roll stays within MAX_THROWS throws
        reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1)),
    )
    throws = term.expected_throws()
    if throws > MAX_THROWS:
        raise DiceLimitError(f"{term.text} would throw about {throws:,.0f} dice in one roll (at most "
                             f"{MAX_THROWS:,} with re-rolls and explosions)", expression, pos)
    return term


def _term_text(node: Dice) -> str:
    sides = str(node.sides)
    text = f"{'' if node.count is None else node.count}d{sides}"
    for m in node.modifiers.items:
        if isinstance(m, Keep):
            text += f"{m.kind}{m.n}"
        elif isinstance(m, Explode):
            text += m.bang + (str(m.compare) if m.compare else "")
        elif isinstance(m, Reroll):
            text += m.kind + str(m.compare)
        elif isinstance(m, CountSuccesses):
            text += str(m.compare)
        elif isinstance(m, CountFailures):
            text += "f" + str(m.compare)
    return text
