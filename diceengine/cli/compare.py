"""The comparison commands of ``dice``: compare, convert, ladder, and the rules runner."""

from __future__ import annotations

import argparse
import dataclasses
import enum
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, get_type_hints

from ..errors import DiceError
from ..i18n import N_, gettext
from .args import percent

__all__ = ["add_commands"]

# the words of the tables (numbers are formatted as in English)
CHECK, SUCCESS, MEAN, FLAGS = N_("check"), N_("success"), N_("mean"), N_("flags")
SPREAD = N_("({field} {low}..{high})")
LADDER_TITLE = N_("{system}: chance of success")
CONVERT_LADDER_TITLE = N_("{source} -> {target}: nearest check for each character and difficulty")
SUCCEEDS = N_("{system}: {expression}  succeeds {chance}")
CLOSEST = N_("closest in {target}:")
POINTS = N_("{distance} points")
# the rules runner
NO_RULES = N_("{system} has no rules to run")
RULES_OF = N_("rules of {system}:")
RULES_OF_PLAY = N_("rules of play of {system} (state=JSON, new state and the check to roll; {module}):")
ARGUMENTS = N_("(each argument as name=value; [optional])")
#: how an argument of a rule is written, by the kind of value it takes
NUMBER, TEXT, CODE, POOL, JSON_OF, LIST_OF, NAMES = (
    N_("NUMBER"), N_("TEXT"), N_("CODE"), N_("POOL"), N_("{{{kind} as JSON}}"), N_("{kind},..."), N_("NAME ..."))
YES_NO_CHOICE = N_("yes|no")
#: booleans of a rule's result, said in the user's language (``True`` / ``False`` in English)
TRUE, FALSE = N_("True"), N_("False")


YES_NO = N_("(fails {no}, succeeds {yes})")


def _profiles(args: argparse.Namespace) -> list[Any]:
    from ..compare import profile
    from .args import parse_options, split_system
    from .checks import is_check

    options = parse_options(args.option)
    profiles = []
    for spec in args.checks:
        system, expr = split_system(spec, args.system)
        found = profile(system, expr, **options)
        if found.success is None and found.mean_field == "total" and is_check(system, expr, options):
            found = dataclasses.replace(found, success=found.histogram.get(1, 0.0))
        profiles.append(found)
    return profiles


