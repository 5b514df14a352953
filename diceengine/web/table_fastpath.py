"""The hot path of a table in play: ``POST /tables/{id}/roll`` answered before the framework's routing.

At a table, rolls are most of the requests, and the framework's routing, dependencies and validation cost
several times the roll's own work. This ASGI middleware answers a roll request directly, with the same
answers as the documented route (:func:`diceengine.web.tables.router_for`, whose parts it is given): the same step, the same key check
and bucket, the same refusals. A request it does not take as it is (no JSON body, no ``Bearer`` key, a body
that does not fit :class:`~diceengine.web.table_models.TableRollRequest`) goes on to the route, its body
intact, which answers it in its own words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import DiceError
from ..table.model import check_table_id
from .answers import MAX_BODY, caller_language, dice_error_response
from .fastpath import read_body
from .table_access import Refused, TableState, reading_language, refused_response
from .table_models import StepResponse, TableRollRequest

__all__ = ["TableRollFastPath"]

_PREFIX, _SUFFIX = "/tables/", "/roll"


class TableRollFastPath:
    """Answers ``POST /tables/{id}/roll`` with a JSON body and a member's key; passes the rest to ``app``. It
    takes the route's parts: the tables' ``state`` (the buckets), ``step(table_id, key, op)`` (a member's step,
    as :func:`~diceengine.web.tables.router_for` takes it) and ``roll_of(request)`` (the step of a roll)."""

    def __init__(self, app: ASGIApp, state: TableState, step: Callable[..., Awaitable[StepResponse]],
                 roll_of: Callable[[TableRollRequest], Callable[..., Any]]) -> None:
        self.app, self.state, self.step, self.roll_of = app, state, step, roll_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"] if scope["type"] == "http" else ""
        if scope.get("method") != "POST" or not path.startswith(_PREFIX) or not path.endswith(_SUFFIX):
            await self.app(scope, receive, send)
            return
        table_id = path[len(_PREFIX):-len(_SUFFIX)]
        key: str | None = None
        authorization = content_type = accept_language = None
        for name, value in scope["headers"]:  # the first of each, as the route reads them
            if name == b"accept-language" and accept_language is None:
                accept_language = value.decode("latin-1")
            elif name == b"authorization" and authorization is None:
                authorization = value
                scheme, _, credentials = value.decode("latin-1").partition(" ")
                key = credentials if scheme.lower() == "bearer" and credentials else None
            elif name == b"content-type" and content_type is None:
                content_type = value.split(b";", 1)[0].strip().lower()
        read = await read_body(receive, MAX_BODY)
        if read is None:
            return
        body, ended = read
        if len(body) > MAX_BODY:  # no roll's request: the route reads it (and the rest) and refuses it
            await self.app(scope, _replay(body, receive, more=not ended), send)
            return
        req = None
        if key and content_type == b"application/json" and "/" not in table_id and _is_id(table_id):
            try:
                req = TableRollRequest.model_validate_json(body)
            except ValidationError:
                pass
        if req is None or key is None:  # the route's to answer, in its own words
            await self.app(scope, _replay(body, receive), send)
            return
        response: Response
        try:
            done = await self.step(table_id, key, self.roll_of(req), lang=reading_language(accept_language))
            response = Response(done.model_dump_json(), media_type="application/json")
        except Refused as err:
            response = refused_response(Request(scope), err)
        except DiceError as err:
            response = dice_error_response(err, caller_language(scope))
        await response(scope, receive, send)


def _is_id(table_id: str) -> bool:
    """Whether ``table_id`` may be a table's id (else the route refuses it, in its own words)."""
    try:
        check_table_id(table_id)
    except DiceError:
        return False
    return True


def _replay(body: bytes, receive: Receive, more: bool = False) -> Receive:
    """``receive`` with the body already read given again first (``more``: the rest still to come from
    ``receive``)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return again
