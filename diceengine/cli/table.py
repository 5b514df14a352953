"""``dice table``: a game table kept in a SQLite file (or, with ``--db URL``, in a PostgreSQL database, FILE then
naming the table there): ``new``, ``join``, ``remove``, ``rekey``, ``roll``, ``save``, ``log``, ``export``, ``import``,
``luck``, ``undo``; the committed seeds' ``verify``, ``seed``, ``rotate``, ``end``, ``reveal``
(:mod:`diceengine.cli.table_provable`).

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
from .args import parse_options, percent, split_system
from .table_log import entry_text
from .table_store import FAIR, FAIR_NONE, FILE_TABLE, stepped
from .table_store import game_master_of as _gm
from .table_store import store_of as _store

__all__ = ["add_commands"]


NEW = N_("table {where}: {system}, step {version}")
KEY = N_("key of {name} ({role}): {key}")
KEYS_NOTE = N_("each key is shown once: give it to its member (the table keeps only its hash)")
JOINED = N_("{name} joins the table; key: {key}")
REMOVED = N_("{name} is no longer a member of the table: their key opens it no more")
READMITTED = N_("{name} may join the table again")
REKEYED = N_("{name}'s new key (shown once; the old one opens the table no more): {key}")
UNDID = N_("step #{seq} undone")
LUCK = NP_("{name}: {n} roll, mean percentile {mean}", "{name}: {n} rolls, mean percentile {mean}")
NO_ROLLS = N_("{name}: no rolls")
EXPORTED = N_("{where}: {steps} steps written to {path}")
IMPORTED = N_("table {where}: {system}, {steps} steps imported from {path}")
SAVED, NO_SAVED = N_("@{name}: {expression} (saved by {member})"), N_("no saved rolls")
SAVED_OWN = N_("@{name}: {expression} ({member}'s own)")


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

    return _keyed(args, lambda t: T.join(t, args.name, "gm" if args.gm else "player"), JOINED)


def _keyed(args: argparse.Namespace, take: Callable[[Any], tuple[Any, str]], said: str) -> int:
    """Take the step ``take`` (a table -> the new table and a member's new key) and print the key, as ``said``
    says it (``--json``: as JSON)."""
    given: list[str] = []

    def step(table: Any) -> Any:
        new, key = take(table)
        given.append(key)
        return new

    stepped(args, step)
    print(json.dumps({"name": args.name, "key": given[-1]}) if args.json else
          gettext(said, args.lang, name=args.name, key=given[-1]))
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    from .. import table as T
    from ..table.aliases import roll_saved

    options = parse_options(args.option)
    saved = args.expression[1:] if args.expression.startswith("@") else None  # @hit: the roll saved as hit

    def step(t: Any) -> Any:
        if saved is not None:
            return roll_saved(t, args.name, saved, args.secret, args.seed)
        return T.roll(t, args.name, args.expression, args.system, args.secret, args.seed, **options)

    entry = stepped(args, step, retries=5).log[-1]
    print(entry.model_dump_json() if args.json else entry_text(entry, args.lang))
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
        print(entry_text(entry, args.lang))
    return 0


def cmd_save(args: argparse.Namespace) -> int:
    """Save a roll by name (``--forget``: forget it), or list the saved rolls."""
    from ..table.aliases import save_roll

    store, table_id = _store(args)
    with store:
        if args.name is None:
            table = store.load(table_id)
        else:
            if args.saved is None or (args.expression is None) != args.forget:
                raise DiceError(N_("dice table save FILE MEMBER NAME EXPR (or NAME --forget)"))
            options = parse_options(args.option)
            system, expression = args.system, args.expression
            if expression is not None:  # a "d6: 4D" prefix names the system, as for dice roll
                named, rest = split_system(expression, None)
                system, expression = (named, rest) if rest != expression.strip() else (system, expression)
            table = store.update(table_id, lambda t: save_roll(t, args.name, args.saved, expression, system,
                                                               personal=args.mine, **options), retries=5)
    if args.json:
        print(json.dumps({k: v.model_dump() for k, v in table.play.saved.items()}))
        return 0
    lang = args.lang
    if args.name is not None:
        print(entry_text(table.log[-1], lang))
    elif not table.play.saved:
        print(gettext(NO_SAVED, lang))
    for key, found in table.play.saved.items():
        system = f"{found.system}: " if found.system else ""
        own = key.startswith(found.saved + "/")
        print(gettext(SAVED_OWN if own else SAVED, lang, name=key.removeprefix(found.saved + "/"),
                      expression=system + found.expression, member=found.saved))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """The table as one JSON document (what ``dice table import`` and :func:`diceengine.table.import_log` read):
    the whole table by default, as ``--as NAME`` reads it otherwise."""
    from .. import table as T

    store, table_id = _store(args)
    with store:
        table = store.load(table_id)
    if args.as_name is not None:
        table = T.view(table, args.as_name)
    text = T.export_log(table)
    if args.output in (None, "-"):
        print(text)
        return 0
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(text + "\n")
    print(gettext(EXPORTED, args.lang, where=args.file, steps=table.version, path=args.output))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """A new table from a document of ``dice table export``, its log checked, in a new file (or, with ``--db``,
    under the name FILE in that database)."""
    from .. import table as T

    try:
        with open(args.log, encoding="utf-8") as found:
            text = found.read()
    except OSError as err:
        raise T.TableNotFound(N_("cannot read {path}: {reason}"), path=args.log, reason=err.strerror) from None
    table = T.import_log(text)
    table = table.model_copy(update={"id": args.file if args.db else FILE_TABLE})
    if not args.db and os.path.exists(args.file):
        raise T.TableError(N_("{where} exists already: a new table needs a new file"), where=args.file)
    store, _ = _store(args, create=True)
    with store:
        store.create(table)
    print(gettext(IMPORTED, args.lang, where=args.file, system=table.system, steps=table.version, path=args.log))
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
        print(ngettext(*LUCK, found.rolls, lang, name=name, mean=percent(found.mean, 1)) if found.mean is not None
              else gettext(NO_ROLLS, lang, name=name))
    print(gettext(FAIR, lang, p=f"{fit.p_value:.4g}", method=fit.method, rolls=fit.rolls, dof=fit.dof) if fit.dof
          else gettext(FAIR_NONE, lang))
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from .. import table as T

    table = stepped(args, lambda t: T.undo(t, _gm(t, args.as_name)))
    print(gettext(UNDID, args.lang, seq=table.log[-1].undoes))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from .. import table as T

    stepped(args, lambda t: T.remove_member(t, _remover(t, args), args.name))
    print(gettext(REMOVED, args.lang, name=args.name))
    return 0


def cmd_readmit(args: argparse.Namespace) -> int:
    from .. import table as T

    store, table_id = _store(args)
    with store:
        store.update(table_id, lambda t: T.readmit(t, args.as_name or t.gm()[0], args.name))
    print(gettext(READMITTED, args.lang, name=args.name))
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

    return _keyed(args, lambda t: T.rotate_key(t, args.as_name or args.name, args.name), REKEYED)


def add_commands(sub: Any, add_lang: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``table`` and its sub-commands to the ``dice`` parser (``add_lang``: the ``--lang`` option each of them
    takes, as every command does)."""
    p = sub.add_parser("table", help="a game table: members, rolls and their odds, luck (needs the table extra)")
    inner = p.add_subparsers(dest="table_command", required=True)

    def common(q: argparse.ArgumentParser, json_flag: bool = True, as_help: str | None = None) -> None:
        """The options of every command; ``as_help``: what its ``--as NAME`` names, when it takes one."""
        q.add_argument("file", metavar="FILE", help="the table's SQLite file (with --db: the table's name there)")
        q.add_argument("--db", metavar="URL", default=None, help="a database URL (postgresql://user@host/db)")
        if json_flag:
            q.add_argument("--json", action="store_true", help="print JSON")
        add_lang(q)
        if as_help is not None:
            q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help=as_help)

    _add_member_commands(inner, common)
    _add_roll_commands(inner, common)
    _add_log_commands(inner, common)
    from .table_provable import add_provable_commands

    add_provable_commands(inner, common, add_lang)


