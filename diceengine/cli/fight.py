"""The fight commands of ``dice``: ``dice fight FILE``, ``dice fight compare FILE``, ``dice fight sweep FILE``.

- ``dice fight FILE`` : how the encounter goes in one ruleset (``--system``, default the first in
  the file): who wins, and round by round;
- ``dice fight compare FILE``: the encounter in every ruleset it is written for, side by side;
- ``dice fight sweep FILE --grid PATH=V1,V2 ...``: simulated over a grid of parameters, locally on
  every core or on a Dask cluster (``--dask tcp://host:8786``).

``--json`` prints the numbers, ``--plot FILE.png`` draws rounds to the end and win chances by round.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from ..errors import DiceError
from ..i18n import N_, NP_, gettext, ngettext
from .args import columns, percent

__all__ = ["add_commands"]

# the words of the tables, from the catalogues (numbers are formatted as in English)
EXACT_HOW, SIMULATED_HOW = N_("exact, {states} states"), N_("simulated, {fights} fights")
AGAINST = N_("{side_a} against {side_b}")
WINS, BOTH_DOWN, MEAN_ROUNDS = N_("{side} wins"), N_("both down"), N_("mean rounds")
# the comparison's table (a method is said by its name: exact, simulated)
RULESET, METHOD, MEDIAN, OVER_BY = N_("ruleset"), N_("method"), N_("median"), N_("over by {rounds}")
EXACT, SIM = N_("exact"), N_("sim {fights}")
NEVER_END = N_("({share} of the fights never end)")
STILL_GOING_AFTER = N_("({share} still going after the last round)")
NEVER_ENDING, STILL_GOING = N_("never ending"), N_("still going at the end")
ROUND, ENDS, GOING, BY_NOW = N_("round"), N_("ends"), N_("going"), N_("{side} by now")
SWEEP_TITLE = N_("{encounter} ({system}, {fights} fights a cell{where})")
ON_DASK = N_(", on {address}")

ACTIONS = ("compare", "sweep")


def _load(path: str) -> Any:
    from ..fights import load_encounter

    return load_encounter(path)


#: a round is shown while at least this share of the fights is still going at its start (``--full``: every round)
SHOWN_GOING = 0.001
LATER = NP_("({n} later round not shown: {share} of the fights end in it; --full shows it)",
            "({n} later rounds not shown: {share} of the fights end in them; --full shows them)")
EXPLAIN_ROUNDS = (N_("ends: the share of the fights that end in this round"),
                  N_("going: the share still going after it"),
                  N_("{side} by now: the share {side} has won by the end of this round"))
EXPLAIN_OVER = N_("over by N: the share of the fights over (won by a side, or both down) by the end of round N")


def _shown_rounds(going: list[float], full: bool) -> int:
    """How many rounds the table shows: every round with ``full``, else those that start with at least
    :data:`SHOWN_GOING` of the fights still going (at least one)."""
    if full:
        return len(going)
    shown = 1
    while shown < len(going) and going[shown - 1] >= SHOWN_GOING:
        shown += 1
    return shown


def _fight_table(r: Any, lang: str | None = None, full: bool = False) -> list[str]:
    a, b = r.sides
    how = (gettext(EXACT_HOW, lang, states=r.states) if r.method == "exact"
           else gettext(SIMULATED_HOW, lang, fights=f"{r.fights:,}"))
    mean = f"{r.mean_rounds:.2f}" if r.mean_rounds is not None else "-"
    lines = [f"{r.encounter} ({r.system}, {how})",
             "  " + gettext(AGAINST, lang, side_a=", ".join(r.roster[0]), side_b=", ".join(r.roster[1])),
             (f"  {gettext(WINS, lang, side=a)} {percent(r.a_wins)}   "
              f"{gettext(WINS, lang, side=b)} {percent(r.b_wins)}   "
              f"{gettext(BOTH_DOWN, lang)} {percent(r.both_down)}   {gettext(MEAN_ROUNDS, lang)} {mean}")]
    if r.unfinished > 1e-9:
        lines.append(f"  {gettext(NEVER_ENDING if r.method == 'exact' else STILL_GOING, lang)}: "
                     f"{percent(r.unfinished)}")
    shown = _shown_rounds(r.going, full)
    rows = [[gettext(ROUND, lang), gettext(ENDS, lang), gettext(GOING, lang), gettext(BY_NOW, lang, side=a),
             gettext(BY_NOW, lang, side=b)]]
    rows += [[str(t + 1), percent(r.ended[t]), percent(r.going[t]), percent(r.a_by_round[t]),
              percent(r.b_by_round[t])] for t in range(shown)]
    lines += columns(rows, ">>>>>", indent="  ")
    if shown < len(r.ended):
        lines.append("  " + ngettext(*LATER, len(r.ended) - shown, lang,
                                     share=percent(sum(r.ended[shown:]))))
    lines += ["  " + gettext(line, lang, side=a) for line in EXPLAIN_ROUNDS]
    return lines


def _compare_table(results: list[Any], lang: str | None, marks: tuple[int, ...] = (1, 3, 5, 10)) -> list[str]:
    """``dice fight compare``: one row a ruleset, its columns lined up, and what the "over by" columns count."""
    if not results:
        return []
    first = results[0]
    a, b = first.sides
    rows = [[gettext(RULESET, lang), gettext(METHOD, lang), gettext(WINS, lang, side=a),
             gettext(WINS, lang, side=b), gettext(BOTH_DOWN, lang), gettext(MEAN_ROUNDS, lang), gettext(MEDIAN, lang),
             *(gettext(OVER_BY, lang, rounds=m) for m in marks)]]
    notes = []
    for r in results:
        method = gettext(r.method, lang) if r.fights is None else gettext(SIM, lang, fights=_count(r.fights))
        median = r.median_rounds()
        rows.append([r.system, method, percent(r.a_wins), percent(r.b_wins), percent(r.both_down),
                     f"{r.mean_rounds:.2f}" if r.mean_rounds is not None else "-", str(median) if median else "-",
                     *(percent(1 - r.going[m - 1]) if m <= len(r.going) else "-" for m in marks)])
        if r.unfinished > 1e-9:
            notes.append(f"{r.system}: " + gettext(NEVER_END if r.method == "exact" else STILL_GOING_AFTER, lang,
                                                   share=percent(r.unfinished)))
    against = gettext(AGAINST, lang, side_a=", ".join(first.roster[0]), side_b=", ".join(first.roster[1]))
    return [f"{first.encounter}: {against}", *columns(rows, "<<" + ">" * (5 + len(marks))), *notes,
            gettext(EXPLAIN_OVER, lang)]


def _count(n: int) -> str:
    """A number of fights, round thousands and millions shortened: ``20k``, ``1M``."""
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


def cmd_fight(args: argparse.Namespace) -> int:
    from ..fights.compare import compare, odds

    words = list(args.words)
    action = words.pop(0) if words and words[0] in ACTIONS and len(words) > 1 else None
    if len(words) != 1:
        raise DiceError(N_("usage: dice fight [compare | sweep] FILE.toml"))
    encounter = _load(words[0])
    if action == "sweep":
        return _sweep(args, encounter)
    if action == "compare":
        systems = args.system.split(",") if args.system else None
        results = compare(encounter, systems, args.method, args.fights, args.seed, args.rounds)
        if args.json:
            print(json.dumps([r.model_dump() for r in results], indent=2))
        else:
            print("\n".join(_compare_table(results, args.lang)))
    else:
        system = args.system or encounter.systems[0]
        results = [odds(encounter[system], args.method, args.fights, args.seed, args.rounds)]
        if args.json:
            print(json.dumps(results[0].model_dump(), indent=2))
        else:
            print("\n".join(_fight_table(results[0], args.lang, args.full)))
    if args.plot:
        from ..fights.plots import plot_fights

        plot_fights(results, args.plot)
    return 0


def _sweep(args: argparse.Namespace, encounter: Any) -> int:
    from ..fights.sweep import parse_grid, sweep

    if not args.grid:
        raise DiceError(N_("a sweep needs at least one --grid PATH=VALUE,VALUE (e.g. --grid a.0.attack=3D,4D,5D)"))
    system = args.system or encounter.systems[0]
    rows = sweep(encounter[system], parse_grid(args.grid), args.fights, args.seed or 0, dask=args.dask,
                 workers=args.workers, max_rounds=args.max_rounds)
    if args.json:
        print(json.dumps([r.model_dump() for r in rows], indent=2))
        return 0
    a, b = encounter.sides
    axes = list(rows[0].values) if rows else []
    widths = [max(len(ax), *(len(str(r.values[ax])) for r in rows)) for ax in axes]
    head = "  ".join(f"{ax:<{w}}" for ax, w in zip(axes, widths))
    lang = args.lang
    where = gettext(ON_DASK, lang, address=args.dask) if args.dask else ""
    print(gettext(SWEEP_TITLE, lang, encounter=encounter.name, system=system, fights=f"{args.fights:,}", where=where))
    print(f"{head}  {gettext(WINS, lang, side=a):>14}  {gettext(WINS, lang, side=b):>14}  "
          f"{gettext(BOTH_DOWN, lang):>9}  {gettext(MEAN_ROUNDS, lang):>11}")
    for r in rows:
        cells = "  ".join(f"{r.values[ax]!s:<{w}}" for ax, w in zip(axes, widths))
        mean = f"{r.mean_rounds:.2f}" if r.mean_rounds is not None else "-"
        print(f"{cells}  {percent(r.a_wins):>14}  {percent(r.b_wins):>14}  {percent(r.both_down):>9}  {mean:>11}")
    return 0


def add_commands(sub: Any, common: Callable[[argparse.ArgumentParser], None] | None = None) -> None:
    """Register ``dice fight`` on the command line's sub-parsers."""
    p = sub.add_parser("fight", help="how a fight goes: exact duel odds, simulation, comparison, sweeps",
                       description="dice fight FILE | dice fight compare FILE | dice fight sweep FILE --grid ...")
    p.add_argument("words", nargs="+", metavar="[compare|sweep] FILE",
                   help="an encounter file (TOML or JSON), after compare or sweep if wanted")
    p.add_argument("--system", "-s", default=None,
                   help="the ruleset (compare: a comma-separated list; default: every ruleset in the file)")
    p.add_argument("--method", choices=("auto", "exact", "simulated"), default="auto",
                   help="exact (one combatant a side), simulated, or auto (exact when possible)")
    p.add_argument("--fights", "-f", type=int, default=200_000, help="fights to simulate (a cell, for a sweep)")
    p.add_argument("--rounds", type=int, default=None, help="rounds in the table (default: the file's)")
    p.add_argument("--max-rounds", type=int, default=1000, help="a simulated fight stops after this many rounds")
    p.add_argument("--seed", type=int, default=None, help="seed of the simulation")
    p.add_argument("--grid", action="append", default=[], metavar="PATH=V1,V2",
                   help="sweep axis, e.g. a.0.attack=3D,4D,5D or range=short,medium (repeatable)")
    p.add_argument("--dask", default=None, metavar="ADDRESS", help="run the sweep on this Dask scheduler")
    p.add_argument("--workers", type=int, default=None, help="local processes of a sweep (default: every core)")
    p.add_argument("--full", action="store_true", help="every round of the table, the unlikely last ones too")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--plot", metavar="FILE.png", default=None, help="draw the fight (needs the plot extra)")
    p.set_defaults(func=cmd_fight)
