"""A modifier a plug-in adds to the standard notation: the contract (:class:`FaceMap`), its registration (an entry
point of the group ``diceengine.modifiers``, or :func:`register_modifier`), and its reading in a term."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from diceengine.errors import DiceError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_CONSTANT

from ..nodes import Compare, NamedModifier
from .base import Modifier, point_text

__all__ = ["FaceMap", "PluginModifier", "find_modifier", "modifier_names", "plugin_face", "register_modifier"]


@runtime_checkable
class FaceMap(Protocol):
    """The contract of a modifier a plug-in adds to the standard notation: it maps each face of the die to a new
    value. That is all it may do, and so the roll, the sample and the exact odds all honour it without knowing it.

    **Registering.** A package names the modifier in its entry points, under its letters::

        [project.entry-points."diceengine.modifiers"]
        z = "dice_zero:Zero"

    (a class, made without arguments, or an instance); or a program calls :func:`register_modifier`.

    **Writing.** ``4d6z1``: the letters right after the dice (or after another modifier), case ignored, then
    an optional point: ``N`` (equal), ``>=N`` ``>N`` ``<=N`` ``<N`` ``=N`` ``!=N``, ``>=-1`` (a negative number only
    after a comparator: ``4d6z-1`` is ``4d6z`` minus one), a computed number ``>=(1+2)``.

    **What it provides.**

    - ``name``: its letters, lower case ASCII (``"z"``), the entry point's name. They must not begin as a built-in
      modifier does (``k d p e r f mi ma u s cs cf``...): the grammar reads those first, so such a name is refused
      when it is registered.
    - ``face(face, point, faces) -> int``: the new value of one face. ``face`` is an integer; ``point`` is the
      compare point written after the letters (:class:`~..nodes.Compare`: ``point.test(x)``, ``point.op``,
      ``point.value``) or ``None``; ``faces`` is every face of the die before this modifier, ascending (a face
      listed twice is twice as likely). It is pure: it is called once per face when the term is compiled, never
      during a roll. It returns an ``int`` within ±10**9.

    **What the engine does with it.** The die gets the faces it returns, as a listed die ``d{...}`` has: every
    other modifier (keep / drop, explosion, re-roll, success count, critical marks) reads the new faces, wherever
    it is written; the face maps (with the built-in ``mi`` / ``ma``) apply in the order written (``4d6z3mi3``
    zeroes the 3s, then raises every face under 3 to 3); the dice shown are the new faces. A ``face`` that raises, or returns anything but an integer in bounds, is the engine's
    error on the expression (:class:`~diceengine.errors.DiceValueError`, with a caret), never a traceback.
    """

    name: str

    def face(self, face: int, point: Compare | None, faces: Sequence[int]) -> int: ...


class PluginModifier(Modifier):
    """How a plug-in's modifier is written in the term's text (its lowering is a face map's: :class:`.scores.FaceMaps`)."""

    nodes = (NamedModifier,)

    def written(self, mod: Any) -> str:
        return str(mod.name) + point_text(mod.compare)


#: the modifiers registered so far, by name (an entry point is loaded into it on first use)
_registered: dict[str, FaceMap] = {}
_NAME = re.compile(r"[a-z]+", re.ASCII)


#: the built-in modifiers' letters, which no plug-in's name may begin with (given by the table: :func:`reserve`)
_reserved: list[str] = []


def reserve(letters: Sequence[str]) -> None:
    """Keep ``letters`` (the built-in modifiers' spellings) from the plug-ins' names: the grammar reads them first."""
    _reserved.extend(x for x in letters if x.isalpha() and x not in _reserved)


def register_modifier(modifier: Any, *, replace: bool = False) -> FaceMap:
    """Register a plug-in modifier (a :class:`FaceMap`, or a class of one made without arguments) by its name."""
    made = modifier() if isinstance(modifier, type) else modifier
    name = getattr(made, "name", None)
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise ValueError(f"a modifier's name is lower-case ASCII letters, not {name!r}")
    if not callable(getattr(made, "face", None)):
        raise TypeError(f"the modifier {name!r} has no face(face, point, faces) method (FaceMap)")
    taken = next((b for b in _reserved if name.startswith(b)), None)
    if taken is not None:
        raise ValueError(f"the modifier {name!r} begins as the built-in {taken!r}: the grammar would read that first")
    if name in _registered and not replace:
        raise ValueError(f"a modifier {name!r} is already registered (replace=True to replace it)")
    _registered[name] = made
    return made


def _entry_points() -> dict[str, Any]:
    from diceengine.registry import MODIFIER_GROUP, entry_points_of

    return entry_points_of(MODIFIER_GROUP)


def find_modifier(name: str) -> FaceMap | None:
    """The registered modifier called ``name`` (loading its entry point on first use), or ``None``."""
    found = _registered.get(name)
    if found is not None:
        return found
    ep = _entry_points().get(name)
    if ep is None:
        return None
    try:
        loaded = ep.load()
        spelled = getattr(loaded, "name", None)
        if spelled != name:
            raise ValueError(f"its entry point is named {name!r}, its letters are {spelled!r}")
        return register_modifier(loaded)
    except Exception as err:  # a broken third-party plug-in is the engine's error, never a traceback
        raise DiceError(N_("the modifier {name} failed to load: {error}"), name=repr(name), error=str(err)) from err


def modifier_names() -> list[str]:
    """The names of the registered and installed plug-in modifiers, without loading them."""
    return sorted(set(_registered) | set(_entry_points()))


def _unknown(mod: NamedModifier, expression: str) -> DiceSyntaxError:
    from diceengine.hints import closest

    typed = mod.name
    spellings = (*_reserved, *modifier_names())
    guess = next((m for m in spellings if sorted(m) == sorted(typed)), None)  # letters swapped: hk
    guess = guess or closest(typed, spellings, 0.6)
    if guess is not None and guess != typed:
        return DiceSyntaxError(N_("unknown modifier {got}: did you mean {guess}?"), expression, mod.pos,
                               got=repr(mod.typed), guess=guess)
    return DiceSyntaxError(N_("unknown modifier {got}: no built-in modifier or installed plug-in is spelled so"),
                           expression, mod.pos, got=repr(mod.typed))


def plugin_face(mod: NamedModifier, faces: Sequence[int], expression: str) -> list[int]:
    """The faces of a die after the plug-in modifier ``mod`` (refused with a caret when none has its name)."""
    modifier = find_modifier(mod.name)
    if modifier is None:
        raise _unknown(mod, expression)
    before = tuple(faces)
    out = []
    for f in before:
        try:
            value = modifier.face(f, mod.compare, before)
        except Exception as err:  # a plug-in's fault is the engine's error on the expression, never a traceback
            raise DiceValueError(N_("the modifier {name} failed on the face {face}: {error}"), expression, mod.pos,
                                 name=repr(mod.name), face=f, error=str(err)) from err
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_CONSTANT:
            raise DiceValueError(N_("the modifier {name} gave {value} for the face {face}: a whole number is "
                                    "needed, at most {limit}"), expression, mod.pos, name=repr(mod.name),
                                 value=repr(value), face=f, limit=MAX_CONSTANT)
        out.append(int(value))
    return out
