"""The exact odds of a dice term and their cost: the first face, explosion chains, keep / drop, unique dice
(:class:`TermOdds`; every die ranked on its own: :mod:`.each_die`)."""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

from diceengine.algebra.chains import Key, Step, keyed_chains, steps_of
from diceengine.algebra.rerolls import ranks_left
from diceengine.errors import DiceLimitError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, NUMPY_CALL, PYTHON_STEP, Cost
from diceengine.pmf import (
    PMF,
    WORK,
    convolve_cost,
    keep_dp,
    keep_dp_cost,
    keep_sum,
    keep_sum_cost,
    keep_window,
    kept_scores,
    kept_scores_cost,
    power_cost,
    window_sum,
    window_sum_cost,
)
from diceengine.records import replace

from .chains import bounds, chain_depth, chain_tolerance, first_face, first_face_arrays
from .each_die import MAX_UNIQUE_STATES, EachDie
from .faces import split_faces
from .scores import (
    base_array,
    face_score,
    keeps_nothing,
    mark_array,
    marks_per_unit,
    score_array,
    scorer,
    tallied_range,
    unique_test,
)
from .spec import TermSpec


class TermOdds:
    """A dice term's exact distribution (:meth:`pmf`), what it costs (:meth:`exact_cost`) and the mass it leaves
    out (:meth:`truncated_mass`)."""

    __slots__ = ("each_die", "parts", "spec")

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self.each_die = EachDie(spec)
        #: d20's re-roll of ranks: the odds of its two terms (:func:`_rank_parts`), made when first asked
        self.parts: tuple[TermOdds, TermOdds] | None = None

    def exact_cost(self) -> tuple[Cost, int, int]:
        """``(cost, lo, hi)``: what :meth:`pmf` will cost and the range of its support, estimated from the
        term alone (nothing is allocated); the simulation follows :meth:`_units` and :meth:`pmf` step by step."""
        spec = self.spec
        if spec.count == 0:
            return Cost(), 0, 0
        if spec.reroll_rank is not None:
            (a, a_lo, a_hi), (b, b_lo, b_hi) = (part.exact_cost() for part in self._rank_parts())
            convolve = convolve_cost(a_hi - a_lo + 1, b_hi - b_lo + 1)
            return a + b + convolve, a_lo + b_lo, a_hi + b_hi
        if keeps_nothing(spec):
            return Cost(), 0, 0
        if spec.per_die:
            return self.each_die.cost()
        if spec.unique_on:  # state by state: at most MAX_UNIQUE_STATES states per die
            lo, hi = bounds(spec)
            states = min(MAX_UNIQUE_STATES, comb(spec.sides + spec.count, spec.count))
            depth = 1 if spec.explode is None else 8
            return Cost(spec.count * depth * states * spec.sides * PYTHON_STEP, states), lo, hi
        if _vectorised(spec):  # a few numpy passes over the faces
            s = spec.sides
            s_lo, s_hi = tallied_range(spec, spec.success_range if spec.success is not None else
                                       (spec.faces[0], spec.faces[-1]))
            power, _ = power_cost(s_hi - s_lo + 1, spec.count)
            return Cost(12 * s + 4 * NUMPY_CALL, 4 * s) + power, spec.count * s_lo, spec.count * s_hi
        return _kept_cost(spec, *_units_cost(spec))

    def pmf(self) -> PMF:
        """Exact distribution of the term's score."""
        spec = self.spec
        if spec.count == 0 or keeps_nothing(spec):
            return PMF.point(0)
        if spec.reroll_rank is not None:  # the dice left as thrown, and the new faces
            kept, fresh = self._rank_parts()
            return kept.pmf() + fresh.pmf()
        if spec.unique_on:
            return self._unique_pmf()
        if spec.per_die:
            return self.each_die.pmf()[0]
        if _vectorised(spec):
            values, probs = first_face_arrays(spec)
            WORK.work += 2 * NUMPY_CALL + 2 * spec.sides  # the faces and their chances, one array each
            if spec.success is None and spec.tally is None:  # each face its own score: the chances as they are
                return PMF(spec.faces.start, probs).power(spec.count)
            values = score_array(spec, values)
            lo = int(values.min())
            return PMF(lo, np.bincount(values - lo, weights=probs)).power(spec.count)
        return _kept_pmf(spec, self._units()[0])

    def _rank_parts(self) -> tuple[TermOdds, TermOdds]:
        """The odds of the two terms whose scores add up to a re-roll of ranks (:func:`_rank_parts`)."""
        if self.parts is None:
            kept, fresh = _rank_parts(self.spec)
            self.parts = TermOdds(kept), TermOdds(fresh)
        return self.parts

    def truncated_mass(self) -> float:
        """Probability mass the exact distribution leaves out (explosion chains cut short)."""
        spec = self.spec
        if spec.explode is None or spec.count == 0 or spec.explode_limit is not None or keeps_nothing(spec):
            return 0.0
        if spec.per_die:
            return self.each_die.pmf()[1]
        return 1.0 - (1.0 - self._chains_left()) ** spec.count

    def _chains_left(self) -> float:
        """The mass one unit's chains leave out (:meth:`_chain_units`' second value): the same chains
        (:func:`~diceengine.algebra.chains.keyed_chains`, the same limits) followed on their weights alone, every
        value 0, since which throws explode is all that mass reads."""
        spec = self.spec
        test = spec.explode.test  # type: ignore[union-attr]
        (firsts, chances), (thrown, fair) = _throws(spec, first_face(spec))
        start, steps = steps_of(0 * firsts, chances, test(firsts)), steps_of(0 * thrown, fair, test(thrown))
        return keyed_chains(start, steps, spec.explode_limit, False, *_chain_limits(spec, _per_count(spec)))[1]

    def _units(self) -> tuple[dict[tuple[int, int], float], float]:
        """Joint distribution of (sort key, score) of one unit, and the mass truncated."""
        spec = self.spec
        first = first_face(spec)
        _steps(first_face_steps(spec))
        if spec.explode is not None:
            return self._chain_units(first)
        score_face = scorer(spec)
        _steps(len(first))
        return {(f, score_face(f)): p for f, p in first.items()}, 0.0  # one unit a face

    def _chain_units(self, first: dict[int, float]) -> tuple[dict[tuple[int, int], float], float]:
        """:meth:`_units` of an exploding die: its chains (:func:`~diceengine.algebra.chains.keyed_chains`), each
        summing its faces or, when every face is counted (``!`` with a count, unranked), their scores; kept apart by
        the score so far when the units are ranked (their sums read too) and by the critical marks when tallied."""
        spec = self.spec
        explode = spec.explode
        assert explode is not None
        per_count = _per_count(spec)
        ranked = per_count and _ranked(spec)
        scored = per_count and not ranked  # the chain's value is its score: its sum is never read
        pen = int(spec.penetrate)

        def kinds(values: np.ndarray, probs: np.ndarray, shift: int) -> list[Step]:  # recorded: values - shift
            recorded = values - shift
            keys = ([base_array(spec, recorded)] if ranked else []) + \
                ([mark_array(spec, recorded)] if spec.tally is not None else [])
            return steps_of(base_array(spec, recorded) if scored else values, probs, explode.test(values),
                            np.column_stack(keys) if keys else None)

        (firsts, chances), (thrown, fair) = _throws(spec, first)
        start, steps = kinds(firsts, chances, 0), kinds(thrown, fair, pen)
        _steps(3 * len(first))  # the first faces listed, split and tabled
        done, left = keyed_chains(start, steps, spec.explode_limit, spec.penetrate and not scored,
                                  *_chain_limits(spec, per_count))
        return self._placed(done, ranked, scored), left

    def _placed(self, done: dict[Key, PMF], ranked: bool, scored: bool) -> dict[tuple[int, int], float]:
        """The units' ``{(sort key, score): probability}`` from their chains (:meth:`_chain_units`): the key a
        chain's sum (0 when not ranked), the score the chain's score (its key's first part, ranked), or its sum's,
        with its marks when tallied (the key's last part)."""
        spec = self.spec
        tallied = spec.tally is not None
        counting = spec.success is not None
        out: dict[tuple[int, int], float] = {}
        cells = 0
        for key, masses in done.items():
            marks = key[-1] if tallied else 0
            listed = masses.items()
            cells += len(masses.p) + len(listed)
            for value, p in listed:
                if ranked:
                    unit = (value, key[0] + marks)
                elif scored:
                    unit = (0, value + marks)
                else:
                    unit = (value, (face_score(spec, value) if counting else value) + marks)
                out[unit] = out.get(unit, 0.0) + p
        _steps(cells)  # every cell of the chains read, every result placed
        return out

    def _unique_pmf(self) -> PMF:
        """Exact odds of unique dice: the multiset of faces followed die by die."""
        spec = self.spec
        s = spec.sides
        shown = Counter(spec.faces)
        states: dict[tuple[int, ...], float] = {(): 1.0}
        for _ in range(spec.count):
            _steps(len(states) * len(shown))  # a step a state and face
            nxt: dict[tuple[int, ...], float] = {}
            for seen, p in states.items():
                seen_set = set(seen)
                forbidden = {f for f in shown if f in seen_set and unique_test(spec, f)}
                bad = sum(shown[f] for f in forbidden)
                if spec.unique_once:
                    dist = {f: c / s for f, c in shown.items() if f not in forbidden}
                    for f, c in shown.items():
                        dist[f] = dist.get(f, 0.0) + bad / s * c / s
                elif bad == s:  # every face taken: the die keeps its face (rpg-dice-roller gives up re-rolling)
                    dist = {f: c / s for f, c in shown.items()}
                else:
                    dist = {f: c / (s - bad) for f, c in shown.items() if f not in forbidden}
                for f, q in dist.items():
                    key = tuple(sorted(seen + (f,)))
                    nxt[key] = nxt.get(key, 0.0) + p * q
            states = nxt
            if len(states) > MAX_UNIQUE_STATES:
                raise DiceLimitError(N_("too many dice for exact odds of unique dice in {text}"),
                                     column=spec.node.pos, text=spec.text)
        a, b = spec.window if spec.window is not None else (0, spec.count)
        out: dict[int, float] = {}
        score = scorer(spec)
        for faces, p in states.items():
            value = sum(map(score, faces[a:b]))
            out[value] = out.get(value, 0.0) + p
        return PMF.from_mapping(out)


