"""One roll of a dice term: the throws recorded, the score, and the dice of the record (views and JSON)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diceengine.errors import DiceLimitError
from diceengine.limits import MAX_EXPLOSIONS, MAX_REROLLS
from diceengine.rolljson import FaceJson
from diceengine.rolls import Die

from .faces import ADDED, DROPPED, EXPLODED, REROLLED, TermBase, window_of

_new_tuple = tuple.__new__  # builds a Die without the NamedTuple constructor's argument parsing


class TermRoll(TermBase):
    """A dice term thrown once (a part of :class:`~._dice_terms.DiceTerm`)."""

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
