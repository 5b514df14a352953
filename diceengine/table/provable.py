"""Committed seeds: a table's dice derived from a secret server seed committed before any roll, a client seed each
member may set, and secret rolls sealed in the public log; anyone recomputes every die once the seed is revealed
(:mod:`diceengine.table.verify`).

**Derivation, version 1** (frozen: a log made today verifies with any later release; test vectors in
``docs/table.md`` and ``tests/test_table_provable.py``)::

    message = json.dumps(["diceengine/1", table_id, step, client_seed, nonce],
                         ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    digest  = hmac.new(bytes.fromhex(server_seed), message, hashlib.sha256).digest()
    dice    = random.Random(int.from_bytes(digest, "big"))      # the seed a table's roll takes today

The server seed is 32 bytes from :mod:`secrets` (hex); its commitment is ``sha256(bytes.fromhex(server_seed))``,
hex. A secret roll's seal is ``sha256((salt + ":" + body).encode("utf-8"))``, hex, where ``body`` is
:func:`sealed_body` (its step, roller, expression, system, options, dice and outcome, as sorted compact JSON) and
``salt`` 16 bytes from :mod:`secrets` (hex).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping
from datetime import datetime
from json.encoder import encode_basestring as _quoted  # a JSON string as json.dumps(ensure_ascii=False) writes it
from typing import Any

from diceengine.i18n import N_

from .errors import TableError
from .model import Entry, Table
from .steps import appended, game_master, member_of, new_entry

__all__ = ["DERIVATION", "Draw", "commitment_of", "derive", "draw", "end_table", "generator",
           "new_server_seed", "reveal_secret", "rotate_seed", "seal", "sealed_body", "set_client_seed"]

#: the version of the derivation new steps use
DERIVATION = 1
#: the derivation versions this release recomputes
KNOWN_DERIVATIONS = frozenset({1})
#: the longest client seed a member may set
MAX_CLIENT_SEED = 128
#: what a rule of play's seed is derived with (version 1): no client seed, nonce 0
RULE_CLIENT_SEED = ""


def new_server_seed() -> str:
    """A fresh server seed: 32 bytes from :mod:`secrets`, hex."""
    return secrets.token_bytes(32).hex()


def commitment_of(server_seed: str) -> str:
    """The public commitment to ``server_seed``: the SHA-256 of its bytes, hex."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def derive(server_seed: str, table_id: str, step: int, client_seed: str, nonce: int, version: int = DERIVATION
           ) -> bytes:
    """The 32 bytes a step's dice come from (the construction of ``version``; see the module's text)."""
    if version not in KNOWN_DERIVATIONS:
        raise TableError(N_("unknown derivation version {version}"), version=repr(version))
    # json.dumps([...], ensure_ascii=False, separators=(",", ":")), written out: a roll's hot path
    message = f'["diceengine/1",{_quoted(table_id)},{int(step)},{_quoted(client_seed)},{int(nonce)}]'.encode()
    return hmac.new(bytes.fromhex(server_seed), message, hashlib.sha256).digest()


def generator(digest: bytes) -> random.Random:
    """The generator a step's dice are drawn from, seeded by its derived bytes."""
    return random.Random(int.from_bytes(digest, "big"))


class Draw:
    """What a roll of a table of committed seeds draws its dice from: the ``source`` (a generator), the
    ``fields`` its log entry records and the table's ``update`` (the roller's next nonce)."""

    __slots__ = ("fields", "source", "update")

    def __init__(self, source: random.Random, fields: dict[str, Any], update: dict[str, Any]) -> None:
        self.source, self.fields, self.update = source, fields, update


def _live_seed(table: Table) -> str:
    if table.ended:
        raise TableError(N_("this table has ended: its server seed is revealed, no more dice are drawn from it"))
    if table.server_seed is None:
        raise TableError(N_("this table's server seed is not here (an imported log): it cannot draw dice"))
    return table.server_seed


def draw(table: Table, actor: str) -> Draw:
    """The dice of ``actor``'s roll as the table's next step, derived from its committed server seed."""
    seed = _live_seed(table)
    client = table.client_seeds.get(actor, "")
    nonce = table.nonces.get(actor, 0)
    digest = derive(seed, table.id, table.version + 1, client, nonce)
    fields = {"commitment": table.commitment, "client_seed": client, "nonce": nonce, "derivation": DERIVATION}
    return Draw(generator(digest), fields, {"nonces": {**table.nonces, actor: nonce + 1}})


