"""The public entry points: roll, sample, distribution, systems."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import diceengine.registry as registry  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.rng as _rng

from .errors import DiceError, DiceLimitError
from .i18n import N_, language, translate_error
from .plan_cache import Meaning, PlanCache
from .registry import Plan, System, get_system, registered_systems
from .rng import Seed, numpy_rng, python_rng, sample_size
from .rolls import Roll

if TYPE_CHECKING:
    from collections.abc import Hashable

    from .distributions import Distribution
    from .samples import Sample

__all__ = ["Expressible", "anydice", "distribution", "plan", "roll", "sample", "systems"]

#: dice drawn at once by a bulk sample (bounds its memory: a few arrays of this many int64)
CHUNK_DICE = 1 << 21
#: prepared plans, bounded in bytes and keyed on meaning (:mod:`diceengine.plan_cache`)
PLANS = PlanCache()
_plans = PLANS.spellings  # the hot path's dictionary: spelling -> plan


def _forget(name: str) -> None:
    """A system replaced: its cached plans were prepared by the one it replaces."""
    PLANS.clear()


registry.on_replace.append(_forget)


def plain_text(value: Any, what: str = N_("an expression")) -> str:
    """``value`` as exactly ``str``: a subclass of ``str`` (``numpy.str_``, a chat library's message type) is
    copied to a plain string, so that nothing the engine keeps (a cached plan, its text) holds the caller's
    type; anything else, ``bytes`` included, is the engine's error."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise DiceError(N_("{what} must be a string, not {kind} (decode it first: .decode('utf-8'))")
                    if isinstance(value, (bytes, bytearray)) else N_("{what} must be a string, not {kind}"),
                    what=[what], kind=type(value).__name__)  # a list: its words are translated


def _plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """Option values with every ``str`` subclass made a plain string (see :func:`plain_text`)."""
    if not any(isinstance(v, str) and type(v) is not str for v in options.values()):
        return options
    return {k: str.__str__(v) if isinstance(v, str) else v for k, v in options.items()}


#: system name -> (the system, its options, what they resolve to when none is given, and their items sorted)
_DEFAULTS: dict[str, tuple[System, Any, dict[str, Any], tuple[tuple[str, Any], ...]]] = {}


def _resolved(sys_: System, options: dict[str, Any]) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
    """``(options resolved, their items sorted)``; those of a system asked with none given, kept (a copy each time)
    unless the system resolves its options itself."""
    if not options:
        found = _DEFAULTS.get(sys_.name)
        if found is not None and found[0] is sys_ and found[1] is sys_.options:
            return dict(found[2]), found[3]
    resolved = sys_.resolve_options(options)
    settings = tuple(sorted(resolved.items(), key=lambda kv: kv[0]))
    if not options and type(sys_).resolve_options is System.resolve_options:
        _DEFAULTS[sys_.name] = (sys_, sys_.options, dict(resolved), settings)
    return resolved, settings


def _parser() -> Any:
    """:mod:`diceengine.parser`, imported on the first expression the quick reader leaves to it (a first roll of the
    commonest expressions never imports it), then read from ``sys.modules`` (a relative import statement reads its
    package's spec in Python each time)."""
    found = sys.modules.get("diceengine.parser")
    if found is None:  # lazy for cold start (above); by its own path, never read through the package diceengine
        import diceengine.parser as found
    return found


def _prepare(key: tuple[Any, ...], expression: str, system: str | System, options: dict[str, Any]) -> Plan:
    if type(system) is not str and not isinstance(system, System):
        system = plain_text(system, N_("a system name"))
    sys_ = get_system(system)
    expression = plain_text(expression)
    options = _plain_options(options)
    resolved, settings = _resolved(sys_, options)
    quick = getattr(sys_, "quick", None)  # the commonest expressions, read and prepared directly
    found = quick(expression, resolved) if quick is not None else None
    if found is None:
        tree, build = _parser().parse(expression, sys_), None
    else:
        tree, build, _ = found
    try:
        meaning: Hashable = Meaning((sys_.name, tree, settings))  # the tree hashed once for the cache's lookups
    except TypeError:  # a tree with an unhashable part: the cache keeps it by its spelling
        meaning = ("spelling", key)
    prepared = PLANS.by_meaning(meaning, expression)
    if prepared is not None:
        PLANS.put(key, meaning, prepared, expression)
        return prepared
    try:
        prepared = build() if build is not None else sys_.prepare(tree, expression, resolved)
    except DiceError as err:
        if err.expression is None and err.column is not None:  # point the caret into this expression
            raise err.at(expression, err.column) from None
        raise
    PLANS.put(key, meaning, prepared, expression, new=True)
    return prepared


def _in_spelling(err: DiceError, expression: str, system: str | System) -> DiceError:
    """``err`` located in ``expression`` when a plan shared by two spellings of one meaning (see
    :mod:`diceengine.plan_cache`) raised it in the other spelling: the caret under the same node in the text typed.
    Only on the way out of a failed call: a successful one pays nothing."""
    if err.expression is None or err.expression == expression:
        return err
    from .ast import counterpart, start
    from .parser import parse

    try:
        sys_ = get_system(system)
        theirs, ours = parse(err.expression, sys_), parse(expression, sys_)
    except DiceError:
        return err
    if theirs != ours:  # not a respelling: the error names another text on purpose
        return err
    column = err.column
    if column is not None:
        found = counterpart(theirs, ours, column)
        column = found if found is not None else (0 if column == 0 else start(ours) or 0)
    return err.at(expression, column)


