"""The dice of a roll of a dice term: its record as :class:`~diceengine.rolls.Die` views and as their JSON
(:class:`TermDice`)."""

from __future__ import annotations

from functools import partial

from diceengine.rolljson import FaceJson
from diceengine.rolls import Die

from .faces import ADDED, DROPPED, EXPLODED, REROLLED
from .scores import critical, dropped_dice
from .spec import TermSpec

_new_tuple = tuple.__new__  # builds a Die without the NamedTuple constructor's argument parsing


class TermDice:
    """A dice term's record (:class:`~.roll.TermRoll`) read back as dice, and their JSON, each kind of die
    written once."""

    __slots__ = ("_json", "spec")

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self._json: tuple[FaceJson, FaceJson, FaceJson] | None = None

    def dice(self, data: list) -> list[Die]:
        """Die views of this term's record."""
        spec = self.spec
        kind, sides, label = spec.kind, spec.sides, spec.label
        if spec.plain:
            dropped: set[int] = set()
            if spec.window is not None and spec.keep != len(data):
                a, b = spec.window
                order = sorted(range(len(data)), key=data.__getitem__)
                dropped = set(order[:a] + order[b:])
            if not dropped:
                return [_new_tuple(Die, (kind, sides, v, True, False, False, False, False, None, label, None))
                        for v in data]
            return [_new_tuple(Die, (kind, sides, v, i not in dropped, False, False, False, False, None, label, None))
                    for i, v in enumerate(data)]
        marks = spec.crit_success is not None or spec.crit_failure is not None
        if spec.flat:
            gone = dropped_dice(spec, data)
            return [Die(kind, sides, v, i not in gone, False, False, False, False, None, label,
                        critical(spec, v) if marks else None) for i, v in enumerate(data)]
        out = []
        for unit in data:
            for v, f in unit:
                out.append(Die(kind, sides, v, not f & (REROLLED | DROPPED), bool(f & EXPLODED), bool(f & REROLLED),
                               bool(f & ADDED), False, None, label, critical(spec, v) if marks else None))
        return out

    def dice_json(self, data: list, dropped: bool = False) -> str:
        """The JSON of :meth:`dice`, each kind of die written once (:class:`~diceengine.rolljson.FaceJson`);
        ``dropped``: every die marked not kept (its group's item is dropped)."""
        spec = self.spec
        kept, dropped_faces, thrown = self._json or self._json_tables()
        if dropped:
            if spec.flat:
                return ",".join(map(dropped_faces.__getitem__, data))
            return ",".join([thrown[(v << 4) | f | DROPPED] for unit in data for v, f in unit])
        if spec.flat:
            gone = dropped_dice(spec, data)
            if not gone:
                return ",".join(map(kept.__getitem__, data))
            return ",".join([dropped_faces[v] if i in gone else kept[v] for i, v in enumerate(data)])
        return ",".join([thrown[(v << 4) | f] for unit in data for v, f in unit])  # flags < 16

    def _json_tables(self) -> tuple[FaceJson, FaceJson, FaceJson]:
        """Face -> JSON of the die kept, dropped; ``face << 4 | flags`` -> JSON of a die of a unit."""
        spec = self.spec
        kind, sides, label = spec.kind, spec.sides, spec.label
        marks = spec.crit_success is not None or spec.crit_failure is not None
        crit = partial(critical, spec) if marks else lambda v: None
        tables = (FaceJson(lambda v: Die(kind, sides, v, True, label=label, critical=crit(v))),
                  FaceJson(lambda v: Die(kind, sides, v, False, label=label, critical=crit(v))),
                  FaceJson(lambda k: Die(kind, sides, k >> 4, not k & (REROLLED | DROPPED), bool(k & EXPLODED),
                                         bool(k & REROLLED), bool(k & ADDED), label=label, critical=crit(k >> 4))))
        self._json = tables
        return tables