def _per_count(spec: TermSpec) -> bool:
    """Every throw of an exploding unit is counted (a count, not compounding)."""
    return spec.success is not None and not spec.compound


def _throws(spec: TermSpec, first: dict[int, float]) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``((faces, chances), (faces, chances))``: a unit's first throw (``first``: after its re-rolls) and an added
    throw, as arrays."""
    firsts = np.fromiter(first, dtype=np.int64, count=len(first))
    thrown = spec.faces.take(np.arange(spec.sides)) if not isinstance(spec.faces, range) else \
        np.arange(spec.faces.start, spec.faces.stop)
    return ((firsts, np.fromiter(first.values(), dtype=np.float64, count=len(first))),
            (thrown, np.full(spec.sides, 1 / spec.sides)))


def _chain_limits(spec: TermSpec, per_count: bool) -> tuple[float, int | None]:
    """``(tolerance, rounds)`` of a unit's chains (:func:`~diceengine.algebra.chains.keyed_chains`): a chain's sum
    unbounded, until the chains' tolerance (refused past the explosions' limit); tallied, the depth the tally is
    wide enough for (:func:`.chains.chain_depth`); counted face by face, until the tolerance, at most that depth."""
    tolerance = chain_tolerance(spec)
    if per_count:
        return tolerance, chain_depth(spec) if spec.tally is not None else MAX_EXPLOSIONS
    if spec.tally is not None:
        return 0.0, chain_depth(spec)
    return (tolerance, None) if spec.explode_limit is None else (0.0, spec.explode_limit)


def first_face_steps(spec: TermSpec) -> int:
    """Steps of the Python loops of :func:`.chains.first_face`: one pass over the faces, more to re-roll."""
    if spec.reroll is None:
        return spec.sides if isinstance(spec.faces, range) else 2 * spec.sides
    return 5 * spec.sides


def _steps(n: float) -> None:
    """Count ``n`` steps of a Python loop of the exact odds in the work counter (what their estimate bounds)."""
    WORK.work += n * PYTHON_STEP


def _by_key(units: dict[tuple[int, int], float]) -> list[tuple[int, float, PMF]]:
    """``(key, probability, score PMF given the key)`` of a unit's joint ``{(key, score): probability}``."""
    by_key: dict[int, dict[int, float]] = {}
    for (key, sc), p in units.items():
        scores = by_key.setdefault(key, {})
        scores[sc] = scores.get(sc, 0.0) + p
    _steps(2 * len(units) + len(by_key))  # every pair placed, then read again; each key tabled
    table = []
    for key, scores in by_key.items():
        q = sum(scores.values())
        table.append((key, q, PMF.from_mapping({v: w / q for v, w in scores.items()})))
    return table


