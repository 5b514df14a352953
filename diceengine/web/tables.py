"""Game tables over HTTP: the :mod:`diceengine.table` of a group playing online, and its live log.

Every endpoint but the table's creation and a player's joining takes a member's key in the
``Authorization: Bearer KEY`` header: a missing or wrong key is 401, a step the member may not take (a player
on the game master's actions, on another player's character) is 403, both in the engine's JSON error shape.
Every answer is what that member may read: a player never reads the dice of the game master's secret rolls.

A table's id is 128 random bits; knowing it (the join link) is what lets a new player join. The keys are
kept hashed. Each key (or, without a key, each client address) has a small token bucket of requests, and each
client address one of new tables and joins, kept in the tables' database for every server process: 429 when it
is empty.

The live log, ``GET /tables/{id}/events``, is a stream of server-sent events read from the log in the database
by one watcher per server process (:mod:`~diceengine.web.table_events`): several server processes on one
database deliver every step to clients on any of them, in the log's order; a client reconnecting with
``Last-Event-ID`` (or ``?after=N``) resumes after the last step it saw.

The parts: :mod:`~diceengine.web.table_access` (settings, keys, refusals), :mod:`~diceengine.web.ratelimit`,
:mod:`~diceengine.web.table_models` (the bodies), :mod:`~diceengine.web.table_events` (the live log),
:mod:`~diceengine.web.security_headers`, :mod:`~diceengine.web.table_reads` (the endpoints that read); this module
has the endpoints that take a step and puts them all in an application. Every answer that carries a step writes a
roll's text in the request's ``Accept-Language`` (rendered on read from the stored dice when it is not the
table's language).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from ..i18n import N_
from ..table import Table
from ..table import provable as P
from ..table.model import TableId
from .models import ErrorResponse, error_responses
from .ratelimit import TokenBucket
from .security_headers import SecurityHeaders
from .table_access import (
    Key,
    Lang,
    Refused,
    TableSettings,
    TableState,
    client_of,
    key_bucket,
    public,
    refusals,
    refused_response,
)
from .table_events import Hub
from .table_models import (
    AdjustRequest,
    CharacterRequest,
    ClientSeedRequest,
    CreateTableRequest,
    CreateTableResponse,
    FlipRequest,
    JoinRequest,
    JoinResponse,
    OrderRequest,
    ReadmitRequest,
    ReadyResponse,
    RekeyRequest,
    RekeyResponse,
    RemoveRequest,
    RevealRequest,
    RuleOfPlayRequest,
    SaveRollRequest,
    StepResponse,
    TableRollRequest,
)
from .table_reads import read_routes

__all__ = ["Refused", "TableRoutes", "TableSettings", "TokenBucket", "install", "install_cors", "roll_of",
           "router_for"]

#: the parameters of :func:`diceengine.table.rules.roll` no option may set
_ROLL_PARAMETERS = frozenset({"table", "actor", "expression", "system", "secret", "seed", "time", "reroll_of"})
#: the parameters of :func:`diceengine.table.aliases.save_roll` no option may set
_SAVE_PARAMETERS = frozenset({"table", "actor", "name", "expression", "system", "time", "personal"})



class TableRoutes(NamedTuple):
    """The table endpoints, their state, and what the hot path shares with them: ``step(table_id, key, op,
    *args)`` takes a member's step, ``roll_of(req)`` is the step of a roll request."""

    router: APIRouter
    state: TableState
    step: Callable[..., Awaitable[StepResponse]]


def _options(given: dict[str, Any], reserved: frozenset[str]) -> dict[str, Any]:
    """A request's options for a roll, else 400 when one names a parameter of the step itself (its seed, its
    time...: the table's, not options)."""
    taken = sorted(set(given) & reserved)
    if taken:
        raise Refused(400, "value", N_("{name} is not an option of a roll at the table"), name=repr(taken[0]))
    return dict(given)


def roll_of(req: TableRollRequest) -> Callable[..., Table]:
    """The step of a roll request (:func:`diceengine.table.rules.roll` with its fields; ``@NAME`` alone, the roll
    saved as ``NAME``: :func:`~diceengine.table.aliases.roll_saved`), else 400 when an option names one of the
    roll's own parameters."""
    from ..table import rules as R
    from ..table.aliases import roll_saved

    options = _options(req.options, _ROLL_PARAMETERS)
    if req.expression.startswith("@") and req.system is None and not options:
        return functools.partial(roll_saved, name=req.expression[1:].strip(), secret=req.secret)
    return functools.partial(R.roll, expression=req.expression, system=req.system, secret=req.secret, **options)


