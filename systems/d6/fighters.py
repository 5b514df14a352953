"""The D6 combatant, shared by the combats of classic D6 and of D6 with the Wild Die: a fighter's dice
codes in an encounter file (:data:`CodeField`), the exact totals of a code, difficulties by name, when a
character relies on the Force and the codes it rolls then (rule texts ``000`` and ``003``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator, field_validator

from diceengine.errors import DiceError

from ..combat import NO_ROLL, ArrayBattle, Encounter, reroll_ties
from .codes import Code, parse_code
from .shared import reaction_difficulty, tie_winner

__all__ = [
    "FORCE_POLICIES",
    "MAX_FORCE_POINTS",
    "CodeBattle",
    "CodeField",
    "D6Fighter",
    "ForcePolicy",
    "cdf_at",
    "code_pmf",
    "difficulty_cdf",
    "range_difficulty",
    "relies_on_force",
    "resist",
    "rolled",
    "spenders",
]

_PLAIN = re.compile(r"(?:(?P<dice>\d{1,4})\s*[dD])?\s*(?P<pips>[+-]?\s*\d{1,4})?")


def _code(value: Any) -> Code:
    if isinstance(value, Code):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"a dice code is written like \"4D+2\", not {value!r}")  # noqa: TRY004 (pydantic's)
    text = (str.__str__(value) if isinstance(value, str) else str(value)).strip()  # a str subclass is its text
    plain = _PLAIN.fullmatch(text)
    if plain and text:  # "4D+2", "0D+2", "2": codes a check could not roll (armour pips) are still codes
        dice = int(plain["dice"]) if plain["dice"] is not None else 0
        pips = int(plain["pips"].replace(" ", "")) if plain["pips"] else 0
        return Code(dice, pips)
    try:
        return parse_code(text)
    except DiceError as err:
        raise ValueError(f"not a dice code: {value!r} ({err.message})") from None


#: a D6 dice code in an encounter file (``"4D+2"``)
CodeField = Annotated[Code, PlainValidator(_code), PlainSerializer(str, return_type=str)]


def code_pmf(code: Code, system: str, **options: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``(totals, probabilities)`` of rolling ``code`` in ``system`` (``None``: reduced to 0D), from the
    engine's exact distribution."""
    if code.dice <= 0:
        return None
    from diceengine.api import distribution

    marginal = distribution(str(code), system, **options).marginal("total")
    values = np.fromiter(marginal.keys(), dtype=np.int64)
    probs = np.fromiter(marginal.values(), dtype=np.float64)
    return values, probs / probs.sum()


#: most Force points a combatant brings to a fight
MAX_FORCE_POINTS = 5
#: when a character relies on the Force (spends a Force point: every code doubled for the round)
ForcePolicy = Literal["never", "first_round", "when_wounded"]
FORCE_POLICIES: tuple[str, ...] = get_args(ForcePolicy)


class D6Fighter(BaseModel):
    """A combatant in classic D6."""

    model_config = ConfigDict(extra="forbid")

    name: str
    attack: CodeField
    dodge: CodeField | None = None
    strength: CodeField
    damage: CodeField
    armour: CodeField = Code(0, 0)
    player: bool = False
    force_points: int = Field(0, ge=0, le=MAX_FORCE_POINTS)

    @field_validator("attack", "strength", "damage")
    @classmethod
    def _rollable(cls, code: Code) -> Code:
        if code.dice < 1:
            raise ValueError(f"{code} has no dice: a code needs at least 1D")
        return code

    @field_validator("armour")
    @classmethod
    def _not_negative(cls, code: Code) -> Code:
        if code.dice < 0 or code.in_pips < 0:
            raise ValueError("armour is not negative")
        return code


def range_difficulty(value: str | int, names: Mapping[str, int]) -> int:
    """A difficulty by name or number."""
    if isinstance(value, int):
        if not 0 <= value <= 100:
            raise ValueError("a difficulty is 0 to 100")
        return value
    key = value.lower().replace(" ", "_").replace("-", "_")
    if key not in names:
        raise ValueError(f"unknown range {value!r} (known: {', '.join(names)}, or a number)")
    return names[key]


def relies_on_force(policy: str, wounded: bool, points: int, opening: bool) -> bool:
    """The ``force_point`` policy: whether a character with ``points`` Force points left spends one at
    the start of a round: ``"never"``; ``"first_round"`` (when ``opening``); ``"when_wounded"`` (a round begun
    wounded). The same reading serves d6wild's ``character_point`` policy, ``"every_round"`` given ``opening``
    always."""
    if points <= 0 or policy == "never":
        return False
    return wounded if policy == "when_wounded" else opening


