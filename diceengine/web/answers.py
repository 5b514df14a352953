"""The service's answers as responses: every refusal in one JSON shape (:class:`~diceengine.web.models.ErrorResponse`),
said in the caller's language, and a roll from a request body.

Every way a request is refused comes here: the engine's errors, a body that does not fit its model (pydantic's
errors, said in the catalogues' words), the framework's own refusals (an unreadable body, no such page, a method
not allowed, a body too large) and an unforeseen failure (500). The caller's language is the first of the
request's ``Accept-Language`` the catalogues have (a roll's own ``lang`` first), else English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response

import diceengine.web.service as service  # noqa: PLR0402 - the module itself, not its package's re-exports

from ..errors import DiceError, DiceLimitError, DiceSyntaxError, caret_line
from ..i18n import DEFAULT_LANGUAGE, N_, accepted_language, gettext, translate_error
from .models import ErrorResponse, RollRequest
from .offload import Busy, Offloader

__all__ = ["busy_response", "caller_language", "dice_error_response", "error_response", "http_refusal",
           "internal_response", "invalid_response", "refusal", "roll_response", "too_large_response"]

#: the largest request body accepted, in bytes (:class:`~diceengine.web.security_headers.SecurityHeaders`)
MAX_BODY = 64 * 1024

TOO_LARGE = N_("the request body is larger than {limit} bytes")
UNREADABLE = N_("the request body could not be read as JSON (UTF-8 text, not nested too deeply)")

#: pydantic's errors by type, in the catalogues' words (filled from the error's context)
_PROBLEMS: dict[str, str] = {key: message for message, keys in (
    (N_("this field is required"), ("missing",)),
    (N_("this field is not expected here"), ("extra_forbidden",)),
    (N_("should be text"), ("string_type", "string_unicode")),
    (N_("should have at least {min_length} characters"), ("string_too_short",)),
    (N_("should have at most {max_length} characters"), ("string_too_long",)),
    (N_("should match {pattern}"), ("string_pattern_mismatch",)),
    (N_("should have at least {min_length} items"), ("too_short",)),
    (N_("should have at most {max_length} items"), ("too_long",)),
    (N_("should be a whole number"), ("int_type", "int_parsing", "int_from_float", "int_parsing_size")),
    (N_("should be a number"), ("float_type", "float_parsing", "finite_number")),
    (N_("should be true or false"), ("bool_type", "bool_parsing")),
    (N_("should be an object"), ("dict_type", "model_type", "model_attributes_type")),
    (N_("should be a list"), ("list_type", "tuple_type")),
    (N_("should be null"), ("none_required",)),
    (N_("should be greater than {gt}"), ("greater_than",)),
    (N_("should be at least {ge}"), ("greater_than_equal",)),
    (N_("should be less than {lt}"), ("less_than",)),
    (N_("should be at most {le}"), ("less_than_equal",)),
    (N_("should be {expected}"), ("literal_error", "enum")),
) for key in keys}
FIELD_PROBLEM = N_("{field}: {problem}")
NOT_VALID = N_("not valid ({reason})")


def error_response(status: int, kind: str, message: str, **extra: Any) -> JSONResponse:
    """A refusal: ``{"error", "message", "expression", "column", "caret"}``."""
    return JSONResponse(ErrorResponse(error=kind, message=message, **extra).model_dump(), status_code=status)


def caller_language(conn: HTTPConnection | Mapping[str, Any]) -> str:
    """The language a request asks for (its ``Accept-Language``, ``conn`` a request or its ASGI scope)."""
    headers = conn.headers if isinstance(conn, HTTPConnection) else Headers(scope=conn)  # type: ignore[arg-type]
    return accepted_language(headers.get("accept-language", ""))


def refusal(conn: HTTPConnection | Mapping[str, Any], status: int, kind: str, template: str,
            headers: Mapping[str, str] | None = None, **params: object) -> JSONResponse:
    """A refusal said in the caller's language: ``template`` a message of the catalogues, filled from ``params``."""
    response = error_response(status, kind, gettext(template, caller_language(conn), **params))
    response.headers.update(headers or {})
    return response


def dice_error_response(err: DiceError, lang: str | None = None) -> JSONResponse:
    """The engine's error as JSON, in ``lang`` when given: 400 for a syntax or value error, 422 for a bound
    reached."""
    if lang is not None and lang != DEFAULT_LANGUAGE:
        err = translate_error(err, lang)
    kind = "syntax" if isinstance(err, DiceSyntaxError) else "limit" if isinstance(err, DiceLimitError) else "value"
    extra: dict[str, Any] = {}
    if err.expression is not None and err.column is not None:
        extra = {"expression": err.expression, "column": err.column, "caret": caret_line(err.expression, err.column)}
    return error_response(422 if kind == "limit" else 400, kind, err.message, **extra)


