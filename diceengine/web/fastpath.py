"""The hot path of the service: ``POST /api/roll`` answered before the framework's routing.

A roll costs microseconds; the framework's middleware, routing and dependency machinery cost several
times that. This ASGI middleware answers the roll endpoint directly, with the same answers as the
documented route (which still serves it when the application is mounted under a prefix), and passes
every other request on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .answers import error_response, roll_response
from .offload import Offloader

__all__ = ["ROLL_PATH", "RollFastPath"]

ROLL_PATH = "/api/roll"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class RollFastPath:
    """Answers ``POST /api/roll`` (bodies up to ``max_body`` bytes, else 413); passes the rest to ``app``."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_body: int,
                 offload: Offloader) -> None:
        self.app = app
        self.max_body = max_body
        self.offload = offload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != ROLL_PATH or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                response = error_response(413, "too_large", f"the request body is larger than {self.max_body} bytes")
                await response(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await (await roll_response(b"".join(chunks), self.offload))(scope, receive, send)