def cmd_compare(args: argparse.Namespace) -> int:
    from .args import columns, sparkline, trim

    profiles = _profiles(args)
    if args.json:
        print(json.dumps([{**dataclasses.asdict(p), "histogram": {str(k): v for k, v in p.histogram.items()}}
                          for p in profiles], indent=2))
    else:
        lang = args.lang
        rows: list[list[str]] = [[gettext(CHECK, lang), gettext(SUCCESS, lang), gettext(MEAN, lang),
                                  gettext(FLAGS, lang)]]
        shapes = []
        for p in profiles:
            flags = ", ".join(f"{gettext(k, lang)} {percent(v)}" for k, v in p.flags.items()) or "-"
            field = gettext(p.mean_field, lang)
            yes_no = p.mean_field == "total" and p.success is not None and set(p.histogram) <= {0, 1}
            rows.append([f"{p.system}: {p.expression}", percent(p.success),
                         "-" if yes_no else f"{field} {p.mean:+.2f}", flags])
            shown = trim(p.histogram)
            shapes.append(f"{sparkline(shown)}  " + (
                gettext(YES_NO, lang, no=percent(p.histogram.get(0, 0.0)), yes=percent(p.success))
                if yes_no else gettext(SPREAD, lang, field=field, low=min(shown), high=max(shown))))
        lines = columns(rows, "<><<")
        start = " " * (max(len(r[0]) for r in rows) + 2)  # the sparklines start under the success column
        print(lines[0])
        for line, shape in zip(lines[1:], shapes):
            print(line)
            print(start + shape)
    if args.plot:
        from ..plots import plot_compare

        plot_compare(profiles, args.plot)
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from ..compare import convert, convert_ladder
    from .args import columns, parse_options, split_system

    lang = args.lang
    src_opts, dst_opts = parse_options(args.from_option), parse_options(args.to_option)
    if args.ladder:
        if not args.source:
            raise DiceError(N_("--ladder needs --from SYSTEM"))
        rows = convert_ladder(args.source, args.target, src_opts, dst_opts)
        if args.json:
            print(json.dumps([{"character": r, "difficulty": d, "chance": c, "match": dataclasses.asdict(m)}
                              for r, d, c, m in rows], indent=2))
            return 0
        print(gettext(CONVERT_LADDER_TITLE, lang, source=args.source, target=args.target))
        for line in columns([[r, f"vs {gettext(d, lang)}", percent(c), "->", m.label, percent(m.chance),
                              f"({m.distance:+.2f})"] for r, d, c, m in rows], "<<><<>>", indent="  "):
            print(line)
        return 0
    if not args.expression:
        raise DiceError(N_("convert needs an expression (or --ladder)"))
    source, expr = split_system(args.expression, args.source)
    chance, matches = convert(expr, source, args.target, src_opts, dst_opts, args.top)
    if args.json:
        print(json.dumps({"system": source, "expression": expr, "chance": chance, "target": args.target,
                          "matches": [dataclasses.asdict(m) for m in matches]}, indent=2))
        return 0
    print(gettext(SUCCEEDS, lang, system=source, expression=expr, chance=percent(chance)))
    print(gettext(CLOSEST, lang, target=args.target))
    for line in columns([[percent(m.chance), gettext(POINTS, lang, distance=f"{m.distance:+.2f}"), m.label,
                          "" if m.label == m.expression else f"({m.expression})"] for m in matches], ">><<",
                        indent="  "):
        print(line)
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from ..compare import ladder
    from .args import columns, parse_options

    system = args.system
    if not system:
        raise DiceError(N_("ladder needs --system SYSTEM"))
    names, rows = ladder(system, **parse_options(args.option))
    if args.json:
        print(json.dumps({"system": system, "difficulties": names,
                          "rows": [{"character": r, "chances": c} for r, c in rows]}, indent=2))
    else:
        head = [gettext(LADDER_TITLE, args.lang, system=system), *(gettext(n, args.lang) for n in names)]
        for line in columns([head, *([r, *(percent(c) for c in chances)] for r, chances in rows)],
                            "<" + ">" * len(names)):
            print(line)
    if args.plot:
        from ..plots import plot_ladder

        plot_ladder(system, names, rows, args.plot)
    return 0


def _convert_value(raw: str, hint: Any) -> Any:
    text = str(hint)
    low = raw.lower()
    if isinstance(hint, type) and hasattr(hint, "model_validate_json"):  # a state of play, as JSON
        import pydantic

        try:
            return hint.model_validate_json(raw)
        except pydantic.ValidationError as err:
            raise DiceError(N_("not a valid {kind}: {reason}"), kind=hint.__name__,
                            reason=err.errors()[0]["msg"]) from None
    union = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
    if ("Mapping" in text or "dict" in text) and (raw.lstrip().startswith("{") or str not in union):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise DiceError(N_("{value!r} is not a JSON object"), value=raw) from None
        return value
    if "bool" in text and low in ("true", "false", "yes", "no"):
        return low in ("true", "yes")
    if "Sequence" in text or "tuple" in text or "list" in text:
        items = [x.strip() for x in raw.split(",") if x.strip()]
        if "str" in text:
            return tuple(items)
        try:
            return tuple(int(x) for x in items)
        except ValueError:
            raise DiceError(N_("{value!r} is not a list of numbers (a,b,c)"), value=raw) from None
    if hint is Any and raw.lstrip("-").isdigit():  # a seed, a count: a number when it reads as one
        return int(raw)
    if text in ("int", "<class 'int'>") or ("int" in text and raw.lstrip("-").isdigit()):
        try:
            return int(raw)
        except ValueError:
            raise DiceError(N_("{value!r} is not a number"), value=raw) from None
    return raw


