"""The exact odds of a dice term and their cost: the first face, explosion chains, keep / drop, unique dice."""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

import numpy as np

from diceengine.errors import DiceLimitError
from diceengine.limits import MAX_EXPLOSIONS, NUMPY_CALL, PYTHON_STEP, TRUNCATION, Cost
from diceengine.pmf import PMF, convolve_cost, keep_dp, keep_dp_cost, keep_sum, keep_sum_cost, keep_window, power_cost

from .faces import TermBase, split_faces, window_of

#: most states the exact odds of unique dice may follow
MAX_UNIQUE_STATES = 200_000


class TermExact(TermBase):
    """A dice term's exact distribution (a part of :class:`~._dice_terms.DiceTerm`)."""

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
        depth = 0
        while going.mass > tolerance and depth <= MAX_EXPLOSIONS:  # the bound refused up front is never reached
            depth += 1
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