def _vectorised(spec: TermSpec) -> bool:
    """Whether the odds of the term are the power of one die's (a few numpy passes over its faces)."""
    return spec.explode is None and spec.window is None and spec.selection is None and spec.consecutive


def _ranked(spec: TermSpec) -> bool:
    """Whether the units are ranked (a keep / drop keeping fewer than all, or d20's selection)."""
    return (spec.window is not None and spec.keep != spec.count) or spec.selection is not None


def _units_cost(spec: TermSpec) -> tuple[Cost, int, int, int, int]:
    """What :meth:`TermOdds._units` costs: ``(cost, keys, entries, lo, hi)``, the keys of its units, their entries
    and the range of a unit's score; the first face, listed once per face (more to re-roll), then each first face
    placed, or the chains followed (:func:`_chains_cost`)."""
    s = spec.sides
    cost = Cost(first_face_steps(spec) * PYTHON_STEP, s)
    first = spec.allowed if spec.reroll is not None and not spec.reroll_once else spec.faces
    counting = spec.success is not None
    if spec.explode is not None:
        return _chains_cost(spec, cost, first, _per_count(spec), _ranked(spec))
    s_lo, s_hi = tallied_range(spec, spec.success_range if counting else (first[0], first[-1]))
    return cost + Cost(s * PYTHON_STEP, s), len(first), s, s_lo, s_hi


