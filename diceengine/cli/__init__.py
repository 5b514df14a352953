"""The ``dice`` command line: roll, odds, compare, convert, ladder, systems, bench, fight, serve, table, anydice.

The package holds :func:`main` (the console script ``dice = "diceengine.cli:main"`` and ``python -m diceengine``)
with the parser and the ``roll``, ``odds``, ``systems`` and ``bench`` commands; :mod:`~diceengine.cli.args` the
parsing of arguments the commands share (``system:`` prefixes, ``-o NAME=VALUE``, sparklines);
:mod:`~diceengine.cli.compare` ``compare``, ``convert``, ``ladder`` and ``rule``; :mod:`~diceengine.cli.fight`
``fight``; :mod:`~diceengine.cli.serve` ``serve``; :mod:`~diceengine.cli.table` ``table``; :mod:`~diceengine.cli.anydice`
``anydice``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import DiceError
from ..i18n import N_, NP_
from .args import parse_options, sparkline, split_system, trim

__all__ = ["main", "parse_options", "sparkline", "split_system", "trim"]

BAR_WIDTH = 40

P_OF, MEAN_OF, TRUNCATED, EXAMPLES, OPTION, ERROR = (
    N_("P({what})"), N_("mean {field}"), N_("truncated mass"), N_("examples"), N_("option"), N_("error"))
LEGEND = N_("legend: {legend}")
HIDDEN = NP_("({n} unlikely value not shown, {share} in all; --full shows them)",
             "({n} unlikely values not shown, {share} in all; --full shows them)")


def add_lang(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """The ``--lang`` option: the language of the output (default: from LANGUAGE / LC_ALL / LANG).

    ``dice`` itself takes it with the default ``None`` (read from the environment in :func:`main`);
    each sub-command takes it too, with no default of its own (``argparse.SUPPRESS``), so that
    ``dice --lang fr roll ...`` and ``dice roll ... --lang fr`` both work and a sub-command never
    overwrites the language given before it.
    """
    from ..i18n import LANGUAGES, language_from_environment

    p.add_argument("--lang", default=default, type=_language, metavar="LANG",
                   help=f"language of the output: {', '.join(LANGUAGES)} (default: from the environment, "
                        f"now {language_from_environment()})")


def _language(text: str) -> str:
    from ..i18n import language

    try:
        return language(text)
    except DiceError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _negative_expression(arg: str) -> bool:
    """``arg`` starts like a negative expression (``-1d6``, ``-d20+5``, ``-(2d6)``, ``- 3``), not an option: a minus,
    spaces, then a digit, a parenthesis or a die (``d`` and a digit, ``%`` or ``F``); the regular expression
    ``-\\s*(\\d|\\(|[dD](\\d|%|[fF]))``, without compiling one on every command line."""
    if not arg.startswith("-"):
        return False
    rest = arg[1:].lstrip()
    if rest[:1].isdecimal() or rest[:1] == "(":
        return True
    return rest[:1] in ("d", "D") and (rest[1:2].isdecimal() or rest[1:2] in ("%", "f", "F"))


def _expressions_not_options(argv: Sequence[str]) -> list[str]:
    """``argv`` with each negative expression shielded by a leading space, so that argparse takes
    ``dice roll "-1d6"`` for the expression it is (the space is stripped with the system prefix)."""
    return [" " + a if _negative_expression(a) else a for a in argv]


def _percent(p: float) -> str:
    if p == 0:
        return "0%"
    if p < 0.0001:
        return f"{p:.2e}"
    return f"{100 * p:.2f}%"


def histogram(marginal: dict[Any, float], width: int = BAR_WIDTH, start: float = 1.0) -> list[list[str]]:
    """Rows ``[value, P(=), P(>=), bar]`` of a marginal distribution (``start``: P(>=) of the first row), cells
    for :func:`~diceengine.cli.args.columns`."""
    top = max(marginal.values()) if marginal else 1.0
    rows = []
    tail = start
    for value, p in marginal.items():
        bar = "#" * max(1 if p > 0 else 0, round(width * p / top))
        rows.append([str(value), _percent(p), _percent(min(tail, 1.0)), bar])
        tail -= p
    return rows


def _summary(dist: Any, plan: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    extra = getattr(plan, "odds_summary", None)
    if extra is not None:
        out.update(extra(dist))
    for field in dist.fields:
        col = dist.columns[field]
        if col.dtype == bool:
            out[f"P({field})"] = dist.chance(field)
        else:
            out[f"mean {field}"] = dist.mean(field)
    return out


def _label(key: str, lang: str | None) -> str:
    """``"P(succeeded)"`` / ``"mean total"`` in ``lang``."""
    from ..i18n import gettext

    if key.startswith("P(") and key.endswith(")"):
        return gettext(P_OF, lang, what=gettext(key[2:-1], lang))
    if key.startswith("mean "):
        return gettext(MEAN_OF, lang, field=gettext(key[5:], lang))
    return gettext(key, lang)


def cmd_roll(args: argparse.Namespace) -> int:
    from ..api import roll
    from ..i18n import gettext

    system, expr = split_system(args.expression, args.system)
    options = parse_options(args.option)
    from ..rng import python_rng

    rng = python_rng(args.seed) if args.seed is not None else None
    rolls = [roll(expr, system, seed=rng, lang=args.lang, **options) for _ in range(args.n)]
    if args.json:
        import json

        print(json.dumps([r.model_dump() for r in rolls] if args.n > 1 else rolls[0].model_dump(), indent=2))
    else:
        from .checks import chance_of_success, check_line, is_check

        settings: dict[str, Any] = {"colour_emoji": False} if args.format == "symbols" and args.text_symbols else {}
        check = args.format != "html" and is_check(system, expr, options)
        chance = chance_of_success(system, expr, options) if check else None
        for r in rolls:
            text = r.render(args.format, None, **settings)
            print(check_line(text, r.total, chance, args.lang) if check else text)
        if args.legend and args.format == "symbols":
            from ..renderers.symbols import legend

            said = legend(system, args.lang, colour_emoji=not args.text_symbols)
            if said:
                print(gettext(LEGEND, args.lang, legend=said))
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from ..api import distribution, plan

    system, expr = split_system(args.expression, args.system)
    options = parse_options(args.option)
    dist = distribution(expr, system, **options)
    prepared = plan(expr, system, **options)
    fields = getattr(prepared, "table_fields", None) or [dist.fields[0]]
    if args.json:
        import json

        data = dist.model().model_dump()
        data["summary"] = _summary(dist, prepared)
        data["marginals"] = {f: {str(k): v for k, v in dist.marginal(f).items()} for f in fields}
        print(json.dumps(data, indent=2))
    else:
        _print_odds(system, expr, dist, prepared, fields, args)
    if args.plot:
        from ..plots import plot_odds

        plot_odds(dist, fields, args.plot, title=f"{system}: {expr}")
    return 0


def _print_odds(system: str, expr: str, dist: Any, prepared: Any, fields: Sequence[str],
                args: argparse.Namespace) -> None:
    """``dice odds`` as text: the chances and means, then each field's table (its header over its columns)."""
    from ..i18n import gettext, ngettext
    from .args import columns

    lang = args.lang
    print(f"{system}: {expr}")
    summary = [[_label(key, lang), _percent(value) if key.startswith("P(") else f"{value:.4f}"]
               for key, value in _summary(dist, prepared).items()]
    if dist.truncated:
        summary.append([gettext(TRUNCATED, lang), f"{dist.truncated:.2e}"])
    for line in columns(summary, "<>", indent="  ", gap="   "):
        print(line)
    for field in fields:
        marginal = dist.marginal(field)
        shown = trim(marginal) if not args.full else marginal
        before = sum(p for k, p in marginal.items() if k < min(shown))
        print()
        for line in columns([[gettext(field, lang), "P(=)", "P(>=)", ""], *histogram(shown, start=1.0 - before)],
                            ">>><"):
            print(line)
        hidden = len(marginal) - len(shown)
        if hidden:
            rest = sum(p for k, p in marginal.items() if k not in shown)
            print(ngettext(*HIDDEN, hidden, lang, share=_percent(rest)))


def cmd_systems(args: argparse.Namespace) -> int:
    from ..api import systems

    found = systems()
    if args.json:
        import json

        print(json.dumps({name: {"summary": s.summary, "examples": list(s.examples),
                                 "options": {k: {"default": o.default, "doc": o.doc,
                                                 "choices": list(o.choices) if o.choices else None}
                                             for k, o in s.options.items()}}
                          for name, s in found.items()}, indent=2, default=str))
        return 0
    from ..i18n import gettext

    lang = args.lang
    for name, s in found.items():
        print(f"{name}: {gettext(s.summary, lang)}")
        if s.examples:
            print(f"  {gettext(EXAMPLES, lang)}: {'   '.join(s.examples)}")
        for key, opt in s.options.items():
            choices = f" ({' | '.join(map(str, opt.choices))})" if opt.choices else ""
            print(f"  {gettext(OPTION, lang)} {key}={opt.default!r}{choices}: {gettext(opt.doc, lang)}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    import os
    import runpy

    sys.path.insert(0, os.getcwd())
    try:
        runpy.run_module("benchmarks", run_name="__main__")
    except ImportError:
        raise DiceError(N_("the benchmarks live in the source checkout: run `dice bench` from its root")) from None
    return 0


def _columns() -> int:
    """The terminal's width, as :func:`shutil.get_terminal_size` reads it (``COLUMNS``, else the terminal of
    ``sys.__stdout__``, else 80), without importing :mod:`shutil` and the compression modules it loads."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as argparse makes it (the terminal's width less two)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


#: the commands of this module: a command line naming one of them builds its parser alone (:func:`_command`)
CORE_COMMANDS = ("roll", "odds", "systems", "bench")


def _command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names when it is one of :data:`CORE_COMMANDS` (after ``dice``'s own ``--lang``);
    ``None`` for any other command line (another command, ``--help``), which gets the full parser."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--lang":
            i += 2
        elif arg.startswith("--lang="):
            i += 1
        elif arg.startswith("-"):
            return None
        else:
            return arg if arg in CORE_COMMANDS else None
    return None


DID_YOU_MEAN = N_("invalid choice: {value!r}: did you mean {guess}?")


class Parser(argparse.ArgumentParser):
    """argparse's parser, with "did you mean" for a misspelt command or choice (``dice rol``, ``dice table lgo``);
    its sub-command parsers are of this class too."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices and isinstance(value, str):
            from ..hints import closest
            from ..i18n import gettext

            guess = closest(value, [str(c) for c in choices], 0.6)
            if guess is not None:
                raise argparse.ArgumentError(action, gettext(DID_YOU_MEAN, None, value=value, guess=guess))
        super()._check_value(action, value)


def _common_options(p: argparse.ArgumentParser) -> None:
    """The options every rolling command takes: ``--system``, ``--seed``, ``--json``, ``--option``."""
    p.add_argument("--system", "-s", default=None, help="ruleset (default: standard, or a 'system:' prefix)")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible rolls")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="a system option, e.g. -o complication=remove_highest")


def _add_roll(sub: Any) -> None:
    """``dice roll``."""
    p = sub.add_parser("roll", help="roll and explain", formatter_class=HelpFormatter)
    p.add_argument("expression")
    p.add_argument("-n", type=int, default=1, help="number of rolls")
    p.add_argument("--format", "-f", default="plain", choices=("plain", "markdown", "html", "symbols"),
                   help="how the roll is written (default: plain)")
    p.add_argument("--text-symbols", action="store_true",
                   help="with --format symbols: no colour emoji, each die named (for terminals without their font)")
    p.add_argument("--legend", action="store_true", help="with --format symbols: say what each symbol means")
    _common_options(p)
    p.set_defaults(func=cmd_roll)


def _add_odds(sub: Any) -> None:
    """``dice odds``."""
    p = sub.add_parser("odds", help="exact distribution, mean and chances", formatter_class=HelpFormatter)
    p.add_argument("expression")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw the distribution (needs the plot extra)")
    p.add_argument("--full", action="store_true", help="show every value, unlikely tails included")
    _common_options(p)
    p.set_defaults(func=cmd_odds)


def _add_systems(sub: Any) -> None:
    """``dice systems``."""
    p = sub.add_parser("systems", help="the registered systems, their notation and options",
                       formatter_class=HelpFormatter)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_systems)


def _add_bench(sub: Any) -> None:
    """``dice bench``."""
    p = sub.add_parser("bench", help="hot-path and bulk benchmarks (from a source checkout)",
                       formatter_class=HelpFormatter)
    p.set_defaults(func=cmd_bench)


#: :data:`CORE_COMMANDS`' parsers, in the order ``dice --help`` lists them
_CORE_PARSERS: dict[str, Callable[[Any], None]] = {"roll": _add_roll, "odds": _add_odds, "systems": _add_systems,
                                                   "bench": _add_bench}


def _add_other_commands(sub: Any) -> None:
    """The commands of the other modules of the package (compare, fight, serve, table, anydice), after the core's."""
    try:
        from .compare import add_commands
    except ImportError:  # pragma: no cover - comparison commands not installed
        pass
    else:
        add_commands(sub, _common_options)
    from .fight import add_commands as add_fight_commands

    add_fight_commands(sub)
    from .serve import add_commands as add_serve

    add_serve(sub)
    from .table import add_commands as add_table

    add_table(sub, add_lang)
    from .anydice import add_commands as add_anydice

    add_anydice(sub, HelpFormatter)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``dice``'s arguments; ``command``, one of :data:`CORE_COMMANDS`: that command alone (a command
    line naming it: ``dice roll`` builds no other command's parser and imports no module of the other commands)."""
    parser = Parser(prog="dice", description="Roll dice and compute exact odds.", formatter_class=HelpFormatter)
    add_lang(parser, default=None)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, add in _CORE_PARSERS.items():
        if command is None or command == name:
            add(sub)
    if command is None:
        _add_other_commands(sub)
    for each in sub.choices.values():  # every sub-command takes --lang after its name too
        add_lang(each)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dice`` console script; returns the exit status."""
    argv = _expressions_not_options(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command(argv))
    args = parser.parse_args(argv)
    if args.lang is None:
        from ..i18n import language_from_environment

        args.lang = language_from_environment()
    try:
        if getattr(args, "n", 1) is not None and getattr(args, "n", 1) < 1:
            raise DiceError(N_("-n must be at least 1"))
        return int(args.func(args))
    except DiceError as err:
        from ..i18n import gettext, translate_error

        lang = getattr(args, "lang", None)
        print(f"dice: {gettext(ERROR, lang)}: {translate_error(err, lang)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