def cdf_at(cdf: tuple[np.ndarray, np.ndarray], totals: np.ndarray) -> np.ndarray:
    """``P(X <= t)`` for each of ``totals``, from ``(values, P(X <= value))`` of a roll ``X`` (a difficulty
    after a dodge: the chance each attack total hits)."""
    values, below = cdf
    if len(values) == 1:  # one value (no dodge): a comparison
        return np.where(totals >= values[0], below[0], 0.0)
    idx = np.searchsorted(values, totals, side="right") - 1
    return np.where(idx >= 0, below[np.clip(idx, 0, len(below) - 1)], 0.0)


def difficulty_cdf(base: int, dodge: tuple[np.ndarray, np.ndarray] | None, mode: str = "add"
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``(difficulties, P(difficulty <= value))`` of a shot at ``base`` against the target's ``dodge`` roll
    (``(totals, probabilities)``; ``None``: no dodge), read by :func:`reaction_difficulty` (``mode``)."""
    if dodge is None:
        return np.array([base]), np.array([1.0])
    diffs = np.array([reaction_difficulty(base, int(v), mode) for v in dodge[0]])
    order = np.argsort(diffs, kind="stable")
    return diffs[order], np.cumsum(dodge[1][order])


def spenders(policy: str, points: np.ndarray, wounded: np.ndarray, due: bool) -> np.ndarray:
    """A spending policy over the fights' arrays (:func:`relies_on_force`): who spends a point at the start of
    this round, of those with ``points`` left: the ``wounded`` (``"when_wounded"``), else all when ``due``."""
    return (points > 0) & (wounded if policy == "when_wounded" else due)


def rolled(code: Code, penalty: int, force: bool) -> Code:
    """The code rolled: doubled by a Force point spent this round (text ``000``: 5D+1 -> 10D+2), then
    less the penalty dice."""
    return (code * 2 if force else code) - Code(penalty, 0)


def resist(f: D6Fighter, force: bool) -> Code:
    """The roll against damage: Strength (never modified, but doubled by a Force point) plus armour."""
    return (f.strength * 2 if force else f.strength) + f.armour


class RangedEncounter(Encounter):
    """An encounter at a ``range``: a name of the ruleset's ``ranges`` or a difficulty."""

    ranges: ClassVar[Mapping[str, int]]
    range: str | int = "short"

    @field_validator("range")
    @classmethod
    def _range(cls, value: str | int) -> str | int:
        range_difficulty(value, cls.ranges)
        return value

    @property
    def difficulty(self) -> int:
        """The difficulty of a shot at this range."""
        return range_difficulty(self.range, self.ranges)


class CodeBattle(ArrayBattle):
    """The simulated fights of both D6 rulesets: each combatant's side, whether a player plays it and whether it
    dodges, and how tied initiative goes (a duel by :func:`~diceengine.systems.d6.tie_winner`, more by a coin)."""

    #: the rows each fighter has in the samplers of a round, by penalty (:meth:`rows`)
    depth: int

    def __init__(self, setup: Any, n: int) -> None:
        fighters = setup.fighters()
        super().__init__(np.array([0] * len(setup.a) + [1] * len(setup.b)), n)
        self.setup = setup
        self.player = np.array([f.player for f in fighters])
        self.dodges = np.array([setup.dodges(f) for f in fighters])
        self.tie = tie_winner(bool(self.player[0]), bool(self.player[-1])) if len(fighters) == 2 else "random"

    def rows(self, who: Any, force: Any, pen: np.ndarray) -> np.ndarray:
        """The samplers' rows of fighters ``who`` (a Force point spent or not) at penalties ``pen``: ``depth`` rows
        each, the last standing for every deeper penalty."""
        return ((who * 2 + force) * self.depth + np.minimum(pen, self.depth - 1)).astype(np.int64)

    def initiative(self, sampler: Any, force: np.ndarray, pen: np.ndarray, out: np.ndarray,
                   gen: np.random.Generator) -> np.ndarray:
        """The round's ``(n, K)`` initiative totals drawn from ``sampler`` by :meth:`rows` (:data:`NO_ROLL` for those
        out of the fight), a duel's tied totals thrown again when its tie rule says so."""
        who = np.arange(out.shape[1])[None, :]

        def draw(rows: Any) -> np.ndarray:
            totals = sampler(self.rows(who, force[rows], pen[rows]).ravel(), gen).reshape(-1, out.shape[1])
            totals[out[rows]] = NO_ROLL
            return totals

        totals = draw(slice(None))
        if self.tie == "reroll":
            reroll_ties(totals[:, 0], totals[:, 1], lambda rows: tuple(draw(rows).T))
        return totals

    def acting_order(self, totals: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """The combatants of each fight in the order they act: the higher initiative total first, a player
        character before an NPC on a tie, else a coin."""
        key = totals + 0.5 * self.player[None, :] + 0.25 * gen.random(totals.shape)
        return np.argsort(-key, axis=1)
