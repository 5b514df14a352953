"""Game tables over HTTP: the :mod:`diceengine.table` of a group playing online, and its live log.

Every endpoint but the table's creation and a player's joining takes a member's key in the
``Authorization: Bearer KEY`` header: a missing or wrong key is 401, a step the member may not take (a player
on the game master's actions, on another player's character) is 403, both in the engine's JSON error shape.
Every answer is what that member may read: a player never reads the dice of the game master's secret rolls.

A table's id is 128 random bits; knowing it (the join link) is what lets a new player join. The keys are
kept hashed. Each key (or, without a key, each client address) has a small token bucket of requests: 429
when it is empty.

The live log, ``GET /tables/{id}/events``, is a stream of server-sent events read from the log in the database
(the table's version is polled): several server processes on one database deliver every step to clients on
any of them, in the log's order; a client reconnecting with ``Last-Event-ID`` (or ``?after=N``) resumes after
the last step it saw.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..table import Entry, Fairness, Luck, Table
from .answers import error_response
from .models import ErrorResponse

__all__ = ["Refused", "TableSettings", "TokenBucket", "install", "install_cors", "router_for"]

#: steps returned by one request of the log
MAX_LOG = 10_000


@dataclass
class TableSettings:
    """Where the tables are kept and how they are served: ``db`` a SQLite file's path or a database URL
    (``$DICE_TABLE_DB``, default ``dice-tables.sqlite`` in the working directory); ``origins`` the browser
    origins allowed to call the API from elsewhere (``$DICE_CORS_ORIGINS``, comma-separated; none by
    default); each key's bucket holds ``burst`` requests and refills at ``rate`` a second; the live log
    polls the table's version every ``poll_seconds`` and sends a comment every ``heartbeat_seconds``."""

    db: str = field(default_factory=lambda: os.environ.get("DICE_TABLE_DB", "dice-tables.sqlite"))
    origins: list[str] = field(default_factory=lambda: [o.strip() for o in os.environ.get(
        "DICE_CORS_ORIGINS", "").split(",") if o.strip()])
    rate: float = 20.0
    burst: float = 60.0
    poll_seconds: float = 0.05
    heartbeat_seconds: float = 15.0


class TokenBucket:
    """Requests per key: each key's bucket holds up to ``burst`` tokens, refilled at ``rate`` a second; a
    request takes one (:meth:`take` is false when there is none). At most ``size`` keys are remembered."""

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> bool:
        """Take a token from ``who``'s bucket; false when it is empty."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(who, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[who] = (tokens, now)
                return False
            if len(self._buckets) >= self.size and who not in self._buckets:
                self._buckets.clear()  # a flood of keys: forget them all rather than grow without bound
            self._buckets[who] = (tokens - 1, now)
            return True


class Refused(Exception):
    """A request refused with ``status`` and the engine's error shape."""

    def __init__(self, status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.headers = status, kind, message, headers or {}


# ---- the bodies


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StateIn(_Strict):
    """A state of play of the table's ruleset: the name of its class in the rules of play, and its JSON."""

    kind: str = Field(max_length=100, examples=["Encounter"])
    state: dict[str, Any]


class CreateTableRequest(_Strict):
    """A new table: its ruleset, its game master's name, its scene to start from, its language."""

    system: str = Field(max_length=64, examples=["ffg"])
    gm: str = Field(min_length=1, max_length=100, examples=["Marion"])
    scene: StateIn | None = None
    lang: str | None = Field(None, max_length=16)
    pools: dict[str, int] = Field(default_factory=dict, max_length=32)


class CreateTableResponse(BaseModel):
    """The new table: its id, the game master's key (keep it: only its hash is stored), the link players join
    by, and the table as the game master reads it."""

    table_id: str
    gm_key: str
    join_link: str
    table: Table


class JoinRequest(_Strict):
    """A player's name at the table."""

    name: str = Field(min_length=1, max_length=100, examples=["Kira"])


class JoinResponse(BaseModel):
    """The player's key (keep it: only its hash is stored) and the table as they read it."""

    table_id: str
    name: str
    player_key: str
    table: Table


class TableRollRequest(_Strict):
    """A roll at the table: public, or secret (its dice for the game master only)."""

    expression: str = Field(max_length=2000, examples=["2a1p vs 2d"])
    system: str | None = Field(None, max_length=64, description="another ruleset than the table's")
    secret: bool = False
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)


class RuleOfPlayRequest(_Strict):
    """A rule of play of the table's ruleset, on the scene (``target`` none) or on a character."""

    rule: str = Field(max_length=100, examples=["spend_destiny"])
    target: str | None = Field(None, max_length=100)
    args: dict[str, Any] = Field(default_factory=dict, max_length=32)


