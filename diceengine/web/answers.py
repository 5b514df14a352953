"""The service's answers as responses: refusals in one JSON shape, and a roll from a request body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from starlette.responses import JSONResponse, Response

import diceengine.web.service as service  # noqa: PLR0402 - the module itself, not its package's re-exports

from ..errors import DiceError, DiceLimitError, DiceSyntaxError, caret_line
from .models import ErrorResponse, RollRequest
from .offload import Busy, Offloader

__all__ = ["busy_response", "dice_error_response", "error_response", "invalid_response", "roll_response"]


def error_response(status: int, kind: str, message: str, **extra: Any) -> JSONResponse:
    """A refusal: ``{"error", "message", "expression", "column", "caret"}``."""
    return JSONResponse(ErrorResponse(error=kind, message=message, **extra).model_dump(), status_code=status)


def dice_error_response(err: DiceError) -> JSONResponse:
    """The engine's error as JSON: 400 for a syntax or value error, 422 for a bound reached."""
    kind = "syntax" if isinstance(err, DiceSyntaxError) else "limit" if isinstance(err, DiceLimitError) else "value"
    extra: dict[str, Any] = {}
    if err.expression is not None and err.column is not None:
        extra = {"expression": err.expression, "column": err.column, "caret": caret_line(err.expression, err.column)}
    return error_response(422 if kind == "limit" else 400, kind, err.message, **extra)


def invalid_response(errors: Sequence[Any]) -> JSONResponse:
    """A body that does not fit the request model: 422, naming the first field at fault."""
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    return error_response(422, "invalid_request", f"{where}: {first.get('msg')}" if where else str(first.get("msg")))


async def roll_response(body: bytes, offload: Offloader) -> Response:
    """The answer to a roll request's body: the rolls, or the refusal. A roll of a few dice is answered
    at once; one of many dice (up to :data:`~diceengine.web.service.MAX_REQUEST_DICE`) in a worker."""
    try:
        req = RollRequest.model_validate_json(body)
        if service.roll_dice(req) <= service.INLINE_DICE:
            text = service.do_roll(req).model_dump_json()
        else:
            text = await offload.run(service.as_json, service.do_roll, req)
        return Response(text, media_type="application/json")
    except ValidationError as err:
        return invalid_response(err.errors(include_url=False, include_context=False))
    except DiceError as err:
        return dice_error_response(err)
    except Busy:
        return busy_response()


def busy_response() -> JSONResponse:
    """503: every compute worker stayed busy longer than a request may wait."""
    response = error_response(503, "busy", "every worker is busy; try again in a moment")
    response.headers["Retry-After"] = "1"
    return response
