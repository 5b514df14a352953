"""The modifiers that change what a die scores or shows: success and failure counts, doubled successes, critical
marks, and the face maps (the per-die minimum / maximum, a plug-in's modifier: :mod:`.plugin`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from diceengine.errors import DiceSyntaxError, DiceValueError
from diceengine.i18n import N_

from ..nodes import (
    Clamp,
    Compare,
    CountFailures,
    CountSuccesses,
    Critical,
    Double,
    Explode,
    Keep,
    NamedModifier,
    Sort,
)
from ..term.faces import Listed
from .base import Building, Modifier, point_text
from .plugin import plugin_face

__all__ = ["ClampModifier", "CountFailuresModifier", "CountSuccessesModifier", "CriticalModifier",
           "DoubleModifier", "FaceMaps"]


class CountSuccessesModifier(Modifier):
    """``>=N`` ``>N`` ``<=N`` ``<N`` ``=N``: the term counts the dice meeting it instead of summing."""

    letters = (">=", ">", "<=", "<", "=")
    nodes = (CountSuccesses,)
    single = N_("success count")

    def written(self, mod: Any) -> str:
        return str(mod.compare)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        return {"success": mod.compare}


class CountFailuresModifier(Modifier):
    """``fN`` / ``f<=N``: the dice meeting it are subtracted from the successes (after a success count)."""

    letters = ("f",)
    nodes = (CountFailures,)
    single = N_("failure count")

    def written(self, mod: Any) -> str:
        return "f" + str(mod.compare)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        if term.get("success") is None:
            raise DiceSyntaxError(N_("a failure count (f) needs a success count before it (e.g. 8d10>=7f1)"),
                                  term.expression, term.where(mod))
        return {"failure": mod.compare}


class DoubleModifier(Modifier):
    """``dblN`` / ``dbl>=N``: a success meeting the point counts twice; bare ``dbl`` the highest face."""

    letters = ("dbl",)
    nodes = (Double,)
    single = N_("doubled success (dbl)")

    def written(self, mod: Any) -> str:
        return "dbl" + point_text(mod.compare)

    def lower_one(self, term: Building, mod: Any) -> Mapping[str, Any]:
        if term.get("success") is None:
            explode = next((m for m in term.mods if isinstance(m, Explode)), None)
            if explode is not None and explode.compare is not None:
                raise DiceSyntaxError(N_("doubled successes (dbl) need a success count before them (e.g. "
                                         "10d10>=8dbl10) ('{point}' is the explosion's point)"),
                                      term.expression, term.where(mod), point=f"{explode.bang}{explode.compare}")
            raise DiceSyntaxError(N_("doubled successes (dbl) need a success count before them (e.g. "
                                     "10d10>=8dbl10)"), term.expression, term.where(mod))
        return {"double": mod.compare or Compare.of("=", term.faces[-1])}


class CriticalModifier(Modifier):
    """``cs`` / ``cs>=19`` mark critical successes, ``cf`` / ``cf<=2`` critical failures (default: the highest,
    the lowest face); marks only, the total is unchanged."""

    letters = ("cs", "cf")
    nodes = (Critical,)

    def written(self, mod: Any) -> str:
        return str(mod.kind) + point_text(mod.compare)

    def lower(self, term: Building, found: Sequence[Any]) -> Mapping[str, Any]:
        faces = term.faces
        marks: dict[str, Any] = {}
        for crit in found:
            success = crit.kind == "cs"
            point = crit.compare or Compare.of("=", faces[-1] if success else faces[0])
            marks["crit_success" if success else "crit_failure"] = point
        return marks


class ClampModifier(Modifier):
    """Per-die minimum / maximum (``miN`` ``maN``, ``minN`` ``maxN``; ``max50.45`` a decimal): a face below the
    minimum counts as the minimum, above the maximum as the maximum. A face map (:class:`FaceMaps`)."""

    letters = ("mi", "ma", "min", "max")
    nodes = (Clamp,)

    def written(self, mod: Any) -> str:
        return f"{mod.kind}{mod.value}"

    @staticmethod
    def face(mod: Clamp, face: Any) -> Any:
        """One face clamped."""
        return max(face, mod.value) if mod.kind == "min" else min(face, mod.value)


class FaceMaps(Modifier):
    """The modifiers that map each face of the die to a new value, in the order written (a per-die minimum /
    maximum, a plug-in's modifier): the die then has listed faces, which every interpretation reads, and every
    later test (explosion, re-roll, success) reads the new face. A decimal minimum / maximum goes with keep / drop
    and sort only (the term is compiled twice, its faces scaled: :func:`~..term.compile.decimal_scale`)."""

    nodes = (Clamp, NamedModifier)

    def lower(self, term: Building, found: Sequence[Any]) -> Mapping[str, Any]:
        decimal = any(isinstance(m, Clamp) and not isinstance(m.value, int) for m in found)
        if decimal:
            other = next((m for m in term.mods if not isinstance(m, (Clamp, Keep, Sort))), None)
            if other is not None or term.get("selection") is not None:
                raise DiceValueError(N_("a decimal minimum or maximum (max50.45) goes with keep / drop and sort "
                                        "only"), term.expression, term.where(other))
        faces = term.faces
        for mod in found:
            if isinstance(mod, Clamp):
                faces = Listed(sorted(ClampModifier.face(mod, f) for f in faces))
            else:
                faces = Listed(sorted(plugin_face(mod, faces, term.expression)))
        if decimal and term.scale != 1:
            faces = Listed(int(f * term.scale) for f in faces)
        term.faces = faces
        return {}
