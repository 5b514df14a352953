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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
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
    TRUNCATION,
)
from diceengine.parts import TextMemo
from diceengine.rolljson import FaceJson

from ..nodes import (
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
from ..selection import Selection, selection_of
from .each_die import (  # noqa: F401  (the limits of the exact odds re-exported)
    EACH_DIE_CELL,
    EACH_DIE_STEP,
    MAX_EACH_DIE_STEPS,
    TermEachDie,
)
from .exact import MAX_UNIQUE_STATES, TermExact  # noqa: F401  (re-exported)
from .faces import (  # noqa: F401  (the flags of a throw re-exported)
    ADDED,
    DROPPED,
    EXPLODED,
    REROLLED,
    Faces,
    Listed,
    TermBase,
    split_faces,
    window_of,
)
from .roll import TermRoll
from .sample import TermSample
from .text import TermText

__all__ = ["DiceTerm", "Faces", "compile_term", "split_faces", "window_of"]


@dataclass(frozen=True, eq=False)
class DiceTerm(TermRoll, TermText, TermExact, TermEachDie, TermSample, TermBase):
    """A validated dice term, ready to roll: its fields and what its parts share here; one roll in
    :class:`~._term_roll.TermRoll`, its text in :class:`~._term_text.TermText`, exact odds in
    :class:`~._term_exact.TermExact` and :class:`~._term_each_die.TermEachDie`, bulk sampling in
    :class:`~._term_sample.TermSample`."""

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
