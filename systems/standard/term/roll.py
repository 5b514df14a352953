"""One roll of a dice term: its dice thrown and recorded, and the score (:class:`TermRoll`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diceengine.algebra.chains import roll_steps
from diceengine.algebra.rerolls import rank_choice, roll_reroll
from diceengine.limits import MAX_REROLLS

from .faces import ADDED, DROPPED, EXPLODED, REROLLED, window_of
from .scores import dropped_dice, face_score, unique_test, unit_score
from .spec import TermSpec


class TermRoll:
    """A dice term thrown once: each roll appends ``(owner, data)`` to the record, ``owner`` the term that reads
    its data back (text, dice); ``data`` is the list of faces of a flat term, else its units (a die and the dice
    its explosions and re-rolls added: ``[face, flags]`` each, :mod:`.faces`)."""

    __slots__ = ("owner", "spec")

    def __init__(self, spec: TermSpec, owner: Any) -> None:
        self.spec = spec
        self.owner = owner

    def roller(self) -> Callable[[Any, list], int]:
        """A function ``(random, record) -> score`` throwing this term once."""
        spec = self.spec
        if spec.plain and spec.window is None and spec.count == 1:  # the most common term: bound defaults, no cell
            def roll_one(r: Any, rec: list, s: int = spec.sides, lo: int = spec.faces[0], owner: Any = self.owner) \
                    -> int:
                v = int(r() * s) + lo
                rec.append((owner, [v]))
                return v
            return roll_one
        if spec.flat:
            return self._flat_roller()
        if spec.explode_only:
            return self._explode_roller()
        return self.general

    def _explode_roller(self) -> Callable[[Any, list], int]:
        """``NdM!`` and ``NdM!!`` with nothing else: the general roller's record and total, without its
        questions (the most common modified term)."""
        spec, owner = self.spec, self.owner
        n, s, lo = spec.count, spec.sides, spec.faces[0]
        explodes = spec.explode.predicate()  # type: ignore[union-attr]

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
                for face in roll_steps(v, lambda: int(r() * s) + lo, explodes, None, spec.text):
                    total += face
                    throws.append([face, ADDED | EXPLODED if explodes(face) else ADDED])
                units.append(throws)
            rec.append((owner, units))
            return total
        return roll_explode

    def _flat_roller(self) -> Callable[[Any, list], int]:
        """Each die thrown once, the record the list of faces: the dice kept (a selection, a window of ranks, all)
        summed, or their counts."""
        spec = self.spec
        a, b = spec.window if spec.window is not None else (0, spec.count)
        score = spec.counting.scorer() if spec.counting is not None else None  # the algebra's count of a face

        def roll_flat(r: Any, rec: list, n: int = spec.count, s: int = spec.sides, lo: int = spec.faces[0],
                      owner: Any = self.owner, whole: bool = spec.window is None, a: int = a, b: int = b,
                      selection: Any = spec.selection, score: Any = score) -> int:
            vals = [int(r() * s) + lo for _ in range(n)]
            rec.append((owner, vals))
            if selection is not None:
                kept = [v for v, k in zip(vals, selection.kept(vals)) if k]
            else:
                kept = vals if whole else sorted(vals)[a:b]
            return sum(kept) if score is None else sum(map(score, kept))
        return roll_flat

    def general(self, r: Any, rec: list) -> int:
        spec, owner = self.spec, self.owner
        faces, s = spec.faces, spec.sides
        reroll, explode, pen = spec.reroll, spec.explode, int(spec.penetrate)
        units: list[list[list[int]]] = []
        seen: set[int] = set()
        unique_on = spec.unique_on

        def draw() -> int:
            return faces[int(r() * s)]

        if reroll is not None:
            once, cap, rerolls, draw_kept = spec.reroll_once, spec.reroll_cap, reroll.test, _kept_draw(spec, r)
        if unique_on:
            clash, draw_free = _unique_steps(spec, r, seen)
        for _ in range(spec.count):
            throws: list[list[int]] = []
            v = faces[int(r() * s)]
            if reroll is not None and rerolls(v):
                v, gone = roll_reroll(v, draw, rerolls, once, cap, draw_kept)
                throws = [[g, REROLLED] for g in gone]
            if unique_on:
                if clash(v) and (spec.unique_once or not all(map(clash, faces))):
                    # else every face is taken (12dFu): the die keeps it, as rpg-dice-roller's after 1000 re-rolls
                    v, gone = roll_reroll(v, draw, clash, spec.unique_once, MAX_REROLLS, draw_free)
                    throws = [[g, REROLLED] for g in gone]
                seen.add(v)
            throws.append([v, 0])
            if explode is not None and explode.test(v):
                for face in roll_steps(v, draw, explode.test, spec.explode_limit, spec.text):
                    throws[-1][1] |= EXPLODED
                    throws.append([face - pen, ADDED])  # a penetrating die counts one less; its face explodes
            units.append(throws)
        if spec.reroll_rank is not None:
            self._reroll_ranks(r, units)
        if spec.per_die:
            rec.append((owner, units))
            return self._rank_each_die(units)
        scores = [unit_score(spec, u) for u in units]
        if spec.selection is not None or spec.window is not None:  # units ranked by their sums
            for i in dropped_dice(spec, [sum(t[0] for t in u if not t[1] & REROLLED) for u in units]):
                for t in units[i]:
                    t[1] |= DROPPED
                scores[i] = 0
        rec.append((owner, units))
        return sum(scores)

    def _reroll_ranks(self, r: Any, units: list) -> None:
        """d20's ``rolN`` / ``rahN`` on dice thrown once each: the chosen dice re-rolled once (``ro``) or given
        one die more, added (``ra``)."""
        kind, side, n = self.spec.reroll_rank  # type: ignore[misc]
        faces, s = self.spec.faces, self.spec.sides
        for i in rank_choice([u[0][0] for u in units], side == "l", n):
            first = units[i][0]
            if kind == "ro":
                first[1] |= REROLLED
            else:
                first[1] |= EXPLODED
            units[i].append([faces[int(r() * s)], 0 if kind == "ro" else ADDED])

    def _rank_each_die(self, units: list) -> int:
        """explosions="dice": keep / drop rank every die thrown (d20, rpg-dice-roller); marks the dropped."""
        spec = self.spec
        throws = [t for u in units for t in u if not t[1] & REROLLED]
        keys = [t[0] for t in throws]
        if spec.selection is not None:
            kept = spec.selection.kept(keys)
        else:  # the window of the dice thrown, however many they are
            a, b = window_of(spec.keeps, len(throws)) or (0, len(throws))
            order = sorted(range(len(throws)), key=keys.__getitem__)
            keep_set = set(order[a:b])
            kept = [i in keep_set for i in range(len(throws))]
        score = 0
        for t, k in zip(throws, kept):
            if k:
                score += t[0] if spec.success is None else face_score(spec, t[0])
            else:
                t[1] |= DROPPED
        return score


def _kept_draw(spec: TermSpec, r: Any) -> Callable[[], int]:
    """A re-rolled die's draw past its cap: among the faces kept (listed only then: rare)."""
    def draw_kept() -> int:
        allowed = spec.allowed
        return allowed[int(r() * len(allowed))]
    return draw_kept


def _unique_steps(spec: TermSpec, r: Any, seen: set[int]) -> tuple[Callable[[int], bool], Callable[[], int]]:
    """Unique dice as a re-roll: ``(test, draw past the cap)``, the test being a face a die before shows (``seen``,
    which the roll fills), the draw among the faces still free."""
    faces = spec.faces

    def clash(f: int) -> bool:
        return f in seen and unique_test(spec, f)

    def draw_free() -> int:
        free = [f for f in faces if not clash(f)]
        return free[int(r() * len(free))]
    return clash, draw_free

