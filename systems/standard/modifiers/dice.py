"""The modifiers that choose or throw dice: keep / drop, explosions, re-rolls (by point and by rank), unique dice,
and the sort of the text. Their semantics, where tables differ, are in :mod:`..term.spec`'s docstring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION

from ..nodes import Compare, Explode, Keep, KeepPoint, Reroll, RerollRank, Sort, Unique
from ..selection import Selection, selection_of
from ..term.faces import AnyPoint, split_faces, window_of
from .base import Building, Modifier, point_text

__all__ = ["ExplodeModifier", "KeepModifier", "RerollModifier", "RerollRankModifier", "SortModifier",
           "UniqueModifier", "keep_rule"]

#: most faces a die re-rolled on several points may have (its faces are then listed)
MAX_LISTED_REROLL = 100_000


def keep_rule(keeps: Sequence[Keep], count: int, dialect: str, expression: str) \
        -> tuple[tuple[int, int] | None, Selection | None]:
    """``(window, selection)`` of the keep / drop modifiers in the dialect: Roll20's (a window of ranks) or
    d20's (:mod:`..selection`; a window too when it is one)."""
    if dialect == "d20" and keeps:
        selection = selection_of(keeps)
        window = selection.window(count)
        return (window, None) if window is not None else (None, selection)
    for k in keeps:
        if k.point is not None or k.spelled.rstrip("\x00") == "p":
            raise DiceValueError(N_("{text} is d20's notation (keep / drop dice by value): use the option "
                                    "dialect='d20'"),
                                 expression, k.pos or 0, text=k.text)
    return window_of(keeps, count), None


class KeepModifier(Modifier):
    """``khN klN dhN dlN`` (``kN`` ``dN`` ``phN`` ``plN``; d20's ``kN`` ``pN`` ``k<N`` ``p>N``): keep or drop dice."""

    letters = ("kh", "kl", "dh", "dl", "k", "d", "p", "ph", "pl")
    nodes = (Keep, KeepPoint)

    def written(self, mod: Any) -> str:
        return str(mod.text)

    def lower(self, term: Building, found: Sequence[Any]) -> Mapping[str, Any]:
        window, selection = keep_rule(found, term.count, term.dialect, term.expression)
        return {"window": window, "selection": selection, "keeps": tuple(found)}


class ExplodeModifier(Modifier):
    """``!`` ``!>=N`` ``!N`` explode, ``!!`` compound, ``!p`` penetrate (d20's ``eN``)."""

    letters = ("!", "!!", "!p", "!!p", "e")
    nodes = (Explode,)
    single = N_("explosion")

    def written(self, mod: Any) -> str:
        return str(mod.bang) + point_text(mod.compare)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        faces = term.faces
        point: Compare = mod.compare or Compare.of("=", faces[-1])
        on = len(split_faces(faces, point)[0])
        explode: Compare | None = point
        if on == 0:  # no face can explode (1d6!7): a plain die
            explode = None
        if on == len(faces):
            raise DiceLimitError(N_("this die would explode on every face and never stop"), term.expression,
                                 term.where(mod))
        # chains longer than MAX_EXPLOSIONS must be rarer than what exact odds may leave out
        if (on / len(faces)) ** MAX_EXPLOSIONS > TRUNCATION / max(1, term.count) / 10:
            raise DiceLimitError(N_("{text} explodes too often: chains longer than {max_explosions} dice would be "
                                    "too likely"),
                                 term.expression, term.where(mod), text=term.text, max_explosions=MAX_EXPLOSIONS)
        return {"explode": explode, "compound": explode is not None and mod.compound, "penetrate": mod.penetrate}