def _add_member_commands(inner: Any, common: Callable[..., None]) -> None:
    """``new``, ``join``, ``remove``, ``rekey``: a table and its members (``common``: the options every command takes)."""
    q = inner.add_parser("new", help="a new table: its system, its game master and players")
    common(q)
    q.add_argument("--system", "-s", required=True, help="the table's ruleset")
    q.add_argument("--gm", required=True, metavar="NAME", help="the game master")
    q.add_argument("--player", nargs="+", default=[], metavar="NAME", help="the players")
    q.add_argument("--seed", type=int, default=None, help="draw every roll from this seed (reproducible)")
    q.add_argument("--scene", default=None, metavar="KIND[=JSON]", help="the state of play to start from")
    q.add_argument("--provable", action=argparse.BooleanOptionalAction, default=None,
                   help="derive the dice from a committed server seed, which dice table verify checks (the default "
                        "without --seed); --no-provable: fresh entropy nobody can check")
    q.set_defaults(func=cmd_new)

    q = inner.add_parser("join", help="a member joins the table (prints their key)")
    common(q)
    q.add_argument("name", metavar="NAME")
    q.add_argument("--gm", action="store_true", help="as a game master")
    q.set_defaults(func=cmd_join)

    q = inner.add_parser("remove", help="a member is removed: their key opens the table no more")
    common(q, json_flag=False, as_help="the game master (default: the first)")
    q.add_argument("name", metavar="NAME")
    q.set_defaults(func=cmd_remove)

    q = inner.add_parser("readmit", help="a member removed by the game master may join again")
    common(q, json_flag=False)
    q.add_argument("name", metavar="NAME")
    q.add_argument("--as", dest="as_name", default=None, metavar="NAME", help="the game master (default: the first)")
    q.set_defaults(func=cmd_readmit)

    q = inner.add_parser("rekey", help="a member gets a new key (printed once); the old one opens the table no more")
    common(q, as_help="who asks: the member (the default) or a game master")
    q.add_argument("name", metavar="NAME")
    q.set_defaults(func=cmd_rekey)


