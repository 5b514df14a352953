"""What each endpoint computes: plain functions from a request body to a response body.

They raise the engine's :class:`~diceengine.errors.DiceError` on bad input and hold no state, so the
application can run the CPU-bound ones (exact odds, samples, comparisons, the converter, ladders) in
worker processes.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from ..api import distribution, plan, roll, sample, systems
from ..cli import split_system
from ..errors import DiceError, DiceLimitError, DiceValueError
from ..i18n import N_
from ..registry import get_system
from ..rng import python_rng
from .models import (
    Bar,
    CheckProfile,
    CompareRequest,
    CompareResponse,
    ConvertRequest,
    ConvertResponse,
    FieldStatistics,
    LadderRequest,
    LadderResponse,
    LadderRow,
    MatchModel,
    OddsRequest,
    OddsResponse,
    OptionInfo,
    RollRequest,
    RollResponse,
    RuleInfo,
    RuleRequest,
    RuleResponse,
    SampleRequest,
    SampleResponse,
    SystemInfo,
)

__all__ = [
    "bars",
    "do_compare",
    "do_convert",
    "do_ladder",
    "do_odds",
    "do_roll",
    "do_sample",
    "engine_features",
    "list_rules",
    "list_systems",
    "run_rule",
]

#: the system of an expression that names none (the default of :func:`diceengine.roll`)
DEFAULT_SYSTEM: str = inspect.signature(roll).parameters["system"].default

#: dice one roll request may throw in all (its answer lists each die: about 130 bytes apiece)
MAX_REQUEST_DICE = 10_000
#: roll requests throwing up to this many dice are answered on the event loop (well under a millisecond);
#: larger ones go to a worker process
INLINE_DICE = 500

#: a value is listed while its chance is at least this share of the most likely value's
TAIL_SHARE = 1e-6


def as_json(fn: Callable[..., BaseModel], *args: Any) -> str:
    """``fn(*args)`` as JSON text (what crosses from a worker process: cheaper than the model)."""
    return fn(*args).model_dump_json()


def engine_features() -> dict[str, bool]:
    """What the engine offers beyond the core (``/api/about``): a roll's language, renderings, description."""
    return {"lang": True, "render": True, "description": True}


def _target(expression: str, system: str | None) -> tuple[str, str]:
    """The system and expression of a request (a ``system:`` prefix picks the system)."""
    if system:
        get_system(system)
        return system, expression
    if ":" in expression:
        return split_system(expression, None)
    return DEFAULT_SYSTEM, expression


