"""The state of a game table as plain data: pydantic models that serialise to JSON and back.

A :class:`Table` holds its members (a game master and players, each known by the hash of a secret key),
the state of play (:class:`Play`: the ruleset's scene, the characters, the shared pools, the initiative
order, the turn and the round) and the append-only log of every step (:class:`Entry`). Its rules
(:mod:`diceengine.table.rules`) take a table and return a new one; nothing here changes in place.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from diceengine.i18n import N_

from .errors import TableError

__all__ = ["FORMAT", "KEPT_KINDS", "MEMBER_KINDS", "SEED_KINDS", "Character", "Entry", "Member", "Name", "Odds", "Play",
           "SavedRoll", "Table", "TableId", "check_name", "check_table_id", "marked"]

#: the version of the table's JSON (a log exported by another version is refused by name)
FORMAT = 1

#: the longest name of a member or a character, and the longest table id
MAX_NAME, MAX_ID = 100, 200
#: what no name or id holds: control characters (C0, DEL, C1: NUL, a line break...) and lone surrogates, which
#: no database stores alike (PostgreSQL refuses NUL, neither encodes a surrogate in UTF-8)
_FORBIDDEN = "\x00-\x1f\x7f-\x9f\ud800-\udfff"
_REFUSED = re.compile(f"[{_FORBIDDEN}]")
#: the same, as the OpenAPI schema says it (JSON Schema's regular expressions; surrogates are not text there)
_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def check_name(value: str) -> str:
    """``value`` if it may name a member or a character (1 to 100 characters, not blank, no control character),
    else the engine's error (:class:`~diceengine.table.errors.TableError`): the one test of a name, for the
    library and the web service alike, on every database."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or _REFUSED.search(value):
        raise TableError(N_("a name is 1 to 100 characters, not blank, without control characters (such as NUL "
                            "or a line break), not {name}"), name=_shown(value))
    return value


def check_table_id(value: str) -> str:
    """``value`` if it may be a table's id (1 to 200 characters, no control character), else the engine's error:
    the one test of an id, for the library and the web service alike, on every database."""
    if not isinstance(value, str) or not value or len(value) > MAX_ID or _REFUSED.search(value):
        raise TableError(N_("a table's id is 1 to 200 characters without control characters (such as NUL or a "
                            "line break), not {name}"), name=_shown(value))
    return value


def _shown(value: object) -> str:
    """``value`` as a message quotes it: escaped (a control character or a surrogate shown as its code), cut."""
    return repr(value) if not isinstance(value, str) or len(value) <= 60 else repr(value[:60]) + "..."


