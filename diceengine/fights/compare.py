"""One encounter in every ruleset it is written for, side by side."""

from __future__ import annotations

from ..rng import Seed, numpy_rng
from .chain import duel_odds
from .encounter import Encounter, Fight
from .outcome import FightOdds
from .simulate import simulate

__all__ = ["compare", "odds", "table"]


def odds(fight: Fight, method: str = "auto", fights: int = 200_000, seed: Seed = None,
         rounds: int | None = None) -> FightOdds:
    """How the fight goes: ``"exact"`` (a duel), ``"simulated"``, or ``"auto"`` (exact when each side
    has one combatant, simulated otherwise)."""
    if method == "exact" or (method == "auto" and fight.one_against_one):
        return duel_odds(fight, rounds)
    if method not in ("auto", "simulated"):
        from ..errors import DiceValueError

        raise DiceValueError(f"method is 'auto', 'exact' or 'simulated', not {method!r}")
    return simulate(fight, fights, seed=seed, rounds=rounds)


def compare(encounter: Encounter, systems: list[str] | None = None, method: str = "auto",
            fights: int = 200_000, seed: Seed = None, rounds: int | None = None) -> list[FightOdds]:
    """The encounter in each ruleset (default: every ruleset it is written for, in file order)."""
    gen = numpy_rng(seed)
    return [odds(encounter[s], method, fights, gen, rounds) for s in (systems or encounter.systems)]


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


def table(results: list[FightOdds], marks: tuple[int, ...] = (1, 3, 5, 10)) -> list[str]:
    """The comparison as text lines: one row per ruleset."""
    if not results:
        return []
    first = results[0]
    a, b = first.sides
    head = (f"{'ruleset':<8} {'method':<10} {a + ' wins':>14} {b + ' wins':>14} {'both down':>9} "
            f"{'mean rounds':>11} {'median':>6}  " + "  ".join(f"{'over by ' + str(m):>10}" for m in marks))
    lines = [f"{first.encounter}: {', '.join(first.roster[0])} against {', '.join(first.roster[1])}", head]
    for r in results:
        method = r.method if r.fights is None else f"sim {_count(r.fights)}"
        mean = f"{r.mean_rounds:.2f}" if r.mean_rounds is not None else "-"
        median = r.median_rounds()
        over = []
        for m in marks:
            over.append(f"{_pct(1 - r.going[m - 1]):>10}" if m <= len(r.going) else f"{'-':>10}")
        lines.append(f"{r.system:<8} {method:<10} {_pct(r.a_wins):>14} {_pct(r.b_wins):>14} "
                     f"{_pct(r.both_down):>9} {mean:>11} {median if median else '-':>6}  " + "  ".join(over))
        if r.unfinished > 1e-9:
            lines.append(f"{'':<8} ({_pct(r.unfinished).strip()} of the fights never end)" if r.method == "exact"
                         else f"{'':<8} ({_pct(r.unfinished).strip()} still going after the last round)")
    return lines


def _count(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)
