"""The request and response bodies of the web service (pydantic: validated in, documented in /docs)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..limits import MAX_EXPRESSION_LENGTH
from ..models import RollModel

__all__ = [
    "ERRORS",
    "MAX_BARS",
    "MAX_CHECKS",
    "MAX_ROLLS",
    "MAX_SAMPLE",
    "MAX_SEED",
    "MAX_TOP",
    "Bar",
    "Check",
    "CheckProfile",
    "CompareRequest",
    "CompareResponse",
    "ConvertRequest",
    "ConvertResponse",
    "ErrorResponse",
    "FieldStatistics",
    "Int",
    "LadderRequest",
    "LadderResponse",
    "LadderRow",
    "MatchModel",
    "OddsRequest",
    "OddsResponse",
    "OptionInfo",
    "OptionValue",
    "RollRequest",
    "RollResponse",
    "RuleInfo",
    "RuleRequest",
    "RuleResponse",
    "SampleRequest",
    "SampleResponse",
    "SystemInfo",
    "body_schema",
    "error_responses",
]

#: rolls in one request
MAX_ROLLS = 100
#: rolls in one bulk sample served over HTTP (the engine allows more to Python callers)
MAX_SAMPLE = 1_000_000
#: checks compared in one request
MAX_CHECKS = 8
#: closest checks returned by convert
MAX_TOP = 20
#: bars of one chart (values of a field) returned by odds and compare; the unlikely tails are cut first
MAX_BARS = 400

#: the largest seed: the largest integer a JSON number carries exactly
MAX_SEED = 2**53 - 1


def whole_number(value: Any) -> Any:
    """A JSON number that is a whole number (``3.0``) as the integer it is; anything else as it came."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: an integer as JSON Schema has it (``3`` or ``3.0``; never ``true`` or ``"3"``, in the request models' strict mode)
Int = Annotated[int, BeforeValidator(whole_number)]
#: a seed (``0`` to :data:`MAX_SEED`)
Seed = Annotated[int, Field(ge=0, le=MAX_SEED), BeforeValidator(whole_number)]
#: a system option's value, as JSON gives it
OptionValue = bool | Int | str
_EXPR: Any = Field(max_length=MAX_EXPRESSION_LENGTH, description="an expression; a 'system:' prefix picks the system")
_SYSTEM: Any = Field(None, max_length=64, description="the ruleset (default: standard, or the expression's prefix)")
#: a check the documented examples make (its system named: the default, standard, reads no ``4D``)
_CHECK = {"expression": "4D+2 vs 15", "system": "d6wild"}


def _example(**body: Any) -> ConfigDict:
    """A strict request model's settings, with ``body`` its documented example (a whole, valid request)."""
    return ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [body]})
_OPTIONS: Any = Field(default_factory=dict, max_length=32, description="system options (see /api/systems)")


class _Strict(BaseModel):
    """A request body: no field but its own, each of its JSON type (no ``false`` for a number, no ``"5"`` for an
    integer: what the schema says is refused is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorResponse(BaseModel):
    """What every refused request answers: the engine's message, and where the fault is."""

    error: str = Field(description="syntax, limit, value, invalid_request, too_large, busy, not_found, "
                                   "unauthorized, forbidden, table_full, conflict, rate_limited, not_ready or "
                                   "unavailable")
    message: str
    expression: str | None = None
    column: int | None = Field(None, description="0-based position of the fault in the expression")
    caret: str | None = Field(None, description="the expression and a caret under the fault, on two lines")


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses`` refusing with ``codes``, each answered as an :class:`ErrorResponse`."""
    return {code: {"model": ErrorResponse} for code in codes}


#: the refusals of a route that computes: a bad expression (400), a body that does not fit or a bound (422), busy
ERRORS = error_responses(400, 422, 503)


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The ``openapi_extra`` of a route that reads its body itself: ``model``'s schema, its required JSON body."""
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


class _Expression(_Strict):
    """A request about an expression, in a system, with its options."""

    expression: str = _EXPR
    system: str | None = _SYSTEM
    options: dict[str, OptionValue] = _OPTIONS


class RollRequest(_Expression):
    """Roll an expression once or ``n`` times."""

    model_config = _example(**_CHECK, n=2)

    seed: Seed | None = Field(None, description="for reproducible rolls")
    n: Int = Field(1, ge=1, le=MAX_ROLLS, description="number of rolls")
    lang: str | None = Field(None, max_length=16, description="language of the human line, when the engine has one")
    format: str | None = Field(None, max_length=16,
                                  description="a renderer of the roll (plain, markdown, html...), when the engine has one")


class RollResponse(BaseModel):
    """The rolls, each with its outcome, every die and its human line (and its rendering, if asked)."""

    system: str
    expression: str
    rolls: list[RollModel]
    rendered: list[str] | None = None


