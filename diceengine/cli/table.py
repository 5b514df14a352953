"""``dice table``: a game table kept in a SQLite file (or, with ``--db URL``, in a PostgreSQL database, FILE then
naming the table there): ``new``, ``join``, ``remove``, ``rekey``, ``roll``, ``log``, ``luck``, ``undo``; the committed seeds'
``verify``, ``seed``, ``rotate``, ``end``, ``reveal`` (:mod:`diceengine.cli.table_provable`).

The command line acts by member name: whoever holds the file holds the table (the keys printed by ``new`` and
``join`` are for the callers that identify by key, :class:`diceengine.table.Seat`). ``log`` and ``luck`` read the
table as a player does (a secret roll shows no dice) unless ``--as`` names a game master.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import Any

from ..errors import DiceError
from ..i18n import N_, NP_, gettext, ngettext
from .args import parse_options

__all__ = ["add_commands"]

#: the id of the table a SQLite file of the command line holds
FILE_TABLE = "table"

NEW = N_("table {where}: {system}, step {version}")
KEY = N_("key of {name} ({role}): {key}")
KEYS_NOTE = N_("each key is shown once: give it to its member (the table keeps only its hash)")
JOINED = N_("{name} joins the table; key: {key}")
REMOVED = N_("{name} is no longer a member of the table: their key opens it no more")
REKEYED = N_("{name}'s new key (shown once; the old one opens the table no more): {key}")
SECRET = N_("secret roll by {name}")
ROLLED = N_("#{seq} {name}: {text}")
ODDS_CHANCE = N_("percentile {percentile}, chance of success {chance}")
ODDS_ONLY = N_("percentile {percentile}")
REROLLED = N_("(re-rolled by #{seq})")
UNDONE = N_("(undone by #{seq})")
UNDID = N_("step #{seq} undone")
LUCK = NP_("{name}: {n} roll, mean percentile {mean}", "{name}: {n} rolls, mean percentile {mean}")
NO_ROLLS = N_("{name}: no rolls")
FAIR = N_("fairness: p = {p} ({method}, {rolls} rolls, {dof} degrees of freedom)")
FAIR_NONE = N_("fairness: too few rolls to test")
STEP = N_("#{seq} {name}: {kind}")
KINDS = {"join": N_("joins"), "rule": N_("applies a rule"), "flip": N_("flips a token"),
         "adjust": N_("changes a pool"), "order": N_("sets the initiative order"), "turn": N_("next turn"),
         "character": N_("adds a character"), "undo": N_("undoes a step"), "remove": N_("removes a member"),
         "rekey": N_("changes a key"), "seed": N_("commits a server seed"), "end": N_("ends the table"),
         "clientseed": N_("sets a client seed"), "reveal": N_("reveals a secret roll")}


def _store(args: argparse.Namespace, create: bool = False) -> tuple[Any, str]:
    try:
        from ..table.store import open_store
    except ImportError:
        raise DiceError(N_("dice table needs the table extra: pip install 'diceengine[table]'")) from None
    if args.db:
        return open_store(args.db, create=True), args.file
    if not create and not os.path.exists(args.file):
        from ..table import TableNotFound

        raise TableNotFound(N_("no table database at {where}"), where=args.file)
    return open_store(args.file, create=create), FILE_TABLE


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def _gm(table: Any, name: str | None) -> str:
    from ..table import TableAccessError

    if name is not None:
        return name
    found = table.gm()
    if not found:
        raise TableAccessError(N_("only the game master may undo a step"))
    return str(found[0])


def cmd_new(args: argparse.Namespace) -> int:
    from .. import table as T

    scene = _scene(args.system, args.scene) if args.scene else None
    table, keys = T.new_table(FILE_TABLE if not args.db else args.file, args.system, args.gm, args.player or [],
                              scene=scene, seed=args.seed, lang=args.lang, provable=args.provable)
    if not args.db and os.path.exists(args.file):
        raise T.TableError(N_("{where} exists already: a new table needs a new file"), where=args.file)
    store, _ = _store(args, create=True)
    with store:
        store.create(table)
    lang = args.lang
    if args.json:
        print(json.dumps({"table": table.id, "system": table.system, "keys": keys}))
        return 0
    print(gettext(NEW, lang, where=args.file, system=table.system, version=table.version))
    for name, key in keys.items():
        print(gettext(KEY, lang, name=name, role=table.members[name].role, key=key))
    print(gettext(KEYS_NOTE, lang))
    return 0


def _scene(system: str, text: str) -> Any:
    """``KIND`` or ``KIND=JSON``: a state of play of the system's rules of play."""
    from ..table import rules

    kind, _, body = text.partition("=")
    cls = rules.state_class(system, kind.strip())
    try:
        return cls.model_validate_json(body) if body else cls()
    except ValueError as err:
        raise DiceError(N_("{kind}: {reason}"), kind=kind, reason=str(err).splitlines()[0]) from None


