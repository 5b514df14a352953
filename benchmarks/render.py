"""A roll's text in each format against the line the engine printed before the renderers existed.

The peer is the f-string ``describe`` each plan had (kept below, verbatim in substance, reading the
same raw record), measured in the same run on the same rolls: the issue's goal is that any format, in
any language, costs at most 1.2x that line. ``de.roll`` itself builds no text (a test checks it).
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from diceengine.systems.ffg.dice import face_text
from diceengine.systems.standard.term.faces import DROPPED, EXPLODED, REROLLED
from diceengine.systems.standard.term.scores import unit_score

import diceengine as de

CASES = [("standard", "4d6kh3"), ("standard", "8d10>=7f1"), ("standard", "3d6!+2d8r1+4"), ("d6", "3D vs 2D+2"),
         ("d6wild", "4D+2 vs 15"), ("d20pool", "3d20<=12 spec 3 vs 2"), ("ffg", "2a1p1b vs 2d1s")]
FORMATS = [("plain", None), ("plain", "fr"), ("markdown", None), ("html", None), ("symbols", None)]
TARGET = 1.2


# ---------------------------------------------------------------- the lines before the renderers (the peer)


def _term(term: Any, data: list) -> str:
    parts = []
    spec = term.spec
    if spec.plain:
        for d in term.dice(data):
            parts.append(str(d.value) if d.kept else f"~{d.value}~")
    else:
        for unit in data:
            shown = []
            dropped = any(f & DROPPED for _, f in unit)
            for v, f in unit:
                shown.append(f"~{v}~r " if f & REROLLED else f"{v}{'!' if f & EXPLODED else ''}")
            text = "".join(s if s.endswith(" ") else s + "+" for s in shown).rstrip("+").replace("r +", "r ")
            if spec.success is not None and not dropped:
                score = unit_score(spec, unit)
                text += "*" * max(score, 0) + "_" * max(-score, 0)
            parts.append(f"~{text}~" if dropped else text)
    return "[" + ", ".join(parts) + "]" + (f" ({spec.label})" if spec.label else "")


def _standard(plan: Any, outcome: Any, record: list) -> str:
    from diceengine.ast import Add, Div, Mul, Neg, Number, Sub

    precedence = {Add: 1, Sub: 1, Mul: 2, Div: 2, Neg: 3}
    symbol = {Add: "+", Sub: "-", Mul: "*", Div: "/"}
    groups = iter(record)

    def walk(node: Any) -> str:
        t = type(node)
        if t is Number:
            return str(node.value)
        if t in symbol:
            mine = precedence[t]
            left = walk(node.left)
            if precedence.get(type(node.left), 9) < mine:
                left = f"({left})"
            right = walk(node.right)
            rp = precedence.get(type(node.right), 9)
            if rp < mine or (rp == mine and t in (Sub, Div)):
                right = f"({right})"
            return f"{left} {symbol[t]} {right}"
        if t is Neg:
            inner = walk(node.operand)
            return f"-({inner})" if precedence.get(type(node.operand), 9) < 3 else f"-{inner}"
        term, data = next(groups)
        return _term(term, data)

    return f"{plan.expression}: {walk(plan.tree)} = {outcome.total}"


def _code(dice: Any, record: Any, code: Any) -> str:
    if isinstance(record, tuple):  # the Wild Die's record
        normal, chain, bonus, removed, flagged, pips = record
        cut = flagged and dice.complication == "remove_highest"
        parts = [f"~{v}~" if i == removed else str(v) for i, v in enumerate(normal)]
        if chain:
            text = "+".join(f"{v}!" if v == 6 else str(v) for v in chain)
            parts.append(f"wild {'~' + text + '~' if cut else text}" + (" (complication)" if flagged else ""))
        if bonus:
            parts.append("character point " + "+".join(str(v) for v in bonus))
        if pips:
            parts.append(str(pips))
        return " + ".join(parts).replace("+ -", "- ")
    parts = [str(v) for v in record]
    if code.pips:
        parts.append(str(code.pips))
    return " + ".join(parts).replace("+ -", "- ")


def _d6(plan: Any, outcome: Any, record: Any) -> str:
    text = f"{plan.expression}: {_code(plan.dice_model, record[0], plan.actor_code)} = {outcome.total}"
    if plan.difficulty is None:
        return text
    if plan.rolled_difficulty:
        text += f" against {_code(plan.opponent_dice, record[1], plan.difficulty)} = {record[2]}"
        if record[3]:
            text += f" ({len(record[3])} tie{'s' if len(record[3]) > 1 else ''} rolled again)"
    return f"{text}, {'success' if outcome.success else 'failure'} by {abs(outcome.margin)}"


def _d20_tables(plan: Any) -> tuple[list[int], list[int]]:
    """The plan's face tables as the line before the die algebra held them (two lists on the plan), kept on it."""
    from diceengine.systems.d20pool.system import die_table

    succ, comp = die_table(plan.threshold, plan.discipline)
    plan.bench_tables = succ.tolist(), comp.tolist()
    return plan.bench_tables  # type: ignore[no-any-return]