def _kept_cost(spec: TermSpec, cost: Cost, keys: int, entries: int, s_lo: int, s_hi: int) -> tuple[Cost, int, int]:
    """:meth:`TermOdds.exact_cost` once the units cost ``cost`` (:func:`_units_cost`): the units kept
    (:func:`_kept_pmf`)."""
    n = spec.count
    if spec.selection is not None and not spec.selection.by_value:
        cost = cost + Cost((2 * entries + keys) * PYTHON_STEP, keys) + \
            spec.selection.pmf_cost(keys, n, s_hi - s_lo + 1)
        return cost, min(0, n * s_lo), max(0, n * s_hi)
    if spec.selection is not None:  # each unit's score kept or not
        cost = cost + Cost(entries * PYTHON_STEP, entries)
    if not _ranked(spec) or spec.selection is not None:  # the scores tabled
        power, _ = power_cost(s_hi - s_lo + 1, n)
        cost = cost + Cost((entries + min(entries, s_hi - s_lo + 1)) * PYTHON_STEP, entries)
        return cost + power, min(0, n * s_lo), max(0, n * s_hi)
    k = spec.keep or 0
    return _ranks_cost(spec, cost, keys, entries, s_lo, s_hi), min(0, k * s_lo), max(0, k * s_hi)


def _ranks_cost(spec: TermSpec, cost: Cost, keys: int, entries: int, s_lo: int, s_hi: int) -> Cost:
    """``cost`` and what the ranks of the units kept cost (:func:`_ranks_pmf`)."""
    k = spec.keep or 0
    assert spec.window is not None
    first, last = spec.window
    if spec.success is None and spec.tally is None:
        cost = cost + Cost(entries * PYTHON_STEP, entries)  # the faces listed
        return cost + (keep_sum_cost(keys, spec.count, k, s_lo, s_hi) if first == 0 or last == spec.count else
                       window_sum_cost(keys, spec.count, first, last, s_lo, s_hi))
    if spec.explode is None and spec.tally is None:  # kept_scores
        points = sum(c is not None for c in (spec.success, spec.failure, spec.double))  # 2 score changes each
        return cost + kept_scores_cost(keys, min(keys, 1 + 2 * points), spec.count, first, last, s_lo, s_hi)
    cost = cost + Cost((2 * entries + keys) * PYTHON_STEP, entries)  # the units tabled by key
    # without explosions a key is a face, its score one value: the sums placed are bounded (the undercount of
    # 4d6>=4kh2 and 5d10>=8f1dl2, tests/test_keep_dp_estimate.py); with them, the chains' estimate above
    # leaves room for them (measured there too: at least 1.2 times the work counted)
    return cost + keep_dp_cost(keys, spec.count, k, s_hi - s_lo + 1, _key_span(spec, s_hi - s_lo + 1))


