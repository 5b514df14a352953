"""``dice anydice FILE``: an AnyDice program's outputs, exact, as AnyDice's views (normal, at least, at most), JSON
or a chart."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import DiceError
from ..i18n import N_, gettext

__all__ = ["add_commands", "cmd_anydice"]

MEAN, SPREAD, NOTHING, LACKS = (N_("mean"), N_("standard deviation"), N_("(no outcome: AnyDice shows nothing)"),
                                N_("(AnyDice's answer lacks {share} of the probability)"))
VIEW_NAMES = {"normal": N_("normal"), "at least": N_("at least"), "at most": N_("at most")}


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise DiceError(N_("cannot read {path}: {reason}"), path=path, reason=str(err)) from None


def _plot(dists: list[Any], path: str) -> None:
    from ..plots import _pyplot, _save

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.0, 5.0))
    for dist in dists:
        marginal = dist.marginal()
        if marginal:
            ax.plot([float(v) for v in marginal], [100 * p for p in marginal.values()], marker="o",
                    label=dist.expression)
    ax.set_ylabel("%")
    ax.legend(fontsize="small")
    _save(fig, path)


def _text(dists: list[Any], views: list[str], lang: str | None) -> list[str]:
    from ..anydice.results import table

    lines: list[str] = []
    for dist in dists:
        lines.append(dist.expression)
        if not len(dist):
            lines.append("  " + gettext(NOTHING, lang))
            continue
        lines.append(f"  {gettext(MEAN, lang)} {dist.mean():.4f}, {gettext(SPREAD, lang)} {dist.stdev():.4f}")
        if dist.truncated:
            lines.append("  " + gettext(LACKS, lang, share=f"{100 * dist.truncated:.4g}%"))
        for view in views:
            if len(views) > 1:
                lines.append(f"  [{gettext(VIEW_NAMES[view], lang)}]")
            lines.extend("  " + row for row in table(dist, view))
    return lines


def cmd_anydice(args: argparse.Namespace) -> int:
    """Run the program of ``args.file`` and print its outputs."""
    from ..anydice.errors import say
    from ..api import anydice

    try:
        dists = anydice(_read(args.file))
    except DiceError as err:
        print(f"dice: {gettext(N_('error'), args.lang)}: {say(err, args.lang)}", file=sys.stderr)
        return 2
    if args.plot:
        _plot(dists, args.plot)
    if args.json:
        import json

        from ..anydice.results import to_json

        print(json.dumps([to_json(d) for d in dists], indent=2))
        return 0
    views = ["normal", "at least", "at most"] if args.view == "all" else [args.view.replace("-", " ")]
    print("\n".join(_text(dists, views, args.lang)))
    return 0


def add_commands(sub: Any, formatter: type[argparse.HelpFormatter] = argparse.HelpFormatter) -> None:
    """Register ``anydice`` on the sub-command parser ``sub`` (its help written by ``formatter``)."""
    p = sub.add_parser("anydice", help="run an AnyDice program (anydice.com's language): its outputs, exact",
                       formatter_class=formatter)
    p.add_argument("file", help="the program's file, or - to read it from standard input")
    p.add_argument("--view", default="normal", choices=("normal", "at-least", "at-most", "all"),
                   help="which of AnyDice's views to print (default: normal)")
    p.add_argument("--json", action="store_true", help="print JSON (every view of every output)")
    p.add_argument("--plot", metavar="FILE.png", default=None, help="draw the outputs (needs the plot extra)")
    p.set_defaults(func=cmd_anydice)