def _d20(plan: Any, outcome: Any, record: list) -> str:
    try:
        succ, comp = plan.bench_tables
    except AttributeError:
        succ, comp = _d20_tables(plan)
    shown = [f"{v}{'*' * succ[v]}{'!' if comp[v] else ''}" for v in record]
    text = f"{plan.expression}: [{', '.join(shown)}] = {outcome.successes} success"
    text += "es" if outcome.successes != 1 else ""
    if outcome.complications:
        text += f", {outcome.complications} complication" + ("s" if outcome.complications > 1 else "")
    if plan.difficulty is not None:
        text += f", {'success' if outcome.success else 'failure'}"
        if outcome.impulsion:
            text += f", {outcome.impulsion} Impulsion"
    return text


def _ffg(plan: Any, o: Any, record: list) -> str:
    shown = ", ".join(f"{die} {face_text(die, i)}" for die, i in record)
    parts = []
    if o.success > 0:
        parts.append(f"{o.success} success" + ("es" if o.success > 1 else ""))
    elif o.success < 0:
        parts.append(f"{-o.success} failure" + ("s" if o.success < -1 else ""))
    else:
        parts.append("no net success")
    if o.advantage:
        parts.append(f"{abs(o.advantage)} {'advantage' if o.advantage > 0 else 'threat'}")
    for name in ("triumph", "despair", "light", "dark"):
        if getattr(o, name):
            parts.append(f"{getattr(o, name)} {name}")
    parts.append("succeeded" if o.succeeded else "failed")
    return f"{plan.expression}: [{shown}] = {', '.join(parts)}"


BEFORE: dict[str, Callable[[Any, Any, Any], str]] = {"standard": _standard, "d6": _d6, "d6wild": _d6,
                                                     "d20pool": _d20, "ffg": _ffg}


def before(roll: de.Roll) -> str:
    """The roll's line as the engine printed it before the renderers (the standard notation's plan was
    rewritten since, by issue 11: its peer is its own fast plain text, ``str(roll)``)."""
    if roll.system == "standard" and not hasattr(roll._plan, "tree"):
        return str(roll)
    return BEFORE[roll.system](roll._plan, roll.outcome, roll._record)


# ---------------------------------------------------------------- measure


def paired(a: Callable[[], object], b: Callable[[], object], number: int = 10, repeat: int = 101) -> tuple[float, float]:
    """Best times of ``a`` and ``b``, measured turn about (the machine's load hits both alike)."""
    best = turns([a, b], number, repeat)
    return best[0], best[1]


def turns(fns: list[Callable[[], object]], number: int = 10, repeat: int = 151) -> list[float]:
    """Best time of each of ``fns``, timed one after the other in each of many short turns: the load of
    the machine hits them alike, a short turn is less often cut by another process, and spreading the
    turns of every function over the whole measure keeps a burst of load from covering one alone."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number))
    return [t / number for t in best]


def measure() -> list[tuple[str, str, float, float, float]]:
    """``(system: expression, format, µs of the peer per roll, ratio, ratio of roll + text)`` for every
    case and format (the last: a chat bot's whole work, ``de.roll`` then the text, against ``de.roll``
    then the line before the renderers). The peer and the formats of a case are timed turn about."""
    rows = []
    for system, expr in CASES:
        rolls = [de.roll(expr, system, seed=seed) for seed in range(20)]
        t_roll = min(timeit.repeat(lambda e=expr, s=system: de.roll(e, s), number=2000, repeat=5)) / 2000 * 20

        def peer(rolls: list[de.Roll] = rolls) -> None:
            for r in rolls:
                before(r)

        runs: list[Callable[[], object]] = [peer]
        for fmt, lang in FORMATS:
            def run(fmt: str = fmt, lang: str | None = lang, rolls: list[de.Roll] = rolls) -> None:
                for r in rolls:
                    r.render(fmt, lang)

            runs.append(run)
        for _ in range(5):  # warm every side up (the catalogue and the renderer loaded, as in an application)
            for fn in runs:
                fn()
        t_peer, *times = turns(runs)
        for (fmt, lang), t in zip(FORMATS, times):
            rows.append((f"{system}: {expr}", f"{fmt}{'/' + lang if lang else ''}", t_peer / 20 * 1e6, t / t_peer,
                         (t_roll + t) / (t_roll + t_peer)))
    return rows


def run() -> list[str]:
    """The report's lines."""
    lines = [f"a roll's text in each format, against the line before the renderers (µs); target ratio <= {TARGET}"]
    for case, fmt, peer, ratio, whole in measure():
        flag = "" if ratio <= TARGET else "  (over)"
        lines.append(f"  {case:<30} {fmt:<10} peer {peer:6.2f}  ratio {ratio:5.2f}x  roll + text {whole:5.2f}x{flag}")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
