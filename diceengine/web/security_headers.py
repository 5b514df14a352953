"""The gate every request passes: the headers every answer carries (the page's Content-Security-Policy, scripts
and styles from the server's own files, nothing inline but a script by its hash, nothing from elsewhere;
``nosniff`` and ``no-referrer``), the body limit, and the last refusal (an unforeseen failure's 500 in the error
shape)."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException

from .answers import MAX_BODY, internal_response, too_large_response

__all__ = ["HEADERS", "MAX_BODY", "SecurityHeaders", "TooLarge", "content_security_policy"]

#: the headers every answer carries (unless it sets them itself)
HEADERS: tuple[tuple[bytes, bytes], ...] = ((b"x-content-type-options", b"nosniff"),
                                            (b"referrer-policy", b"no-referrer"))


def content_security_policy(page: str) -> str:
    """The page's Content-Security-Policy: scripts and styles from the server's own files (an inline script only
    by its hash), nothing inline otherwise, nothing from elsewhere."""
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(m.encode("utf-8")).digest()).decode() + "'"
                      for m in re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL))
    return ("default-src 'none'; script-src 'self'" + (" " + hashes if hashes else "") + "; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware, the gate of every answer, fast paths included (they sit inside it): the page's
    Content-Security-Policy (``page`` gives the page's text, served at ``/``), ``nosniff`` and ``no-referrer`` on
    every answer (:data:`HEADERS`, their one definition); a body past ``max_body`` bytes refused (413, the error
    shape); an unforeseen failure answered in the error shape (500) before the server logs it."""

    def __init__(self, app: Any, page: Callable[[], str] | None, max_body: int = MAX_BODY) -> None:
        self.app, self.page, self.max_body = app, page, max_body
        self.policy: bytes | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_page = scope.get("path") == "/" and self.page is not None
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": self._headers(message.get("headers", []), is_page)}
            await send(message)

        length = _content_length(scope)
        try:
            if length is not None and length > self.max_body:
                await too_large_response(scope, self.max_body)(scope, receive, sending)
                return
            await self.app(scope, receive if length is not None else _counted(receive, self.max_body), sending)
        except TooLarge:
            if started:
                raise
            await too_large_response(scope, self.max_body)(scope, receive, sending)
        except Exception:
            if started:
                raise
            await internal_response(scope)(scope, receive, sending)
            raise  # for the server's log

    def _headers(self, given: Any, is_page: bool) -> list[tuple[bytes, bytes]]:
        headers = list(given)
        names = {k.lower() for k, _ in headers}
        if is_page:
            if self.policy is None:
                self.policy = content_security_policy(self.page()).encode()  # type: ignore[misc]
            headers.append((b"content-security-policy", self.policy))
        headers.extend((k, v) for k, v in HEADERS if k not in names)
        return headers


class TooLarge(HTTPException):
    """A request's body went past the limit while it was read (a body sent without its length)."""

    def __init__(self) -> None:
        super().__init__(status_code=413)


def _content_length(scope: Any) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _counted(receive: Any, limit: int) -> Any:
    """``receive`` that raises :class:`TooLarge` once more than ``limit`` bytes of body came."""
    size = 0

    async def counted() -> Any:
        nonlocal size
        message = await receive()
        size += len(message.get("body", b""))
        if size > limit:
            raise TooLarge()
        return message

    return counted
