"""The plug-in interface of a ruleset and the registry of systems, keyed by name.

Systems register through the ``diceengine.systems`` entry-point group, the built-in ones too:

.. code-block:: toml

    [project.entry-points."diceengine.systems"]
    mysystem = "mypackage.mysystem:MySystem"

or at run time with :func:`register`. The core names no system.

The contract imports the shared types (:mod:`diceengine.parts`) and the results below it, never a renderer:
the plain text a plan's :meth:`Plan.describe` writes by default is installed by the renderers
(:func:`set_plain_text`) when ``diceengine`` is imported.
"""

from __future__ import annotations

import types
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import DiceError
from .i18n import N_
from .records import dataclass

if TYPE_CHECKING:
    import random

    import numpy as np

    from .distributions import Distribution
    from .limits import Cost
    from .parts import Die

__all__ = ["Option", "Plan", "System", "get_system", "package_text", "register", "registered_systems",
           "set_plain_text", "system_names"]


@dataclass(frozen=True)
class Option:
    """A documented behavioural option of a system (a keyword argument of roll / sample / distribution)."""

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    kind: type | None = None

    def check(self, name: str, value: Any) -> Any:
        """``value`` if it is valid for this option, else the engine's error naming the valid ones."""
        if self.choices is not None:
            if value not in self.choices:
                shown = ", ".join(repr(c) for c in self.choices)
                raise DiceError(N_("option {name}={value} is not one of {shown}"), name=name, value=repr(value),
                                shown=shown)
            return value
        kind = self.kind or type(self.default)
        if kind is bool and not isinstance(value, bool):
            raise DiceError(N_("option {name} must be True or False, not {value}"), name=name, value=repr(value))
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise DiceError(N_("option {name} must be an integer, not {value}"), name=name, value=repr(value))
        return value


def _unset(plan: Plan, outcome: Any, record: Any) -> str:
    raise RuntimeError("no plain text writer installed: importing diceengine installs diceengine.renderers")


_plain: Callable[[Plan, Any, Any], str] = _unset


def set_plain_text(describe: Callable[[Plan, Any, Any], str]) -> None:
    """Install ``describe(plan, outcome, record) -> str``, the plain English line of a roll of a plan (from
    its :meth:`~Plan.explain` parts), which :meth:`Plan.describe` writes when a plan does not override it.
    :mod:`diceengine.renderers` installs its own when ``diceengine`` is imported: the renderers depend on
    the contract, never the reverse."""
    global _plain
    _plain = describe


