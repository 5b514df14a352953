"""The AnyDice endpoint: a program of AnyDice's language (anydice.com) and its outputs, exact.

``POST /api/anydice`` answers what :func:`diceengine.api.anydice` computes: each output's label, mean, standard
deviation and the chance of each value (the page draws AnyDice's views from them). The program runs in a compute
worker under its CPU budget (:mod:`~diceengine.web.offload`), within the language's own budget; a faulty program is
the engine's error at its line, with a caret, in the language asked.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, ValidationError

import diceengine.web.service as service  # noqa: PLR0402 - the module itself, not its package's re-exports

from ..errors import DiceError
from .answers import caller_language, dice_error_response, invalid_response
from .models import ERRORS, _Strict, body_schema

__all__ = ["MAX_PROGRAM", "AnyDiceOutput", "AnyDiceRequest", "AnyDiceResponse", "do_anydice", "router"]

#: longest program a request may send (its JSON body stays within the service's limit of 64 KiB)
MAX_PROGRAM = 60_000


class AnyDiceRequest(_Strict):
    """An AnyDice program."""

    program: str = Field(max_length=MAX_PROGRAM, description="the program's text",
                         examples=['output [highest 2 of 3d6] named "best two"'])
    lang: Literal["en", "fr"] | None = Field(None, description="the language of an error (default: English)")


class AnyDiceOutput(BaseModel):
    """One output: its label, and its value's distribution (empty where AnyDice shows nothing)."""

    label: str
    mean: float | None = Field(description="None for an output without outcomes")
    stdev: float | None
    truncated: float = Field(description="the probability AnyDice's answer lacks (its defect, reproduced)")
    values: list[int]
    probabilities: list[float]


class AnyDiceResponse(BaseModel):
    """Every output of the program, in order."""

    outputs: list[AnyDiceOutput]


def do_anydice(req: AnyDiceRequest) -> AnyDiceResponse:
    """The outputs of ``req``'s program."""
    from ..api import anydice

    outputs = []
    for dist in anydice(req.program, req.lang):
        marginal = dist.marginal()
        empty = not marginal
        outputs.append(AnyDiceOutput(label=dist.expression, mean=None if empty else dist.mean(),
                                     stdev=None if empty else dist.stdev(), truncated=dist.truncated,
                                     values=list(marginal), probabilities=list(marginal.values())))
    return AnyDiceResponse(outputs=outputs)


router = APIRouter(tags=["anydice"])


@router.post("/api/anydice", response_model=AnyDiceResponse, responses=ERRORS,
             openapi_extra=body_schema(AnyDiceRequest))
async def anydice(request: Request) -> Response:
    """The outputs of an AnyDice program, exact (``de.anydice``): labels, means and each value's chance."""
    try:
        req = AnyDiceRequest.model_validate_json(await request.body())
    except ValidationError as err:
        return invalid_response(err.errors(include_url=False, include_context=False))
    lang = caller_language(request)
    if req.lang is None and lang in ("en", "fr"):  # the caller's Accept-Language, as every refusal
        req = req.model_copy(update={"lang": lang})
    try:
        text = await request.app.state.offload.run(service.as_json, do_anydice, req)
    except DiceError as err:  # said in req.lang already, its line first: not translated again (which drops it)
        return dice_error_response(err)
    return Response(text, media_type="application/json")
