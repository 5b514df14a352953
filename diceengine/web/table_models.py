"""The bodies of the table endpoints (:mod:`diceengine.web.tables`): a pydantic model for every request and
answer, so that each is in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..limits import MAX_EXPRESSION_LENGTH
from ..table import Entry, Fairness, Luck, Table
from ..table.model import Name
from .models import Int, OptionValue

__all__ = [
    "AdjustRequest",
    "CharacterRequest",
    "ClientSeedRequest",
    "CreateTableRequest",
    "CreateTableResponse",
    "FlipRequest",
    "JoinRequest",
    "JoinResponse",
    "LogResponse",
    "LuckResponse",
    "MemberResponse",
    "Mismatch",
    "OrderRequest",
    "ReadmitRequest",
    "ReadyResponse",
    "RekeyRequest",
    "RekeyResponse",
    "RemoveRequest",
    "RevealRequest",
    "RuleOfPlayRequest",
    "SaveRollRequest",
    "StateIn",
    "StepResponse",
    "TableRollRequest",
    "VerifyResponse",
]


class _Strict(BaseModel):
    """A request body: no field but its own, each of its JSON type (no ``false`` for a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class StateIn(_Strict):
    """A state of play of the table's ruleset: the name of its class in the rules of play, and its JSON."""

    kind: str = Field(max_length=100, examples=["Encounter"])
    state: dict[str, Any]


class CreateTableRequest(_Strict):
    """A new table: its ruleset, its game master's name, its scene to start from, its language."""

    system: str = Field(max_length=64, examples=["ffg"])
    gm: Name = Field(examples=["Marion"])
    scene: StateIn | None = None
    lang: str | None = Field(None, max_length=16)
    pools: dict[str, Int] = Field(default_factory=dict, max_length=32)
    provable: bool = Field(True, description="derive the dice from a secret server seed committed by the first step "
                                             "(the default; false: fresh entropy nobody can check afterwards)")


class CreateTableResponse(BaseModel):
    """The new table: its id, the game master's key (keep it: only its hash is stored), the link players join
    by, and the table as the game master reads it."""

    table_id: str
    gm_key: str
    join_link: str
    table: Table


class JoinRequest(_Strict):
    """A player's name at the table."""

    name: Name = Field(examples=["Kira"])


class JoinResponse(BaseModel):
    """The player's key (keep it: only its hash is stored) and the table as they read it."""

    table_id: str
    name: str
    player_key: str
    table: Table


class TableRollRequest(_Strict):
    """A roll at the table: public, or secret (its dice for the game master only)."""

    expression: str = Field(max_length=MAX_EXPRESSION_LENGTH, examples=["2a1p vs 2d"])
    system: str | None = Field(None, max_length=64, description="another ruleset than the table's")
    secret: bool = False
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=32)


class SaveRollRequest(_Strict):
    """A roll saved at the table under ``name`` (then rolled as ``@name`` by anyone there, or only by the caller
    when ``personal``); no ``expression`` forgets the name. Replacing another member's saved roll is the game
    master's."""

    name: str = Field(max_length=100, examples=["attack"], description="letters, digits, - or _, at most 40")
    expression: str | None = Field(max_length=MAX_EXPRESSION_LENGTH, examples=["2a1p vs 2d"])
    system: str | None = Field(None, max_length=64, description="another ruleset than the table's")
    personal: bool = False
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=32)


class RuleOfPlayRequest(_Strict):
    """A rule of play of the table's ruleset, on the scene (``target`` none) or on a character."""

    rule: str = Field(max_length=100, examples=["spend_destiny"])
    target: str | None = Field(None, max_length=100)
    args: dict[str, Any] = Field(default_factory=dict, max_length=32)


class CharacterRequest(_Strict):
    """A character joins the table with its state of play, played by ``owner`` (a member)."""

    name: Name | None = None
    owner: Name | None = Field(None, description="the member who plays it (default: the caller)")
    kind: str = Field(max_length=100)
    state: dict[str, Any]


class FlipRequest(_Strict):
    """Flip tokens from one pool to another (``destiny.light`` to ``destiny.dark``)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    source: str = Field(alias="from", max_length=200, examples=["destiny.light"])
    to: str = Field(max_length=200, examples=["destiny.dark"])
    tokens: Int = Field(1, ge=1, le=1000)


class AdjustRequest(_Strict):
    """Add to (or take from) a pool."""

    pool: str = Field(max_length=200)
    delta: Int = Field(ge=-1_000_000, le=1_000_000)


class OrderRequest(_Strict):
    """The initiative order (the game master's)."""

    order: list[str] = Field(min_length=1, max_length=200)


class StepResponse(BaseModel):
    """The step just taken, as its member reads it."""

    step: Entry


class LogResponse(BaseModel):
    """The table's steps after ``after``, as the member reads them, and the table's version."""

    version: int
    steps: list[Entry]


class MemberResponse(BaseModel):
    """Whose key it is: the member's name and role (a page given a key learns whose seat it opens)."""

    name: str
    role: str


class LuckResponse(BaseModel):
    """Each member's luck and the fairness test over the rolls the member may read."""

    luck: dict[str, Luck]
    fairness: Fairness


class RemoveRequest(JoinRequest):
    """The member to remove from the table (the game master removes anyone; a member may leave)."""


class ReadmitRequest(JoinRequest):
    """The member the game master removed and now lets join again."""


class RekeyRequest(_Strict):
    """Whose key to change: ``name`` (the game master changes anyone's), or none for the caller's own."""

    name: Name | None = Field(None, examples=["Kira"])


class RekeyResponse(BaseModel):
    """The member's new key (keep it: only its hash is stored; the old key is refused from now on) and the step."""

    name: str
    key: str
    step: Entry


class ReadyResponse(BaseModel):
    """The service is ready: started, and its tables' database (``sqlite`` or ``postgresql``) answering."""

    ready: bool
    database: str


class ClientSeedRequest(_Strict):
    """The member's own client seed: their next rolls are derived from it too (the page makes one in the browser)."""

    seed: str = Field(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$", examples=["b3f1c0de"])


class RevealRequest(_Strict):
    """The secret roll the game master reveals, by its step number."""

    step: Int = Field(ge=1)


class Mismatch(BaseModel):
    """A step of the log that does not match (``step`` ``None``: the log as a whole), the kind of mismatch, what."""

    step: int | None
    kind: str
    detail: str


class VerifyResponse(BaseModel):
    """The verification of the log as the member reads it (:func:`diceengine.table.verify`): ``ok``: no step
    tampered with; ``complete``: every die checked; what could not be checked; the commitments in order."""

    ok: bool
    complete: bool
    steps: int
    checked: int
    sealed: int
    pending: int
    legacy: int
    commitments: list[str]
    problems: list[Mismatch]