def cmd_join(args: argparse.Namespace) -> int:
    from .. import table as T

    store, table_id = _store(args)
    with store:
        keys: dict[str, str] = {}

        def join(table: Any) -> Any:
            new, keys[args.name] = T.join(table, args.name, "gm" if args.gm else "player")
            return new

        store.update(table_id, join)
    print(json.dumps({"name": args.name, "key": keys[args.name]}) if args.json else
          gettext(JOINED, args.lang, name=args.name, key=keys[args.name]))
    return 0


def _entry_text(entry: Any, lang: str | None) -> str:
    if entry.kind == "roll":
        if entry.redacted:
            line = f"#{entry.seq} " + gettext(SECRET, lang, name=entry.member)
        else:
            line = gettext(ROLLED, lang, seq=entry.seq, name=entry.member, text=entry.text)
            if entry.odds is not None:
                odds = entry.odds
                line += "  [" + (gettext(ODDS_CHANCE, lang, percentile=_percent(odds.percentile),
                                         chance=_percent(odds.chance)) if odds.chance is not None else
                                 gettext(ODDS_ONLY, lang, percentile=_percent(odds.percentile))) + "]"
            if entry.secret:
                line += "  (" + gettext(SECRET, lang, name=entry.member) + ")"
    else:
        line = gettext(STEP, lang, seq=entry.seq, name=entry.member, kind=gettext(KINDS[entry.kind], lang))
        if entry.rule:
            line += f" {entry.rule}"
        if entry.check:
            line += f" -> {entry.check}"
        if entry.undoes or entry.reveals:
            line += f" #{entry.undoes or entry.reveals}"
        if entry.commitment or entry.revealed:
            line += "".join(f" {k}={v}" for k, v in (("revealed", entry.revealed), ("commitment", entry.commitment))
                            if v)
        if entry.target and entry.kind in ("remove", "rekey"):
            line += f" {entry.target}"
    if entry.rerolled_by:
        line += " " + gettext(REROLLED, lang, seq=entry.rerolled_by)
    if entry.undone_by:
        line += " " + gettext(UNDONE, lang, seq=entry.undone_by)
    return line


def cmd_roll(args: argparse.Namespace) -> int:
    from .. import table as T

    options = parse_options(args.option)
    store, table_id = _store(args)
    with store:
        table = store.update(table_id, lambda t: T.roll(t, args.name, args.expression, args.system, args.secret,
                                                        args.seed, **options), retries=5)
    entry = table.log[-1]
    print(entry.model_dump_json() if args.json else _entry_text(entry, args.lang))
    return 0


def _read(args: argparse.Namespace) -> Any:
    from .. import table as T

    store, table_id = _store(args)
    with store:
        table = store.load(table_id)
    return T.view(table, getattr(args, "as_name", None))


def cmd_log(args: argparse.Namespace) -> int:
    from .. import table as T

    table = _read(args)
    if args.json:
        print(T.export_log(table))
        return 0
    for entry in table.log:
        print(_entry_text(entry, args.lang))
    return 0


def cmd_luck(args: argparse.Namespace) -> int:
    from .. import table as T

    table = _read(args)
    luck = T.luck(table)
    fit = T.fairness(table, method=args.method)
    if args.json:
        print(json.dumps({"luck": {n: v.model_dump() for n, v in luck.items()}, "fairness": fit.model_dump()}))
        return 0
    lang = args.lang
    for name, found in luck.items():
        print(ngettext(*LUCK, found.rolls, lang, name=name, mean=_percent(found.mean)) if found.mean is not None
              else gettext(NO_ROLLS, lang, name=name))
    print(gettext(FAIR, lang, p=f"{fit.p_value:.4g}", method=fit.method, rolls=fit.rolls, dof=fit.dof) if fit.dof
          else gettext(FAIR_NONE, lang))
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from .. import table as T

    store, table_id = _store(args)
    with store:
        table = store.update(table_id, lambda t: T.undo(t, _gm(t, args.as_name)))
    print(gettext(UNDID, args.lang, seq=table.log[-1].undoes))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from .. import table as T

    store, table_id = _store(args)
    with store:
        store.update(table_id, lambda t: T.remove_member(t, _remover(t, args), args.name))
    print(gettext(REMOVED, args.lang, name=args.name))
    return 0


