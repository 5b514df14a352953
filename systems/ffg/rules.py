"""The rules of the FFG narrative dice (rule text ``004``) as plain functions: building a pool from a
characteristic and skill ranks (:class:`DicePool`, upgrades and downgrades, opposed checks), the destiny
pool, minion groups, critical injuries, initiative and advancement costs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from diceengine.api import Expressible
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_

from ..rulebook import rule, rule_table
from .dice import LETTERS, MAX_POOL

__all__ = [
    "DIFFICULTIES",
    "DIFFICULTY_WORDS",
    "RULES",
    "RULE_SUMMARIES",
    "DestinyPool",
    "DicePool",
    "build_pool",
    "characteristic_cost",
    "critical_injury",
    "destiny_pool",
    "initiative_order",
    "minions_defeated",
    "skill_cost",
    "talent_cost",
]


# ---------------------------------------------------------------- building pools (004)

#: difficulty by name: purple dice
DIFFICULTIES = {"simple": 0, "easy": 1, "average": 2, "hard": 3, "daunting": 4, "formidable": 5}


#: the die an upgrade turns into a better one, and that better one, on each side of a pool
_UPGRADES = {"ability": ("ability", "proficiency"), "difficulty": ("difficulty", "challenge")}


@dataclass(frozen=True)
class DicePool(Expressible):
    """Counts of each die in a check (``roll()``, ``distribution()``)."""

    system_name = "ffg"

    ability: int = 0
    proficiency: int = 0
    boost: int = 0
    difficulty: int = 0
    challenge: int = 0
    setback: int = 0
    force: int = 0

    @property
    def expression(self) -> str:
        pos = "".join(f"{getattr(self, d)}{LETTERS[d]}" for d in ("ability", "proficiency", "boost") if getattr(self, d))
        neg = "".join(f"{getattr(self, d)}{LETTERS[d]}" for d in ("difficulty", "challenge", "setback") if getattr(self, d))
        force = f"{self.force}f" if self.force else ""
        text = (pos + force) or "0a"
        return f"{text} vs {neg}" if neg else text

    def upgrade(self, times: int = 1, side: Literal["ability", "difficulty"] = "ability") -> DicePool:
        """Upgrade ``times`` dice: green to yellow (purple to red for ``side="difficulty"``); an upgrade
        with no green (purple) die left adds one (the next upgrade then turns it yellow)."""
        low, high = _UPGRADES[side]
        lows = getattr(self, low)
        turned = min(_times(times, N_("upgrades are a whole number from 0 to {most}, not {times}")), lows)
        rest = times - turned  # past the green dice: one added, the next turning it, and so on
        return replace(self, **{low: lows - turned + rest % 2, high: getattr(self, high) + turned + rest // 2})

    def downgrade(self, times: int = 1, side: Literal["ability", "difficulty"] = "ability") -> DicePool:
        """Downgrade ``times`` dice: yellow to green (red to purple); extra downgrades are ignored."""
        low, high = _UPGRADES[side]
        n = min(_times(times, N_("downgrades are a whole number from 0 to {most}, not {times}")), getattr(self, high))
        return replace(self, **{low: getattr(self, low) + n, high: getattr(self, high) - n})


def _times(times: int, refusal: str) -> int:
    """A number of upgrades or downgrades: a whole number from 0 to the most dice a pool may hold."""
    if isinstance(times, bool) or not isinstance(times, int) or not 0 <= times <= MAX_POOL:
        raise DiceLimitError(refusal, most=MAX_POOL, times=repr(times))
    return times


#: the text's bounds: characteristics 1 to 6, skill ranks 0 to 5
MIN_CHARACTERISTIC, MAX_CHARACTERISTIC, MAX_CREATION_CHARACTERISTIC, MAX_SKILL = 1, 6, 5, 5


def _split(characteristic: int, ranks: int, whose: str = "a") -> tuple[int, int]:
    """(green, yellow): the higher of the two in dice, the lower of them upgraded."""
    if not MIN_CHARACTERISTIC <= characteristic <= MAX_CHARACTERISTIC:
        raise DiceValueError(N_("a characteristic is {low} to {high}, not {characteristic}") if whose == "a" else
                             N_("the opponent's characteristic is {low} to {high}, not {characteristic}"),
                             low=MIN_CHARACTERISTIC, high=MAX_CHARACTERISTIC, characteristic=characteristic)
    if not 0 <= ranks <= MAX_SKILL:
        raise DiceValueError(N_("a skill rank is 0 to {max_skill}, not {current}") if whose == "a" else
                             N_("the opponent's skill rank is 0 to {max_skill}, not {current}"),
                             max_skill=MAX_SKILL, current=ranks)
    return max(characteristic, ranks) - min(characteristic, ranks), min(characteristic, ranks)


def _unknown_difficulty(name: str) -> DiceValueError:
    """A difficulty name FFG lacks: the nearest one when one is near ("hrad": hard), else them all."""
    from diceengine.hints import closest

    names = ", ".join(DIFFICULTIES)
    guess = closest(name, DIFFICULTIES, 0.7)
    if guess is not None:
        return DiceValueError(N_("unknown difficulty {name}: did you mean {guess}? (known: {names})"), name=repr(name),
                              guess=guess, names=names)
    return DiceValueError(N_("unknown difficulty {name} (known: {names})"), name=repr(name), names=names)


@rule(N_("The pool of a check from characteristic, skill ranks and difficulty."))
def build_pool(characteristic: int, skill: int, difficulty: int | str = 0, boost: int = 0, setback: int = 0,
               upgrades: int = 0, downgrades: int = 0, difficulty_upgrades: int = 0,
               difficulty_downgrades: int = 0, opponent: tuple[int, int] | None = None, force: int = 0) -> DicePool:
    """The pool of a check: green dice = the higher of characteristic and skill ranks, the lower number
    of them upgraded to yellow; the difficulty in purple dice (0-5 or easy .. formidable), or an
    opposed check from the opponent's ``(characteristic, ranks)`` built the same way (purple, red);
    boost and setback dice; upgrades then downgrades, on each side."""
    green, yellow = _split(characteristic, skill)
    if opponent is not None:
        purple, red = _split(*opponent, whose="the opponent's")
    else:
        if isinstance(difficulty, str):
            if difficulty.lower() not in DIFFICULTIES:
                raise _unknown_difficulty(difficulty)
            difficulty = DIFFICULTIES[difficulty.lower()]
        if not 0 <= difficulty <= 5:
            raise DiceValueError(N_("a difficulty is 0 to 5 purple dice, not {difficulty}"), difficulty=difficulty)
        purple, red = difficulty, 0
    pool = DicePool(green, yellow, boost, purple, red, setback, force)
    pool = pool.upgrade(upgrades).downgrade(downgrades)
    return pool.upgrade(difficulty_upgrades, "difficulty").downgrade(difficulty_downgrades, "difficulty")


# ---------------------------------------------------------------- destiny (004)


@dataclass(frozen=True)
class DestinyPool:
    """Destiny tokens: light for the players, dark for the game master."""

    light: int
    dark: int

    def spend(self, side: str, pool: DicePool | None = None) -> tuple[DestinyPool, DicePool | None]:
        """Spend a token of ``side`` (``"light"``: the players, ``"dark"``: the game master): it flips to
        the other side, and one die of the spender's side of ``pool`` is upgraded (the players upgrade
        their ability dice, the game master the difficulty)."""
        if side == "light":
            if not self.light:
                raise DiceValueError(N_("no light side token to spend"))
            flipped = DestinyPool(self.light - 1, self.dark + 1)
            return flipped, pool.upgrade(1) if pool else None
        if side == "dark":
            if not self.dark:
                raise DiceValueError(N_("no dark side token to spend"))
            flipped = DestinyPool(self.light + 1, self.dark - 1)
            return flipped, pool.upgrade(1, "difficulty") if pool else None
        raise DiceValueError(N_("side is 'light' or 'dark', not {side}"), side=repr(side))


@rule(N_("A session's destiny pool: each player rolls one Force die."))
def destiny_pool(players: int, seed: Any = None) -> DestinyPool:
    """A session's destiny pool: each player rolls one Force die; light and dark points become tokens."""
    if not 1 <= players <= MAX_POOL:
        raise DiceValueError(N_("1 to {max_pool} players roll for the destiny pool"), max_pool=MAX_POOL)
    from diceengine.api import roll

    outcome = roll(f"{players}f", "ffg", seed=seed).outcome
    return DestinyPool(outcome.light, outcome.dark)


