"""The text of one roll of a dice term: its dice as parts (:mod:`diceengine.parts`), compiled writers and plain
text (:class:`TermText`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from diceengine.parts import Dice as DiceRun
from diceengine.parts import Face, Group, Part, TextMemo, dice_writer
from diceengine.rolls import Die

from .faces import ADDED, DROPPED, EXPLODED, REROLLED
from .scores import critical, dropped_dice, face_score, unit_score
from .spec import TermSpec

#: most face parts a term remembers (one per face, state and score)
_FACE_PARTS = 4096
_CRIT_MARKS = {"success": "(cs)", "failure": "(cf)"}


_list_text = list.__repr__  # a list of whole numbers as a plain term shows it: "[6, 5, 3]"
#: most dice of a term whose text is one %-format (more: the list's own text)
_FORMATTED = 32


def _percent_list(n: int, struck: int = -1) -> str:
    """``"[%s, %s, ~%s~]"``: the %-format of ``n`` faces, the one at ``struck`` between tildes."""
    return "[" + ", ".join(["~%s~" if i == struck else "%s" for i in range(n)]) + "]"


def _plain_renderer(n: int, after: str) -> Callable[[list], str]:
    """``data -> "[6, 5, 3]" + after`` for ``n`` whole faces: one die's text remembered per face, a few dice's
    written by one %-format, more by the list's own text (the same text: ``str`` of each face)."""
    if n == 1:
        faces = TextMemo(lambda v: f"[{v}]{after}")

        def one(data: list) -> str:
            return faces[data[0]] if len(data) == 1 else _list_text(data) + after
        one.faces = faces  # type: ignore[attr-defined]  # for a writer to read one die's text directly: see faces_of
        return one
    if n <= _FORMATTED:
        text = _percent_list(n) + after.replace("%", "%%")

        def few(data: list) -> str:
            return text % tuple(data) if len(data) == n else _list_text(data) + after
        return few
    if not after:
        return _list_text
    return lambda data: _list_text(data) + after


