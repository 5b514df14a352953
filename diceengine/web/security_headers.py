"""The headers every answer carries: the page's Content-Security-Policy (scripts and styles from the server's
own files, nothing inline but a script by its hash, nothing from elsewhere), ``nosniff`` and ``no-referrer``."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any

__all__ = ["SecurityHeaders", "content_security_policy"]


def content_security_policy(page: str) -> str:
    """The page's Content-Security-Policy: scripts and styles from the server's own files (an inline script only
    by its hash), nothing inline otherwise, nothing from elsewhere."""
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(m.encode("utf-8")).digest()).decode() + "'"
                      for m in re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL))
    return ("default-src 'none'; script-src 'self'" + (" " + hashes if hashes else "") + "; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware: the page's Content-Security-Policy (``page`` gives the page's text, served at ``/``),
    and ``nosniff`` / ``no-referrer`` on every answer."""

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
                        self.policy = content_security_policy(self.page()).encode()  # type: ignore[misc]
                    headers.append((b"content-security-policy", self.policy))
                if b"x-content-type-options" not in names:
                    headers.append((b"x-content-type-options", b"nosniff"))
                if b"referrer-policy" not in names:
                    headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