# ---------------------------------------------------------------- combat (004)


@rule(N_("Minions a hit takes out of a group."))
def minions_defeated(damage: int, soak: int, wound_threshold: int, group_size: int) -> int:
    """Minions a hit takes out of a group: one for each full wound threshold the wounds (damage minus
    soak) exceed, capped at the group's size (the stormtrooper example: soak 5, threshold 5: damage
    10 -> none, 11 -> one, 15 -> one, 16 to 20 -> two)."""
    if wound_threshold < 1 or group_size < 0:
        raise DiceValueError(N_("a wound threshold is at least 1 and a group is not negative"))
    wounds = max(0, damage - soak)
    return min(group_size, max(0, (wounds - 1) // wound_threshold))


@rule(N_("A critical injury roll: d100 plus the modifier."))
def critical_injury(modifier: int = 0, seed: Any = None) -> int:
    """A critical injury roll: d100 plus the modifier (+10 per critical already suffered, ...)."""
    from diceengine.api import roll

    return roll(f"1d100+{modifier}" if modifier >= 0 else f"1d100-{-modifier}", "standard", seed=seed).total


@rule(N_("Names ordered by their Cool or Vigilance checks."))
def initiative_order(checks: Mapping[str, Any], players: Sequence[str] = (), players_first: bool = True) -> list[str]:
    """Names ordered by their Cool or Vigilance checks: more net successes first, then more advantage.

    ``checks`` maps a name to its outcome (a :class:`NarrativeOutcome`) or to a ``(success, advantage)``
    pair. Ties keep the order given, except that with ``players_first`` (the published rule) the
    player characters named in ``players`` go before the others."""
    def key(name: str) -> tuple[int, int, int]:
        check = checks[name]
        success, advantage = (check.success, check.advantage) if hasattr(check, "success") else tuple(check)
        return -int(success), -int(advantage), 0 if (players_first and name in players) else 1

    return sorted(checks, key=key)


# ---------------------------------------------------------------- advancement (004)


@rule(N_("XP to raise a characteristic one level."))
def characteristic_cost(current: int, created: bool = True) -> int:
    """XP to raise a characteristic one level: the next level x 10; at most 5 at creation, 6 after."""
    cap = MAX_CHARACTERISTIC if created else MAX_CREATION_CHARACTERISTIC
    if current < MIN_CHARACTERISTIC:
        raise DiceValueError(N_("a characteristic is at least {min_characteristic}, not {current}"),
                             min_characteristic=MIN_CHARACTERISTIC, current=current)
    if current + 1 > cap:
        raise DiceValueError(N_("a characteristic cannot go above {cap}") if created
                             else N_("a characteristic cannot go above {cap} at creation"), cap=cap)
    return 10 * (current + 1)


@rule(N_("XP to buy the next rank of a skill."))
def skill_cost(current: int, career: bool = True) -> int:
    """XP to buy the next rank of a skill: 5 x the rank, +5 outside the career; at most rank 5."""
    if current < 0:
        raise DiceValueError(N_("a skill rank is 0 to {max_skill}, not {current}"), max_skill=MAX_SKILL,
                             current=current)
    if current + 1 > MAX_SKILL:
        raise DiceValueError(N_("a skill cannot go above rank 5"))
    return 5 * (current + 1) + (0 if career else 5)


@rule(N_("XP for a talent on a specialisation tree."))
def talent_cost(tier: int) -> int:
    """XP for a talent on a specialisation tree: 5 x its tier (row 1 to 5)."""
    if not 1 <= tier <= 5:
        raise DiceValueError(N_("talent tiers are 1 to 5"))
    return 5 * tier


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    build_pool, destiny_pool, minions_defeated, critical_injury, characteristic_cost, skill_cost, talent_cost,
    initiative_order,
)
#: the difficulty names of :data:`DIFFICULTIES` (``dice ladder`` and ``dice convert`` say them in the user's language)
DIFFICULTY_WORDS = (N_("simple"), N_("easy"), N_("average"), N_("hard"), N_("daunting"), N_("formidable"))
