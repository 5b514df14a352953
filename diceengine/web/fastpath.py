"""The hot path of the service: ``POST /api/roll`` answered before the framework's routing.

A roll costs microseconds; the framework's middleware, routing and dependency machinery cost several
times that. This ASGI middleware answers the roll endpoint directly, with the same answers as the
documented route (which still serves it when the application is mounted under a prefix), and passes
every other request on. It sits inside the gate of every answer
(:class:`~diceengine.web.security_headers.SecurityHeaders`): its answers carry the same headers, its bodies
meet the same limit, its refusals are the route's (:mod:`~diceengine.web.answers`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from .answers import caller_language, roll_response, too_large_response
from .offload import Offloader

__all__ = ["ROLL_PATH", "RollFastPath", "read_body"]

ROLL_PATH = "/api/roll"


class RollFastPath:
    """Answers ``POST /api/roll`` (bodies up to ``max_body`` bytes, else 413); passes the rest to ``app``."""

    def __init__(self, app: ASGIApp, max_body: int, offload: Offloader) -> None:
        self.app = app
        self.max_body = max_body
        self.offload = offload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != ROLL_PATH or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        read = await read_body(receive, self.max_body)
        if read is None:
            return
        body, _ = read
        if len(body) > self.max_body:
            await too_large_response(scope, self.max_body)(scope, receive, send)
            return
        response = await roll_response(body, self.offload, lambda: caller_language(scope))
        await response(scope, receive, send)


async def read_body(receive: Receive, limit: int) -> tuple[bytes, bool] | None:
    """A request's body as a hot path reads it, stopping once more than ``limit`` bytes came: ``(body, ended)``,
    ``ended`` false when the rest is still to come (``body`` is what came so far); ``None`` when the client left."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        ended = not message.get("more_body", False)
        if ended or size > limit:
            return b"".join(chunks), ended