def _add_roll_commands(inner: Any, common: Callable[..., None]) -> None:
    """``roll``, ``log``, ``save``: rolls, the log in words and the saved rolls."""
    q = inner.add_parser("roll", help="a member rolls: the dice, the outcome and its exact odds join the log")
    common(q)
    q.add_argument("name", metavar="NAME")
    q.add_argument("expression", metavar="EXPR", help="an expression, or @SAVED: the roll saved by that name")
    q.add_argument("--secret", action="store_true", help="readable by the game master only")
    q.add_argument("--system", default=None, help="another system than the table's")
    q.add_argument("--seed", type=int, default=None)
    q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    q.set_defaults(func=cmd_roll)

    q = inner.add_parser("log", help="the table's log in words (--json: the table as that member reads it, "
                                     "as dice table export writes it)")
    common(q, as_help="as that member reads it")
    q.set_defaults(func=cmd_log)

    q = inner.add_parser("save", help="a member saves a roll by name, which anyone at the table rolls as @NAME "
                                      "(no argument: the saved rolls)")
    common(q)
    q.add_argument("name", metavar="MEMBER", nargs="?", default=None)
    q.add_argument("saved", metavar="NAME", nargs="?", default=None)
    q.add_argument("expression", metavar="EXPR", nargs="?", default=None)
    q.add_argument("--forget", action="store_true", help="forget the roll saved as NAME")
    q.add_argument("--mine", action="store_true", help="the member's own saved roll, which only they roll by NAME")
    q.add_argument("--system", default=None, help="another system than the table's")
    q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    q.set_defaults(func=cmd_save)


def _add_log_commands(inner: Any, common: Callable[..., None]) -> None:
    """``export``, ``import``, ``luck``, ``undo``: the whole log, its luck and its last step."""
    q = inner.add_parser("export", help="the table and its whole log as one JSON document (dice table import "
                                        "reads it back)")
    common(q, json_flag=False, as_help="as that member reads it (default: the whole table, secret rolls included)")
    q.add_argument("--output", "-o", default=None, metavar="PATH", help="write it to PATH (default: print it)")
    q.set_defaults(func=cmd_export)

    q = inner.add_parser("import", help="a new table from a document of dice table export (its log checked)")
    common(q, json_flag=False)
    q.add_argument("log", metavar="LOG.json", help="the exported document")
    q.set_defaults(func=cmd_import)

    q = inner.add_parser("luck", help="each member's luck and the fairness of the dice, against the exact odds")
    common(q, as_help="as that member reads it")
    q.add_argument("--method", choices=("chi2", "g"), default="chi2")
    q.set_defaults(func=cmd_luck)

    q = inner.add_parser("undo", help="the game master undoes the last step")
    common(q, json_flag=False, as_help="the game master (default: the first)")
    q.set_defaults(func=cmd_undo)
