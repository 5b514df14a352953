"""The fights endpoint: an encounter (TOML or JSON text, or a JSON object) compared across its rulesets.

``POST /api/fight`` answers what :func:`diceengine.fights.compare` computes, one
:class:`~diceengine.fights.FightOdds` per ruleset. The work runs in a compute worker under its CPU budget
(:mod:`~diceengine.web.offload`); the engine's own bounds apply (at most
:data:`~diceengine.fights.chain.MAX_STATES` health states for exact odds, rounds up to
:data:`~diceengine.fights.encounter.MAX_ROUNDS`). A bad encounter is the engine's error, with a caret
under the fault of a TOML or JSON text.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, BeforeValidator, Field, ValidationError

import diceengine.web.service as service  # noqa: PLR0402 - the module itself, not its package's re-exports

from ..errors import DiceValueError
from ..fights import FightOdds, compare, load_encounter
from ..fights.encounter import MAX_ROUNDS
from ..i18n import N_
from .answers import caller_language, invalid_response
from .models import ERRORS, Int, Seed, _Strict, body_schema, whole_number

__all__ = ["MAX_FIGHTS", "FightRequest", "FightResponse", "do_fight", "router"]

#: fights one request may simulate per ruleset (the CPU budget of a request usually stops it first)
MAX_FIGHTS = 1_000_000
#: most rulesets one request compares
MAX_SYSTEMS = 8

#: a whole encounter (a duel in D6), the documented example of a request's text
_EXAMPLE = ('name = "Duel"\n[d6]\n[[d6.a]]\nname = "Roark"\nattack = "5D"\nstrength = "3D"\ndamage = "5D"\n'
            '[[d6.b]]\nname = "Stormtrooper"\nattack = "4D"\nstrength = "2D"\ndamage = "4D"\n')


class FightRequest(_Strict):
    """An encounter, as text (``format``: ``toml`` or ``json``) or as a JSON object, and how to compute it."""

    text: str | None = Field(None, max_length=60_000, description="the encounter file's text",
                             examples=[_EXAMPLE])
    format: Literal["toml", "json"] = Field("toml", description="the format of `text`")
    encounter: dict[str, Any] | None = Field(None, description="the encounter as a JSON object (instead of text)")
    systems: list[str] | None = Field(None, max_length=MAX_SYSTEMS,
                                      description="the rulesets to compare (default: every one of the encounter)")
    method: Literal["auto", "exact", "simulated"] = Field(
        "auto", description="exact (one combatant a side), simulated, or auto (exact when possible)")
    fights: Int = Field(20_000, ge=1, le=MAX_FIGHTS, description="fights simulated per ruleset")
    seed: Seed | None = Field(None, description="seed of the simulation")
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS), BeforeValidator(whole_number)] | None = Field(
        None, description="rounds in the tables (default: the file's)")


class FightResponse(BaseModel):
    """How the encounter goes in each ruleset."""

    encounter: str
    sides: tuple[str, str]
    rounds: int = Field(description="rounds of the tables (the request's or the file's)")
    results: list[FightOdds]


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _parse(req: FightRequest) -> Any:
    """The encounter's data from the request; the engine's error, a caret under the fault, if it does not parse,
    and when the request gives both a text and an object, or neither (what its schema does not say)."""
    if (req.text is None) == (req.encounter is None):
        raise DiceValueError(N_("give the encounter either as text or as an object, not both or neither"))
    if req.encounter is not None:
        return req.encounter
    text = req.text or ""
    if req.format == "json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise _located(N_("{path}: not valid JSON: {reason}"), err.msg, text, err.lineno, err.colno) from None
        except RecursionError:
            raise DiceValueError(N_("{path}: not valid JSON: {reason}"), path="encounter",
                                 reason=[N_("nested too deeply")]) from None
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        reason = str(err)
        at = _TOML_AT.search(reason)
        if at is None:
            raise DiceValueError(N_("{path}: not valid TOML: {reason}"), path="encounter", reason=reason) from None
        raise _located(N_("{path}: not valid TOML: {reason}"), reason, text, int(at[1]), int(at[2])) from None
    except RecursionError:
        raise DiceValueError(N_("{path}: not valid TOML: {reason}"), path="encounter",
                             reason=[N_("nested too deeply")]) from None


def _located(template: str, reason: str, text: str, line: int, column: int) -> DiceValueError:
    """The engine's error of a text's fault at ``line``, ``column`` (1-based): its line and a caret under it."""
    lines = text.splitlines() or [""]
    shown = lines[min(max(line, 1), len(lines)) - 1]
    if len(shown) > 200:  # a long line: the part around the fault
        start = max(0, column - 100)
        shown, column = shown[start:start + 200], column - start
    return DiceValueError(template, shown, max(column - 1, 0), path="encounter", reason=reason)


def do_fight(req: FightRequest) -> FightResponse:
    """The encounter of ``req`` in each of its rulesets, as :func:`diceengine.fights.compare` computes it."""
    encounter = load_encounter(_parse(req))
    if req.systems is not None:
        if not req.systems:
            raise DiceValueError(N_("bad encounter: {faults}"), faults=[N_("no ruleset asked for")])
        for system in req.systems:
            encounter[system]  # the engine's error naming the rulesets written
    results = compare(encounter, req.systems, req.method, req.fights, req.seed, req.rounds)
    return FightResponse(encounter=encounter.name, sides=encounter.sides,
                         rounds=req.rounds or encounter.rounds, results=results)


router = APIRouter(tags=["fights"])


@router.post("/api/fight", response_model=FightResponse, responses=ERRORS, openapi_extra=body_schema(FightRequest))
async def fight(request: Request) -> Response:
    """An encounter compared across its rulesets: who wins, how often, in how many rounds (exact for a
    duel, simulated otherwise), as ``dice fight compare`` computes it."""
    try:  # the body read by pydantic's own parser: any JSON, however nested, is an answer in the error shape
        req = FightRequest.model_validate_json(await request.body())
    except ValidationError as err:
        return invalid_response(err.errors(include_url=False), caller_language(request))
    text = await request.app.state.offload.run(service.as_json, do_fight, req)
    return Response(text, media_type="application/json")