def save_of(req: SaveRollRequest) -> Callable[..., Table]:
    """The step of a request to save a roll (:func:`diceengine.table.aliases.save_roll` with its fields), else 400
    when an option names one of its own parameters."""
    from ..table.aliases import save_roll

    options = _options(req.options, _SAVE_PARAMETERS)
    return functools.partial(save_roll, name=req.name, expression=req.expression, system=req.system,
                             personal=req.personal, **options)


def router_for(settings: TableSettings) -> TableRoutes:
    """The table endpoints over the store ``settings`` name, their state and their steps."""
    tables = TableState(settings)
    hub = Hub(tables)
    tables.on_close.append(hub.stop)
    router = APIRouter(prefix="/tables", tags=["tables"], responses=error_responses(400, 401, 403, 404, 409, 422, 429))
    step = _stepper(tables, hub)
    _entry_routes(router, tables, hub)
    _play_routes(router, step)
    _bare_routes(router, step)
    _member_routes(router, step)
    read_routes(router, tables, hub)
    return TableRoutes(router, tables, step)


def _stepper(tables: TableState, hub: Hub) -> Callable[..., Awaitable[StepResponse]]:
    """``step(table_id, key, op, *args, lang=None)``: ``op(table, member, *args)`` of
    :mod:`diceengine.table.rules` as the member whose key is ``key``, taken by a writer thread
    (:meth:`TableState.write`): one reading of the table, the step, its commit (taken again on a newer table after
    a conflict); the live logs of this process handed the table as committed; the step answered as the member
    reads it, its roll's text in ``lang`` (:func:`~diceengine.web.table_access.reading_language`)."""
    from ..table import TableAccessError, TableConflict
    from ..table import rules as R
    from ..table.rolls import in_language

    def take(table_id: str, key: str, op: Callable[..., Table], args: tuple[Any, ...], lang: str | None
             ) -> tuple[Table, StepResponse]:
        member: list[str] = []

        def stepped(table: Table) -> Table:
            try:
                name = R.authenticate(table, key)
            except TableAccessError as err:
                if tables.store.load(table_id).version != table.version:  # a key given since (by another process)
                    raise TableConflict(N_("the table {name} moved on while this step was taken on version "
                                           "{expected}: nothing was stored"), name=repr(table_id),
                                        expected=table.version) from None
                raise Refused(401, "unauthorized", err.template, error=err) from None
            member.append(name)
            return op(table, name, *args)

        toll = tables.toll(key_bucket(key))
        with refusals(), tables.writer(table_id):
            try:
                table = tables.store.update(table_id, stepped, retries=5, toll=toll)
            finally:
                tables.buckets.settle()
        shown = in_language(R.readable(table, member[-1], table.log[-1]), lang, table.lang)
        return table, StepResponse(step=shown)

    async def step(table_id: TableId, key: str, op: Callable[..., Table], *args: Any,
                   lang: str | None = None) -> StepResponse:
        table, done = await tables.write(take, table_id, key, op, args, lang)
        hub.arrived(table)
        return done  # type: ignore[no-any-return]

    return step


def _entry_routes(router: APIRouter, tables: TableState, hub: Hub) -> None:
    """A new table, and a player joining one: the two routes without a key (a bucket per client address)."""
    from ..table import rules as R

    @router.post("", response_model=CreateTableResponse, status_code=201)
    async def create_table(req: CreateTableRequest, request: Request) -> CreateTableResponse:
        """A new table, with its game master; the answer holds the game master's key and the join link."""
        who = client_of(request)

        def create() -> CreateTableResponse:
            tables.limit_new(who)
            scene = None
            if req.scene is not None:
                scene = R.state_class(req.system, req.scene.kind).model_validate(req.scene.state)
            table_id = secrets.token_urlsafe(16)
            table, keys = R.new_table(table_id, req.system, req.gm, scene=scene, lang=req.lang, pools=req.pools,
                                       provable=req.provable)
            table = tables.store.create(table)
            return CreateTableResponse(table_id=table_id, gm_key=keys[req.gm], join_link=f"/tables/{table_id}/join",
                                       table=public(table))

        return await tables.write(create)  # type: ignore[no-any-return]

    @router.post("/{table_id}/join", response_model=JoinResponse, status_code=201)
    async def join(table_id: TableId, req: JoinRequest, request: Request) -> JoinResponse:
        """A player joins the table by its link (knowing the table's id is the invitation)."""
        who = client_of(request)
        given: dict[str, str] = {}

        def joined(table: Table) -> Table:
            new, given["key"] = R.join(table, req.name)
            return new

        def enter() -> tuple[Table, JoinResponse]:
            tables.limit_new(who)
            with refusals(), tables.writer(table_id):
                table = tables.store.update(table_id, joined, retries=5)
            return table, JoinResponse(table_id=table_id, name=req.name, player_key=given["key"],
                                       table=public(R.view(table, req.name)))

        table, joined_as = await tables.write(enter)
        hub.arrived(table)
        return joined_as  # type: ignore[no-any-return]