def _remover(table: Any, args: argparse.Namespace) -> str:
    """Who removes: ``--as``, else a game master other than the member removed (else that member: a game master
    leaving, whom the table refuses when they are its only one)."""
    if args.as_name is not None:
        return str(args.as_name)
    others = [name for name in table.gm() if name != args.name]
    return str(others[0]) if others else str(args.name)


def cmd_rekey(args: argparse.Namespace) -> int:
    from .. import table as T

    store, table_id = _store(args)
    given: list[str] = []

    def rotate(table: Any) -> Any:
        new, key = T.rotate_key(table, args.as_name or args.name, args.name)
        given.append(key)
        return new

    with store:
        store.update(table_id, rotate)
    print(json.dumps({"name": args.name, "key": given[-1]}) if args.json else
          gettext(REKEYED, args.lang, name=args.name, key=given[-1]))
    return 0


def add_commands(sub: Any, add_lang: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``table`` and its sub-commands to the ``dice`` parser (``add_lang``: the ``--lang`` option each of them
    takes, as every command does)."""
    p = sub.add_parser("table", help="a game table: members, rolls and their odds, luck (needs the table extra)")
    inner = p.add_subparsers(dest="table_command", required=True)

    def common(q: argparse.ArgumentParser, json_flag: bool = True) -> None:
        q.add_argument("file", metavar="FILE", help="the table's SQLite file (with --db: the table's name there)")
        q.add_argument("--db", metavar="URL", default=None, help="a database URL (postgresql://user@host/db)")
        if json_flag:
            q.add_argument("--json", action="store_true", help="print JSON")
        add_lang(q)

    q = inner.add_parser("new", help="a new table: its system, its game master and players")
    common(q)
    q.add_argument("--system", "-s", required=True, help="the table's ruleset")
    q.add_argument("--gm", required=True, metavar="NAME", help="the game master")
    q.add_argument("--player", nargs="+", default=[], metavar="NAME", help="the players")
    q.add_argument("--seed", type=int, default=None, help="draw every roll from this seed (reproducible)")
    q.add_argument("--scene", default=None, metavar="KIND[=JSON]", help="the state of play to start from")
    q.add_argument("--provable", action="store_true",
                   help="derive the dice from a committed server seed (dice table verify checks them)")
    q.set_defaults(func=cmd_new)

    q = inner.add_parser("join", help="a member joins the table (prints their key)")
    common(q)
    q.add_argument("name", metavar="NAME")
    q.add_argument("--gm", action="store_true", help="as a game master")
    q.set_defaults(func=cmd_join)

    q = inner.add_parser("remove", help="a member is removed: their key opens the table no more")
    common(q, json_flag=False)
    q.add_argument("name", metavar="NAME")
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help="the game master (default: the first)")
    q.set_defaults(func=cmd_remove)

    q = inner.add_parser("rekey", help="a member gets a new key (printed once); the old one opens the table no more")
    common(q)
    q.add_argument("name", metavar="NAME")
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME",
                   help="who asks: the member (the default) or a game master")
    q.set_defaults(func=cmd_rekey)

    q = inner.add_parser("roll", help="a member rolls: the dice, the outcome and its exact odds join the log")
    common(q)
    q.add_argument("name", metavar="NAME")
    q.add_argument("expression", metavar="EXPR")
    q.add_argument("--secret", action="store_true", help="readable by the game master only")
    q.add_argument("--system", default=None, help="another system than the table's")
    q.add_argument("--seed", type=int, default=None)
    q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    q.set_defaults(func=cmd_roll)

    q = inner.add_parser("log", help="the table's log (--json: the whole table, as dice table export writes it)")
    common(q)
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help="as that member reads it")
    q.set_defaults(func=cmd_log)

    q = inner.add_parser("luck", help="each member's luck and the fairness of the dice, against the exact odds")
    common(q)
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help="as that member reads it")
    q.add_argument("--method", choices=("chi2", "g"), default="chi2")
    q.set_defaults(func=cmd_luck)

    q = inner.add_parser("undo", help="the game master undoes the last step")
    common(q, json_flag=False)
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help="the game master (default: the first)")
    q.set_defaults(func=cmd_undo)

    from .table_provable import add_provable_commands

    add_provable_commands(inner, common, add_lang)