class CharacterRequest(_Strict):
    """A character joins the table with its state of play, played by ``owner`` (a member)."""

    name: str | None = Field(None, max_length=100)
    owner: str | None = Field(None, max_length=100)
    kind: str = Field(max_length=100)
    state: dict[str, Any]


class FlipRequest(_Strict):
    """Flip tokens from one pool to another (``destiny.light`` to ``destiny.dark``)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    source: str = Field(alias="from", max_length=200, examples=["destiny.light"])
    to: str = Field(max_length=200, examples=["destiny.dark"])
    tokens: int = Field(1, ge=1, le=1000)


class AdjustRequest(_Strict):
    """Add to (or take from) a pool."""

    pool: str = Field(max_length=200)
    delta: int = Field(ge=-1_000_000, le=1_000_000)


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


class LuckResponse(BaseModel):
    """Each member's luck and the fairness test over the rolls the member may read."""

    luck: dict[str, Luck]
    fairness: Fairness


# ---- the router

_ERR: dict[int | str, dict[str, Any]] = {s: {"model": ErrorResponse} for s in (400, 401, 403, 404, 409, 422, 429)}
_bearer = HTTPBearer(auto_error=False, description="a member's key: the game master's or a player's")


def _who(key: str) -> str:
    return "key:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _public(table: Table) -> Table:
    """The table without its key hashes and without its seed (a seed would tell the dice to come)."""
    members = {n: m.model_copy(update={"key_hash": ""}) for n, m in table.members.items()}
    return table.model_copy(update={"members": members, "seed": None})


@contextmanager
def _refusals() -> Iterator[None]:
    """The table's errors as HTTP refusals: 403 (a step the member may not take), 404, 409."""
    from ..table import TableAccessError, TableConflict, TableNotFound

    try:
        yield
    except TableAccessError as err:
        raise Refused(403, "forbidden", err.message) from None
    except TableNotFound as err:
        raise Refused(404, "not_found", err.message) from None
    except TableConflict as err:
        raise Refused(409, "conflict", err.message) from None


class _Tables:
    """The store (opened at its first use) and the buckets of one application."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.buckets = TokenBucket(settings.rate, settings.burst)
        self._store: Any = None
        self._lock = threading.Lock()

    @property
    def store(self) -> Any:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    from ..table import open_store

                    self._store = open_store(self.settings.db)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def limit(self, who: str) -> None:
        if not self.buckets.take(who):
            raise Refused(429, "rate_limited", "too many requests for this key; slow down",
                          {"Retry-After": str(max(1, round(1 / self.settings.rate)))})

    def seat(self, table_id: str, key: str) -> Any:
        """The member's seat, else 401 (a wrong key) or 404 (no such table)."""
        from ..table import Seat, TableAccessError

        with _refusals():
            try:
                return Seat(self.store, table_id, key, retries=5)
            except TableAccessError:
                raise Refused(401, "unauthorized", "no member of this table has that key") from None


def _client(request: Request) -> str:
    return "addr:" + (request.client.host if request.client else "?")