Step = Callable[..., Awaitable[StepResponse]]


def _play_routes(router: APIRouter, step: Step) -> None:
    """The steps of play that take a body: a roll, a rule of play, a character, tokens, pools, the order."""
    from ..table import rules as R

    @router.post("/{table_id}/roll", response_model=StepResponse)
    async def roll(table_id: TableId, req: TableRollRequest, key: Key, lang: Lang) -> StepResponse:
        """Roll, public or secret (a secret roll's dice are for the game master only; answered first by
        :class:`~diceengine.web.table_fastpath.TableRollFastPath`)."""
        return await step(table_id, key, roll_of(req), lang=lang)

    @router.post("/{table_id}/save", response_model=StepResponse)
    async def save(table_id: TableId, req: SaveRollRequest, key: Key) -> StepResponse:
        """Save a roll under a name (``expression`` none: forget it); anyone at the table rolls it as ``@name``
        (a ``personal`` one: only the caller)."""
        return await step(table_id, key, save_of(req))

    @router.post("/{table_id}/rule", response_model=StepResponse)
    async def rule(table_id: TableId, req: RuleOfPlayRequest, key: Key, lang: Lang) -> StepResponse:
        """Apply a rule of play to the scene or to a character (a player: only their own)."""
        if "seed" in req.args:  # a member choosing a rule's dice
            raise Refused(400, "value", N_("a rule's dice come from the table: no seed over HTTP"))
        return await step(table_id, key, R.rule, req.rule, req.target, req.args, lang=lang)

    @router.post("/{table_id}/characters", response_model=StepResponse)
    async def add_character(table_id: TableId, req: CharacterRequest, key: Key) -> StepResponse:
        """A character joins the table (a player adds only their own)."""
        def add(table: Table, member: str) -> Table:
            state = R.state_class(table.system, req.kind).model_validate(req.state)
            return R.add_character(table, member, state, req.name, req.owner)

        return await step(table_id, key, add)

    @router.post("/{table_id}/flip", response_model=StepResponse)
    async def flip(table_id: TableId, req: FlipRequest, key: Key) -> StepResponse:
        """Flip destiny tokens (or any tokens) from one pool to another."""
        return await step(table_id, key, R.flip, req.source, req.to, req.tokens)

    @router.post("/{table_id}/adjust", response_model=StepResponse)
    async def adjust(table_id: TableId, req: AdjustRequest, key: Key) -> StepResponse:
        """Add to or take from a pool."""
        return await step(table_id, key, R.adjust, req.pool, req.delta)

    @router.post("/{table_id}/order", response_model=StepResponse)
    async def order(table_id: TableId, req: OrderRequest, key: Key) -> StepResponse:
        """Set the initiative order (the game master)."""
        return await step(table_id, key, R.set_order, req.order)


def _bare_steps() -> tuple[tuple[str, Callable[..., Table], str], ...]:
    """The steps taken with no body: the route's name (its path), the rule, what it does."""
    from ..table import rules as R

    return (
        ("reroll", R.reroll, "Re-roll the member's last roll (the first stays in the log, marked)."),
        ("undo", R.undo, "Undo the last step that stands (the game master)."),
        ("turn", R.next_turn, "The next in the initiative order acts."),
        ("round", R.next_round, "A new round begins."),
        ("rotate", P.rotate_seed, "The game master reveals the server seed and commits a new one."),
        ("end", P.end_table, "The game master ends the table: its server seed is revealed, no more dice are drawn."),
    )


#: the names of the bare steps' routes in the OpenAPI schema (their operation ids), where not their path
_BARE_NAMES = {"turn": "next_turn", "round": "next_round", "rotate": "rotate_seed"}


def _bare_routes(router: APIRouter, step: Step) -> None:
    """The steps taken with no body (:func:`_bare_steps`), one route each."""
    for path, op, doc in _bare_steps():
        router.add_api_route(f"/{{table_id}}/{path}", _bare_endpoint(step, op), methods=["POST"],
                             response_model=StepResponse, name=_BARE_NAMES.get(path, path), description=doc)


