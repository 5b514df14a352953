"""The ``d20pool`` system: a d20 success pool of the 2d20 family (rule text ``001``).

Notation: ``Nd20<=T`` rolls N d20 (2 when N is left out; 1 to 5 dice) against the threshold
T = attribute + discipline (``3d20<=9+3`` is allowed); ``spec D`` adds a specialisation whose
discipline is D; ``vs K`` checks against a difficulty of K successes (0 allowed).

Each die: a natural 1 is 2 successes (4 with a specialisation); a 20 is a complication (with a
specialisation, a plain failure) and never a success; otherwise a die <= D with a specialisation is 2
successes, a die <= T is 1 success. This follows the text where it differs from published 2d20 games.
With ``vs``, the check succeeds when successes >= K and each success beyond K is one point of Impulsion.

The text rolls "at least two d20": a pool of one die is refused unless the option ``one_die=True``
allows it (a house rule some tables use for trivial checks).

Readings chosen where the text is silent: extra dice cost 1, 2 and 3 points (of Impulsion, or of
Menace given to the game master) for the first, second and third, as in the 2d20 family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, NamedTuple

import numpy as np

from diceengine.algebra import SymbolDie, SymbolPool
from diceengine.arith import constant
from diceengine.ast import Node, Token, start, to_int
from diceengine.distributions import Distribution
from diceengine.errors import DiceValueError
from diceengine.i18n import N_, NP_
from diceengine.parts import Face, Group, Part, Words
from diceengine.registry import Option, Plan
from diceengine.rolls import Die

from ..ruleset import Ruleset, SymbolPoolPlan
from .rules import MAX_DICE, MIN_DICE, RULE_SUMMARIES, RULES  # noqa: F401 - `dice rule d20pool` reads them here

__all__ = ["D20PoolSystem", "PoolOutcome"]


SUCCESSES = NP_("{n} success", "{n} successes")
COMPLICATIONS = NP_("{n} complication", "{n} complications")
IMPULSION = NP_("{n} Impulsion", "{n} Impulsion")
SUCCESS, FAILURE = N_("success"), N_("failure")
_VERDICTS = {True: Group((Words(SUCCESS),), "result"), False: Group((Words(FAILURE),), "result")}
_COUNTS: dict[tuple[str, int], Words] = {}


def _words(forms: tuple[str, str], n: int) -> Words:
    """``3 successes``: a count in words (built once per count)."""
    found = _COUNTS.get((forms[0], n))
    if found is None:
        found = Words(*forms, n=n)
        if len(_COUNTS) < 1024:
            _COUNTS[(forms[0], n)] = found
    return found

#: the words of the outcome fields and of the chances ``dice odds`` prints
FIELD_WORDS = (N_("successes"), N_("complications"), N_("impulsion"), N_("at least one complication"))


class PoolOutcome(NamedTuple):
    """The outcome of a d20 pool."""

    successes: int
    complications: int
    success: bool | None = None
    impulsion: int | None = None


@dataclass(frozen=True, slots=True)
class Specialisation(Node):
    """``spec D``."""

    discipline: Node


@dataclass(frozen=True, slots=True)
class Difficulty(Node):
    """``vs K``."""

    successes: Node


@dataclass(frozen=True, slots=True)
class Pool(Node):
    """``Nd20<=T [spec D] [vs K]``."""

    count: Any
    d20: Any
    threshold: Node
    specialisation: Specialisation | None
    difficulty: Difficulty | None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.d20, Token):
            object.__setattr__(self, "pos", self.count.start_pos if isinstance(self.count, Token) else self.d20.start_pos)
            object.__setattr__(self, "d20", "d20")
        if isinstance(self.count, Token):
            object.__setattr__(self, "count", to_int(self.count))


def die_table(threshold: int, discipline: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Successes and complications of each face 1..20 (index 0 unused)."""
    spec = discipline is not None
    succ = np.zeros(21, dtype=np.int64)
    comp = np.zeros(21, dtype=np.int64)
    for v in range(1, 21):
        if v == 20:
            comp[v] = 0 if spec else 1
        elif v == 1:
            succ[v] = 4 if spec else 2
        elif spec and v <= discipline:  # type: ignore[operator]
            succ[v] = 2
        elif v <= threshold:
            succ[v] = 1
    return succ, comp