def roll_dice(req: RollRequest) -> int:
    """The dice a roll request throws (explosions and re-rolls aside): what decides where it runs. The
    engine's error if the expression is bad, :class:`~diceengine.errors.DiceLimitError` past
    :data:`MAX_REQUEST_DICE`."""
    try:
        system, expr = _target(req.expression, req.system)
        dice = req.n * plan(expr, system, **req.options).dice_per_roll
    except DiceError as err:
        raise _said_in(err, req.lang) from None
    if dice > MAX_REQUEST_DICE:
        raise DiceLimitError(N_("too many dice in one request: {n} rolls of {dice} dice (at most {max_request_dice} "
                                "in all; ask for fewer rolls)"),
                             n=req.n, dice=dice // req.n, max_request_dice=MAX_REQUEST_DICE)
    return dice


def _said_in(err: DiceError, lang: str | None) -> DiceError:
    """The engine's error in the roll's language, when the engine speaks it (as :func:`diceengine.roll` says it)."""
    from ..i18n import language, translate_error

    try:
        language(lang)
    except DiceError:
        return err
    return err if lang is None else translate_error(err, lang)


def do_roll(req: RollRequest) -> RollResponse:
    """Roll ``req.n`` times, in the request's language, rendered as it asks (``format``)."""
    system, expr = _target(req.expression, req.system)
    rng = python_rng(req.seed) if req.seed is not None else None
    kwargs: dict[str, Any] = {**req.options, **({} if req.lang is None else {"lang": req.lang})}
    made = [roll(expr, system, seed=rng, **kwargs) for _ in range(req.n)]
    rendered = None
    if req.format is not None:
        try:
            rendered = [r.render(req.format) for r in made]
        except (ValueError, KeyError, TypeError) as err:  # an unknown renderer, in whatever way the engine says it
            raise DiceValueError(N_("cannot render as {format}: {err}"), format=repr(req.format), err=str(err)) from None
    return RollResponse(system=system, expression=expr, rolls=[r.model() for r in made], rendered=rendered)


def bars(marginal: Mapping[int, float], limit: int) -> tuple[list[Bar], float]:
    """The values of a marginal with P(=) and P(>=), unlikely tails cut (at most ``limit`` values);
    returns the bars and the probability left out."""
    values = list(marginal)
    probs = [marginal[v] for v in values]
    if not values:
        return [], 0.0
    top = max(probs)
    lo = next(i for i, p in enumerate(probs) if p >= TAIL_SHARE * top)
    hi = len(probs) - next(i for i, p in enumerate(reversed(probs)) if p >= TAIL_SHARE * top)
    while hi - lo > limit:  # drop the less likely end first
        if probs[lo] <= probs[hi - 1]:
            lo += 1
        else:
            hi -= 1
    tail = math.fsum(probs[lo:])
    out = []
    for v, p in zip(values[lo:hi], probs[lo:hi]):
        out.append(Bar(value=int(v), p=p, at_least=min(1.0, max(0.0, tail))))
        tail -= p
    hidden = max(0.0, math.fsum(probs[:lo]) + math.fsum(probs[hi:]))
    return out, hidden


def do_odds(req: OddsRequest) -> OddsResponse:
    """The exact distribution, summarised for a table and a chart."""
    system, expr = _target(req.expression, req.system)
    dist = distribution(expr, system, **req.options)
    prepared = plan(expr, system, **req.options)
    chances: dict[str, float] = {}
    means: dict[str, float] = {}
    stdevs: dict[str, float] = {}
    numeric = []
    for field in dist.fields:
        if dist.columns[field].dtype == bool:
            chances[field] = dist.chance(field)
        else:
            numeric.append(field)
            means[field] = dist.mean(field)
            stdevs[field] = dist.stdev(field)
    extra = getattr(prepared, "odds_summary", None)
    if extra is not None:
        for key, value in extra(dist).items():
            name = key[2:-1] if key.startswith("P(") and key.endswith(")") else key
            chances.setdefault(name, float(value))
    chart = [f for f in (getattr(prepared, "table_fields", None) or numeric[:1]) if f in numeric]
    marginals, hidden = {}, {}
    for field in numeric:
        marginals[field], hidden[field] = bars(dist.marginal(field), req.max_bars)
    return OddsResponse(system=system, expression=expr, fields=dist.fields, chart_fields=chart or numeric[:1],
                        chances=chances, means=means, stdevs=stdevs, outcomes=len(dist), truncated=dist.truncated,
                        marginals=marginals, hidden=hidden)


def do_sample(req: SampleRequest) -> SampleResponse:
    """Statistics of ``req.n`` rolls drawn at once."""
    import numpy as np

    system, expr = _target(req.expression, req.system)
    drawn = sample(expr, req.n, system, seed=req.seed, **req.options)
    stats = {}
    for field, values in drawn.items():
        as_float = values.astype(np.float64)
        if values.dtype == bool:
            stats[field] = FieldStatistics(mean=float(as_float.mean()), stdev=float(as_float.std()),
                                           min=int(values.min()), max=int(values.max()),
                                           share=float(as_float.mean()))
        else:
            qs = np.quantile(as_float, [0.05, 0.25, 0.5, 0.75, 0.95])
            stats[field] = FieldStatistics(mean=float(as_float.mean()), stdev=float(as_float.std()),
                                           min=int(values.min()), max=int(values.max()), share=None,
                                           quantiles=dict(zip(("5%", "25%", "50%", "75%", "95%"), qs.tolist())))
    return SampleResponse(system=system, expression=expr, n=req.n, seed=req.seed, fields=stats)


def do_compare(req: CompareRequest) -> CompareResponse:
    """Each check's chance of success, mean, flags and main histogram."""
    from ..compare import profile

    out = []
    for check in req.checks:
        system, expr = _target(check.expression, check.system)
        p = profile(system, expr, **check.options)
        histogram, _ = bars(p.histogram, 200)
        out.append(CheckProfile(system=system, expression=expr, success=p.success, mean_field=p.mean_field,
                                mean=p.mean, flags=p.flags, histogram=histogram))
    return CompareResponse(checks=out)


def do_convert(req: ConvertRequest) -> ConvertResponse:
    """The chance of success of a check and the closest checks of the target system."""
    from ..compare import convert

    source, expr = _target(req.expression, req.source)
    get_system(req.target)
    chance, matches = convert(expr, source, req.target, req.source_options, req.target_options, req.top)
    return ConvertResponse(system=source, expression=expr, chance=chance, target=req.target,
                           matches=[MatchModel(label=m.label, expression=m.expression, chance=m.chance,
                                               distance=m.distance) for m in matches])


def do_ladder(req: LadderRequest) -> LadderResponse:
    """The system's difficulty ladder."""
    from ..compare import ladder

    names, rows = ladder(req.system, **req.options)
    return LadderResponse(system=req.system, difficulties=names,
                          rows=[LadderRow(character=r, chances=c) for r, c in rows])


def _rules(system_name: str) -> dict[str, Callable[..., Any]]:
    """The rules of a system (its module's ``RULES``), then its rules of play (``<module>_play.RULES``,
    which take and return a state of play), as ``dice rule`` runs them."""
    import importlib

    system = get_system(system_name)
    module = importlib.import_module(type(system).__module__)
    rules = dict(getattr(module, "RULES", {}))
    play = system.rules_of_play()
    if play is None:
        return rules
    for name, fn in getattr(play, "RULES", {}).items():
        rules.setdefault(name, fn)
    return rules


@lru_cache(maxsize=1)
def list_systems() -> list[SystemInfo]:
    """The registered systems with their notation, options and rules."""
    out = []
    for name, s in systems().items():
        options = {key: OptionInfo(default=o.default, doc=o.doc, choices=list(o.choices) if o.choices else None,
                                   kind=(o.kind or type(o.default)).__name__)
                   for key, o in s.options.items()}
        rows, _ = s.ladder()
        out.append(SystemInfo(name=name, summary=s.summary, examples=list(s.examples), options=options,
                              convertible=bool(s.catalogue()), ladder=bool(rows), rules=list(_rules(name)),
                              symbols=dict(getattr(s, "symbols", None) or {})))
    return out


def list_rules(system_name: str) -> list[RuleInfo]:
    """The rules of a system: name, signature and first line of the docstring."""
    return [RuleInfo(name=name, signature=f"{name}{inspect.signature(fn)}",
                     doc=(inspect.getdoc(fn) or "").split("\n\n")[0].replace("\n", " "))
            for name, fn in _rules(system_name).items()]


def run_rule(system_name: str, rule: str, req: RuleRequest) -> RuleResponse:
    """Run one rule with JSON arguments, checked against the rule's signature."""
    from pydantic import ConfigDict, ValidationError, validate_call

    from ..cli.compare import _jsonable, _text

    rules = _rules(system_name)
    fn = rules.get(rule)
    if fn is None:
        raise DiceError(N_("unknown rule {rule} of {system_name} (known: {rules})"), rule=repr(rule),
                        system_name=system_name, rules=", ".join(rules))
    params = inspect.signature(fn).parameters
    args: list[Any] = []
    kwargs = dict(req.arguments)
    for name, param in params.items():
        if param.kind is inspect.Parameter.VAR_POSITIONAL and name in kwargs:
            given = kwargs.pop(name)
            args = list(given) if isinstance(given, list) else [given]
    unknown = [k for k in kwargs if k not in params or params[k].kind is inspect.Parameter.VAR_POSITIONAL]
    if unknown:
        raise DiceError(N_("{rule} takes {params}, not {unknown}"), rule=rule, params=", ".join(params),
                        unknown=", ".join(unknown))
    checked = validate_call(config=ConfigDict(arbitrary_types_allowed=True))(fn)
    try:
        result = checked(*args, **kwargs)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise DiceValueError(N_("{rule}: {where}: {reason}"), rule=rule, where=where, reason=first["msg"]) from None
    except (TypeError, ValueError, KeyError, ArithmeticError) as err:
        raise DiceValueError(N_("{rule}: {err}"), rule=rule, err=str(err)) from None
    return RuleResponse(system=system_name, rule=rule, result=_jsonable(result), text=_text(result))
