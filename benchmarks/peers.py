"""A roll's text and JSON against avrae's ``d20`` (the ``bench`` extra), measured side by side in one run.

For each expression: ``str(de.roll(e))``, ``de.roll(e).model_dump_json()`` and ``de.roll(e)`` alone,
each as a ratio to ``d20.roll(e).result`` (d20's text of the same dice: d20 spells ``4d6!`` ``4d6e6``
and has no success counts, so ``8d10>=7`` is compared with d20 rolling and showing ``8d10``). The two
sides are timed alternately, round after round, and each side keeps its best round (as ``timeit``
advises), so that a busy machine slows neither more than the other. Goals (issue 25; issue 11's were 0.2x and
0.3x): text <= 0.15x, JSON <= 0.25x.

``python -m benchmarks.peers``; skipped cleanly when ``d20`` is not installed.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable, Iterator
from typing import Any

import diceengine as de

#: (this engine's expression, d20's spelling of the same dice)
EXPRESSIONS: list[tuple[str, str]] = [
    ("1d20+5", "1d20+5"),
    ("4d6kh3", "4d6kh3"),
    ("10d6", "10d6"),
    ("3d6+2d8+4", "3d6+2d8+4"),
    ("2d20kh1+5", "2d20kh1+5"),
    ("4d6!", "4d6e6"),
    ("8d10>=7", "8d10"),
    ("(1d20+5, 1d20+5)kh1", "(1d20+5, 1d20+5)kh1"),
    ("1d8+4[piercing] + 2d6[fire]", "1d8+4[piercing] + 2d6[fire]"),
]

TEXT_GOAL, JSON_GOAL = 0.15, 0.25


def load_peer() -> Any:
    """The ``d20`` module, or None when it is not installed (or cannot load)."""
    try:
        import d20  # type: ignore[import-untyped]

        d20.roll("1d20")
    except Exception:  # noqa: BLE001 - not installed, or broken by its pinned lark-parser: skip the peer
        return None
    return d20


def _time(fn: Callable[[], object], number: int) -> float:
    return timeit.timeit(fn, number=number) / number


def ratio(ours: Callable[[], object], peer: Callable[[], object], number: int = 100, rounds: int = 31) -> float:
    """Our best time over the peer's best time, the two timed alternately for ``rounds`` rounds."""
    ours(), peer()
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(_time(ours, number))
        theirs.append(_time(peer, number))
    return min(mine) / min(theirs)


def measure(d20: Any, number: int = 100, rounds: int = 31) -> list[tuple[str, float, float, float, float]]:
    """``(expression, d20 µs, text ratio, JSON ratio, roll ratio)`` for each expression."""
    rows = []
    for expr, spelled in EXPRESSIONS:
        de.roll(expr)
        d20.roll(spelled)

        def peer(s: str = spelled) -> object:
            return d20.roll(s).result

        t_peer = min(_time(peer, number) for _ in range(3))
        def text_of(e: str = expr) -> object:
            return str(de.roll(e))

        def json_of(e: str = expr) -> object:
            return de.roll(e).model_dump_json()

        def roll_of(e: str = expr) -> object:
            return de.roll(e)

        text = ratio(text_of, peer, number, rounds)
        json = ratio(json_of, peer, number, rounds)
        roll = ratio(roll_of, peer, number, rounds)
        rows.append((expr, t_peer * 1e6, text, json, roll))
    return rows


def run() -> Iterator[str]:
    d20 = load_peer()
    if d20 is None:
        yield "text and JSON against d20: skipped (pip install -e '.[bench]' to compare with avrae's d20)"
        return
    yield (f"a roll's text and JSON against d20's text of the same dice (ratios of best times, timed alternately; "
           f"goals: text <= {TEXT_GOAL}x, JSON <= {JSON_GOAL}x)")
    for expr, peer_us, text, json, roll in measure(d20):
        ok = "ok" if text <= TEXT_GOAL and json <= JSON_GOAL else "MISSED"
        yield (f"  {expr:<28} d20 {peer_us:7.1f} µs   text {text:5.3f}x  json {json:5.3f}x  roll alone {roll:5.3f}x"
               f"  {ok}")


def main() -> None:
    for line in run():
        print(line, flush=True)


if __name__ == "__main__":
    main()
