"""A dice node of the syntax tree validated and compiled into a :class:`~.dice_term.DiceTerm`: its modifiers
read (:func:`compile_term`), what no roll could honour refused up front, and the keep / drop of a dialect
(:func:`keep_rule`, shared with the groups)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_DICE, MAX_EXPLOSIONS, MAX_REROLLS, MAX_SIDES, MAX_THROWS, TRUNCATION
from diceengine.records import MISSING, fields

from ..nodes import (
    Clamp,
    Compare,
    CountFailures,
    CountSuccesses,
    Critical,
    Dice,
    Double,
    Explode,
    Keep,
    Reroll,
    RerollRank,
    Sort,
    Unique,
)
from ..selection import Selection, selection_of
from .chains import expected_throws
from .dice_term import DiceTerm
from .faces import AnyPoint, Listed, split_faces, window_of
from .spec import TermSpec

__all__ = ["compile_term", "decimal_scale", "keep_rule", "new_spec", "plain_term", "sides_text"]

#: most faces a die may list (d{1,2,4,8}): the expression's length bounds them first
MAX_LISTED_FACES = 1000


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
                 label: str | None = None, dialect: str = "roll20", explosions: str = "unit",
                 scale: int = 1) -> DiceTerm:
    """Validate a dice node and build its term (``count`` and ``sides_value`` when they were computed).

    A decimal per-die minimum / maximum (``6d%max50.45``) makes faces fractions (:func:`decimal_scale`):
    ``scale`` multiplies every face, so that the twin term (``scale`` the faces' common denominator) has whole
    faces for the sample and the exact odds."""
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
    elif isinstance(sides_spec, tuple):  # listed faces: d{1,2,4,8}
        if len(sides_spec) > MAX_LISTED_FACES:
            raise DiceLimitError(N_("too many sides: {sides} (at most {limit})"), expression, pos,
                                 sides=len(sides_spec), limit=MAX_LISTED_FACES)
        faces = Listed(sorted(sides_spec))
        kind = "d" + sides_text(sides_spec)
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
    again = [m for m in rerolls if not m.added]
    if len(again) > 1 and (len({m.kind for m in again}) > 1 or len(faces) > MAX_LISTED_REROLL):
        raise DiceSyntaxError("more than one re-roll on one dice term (several re-roll points: all r, or all ro, "
                              f"on dice of at most {MAX_LISTED_REROLL:,} faces)", expression, again[1].pos or pos)
    if len([m for m in rerolls if m.added]) > 1:
        raise DiceSyntaxError("more than one re-roll on one dice term", expression, rerolls[1].pos or pos)
    success_mod: CountSuccesses | None = _unique(mods, CountSuccesses, "success count", expression)
    failure_mod: CountFailures | None = _unique(mods, CountFailures, "failure count", expression)
    double_mod: Double | None = _unique(mods, Double, "doubled success (dbl)", expression)
    unique_mod: Unique | None = _unique(mods, Unique, "unique", expression)
    sort_mod: Sort | None = _unique(mods, Sort, "sort", expression)
    for clamp in (m for m in mods if isinstance(m, Clamp)):
        bound = clamp.value
        faces = Listed(sorted(max(f, bound) if clamp.kind == "min" else min(f, bound) for f in faces))
    if decimal_scale(node) != 1:
        other = next((m for m in mods if not isinstance(m, (Clamp, Keep, Sort))), None)
        if other is not None or selection is not None:
            raise DiceValueError(N_("a decimal minimum or maximum (max50.45) goes with keep / drop and sort only"),
                                 expression, getattr(other, "pos", None) or pos)
        if scale != 1:
            faces = Listed(int(f * scale) for f in faces)
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
        if not len(split_faces(faces, explode)[0]):  # no face can add a die (1d4ra5): a plain die, as 1d6!7
            explode, limit = None, None
    if explosions == "dice" and dialect == "d20" and keeps and explode is not None and window is not None:
        # every die thrown is ranked: d20's operators choose among the dice thrown, not among ``count`` of them
        window, selection = None, selection_of(keeps)
    reroll: Any = None
    if reroll_mod is not None:
        reroll = reroll_mod.compare or Compare.of("=", faces[0])
        if len(again) > 1:  # Roll20's 2d8r8r1: a face meeting any of the points is re-rolled
            reroll = AnyPoint([m.compare or Compare.of("=", faces[0]) for m in again])
        if not reroll_mod.once and not len(split_faces(faces, reroll)[1]):
            raise DiceLimitError(N_("this die would be re-rolled on every face and never stop"), expression,
                                 reroll_mod.pos or pos)
    if failure_mod is not None and success_mod is None:
        raise DiceSyntaxError(N_("a failure count (f) needs a success count before it (e.g. 8d10>=7f1)"),
                              expression, failure_mod.pos if failure_mod.pos is not None else pos)
    if double_mod is not None and success_mod is None:
        hint = f" ('{explode_mod.bang}{explode_mod.compare}' is the explosion's point)" \
            if explode_mod is not None and explode_mod.compare is not None else ""
        raise DiceSyntaxError(f"doubled successes (dbl) need a success count before them (e.g. 10d10>=8dbl10){hint}",
                              expression, double_mod.pos if double_mod.pos is not None else pos)
    rank = _reroll_rank(mods, count, expression, pos)
    double = None
    if double_mod is not None:
        double = double_mod.compare or Compare.of("=", faces[-1])
    if unique_mod is not None and (explode is not None or reroll is not None):
        raise DiceValueError("unique dice (u) cannot also explode or be re-rolled", expression,
                             unique_mod.pos or pos)
    spec = new_spec(
        node=node, text=_term_text(node, count, sides_spec), count=count, faces=faces, kind=kind,
        window=window, selection=selection, keeps=tuple(keeps), each_die=explosions == "dice", explode=explode,
        compound=bool(explode is not None and explode_mod and explode_mod.compound), reroll=reroll,
        reroll_once=bool(reroll_mod and reroll_mod.once),
        success=success_mod.compare if success_mod else None,
        failure=failure_mod.compare if failure_mod else None, double=double, label=label,
        penetrate=bool(explode_mod and explode_mod.penetrate), explode_limit=limit,
        unique=unique_mod.compare if unique_mod else None, unique_once=bool(unique_mod and unique_mod.once),
        unique_on=unique_mod is not None, sort=sort_mod.kind if sort_mod else None,
        crit_success=crit_s, crit_failure=crit_f, reroll_rank=rank,
        # many dice: fewer re-rolls recorded per die, so that one roll stays within MAX_THROWS throws
        reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1)),
    )
    throws = expected_throws(spec)
    if throws > MAX_THROWS:
        raise DiceLimitError(f"{spec.text} would throw about {throws:,.0f} dice in one roll (at most "
                             f"{MAX_THROWS:,} with re-rolls and explosions)", expression, pos)
    return DiceTerm(spec)


#: the defaults of :class:`TermSpec`'s fields
_SPEC_DEFAULTS = {f.name: f.default for f in fields(TermSpec) if f.init and f.default is not MISSING}
_INIT_NAMES = {f.name for f in fields(TermSpec) if f.init}
_INIT_FIELDS = len(_INIT_NAMES)
#: the fields :func:`compile_term` gives a term with no modifier but keep / drop (:func:`plain_term`)
_PLAIN = {**_SPEC_DEFAULTS, "selection": None, "each_die": False, "explode": None, "compound": False, "reroll": None,
          "reroll_once": False, "success": None, "failure": None, "double": None, "label": None}


def new_spec(**given: Any) -> TermSpec:
    """``TermSpec(**fields)``, its fields written at once rather than one ``object.__setattr__`` each (the
    frozen record's constructor: a quarter of a term's compiling)."""
    spec = object.__new__(TermSpec)
    held = spec.__dict__
    held.update(_SPEC_DEFAULTS)
    held.update(given)
    if len(held) != _INIT_FIELDS:
        raise TypeError(f"TermSpec fields: {sorted(set(held) ^ _INIT_NAMES)}")
    spec.__post_init__()
    return spec


def plain_term(node: Dice, count: int, sides: int, keeps: tuple, label: str | None = None,
               explosions: str = "unit") -> DiceTerm:
    """:func:`compile_term` of a dice node of whole ``count`` (0 to ``MAX_DICE``) and ``sides`` (1 to
    ``MAX_SIDES``) whose modifiers are only ``keeps``, keep / drop in Roll20's reading (no ``p``, no point): the
    same term, built without reading every other modifier (nothing of it can be refused)."""
    spec = object.__new__(TermSpec)
    held = spec.__dict__
    held.update(_PLAIN)
    held.update(node=node, text=_term_text(node, count, sides), count=count, faces=range(1, sides + 1),
                kind=f"d{sides}", window=window_of(keeps, count), keeps=keeps, label=label,
                each_die=explosions == "dice", reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1)))
    if len(held) != _INIT_FIELDS:
        raise TypeError(f"TermSpec fields: {sorted(set(held) ^ _INIT_NAMES)}")
    spec.__post_init__()
    return DiceTerm(spec)


#: most faces a die re-rolled on several points may have (its faces are then listed)
MAX_LISTED_REROLL = 100_000


def decimal_scale(node: Dice) -> int:
    """The common denominator of the term's decimal minimum / maximum (1: none)."""
    import math  # here: the module's imports are shared with the lazy-import work

    scale = 1
    for m in node.modifiers.items:
        if isinstance(m, Clamp) and not isinstance(m.value, int):
            scale = math.lcm(scale, m.value.denominator)
    return scale


def _reroll_rank(mods: tuple, count: int, expression: str, pos: int) -> tuple[str, str, int] | None:
    """d20's ``rolN`` / ``rahN`` read: ``(kind, side, dice chosen)``, None when it chooses no die; refused
    where d20's order of operators would matter (keep / drop, explosions, other re-rolls, unique dice)."""
    ranks: list[RerollRank] = [m for m in mods if isinstance(m, RerollRank)]
    if not ranks:
        return None
    if len(ranks) > 1:
        raise DiceSyntaxError("more than one re-roll of ranks (rolN, rahN) on one dice term", expression,
                              ranks[1].pos or pos)
    rank = ranks[0]
    if rank.kind in ("r", "rr"):
        raise DiceLimitError(f"{rank.letter}{rank.n} would re-roll the {'lowest' if rank.side == 'l' else 'highest'} "
                             f"dice forever (d20 stops it as too many rolls): use ro{rank.side}{rank.n} (once)",
                             expression, rank.pos or pos)
    other = next((m for m in mods if isinstance(m, (Keep, Explode, Reroll, Unique))), None)
    if other is not None:
        raise DiceValueError(f"{rank.letter}{rank.n} with keep / drop, an explosion, another re-roll or unique dice "
                             f"is not supported (d20 applies them in the order written)", expression,
                             other.pos if other.pos is not None else pos)
    chosen = min(rank.n, count, 1 if rank.kind == "ra" else count)
    return (rank.kind, rank.side, chosen) if chosen > 0 else None


def sides_text(sides: Any) -> str:
    """How a die's sides are written: ``6``, ``%``, ``F``, ``{1,2,4,8}``."""
    return "{" + ",".join(map(str, sides)) + "}" if isinstance(sides, tuple) else str(sides)


def _term_text(node: Dice, count: int, sides: Any) -> str:
    text = f"{'' if node.count is None and count == 1 else count}d{sides_text(sides)}"
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
        elif isinstance(m, RerollRank):
            text += f"{m.letter}{m.n}"
        elif isinstance(m, Double):
            text += "dbl" + (str(m.compare) if m.compare else "")
        elif isinstance(m, Clamp):
            text += f"{m.kind}{m.value}"
        elif isinstance(m, (Unique, Critical)):
            text += m.kind + (str(m.compare) if m.compare else "")
        elif isinstance(m, Sort):
            text += m.kind
    return text