def rule_source(table: Table) -> random.Random:
    """The generator of a rule of play's seed at the table's next step (no client seed, nonce 0)."""
    return generator(derive(_live_seed(table), table.id, table.version + 1, RULE_CLIENT_SEED, 0))


def sealed_body(entry: Entry | Mapping[str, Any]) -> str:
    """What a secret roll's seal covers: its step, roller, expression, system, options, dice and outcome, as
    sorted compact JSON."""
    data = entry.model_dump(mode="json") if isinstance(entry, Entry) else entry
    body = {k: data.get(k) for k in ("seq", "member", "expression", "system", "options", "dice", "outcome")}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def seal(body: str, salt: str) -> str:
    """The seal of a secret roll's ``body`` with ``salt``: SHA-256, hex."""
    return hashlib.sha256(f"{salt}:{body}".encode()).hexdigest()


def sealed(entry: Entry) -> Entry:
    """A secret roll with its seal (and the salt, read by the game master only)."""
    salt = secrets.token_hex(16)
    return entry.model_copy(update={"salt": salt, "sealed": seal(sealed_body(entry), salt)})


def committed(table: Table, actor: str, time: datetime | None = None, revealed: str | None = None) -> Table:
    """``table`` with a fresh server seed committed: a ``"seed"`` step shows the commitment (and reveals the seed it
    replaces, ``revealed``)."""
    server_seed = new_server_seed()
    commitment = commitment_of(server_seed)
    entry = new_entry(table, "seed", actor, time, commitment=commitment, revealed=revealed, derivation=DERIVATION)
    return appended(table, entry, server_seed=server_seed, commitment=commitment, nonces={})


def rotate_seed(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The game master rotates the server seed: the old one revealed in the log, a new one committed (the
    members' nonces start again)."""
    game_master(table, actor, N_("only the game master may rotate the server seed"))
    return committed(table, actor, time, revealed=_live_seed(table))


def end_table(table: Table, actor: str, time: datetime | None = None) -> Table:
    """The game master ends the table: its server seed is revealed; no more dice are drawn from it."""
    game_master(table, actor, N_("only the game master may end the table"))
    old = _live_seed(table)
    entry = new_entry(table, "end", actor, time, revealed=old)
    return appended(table, entry, server_seed=None, ended=True)


def set_client_seed(table: Table, actor: str, seed: str, time: datetime | None = None) -> Table:
    """``actor`` sets their own client seed (1 to 128 printable characters: no control character, which a database
    would refuse to store): their next rolls are derived from it too."""
    member_of(table, actor)
    if table.commitment is None:
        raise TableError(N_("this table has no committed seed: a client seed would not change its dice"))
    if not isinstance(seed, str) or not 0 < len(seed) <= MAX_CLIENT_SEED or not seed.isprintable():
        raise TableError(N_("a client seed is 1 to {most} characters"), most=MAX_CLIENT_SEED)
    entry = new_entry(table, "clientseed", actor, time, client_seed=seed)
    return appended(table, entry, client_seeds={**table.client_seeds, actor: seed},
                    nonces={**table.nonces, actor: 0})


def reveal_secret(table: Table, actor: str, seq: int, time: datetime | None = None) -> Table:
    """The game master reveals the secret roll of step ``seq``: its expression, dice, outcome and salt join the
    public log, checked against its seal."""
    game_master(table, actor, N_("only the game master may reveal a secret roll"))
    if not 1 <= seq <= table.version or table.entry(seq).kind != "roll" or not table.entry(seq).secret:
        raise TableError(N_("step {seq} is not a secret roll"), seq=seq)
    rolled = table.entry(seq)
    if rolled.sealed is None or rolled.salt is None:
        raise TableError(N_("step {seq} has no seal to reveal"), seq=seq)
    entry = new_entry(table, "reveal", actor, time, reveals=seq, salt=rolled.salt, expression=rolled.expression,
                      system=rolled.system, options=rolled.options, dice=rolled.dice, outcome=rolled.outcome,
                      target=rolled.member)
    return appended(table, entry)
