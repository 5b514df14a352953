"""The API's interactive documentation at ``/docs`` (Swagger UI) and ``/redoc``, served from installed files.

Swagger UI's and ReDoc's scripts come from the ``fastapi-offline`` package (the ``web`` extra), mounted under
``/docs/static``: the pages work offline and load nothing from a CDN. Without that package the pages fall back
to FastAPI's own, which load the scripts from a CDN.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

__all__ = ["STATIC_URL", "install_docs", "static_files"]

#: where the documentation's scripts and styles are served
STATIC_URL = "/docs/static"
# FastAPI's own defaults, without the package
_CDN = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/"
_ICON = "https://fastapi.tiangolo.com/img/favicon.png"


def static_files() -> Path | None:
    """The folder of Swagger UI's and ReDoc's files, from the ``fastapi-offline`` package (``None`` when it is
    not installed)."""
    spec = find_spec("fastapi_offline")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


def install_docs(app: FastAPI, title: str) -> None:
    """``/docs`` and ``/redoc`` for ``app`` (created with ``docs_url=None, redoc_url=None``), from the package's
    files when they are installed."""
    folder = static_files()
    swagger_ui: dict[str, str] = {}
    redoc: dict[str, str] = {}
    fonts = True
    if folder is not None:
        app.mount(STATIC_URL, StaticFiles(directory=folder), name="docs-static")
        swagger_ui = {"js": f"{STATIC_URL}/swagger-ui-bundle.js", "css": f"{STATIC_URL}/swagger-ui.css",
                      "icon": f"{STATIC_URL}/favicon.png"}
        redoc = {"js": f"{STATIC_URL}/redoc.standalone.js", "icon": f"{STATIC_URL}/favicon.png"}
        fonts = False
    openapi = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=openapi, title=f"{title} - Swagger UI",
                                   oauth2_redirect_url="/docs/oauth2-redirect",
                                   swagger_js_url=swagger_ui.get("js", _CDN + "swagger-ui-bundle.js"),
                                   swagger_css_url=swagger_ui.get("css", _CDN + "swagger-ui.css"),
                                   swagger_favicon_url=swagger_ui.get("icon", _ICON))

    @app.get("/docs/oauth2-redirect", include_in_schema=False)
    async def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc_page() -> HTMLResponse:
        return get_redoc_html(openapi_url=openapi, title=f"{title} - ReDoc", with_google_fonts=fonts,
                              redoc_js_url=redoc.get("js", "https://cdn.jsdelivr.net/npm/redoc@2/bundles/redoc.standalone.js"),
                              redoc_favicon_url=redoc.get("icon", _ICON))