def _jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump") and not isinstance(value, type):  # a pydantic state of play
        return value.model_dump(mode="json")
    if isinstance(value, enum.Enum):
        return str(value)
    if dataclasses.is_dataclass(value) and type(value).__str__ is not object.__str__:
        return str(value)
    if hasattr(value, "_asdict"):
        return {k: _jsonable(v) for k, v in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "expression"):
            return {**{k: _jsonable(v) for k, v in dataclasses.asdict(value).items()}, "expression": value.expression}
        return {k: _jsonable(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def _rule_modules(system: Any) -> tuple[Any, Any, str]:
    """A system's module, its state-of-play module (``None`` when it has none) and that module's name."""
    import importlib

    module = importlib.import_module(type(system).__module__)
    play = system.rules_of_play()
    return module, play, play.__name__ if play is not None else f"{module.__name__} (no state of play)"


def _summary(name: str, fn: Callable[..., Any], module: Any, lang: str | None) -> str:
    """A rule's one-line summary in ``lang``: its module's ``RULE_SUMMARIES`` entry (a catalogue
    message), else the first line of its docstring (a system without summaries, said as written)."""
    summary = getattr(module, "RULE_SUMMARIES", {}).get(name)
    if summary is not None:
        return gettext(summary, lang)
    doc = inspect.getdoc(fn)
    return doc.splitlines()[0] if doc else ""


def cmd_rule(args: argparse.Namespace) -> int:
    from ..registry import get_system

    lang = args.lang
    system = get_system(args.system_name)
    module, play, play_name = _rule_modules(system)
    rules: dict[str, Callable[..., Any]] = dict(getattr(module, "RULES", {}))
    # a system's state of play (its hook rules_of_play): rules taking a state (as JSON)
    play_rules: dict[str, Callable[..., Any]] = {k: v for k, v in getattr(play, "RULES", {}).items() if k not in rules}
    if not args.rule:
        if not rules and not play_rules:
            print(gettext(NO_RULES, lang, system=system.name))
        else:
            print(gettext(ARGUMENTS, lang))
        for title, group, home in ((gettext(RULES_OF, lang, system=system.name), rules, module),
                                   (gettext(RULES_OF_PLAY, lang, system=system.name, module=play_name), play_rules,
                                    play)):
            if not group:
                continue
            print(title)
            for name, fn in group.items():
                print(_usage(name, fn, lang))
                print(f"      {_summary(name, fn, home, lang)}")
        return 0
    words = {*getattr(module, "RULE_WORDS", ()), *getattr(play, "RULE_WORDS", ())}
    rules.update(play_rules)
    found = rules.get(args.rule)
    if found is None:
        raise DiceError(N_("unknown rule {rule!r} of {system} (known: {known})"), rule=args.rule, system=system.name,
                        known=", ".join(rules))
    fn = found
    hints = get_type_hints(fn)
    parameters = inspect.signature(fn).parameters
    kwargs = {}
    for pair in args.arguments:
        key, sep, raw = pair.partition("=")
        if not sep or key not in parameters:
            raise DiceError(N_("{rule} takes {parameters} as name=value, not {pair!r}"), rule=args.rule,
                            parameters=", ".join(parameters), pair=pair)
        kwargs[key] = _convert_value(raw, hints.get(key, str))
    missing = [name for name, p in parameters.items()
               if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and name not in kwargs]
    if missing:
        raise DiceError(N_("{rule} needs {missing} (as name=value)"), rule=args.rule, missing=", ".join(missing))
    try:
        result = fn(**kwargs)
    except (TypeError, ValueError) as err:  # a value of the wrong kind for this rule
        raise DiceError(N_("{rule}: {reason}"), rule=args.rule, reason=str(err)) from None
    print(json.dumps(_jsonable(result)) if args.json else _text(result, lang, words))
    return 0


def _kind(hint: Any, lang: str | None) -> str:
    """How a value of the type ``hint`` is written on the command line, as a game master reads it: ``NUMBER``,
    ``yes|no``, ``CODE`` (a D6 code such as ``4D+2``), the choices of an enumeration (``light|dark``), a list
    (``NUMBER,...``), a state of play as JSON (``{D6Scene as JSON}``); a union gives its alternatives."""
    origin, parts = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        kinds = list(dict.fromkeys(_kind(p, lang) for p in parts if p is not type(None)))
        if gettext(CODE, lang) in kinds or gettext(POOL, lang) in kinds:  # a code or a pool is typed as text
            kinds.remove(gettext(TEXT, lang))
        return "|".join(kinds)
    if origin is typing.Literal:
        return "|".join(str(p) for p in parts)
    if hint is bool:
        return gettext(YES_NO_CHOICE, lang)
    if hint is int or hint is float or hint is Any:
        return gettext(NUMBER, lang)
    if hint is str:
        return gettext(TEXT, lang)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "|".join(str(m.value) for m in hint)
    if origin is not None and (origin in (tuple, list) or getattr(origin, "__name__", "") in ("Sequence",)):
        return gettext(LIST_OF, lang, kind=_kind(parts[0], lang) if parts else gettext(TEXT, lang))
    if origin is dict or getattr(origin, "__name__", "") == "Mapping":
        return "{JSON}"
    name = getattr(hint, "__name__", str(hint))
    if name == "Code":
        return gettext(CODE, lang)
    if name == "DicePool":
        return gettext(POOL, lang)
    return gettext(JSON_OF, lang, kind=name)


def _usage(name: str, fn: Callable[..., Any], lang: str | None, width: int = 100) -> str:
    """A rule's arguments as a game master types them (``damage_result damage=NUMBER strength=NUMBER
    [armour=NUMBER]``), wrapped under its name (indented by two spaces, its further lines by four)."""
    import textwrap

    try:
        hints = get_type_hints(fn)
    except (NameError, TypeError):  # an annotation that does not resolve: said as written
        hints = {}
    words = []
    for key, p in inspect.signature(fn).parameters.items():
        kind = _kind(hints.get(key, p.annotation if p.annotation is not p.empty else Any), lang)
        if p.kind is p.VAR_POSITIONAL:
            words.append(f"[{gettext(NAMES, lang)}]")
        elif p.kind is not p.VAR_KEYWORD:
            words.append(f"{key}={kind}" if p.default is p.empty else f"[{key}={kind}]")
    return textwrap.fill(" ".join([name, *words]), width, initial_indent="  ", subsequent_indent="    ",
                         break_on_hyphens=False, break_long_words=False)


def _said(value: Any, lang: str | None, words: set[str]) -> Any:
    """A value of a rule's result as the user reads it: a word of the rules (``wounded``, ``hit``) or a
    boolean in ``lang``; anything else (numbers, codes, names, a state's JSON) as it is."""
    if isinstance(value, bool):
        return gettext(TRUE if value else FALSE, lang)
    if isinstance(value, str) and value in words:
        return gettext(value, lang)
    return value


def _text(value: Any, lang: str | None = None, words: set[str] | frozenset[str] = frozenset()) -> str:
    known = set(words)
    data = _jsonable(value)
    if isinstance(data, dict):
        return ", ".join(f"{k}: {json.dumps(_jsonable(v)) if isinstance(v, (Mapping, list)) else _said(v, lang, known)}"
                         for k, v in data.items())
    if isinstance(data, list):
        return ", ".join(str(_said(v, lang, known)) for v in data)
    return str(_said(data, lang, known))


def add_commands(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add compare, convert, ladder and rule to the ``dice`` parser."""
    p = sub.add_parser("compare", help="several checks side by side (system: expression each)")
    p.add_argument("checks", nargs="+", metavar="SYSTEM: EXPR")
    p.add_argument("--plot", metavar="FILE.png", default=None)
    common(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("convert", help="the closest checks of another system")
    p.add_argument("expression", nargs="?", default=None)
    p.add_argument("--from", dest="source", default=None, help="source system (or a 'system:' prefix)")
    p.add_argument("--to", dest="target", required=True, help="target system")
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--ladder", action="store_true", help="map the source's whole ladder")
    p.add_argument("--from-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--to-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser("ladder", help="chance of success of typical characters against each difficulty")
    p.add_argument("--plot", metavar="FILE.png", default=None)
    common(p)
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("rule", help="run a rule of a system (damage, modifiers, costs...)")
    p.add_argument("system_name", metavar="SYSTEM")
    p.add_argument("rule", nargs="?", default=None)
    p.add_argument("arguments", nargs="*", metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rule)
