"""The exact odds of a dice term whose keep / drop rank every die thrown (explosions="dice"), and their cost
estimated by walking the same states without their masses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from diceengine.errors import DiceLimitError
from diceengine.i18n import N_
from diceengine.lazy import np
from diceengine.limits import MAX_WORK, PYTHON_STEP, Cost
from diceengine.pmf import PMF, WORK

from ..nodes import Keep
from .chains import chain_depth, chain_tolerance, first_face, kept_units
from .faces import window_of
from .scores import scorer
from .spec import TermSpec

#: most states the exact odds of unique dice, or of dice ranked one by one, may follow
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


class EachDie:
    """A dice term's exact odds when keep / drop rank every die thrown (:meth:`pmf`) and their cost
    (:meth:`cost`); the walk that estimates the cost hands its moves over to the odds."""

    __slots__ = ("_moves", "_pmf", "_shape", "spec")

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self._shape: tuple[float, float, int, int] | None = None
        self._moves: dict[tuple[_EachKey, int], _EachKey] | None = None
        self._pmf: tuple[PMF, float] | None = None

    def cost(self) -> tuple[Cost, int, int]:
        """:meth:`.exact.TermOdds.exact_cost` of :meth:`pmf`: its steps counted by :meth:`shape` (the same walk
        over the states, without the masses), each at the work it takes."""
        spec = self.spec
        assert spec.explode is not None
        units, u_lo, u_hi = kept_units(spec)
        lo, hi = min(0, units * u_lo), max(0, units * u_hi)  # the chains followed
        if spec.tally is not None:
            lo, hi = spec.tally[0], spec.tally[0] + spec.tally[1] * (spec.tally[4] + 1) * (spec.tally[5] + 1)
        mode, _, _ = self.mode()
        steps, cells, most, width = self.shape()
        work = steps * EACH_DIE_STEP * (4 if mode == "d20" else 1) + cells * EACH_DIE_CELL
        if most > MAX_UNIQUE_STATES or steps > MAX_EACH_DIE_STEPS:  # what _each_die_pmf refuses
            work = max(work, 2 * MAX_WORK)
        return Cost(work, max(most, 1) * width), lo, hi

    def shape(self) -> tuple[float, float, int, int]:
        """What :meth:`pmf` will do, found by walking its states without their masses: ``(steps, cells
        merged, most states at once, widest sum array)``. The explosions' depth is known from the faces (a
        throw's mass is that of its chain); a level of a chain that repeats the one before (the same states,
        their sums shifted alike), and a die that repeats the one before (the same states, no sums followed),
        make every later one cost the same: counted without walking them. Stops once past the work budget (the
        answer is then only known to exceed it)."""
        found = self._shape
        if found is not None:
            return found
        walk = _Walk(self)
        states: _Ranges = {(0, (), ()): (0, 1)}
        for die in range(self.spec.count):
            before = walk.steps, walk.cells
            done = walk.die(states)
            if done is None:  # over the budget: refused anyway
                self._shape = walk.result()
                return self._shape
            # every die left repeats this one, or follows at least as many states (past the budget already: refused)
            steps, cells = walk.repeated(self.spec.count - die - 1, before)
            if (not walk.need_total and done.keys() == states.keys()) or walk.over(steps, cells):
                walk.steps, walk.cells = steps, cells
                break
            states = done
        self._moves = walk.moves  # for pmf(): the same moves, not built again
        self._shape = walk.result()
        return self._shape

    def mode(self) -> tuple[str, int, int]:
        """How :meth:`pmf` follows the dice: ``(mode, low, high)``. ``mode`` is one keep / drop kind
        (``kh kl dh dl``: the ``high`` or ``low`` extreme faces it needs), ``value`` (d20's selection by value:
        a sum), ``window`` (several keep / drop of Roll20: the count, the sum and the ``low`` lowest and
        ``high`` highest faces), ``union`` (one d20 operator joining selectors: the same, with the sum of the
        scores of the dice its value selectors choose, or do not choose for ``p``) or ``d20`` (d20's operators
        in a row mixing ranks: every face, sorted)."""
        spec = self.spec
        sel = spec.selection
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
        keeps = self.keeps()
        if len(keeps) == 1:
            kind, n = keeps[0].kind, keeps[0].n
            return kind, (n if kind in ("kl", "dl") else 0), (n if kind in ("kh", "dh") else 0)
        low = max([k.n for k in keeps if k.kind in ("kl", "dl")], default=0)
        high = max([k.n for k in keeps if k.kind in ("kh", "dh")], default=0)
        return "window", low, high

    def keeps(self) -> tuple[Keep, ...]:
        """Roll20's keep / drop without those that change nothing when at least ``count`` dice are thrown
        (``6d6!kh3dl1`` is ``6d6!kh3``): fewer faces to follow."""
        spec = self.spec
        def kept(keeps: Sequence[Keep], n: int) -> tuple[int, int]:
            lo, hi = window_of(keeps, n) or (0, n)
            return (lo, hi) if hi > lo else (0, 0)

        keeps = list(spec.keeps)
        last = spec.count + sum(k.n for k in keeps) + 2  # past it every window is the same (see _each_die_pmf)
        for k in list(keeps):
            rest = [x for x in keeps if x is not k]
            if rest and all(kept(rest, n) == kept(keeps, n) for n in range(spec.count, last)):
                keeps = rest
        return tuple(keeps)

    def pmf(self) -> tuple[PMF, float]:
        """Exact odds when keep / drop rank every die thrown: the dice followed throw by throw, keeping what the
        keep / drop needs (:meth:`mode`): the few extreme faces one keep / drop needs, the count too
        for several, every face for d20's operators mixing ranks; when the sum of the scores is needed too
        (drops, d20's selection by value), each state holds its distribution as an array."""
        found = self._pmf
        if found is not None:
            return found
        throws = _Throws(self)
        # a state's mass: a probability, or (offset, array) the distribution of the sum of the scores
        states: dict[_EachKey, Any] = {(0, (), ()): (0, np.ones(1)) if throws.need_total else 1.0}
        for _ in range(self.spec.count):
            states = throws.die(states)
        WORK.work += throws.steps * EACH_DIE_STEP * (4 if throws.mode == "d20" else 1)  # every face: longer tuples
        result = (self._mix(throws, states), throws.lost)  # sorted at each step
        self._pmf = result
        self._moves = None  # the odds are kept: their moves are not needed again
        return result

    def _mix(self, throws: _Throws, states: dict[_EachKey, Any]) -> PMF:
        """The kept score of every state of :meth:`pmf` mixed, each with its mass."""
        score = scorer(self.spec)
        out = PMF.point(0, 0.0)
        for state, m in states.items():
            minus, value = self.kept(throws.mode, state, score)
            if minus:  # the sum of the scores, minus those dropped
                out = out.mix(PMF(m[0] - value, m[1]))
            else:
                out = out.mix(PMF.point(value, throws.mass(m)))
        return out

    def add(self, mode: str, low: int, high: int) -> Callable[[_EachKey, int], _EachKey]:
        """The state of :meth:`pmf` after one more die showing a face."""
        # past this many dice the window keeps the same ranks of the faces followed (of the highest ones, of the
        # lowest ones, or none): the count is followed up to it
        cap = sum(k.n for k in self.keeps()) + 1 if mode == "window" else low + high + 1
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

    def gain(self, mode: str) -> Callable[[int], int]:
        """What a die showing a face adds to the sum :meth:`pmf` follows (when it follows one)."""
        spec = self.spec
        keeps = spec.selection.keeps_value if spec.selection is not None else None
        score = scorer(spec)
        chosen = self.union_values()

        def gain(v: int) -> int:
            if mode == "value":
                return score(v) if keeps(v) else 0  # type: ignore[misc]
            if mode == "union":  # k: the dice its value selectors choose; p: the others
                return score(v) if chosen(v) == (spec.selection.groups[0][0] == "k") else 0  # type: ignore[union-attr]
            return score(v)

        return gain

    def total(self, mode: str) -> bool:
        """Whether :meth:`pmf` follows a sum of scores (drops only, d20's selection by value, one d20
        operator dropping or with value selectors)."""
        spec = self.spec
        if mode == "union":
            assert spec.selection is not None
            return spec.selection.groups[0][0] == "p" or any(k not in "hl" for k, _ in spec.selection.groups[0][1])
        return mode in ("dh", "dl", "value") or (mode == "window" and not any(
            k.kind in ("kh", "kl") for k in self.keeps()))

    def union_values(self) -> Callable[[int], bool]:
        """Whether a face is chosen by a value selector of the first d20 operator (none without a selection)."""
        spec = self.spec
        sels = [(k, n) for k, n in spec.selection.groups[0][1] if k not in "hl"] if spec.selection else []
        return lambda v: any((v == n) if k == "=" else (v < n) if k == "<" else (v > n) for k, n in sels)

    def kept(self, mode: str, state: tuple[int, tuple[int, ...], tuple[int, ...]],
                       score: Callable[[int], int]) -> tuple[bool, int]:
        """The kept score of one state of :meth:`pmf`: ``(False, score)``, or ``(True, dropped)`` when it
        is the sum of all the scores minus ``dropped``."""
        spec = self.spec
        n, lows, highs = state
        if mode in ("kh", "kl"):
            return False, sum(score(v) for v in lows + highs)
        if mode in ("dh", "dl"):
            return True, sum(score(v) for v in lows + highs)
        if mode == "value":
            return True, 0
        if mode == "d20":
            assert spec.selection is not None
            counts = sorted(Counter(lows).items())
            return False, sum(score(v) * k for (v, _), k in zip(counts, spec.selection.kept_counts(counts)))
        if mode == "union":
            assert spec.selection is not None
            _, low, high = self.mode()
            if n <= low + high:  # every face is among those followed
                counts = sorted(Counter(lows + highs[len(highs) - (n - len(lows)):]).items())
                return False, sum(score(v) * k for (v, _), k in zip(counts, spec.selection.kept_counts(counts)))
            # the lowest and the highest faces followed are distinct dice: of each face not chosen by value, the
            # operator chooses as many as the more of its rank selectors does (the first thrown among equals)
            chosen = self.union_values()
            low_n, high_n = Counter(lows), Counter(highs)
            part = sum(score(v) * max(low_n[v], high_n[v]) for v in set(lows) | set(highs) if not chosen(v))
            if spec.selection.groups[0][0] == "k":
                return (True, -part) if self.total(mode) else (False, part)
            return True, part
        lo, hi = window_of(self.keeps(), n) or (0, n)  # n: the count of dice, or the cap (_each_die_pmf)
        if hi <= lo:
            return False, 0
        if hi <= len(lows):  # within the lowest faces followed
            return False, sum(score(v) for v in lows[lo:hi])
        top = n - len(highs)  # the rank of the first of the highest faces followed
        if lo >= top:
            return False, sum(score(v) for v in highs[lo - top:hi - top])
        # no kh / kl: lo is a dl (among the lowest followed), n - hi a dh (among the highest followed)
        return True, sum(score(v) for v in lows[:lo]) + sum(score(v) for v in highs[len(highs) - (n - hi):])


_Ranges = dict[_EachKey, tuple[int, int]]  # a state's sum array in :meth:`EachDie.shape`: [lo, hi) (one cell: no sum)
_Parts = dict[_EachKey, list[tuple[int, float, Any]]]  # the parts of states (:meth:`_Dice.throw`)


def _put(target: _Ranges, key: _EachKey, lo: int, hi: int) -> None:
    """``target[key]`` widened to ``[lo, hi)``."""
    had = target.get(key)
    target[key] = (lo, hi) if had is None else (min(had[0], lo), max(had[1], hi))


def _range(parts: list[tuple[int, float, Any]]) -> tuple[int, int]:
    """The range of sums a state's parts (:meth:`_Dice.throw` on ranges) reach."""
    return min(d + lo for d, _, (lo, _) in parts), max(d + hi for d, _, (_, hi) in parts)


def _levels(spec: TermSpec, first: dict[int, float]) -> int:
    """Levels of a die's chains :meth:`EachDie.shape` walks: until the mass of the chains still going (the first
    face's chance to explode, ``first`` its chances, then each throw's) is the truncation's."""
    explode = spec.explode
    assert explode is not None
    q1 = sum(p for f, p in first.items() if explode.test(f))
    q = sum(1 for f in spec.faces if explode.test(f)) / spec.sides
    levels, mass = 1, q1
    while mass > chain_tolerance(spec) * (1 - 1e-9) and levels <= MAX_EACH_DIE_STEPS:
        mass *= q
        levels += 1
    return levels


#: a face of a throw: (the value recorded, what it adds to the sum followed, whether the chain goes on, its chance)
_Face = tuple[int, int, bool, float]


class _Dice:
    """What :meth:`EachDie.shape` and :meth:`EachDie.pmf` both follow: the keep / drop's mode, the state after a face
    (``add``, remembered in ``moves``: the same moves come back die after die), what a face adds to the sum followed
    (``gain``, when ``need_total``), the faces of a die's first throw and of an added one, and a throw of every
    chain going (:meth:`throw`), whose parts the shape reads as ranges and the odds as masses."""

    __slots__ = ("add", "first", "first_faces", "gain", "high", "later", "low", "mode", "moves", "need_total", "spec")

    def __init__(self, each: EachDie) -> None:
        self.spec = spec = each.spec
        self.mode, self.low, self.high = each.mode()
        self.add = each.add(self.mode, self.low, self.high)
        self.need_total = each.total(self.mode)
        self.gain = gain = each.gain(self.mode)
        self.first_faces = first_face(spec)
        self.moves: dict[tuple[_EachKey, int], _EachKey] = each._moves or {}
        test, need, pen = spec.explode.test, self.need_total, int(spec.penetrate)  # type: ignore[union-attr]
        self.first = [(f, gain(f) if need else 0, bool(test(f)), q) for f, q in self.first_faces.items()]
        self.later = [(f - pen, gain(f - pen) if need else 0, bool(test(f)), c / spec.sides)
                      for f, c in Counter(spec.faces).items()]

    def move(self, state: _EachKey, v: int) -> _EachKey:
        """The state after ``state`` and a die showing ``v`` (``add``, remembered)."""
        key = self.moves.get((state, v))
        if key is None:
            key = self.moves[(state, v)] = self.add(state, v)
        return key

    def throw(self, going: dict[_EachKey, Any], faces: list[_Face], last: bool) -> tuple[_Parts, _Parts]:
        """One more throw of every chain going (``last``: the explosions' limit reached): ``(the states going on, the
        states done)``, each as its parts ``(what the face adds to the sum, its chance, the state's mass before)``."""
        nxt: _Parts = {}
        done: _Parts = {}
        for state, m in going.items():
            for v, d, on, q in faces:
                (nxt if on and not last else done).setdefault(self.move(state, v), []).append((d, q, m))
        return nxt, done


class _Walk(_Dice):
    """:meth:`EachDie.shape`'s walk over the states without their masses, and what it counts: the steps, the cells
    merged, the most states at once and the widest sum array."""

    __slots__ = ("cells", "levels", "limit", "most", "step_work", "steps", "width")

    def __init__(self, each: EachDie) -> None:
        super().__init__(each)
        self.levels = _levels(self.spec, self.first_faces)
        self.limit = self.spec.explode_limit
        self.step_work = EACH_DIE_STEP * (4 if self.mode == "d20" else 1)
        self.steps = self.cells = 0.0
        self.most = self.width = 1

    def result(self) -> tuple[float, float, int, int]:
        """``(steps, cells merged, most states at once, widest sum array)``."""
        return self.steps, self.cells, self.most, self.width

    def over(self, steps: float, cells: float) -> bool:
        """Whether that many steps and cells are past the work budget."""
        return steps * self.step_work + cells * EACH_DIE_CELL > MAX_WORK

    def repeated(self, left: int, before: tuple[float, float]) -> tuple[float, float]:
        """The steps and cells counted once ``left`` more dice cost what the last one did (``before`` it)."""
        return self.steps + left * (self.steps - before[0]), self.cells + left * (self.cells - before[1])

    def die(self, states: _Ranges) -> _Ranges | None:
        """The states after one more die, its chains walked level by level; None once past the budget."""
        done: _Ranges = {}
        going, level = states, 0
        while going and level < self.levels:
            faces = self.first if level == 0 else self.later
            nxt, to_done, span = self.level(going, faces, self.limit is not None and level >= self.limit)
            self.steps += len(going) * len(faces)
            self.cells += span * len(faces)
            for key, (lo, hi) in to_done.items():
                _put(done, key, lo, hi)
            self.most = max(self.most, len(done) + len(nxt))
            if self.need_total:
                self.width = max([self.width] + [hi - lo for lo, hi in nxt.values()] +
                                 [hi - lo for lo, hi in done.values()])
            if self.over(self.steps, self.cells):  # over the budget: refused anyway
                return None
            delta = _shifted(going, nxt) if level >= 1 and self.limit is None else None
            level += 1
            if delta is not None:  # every level left repeats this one, shifted by delta
                left = self.levels - level
                self.steps += left * len(nxt) * len(self.later)
                self.cells += left * span * len(self.later)
                for key, (lo, hi) in to_done.items():
                    _put(done, key, lo + delta, hi + delta)
                    _put(done, key, lo + left * delta, hi + left * delta)
                break
            going = nxt
        return done

    def level(self, going: _Ranges, faces: list[_Face], last: bool) -> tuple[_Ranges, _Ranges, int]:
        """:meth:`throw` on the sums' ranges (no sums: one cell each): ``(the states going on, the states done, the
        width of the sums followed)``."""
        nxt, to_done = self.throw(going, faces, last)
        span = sum(hi - lo for lo, hi in going.values()) if self.need_total else 0
        return {key: _range(parts) for key, parts in nxt.items()}, \
            {key: _range(parts) for key, parts in to_done.items()}, span


class _Throws(_Dice):
    """:meth:`EachDie.pmf`'s throws: the states of the dice thrown so far with their masses (a probability, or
    ``(offset, array)``: the distribution of the sum of the scores), the steps taken and the mass the chains left
    out."""

    __slots__ = ("lost", "most", "steps", "tolerance")

    def __init__(self, each: EachDie) -> None:
        super().__init__(each)
        spec = self.spec
        self.tolerance = chain_tolerance(spec)
        self.most = chain_depth(spec) if spec.tally is not None else None  # tallied: the widths' chains
        self.lost = 0.0
        self.steps = 0

    def die(self, states: dict[_EachKey, Any]) -> dict[_EachKey, Any]:
        """The states after one more die, each chain thrown until what goes on weighs at most the truncation."""
        spec = self.spec
        done: _Parts = {}
        going = states
        faces, depth = self.first, 0
        while going:
            last = spec.explode_limit is not None and depth >= spec.explode_limit
            nxt, to_done = self.throw(going, faces, last)
            for key, parts in to_done.items():
                done.setdefault(key, []).extend(parts)
            self.steps += len(going) * len(faces)
            going = {key: self.merge(parts) for key, parts in nxt.items()}
            faces, depth = self.later, depth + 1
            left = sum(self.mass(m) for m in going.values())
            if left <= self.tolerance or (self.most is not None and depth > self.most):
                self.lost += left
                break
            if len(done) + len(going) > MAX_UNIQUE_STATES or self.steps > MAX_EACH_DIE_STEPS:
                raise DiceLimitError(N_("too many dice for exact odds of {text} with explosions='dice'"),
                                     column=spec.node.pos, text=spec.text)
        return {key: self.merge(parts) for key, parts in done.items()}

    def merge(self, parts: list[tuple[int, float, Any]]) -> Any:
        """The mass of one state from its parts ``(shift of the sum, weight, mass)``."""
        if not self.need_total:
            return sum(w * m for _, w, m in parts)
        WORK.work += sum(len(m[1]) for _, _, m in parts) * EACH_DIE_CELL
        lo = min(d + m[0] for d, _, m in parts)
        hi = max(d + m[0] + len(m[1]) for d, _, m in parts)
        out = np.zeros(hi - lo)
        for d, w, (off, arr) in parts:
            out[d + off - lo:d + off - lo + len(arr)] += w * arr
        return lo, out

    def mass(self, m: Any) -> float:
        """The probability of a state."""
        return float(m[1].sum()) if self.need_total else float(m)


def _shifted(before: dict[Any, tuple[int, int]], after: dict[Any, tuple[int, int]]) -> int | None:
    """``delta`` when ``after`` holds the states of ``before``, each range shifted by ``delta``; else ``None``."""
    if before.keys() != after.keys() or not before:
        return None
    key = next(iter(before))
    delta = after[key][0] - before[key][0]
    return delta if all(after[k] == (lo + delta, hi + delta) for k, (lo, hi) in before.items()) else None