class Plan(ABC):
    """One expression of one system with its options, prepared once and cached: the three evaluations.

    - :meth:`roll` throws the dice once with a :class:`random.Random` and returns ``(outcome, dice)``:
      the outcome (an instance of the system's outcome type) and the raw record of every die, in a
      form of the plan's choosing; it must do only the work a roll needs.
    - :meth:`dice` turns that raw record into :class:`~diceengine.parts.Die` views, and
      :meth:`explain` into the parts of its text (:mod:`diceengine.parts`: dice, words of the
      catalogues, the result), which the renderers format (plain, Markdown, HTML, symbols) in the
      user's language; :meth:`describe` is the plain English line. A plan overrides ``explain`` (or,
      for plain text only, ``describe``); both run only when asked for, never in :meth:`roll`.
    - :meth:`explainer` (optional, for speed): ``explain`` compiled once per format and language into a
      function writing a roll's text from texts the renderer gave once; ``language_free`` (optional):
      the parts hold no words, so the plain text is ``describe``'s in every language.
      :meth:`dice_json` (optional) writes the dice's JSON faster than one :class:`Die` at a time.
    - :meth:`sample` returns one numpy array of length ``n`` per outcome field that the expression
      has (fields that are ``None`` for it are left out), computed by vectorised numpy code.
    - :meth:`distribution` returns the exact :class:`~diceengine.distributions.Distribution`.
    - :meth:`exact_cost` (optional, recommended) estimates what :meth:`distribution` will cost, from the
      plan alone and without allocating: a :class:`~diceengine.limits.Cost` (work units and peak float64
      cells). ``de.distribution`` refuses in milliseconds with :class:`~diceengine.errors.DiceLimitError`
      when it is over the budget (README, "Bounds"); ``None`` (the default) means not estimated.
    - ``bounds`` (optional): the ``(lo, hi)`` range of a plan's total, proved within the engine's integer
      rule at prepare time (:func:`diceengine.arith.check_bounds`).
    """

    outcome_type: type
    #: dice thrown by one roll (explosions aside): the engine samples in chunks of about 8 million dice
    dice_per_roll: int = 1
    #: its parts hold no words of the catalogues (numbers and marks only): a roll's plain text is
    #: :meth:`describe`'s in every language
    language_free: bool = False

    @abstractmethod
    def roll(self, rng: random.Random) -> tuple[Any, Any]:
        """One roll: ``(outcome, raw dice record)``."""

    @abstractmethod
    def dice(self, record: Any) -> list[Die]:
        """Every die of a roll, in the order thrown."""

    def dice_json(self, record: Any) -> str:
        """The dice of a roll as the items of a JSON array: the JSON of each :class:`~diceengine.parts.Die`
        of :meth:`dice`, comma-separated (a plan may write them faster, never differently)."""
        from .rolljson import dice_json

        return dice_json(self.dice(record))

    def explain(self, outcome: Any, record: Any) -> list[Any]:
        """The parts of a roll's text (:mod:`diceengine.parts`), in order."""
        if type(self).describe is Plan.describe:
            raise NotImplementedError(f"{type(self).__name__} overrides neither explain nor describe")
        return [self.describe(outcome, record)]

    def explainer(self, text: Callable[[Any], str]) -> Callable[[Any, Any], str] | None:
        """Optional: :meth:`explain` compiled for one format and language, for speed. ``text(part)`` is a
        part's text in that format and language; the function returned, ``(outcome, record) -> str``,
        writes exactly what the renderer writes of :meth:`explain`'s parts, joining texts it asked of
        ``text`` once (the faces, words and separators of the plan). ``None`` (the default): the
        renderer walks the parts."""
        return None

    def describe(self, outcome: Any, record: Any) -> str:
        """One human line explaining a roll (plain text, English)."""
        return _plain(self, outcome, record)

    @abstractmethod
    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``n`` rolls at once: one array per outcome field."""

    @abstractmethod
    def distribution(self) -> Distribution:
        """The exact distribution of the outcome."""

    def exact_cost(self) -> Cost | None:
        """What :meth:`distribution` will cost, estimated without computing it (``None``: not estimated)."""
        return None


class System(ABC):
    """A ruleset: the extension point of the engine.

    The contract, all of it:

    - ``name`` (class attribute) is the key the system is registered under; ``summary`` one line
      saying what it rolls; ``examples`` a few expressions in its notation.
    - ``grammar`` names a Lark fragment, a file of the package ``grammar_package`` (by default the package
      of the module that defines the system, so that a plug-in ships its grammar beside its code; the
      built-in rulesets keep theirs in ``diceengine.grammars``), appended to the engine's ``core.lark``
      (``None``: the core arithmetic alone). The fragment adds atoms with ``%extend atom: ...`` and may
      ``%override ?start``. Every rule the fragment adds is built by
      the frozen dataclass of the same name (snake case) found among :meth:`ast_modules` (by
      default, the module that defines the system).
    - ``outcome`` is the outcome type: a ``NamedTuple`` (or frozen, slotted dataclass) whose fields
      are the system's outcome fields; fields an expression does not produce are ``None``.
    - ``options`` maps each option name to its :class:`Option`. Every behavioural difference
      between tables is such an option, never a hidden branch.
    - :meth:`prepare` turns a parsed tree into a :class:`Plan` (validate here: a bad expression must
      raise :class:`~diceengine.errors.DiceError` with the position of the fault, never another
      exception). Plans are cached by the engine, so prepare once, roll many times.
    - Optionally, :meth:`catalogue` and :meth:`ladder` describe typical checks, for comparing systems;
      :meth:`rules_of_play` gives the module of the ruleset's state of play (its ``RULES``, as ``dice rule``
      runs them), and :meth:`fight_rules` its combat (:class:`diceengine.fights.rules.FightRules`), to the
      fights layer. Both are explicit hooks: nothing is found by the name of a module.
    - Optionally, what a syntax error says in the system's words: :meth:`token_words` (the words of its grammar's
      tokens, beside the core's table :data:`diceengine.hints.TERMINAL_WORDS`) and :meth:`modifier_letters` (the
      spellings in letters of its modifiers, which "did you mean" proposes). Both are empty by default (the core's
      words alone, no modifier proposed). The core imports no ruleset: the parser asks the system reading the text.
    - Optionally, ``symbols`` maps the names the system's parts use (die kinds, narrative symbols,
      ``"kind:value"`` faces) to Unicode symbols, for the ``symbols`` renderer; its human words
      (die kinds, symbols, outcomes, difficulty names, summary, option help) are messages of the
      catalogues (marked with :func:`diceengine.i18n.N_`).
    - Systems may expose their rules (modifiers, damage tables, costs) as plain functions in their
      module; the command line lists them with ``dice systems``.
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    examples: ClassVar[Sequence[str]] = ()
    grammar: ClassVar[str | None] = None
    grammar_package: ClassVar[str | None] = None
    outcome: ClassVar[type]
    options: ClassVar[Mapping[str, Option]] = {}
    symbols: ClassVar[Mapping[str, str]] = {}

    def catalogue(self) -> Sequence[tuple[str, str]]:
        """``(label, expression)`` of the checks a game master would consider in this system: what
        ``dice convert`` searches. Empty: the system cannot be a conversion target."""
        return ()

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        """``(characters, difficulties)``: ``(label, text)`` pairs; ``f"{character} vs {difficulty}"``
        is a check. What ``dice ladder`` tabulates."""
        return (), ()

    def fight_rules(self) -> Any:
        """The ruleset's combat (a :class:`diceengine.fights.rules.FightRules`), or ``None`` (the default): the
        ruleset has no damage rules and cannot fight. The combat depends on the ruleset, never the other way
        round: a system imports its combat here, when asked."""
        return None

    def rules_of_play(self) -> types.ModuleType | None:
        """The module of the ruleset's state of play (its ``RULES``: functions that take a state of play and
        return a :class:`~diceengine.systems.play.Step`), or ``None`` (the default)."""
        return None

    def token_words(self) -> Mapping[str, str]:
        """Token name of the system's grammar -> the words a syntax error names it by (a message of the catalogues,
        marked with :func:`~diceengine.i18n.N_`), in the order a message lists them, after the core's number and
        before its operators (:func:`diceengine.hints.terminal_words`); they win over the core's table, which names
        only the core grammar's tokens, for a token both name; a key of several names (``"INT PERCENT FUDGE"``)
        names tokens expected together. Empty (the default): the core's words alone."""
        return {}

    def modifier_letters(self) -> frozenset[str]:
        """The spellings in letters of the notation's modifiers (``kh``, ``mt``): a syntax error right after dice
        proposes the nearest ("unknown modifier 'hk': did you mean kh?"). Empty (the default): none proposed."""
        return frozenset()

    def grammar_source(self) -> str | None:
        """The text of the system's grammar fragment (``None``: the core arithmetic alone), read from
        ``grammar_package`` (default: the package of the module that defines the system)."""
        if self.grammar is None:
            return None
        package = self.grammar_package
        if package is None:
            import sys

            module = sys.modules[type(self).__module__]
            package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
        if not package:
            raise DiceError(N_("system {name}: its grammar {grammar} needs a package to live in (define the system "
                               "in a package, or set grammar_package)"),
                            name=repr(self.name), grammar=repr(self.grammar))
        try:
            return package_text(package, self.grammar)
        except (FileNotFoundError, ModuleNotFoundError) as err:
            raise DiceError(N_("system {name}: its grammar {grammar} is not in package {package} ({err})"),
                            name=repr(self.name), grammar=repr(self.grammar), package=repr(package), err=str(err)) from None

    def ast_modules(self) -> Sequence[types.ModuleType]:
        """Modules holding the node classes of the system's grammar fragment (default: the module
        that defines the system)."""
        import sys

        return (sys.modules[type(self).__module__],)

    @abstractmethod
    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        """The :class:`Plan` of a parsed expression under these (already validated) options."""

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """All options with defaults filled in; unknown or invalid ones raise the engine's error."""
        unknown = set(given) - set(self.options)
        if unknown:
            valid = ", ".join(sorted(self.options)) or "none"
            raise DiceError(N_("unknown option(s) for system {system}: {unknown} (valid: {valid})"),
                            system=repr(self.name), unknown=", ".join(sorted(unknown)), valid=valid)
        resolved = {name: opt.default for name, opt in self.options.items()}
        for name, value in given.items():
            resolved[name] = self.options[name].check(name, value)
        return resolved

    def __repr__(self) -> str:
        return f"<system {self.name}>"


