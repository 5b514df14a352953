"""The FastAPI application: JSON endpoints over the public API, and the page at ``/``.

Every refused request answers an :class:`~diceengine.web.models.ErrorResponse` (4xx, or 503 when busy),
never a 500: the engine's errors keep their message and the position of the fault.
"""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException

import diceengine.web.anydice as anydice  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.web.collector as collector  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.web.fights as fights  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.web.models as models  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.web.service as service  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.web.words as words  # noqa: PLR0402 - the module itself, not its package's re-exports

from ..errors import DiceError
from .answers import (
    MAX_BODY,
    busy_response,
    caller_language,
    dice_error_response,
    http_refusal,
    invalid_response,
    roll_response,
)
from .docs import install_docs
from .fastpath import RollFastPath
from .offload import CPU_SECONDS, QUEUE_SECONDS, Busy, Offloader
from .tables import TableSettings, install_cors
from .tables import install as install_tables

__all__ = ["MAX_BODY", "app", "create_app"]

#: answers of the exact endpoints (odds, compare, convert, ladder) kept, by request
CACHE_SIZE = 2048

#: the refusals any route may answer (the gate's: a body too large; a request that does not fit its route)
_EVERYWHERE: dict[int | str, dict[str, Any]] = {
    413: {"model": models.ErrorResponse, "description": "a body past 64 KiB"}, 422: {"model": models.ErrorResponse}}


#: a deterministic endpoint's answer, computed once per distinct request: ``exact(name, fn, request)``
Exact = Callable[[str, Callable[[Any], BaseModel], BaseModel], Awaitable[Response]]


def create_app(workers: int | None = None, cpu_seconds: float = CPU_SECONDS,
               queue_seconds: float = QUEUE_SECONDS, tables: TableSettings | None = None) -> FastAPI:
    """A new application; ``workers`` processes compute exact odds and the other CPU-bound requests
    (default ``$DICE_WEB_WORKERS`` or 1; ``0`` computes them in threads, without a CPU budget), each
    request within ``cpu_seconds`` of CPU, refused as busy after ``queue_seconds`` waiting for a worker;
    ``tables``: where the game tables are kept and who may call from elsewhere (:mod:`~diceengine.web.tables`)."""
    if workers is None:
        workers = int(os.environ.get("DICE_WEB_WORKERS", "1"))
    offload = Offloader(workers, cpu_seconds, queue_seconds)
    app = FastAPI(title="diceengine", version=_version(), lifespan=_lifespan(offload), docs_url=None,
                  redoc_url=None, responses=_EVERYWHERE,
                  description="Roll dice, compute exact odds and compare the Star Wars role-playing game systems.")
    app.state.offload = offload
    # the middleware, innermost first: the hot paths (the roll's here, the table roll's in install_tables), then
    # the gate of every answer (install_tables: security_headers.SecurityHeaders: the headers, the body limit, the
    # last refusal), then CORS, outermost when origins are allowed: every answer, a hot path's too, passes the gate
    app.add_middleware(RollFastPath, max_body=MAX_BODY, offload=offload)
    install_tables(app, tables, _page)
    app.include_router(fights.router)  # POST /api/fight: an encounter compared across its rulesets
    app.include_router(words.router)  # GET /api/words/{lang}: the page's words
    app.include_router(anydice.router)  # POST /api/anydice: an AnyDice program's outputs
    install_docs(app, "diceengine")  # Swagger UI and ReDoc from the package's files, not from a CDN
    install_cors(app)
    _install_refusals(app)

    from starlette.staticfiles import StaticFiles

    app.mount("/static", StaticFiles(packages=[("diceengine.web", "static")]), name="static")

    exact = _exact_answers(offload)
    _install_service_routes(app)
    _install_dice_routes(app, offload, exact)
    _install_compare_routes(app, exact)
    _install_system_routes(app, offload)
    return app


def _lifespan(offload: Offloader) -> Callable[[FastAPI], Any]:
    """What the application does when it starts and stops: its workers, its tables' schema, the collector."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from starlette.concurrency import run_in_threadpool

        await run_in_threadpool(offload.start)
        service.list_systems()
        await run_in_threadpool(app.state.tables.open)  # the schema and migrations before the first request
        collecting = asyncio.get_running_loop().create_task(collector.collect()) if collector.enabled() else None
        try:
            yield
        finally:
            if collecting is not None:
                collecting.cancel()
            offload.stop()
            app.state.tables.close()

    return lifespan


def _exact_answers(offload: Offloader) -> Exact:
    """The answers of the exact endpoints (odds, compare, convert, ladder), the last :data:`CACHE_SIZE` kept."""
    cache: OrderedDict[tuple[str, str], str] = OrderedDict()

    async def exact(name: str, fn: Callable[[Any], BaseModel], req: BaseModel) -> Response:
        """The answer of a deterministic endpoint (exact numbers), computed once per distinct request."""
        key = (name, req.model_dump_json())
        text = cache.get(key)
        if text is None:
            text = await offload.run(service.as_json, fn, req)
            cache[key] = text
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return _json(text)

    return exact


def _install_service_routes(app: FastAPI) -> None:
    """The page, the engine's version and the health check."""

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse(_page(), headers={"Cache-Control": "no-cache"})

    @app.get("/api/about", tags=["service"])
    async def about() -> dict[str, Any]:
        """The engine's version and what it offers beyond the core (a roll's ``lang``, ``render``, ``description``)."""
        return {"version": _version(), "features": service.engine_features()}

    @app.get("/api/health", tags=["service"])
    async def health() -> dict[str, bool]:
        """Always ``{"ok": true}`` (the floor of the load benchmark)."""
        return {"ok": True}