class TermText:
    """A dice term's record (:class:`~.roll.TermRoll`) as text: parts, a writer compiled per format and
    language, and plain text; each face's part and text made once."""

    __slots__ = ("_faces", "_flat_texts", "render", "spec")

    #: ``data -> text``: the term's dice as plain text (``[6, 5, 3, ~1~]``; ``6!+4`` an explosion; ``*`` a
    #: success; ``20(cs)`` a critical success), a function chosen once for the term's modifiers
    render: Callable[[list], str]

    def __init__(self, spec: TermSpec) -> None:
        self.spec = spec
        self._faces: dict[tuple[int, bool, int, int], Face] = {}
        self._flat_texts: tuple[TextMemo, TextMemo] | None = None
        self.render = self._renderer()

    def _face(self, v: int, kept: bool, score: int = 0, flags: int = 0) -> Face:
        """The part of one face (made once per face, state and score: parts are immutable)."""
        spec = self.spec
        faces = self._faces
        key = (v, kept, score, flags)
        found = faces.get(key)
        if found is None:
            crit = critical(spec, v) if (spec.crit_success is not None or spec.crit_failure is not None) else None
            die = Die(spec.kind, spec.sides, v, kept, bool(flags & EXPLODED), bool(flags & REROLLED),
                      bool(flags & ADDED), False, None, spec.label, crit)
            marked = None if crit is None and spec.crit_success is None else crit == "success"
            found = Face(die, score=score, critical=marked)
            if len(faces) < _FACE_PARTS:
                faces[key] = found
        return found

    def parts(self, data: list) -> list[Part]:
        """The term's dice as parts of a text (:mod:`diceengine.parts`): ``[6, 5, 3, ~1~]``; ``6!+4`` an
        explosion; ``*`` a success; ``20(cs)`` a critical success."""
        spec = self.spec
        parts: list[Part] = ["["]
        window = spec.window
        if spec.plain and (window is None or window[1] - window[0] >= len(data)):
            parts.append(DiceRun(spec.kind, spec.sides, tuple(data), ", ", spec.label))
        elif spec.flat:
            gone = dropped_dice(spec, data)
            order: Any = range(len(data))
            if spec.sort is not None:
                order = sorted(order, key=data.__getitem__, reverse=spec.sort == "sd")
            counts = spec.success is not None
            make = self._face
            for j, i in enumerate(order):
                if j:
                    parts.append(", ")
                kept = i not in gone
                parts.append(make(data[i], kept, face_score(spec, data[i]) if counts and kept else 0))
        else:
            units = data
            if spec.sort is not None:
                units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                               reverse=spec.sort == "sd")
            for j, unit in enumerate(units):
                if j:
                    parts.append(", ")
                parts.extend(self._unit_parts(unit))
        parts.append("]")
        if spec.label:
            parts.append(f" ({spec.label})")
        return parts

    def _unit_parts(self, unit: list) -> list[Part]:
        """One die and the dice its explosions and re-rolls added: ``6!+4``, ``~1~r 5``, ``4(cs)+2``."""
        spec = self.spec
        unit_dropped = not spec.per_die and any(f & DROPPED for _, f in unit)
        last = len(unit) - 1 if spec.success is not None and not unit_dropped and not spec.per_die else -1
        shown: list[Part] = []
        after_reroll = False
        for k, (v, f) in enumerate(unit):
            if k:
                shown.append(" " if after_reroll else "+")
            after_reroll = bool(f & REROLLED)
            score = face_score(spec, v) if spec.per_die and spec.success is not None and \
                not f & (DROPPED | REROLLED) else 0
            if k == last:  # the unit's score, shown on its last die
                score = unit_score(spec, unit)
            shown.append(self._face(v, not f & (REROLLED | DROPPED), score, f))  # its marks: 20(cs)*, 4(cs)!
        return [Group(tuple(shown))] if unit_dropped else shown

    def writer(self, text: Callable[[Any], str]) -> Callable[[list], str]:
        """:meth:`parts` compiled for one format and language (``text``: a part's text): ``data -> the
        text of the parts``, each face's text asked once."""
        spec = self.spec
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

        if not spec.flat:
            return self._units_writer(text, part_text)
        return self._flat_writer(text)

    def _frame(self, text: Callable[[Any], str]) -> tuple[str, str, str]:
        """``(opening, separator, closing)`` of the term's dice in one format and language."""
        spec = self.spec
        return text("["), text(", "), text("]") + (text(f" ({spec.label})") if spec.label else "")

    def _units_writer(self, text: Callable[[Any], str], part_text: Callable[[Any], str]) -> Callable[[list], str]:
        """:meth:`writer` of a term whose record is units (a die and the dice its explosions and re-rolls
        added): each unit's text made once."""
        spec = self.spec
        opening, sep, closing = self._frame(text)
        units_seen: dict[Any, str] = {}  # a unit's dice ((face, flags) of each) -> its text

        def write_units(data: list) -> str:
            units = data
            if spec.sort is not None:
                units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                               reverse=spec.sort == "sd")
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

    def _flat_writer(self, text: Callable[[Any], str]) -> Callable[[list], str]:
        """:meth:`writer` of a term whose record is its list of faces: each face's text, kept or dropped, made
        once."""
        spec = self.spec
        opening, sep, closing = self._frame(text)
        run = dice_writer(text, spec.kind, spec.sides, ", ", spec.label) if spec.plain else None
        counts = spec.success is not None
        make, score = self._face, partial(face_score, spec)
        window = spec.window
        kept_texts = TextMemo(lambda v: text(make(v, True, score(v) if counts else 0)))
        dropped_texts = TextMemo(lambda v: text(make(v, False, 0)))

        def write_flat(data: list) -> str:
            if run is not None and (window is None or window[1] - window[0] >= len(data)):
                return opening + run(data) + closing
            gone = dropped_dice(spec, data)
            if not gone and spec.sort is None:
                return opening + sep.join(map(kept_texts.__getitem__, data)) + closing
            order: Any = range(len(data))
            if spec.sort is not None:
                order = sorted(order, key=data.__getitem__, reverse=spec.sort == "sd")
            return opening + sep.join([dropped_texts[data[i]] if i in gone else kept_texts[data[i]]
                                       for i in order]) + closing
        return write_flat

    def _renderer(self) -> Callable[[list], str]:
        """:attr:`render` for this term: the plain text of :meth:`parts`, without the questions its modifiers
        answer once (the common terms: plain, kept or dropped, exploding, flat success counts)."""
        spec = self.spec
        suffix = spec.label_suffix
        if spec.plain:
            after = suffix[1:]  # "" or " (label)"
            if spec.window is None:
                return _plain_renderer(spec.count, after)
            return self._kept_renderer(spec.window, after)
        if spec.flat:
            if spec.selection is not None or spec.window is not None or spec.sort is not None:
                return self._render_flat
            kept = self._flat_text_tables()[0].__getitem__
            return lambda data: "[" + ", ".join(map(kept, data)) + suffix
        if spec.explode_only:
            faces = TextMemo(str)

            def exploded(data: list) -> str:
                texts = []
                for unit in data:
                    if len(unit) == 1:
                        texts.append(faces[unit[0][0]])
                    else:
                        texts.append("+".join([f"{v}!" if f & EXPLODED else str(v) for v, f in unit]))
                return "[" + ", ".join(texts) + suffix
            return exploded
        return self._render

    def _kept_renderer(self, window: tuple[int, int], after: str) -> Callable[[list], str]:
        """:attr:`render` of a plain term that keeps ranks ``[a, b)`` of its dice: the others struck (``~1~``)."""
        a, b = window
        n = self.spec.count
        whole = _plain_renderer(n, after)

        def kept(data: list) -> str:
            order = sorted(range(len(data)), key=data.__getitem__)
            gone = order[:a] + order[b:]
            if not gone:
                return whole(data)
            texts = list(map(str, data))
            for i in gone:
                texts[i] = f"~{texts[i]}~"
            return "[" + ", ".join(texts) + "]" + after

        if n == 2 and window in ((1, 2), (0, 1)):  # 2d20kh1, 2d20kl1: the lower (kh1) or the higher die struck, the first on a tie
            highest = a == 1

            def one_of_two(data: list) -> str:
                if len(data) != 2:
                    return kept(data)
                x, y = data
                if (x <= y) == highest:
                    return f"[~{x}~, {y}]{after}"
                return f"[{x}, ~{y}~]{after}"
            return one_of_two
        if 2 < n <= _FORMATTED and window in ((1, n), (0, n - 1)):  # 4d6kh3, 4d6dh1: one die struck, the first lowest or the last highest
            escaped = after.replace("%", "%%")
            struck = [_percent_list(n, i) + escaped for i in range(n)]  # the text with die i struck

            def all_but_one(data: list) -> str:
                if len(data) != n:
                    return kept(data)
                i = data.index(min(data)) if a else n - 1 - data[::-1].index(max(data))
                return struck[i] % tuple(data)
            return all_but_one
        return kept

    def _render(self, data: list) -> str:
        """:attr:`render` of a term whose record is units and that is not :attr:`~.spec.TermSpec.explode_only`
        (re-rolls, counts, critical marks...): the plain text of :meth:`parts`, written directly (a text compiled
        per term would cost more than it saves on the first roll of an expression)."""
        spec = self.spec
        parts = []
        units = data
        if spec.sort is not None:
            units = sorted(data, key=lambda u: sum(t[0] for t in u if not t[1] & REROLLED),
                           reverse=spec.sort == "sd")
        marks = spec.crit_success is not None or spec.crit_failure is not None
        per_die = spec.per_die
        for unit in units:
            shown = []
            dropped = not per_die and any(f & DROPPED for _, f in unit)
            for v, f in unit:
                mark = ""
                if marks:
                    crit = critical(spec, v)
                    mark = "" if crit is None else "(cs)" if crit == "success" else "(cf)"
                if f & REROLLED:
                    shown.append(f"~{v}~r ")
                elif per_die and f & DROPPED:
                    shown.append(f"~{v}{mark}{'!' if f & EXPLODED else ''}~")
                else:
                    shown.append(f"{v}{mark}{'!' if f & EXPLODED else ''}")
            text = "".join(s if s.endswith(" ") else s + "+" for s in shown).rstrip("+").replace("r +", "r ")
            if spec.success is not None and not dropped and not per_die:
                score = unit_score(spec, unit)
                text += "*" * max(score, 0) + "_" * max(-score, 0)
            parts.append(f"~{text}~" if dropped else text)
        label = f" ({spec.label})" if spec.label else ""
        return "[" + ", ".join(parts) + "]" + label

    def _render_flat(self, data: list) -> str:
        spec = self.spec
        kept, dropped = self._flat_texts or self._flat_text_tables()
        gone = dropped_dice(spec, data)
        if spec.sort is None and not gone:
            return "[" + ", ".join(map(kept.__getitem__, data)) + spec.label_suffix
        order: Any = range(len(data))
        if spec.sort is not None:
            order = sorted(order, key=data.__getitem__, reverse=spec.sort == "sd")
        return "[" + ", ".join([dropped[data[i]] if i in gone else kept[data[i]] for i in order]) + spec.label_suffix

    def _flat_text_tables(self) -> tuple[TextMemo, TextMemo]:
        """Face -> its text kept (``10*``, ``20(cs)*``, ``1_``) and dropped (``~3~``), each written once."""
        spec = self.spec
        hit = spec.success.predicate() if spec.success is not None else None
        miss = spec.failure.predicate() if spec.failure is not None else None
        marks = spec.crit_success is not None or spec.crit_failure is not None

        def shown(v: int) -> str:
            crit = critical(spec, v) if marks else None
            return str(v) + ("" if crit is None else _CRIT_MARKS[crit])

        def kept(v: int) -> str:
            if hit is None:
                return shown(v)
            if spec.double is not None:
                score = face_score(spec, v)
                return shown(v) + "*" * max(score, 0) + "_" * max(-score, 0)
            return shown(v) + ("*" if hit(v) else "_" if miss is not None and miss(v) else "")

        tables = (TextMemo(kept), TextMemo(lambda v: f"~{shown(v)}~"))
        self._flat_texts = tables
        return tables