def _keyed_plan(expression: str, system: str | System, options: dict[str, Any]) -> tuple[Plan, tuple[Any, ...]]:
    """``(plan, key)``: the prepared plan of ``expression`` and its key in the cache of spellings."""
    key = (system, expression, tuple(sorted(options.items()))) if options else (system, expression)
    try:
        found = _plans.get(key)
    except TypeError:
        plain_text(expression)  # an unhashable expression (a list, a bytearray) is not text: say so first
        if not isinstance(system, System):
            plain_text(system, N_("a system name"))
        raise DiceError(N_("option values must be hashable (strings, numbers, booleans)")) from None
    return (found if found is not None else _prepare(key, expression, system, options)), key


def plan(expression: str, system: str | System = "standard", **options: Any) -> Plan:
    """The prepared (parsed, validated, cached) plan of ``expression``."""
    return _keyed_plan(expression, system, options)[0]


def _name(system: str | System) -> str:
    if type(system) is str:
        return system
    return system.name if isinstance(system, System) else plain_text(system, N_("a system name"))


def roll(expression: str, system: str | System = "standard", seed: Seed = None, lang: str | None = None,
         **options: Any) -> Roll:
    """Roll ``expression`` once; the :class:`Roll` keeps every die and explains itself, in ``lang``
    (``"en"``, ``"fr"``; ``None``: English) unless its ``render`` asks for another; an error is said
    in ``lang`` too."""
    if lang is not None:  # checked on every call, a cached plan's too (no roll that cannot say itself)
        language(lang)
    key = (system, expression, tuple(sorted(options.items()))) if options else (system, expression)
    try:
        found = _plans.get(key)
        hashable = True
    except TypeError:  # an unhashable option value: plan() names the problem
        found, hashable = None, False
    if found is None:
        try:
            found = _prepare(key, expression, system, options) if hashable else plan(expression, system, **options)
        except DiceError as err:
            raise translate_error(err, lang) if lang is not None else err
    try:
        outcome, record = found.roll(_rng._default if seed is None else python_rng(seed))
    except DiceError as err:  # an error of the dice thrown (a division by zero...): in the spelling typed
        located = _in_spelling(err, expression, system)
        raise (translate_error(located, lang) if lang is not None else located) from None
    if type(expression) is not str:
        expression = plain_text(expression)
    return Roll(found, outcome, record, expression, system if type(system) is str else _name(system), lang)


def sample(expression: str, n: int, system: str | System = "standard", seed: Seed = None,
           **options: Any) -> Sample:
    """Roll ``expression`` ``n`` times at once (vectorised): one numpy array per outcome field."""
    from .samples import Sample

    sample_size(n)
    prepared = plan(expression, system, **options)
    gen = numpy_rng(seed)
    rows = max(1, CHUNK_DICE // max(1, prepared.dice_per_roll))
    try:
        if n <= rows:
            return Sample(prepared.sample(n, gen), n, _name(system), plain_text(expression))
        parts = [prepared.sample(min(rows, n - start), gen) for start in range(0, n, rows)]
    except DiceError as err:
        raise _in_spelling(err, expression, system) from None
    import numpy as np

    arrays = {field: np.concatenate([part[field] for part in parts]) for field in parts[0]}
    return Sample(arrays, n, _name(system), plain_text(expression))


def distribution(expression: str, system: str | System = "standard", **options: Any) -> Distribution:
    """The exact distribution of ``expression``'s outcome (refused up front when over the work budget)."""
    prepared, key = _keyed_plan(expression, system, options)
    known = PLANS.answer(key)
    if known is not None:  # asked before (in this spelling or another of the same meaning)
        known.system, known.expression = _name(system), plain_text(expression)
        return known  # type: ignore[no-any-return]
    try:
        cost = prepared.exact_cost()
        if cost is not None:
            try:
                cost.check(f"the exact odds of {expression!r}")
            except DiceLimitError as err:
                raise DiceLimitError(err.template, expression, 0, **err.params) from None
        dist = prepared.distribution()
    except DiceError as err:
        raise _in_spelling(err, expression, system) from None
    PLANS.remember(key, dist)
    dist.system, dist.expression = _name(system), plain_text(expression)
    return dist


def anydice(program: str, lang: str | None = None) -> list[Distribution]:
    """The outputs of an AnyDice program (anydice.com's language), exact, in order: each a distribution of one field,
    ``total``, whose ``expression`` is the output's label (one without any outcome, as AnyDice shows nothing, has no
    rows). An error is the engine's, at its line with a caret, said in ``lang``."""
    from .anydice import outputs

    return outputs(plain_text(program, N_("a program")), lang)


def systems() -> dict[str, System]:
    """The registered systems, by name."""
    return registered_systems()


class Expressible:
    """Mixin of a rules object that reads as one expression of one system (a pool built from a
    character, ...): subclasses set ``system_name`` and provide ``expression``."""

    system_name: str

    @property
    def expression(self) -> str:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def roll(self, seed: Seed = None) -> Roll:
        """Roll the expression once."""
        return roll(self.expression, self.system_name, seed=seed)

    def distribution(self) -> Distribution:
        """The exact distribution of the expression."""
        return distribution(self.expression, self.system_name)
