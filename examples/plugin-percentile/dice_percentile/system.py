"""The ``percentile`` system: roll-under percentile checks with bonus and penalty dice and success levels.

A d100 is a tens die (00 to 90) and a units die (0 to 9); 00 and 0 read 100. A bonus die is one more tens
die, the lowest result kept; a penalty die, the highest kept (one or two of either). Against a skill S
(1 to 100), the result is a critical success on 01, a fumble on 100 (on 96 to 100 when S is under 50), an
extreme success at or under S/5, a hard success at or under S/2, a regular success at or under S, else a
failure (fractions rounded down). ``vs hard`` / ``vs extreme`` asks for at least that level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from lark import Token

from diceengine import Die, Plan, System
from diceengine.arith import constant
from diceengine.ast import Node, start, to_int
from diceengine.distributions import Distribution
from diceengine.errors import DiceValueError
from diceengine.limits import PYTHON_STEP, Cost
from diceengine.parts import Face, Group, Part, Words

__all__ = ["LEVELS", "PercentileOutcome", "PercentilePlan", "PercentileSystem", "level_of"]

#: success levels, worst to best, and the words a roll's text says
LEVELS = {-1: "fumble", 0: "failure", 1: "regular success", 2: "hard success", 3: "extreme success",
          4: "critical success"}
#: the level ``vs WORD`` asks for
NEEDED = {"regular": 1, "hard": 2, "extreme": 3}
MAX_EXTRA = 2
MAX_SKILL = 100


def level_of(roll: int, skill: int) -> int:
    """The success level (a key of :data:`LEVELS`) of a d100 ``roll`` (1 to 100) against ``skill``."""
    if roll == 1:
        return 4
    if roll == 100 or (skill < 50 and roll >= 96):
        return -1
    if roll <= skill // 5:
        return 3
    if roll <= skill // 2:
        return 2
    return 1 if roll <= skill else 0


class PercentileOutcome(NamedTuple):
    """A percentile check: the d100 kept, its success level, and whether it reached the level asked for."""

    roll: int
    level: int
    success: bool


@dataclass(frozen=True, slots=True)
class ExtraDice(Node):
    """``bonus [N]`` or ``penalty [N]``."""

    kind: Any
    count: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            object.__setattr__(self, "pos", self.kind.start_pos)
            object.__setattr__(self, "kind", str(self.kind).lower())
        if isinstance(self.count, Token):
            object.__setattr__(self, "count", to_int(self.count))


@dataclass(frozen=True, slots=True)
class Difficulty(Node):
    """``vs regular``, ``vs hard`` or ``vs extreme``."""

    level: Any

    def __post_init__(self) -> None:
        if isinstance(self.level, Token):
            object.__setattr__(self, "level", str(self.level).lower())


@dataclass(frozen=True, slots=True)
class Check(Node):
    """``d100<=S [bonus N | penalty N] [vs LEVEL]``."""

    percentile: Any
    skill: Node
    extra_dice: ExtraDice | None
    difficulty: Difficulty | None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.percentile, Token):
            object.__setattr__(self, "pos", self.percentile.start_pos)
            object.__setattr__(self, "percentile", "d100")


def _value(tens: int, units: int) -> int:
    """The d100 read from a tens face (0 to 9) and a units face: 00 and 0 read 100."""
    return tens * 10 + units or 100


class PercentilePlan(Plan):
    """One percentile check, prepared: the skill, the tens dice thrown, which one is kept, the level asked."""

    outcome_type = PercentileOutcome

    def __init__(self, expression: str, skill: int, tens: int, lowest: bool, needed: int) -> None:
        self.expression = expression
        self.skill = skill
        self.tens = tens
        self.lowest = lowest
        self.needed = needed
        self.dice_per_roll = tens + 1
        self.levels = np.array([0, *(level_of(r, skill) for r in range(1, 101))], dtype=np.int64)

    def _outcome(self, roll: int) -> PercentileOutcome:
        level = int(self.levels[roll])
        return PercentileOutcome(roll, level, level >= self.needed)

    def roll(self, rng: Any) -> tuple[PercentileOutcome, tuple[tuple[int, ...], int, int]]:
        r = rng.random
        tens = tuple(int(r() * 10) for _ in range(self.tens))
        units = int(r() * 10)
        values = [_value(t, units) for t in tens]
        kept = values.index(min(values) if self.lowest else max(values))
        return self._outcome(values[kept]), (tens, units, kept)

    def dice(self, record: tuple[tuple[int, ...], int, int]) -> list[Die]:
        tens, units, kept = record
        return [*(Die("tens", 10, 10 * t, kept=i == kept, added=i > 0) for i, t in enumerate(tens)),
                Die("units", 10, units)]

    def explain(self, outcome: Any, record: tuple[tuple[int, ...], int, int]) -> list[Part]:
        parts: list[Part] = [Group((self.expression,), "expression"), ": ["]
        for die in self.dice(record):
            parts += (Face(die, critical=False), ", ")
        parts[-1] = "] = "
        parts += (str(outcome.roll), ", ", Group((Words(LEVELS[outcome.level]),), "result"))
        if self.needed > 1:
            asked = next(word for word, level in NEEDED.items() if level == self.needed)
            verdict = "reaches {difficulty}" if outcome.success else "falls short of {difficulty}"
            parts += (", ", Words(verdict, args=(("difficulty", asked),)))
        return parts

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        units = rng.integers(0, 10, size=(n, 1))
        values = rng.integers(0, 10, size=(n, self.tens)) * 10 + units
        values[values == 0] = 100
        rolls = values.min(axis=1) if self.lowest else values.max(axis=1)
        levels = self.levels[rolls]
        return {"roll": rolls, "level": levels, "success": levels >= self.needed}

    def distribution(self) -> Distribution:
        # for each units face, the ten d100 values the tens faces give, sorted: the lowest of m dice is the
        # i-th value with probability ((10 - i)^m - (9 - i)^m) / 10^m, the highest ((i + 1)^m - i^m) / 10^m
        m = self.tens
        p = np.zeros(101)
        for units in range(10):
            values = sorted(_value(t, units) for t in range(10))
            for i, v in enumerate(values):
                ways = (10 - i) ** m - (9 - i) ** m if self.lowest else (i + 1) ** m - i ** m
                p[v] += ways / 10 ** m / 10
        rolls = np.arange(1, 101)
        levels = self.levels[rolls]
        return Distribution(PercentileOutcome, {"roll": rolls, "level": levels, "success": levels >= self.needed},
                            p[1:])

    def exact_cost(self) -> Cost:
        """A hundred values, one Python step each."""
        return Cost(100 * PYTHON_STEP, 101)


class PercentileSystem(System):
    """Percentile roll-under checks (a plug-in: its grammar, ``percentile.lark``, lives in its own package)."""

    name = "percentile"
    summary = "percentile roll-under: d100<=S [bonus N | penalty N] [vs hard | extreme]; success levels"
    examples = ("d100<=60", "d100<=45 bonus", "d%<=70 penalty 2", "d100<=50 vs hard")
    grammar = "percentile.lark"
    outcome = PercentileOutcome

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        skill = constant(tree.skill)
        if not 1 <= skill <= MAX_SKILL:
            raise DiceValueError("a skill is 1 to {most}, not {skill}", expression, start(tree.skill),
                                 most=MAX_SKILL, skill=skill)
        extra, lowest = 0, True
        if tree.extra_dice is not None:
            extra = 1 if tree.extra_dice.count is None else tree.extra_dice.count
            lowest = tree.extra_dice.kind == "bonus"
            if not 1 <= extra <= MAX_EXTRA:
                raise DiceValueError("one or two {kind} dice, not {count}", expression, tree.extra_dice.pos,
                                     kind=tree.extra_dice.kind, count=extra)
        needed = 1 if tree.difficulty is None else NEEDED[tree.difficulty.level]
        return PercentilePlan(expression, skill, 1 + extra, lowest, needed)

    def catalogue(self) -> Sequence[tuple[str, str]]:
        """Skills 5 to 95 by fives, with no, one or two bonus or penalty dice, at each difficulty."""
        extras = ("", " bonus", " bonus 2", " penalty", " penalty 2")
        return [(text, text) for skill in range(5, 100, 5) for extra in extras for level in NEEDED
                for text in [f"d100<={skill}{extra}" + ("" if level == "regular" else f" vs {level}")]]

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        skills = [(f"skill {s}", f"d100<={s}") for s in (25, 40, 50, 60, 75, 90)]
        return skills, [(level, level) for level in NEEDED]
