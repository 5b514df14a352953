"""A dice node of the syntax tree validated and compiled into a :class:`~..term.dice_term.DiceTerm`: its
modifiers lowered by their table (:mod:`..modifiers`, :func:`compile_term`), what no roll could honour refused
up front, and the keep / drop of a dialect (:func:`keep_rule`, shared with the groups).

Here, above both the term (:mod:`..term`, the spec and its interpretations) and the modifiers (which lower into
the spec): the term's package never imports the modifiers, so the two import one way."""

from __future__ import annotations

from typing import Any

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_DICE, MAX_REROLLS, MAX_SIDES, MAX_THROWS
from diceengine.records import MISSING, fields

from ..modifiers import Building, keep_rule, lower, written
from ..nodes import Clamp, Dice
from ..selection import selection_of
from ..term.chains import expected_throws
from ..term.dice_term import DiceTerm
from ..term.faces import Listed, window_of
from ..term.spec import TermSpec

__all__ = ["compile_term", "decimal_scale", "keep_rule", "new_spec", "plain_term", "sides_text"]

#: most faces a die may list (d{1,2,4,8}): the expression's length bounds them first
MAX_LISTED_FACES = 1000


def compile_term(node: Dice, expression: str, count: int | None = None, sides_value: Any = None,
                 label: str | None = None, dialect: str = "roll20", explosions: str = "unit",
                 scale: int = 1) -> DiceTerm:
    """Validate a dice node and build its term (``count`` and ``sides_value`` when they were computed): the dice,
    then each modifier lowered by its class (:mod:`..modifiers`).

    A decimal per-die minimum / maximum (``6d%max50.45``) makes faces fractions (:func:`decimal_scale`):
    ``scale`` multiplies every face, so that the twin term (``scale`` the faces' common denominator) has whole
    faces for the sample and the exact odds."""
    pos = node.pos or 0
    if count is None:
        count = 1 if node.count is None else node.count
    if count < 0:
        raise DiceValueError(N_("a negative number of dice ({count})"), expression, pos, count=count)
    if count > MAX_DICE:
        raise DiceLimitError(N_("too many dice: {count} (at most {limit} in one roll)"), expression, pos, count=count,
                             limit=MAX_DICE)
    sides_spec = node.sides if sides_value is None else sides_value
    faces, kind = _die(sides_spec, expression, pos)
    term = Building(node, expression, count, faces, kind, _term_text(node, count, sides_spec), dialect, explosions,
                    scale)
    lowered: dict[str, Any] = {**_NO_MODIFIER, **lower(term)} if term.mods else _NO_MODIFIER
    if explosions == "dice" and dialect == "d20" and lowered["keeps"] and lowered["explode"] is not None \
            and lowered["window"] is not None:
        # every die thrown is ranked: d20's operators choose among the dice thrown, not among ``count`` of them
        lowered = {**lowered, "window": None, "selection": selection_of(lowered["keeps"])}
    spec = new_spec(
        **lowered, node=node, text=term.text, count=count, faces=term.faces, kind=kind,
        each_die=explosions == "dice", label=label,
        # many dice: fewer re-rolls recorded per die, so that one roll stays within MAX_THROWS throws
        reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1)),
    )
    throws = expected_throws(spec)
    if throws > MAX_THROWS:
        raise DiceLimitError(N_("{text} would throw about {throws:,.0f} dice in one roll (at most {max_throws:,} "
                                "with re-rolls and explosions)"),
                             expression, pos, text=spec.text, throws=throws, max_throws=MAX_THROWS)
    if spec.pool is not None:
        from ..term.pooled import PoolTerm  # here: a term scored as a multiset is rare

        return PoolTerm(spec)
    return DiceTerm(spec)


def _die(sides_spec: Any, expression: str, pos: int) -> tuple[Any, str]:
    """``(faces, kind)`` of the die before its modifiers: ``d6``, ``d%``, ``dF``, ``dF.1``, ``d{1,2,4,8}``."""
    if sides_spec == "F":
        return range(-1, 2), "dF"
    if sides_spec == "F.1":
        return Listed((-1, 0, 0, 0, 0, 1)), "dF.1"
    if isinstance(sides_spec, tuple):  # listed faces: d{1,2,4,8}
        if len(sides_spec) > MAX_LISTED_FACES:
            raise DiceLimitError(N_("too many sides: {sides} (at most {limit})"), expression, pos,
                                 sides=len(sides_spec), limit=MAX_LISTED_FACES)
        return Listed(sorted(sides_spec)), "d" + sides_text(sides_spec)
    sides = 100 if sides_spec == "%" else sides_spec
    if sides < 1:
        raise DiceValueError(N_("a die needs at least one side"), expression, pos)
    if sides > MAX_SIDES:
        raise DiceLimitError(N_("too many sides: {sides} (at most {limit})"), expression, pos, sides=sides,
                             limit=MAX_SIDES)
    return range(1, sides + 1), f"d{sides}"


#: the defaults of :class:`TermSpec`'s fields
_SPEC_DEFAULTS = {f.name: f.default for f in fields(TermSpec) if f.init and f.default is not MISSING}
_INIT_NAMES = {f.name for f in fields(TermSpec) if f.init}
_INIT_FIELDS = len(_INIT_NAMES)
#: the fields :func:`compile_term` gives a term with no modifier but keep / drop (:func:`plain_term`), its own aside
_PLAIN = {"selection": None, "explode": None, "compound": False, "reroll": None, "reroll_once": False, "success": None,
          "failure": None, "double": None}


#: the fields of a term's spec its modifiers set, as they are without any (:func:`.modifiers.lower` sets the others)
_NO_MODIFIER: dict[str, Any] = {"window": None, "selection": None, "keeps": (), "explode": None, "compound": False, "reroll": None,
                "reroll_once": False, "success": None, "failure": None}


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
    return DiceTerm(new_spec(
        **_PLAIN, node=node, text=_term_text(node, count, sides), count=count, faces=range(1, sides + 1),
        kind=f"d{sides}", window=window_of(keeps, count), keeps=keeps, label=label, each_die=explosions == "dice",
        reroll_cap=max(1, min(MAX_REROLLS, MAX_THROWS // max(1, count) - 1))))


def decimal_scale(node: Dice) -> int:
    """The common denominator of the term's decimal minimum / maximum (1: none)."""
    import math  # here: the module's imports are shared with the lazy-import work

    scale = 1
    for m in node.modifiers.items:
        if isinstance(m, Clamp) and not isinstance(m.value, int):
            scale = math.lcm(scale, m.value.denominator)
    return scale


def sides_text(sides: Any) -> str:
    """How a die's sides are written: ``6``, ``%``, ``F``, ``{1,2,4,8}``."""
    return "{" + ",".join(map(str, sides)) + "}" if isinstance(sides, tuple) else str(sides)


def _term_text(node: Dice, count: int, sides: Any) -> str:
    return f"{'' if node.count is None and count == 1 else count}d{sides_text(sides)}" + \
        "".join([written(m) for m in node.modifiers.items])
