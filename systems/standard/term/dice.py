"""The dice of a roll of a dice term: its record as :class:`~diceengine.rolls.Die` views and as their JSON
(:class:`TermDice`)."""

from __future__ import annotations

from collections.abc import Callable
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

    __slots__ = ("_json", "dice_json", "spec")

    #: ``(data, dropped=False) -> JSON``: the JSON of :meth:`dice` (the items of an array), each kind of die
    #: written once; ``dropped``: every die marked not kept (its group's item is dropped). A function chosen once
    #: for the term's modifiers (:meth:`_dice_json`, or a faster equivalent)
    dice_json: Callable[..., str]

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self._json: tuple[FaceJson, FaceJson, FaceJson] | None = None
        self.dice_json = self._json_writer()

    def dice(self, data: list) -> list[Die]:
        """Die views of this term's record."""
        spec = self.spec
        kind, sides, label = spec.kind, spec.sides, spec.label
        if spec.plain:
            dropped = dropped_dice(spec, data)
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

    def _json_writer(self) -> Callable[..., str]:
        """:attr:`dice_json` for this term: :meth:`_dice_json` without the questions its modifiers answer once
        (flat terms that keep every die, one or two dice, one die of n dropped)."""
        spec = self.spec
        if not spec.flat or spec.selection is not None:
            return self._dice_json
        kept_table, dropped_table = self._json_tables()[:2]
        kept_faces, dropped_faces = kept_table.__getitem__, dropped_table.__getitem__
        window, n = spec.window, spec.count
        if window is None:
            if n == 1:
                def one(data: list, dropped: bool = False) -> str:
                    if len(data) != 1:
                        return self._dice_json(data, dropped)
                    return dropped_table[data[0]] if dropped else kept_table[data[0]]
                return one

            def every(data: list, dropped: bool = False) -> str:
                return ",".join(map(dropped_faces if dropped else kept_faces, data))
            return every
        if n == 2 and window in ((1, 2), (0, 1)):  # 2d20kh1, 2d20kl1: the lower (kh1) or the higher die dropped
            highest = window[0] == 1

            def one_of_two(data: list, dropped: bool = False) -> str:
                if dropped or len(data) != 2:
                    return self._dice_json(data, dropped)
                x, y = data
                if (x <= y) == highest:
                    return f"{dropped_faces(x)},{kept_faces(y)}"
                return f"{kept_faces(x)},{dropped_faces(y)}"
            return one_of_two
        if n > 2 and window in ((1, n), (0, n - 1)):  # 4d6kh3: the first lowest or the last highest dropped
            lowest = window[0] == 1

            def all_but_one(data: list, dropped: bool = False) -> str:
                if dropped or len(data) != n:
                    return self._dice_json(data, dropped)
                i = data.index(min(data)) if lowest else n - 1 - data[::-1].index(max(data))
                texts = list(map(kept_faces, data))
                texts[i] = dropped_faces(data[i])
                return ",".join(texts)
            return all_but_one
        return self._dice_json

    def _dice_json(self, data: list, dropped: bool = False) -> str:
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
