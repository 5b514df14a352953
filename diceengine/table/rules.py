"""The rules of the table: functions that take a :class:`~diceengine.table.model.Table` and return a new one
with one more step in its log (or raise a :class:`~diceengine.table.errors.TableError`, the table left as it
was).

A step is taken by a member, named by ``actor``; a caller who holds only a key finds that name with
:func:`authenticate`, and reads the table through :func:`view`, which leaves out what that member may not
see (the dice of a secret roll, for anyone but a game master). The rulesets plug in through their
system's :meth:`~diceengine.registry.System.rules_of_play`: :func:`apply` runs one of its ``RULES`` on the
scene or on a character, and logs the state before and after.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import json
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, get_type_hints

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import to_jsonable_python

from diceengine.errors import DiceError
from diceengine.i18n import N_

from .errors import TableAccessError, TableError, TableFormatError
from .luck import roll_odds
from .model import FORMAT, Character, Entry, Member, Play, Table, marked

__all__ = [
    "add_character",
    "adjust",
    "authenticate",
    "export_log",
    "flip",
    "hash_key",
    "import_log",
    "join",
    "last_roll",
    "new_key",
    "new_table",
    "next_round",
    "next_turn",
    "readable",
    "reroll",
    "roll",
    "rule",
    "set_order",
    "undo",
    "view",
]

#: the bits of a member's key (from :mod:`secrets`)
KEY_BYTES = 16
_entropy = random.SystemRandom()  # the dice of a table without a seed


def new_key() -> str:
    """A fresh member key: 128 random bits from :mod:`secrets`, URL-safe text."""
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    """What the table stores of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now(time: datetime | None) -> datetime:
    return time if time is not None else datetime.now(UTC)


def _member(table: Table, name: str) -> Member:
    found = table.members.get(name)
    if found is None:
        raise TableAccessError(N_("{name} is not a member of this table (members: {members})"), name=repr(name),
                               members=", ".join(table.members) or "none")
    return found


def _gm(table: Table, name: str, refused: str) -> Member:
    member = _member(table, name)
    if member.role != "gm":
        raise TableAccessError(refused)
    return member


def _append(table: Table, entry: Entry, **update: Any) -> Table:
    return table.model_copy(update={"version": entry.seq, "log": (*table.log, entry), **update})


def _entry(table: Table, kind: str, actor: str, time: datetime | None, **fields: Any) -> Entry:
    return Entry(seq=table.version + 1, kind=kind, member=actor, time=_now(time), **fields)  # type: ignore[arg-type]


def _changed(table: Table, kind: str, actor: str, time: datetime | None, after: Play, **fields: Any) -> Table:
    entry = _entry(table, kind, actor, time, before=table.play, after=after, **fields)
    return _append(table, entry, play=after)


# ---- members and keys


def new_table(table_id: str, system: str, gm: str | Sequence[str], players: Sequence[str] = (),
              scene: BaseModel | Mapping[str, Any] | None = None, seed: int | None = None, lang: str | None = None,
              pools: Mapping[str, int] | None = None, time: datetime | None = None) -> tuple[Table, dict[str, str]]:
    """A new table of ``system`` with its game master(s) and players, and each member's key (give each their
    own; the table keeps only their hashes). ``scene``: the ruleset's state of play to start from (an instance
    of one of its rules of play's state classes; ``None``: its default scene, when it has one); ``seed``: the
    rolls are drawn from it, step by step, reproducibly (``None``: fresh entropy); ``pools``: the table's own
    counters."""
    from diceengine.registry import get_system

    sys_ = get_system(system)
    play = Play(pools=dict(pools or {}))
    if scene is not None:
        play = play.model_copy(update=_state_update(sys_, scene))
    table = Table(id=table_id, system=sys_.name, seed=seed, lang=lang, created=_now(time), play=play)
    keys: dict[str, str] = {}
    for name in [gm] if isinstance(gm, str) else list(gm):
        table, keys[name] = join(table, name, "gm", time=time)
    for name in players:
        table, keys[name] = join(table, name, time=time)
    return table, keys