def _key_of(request: Request, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str:
    """The member's key from ``Authorization: Bearer KEY``, a token taken from its bucket; else 401 / 429."""
    tables: _Tables = request.app.state.tables
    if creds is None or not creds.credentials:
        tables.limit(_client(request))
        raise Refused(401, "unauthorized", "this request needs a member's key: Authorization: Bearer KEY",
                      {"WWW-Authenticate": "Bearer"})
    tables.limit(_who(creds.credentials))
    return creds.credentials


Key = Annotated[str, Depends(_key_of)]


def router_for(settings: TableSettings) -> tuple[APIRouter, _Tables]:
    """The table endpoints over the store ``settings`` name, and their state."""
    from ..table import rules as R

    tables = _Tables(settings)
    router = APIRouter(prefix="/tables", tags=["tables"], responses=_ERR)

    def step(table_id: str, key: str, act: Callable[[Any], Entry]) -> StepResponse:
        seat = tables.seat(table_id, key)
        with _refusals():
            return StepResponse(step=act(seat))

    @router.post("", response_model=CreateTableResponse, status_code=201)
    def create_table(req: CreateTableRequest, request: Request) -> CreateTableResponse:
        """A new table, with its game master; the answer holds the game master's key and the join link."""
        tables.limit(_client(request))
        scene = None
        if req.scene is not None:
            scene = R.state_class(req.system, req.scene.kind).model_validate(req.scene.state)
        table_id = secrets.token_urlsafe(16)
        table, keys = R.new_table(table_id, req.system, req.gm, scene=scene, lang=req.lang, pools=req.pools)
        table = tables.store.create(table)
        return CreateTableResponse(table_id=table_id, gm_key=keys[req.gm], join_link=f"/tables/{table_id}/join",
                                   table=_public(table))

    @router.post("/{table_id}/join", response_model=JoinResponse, status_code=201)
    def join(table_id: str, req: JoinRequest, request: Request) -> JoinResponse:
        """A player joins the table by its link (knowing the table's id is the invitation)."""
        tables.limit(_client(request))
        given: dict[str, str] = {}

        def joined(table: Table) -> Table:
            new, given["key"] = R.join(table, req.name)
            return new

        with _refusals():
            table = tables.store.update(table_id, joined, retries=5)
        return JoinResponse(table_id=table_id, name=req.name, player_key=given["key"],
                            table=_public(R.view(table, req.name)))

    @router.get("/{table_id}", response_model=Table)
    def read_table(table_id: str, key: Key) -> Table:
        """The table as the member reads it: its members, state of play and log."""
        seat = tables.seat(table_id, key)
        with _refusals():
            return _public(seat.table())

    @router.post("/{table_id}/roll", response_model=StepResponse)
    def roll(table_id: str, req: TableRollRequest, key: Key) -> StepResponse:
        """Roll, public or secret (a secret roll's dice are for the game master only)."""
        return step(table_id, key, lambda s: s.roll(req.expression, req.system, req.secret, **req.options))

    @router.post("/{table_id}/reroll", response_model=StepResponse)
    def reroll(table_id: str, key: Key) -> StepResponse:
        """Re-roll the member's last roll (the first stays in the log, marked)."""
        return step(table_id, key, lambda s: s.reroll())

    @router.post("/{table_id}/undo", response_model=StepResponse)
    def undo(table_id: str, key: Key) -> StepResponse:
        """Undo the last step that stands (the game master)."""
        return step(table_id, key, lambda s: s.undo())

    @router.post("/{table_id}/rule", response_model=StepResponse)
    def rule(table_id: str, req: RuleOfPlayRequest, key: Key) -> StepResponse:
        """Apply a rule of play to the scene or to a character (a player: only their own)."""
        if "seed" in req.args:  # a member choosing a rule's dice
            raise Refused(400, "value", "a rule's dice come from the table: no seed over HTTP")
        return step(table_id, key, lambda s: s.rule(req.rule, req.target, **req.args))

    @router.post("/{table_id}/characters", response_model=StepResponse)
    def add_character(table_id: str, req: CharacterRequest, key: Key) -> StepResponse:
        """A character joins the table (a player adds only their own)."""
        def act(s: Any) -> Entry:
            state = R.state_class(s.store.load(table_id).system, req.kind).model_validate(req.state)
            return s.add_character(state, req.name, req.owner)  # type: ignore[no-any-return]

        return step(table_id, key, act)

    @router.post("/{table_id}/flip", response_model=StepResponse)
    def flip(table_id: str, req: FlipRequest, key: Key) -> StepResponse:
        """Flip destiny tokens (or any tokens) from one pool to another."""
        return step(table_id, key, lambda s: s.flip(req.source, req.to, req.tokens))

    @router.post("/{table_id}/adjust", response_model=StepResponse)
    def adjust(table_id: str, req: AdjustRequest, key: Key) -> StepResponse:
        """Add to or take from a pool."""
        return step(table_id, key, lambda s: s.adjust(req.pool, req.delta))

    @router.post("/{table_id}/order", response_model=StepResponse)
    def order(table_id: str, req: OrderRequest, key: Key) -> StepResponse:
        """Set the initiative order (the game master)."""
        return step(table_id, key, lambda s: s.set_order(req.order))

    @router.post("/{table_id}/turn", response_model=StepResponse)
    def next_turn(table_id: str, key: Key) -> StepResponse:
        """The next in the initiative order acts."""
        return step(table_id, key, lambda s: s.next_turn())

    @router.post("/{table_id}/round", response_model=StepResponse)
    def next_round(table_id: str, key: Key) -> StepResponse:
        """A new round begins."""
        return step(table_id, key, lambda s: s.next_round())

    @router.get("/{table_id}/log", response_model=LogResponse)
    def log(table_id: str, key: Key, after: Annotated[int, Query(ge=0)] = 0) -> LogResponse:
        """The steps after ``after``, as the member reads them."""
        seat = tables.seat(table_id, key)
        with _refusals():
            table = seat.table()
        return LogResponse(version=table.version, steps=list(table.log[after:after + MAX_LOG]))

    @router.get("/{table_id}/luck", response_model=LuckResponse)
    def luck(table_id: str, key: Key) -> LuckResponse:
        """Each member's luck (the mean percentile of their rolls) and the fairness test, over the rolls the
        member may read."""
        seat = tables.seat(table_id, key)
        with _refusals():
            return LuckResponse(luck=seat.luck(), fairness=seat.fairness())

    @router.get("/{table_id}/events", response_class=StreamingResponse,
                responses={200: {"content": {"text/event-stream": {}},
                                 "description": "server-sent events: each step (`event: step`, `id:` its number, "
                                                "`data:` its JSON as the member reads it)"}})
    async def events(table_id: str, request: Request, key: Key,
                     after: Annotated[int, Query(ge=0)] = 0,
                     last_event_id: Annotated[str | None, Header()] = None) -> Response:
        """The live log: every step after ``after`` (or the ``Last-Event-ID`` header), then each new one as it is
        stored, by any server process on the same database."""
        start = after
        if last_event_id is not None:
            try:
                start = max(0, int(last_event_id))
            except ValueError:
                raise Refused(400, "value", "Last-Event-ID is a step number") from None
        seat = await run_in_threadpool(tables.seat, table_id, key)
        return StreamingResponse(_stream(tables, seat, request, start), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return router, tables


def _version(store: Any, table_id: str) -> int | None:
    """The stored version of the table (one small query), ``None`` when it is gone."""
    import sqlalchemy as sa

    from ..table.schema import tables

    with store.engine.connect() as conn:
        found = conn.execute(sa.select(tables.c.version).where(tables.c.id == table_id)).scalar()
    return None if found is None else int(found)


def _readable(seat: Any, start: int) -> tuple[int, list[Entry]] | None:
    """The steps after ``start`` as the seat's member reads them; ``None`` when the key no longer opens it."""
    from ..table import TableAccessError
    from ..table import rules as R

    table = seat.store.load(seat.table_id)
    try:
        name = R.authenticate(table, seat._key)
    except TableAccessError:
        return None
    return table.version, [R.readable(table, name, e) for e in table.log[start:]]


async def _stream(tables: _Tables, seat: Any, request: Request, start: int) -> AsyncIterator[bytes]:
    sent = start
    beat = time.monotonic()
    settings = tables.settings
    yield b"retry: 1000\n\n"
    while True:
        version = await run_in_threadpool(_version, tables.store, seat.table_id)
        if version is None:
            return
        if version > sent:
            got = await run_in_threadpool(_readable, seat, sent)
            if got is None:
                return
            _, entries = got
            for e in entries:
                data = e.model_dump_json(exclude={"rerolled_by", "undone_by"})
                yield f"id: {e.seq}\nevent: step\ndata: {data}\n\n".encode()
                sent = e.seq
            beat = time.monotonic()
        elif time.monotonic() - beat > settings.heartbeat_seconds:
            yield b": alive\n\n"
            beat = time.monotonic()
        if await request.is_disconnected():
            return
        await asyncio.sleep(settings.poll_seconds)


# ---- the application


def _csp(page: str) -> str:
    """The page's Content-Security-Policy: scripts and styles from the server's own files (an inline script only
by its hash), nothing inline otherwise, nothing from elsewhere."""
    import base64
    import re

    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(m.encode("utf-8")).digest()).decode() + "'"
                      for m in re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL))
    return ("default-src 'none'; script-src 'self'" + (" " + hashes if hashes else "") + "; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class _SecurityHeaders:
    """ASGI middleware: the page's Content-Security-Policy, and ``nosniff`` / ``no-referrer`` on every answer."""

    def __init__(self, app: Any, page: Callable[[], str] | None) -> None:
        self.app, self.page = app, page
        self.policy: bytes | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_page = scope.get("path") == "/" and self.page is not None

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if is_page:
                    if self.policy is None:
                        self.policy = _csp(self.page()).encode()  # type: ignore[misc]
                    headers.append((b"content-security-policy", self.policy))
                if b"x-content-type-options" not in names:
                    headers.append((b"x-content-type-options", b"nosniff"))
                if b"referrer-policy" not in names:
                    headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def install(app: FastAPI, settings: TableSettings | None = None, page: Callable[[], str] | None = None) -> None:
    """Add the table endpoints to ``app``, the refusals' handler and the page's Content-Security-Policy
    (``page`` gives the page's text); call :func:`install_cors` once the application's other middleware is in."""
    settings = settings or TableSettings()
    router, state = router_for(settings)
    app.include_router(router)
    app.state.tables = state
    app.state.table_settings = settings

    @app.exception_handler(Refused)
    async def on_refused(request: Request, err: Refused) -> JSONResponse:
        response = error_response(err.status, err.kind, err.message)
        response.headers.update(err.headers)
        return response

    app.add_middleware(_SecurityHeaders, page=page)


def install_cors(app: FastAPI) -> None:
    """CORS, outermost, for the origins the settings name, and no other (none: no middleware, so a browser
    served from elsewhere reads no answer)."""
    from starlette.middleware.cors import CORSMiddleware

    origins = app.state.table_settings.origins
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(origins), allow_credentials=False,
                           allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", "Last-Event-ID"])
