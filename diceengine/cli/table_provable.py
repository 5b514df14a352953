"""``dice table`` and the committed seeds: ``verify`` (a log checked offline, no database), ``seed`` (a member's
client seed), ``rotate`` and ``end`` (the game master reveals the server seed), ``reveal`` (a secret roll shown)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..errors import DiceError
from ..i18n import N_, gettext
from .table_store import FAIR, FAIR_NONE, game_master_of, stepped

__all__ = ["add_provable_commands"]

VERIFIED = N_("verified: {steps} steps, {checked} recomputed, no step tampered with")
NOT_CHECKED = N_("not checked: {sealed} secret rolls never revealed, {pending} steps whose server seed is not "
                 "revealed yet, {legacy} rolls not drawn from a committed seed")
TAMPERED = N_("step {step} does not match ({kind}): {detail}")
TAMPERED_LOG = N_("the log does not hold together ({kind}): {detail}")
FIRST_COMMITMENT = N_("first commitment: {commitment} (compare it with the one the table showed you)")
CLIENT_SEED = N_("{name}'s client seed: {seed}")
ROTATED = N_("server seed revealed: {revealed}; new commitment: {commitment}")
ENDED = N_("the table has ended; its server seed: {revealed}")
REVEALED = N_("secret roll #{seq} revealed")


def cmd_verify(args: argparse.Namespace) -> int:
    from ..table.verify import verify

    try:
        text = sys.stdin.buffer.read() if args.log == "-" else open(args.log, "rb").read()  # noqa: SIM115
    except OSError as err:
        raise DiceError(N_("cannot read {where}: {reason}"), where=args.log, reason=err.strerror or str(err)) from None
    report = verify(text)
    fit = _fairness(text) if report.ok else None
    if args.json:
        print(json.dumps({"fairness": fit.model_dump() if fit is not None else None, "ok": report.ok, "complete": report.complete, "steps": report.steps,
                          "checked": report.checked, "sealed": report.sealed, "pending": report.pending,
                          "legacy": report.legacy, "commitments": list(report.commitments),
                          "problems": [vars(p) for p in report.problems]}))
        return 0 if report.ok else 1
    lang = args.lang
    first = report.first
    if first is not None:
        print(gettext(TAMPERED, lang, step=first.step, kind=first.kind, detail=first.detail) if first.step
              else gettext(TAMPERED_LOG, lang, kind=first.kind, detail=first.detail))
        return 1
    print(gettext(VERIFIED, lang, steps=report.steps, checked=report.checked))
    if report.commitments:
        print(gettext(FIRST_COMMITMENT, lang, commitment=report.commitments[0]))
    if not report.complete:
        print(gettext(NOT_CHECKED, lang, sealed=report.sealed, pending=report.pending, legacy=report.legacy))
    if fit is not None:
        print(gettext(FAIR, lang, p=f"{fit.p_value:.4g}", method=fit.method, rolls=fit.rolls, dof=fit.dof) if fit.dof
              else gettext(FAIR_NONE, lang))
    return 0


def _fairness(text: bytes) -> Any:
    """The dice of a verified log against their exact odds (the fairness test of ``dice table luck``)."""
    from ..table import fairness, import_log

    try:
        return fairness(import_log(text))
    except DiceError:  # a log verification read but the table's reader refuses: no fairness to tell
        return None


def cmd_seed(args: argparse.Namespace) -> int:
    from .. import table as T

    stepped(args, lambda t: T.set_client_seed(t, args.name, args.seed), retries=5)
    print(gettext(CLIENT_SEED, args.lang, name=args.name, seed=args.seed))
    return 0


def cmd_rotate(args: argparse.Namespace) -> int:
    from .. import table as T

    table = stepped(args, lambda t: T.rotate_seed(t, game_master_of(t, args.as_name)), retries=5)
    last = table.log[-1]
    print(gettext(ROTATED, args.lang, revealed=last.revealed, commitment=last.commitment))
    return 0


def cmd_end(args: argparse.Namespace) -> int:
    from .. import table as T

    table = stepped(args, lambda t: T.end_table(t, game_master_of(t, args.as_name)), retries=5)
    print(gettext(ENDED, args.lang, revealed=table.log[-1].revealed))
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    from .. import table as T

    stepped(args, lambda t: T.reveal_secret(t, game_master_of(t, args.as_name), args.seq), retries=5)
    print(gettext(REVEALED, args.lang, seq=args.seq))
    return 0


def add_provable_commands(inner: Any, common: Callable[..., None], add_lang: Callable[[argparse.ArgumentParser], None]
                          ) -> None:
    """Add ``verify``, ``seed``, ``rotate``, ``end`` and ``reveal`` to ``dice table``."""
    q = inner.add_parser("verify", help="recompute every die of an exported log from its revealed seeds (offline)")
    q.add_argument("log", metavar="LOG.json", help="a table's log (dice table log --json); - reads stdin")
    q.add_argument("--json", action="store_true", help="print JSON")
    add_lang(q)
    q.set_defaults(func=cmd_verify)

    q = inner.add_parser("seed", help="a member sets their own client seed (their next rolls derive from it)")
    common(q, json_flag=False)
    q.add_argument("name", metavar="NAME")
    q.add_argument("seed", metavar="SEED")
    q.set_defaults(func=cmd_seed)

    for name, func, text in (("rotate", cmd_rotate, "the game master reveals the server seed and commits a new one"),
                             ("end", cmd_end, "the game master ends the table: its server seed is revealed")):
        q = inner.add_parser(name, help=text)
        common(q, json_flag=False, as_help="the game master (default: first)")
        q.set_defaults(func=func)

    q = inner.add_parser("reveal", help="the game master reveals a secret roll (checked against its seal)")
    common(q, json_flag=False, as_help="the game master (default: first)")
    q.add_argument("seq", metavar="STEP", type=int)
    q.set_defaults(func=cmd_reveal)
