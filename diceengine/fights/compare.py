"""One encounter in every ruleset it is written for, side by side."""

from __future__ import annotations

from ..i18n import N_, gettext
from ..rng import Seed, numpy_rng
from .chain import duel_odds
from .encounter import Encounter, Fight
from .outcome import FightOdds
from .simulate import simulate

__all__ = ["compare", "odds", "table"]

# the words of the comparison table, from the catalogues (shared with ``dice fight``'s own table)
RULESET, METHOD, MEDIAN, OVER_BY = N_("ruleset"), N_("method"), N_("median"), N_("over by {rounds}")
AGAINST, WINS = N_("{side_a} against {side_b}"), N_("{side} wins")
BOTH_DOWN, MEAN_ROUNDS = N_("both down"), N_("mean rounds")
EXACT, SIM = N_("exact"), N_("sim {fights}")
NEVER_END = N_("({share} of the fights never end)")
STILL_GOING_AFTER = N_("({share} still going after the last round)")


def odds(fight: Fight, method: str = "auto", fights: int = 200_000, seed: Seed = None,
         rounds: int | None = None) -> FightOdds:
    """How the fight goes: ``"exact"`` (a duel), ``"simulated"``, or ``"auto"`` (exact when each side
    has one combatant, simulated otherwise)."""
    if method == "exact" or (method == "auto" and fight.one_against_one):
        return duel_odds(fight, rounds)
    if method not in ("auto", "simulated"):
        from ..errors import DiceValueError

        raise DiceValueError(N_("method is 'auto', 'exact' or 'simulated', not {method!r}"), method=method)
    return simulate(fight, fights, seed=seed, rounds=rounds)


def compare(encounter: Encounter, systems: list[str] | None = None, method: str = "auto",
            fights: int = 200_000, seed: Seed = None, rounds: int | None = None) -> list[FightOdds]:
    """The encounter in each ruleset (default: every ruleset it is written for, in file order)."""
    gen = numpy_rng(seed)
    return [odds(encounter[s], method, fights, gen, rounds) for s in (systems or encounter.systems)]


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


def table(results: list[FightOdds], marks: tuple[int, ...] = (1, 3, 5, 10), lang: str | None = None) -> list[str]:
    """The comparison as text lines: one row per ruleset, its words in ``lang`` (English by default)."""
    if not results:
        return []
    first = results[0]
    a, b = first.sides
    head = (f"{gettext(RULESET, lang):<8} {gettext(METHOD, lang):<10} {gettext(WINS, lang, side=a):>14} "
            f"{gettext(WINS, lang, side=b):>14} {gettext(BOTH_DOWN, lang):>9} {gettext(MEAN_ROUNDS, lang):>11} "
            f"{gettext(MEDIAN, lang):>6}  " + "  ".join(f"{gettext(OVER_BY, lang, rounds=m):>10}" for m in marks))
    against = gettext(AGAINST, lang, side_a=", ".join(first.roster[0]), side_b=", ".join(first.roster[1]))
    lines = [f"{first.encounter}: {against}", head]
    for r in results:
        method = gettext(r.method, lang) if r.fights is None else gettext(SIM, lang, fights=_count(r.fights))
        mean = f"{r.mean_rounds:.2f}" if r.mean_rounds is not None else "-"
        median = r.median_rounds()
        over = []
        for m in marks:
            over.append(f"{_pct(1 - r.going[m - 1]):>10}" if m <= len(r.going) else f"{'-':>10}")
        lines.append(f"{r.system:<8} {method:<10} {_pct(r.a_wins):>14} {_pct(r.b_wins):>14} "
                     f"{_pct(r.both_down):>9} {mean:>11} {median if median else '-':>6}  " + "  ".join(over))
        if r.unfinished > 1e-9:
            lines.append(f"{'':<8} " + gettext(NEVER_END if r.method == "exact" else STILL_GOING_AFTER, lang,
                                               share=_pct(r.unfinished).strip()))
    return lines


def _count(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)