def _key_span(spec: TermSpec, score_span: int) -> int:
    """At most the span of a unit's score given its sort key (the sums :func:`~diceengine.pmf.keep_dp` places key by
    key): one value without explosions, or when only the highest of consecutive faces explodes (a chain's sum then
    tells its faces); a chain's count of every face, any of the unit's scores; else a chain's sum fixes its score
    but for its critical marks."""
    if spec.explode is None:
        return 1
    on, _ = split_faces(spec.faces, spec.explode)
    if spec.consecutive and len(on) == 1 and on[0] == spec.faces[-1]:
        return 1
    if _per_count(spec):
        return score_span
    if spec.tally is None:
        return 1
    lo, hi = tallied_range(spec, (0, 0))
    return min(score_span, hi - lo + 1)


def _kept_pmf(spec: TermSpec, units: dict[tuple[int, int], float]) -> PMF:
    """The term's odds from one unit's joint ``{(key, score): probability}`` (:meth:`TermOdds._units`): the units
    kept and their scores summed."""
    if spec.selection is not None and not spec.selection.by_value:  # ranks mixed: key by key
        return spec.selection.pmf(_by_key(units), spec.count)
    if spec.selection is not None:
        keeps = spec.selection.keeps_value
        picked: dict[tuple[int, int], float] = {}
        _steps(len(units))
        for (key, sc), p in units.items():
            state = (key, sc if keeps(key) else 0)
            picked[state] = picked.get(state, 0.0) + p
        units = picked
    if spec.window is None or spec.keep == spec.count:
        score: dict[int, float] = {}
        for (_, sc), p in units.items():
            score[sc] = score.get(sc, 0.0) + p
        _steps(len(units) + len(score))
        return PMF.from_mapping(score).power(spec.count)
    return _ranks_pmf(spec, units)


def _ranks_pmf(spec: TermSpec, units: dict[tuple[int, int], float]) -> PMF:
    """The sum of the scores of the units ranked in the window: by their values (:func:`~diceengine.pmf.keep_sum`),
    one score to a face (:func:`~diceengine.pmf.kept_scores`), else key by key (:func:`~diceengine.pmf.keep_dp`)."""
    assert spec.window is not None
    a, b = spec.window
    n = spec.count
    if spec.success is None and spec.tally is None:  # a die's score is its value
        _steps(len(units))
        faces = [(key, p) for (key, _), p in units.items()]
        return keep_sum(faces, n, b - a, a > 0) if a == 0 or b == n else window_sum(faces, n, a, b)
    if spec.explode is None and spec.tally is None:  # one score to a face: the kept dice's scores by bands
        return kept_scores([(key, sc, p) for (key, sc), p in units.items()], n, a, b)
    table = _by_key(units)
    return keep_dp(table, n, b - a, a > 0) if a == 0 or b == n else keep_window(table, n, a, b)


def _rank_parts(spec: TermSpec) -> tuple[TermSpec, TermSpec]:
    """d20's ``rolN`` / ``rahN`` as two terms whose scores add: the dice left as thrown (all of them for
    ``ra``; for ``ro`` the ranks not re-rolled) and the new faces (N dice, one for ``ra``)."""
    kind, side, k = spec.reroll_rank  # type: ignore[misc]
    c = spec.count
    window = None if kind == "ra" else ranks_left(False, side == "l", k, c)
    return (replace(spec, reroll_rank=None, window=window, keeps=()),
            replace(spec, reroll_rank=None, count=k, window=None, keeps=()))