#: what a d20 of the pool counts
COUNTS = ("successes", "complications")


@cache  # at most 21 thresholds, each with 22 disciplines or none
def pool_die(threshold: int, discipline: int | None) -> SymbolDie:
    """One d20 of a pool as a die-algebra value, made once: its faces 1..20 count the successes and complications of
    :func:`die_table` (a roll records the face, 1 to 20)."""
    succ, comp = die_table(threshold, discipline)
    return SymbolDie.of(COUNTS, [(int(succ[v]), int(comp[v])) for v in range(1, 21)], name="d20", labels=range(1, 21))


def pool_dice(dice: int, threshold: int, discipline: int | None) -> SymbolPool:
    """The pool as a die-algebra value: ``dice`` d20 of :func:`pool_die`."""
    return SymbolPool([pool_die(threshold, discipline)] * dice)


class PoolPlan(SymbolPoolPlan):
    """A d20 pool, with or without a difficulty."""

    outcome_type = PoolOutcome
    _faces: list[Any] | None = None

    def __init__(self, expression: str, dice: int, threshold: int, discipline: int | None,
                 difficulty: int | None) -> None:
        self.expression = expression
        self.count = self.dice_per_roll = dice
        self.threshold = threshold
        self.discipline = discipline
        self.difficulty = difficulty
        self.pool = pool_dice(dice, threshold, discipline)
        self.table_fields = ("successes",) if difficulty is None else ("successes", "impulsion")

    def odds_summary(self, dist: Distribution) -> dict[str, float]:
        """The chances a game master asks for: success, at least one complication."""
        out = {"P(at least one complication)": dist.probability(lambda o: o.complications > 0)}
        if self.difficulty is not None:
            out["P(success)"] = dist.chance("success")
        return out

    def _outcome(self, successes: int, complications: int) -> PoolOutcome:
        if self.difficulty is None:
            return PoolOutcome(successes, complications)
        ok = successes >= self.difficulty
        return PoolOutcome(successes, complications, ok, successes - self.difficulty if ok else 0)

    def _check(self, counts: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The check read from the counts (:meth:`_outcome` on columns): success, and each success beyond the
        difficulty one point of Impulsion."""
        if self.difficulty is not None:
            ok = counts["successes"] >= self.difficulty
            counts["success"] = ok
            counts["impulsion"] = np.where(ok, counts["successes"] - self.difficulty, 0)
        return counts

    def roll(self, rng: Any) -> tuple[PoolOutcome, list[int]]:
        (successes, complications), faces = self.pool.roller(rng.random)
        return self._outcome(successes, complications), faces

    def dice(self, record: list[int]) -> list[Die]:
        counts = self.pool.dice[0].faces  # face v's (successes, complications) at v - 1
        return [Die("d20", 20, v, kept=counts[v - 1][0] > 0) for v in record]

    def _parts(self) -> tuple[Group, list[Any]]:
        """The expression and the parts of the faces 1..20 (index 0 unused), made once."""
        faces = self._faces
        if faces is None:
            counts = self.pool.dice[0].faces
            faces = self._faces = [None, *(Face(Die("d20", 20, v), score=counts[v - 1][0],
                                                complication=bool(counts[v - 1][1]), critical=v == 1)
                                           for v in range(1, 21))]
            self._head = Group((self.expression,), "expression")
        return self._head, faces

    def explain(self, outcome: Any, record: list[int]) -> list[Part]:
        head, faces = self._parts()
        parts: list[Part] = [head, ": ["]
        for v in record:
            parts += (faces[v], ", ")
        parts[-1] = "] = "
        parts.append(_words(SUCCESSES, outcome.successes))
        if outcome.complications:
            parts += (", ", _words(COMPLICATIONS, outcome.complications))
        if self.difficulty is not None:
            parts += (", ", _VERDICTS[bool(outcome.success)])
            if outcome.impulsion:
                parts += (", ", _words(IMPULSION, outcome.impulsion))
        return parts

    def explainer(self, text: Callable[[Any], str]) -> Callable[[Any, list[int]], str]:
        """:meth:`explain` compiled: the texts of the faces, words and separators asked once."""
        head, parts = self._parts()
        faces = [""] + [text(f) for f in parts[1:]]
        opening, sep, closing = text(head) + text(": ["), text(", "), text("] = ")
        verdicts = {ok: sep + text(_VERDICTS[ok]) for ok in (True, False)}
        difficulty = self.difficulty is not None
        counts: dict[tuple[str, int], str] = {}

        def count(forms: tuple[str, str], n: int) -> str:
            found = counts.get((forms[0], n))
            if found is None:
                found = text(_words(forms, n))
                if len(counts) < 256:
                    counts[(forms[0], n)] = found
            return found

        def write(outcome: Any, record: list[int]) -> str:
            line = opening + sep.join([faces[v] for v in record]) + closing + count(SUCCESSES, outcome.successes)
            if outcome.complications:
                line += sep + count(COMPLICATIONS, outcome.complications)
            if difficulty:
                line += verdicts[bool(outcome.success)]
                if outcome.impulsion:
                    line += sep + count(IMPULSION, outcome.impulsion)
            return line

        return write


class D20PoolSystem(Ruleset):
    """The d20 success pool of text ``001``."""

    name = "d20pool"
    summary = N_("d20 success pool (2d20 family): Nd20<=T [spec D] [vs K]; successes, complications, Impulsion")
    examples = ("2d20<=12", "3d20<=12 spec 3 vs 2", "d20<=9+3 vs 1", "5d20<=15 spec 5 vs 4")
    grammar = "d20pool.lark"
    grammar_package = "diceengine.grammars"
    outcome = PoolOutcome
    play_module = "diceengine.systems.d20pool.play"
    options: ClassVar[Mapping[str, Option]] = {"one_die": Option(False, N_("allow a pool of a single d20 (the text rolls at least two)"))}

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        count = 2 if tree.count is None else tree.count
        if count < 2 and not options["one_die"] and count >= MIN_DICE:
            raise DiceValueError(N_("a pool rolls at least two d20 (text 001), not {count} "
                                    "(the option one_die=true allows one)"), expression, tree.pos, count=count)
        if not MIN_DICE <= count <= MAX_DICE:
            raise DiceValueError(N_("a pool has {least} to {most} d20 (2, plus up to 3 bought), not {count}"),
                                 expression, tree.pos, least=MIN_DICE, most=MAX_DICE, count=count)
        threshold = constant(tree.threshold)
        if not 0 <= threshold <= 20:
            raise DiceValueError(N_("the threshold (attribute + discipline) must be 0 to 20, not {threshold}"),
                                 expression, start(tree.threshold), threshold=threshold)
        discipline = None
        if tree.specialisation is not None:
            discipline = constant(tree.specialisation.discipline)
            if not 0 <= discipline <= threshold:
                raise DiceValueError(N_("the specialisation's discipline must be 0 to the threshold ({threshold}), "
                                        "not {discipline}"), expression, start(tree.specialisation.discipline),
                                     threshold=threshold, discipline=discipline)
        difficulty = None
        if tree.difficulty is not None:
            difficulty = constant(tree.difficulty.successes)
            if difficulty < 0:
                raise DiceValueError(N_("a difficulty is 0 or more successes"), expression,
                                     start(tree.difficulty.successes))
        return PoolPlan(expression, count, threshold, discipline, difficulty)

    def catalogue(self) -> Sequence[tuple[str, str]]:
        """Thresholds 2-18, with or without a specialisation (discipline 1-5), 2-5 dice, difficulty 0-5."""
        out = []
        for threshold in range(2, 19):
            for spec in [None, *range(1, min(5, threshold) + 1)]:
                for dice in range(2, 6):
                    for k in range(6):
                        text = f"{dice}d20<={threshold}" + (f" spec {spec}" if spec else "") + f" vs {k}"
                        out.append((text, text))
        return out

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        rows = [f"2d20<={t}" for t in (6, 8, 10, 12, 14, 16)] + ["3d20<=12", "3d20<=12 spec 3", "5d20<=16 spec 5"]
        return [(r, r) for r in rows], [(f"difficulty {k}", str(k)) for k in range(6)]
