"""A check written in a notation whose total says whether it holds: ``1d20+5>=15``, ``1d20+5 vs 15``,
``P(4d6kh3 > 3d6)`` (1 when it holds, else 0). ``dice roll`` says such a roll's success or failure in words,
with its chance of success (its exact odds, when they can be had); ``dice compare`` shows its chance as a success.
The JSON keeps the data (the total 1 or 0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import N_, gettext

__all__ = ["COMPARISONS", "chance_of_success", "check_line", "is_check"]

#: the operators of a comparison whose total is 1 when it holds, else 0 (``1d20+5 >= 15``)
COMPARISONS = frozenset({"==", "=", "!=", "<>", "<", "<=", ">", ">="})
SUCCEEDS, FAILS = N_("{roll}: success ({chance} chance of success)"), N_("{roll}: failure ({chance} chance of success)")
SUCCEEDS_ALONE, FAILS_ALONE = N_("{roll}: success"), N_("{roll}: failure")


def is_check(system: str, expression: str, options: Mapping[str, Any]) -> bool:
    """``expression`` ends in a comparison (a plan whose last operation compares), so that its total says whether
    it holds (1) or not (0): a check, whose chance of success is P(total = 1)."""
    from ..api import plan

    return getattr(getattr(plan(expression, system, **options), "root", None), "op", None) in COMPARISONS


def chance_of_success(system: str, expression: str, options: Mapping[str, Any]) -> float | None:
    """P(total = 1) of the check ``expression``, or ``None`` when its exact odds cannot be had (past the engine's bounds)."""
    from ..api import distribution
    from ..errors import DiceError

    try:
        return float(distribution(expression, system, **options).marginal().get(1, 0.0))
    except DiceError:  # past the bounds of exact odds (the roll itself was read)
        return None


def check_line(text: str, total: Any, chance: float | None, lang: str | None) -> str:
    """The roll's ``text`` followed by its success (a total of 1) or failure, and ``chance`` (of success)."""
    if chance is None:
        return gettext(SUCCEEDS_ALONE if total == 1 else FAILS_ALONE, lang, roll=text)
    return gettext(SUCCEEDS if total == 1 else FAILS, lang, roll=text, chance=f"{100 * chance:.2f}%")