def _chains_cost(spec: TermSpec, cost: Cost, first: Any, per_count: bool, ranked: bool) -> tuple[Cost, int, int, int, int]:
    """What :meth:`TermOdds._units` costs when the dice explode (added to ``cost``): ``(cost, keys, entries, lo,
    hi)``, the keys of its units, their entries and the range of a unit's score."""
    assert spec.explode is not None  # the dice explode
    on, off = split_faces(spec.faces, spec.explode)
    depth = chain_depth(spec)  # the first face's chance to explode read after its re-rolls
    codes = 1  # counts of marked faces a unit's chains are followed apart for (tallied)
    if spec.tally is not None:
        ns, nf = marks_per_unit(spec)
        codes = (ns + 1 if spec.crit_success is not None else 1) * (nf + 1 if spec.crit_failure is not None else 1)
    lo = min(first[0], first[0] + depth * (on[0] - 1))
    hi = max(first[-1], first[-1] + depth * on[-1])
    if not per_count:  # ... chain sums by convolutions
        cost = _sums_cost(spec, cost, on, off, depth, codes)
        keys = hi - lo + 1
        entries = codes * keys  # a unit's score follows from its sum (and its marks)
        cost = cost + Cost(3 * codes * keys * PYTHON_STEP, 2 * codes * keys)  # each sum read and placed
        s_lo, s_hi = spec.success_range if spec.success is not None else (lo, hi)
    else:  # ... every face counted: the chains keyed by their score (ranked) or summing it
        # the rounds the chains run (the depth), one more for the rounding of the masses they weigh, at most the
        # explosions' limit
        rounds = min(depth + 1, MAX_EXPLOSIONS if spec.explode_limit is None else spec.explode_limit)
        cost = _counts_cost(spec, cost, on, rounds, codes, ranked)
        keys = hi - lo + 1 if ranked else 1
        s_lo, s_hi = (depth + 1) * spec.success_range[0], (depth + 1) * spec.success_range[1]
        entries = keys * (s_hi - s_lo + 1)
        cost = cost + Cost(2 * codes * entries * PYTHON_STEP, codes * entries)  # each chain read and placed
    s_lo, s_hi = tallied_range(spec, (s_lo, s_hi))
    if spec.explode_limit is None and not keeps_nothing(spec):  # truncated_mass() follows the chains' weights
        cost = cost + Cost(2 * (depth + 2) * convolve_cost(1, 1).work + 8 * spec.sides * PYTHON_STEP, 4 * spec.sides)
    return cost, keys, entries, s_lo, s_hi


def _sums_cost(spec: TermSpec, cost: Cost, on: Any, off: Any, depth: int, codes: int) -> Cost:
    """``cost`` and the convolutions of the chains' sums (:meth:`TermOdds._chain_units`, ``codes`` counts of marks
    apart), ``depth`` levels."""
    span_on, span_off = on[-1] - on[0] + 1, (off[-1] - off[0] + 1) if len(off) else 1
    going = span_on
    done = span_off
    cost = cost + Cost(3 * spec.sides * PYTHON_STEP, spec.sides)  # the first faces split and tabled
    for _ in range(depth):
        step = convolve_cost(going, span_off) + convolve_cost(going, span_on) + Cost(done, done)
        if codes > 1:  # each count apart, each face's mark apart: a few numpy calls each
            step = Cost(3 * codes * (step.work + 8 * NUMPY_CALL), step.cells)
        cost = cost + step
        done = going + span_off + done
        going += span_on - 1
    return cost


def _counts_cost(spec: TermSpec, cost: Cost, on: Any, depth: int, codes: int, ranked: bool) -> Cost:
    """``cost`` and the chains of a count of every face (:meth:`TermOdds._chain_units`), ``depth`` rounds: each key
    still going convolved with each kind of throw (explodes or not, its score when ``ranked``, its mark when
    tallied: ``codes`` counts of marks); ``ranked``, the chains' sums keyed by the score so far, else their scores
    with no key but the marks."""
    lo, hi = spec.success_range
    scores = hi - lo + 1
    faces = spec.faces[-1] - spec.faces[0] + 1 if spec.consecutive else max(spec.faces) - min(spec.faces) + 1
    marks = 3 if spec.tally is not None else 1
    kinds = min(spec.sides, 2 * marks * (scores if ranked else 1))
    step = faces if ranked else scores  # the support of a kind of throw
    work, cells = 3 * spec.sides * PYTHON_STEP, 0  # the faces split into kinds
    for i in range(1, depth + 1):  # round i: i throws made, every one exploding
        keys = codes * (i * (scores - 1) + 1 if ranked else 1)
        length = i * ((on[-1] - on[0]) if ranked else scores - 1) + 1
        work += keys * kinds * (length * step + NUMPY_CALL)
        cells = max(cells, keys * kinds * (length + step))
    return cost + Cost(work, cells)