def invalid_response(errors: Sequence[Any], lang: str = DEFAULT_LANGUAGE) -> JSONResponse:
    """A body (or a parameter) that does not fit its model: 422, naming the first field at fault, in ``lang``."""
    first = errors[0] if errors else {"type": "", "loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":
        return error_response(422, "invalid_request", gettext(UNREADABLE, lang))
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    problem = _problem(first, lang)
    message = gettext(FIELD_PROBLEM, lang, field=where, problem=problem) if where else problem
    return error_response(422, "invalid_request", message)


def _problem(error: Mapping[str, Any], lang: str) -> str:
    """One of pydantic's errors in ``lang``: the catalogues' words for its type, else its own (in English, or
    quoted in another language's sentence)."""
    context = error.get("ctx") or {}
    cause = context.get("error")
    if isinstance(cause, DiceError):
        return translate_error(cause, lang).message
    if isinstance(cause, Exception):  # a validator's message: the catalogues' words when they have them
        return gettext(str(cause), lang)
    template = _PROBLEMS.get(error.get("type", ""))
    if template is not None:
        try:
            return gettext(template, lang, **{k: v for k, v in context.items() if isinstance(v, (str, int, float))})
        except (KeyError, IndexError, ValueError):  # a context without the fields the words need
            pass
    reason = str(error.get("msg", ""))
    return reason if lang == DEFAULT_LANGUAGE else gettext(NOT_VALID, lang, reason=reason)


def http_refusal(conn: HTTPConnection, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The framework's own refusals in the error shape: an unreadable body (422), no such page (404), a method
    not allowed (405, with its ``Allow`` header), a body too large (413), or another status."""
    headers = dict(headers or {})
    path = conn.url.path
    if status == 400:  # the framework could not read the body (not UTF-8, nested too deeply)
        return refusal(conn, 422, "invalid_request", UNREADABLE)
    if status == 404:
        return refusal(conn, 404, "not_found", N_("no such page: {path}"), path=path)
    if status == 405:
        allowed = headers.get("Allow") or headers.get("allow") or ""
        return refusal(conn, 405, "method_not_allowed", N_("{method} is not allowed on {path} (allowed: {allowed})"),
                       {"Allow": allowed}, method=conn.scope.get("method", "?"), path=path, allowed=allowed)
    if status == 413:
        return too_large_response(conn)
    return refusal(conn, status, "refused", N_("this request is refused (HTTP {code})"), headers, code=status)


def too_large_response(conn: HTTPConnection | Mapping[str, Any], limit: int | None = None) -> JSONResponse:
    """413: a body past the service's limit."""
    return refusal(conn, 413, "too_large", TOO_LARGE, limit=limit or MAX_BODY)


def internal_response(conn: HTTPConnection | Mapping[str, Any]) -> JSONResponse:
    """500: a failure of the service itself (a bug: logged by the server), in the error shape."""
    return refusal(conn, 500, "internal", N_("the service failed on this request (the failure is logged); "
                                             "try again, or report it if it lasts"))


def busy_response(lang: str = DEFAULT_LANGUAGE) -> JSONResponse:
    """503: every compute worker stayed busy longer than a request may wait."""
    response = error_response(503, "busy", gettext(N_("every worker is busy; try again in a moment"), lang))
    response.headers["Retry-After"] = "1"
    return response


async def roll_response(body: bytes, offload: Offloader, lang_of: Callable[[], str] = lambda: DEFAULT_LANGUAGE
                        ) -> Response:
    """The answer to a roll request's body: the rolls, or the refusal (in the roll's ``lang``, else in
    ``lang_of()``, asked only for a refusal). A roll of a few dice is answered at once; one of many dice (up to
    :data:`~diceengine.web.service.MAX_REQUEST_DICE`) in a worker."""
    req = None
    try:
        req = RollRequest.model_validate_json(body)
        if service.roll_dice(req) <= service.INLINE_DICE:
            text = service.do_roll(req).model_dump_json()
        else:
            text = await offload.run(service.as_json, service.do_roll, req)
        return Response(text, media_type="application/json")
    except ValidationError as err:
        return invalid_response(err.errors(include_url=False), lang_of())
    except DiceError as err:
        return dice_error_response(err, _lang(req) or lang_of())
    except Busy:
        return busy_response(_lang(req) or lang_of())


def _lang(req: RollRequest | None) -> str | None:
    """The catalogue of a roll request's own ``lang``, if it names one."""
    from ..i18n import language

    if req is None or req.lang is None:
        return None
    try:
        return language(req.lang)
    except DiceError:
        return None