#: a member's or a character's name (validated by :func:`check_name`, which raises the engine's error)
Name = Annotated[str, AfterValidator(check_name), WithJsonSchema(
    {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": _PATTERN})]
#: a table's id (validated by :func:`check_table_id`, which raises the engine's error)
TableId = Annotated[str, AfterValidator(check_table_id), WithJsonSchema(
    {"type": "string", "minLength": 1, "maxLength": MAX_ID, "pattern": _PATTERN})]

Role = Literal["gm", "player"]
Kind = Literal["join", "roll", "rule", "flip", "adjust", "order", "turn", "character", "undo", "remove", "rekey",
               "readmit", "save", "seed", "end", "clientseed", "reveal"]
#: the steps that change the members, not the state of play (a member joins, is removed, gets a new key, is let
#: back after a removal): never undone, and a watcher reads the table again after one (its members changed)
MEMBER_KINDS = frozenset({"join", "remove", "rekey", "readmit"})
#: the steps of the committed seeds (:mod:`diceengine.table.provable`): a server seed committed or revealed, the
#: table ended, a member's client seed, a secret roll revealed
SEED_KINDS = frozenset({"seed", "end", "clientseed", "reveal"})
#: the steps an undo passes over
KEPT_KINDS = MEMBER_KINDS | SEED_KINDS


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Member(_Data):
    """A person at the table: a name, a role, and the SHA-256 of the secret key they identify with."""

    name: Name
    role: Role = "player"
    key_hash: str = ""


class Character(_Data):
    """A character and its state of play (the JSON of a state class of the ruleset's rules of play,
    named by ``kind``), played by ``owner`` (a member's name; ``None``: the game master's)."""

    name: Name
    owner: Name | None = None
    kind: str
    state: dict[str, Any]


class SavedRoll(_Data):
    """A roll named at the table (:mod:`diceengine.table.aliases`): its expression, system (``None``: the table's)
    and options, and the member who ``saved`` it."""

    expression: str = Field(min_length=1, max_length=1000)
    system: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    saved: str


class Play(_Data):
    """What the rules change: the ruleset's scene (its state of play, as JSON, of the class ``scene_kind``),
    the characters by name, the table's own shared pools (counters by name), the initiative order, whose
    turn it is (an index into ``order``), the round, and the rolls saved by name."""

    scene: dict[str, Any] | None = None
    scene_kind: str | None = None
    characters: dict[str, Character] = Field(default_factory=dict)
    pools: dict[str, int] = Field(default_factory=dict)
    order: list[str] = Field(default_factory=list)
    turn: int = Field(default=0, ge=0)
    round: int = Field(default=1, ge=1)
    saved: dict[str, SavedRoll] = Field(default_factory=dict)


class Odds(_Data):
    """The exact odds of a roll before it was thrown: ``chance`` of success (``None``: the expression has
    none), and where the outcome's ``field`` (its total, or its successes) fell: ``below`` is P(less),
    ``at`` P(exactly that), ``percentile`` their mid-point P(less) + P(equal) / 2 (0.5 on average for fair
    dice)."""

    field: str
    value: float
    below: float
    at: float
    percentile: float
    chance: float | None = None


class Entry(_Data):
    """One step of the log, numbered by ``seq`` (the table's version after it), by ``member``, at ``time``.

    - a roll (``kind="roll"``): ``expression``, ``system``, ``options``, the ``outcome`` fields, every die,
      the ``text``, its ``odds``; ``secret``: readable by the game master only; ``reroll_of``: the roll it
      re-rolls, which stays in the log, marked (``rerolled_by``);
    - a rule of play (``"rule"``): the ``rule``, its ``target`` (``None``: the scene; else a character), its
      ``args``, the ``check`` it calls for (``check_system``, ``check_options``) or its ``result``;
    - every step that changes the state of play keeps it ``before`` and ``after``;
    - an undo (``"undo"``) names the step it ``undoes``; that step is marked ``undone_by``;
    - a member removed (``"remove"``) or given a new key (``"rekey"``): the member in ``target``, nothing of the key;
    - the committed seeds (:mod:`diceengine.table.provable`): a roll derived from the table's server seed records
      the ``commitment`` in force, the roller's ``client_seed``, its ``nonce`` and the ``derivation`` version; a
      secret one its ``sealed`` result (SHA-256 of its result and a ``salt``, the salt read by the game master
      only). A ``"seed"`` step commits a server seed (``commitment``) and reveals the one before (``revealed``);
      ``"end"`` reveals the last; ``"clientseed"`` sets the member's ``client_seed``; ``"reveal"`` shows the
      secret roll it ``reveals`` (its expression, dice, outcome and salt).

    ``rerolled_by`` and ``undone_by`` are derived from the later entries (:func:`marked`), never stored.
    """

    seq: int = Field(ge=1)
    kind: Kind
    member: str
    time: datetime
    secret: bool = False
    expression: str | None = None
    system: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    dice: list[dict[str, Any]] | None = None
    text: str | None = None
    odds: Odds | None = None
    reroll_of: int | None = None
    rule: str | None = None
    target: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    check: str | None = None
    check_system: str | None = None
    check_options: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    before: Play | None = None
    after: Play | None = None
    undoes: int | None = None
    commitment: str | None = None
    client_seed: str | None = None
    nonce: int | None = None
    derivation: int | None = None
    revealed: str | None = None
    sealed: str | None = None
    salt: str | None = None
    reveals: int | None = None
    rerolled_by: int | None = None
    undone_by: int | None = None

    @property
    def redacted(self) -> bool:
        """A secret roll as a player reads it: who rolled and when, nothing of the dice."""
        return self.secret and self.expression is None


class Table(_Data):
    """A game table: its ``id``, ``system`` (a registered system's name), ``version`` (the number of steps in
    its log), the seed its rolls are drawn from (``None``: fresh entropy each roll), the language its rolls
    are written in, its members by name, the state of play and the log.

    A table of committed seeds (:mod:`diceengine.table.provable`) holds its secret ``server_seed`` (hex; stored,
    never shown before its reveal), its SHA-256 ``commitment`` (public), each member's ``client_seeds``, the
    ``nonces`` (each member's rolls since their client seed or the seed's rotation) and whether it has ``ended``.
    ``barred``: the names a game master removed, refused when they join again until a game master lets them back."""

    format: int = FORMAT
    id: TableId
    system: str
    version: int = Field(default=0, ge=0)
    seed: int | None = Field(default=None, ge=0)
    lang: str | None = None
    server_seed: str | None = None
    commitment: str | None = None
    client_seeds: dict[str, str] = Field(default_factory=dict)
    nonces: dict[str, int] = Field(default_factory=dict)
    ended: bool = False
    created: datetime
    members: dict[str, Member] = Field(default_factory=dict)
    barred: tuple[str, ...] = ()
    play: Play = Play()
    log: tuple[Entry, ...] = ()

    def entry(self, seq: int) -> Entry:
        """The step numbered ``seq``."""
        return self.log[seq - 1]

    def gm(self) -> list[str]:
        """The names of the game masters."""
        return [m.name for m in self.members.values() if m.role == "gm"]

    def unstored(self) -> set[str]:
        """The fields left out when the table is stored or exported: ``barred`` while nobody is barred, so that a
        table without a removal reads in a release older than removals that stick."""
        return set() if self.barred else {"barred"}


def marked(log: tuple[Entry, ...] | list[Entry]) -> tuple[Entry, ...]:
    """The log with ``rerolled_by`` and ``undone_by`` derived from the re-rolls and undos in it (an undone
    re-roll no longer marks the roll it re-rolled)."""
    entries = [e.model_copy(update={"rerolled_by": None, "undone_by": None})
               if e.rerolled_by is not None or e.undone_by is not None else e for e in log]
    for e in entries:
        if e.kind == "undo" and e.undoes is not None:
            done = entries[e.undoes - 1]
            entries[e.undoes - 1] = done.model_copy(update={"undone_by": e.seq})
            if done.reroll_of is not None:
                entries[done.reroll_of - 1] = entries[done.reroll_of - 1].model_copy(update={"rerolled_by": None})
        elif e.reroll_of is not None:
            entries[e.reroll_of - 1] = entries[e.reroll_of - 1].model_copy(update={"rerolled_by": e.seq})
    return tuple(entries)