def package_text(package: str, name: str) -> str:
    """The text of the file ``name`` of ``package`` (UTF-8): read from the package's folder when it has one, else
    through :mod:`importlib.resources` (a zipped package; its import costs a first roll several milliseconds)."""
    import importlib
    import os

    for folder in getattr(importlib.import_module(package), "__path__", None) or ():
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
    from importlib import resources

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


_registry: dict[str, System] = {}


#: called with a system's name when :func:`register` replaces it (the engine's caches forget its plans)
on_replace: list[Callable[[str], None]] = []


def register(system: System | type[System], *, replace: bool = False) -> System:
    """Register a system (class or instance) under its ``name``; returns the instance. ``replace=True`` puts
    it in place of a system of that name, and nothing prepared by the one replaced is used again."""
    instance = system() if isinstance(system, type) else system
    if not isinstance(instance, System):
        raise TypeError(f"{system!r} is not a diceengine System")
    existing = _registry.get(instance.name)
    if existing is not None and not replace and type(existing) is not type(instance):
        raise DiceError(N_("a system named {name} is already registered"), name=repr(instance.name))
    if existing is None or replace:
        _registry[instance.name] = instance
        if existing is not None and existing is not instance:
            for hook in on_replace:
                hook(instance.name)
    return _registry[instance.name]