def _state_update(sys_: Any, scene: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(scene, Mapping):
        raise TableError(N_("a scene is given as an instance of a state class of the rules of play"))
    _state_class(sys_, type(scene).__name__)
    return {"scene": scene.model_dump(mode="json"), "scene_kind": type(scene).__name__}


def join(table: Table, name: str, role: str = "player", key: str | None = None,
         time: datetime | None = None) -> tuple[Table, str]:
    """``name`` joins the table as a ``"player"`` (or ``"gm"``); returns the table and their key (a new one
    unless ``key`` is given)."""
    if role not in ("gm", "player"):
        raise TableError(N_("a member is a 'gm' or a 'player', not {role}"), role=repr(role))
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise TableError(N_("a member's name is 1 to 100 characters, not {name}"), name=repr(name))
    if name in table.members:
        raise TableError(N_("{name} is already a member of this table"), name=repr(name))
    key = key or new_key()
    member = Member(name=name, role=role, key_hash=hash_key(key))  # type: ignore[arg-type]
    entry = _entry(table, "join", name, time, result=role)
    return _append(table, entry, members={**table.members, name: member}), key


def authenticate(table: Table, key: str) -> str:
    """The name of the member whose key is ``key`` (compared in constant time), else the engine's error."""
    digest = hash_key(key) if isinstance(key, str) else ""
    found = None
    for member in table.members.values():
        if hmac.compare_digest(digest, member.key_hash) and member.key_hash:
            found = member.name
    if found is None:
        raise TableAccessError(N_("no member of this table has that key"))
    return found


_HIDDEN: dict[str, Any] = {"expression": None, "system": None, "options": {}, "outcome": None, "dice": None, "text": None,
           "odds": None}


def _reads_secrets(table: Table, reader: str | None) -> bool:
    return reader is not None and _member(table, reader).role == "gm"


def readable(table: Table, reader: str | None, entry: Entry) -> Entry:
    """``entry`` as the member ``reader`` may read it (see :func:`view`)."""
    if entry.secret and not _reads_secrets(table, reader):
        return entry.model_copy(update=_HIDDEN)
    return entry


def view(table: Table, reader: str | None) -> Table:
    """The table as the member ``reader`` may read it (``None``: as anyone, a member or not, may): for anyone
    but a game master, a secret roll shows who rolled and when, nothing of its dice, and the members' key
    hashes are left out."""
    if _reads_secrets(table, reader):
        return table
    log = tuple(e.model_copy(update=_HIDDEN) if e.secret else e for e in table.log)
    members = {n: m.model_copy(update={"key_hash": ""}) for n, m in table.members.items()}
    return table.model_copy(update={"log": log, "members": members})


# ---- rolls


def _generator(table: Table, seed: Any) -> Any:
    if seed is not None:
        return seed
    if table.seed is not None:
        return random.Random((table.seed << 64) | (table.version + 1))  # one stream per step: reproducible
    return _entropy


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


def roll(table: Table, actor: str, expression: str, system: str | None = None, secret: bool = False,
         seed: Any = None, time: datetime | None = None, reroll_of: int | None = None, **options: Any) -> Table:
    """``actor`` rolls ``expression`` (of the table's system unless ``system`` names another): the dice, the
    outcome and its exact odds before the roll join the log. ``secret``: readable by the game master only.
    ``seed``: an int or a generator (by default the table's seed sequence, else fresh entropy)."""
    from diceengine.api import roll as bare_roll

    _member(table, actor)
    system = system or table.system
    rolled = bare_roll(expression, system, seed=_generator(table, seed), lang=table.lang, **options)
    fields = rolled.outcome._asdict()
    outcome = {k: _jsonable(v) for k, v in fields.items() if v is not None}
    dice = json.loads("[" + rolled._plan.dice_json(rolled._record) + "]")
    entry = Entry(seq=table.version + 1, kind="roll", member=actor, time=_now(time), secret=bool(secret),
                  expression=rolled.expression, system=rolled.system, options=_jsonable(dict(options)),
                  outcome=outcome, dice=dice, text=str(rolled), reroll_of=reroll_of,
                  odds=roll_odds(rolled.system, rolled.expression, options, outcome))
    return _append(table, entry)


def last_roll(table: Table, member: str) -> Entry:
    """``member``'s last roll that stands (not undone)."""
    _member(table, member)
    for e in reversed(table.log):
        if e.kind == "roll" and e.member == member and e.undone_by is None:
            return e
    raise TableError(N_("{name} has no roll to re-roll"), name=member)


def reroll(table: Table, actor: str, seed: Any = None, time: datetime | None = None) -> Table:
    """Re-roll ``actor``'s last roll: the new roll joins the log, the first stays in it, marked
    ``rerolled_by`` the new one (secret if the first was)."""
    first = last_roll(table, actor)
    assert first.expression is not None
    new = roll(table, actor, first.expression, first.system, first.secret, seed, time, reroll_of=first.seq,
               **first.options)
    log = list(new.log)
    log[first.seq - 1] = first.model_copy(update={"rerolled_by": new.version})
    return new.model_copy(update={"log": tuple(log)})


# ---- rules of play


def _rules(system: str) -> Any:
    from diceengine.registry import get_system

    sys_ = get_system(system)
    module = sys_.rules_of_play()
    if module is None:
        raise TableError(N_("the system {system} has no rules of play"), system=sys_.name)
    return module


def _state_class(sys_or_name: Any, kind: str) -> type[BaseModel]:
    from diceengine.registry import get_system
    from diceengine.systems.play import PlayState

    module = get_system(sys_or_name).rules_of_play() if not hasattr(sys_or_name, "rules_of_play") \
        else sys_or_name.rules_of_play()
    found = getattr(module, kind, None) if module is not None else None
    if not (isinstance(found, type) and issubclass(found, PlayState)):
        raise TableError(N_("{kind} is not a state of play of this table's system"), kind=repr(kind))
    return found


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
    member = _member(table, actor)
    module = _rules(table.system)
    rules: Mapping[str, Callable[..., Any]] = getattr(module, "RULES", {})
    fn = rules.get(name)
    if fn is None:
        raise TableError(N_("unknown rule {rule} (known: {known})"), rule=repr(name), known=", ".join(rules))
    if target is not None:
        character = table.play.characters.get(target)
        if character is None:
            raise TableError(N_("no character named {name} at this table (known: {known})"), name=repr(target),
                             known=", ".join(table.play.characters) or "none")
        if member.role != "gm" and character.owner != actor:
            raise TableAccessError(N_("{name} is not {actor}'s character"), name=target, actor=actor)
    hints = get_type_hints(fn)
    takes = _takes_state(fn, hints)
    given = dict(args or {})
    if "seed" in inspect.signature(fn).parameters and given.get("seed") is None:
        given["seed"] = int(_generator(table, None).getrandbits(63))
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
    return _changed(table, "rule", actor, time, after, rule=name, target=target, args=_jsonable(given),
                    check=check, **fields)


def _result(result: Any) -> tuple[BaseModel | None, str | None, dict[str, Any]]:
    from diceengine.systems.play import PlayState, Step

    if isinstance(result, Step):
        return result.state, result.check, {"check_system": result.system,
                                            "check_options": _jsonable(dict(result.options))}
    if isinstance(result, PlayState):
        return result, None, {}
    if isinstance(result, str):
        return None, result, {}
    return None, None, {"result": _jsonable(result)}


def add_character(table: Table, actor: str, state: BaseModel, name: str | None = None, owner: str | None = None,
                  time: datetime | None = None) -> Table:
    """A character joins the table with its state of play (an instance of a state class of the system's rules
    of play), played by ``owner`` (a member; a player may add only their own)."""
    member = _member(table, actor)
    if owner is not None:
        _member(table, owner)
    if member.role != "gm" and owner != actor:
        raise TableAccessError(N_("a player adds only their own characters"))
    kind = type(state).__name__
    _state_class(table.system, kind)
    name = name or getattr(state, "name", None)
    if not isinstance(name, str) or not name:
        raise TableError(N_("a character needs a name"))
    if name in table.play.characters:
        raise TableError(N_("there is already a character named {name}"), name=repr(name))
    character = Character(name=name, owner=owner, kind=kind, state=state.model_dump(mode="json"))
    after = table.play.model_copy(update={"characters": {**table.play.characters, name: character}})
    return _changed(table, "character", actor, time, after, target=name)


def state_of(table: Table, target: str | None = None) -> BaseModel | None:
    """The state of play of the scene (``target=None``) or of the character ``target``, as its class."""
    if target is None:
        if table.play.scene is None or table.play.scene_kind is None:
            return None
        return _state_class(table.system, table.play.scene_kind).model_validate(table.play.scene)
    character = table.play.characters.get(target)
    if character is None:
        raise TableError(N_("no character named {name} at this table (known: {known})"), name=repr(target),
                         known=", ".join(table.play.characters) or "none")
    return _state_class(table.system, character.kind).model_validate(character.state)


# ---- pools, tokens, turns


def _path(path: str) -> list[str]:
    if not isinstance(path, str) or not path or any(not p for p in path.split(".")):
        raise TableError(N_("a pool is named by a path such as destiny.light, not {path}"), path=repr(path))
    return path.split(".")


def _counter(table: Table, play: Play, path: str, delta: int) -> Play:
    """``play`` with ``delta`` added to the integer at ``path``: a pool of the table's own, else a field of the
    scene (``destiny.light``, ``impulsion``, ``characters.Kel.force_points``), read back through the scene's
    class so that its bounds hold (a pool never below zero)."""
    parts = _path(path)
    if parts[0] in play.pools and len(parts) == 1:
        value = play.pools[path] + delta
        if value < 0:
            raise TableError(N_("the pool {pool} holds {held}, not enough to take {taken}"), pool=path,
                             held=play.pools[path], taken=-delta)
        return play.model_copy(update={"pools": {**play.pools, path: value}})
    if play.scene is None or play.scene_kind is None:
        raise TableError(N_("no pool {pool} at this table (its pools: {known})"), pool=path,
                         known=", ".join(play.pools) or "none")
    scene = json.loads(json.dumps(play.scene))
    node: Any = scene
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    held = node.get(parts[-1]) if isinstance(node, dict) else None
    if isinstance(held, bool) or not isinstance(held, int):
        raise TableError(N_("no pool {pool} at this table (its pools: {known})"), pool=path,
                         known=", ".join(play.pools) or "none")
    if held + delta < 0:
        raise TableError(N_("the pool {pool} holds {held}, not enough to take {taken}"), pool=path, held=held,
                         taken=-delta)
    node[parts[-1]] = held + delta
    cls = _state_class(table.system, play.scene_kind)
    try:
        checked = cls.model_validate(scene)
    except ValidationError as err:
        raise TableError(N_("the pool {pool} cannot hold {value} ({reason})"), pool=path, value=held + delta,
                         reason=err.errors()[0]["msg"]) from None
    return play.model_copy(update={"scene": checked.model_dump(mode="json")})


def flip(table: Table, actor: str, source: str, to: str, tokens: int = 1, time: datetime | None = None) -> Table:
    """Flip ``tokens`` token(s) from the pool ``source`` to the pool ``to`` (the destiny pool's
    ``destiny.light`` -> ``destiny.dark``): one step, so two members flipping the same token on the same
    version give one flip and one :class:`~diceengine.table.errors.TableConflict`."""
    _member(table, actor)
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
        raise TableError(N_("flip at least one token, not {tokens}"), tokens=repr(tokens))
    if source == to:
        raise TableError(N_("a token flips from one pool to another, not to {pool} itself"), pool=source)
    after = _counter(table, _counter(table, table.play, source, -tokens), to, tokens)
    return _changed(table, "flip", actor, time, after, args={"from": source, "to": to, "tokens": tokens})


def adjust(table: Table, actor: str, pool: str, delta: int, time: datetime | None = None) -> Table:
    """Add ``delta`` (negative: take) to the pool ``pool`` (see :func:`flip` for the names); a pool of the
    table's own is created by the game master's first adjustment of a name the scene does not have."""
    member = _member(table, actor)
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise TableError(N_("a pool changes by a whole number, not {delta}"), delta=repr(delta))
    play = table.play
    parts = _path(pool)
    if len(parts) == 1 and pool not in play.pools and member.role == "gm" and delta >= 0 and \
            not (play.scene is not None and pool in play.scene):
        play = play.model_copy(update={"pools": {**play.pools, pool: 0}})
    after = _counter(table, play, pool, delta)
    return _changed(table, "adjust", actor, time, after, args={"pool": pool, "delta": delta})


def set_order(table: Table, actor: str, order: Sequence[str], time: datetime | None = None) -> Table:
    """The game master sets the initiative order (names of characters or members); the first acts first."""
    _gm(table, actor, N_("only the game master may set the initiative order"))
    order = list(order)
    if not order or len(set(order)) != len(order) or not all(isinstance(n, str) and n for n in order):
        raise TableError(N_("an initiative order names each one once"))
    after = table.play.model_copy(update={"order": order, "turn": 0})
    return _changed(table, "order", actor, time, after, args={"order": order})


def next_turn(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The next in the initiative order acts; after the last, a new round begins with the first."""
    _member(table, actor)
    play = table.play
    if not play.order:
        raise TableError(N_("there is no initiative order yet"))
    turn = play.turn + 1
    after = play.model_copy(update={"turn": 0, "round": play.round + 1} if turn >= len(play.order) else {"turn": turn})
    return _changed(table, "turn", actor, time, after)


def next_round(table: Table, actor: str, time: datetime | None = None) -> Table:
    """A new round begins, with the first in the initiative order."""
    _member(table, actor)
    after = table.play.model_copy(update={"turn": 0, "round": table.play.round + 1})
    return _changed(table, "turn", actor, time, after, args={"round": True})


# ---- undo


def undo(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The game master undoes the last step that stands (a roll, a rule, a flip, a turn...; never a member's
    joining, never an undo): its state of play comes back and it is marked ``undone_by``; the log keeps it."""
    _gm(table, actor, N_("only the game master may undo a step"))
    for e in reversed(table.log):
        if e.kind not in ("undo", "join") and e.undone_by is None:
            break
    else:
        raise TableError(N_("there is no step to undo"))
    after = table.play
    if e.before is not None:
        if e.after != table.play:  # never: a later step that changed the state stands before it
            raise TableError(N_("step {seq} cannot be undone: the state of play has changed since"), seq=e.seq)
        after = e.before
    new = _changed(table, "undo", actor, time, after, undoes=e.seq)
    log = list(new.log)
    log[e.seq - 1] = e.model_copy(update={"undone_by": new.version})
    if e.reroll_of is not None:
        log[e.reroll_of - 1] = log[e.reroll_of - 1].model_copy(update={"rerolled_by": None})
    return new.model_copy(update={"log": tuple(log)})


# ---- the log as JSON

LOG_KIND = "diceengine.table"


def export_log(table: Table) -> str:
    """The table and its whole log as one JSON document (:func:`import_log` reads it back)."""
    body = table.model_dump(mode="json", exclude={"log"})
    body["log"] = [e.model_dump(mode="json", exclude={"rerolled_by", "undone_by"}) for e in table.log]
    return json.dumps({"kind": LOG_KIND, "format": FORMAT, "table": body}, ensure_ascii=False)


def import_log(text: str | bytes) -> Table:
    """The table of a JSON document of :func:`export_log`; a document of another kind or version, or whose log
    does not hold together (steps missing or out of order), is the engine's error naming the problem."""
    try:
        document = json.loads(text)
    except (ValueError, TypeError) as err:
        raise TableFormatError(N_("not a table's log: {reason}"), reason=str(err)) from None
    if not isinstance(document, dict) or document.get("kind") != LOG_KIND:
        raise TableFormatError(N_("not a table's log: {reason}"), reason="no 'kind': 'diceengine.table'")
    if document.get("format") != FORMAT:
        raise TableFormatError(N_("a table's log of format {found}; this version reads format {format}"),
                               found=repr(document.get("format")), format=FORMAT)
    return validated(document.get("table"))


def validated(data: Any) -> Table:
    """A :class:`Table` from plain data, its log checked: numbered 1 to its version without a gap, each
    reference (a re-roll, an undo) to an earlier step."""
    try:
        table = Table.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TableFormatError(N_("not a table's log: {reason}"), reason=f"{where}: {first['msg']}") from None
    check_log(table.log, table.version)
    if table.format != FORMAT:
        raise TableFormatError(N_("a table's log of format {found}; this version reads format {format}"),
                               found=repr(table.format), format=FORMAT)
    return table.model_copy(update={"log": marked(table.log)})


def check_log(log: Sequence[Entry], version: int) -> None:
    """Refuse a log that is not numbered 1 to ``version`` or whose references point forward."""
    if len(log) != version:
        raise TableFormatError(N_("not a table's log: {reason}"),
                               reason=f"version {version} with {len(log)} steps")
    for i, e in enumerate(log, 1):
        if e.seq != i:
            raise TableFormatError(N_("not a table's log: {reason}"), reason=f"step {e.seq} where {i} was due")
        for ref in (e.reroll_of, e.undoes):
            if ref is not None and not 1 <= ref < i:
                raise TableFormatError(N_("not a table's log: {reason}"),
                                       reason=f"step {i} refers to step {ref}")
