"""The comparison commands of ``dice``: compare, convert, ladder, and the rules runner."""

from __future__ import annotations

import argparse
import dataclasses
import enum
import inspect
import json
import types
import typing
from typing import Any, Callable, get_type_hints

from .errors import DiceError

__all__ = ["add_commands"]


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:6.2f}%"


def cmd_compare(args: argparse.Namespace) -> int:
    from .cli_args import parse_options, sparkline, split_system, trim
    from .compare import profile

    options = parse_options(args.option)
    profiles = []
    for spec in args.checks:
        system, expr = split_system(spec, args.system)
        profiles.append(profile(system, expr, **options))
    if args.json:
        print(json.dumps([{**dataclasses.asdict(p), "histogram": {str(k): v for k, v in p.histogram.items()}}
                          for p in profiles], indent=2))
    else:
        width = max(len(f"{p.system}: {p.expression}") for p in profiles)
        print(f"{'check':<{width}}  {'success':>8}  {'mean':>16}  flags")
        for p in profiles:
            flags = ", ".join(f"{k} {_pct(v).strip()}" for k, v in p.flags.items()) or "-"
            mean = f"{p.mean_field} {p.mean:+.2f}"
            print(f"{p.system + ': ' + p.expression:<{width}}  {_pct(p.success):>8}  {mean:>16}  {flags}")
            shown = trim(p.histogram)
            print(f"{'':<{width}}  {sparkline(shown)}  ({p.mean_field} {min(shown)}..{max(shown)})")
    if args.plot:
        from .plots import plot_compare

        plot_compare(profiles, args.plot)
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from .cli_args import parse_options, split_system
    from .compare import convert, convert_ladder

    src_opts, dst_opts = parse_options(args.from_option), parse_options(args.to_option)
    if args.ladder:
        if not args.source:
            raise DiceError("--ladder needs --from SYSTEM")
        rows = convert_ladder(args.source, args.target, src_opts, dst_opts)
        if args.json:
            print(json.dumps([{"character": r, "difficulty": d, "chance": c, "match": dataclasses.asdict(m)}
                              for r, d, c, m in rows], indent=2))
            return 0
        print(f"{args.source} -> {args.target}: nearest check for each character and difficulty")
        for r, d, c, m in rows:
            print(f"  {r:<28} vs {d:<16} {_pct(c)}  ->  {m.label:<48} {_pct(m.chance)} ({m.distance:+.2f})")
        return 0
    if not args.expression:
        raise DiceError("convert needs an expression (or --ladder)")
    source, expr = split_system(args.expression, args.source)
    chance, matches = convert(expr, source, args.target, src_opts, dst_opts, args.top)
    if args.json:
        print(json.dumps({"system": source, "expression": expr, "chance": chance, "target": args.target,
                          "matches": [dataclasses.asdict(m) for m in matches]}, indent=2))
        return 0
    print(f"{source}: {expr}  succeeds {_pct(chance).strip()}")
    print(f"closest in {args.target}:")
    for m in matches:
        same = "" if m.label == m.expression else f"   ({m.expression})"
        print(f"  {_pct(m.chance)}  {m.distance:+6.2f} points  {m.label}{same}")
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from .cli_args import parse_options
    from .compare import ladder

    system = args.system
    if not system:
        raise DiceError("ladder needs --system SYSTEM")
    names, rows = ladder(system, **parse_options(args.option))
    if args.json:
        print(json.dumps({"system": system, "difficulties": names,
                          "rows": [{"character": r, "chances": c} for r, c in rows]}, indent=2))
    else:
        title = f"{system}: chance of success"
        width = max(len(title), max(len(r) for r, _ in rows))
        col = max(9, max(len(n) for n in names) + 1)
        print(title.ljust(width) + "".join(f"{n:>{col}}" for n in names))
        for r, chances in rows:
            print(f"{r:<{width}}" + "".join(f"{_pct(c):>{col}}" for c in chances))
    if args.plot:
        from .plots import plot_ladder

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
            raise DiceError(f"not a valid {hint.__name__}: {err.errors()[0]['msg']}") from None
    union = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
    if ("Mapping" in text or "dict" in text) and (raw.lstrip().startswith("{") or str not in union):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise DiceError(f"{raw!r} is not a JSON object") from None
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
            raise DiceError(f"{raw!r} is not a list of numbers (a,b,c)") from None
    if text in ("int", "<class 'int'>") or ("int" in text and raw.lstrip("-").isdigit()):
        try:
            return int(raw)
        except ValueError:
            raise DiceError(f"{raw!r} is not a number") from None
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
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def cmd_rule(args: argparse.Namespace) -> int:
    import importlib

    from .registry import get_system

    system = get_system(args.system_name)
    module = importlib.import_module(type(system).__module__)
    rules: dict[str, Callable[..., Any]] = dict(getattr(module, "RULES", {}))
    # a system's state of play lives beside it in ``<module>_play``: rules taking a state (as JSON)
    play_name = f"{module.__name__}_play"
    try:
        play = importlib.import_module(play_name)
    except ModuleNotFoundError as err:
        if err.name != play_name:
            raise
        play = None
    play_rules: dict[str, Callable[..., Any]] = {k: v for k, v in getattr(play, "RULES", {}).items() if k not in rules}
    if not args.rule:
        if not rules and not play_rules:
            print(f"{system.name} has no rules to run")
        for title, group in ((f"rules of {system.name}:", rules),
                             (f"rules of play of {system.name} (state=JSON, new state and the check to roll; "
                              f"{play_name}):", play_rules)):
            if not group:
                continue
            print(title)
            for name, fn in group.items():
                print(f"  {name}{inspect.signature(fn)}")
                print(f"      {(inspect.getdoc(fn) or '').splitlines()[0]}")
        return 0
    rules.update(play_rules)
    found = rules.get(args.rule)
    if found is None:
        raise DiceError(f"unknown rule {args.rule!r} of {system.name} (known: {', '.join(rules)})")
    fn = found
    hints = get_type_hints(fn)
    kwargs = {}
    for pair in args.arguments:
        key, sep, raw = pair.partition("=")
        if not sep or key not in inspect.signature(fn).parameters:
            raise DiceError(f"{args.rule} takes {', '.join(inspect.signature(fn).parameters)} as name=value, "
                            f"not {pair!r}")
        kwargs[key] = _convert_value(raw, hints.get(key, str))
    try:
        result = fn(**kwargs)
    except (TypeError, ValueError) as err:  # a value of the wrong kind for this rule
        raise DiceError(f"{args.rule}: {err}") from None
    print(json.dumps(_jsonable(result)) if args.json else _text(result))
    return 0


def _text(value: Any) -> str:
    data = _jsonable(value)
    if isinstance(data, dict):
        return ", ".join(f"{k}: {json.dumps(v) if isinstance(v, (dict, list)) else v}" for k, v in data.items())
    if isinstance(data, list):
        return ", ".join(str(v) for v in data)
    return str(data)


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