class _Shipped:
    """A system shipped with the engine, the package ``diceengine.systems.<name>`` exporting a :class:`System` of
    that name: loaded as its entry point would be, without reading every installed distribution's metadata for the
    entry points first (a tenth of a second in a large environment)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    @staticmethod
    def find(name: str) -> _Shipped | None:
        """The shipped system called ``name``, or None (a plug-in's, or none)."""
        import importlib.util

        if not name.isidentifier():
            return None
        try:
            spec = importlib.util.find_spec(f"{__package__}.systems.{name}")
        except (ImportError, ValueError):
            return None
        return _Shipped(name) if spec is not None and spec.submodule_search_locations is not None else None

    def load(self) -> Any:
        import importlib

        module = importlib.import_module(f"{__package__}.systems.{self.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, System) and value.__dict__.get("name") == self.name:
                return value
        raise LookupError(f"no system {self.name!r} in {module.__name__}")


#: the entry-point group of a modifier a plug-in adds to the standard notation (its contract:
#: :class:`diceengine.systems.standard.modifiers.FaceMap`, read by that system, not by the core)
MODIFIER_GROUP = "diceengine.modifiers"


def entry_points_of(group: str = "diceengine.systems") -> dict[str, Any]:
    """The installed entry points of ``group`` (the systems', or :data:`MODIFIER_GROUP`) by name, not loaded."""
    from importlib.metadata import entry_points  # imported on first use: it is slow to import

    return {ep.name: ep for ep in entry_points(group=group)}


def _load(ep: Any) -> System:
    try:
        loaded: type[System] | System = ep.load()
    except Exception as err:  # a broken third-party plug-in must not break the others
        raise DiceError(N_("system {name} failed to load: {err}"), name=repr(ep.name), err=str(err)) from err
    return register(loaded)


def get_system(name: str | System) -> System:
    """The registered system called ``name`` (loading its entry point on first use)."""
    if type(name) is not str and isinstance(name, System):  # a name: no look through the ABC's subclass caches
        return name
    system = _registry.get(name)
    if system is not None:
        return system
    if not isinstance(name, str):
        raise DiceError(N_("a system is named by a string, not {kind}"), kind=type(name).__name__)
    ep: Any = _Shipped.find(name)
    if ep is None:
        ep = entry_points_of().get(name)
    if ep is None:
        names = system_names()
        known = ", ".join(names) or "none"
        from .hints import closest

        guess = closest(name, names, 0.6)
        if guess is not None:
            raise DiceError(N_("unknown system {name}: did you mean {guess}? (registered: {known})"), name=repr(name),
                            guess=guess, known=known)
        raise DiceError(N_("unknown system {name} (registered: {known})"), name=repr(name), known=known)
    return _load(ep)


def system_names() -> list[str]:
    """Names of the registered systems and of the installed entry points, without loading them."""
    return sorted(set(_registry) | set(entry_points_of()))


def registered_systems() -> dict[str, System]:
    """Every registered system, by name (a plug-in that fails to load is left out with a warning)."""
    import warnings

    for ep_name, ep in entry_points_of().items():
        if ep_name not in _registry:
            try:
                _load(ep)
            except DiceError as err:
                warnings.warn(str(err), RuntimeWarning, stacklevel=2)
    return dict(sorted(_registry.items()))