class RerollModifier(Modifier):
    """``rN`` ``r<N`` ``rrN`` re-roll until, ``roN`` once, ``raN`` once and added (an explosion of one die)."""

    letters = ("r", "ro", "rr", "ra")
    nodes = (Reroll,)

    def written(self, mod: Any) -> str:
        return str(mod.kind) + point_text(mod.compare)

    def lower(self, term: Building, found: Sequence[Any]) -> Mapping[str, Any]:
        again = [m for m in found if not m.added]
        added = [m for m in found if m.added]
        if len(again) > 1 and (len({m.kind for m in again}) > 1 or len(term.faces) > MAX_LISTED_REROLL):
            raise DiceSyntaxError(N_("more than one re-roll on one dice term (several re-roll points: all r, or all "
                                     "ro, on dice of at most {max_listed_reroll:,} faces)"),
                                  term.expression,
                                  term.where(again[1]), max_listed_reroll=MAX_LISTED_REROLL)
        if len(added) > 1:
            raise DiceSyntaxError(N_("more than one re-roll on one dice term"), term.expression, term.where(found[1]))
        lowered: dict[str, Any] = {}
        if added:
            lowered.update(self._added(term, added[0]))
        if again:
            lowered.update(self._again(term, again))
        return lowered

    @staticmethod
    def _added(term: Building, mod: Reroll) -> Mapping[str, Any]:
        """d20's ``raN``: an explosion that adds at most one die."""
        if any(isinstance(m, Explode) for m in term.mods):
            raise DiceSyntaxError(N_("an explosion and a re-roll-and-add (ra) on one dice term"), term.expression,
                                  term.where(mod))
        explode = mod.compare or Compare.of("=", term.faces[0])
        if not len(split_faces(term.faces, explode)[0]):  # no face can add a die (1d4ra5): a plain die, as 1d6!7
            return {}
        return {"explode": explode, "explode_limit": 1}

    @staticmethod
    def _again(term: Building, again: Sequence[Reroll]) -> Mapping[str, Any]:
        first, faces = again[0], term.faces
        reroll: Any = first.compare or Compare.of("=", faces[0])
        if len(again) > 1:  # Roll20's 2d8r8r1: a face meeting any of the points is re-rolled
            reroll = AnyPoint([m.compare or Compare.of("=", faces[0]) for m in again])
        if not first.once and not len(split_faces(faces, reroll)[1]):
            raise DiceLimitError(N_("this die would be re-rolled on every face and never stop"), term.expression,
                                 term.where(first))
        return {"reroll": reroll, "reroll_once": first.once}


class RerollRankModifier(Modifier):
    """d20's ``rolN`` / ``rohN`` (the lowest / highest N dice re-rolled once), ``ralN`` / ``rahN`` (one die
    more); alone with a success count, critical marks and a per-die minimum / maximum."""

    letters = ("rol", "roh", "ral", "rah")
    nodes = (RerollRank,)
    single = N_("re-roll of ranks (rolN, rahN)")

    def written(self, mod: Any) -> str:
        return f"{mod.letter}{mod.n}"

    def lower_one(self, term: Building, rank: Any) -> Mapping[str, Any]:
        if rank.kind in ("r", "rr"):
            raise DiceLimitError(N_("{letter}{n} would re-roll the lowest dice forever (d20 stops it as too many "
                                    "rolls): use ro{side}{n} (once)") if rank.side == "l" else
                                 N_("{letter}{n} would re-roll the highest dice forever (d20 stops it as too many "
                                    "rolls): use ro{side}{n} (once)"), term.expression, term.where(rank),
                                 letter=rank.letter, n=rank.n, side=rank.side)
        other = next((m for m in term.mods if isinstance(m, (Keep, Explode, Reroll, Unique))), None)
        if other is not None:
            raise DiceValueError(N_("{letter}{n} with keep / drop, an explosion, another re-roll or unique dice is "
                                    "not supported (d20 applies them in the order written)"),
                                 term.expression,
                                 term.where(other), letter=rank.letter, n=rank.n)
        chosen = min(rank.n, term.count, 1 if rank.kind == "ra" else term.count)
        return {"reroll_rank": (rank.kind, rank.side, chosen) if chosen > 0 else None}


class UniqueModifier(Modifier):
    """``u`` (``u=N``) a face already shown is thrown again until unique, ``uo`` once."""

    letters = ("u", "uo")
    nodes = (Unique,)
    single = N_("unique")

    def written(self, mod: Any) -> str:
        return str(mod.kind) + point_text(mod.compare)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        if term.get("explode") is not None or term.get("reroll") is not None:
            raise DiceValueError(N_("unique dice (u) cannot also explode or be re-rolled"), term.expression,
                                 term.where(mod))
        return {"unique": mod.compare, "unique_once": mod.once, "unique_on": True}


class SortModifier(Modifier):
    """``s`` / ``sa`` / ``sd``: the dice shown sorted (the text only)."""

    letters = ("s", "sa", "sd")
    nodes = (Sort,)
    single = N_("sort")

    def written(self, mod: Any) -> str:
        return str(mod.kind)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        return {"sort": mod.kind}