class OddsRequest(_Expression):
    """The exact distribution of an expression."""

    model_config = _example(**_CHECK)

    max_bars: Int = Field(MAX_BARS, ge=1, le=MAX_BARS, description="most values listed per field")


class Bar(BaseModel):
    """One value of a field with its chance."""

    value: int
    p: float = Field(description="P(= value)")
    at_least: float = Field(description="P(>= value)")


class OddsResponse(BaseModel):
    """The exact distribution: chances and means, and each field's values with P(=) and P(>=)."""

    system: str
    expression: str
    fields: list[str]
    chart_fields: list[str] = Field(description="the fields worth a chart, the main one first")
    chances: dict[str, float] = Field(description="P(field) of each yes/no field, and the system's own figures")
    means: dict[str, float]
    stdevs: dict[str, float]
    outcomes: int = Field(description="distinct outcomes of the joint distribution")
    truncated: float = Field(description="probability left out of an infinite explosion series")
    marginals: dict[str, list[Bar]]
    hidden: dict[str, float] = Field(description="probability of the values left out of each list (tails)")


class SampleRequest(_Expression):
    """Roll an expression ``n`` times at once and summarise."""

    model_config = _example(**_CHECK, n=10_000, seed=1)

    n: Int = Field(100_000, ge=1, le=MAX_SAMPLE)
    seed: Seed | None = None


class FieldStatistics(BaseModel):
    """The sampled values of one outcome field."""

    mean: float
    stdev: float
    min: int
    max: int
    share: float | None = Field(None, description="share of true values, for a yes/no field")
    quantiles: dict[str, float] | None = None


class SampleResponse(BaseModel):
    """Statistics of a bulk sample."""

    system: str
    expression: str
    n: int
    seed: int | None
    fields: dict[str, FieldStatistics]


class Check(_Expression):
    """One check of a comparison."""

    model_config = _example(**_CHECK)


class CompareRequest(_Strict):
    """Several checks side by side."""

    model_config = _example(checks=[_CHECK, {"expression": "2a1p vs 2d", "system": "ffg"}])

    checks: list[Check] = Field(min_length=1, max_length=MAX_CHECKS)


class CheckProfile(BaseModel):
    """What a game master wants to know of one check."""

    system: str
    expression: str
    success: float | None = Field(description="chance of success (none: not a check)")
    mean_field: str
    mean: float
    flags: dict[str, float] = Field(description="chance of a complication, triumph, despair...")
    histogram: list[Bar]


class CompareResponse(BaseModel):
    checks: list[CheckProfile]


class ConvertRequest(_Strict):
    """The checks of another system closest in chance of success."""

    model_config = _example(expression="4D+2 vs 15", source="d6wild", target="ffg")

    expression: str = _EXPR
    source: str | None = Field(None, max_length=64, description="the source system (or the expression's prefix)")
    target: str = Field(max_length=64)
    source_options: dict[str, OptionValue] = _OPTIONS
    target_options: dict[str, OptionValue] = _OPTIONS
    top: Int = Field(5, ge=1, le=MAX_TOP)


class MatchModel(BaseModel):
    label: str
    expression: str
    chance: float
    distance: float = Field(description="target - source, in points of probability")


class ConvertResponse(BaseModel):
    system: str
    expression: str
    chance: float
    target: str
    matches: list[MatchModel]


class LadderRequest(_Strict):
    system: str = Field(max_length=64, examples=["d6wild"])
    options: dict[str, OptionValue] = _OPTIONS


class LadderRow(BaseModel):
    character: str
    chances: list[float]


class LadderResponse(BaseModel):
    """Chance of success of each typical character against each named difficulty."""

    system: str
    difficulties: list[str]
    rows: list[LadderRow]


class OptionInfo(BaseModel):
    default: Any
    doc: str
    choices: list[Any] | None = None
    kind: str = Field(description="bool, int or str")


class SystemInfo(BaseModel):
    name: str
    summary: str
    examples: list[str]
    options: dict[str, OptionInfo]
    convertible: bool = Field(description="has a catalogue of checks: a target of convert")
    ladder: bool = Field(description="has a difficulty ladder")
    rules: list[str]
    symbols: dict[str, str] = Field(default_factory=dict,
                                    description="the system's symbols: a die's kind or a symbol on its faces -> its glyph")


class RuleInfo(BaseModel):
    name: str
    signature: str
    doc: str


class RuleRequest(_Strict):
    arguments: dict[str, Any] = Field(default_factory=dict, max_length=32, examples=[{"damage": 12, "strength": 5}])


class RuleResponse(BaseModel):
    system: str
    rule: str
    result: Any
    text: str
