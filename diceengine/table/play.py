"""The rulesets' rules of play at the table: a rule run on the scene or a character, the state before and after
logged; the characters at the table."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, get_type_hints

from pydantic import BaseModel, TypeAdapter, ValidationError

from diceengine.errors import DiceError
from diceengine.i18n import N_

from .errors import TableAccessError, TableError
from .model import Character, Table
from .rolls import dice_source
from .rulesets import rules_of, state_class
from .steps import changed, jsonable, member_of


def _takes_state(fn: Callable[..., Any], hints: Mapping[str, Any]) -> tuple[str, type[BaseModel]] | None:
    from diceengine.systems.play import PlayState

    params = list(inspect.signature(fn).parameters)
    if not params:
        return None
    hint = hints.get(params[0])
    if isinstance(hint, type) and issubclass(hint, PlayState):
        return params[0], hint
    return None


def _arguments(name: str, fn: Callable[..., Any], hints: Mapping[str, Any], skip: str | None,
               args: Mapping[str, Any]) -> dict[str, Any]:
    parameters = {k: p for k, p in inspect.signature(fn).parameters.items() if k != skip}
    unknown = [k for k in args if k not in parameters]
    if unknown:
        raise TableError(N_("{rule} takes {parameters}, not {unknown}"), rule=name,
                         parameters=", ".join(parameters) or "nothing", unknown=", ".join(unknown))
    missing = [k for k, p in parameters.items() if p.default is p.empty and k not in args
               and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if missing:
        raise TableError(N_("{rule} needs {missing}"), rule=name, missing=", ".join(missing))
    out = {}
    for key, value in args.items():
        hint = hints.get(key, Any)
        try:
            out[key] = TypeAdapter(hint).validate_python(value) if hint is not Any else value
        except (ValidationError, TypeError) as err:
            reason = err.errors()[0]["msg"] if isinstance(err, ValidationError) else str(err)
            raise TableError(N_("{rule}: {name}={value} is refused ({reason})"), rule=name, name=key,
                             value=repr(value), reason=reason) from None
    return out


def rule(table: Table, actor: str, name: str, target: str | None = None, args: Mapping[str, Any] | None = None,
         time: datetime | None = None) -> Table:
    """``actor`` applies the rule of play ``name`` (one of the ``RULES`` of the system's rules of play) to the
    scene (``target=None``) or to the character ``target``, with ``args`` (JSON values, read as the rule's
    parameters say). A rule taking a state gets the target's; a rule making a state (a new encounter) gives
    the target its state; a rule giving a check or another value keeps the state and logs what it gave. A
    player may apply rules to the scene and to their own characters. ``seed``, when the rule takes one and it
    is not given, comes from the table's seed sequence."""
    member = member_of(table, actor)
    module = rules_of(table.system)
    rules: Mapping[str, Callable[..., Any]] = getattr(module, "RULES", {})
    fn = rules.get(name)
    if fn is None:
        raise TableError(N_("unknown rule {rule} (known: {known})"), rule=repr(name), known=", ".join(rules))
    if target is not None:
        character = _character(table, target)
        if member.role != "gm" and character.owner != actor:
            raise TableAccessError(N_("{name} is not {actor}'s character"), name=target, actor=actor)
    hints = get_type_hints(fn)
    takes = _takes_state(fn, hints)
    given = dict(args or {})
    if "seed" in inspect.signature(fn).parameters and given.get("seed") is None:
        given["seed"] = int(dice_source(table, None).getrandbits(63))
    kwargs = _arguments(name, fn, hints, takes[0] if takes else None, given)
    call_args: list[Any] = []
    if takes is not None:
        stored, kind = (table.play.scene, table.play.scene_kind) if target is None else \
            (table.play.characters[target].state, table.play.characters[target].kind)
        if stored is None:
            raise TableError(N_("{rule} applies to a scene and this table has none yet"), rule=name)
        if kind != takes[1].__name__:
            raise TableError(N_("{rule} applies to a {wanted}, not to a {kind}"), rule=name,
                             wanted=takes[1].__name__, kind=kind)
        call_args.append(takes[1].model_validate(stored))
    try:
        result = fn(*call_args, **kwargs)
    except DiceError:
        raise
    except (TypeError, ValueError) as err:  # a value of the wrong kind for this rule
        raise TableError(N_("{rule}: {reason}"), rule=name, reason=str(err)) from None
    state, check, fields = _result(result)
    after = table.play
    if state is not None:
        dumped = state.model_dump(mode="json")
        if target is None:
            after = after.model_copy(update={"scene": dumped, "scene_kind": type(state).__name__})
        else:
            character = table.play.characters[target]
            after = after.model_copy(update={"characters": {**after.characters, target: character.model_copy(
                update={"state": dumped, "kind": type(state).__name__})}})
    return changed(table, "rule", actor, time, after, rule=name, target=target, args=jsonable(given),
                    check=check, **fields)


def _result(result: Any) -> tuple[BaseModel | None, str | None, dict[str, Any]]:
    from diceengine.systems.play import PlayState, Step

    if isinstance(result, Step):
        return result.state, result.check, {"check_system": result.system,
                                            "check_options": jsonable(dict(result.options))}
    if isinstance(result, PlayState):
        return result, None, {}
    if isinstance(result, str):
        return None, result, {}
    return None, None, {"result": jsonable(result)}


def add_character(table: Table, actor: str, state: BaseModel, name: str | None = None, owner: str | None = None,
                  time: datetime | None = None) -> Table:
    """A character joins the table with its state of play (an instance of a state class of the system's rules
    of play), played by ``owner`` (a member; a player may add only their own; ``None``: the caller's own, the
    game master's for a game master)."""
    member = member_of(table, actor)
    if owner is None and member.role != "gm":
        owner = actor
    if owner is not None:
        member_of(table, owner)
    if member.role != "gm" and owner != actor:
        raise TableAccessError(N_("a player adds only their own characters"))
    kind = type(state).__name__
    state_class(table.system, kind)
    name = name or getattr(state, "name", None)
    if not isinstance(name, str) or not name:
        raise TableError(N_("a character needs a name"))
    if name in table.play.characters:
        raise TableError(N_("there is already a character named {name}"), name=repr(name))
    character = Character(name=name, owner=owner, kind=kind, state=state.model_dump(mode="json"))
    after = table.play.model_copy(update={"characters": {**table.play.characters, name: character}})
    return changed(table, "character", actor, time, after, target=name)


def state_of(table: Table, target: str | None = None) -> BaseModel | None:
    """The state of play of the scene (``target=None``) or of the character ``target``, as its class."""
    if target is None:
        if table.play.scene is None or table.play.scene_kind is None:
            return None
        return state_class(table.system, table.play.scene_kind).model_validate(table.play.scene)
    character = _character(table, target)
    return state_class(table.system, character.kind).model_validate(character.state)


def _character(table: Table, name: str) -> Character:
    """The character ``name`` of the table (refused when the table has none of that name)."""
    character = table.play.characters.get(name)
    if character is None:
        raise TableError(N_("no character named {name} at this table (known: {known})"), name=repr(name),
                         known=", ".join(table.play.characters) or "none")
    return character