def _bare_endpoint(step: Step, op: Callable[..., Table]) -> Callable[..., Awaitable[StepResponse]]:
    async def endpoint(table_id: TableId, key: Key, lang: Lang) -> StepResponse:
        return await step(table_id, key, op, lang=lang)

    return endpoint


def _member_routes(router: APIRouter, step: Step) -> None:
    """The steps on the members and the dice's seeds: remove, rekey, a client seed, a secret roll revealed."""
    from ..table import rules as R

    @router.post("/{table_id}/remove", response_model=StepResponse)
    async def remove(table_id: TableId, req: RemoveRequest, key: Key) -> StepResponse:
        """Remove a member (the game master; a member may remove themselves): from this step on their key is
        refused on every route, and their open live logs end."""
        return await step(table_id, key, R.remove_member, req.name)

    @router.post("/{table_id}/readmit", response_model=StepResponse)
    async def readmit(table_id: TableId, req: ReadmitRequest, key: Key) -> StepResponse:
        """Let a member the game master removed join again (the game master): until then their name is refused
        at the join link."""
        return await step(table_id, key, R.readmit, req.name)

    @router.post("/{table_id}/rekey", response_model=RekeyResponse)
    async def rekey(table_id: TableId, req: RekeyRequest, key: Key) -> RekeyResponse:
        """A new key for the caller (no ``name``) or, by the game master, for any member: from this step on the
        old key is refused on every route, and its open live logs end."""
        given: dict[str, str] = {}

        def rotate(table: Table, member: str) -> Table:
            new, given["key"] = R.rotate_key(table, member, req.name)
            given["name"] = req.name or member
            return new

        done = await step(table_id, key, rotate)
        return RekeyResponse(name=given["name"], key=given["key"], step=done.step)

    @router.post("/{table_id}/clientseed", response_model=StepResponse)
    async def client_seed(table_id: TableId, req: ClientSeedRequest, key: Key) -> StepResponse:
        """The member sets their own client seed: their next rolls are derived from it too."""
        return await step(table_id, key, P.set_client_seed, req.seed)

    @router.post("/{table_id}/reveal", response_model=StepResponse)
    async def reveal(table_id: TableId, req: RevealRequest, key: Key, lang: Lang) -> StepResponse:
        """The game master reveals a secret roll (its seal in the log checks it)."""
        return await step(table_id, key, P.reveal_secret, req.step, lang=lang)


def install(app: FastAPI, settings: TableSettings | None = None, page: Callable[[], str] | None = None) -> None:
    """Add the table endpoints to ``app`` (and their hot path, unless the settings turn it off), the refusals'
    handler and the page's Content-Security-Policy (``page`` gives the page's text); call :func:`install_cors`
    once the application's other middleware is in."""
    from .table_fastpath import TableRollFastPath

    settings = settings or TableSettings()
    routes = router_for(settings)
    app.include_router(routes.router)
    app.state.tables = routes.state
    app.state.table_settings = settings

    @app.exception_handler(Refused)
    async def on_refused(request: Request, err: Refused) -> JSONResponse:
        return refused_response(request, err)

    @app.get("/api/ready", tags=["service"], response_model=ReadyResponse,
             responses={503: {"model": ErrorResponse, "description": "the tables' database does not answer"}})
    async def ready() -> ReadyResponse:
        """Ready: started (the schema and migrations done before the server listened) and the tables' database
        answering; else 503 ``not_ready``."""
        reason = await routes.state.read(routes.state.ready)
        if reason is not None:
            raise Refused(503, "not_ready", N_("not ready: the tables' database does not answer ({reason})"),
                          {"Retry-After": "1"}, reason=reason)
        return ReadyResponse(ready=True, database=routes.state.store.engine.dialect.name)

    if settings.fast_path:  # inside the security headers: its answers carry them
        app.add_middleware(TableRollFastPath, state=routes.state, step=routes.step, roll_of=roll_of)
    app.add_middleware(SecurityHeaders, page=page)


def install_cors(app: FastAPI) -> None:
    """CORS, outermost, for the origins the settings name, and no other (none: no middleware, so a browser
    served from elsewhere reads no answer)."""
    from starlette.middleware.cors import CORSMiddleware

    origins = app.state.table_settings.origins
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(origins), allow_credentials=False,
                           allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", "Last-Event-ID"])