def _install_dice_routes(app: FastAPI, offload: Offloader, exact: Exact) -> None:
    """A roll, the exact odds, a sample."""

    @app.post("/api/roll", response_model=models.RollResponse, responses=models.ERRORS, tags=["dice"],
              openapi_extra=models.body_schema(models.RollRequest))
    async def roll(request: Request) -> Response:
        """Roll an expression: the outcome, every die and the human line (one roll costs microseconds,
        so it runs on the event loop; :class:`~diceengine.web.fastpath.RollFastPath` answers it first)."""
        return await roll_response(await request.body(), offload, lambda: caller_language(request))

    @app.post("/api/odds", response_model=models.OddsResponse, responses=models.ERRORS, tags=["dice"])
    async def odds(req: models.OddsRequest) -> Response:
        """The exact distribution: chances, means, and each field's values with P(=) and P(>=)."""
        return await exact("odds", service.do_odds, req)

    @app.post("/api/sample", response_model=models.SampleResponse, responses=models.ERRORS, tags=["dice"])
    async def sample(req: models.SampleRequest) -> Response:
        """Statistics of many rolls drawn at once."""
        return _json(await offload.run(service.as_json, service.do_sample, req))


def _install_compare_routes(app: FastAPI, exact: Exact) -> None:
    """Checks side by side, a check converted to another system, a difficulty ladder."""

    @app.post("/api/compare", response_model=models.CompareResponse, responses=models.ERRORS, tags=["compare"])
    async def compare(req: models.CompareRequest) -> Response:
        """Checks side by side: chance of success, mean margin, flags, histogram."""
        return await exact("compare", service.do_compare, req)

    @app.post("/api/convert", response_model=models.ConvertResponse, responses=models.ERRORS, tags=["compare"])
    async def convert(req: models.ConvertRequest) -> Response:
        """The checks of another system whose chance of success is closest."""
        return await exact("convert", service.do_convert, req)

    @app.post("/api/ladder", response_model=models.LadderResponse, responses=models.ERRORS, tags=["compare"])
    async def ladder(req: models.LadderRequest) -> Response:
        """A system's difficulty ladder: typical characters against each named difficulty."""
        return await exact("ladder", service.do_ladder, req)


def _install_system_routes(app: FastAPI, offload: Offloader) -> None:
    """The registered systems, their rules, a rule run."""

    @app.get("/api/systems", response_model=list[models.SystemInfo], tags=["systems"])
    async def systems() -> list[models.SystemInfo]:
        """The registered systems: notation, examples, options, rules."""
        return service.list_systems()

    @app.get("/api/systems/{system}/rules", response_model=list[models.RuleInfo], responses=models.ERRORS,
             tags=["systems"])
    async def rules(system: str) -> list[models.RuleInfo]:
        """The rules of a system."""
        return service.list_rules(system)

    @app.post("/api/systems/{system}/rules/{rule}", response_model=models.RuleResponse, responses=models.ERRORS,
              tags=["systems"])
    async def run_rule(system: str, rule: str, req: models.RuleRequest) -> Response:
        """Run a rule with its arguments."""
        return _json(await offload.run(service.as_json, service.run_rule, system, rule, req))


def _install_refusals(app: FastAPI) -> None:
    """Every failure a request meets answered in the error shape (:mod:`~diceengine.web.answers`), in the
    caller's language: the engine's errors, a request that does not fit its model, a busy service, the
    framework's own refusals (an unreadable body, no such page, a method not allowed, a body too large)."""

    @app.exception_handler(DiceError)
    async def on_dice_error(request: Request, err: DiceError) -> JSONResponse:
        return dice_error_response(err, caller_language(request))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        return invalid_response(err.errors(), caller_language(request))

    @app.exception_handler(Busy)
    async def on_busy(request: Request, err: Busy) -> JSONResponse:
        return busy_response(caller_language(request))

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, err: HTTPException) -> JSONResponse:
        return http_refusal(request, err.status_code, err.headers)


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


def _version() -> str:
    from .._version import __version__

    return __version__


_PAGE: str | None = None


def _page() -> str:
    global _PAGE
    if _PAGE is None:
        _PAGE = files("diceengine.web").joinpath("static/index.html").read_text(encoding="utf-8")
    return _PAGE


app = create_app()
