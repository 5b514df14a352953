"""Rolling D6 codes and checks, for any way of throwing a code (a :class:`CodeDice`).

A check is ``CODE vs DIFFICULTY``. The difficulty is a number, a named difficulty (the system's
ladder) or an expression with dice: circumstance dice added to a base difficulty (``vs 15+2D``) or an
opposing roll (``vs 2D+2``). A rolled difficulty is resolved by the ``tie`` option:

- ``"actor"`` (default): the actor wins ties: the rule of a difficulty (roll >= difficulty), and of a
  player character facing a non-player character;
- ``"opponent"``: the opponent wins ties (the opponent is the player character);
- ``"reroll"``: both are player characters, or both are not: ties are rolled again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any

import numpy as np

from diceengine.algebra.throw import Throw
from diceengine.arith import Interval, check_bounds, check_interval
from diceengine.distributions import Distribution
from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.i18n import N_, NP_
from diceengine.limits import MAX_DICE, MAX_EXPLOSIONS, MAX_REROLLS, NUMPY_CALL, Cost
from diceengine.parts import Dice, Face, Group, Part, Words
from diceengine.pmf import PMF, WORK
from diceengine.registry import Option, Plan
from diceengine.rolls import Die

from .codes import Check, Code, CodeLiteral, NamedDifficulty, code_of

__all__ = ["D6", "TIE_OPTION", "CodeDice", "CodePlan", "d6_texts", "joined", "prepare_check"]

#: a six-sided die thrown: every die of a code (its face as an algebra die: ``D6.die``)
D6 = Throw.of(range(1, 7))
_throw = D6.thrower

AGAINST = N_("against")
_AGAINST = Words(AGAINST)
TIES = NP_("{n} tie rolled again", "{n} ties rolled again")
SUCCESS_BY = N_("success by {margin}")
#: the words of the outcome fields of the D6 systems
FIELD_WORDS = (N_("total"), N_("success"), N_("margin"), N_("complication"), N_("explosions"))
FAILURE_BY = N_("failure by {margin}")


#: a six-sided die's faces as parts of a roll's text (index: the face)
D6_FACE_PARTS: list[Any] = [None, *(Face(Die("d6", 6, v)) for v in range(1, 7))]


_VERDICTS: dict[tuple[bool, int], Group] = {}


def _verdict(success: bool, margin: int) -> Group:
    """``success by 3``: the result of a check (built once per verdict and margin)."""
    found = _VERDICTS.get((success, margin))
    if found is None:
        found = Group((Words(SUCCESS_BY if success else FAILURE_BY, args=(("margin", margin),)),), "result")
        if len(_VERDICTS) < 1024:
            _VERDICTS[(success, margin)] = found
    return found


def d6_texts(text: Callable[[Any], str]) -> list[str]:
    """The texts of a six-sided die's faces in a run of dice (index: the face), for explainers."""
    return [""] + [text(Dice("d6", 6, (v,))) for v in range(1, 7)]


def joined(items: list[Any], pips: int) -> list[Part]:
    """``a + b + c + pips`` (``- pips`` when negative): items are parts or lists of parts."""
    if len(items) == 1 and type(items[0]) is not list:
        return [items[0], f" - {-pips}" if pips < 0 else f" + {pips}"] if pips else [items[0]]
    out: list[Part] = []
    for item in items:
        if type(item) is list:
            out += item
        else:
            out.append(item)
        out.append(" + ")
    if pips:
        if out:
            out[-1] = " - " if pips < 0 else " + "
            out.append(str(abs(pips)))
        else:
            out.append(str(pips))
    elif out:
        out.pop()
    return out

#: most (total, margin, ...) rows an exact distribution of a check may have
MAX_ROWS = 5_000_000

TIE_OPTION = Option("actor", N_("who wins a tie against a rolled difficulty: the actor (a player character "
                    "against an NPC; the >= rule), the opponent, or nobody (re-roll)"),
                    choices=("actor", "opponent", "reroll"))


class CodeDice:
    """How a code is thrown. Subclasses give the extra outcome fields (``extras``) and the dice.

    - ``roll(code, r)`` -> ``(total, extras tuple, record)``;
    - ``sample(code, n, gen)`` -> ``(totals, {extra field: array})``;
    - ``joint(code)`` -> ``({extras tuple: PMF of the total}, truncated mass)``;
    - ``joint_cost(code)`` -> ``(Cost, rows, span)``: what ``joint`` will cost, estimated without computing
      it: the :class:`~diceengine.limits.Cost`, the number of (extras, total) rows and the span of the totals;
    - ``dice(record)`` / ``parts(record, code)`` explain a roll (its dice, and the parts of its text);
    - ``opponent()`` the dice that throw an opposing code or the rolled part of a difficulty (what
      belongs to the actor alone, such as a character point, is left out).
    """

    extras: tuple[str, ...] = ()

    def roll(self, code: Code, r: Callable[[], float]) -> tuple[int, tuple, Any]:
        vals = _throw(r, code.dice)
        return sum(vals) + code.pips, (), vals

    def sample(self, code: Code, n: int, gen: np.random.Generator) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        if code.dice == 1:
            return D6.faces_of(n, gen) + code.pips, {}
        return D6.faces_of((n, code.dice), gen).sum(axis=1) + code.pips, {}

    def joint(self, code: Code) -> tuple[dict[tuple, PMF], float]:
        return {(): (D6.die.repeat(code.dice) + code.pips).pmf}, 0.0

    def joint_cost(self, code: Code) -> tuple[Cost, int, int]:
        cost, length = D6.die.repeat_cost(code.dice)
        return cost, length, length

    def dice(self, record: Any) -> list[Die]:
        return [Die("d6", 6, v) for v in record]

    def opponent(self) -> CodeDice:
        return self

    def parts(self, record: Any, code: Code) -> list[Part]:
        return joined([Dice("d6", 6, tuple(record))] if record else [], code.pips)

    def writer(self, text: Callable[[Any], str], code: Code) -> Callable[[Any], str]:
        """:meth:`parts` compiled for one format and language (:meth:`CodePlan.explainer`): ``record ->
        text``. By default, the texts of the parts one by one."""
        if type(self).parts is not CodeDice.parts:
            return lambda record: "".join([text(p) for p in self.parts(record, code)])
        faces = d6_texts(text)
        between = text(" + ")  # a run of dice is its dice joined by its separator (diceengine.parts.Dice)
        pips = code.pips
        tail = text(f" - {-pips}" if pips < 0 else f" + {pips}") if pips else ""
        return lambda record: between.join([faces[v] for v in record]) + tail  # a code rolls 1D at least


#: most a code's total can gain from exploding dice (a Wild Die and a character-point die, each a chain
#: of at most MAX_EXPLOSIONS + 1 throws)
_EXPLOSION_ALLOWANCE = 2 * 6 * (MAX_EXPLOSIONS + 1)


def _literal_bounds(node: Any) -> Interval:
    """Range of a dice code's literal (``4D``: 4 to 24) for the integer rule of the code arithmetic."""
    if isinstance(node, CodeLiteral):
        return 0, 6 * node.dice
    return 0, 0  # not a code: code_of names the fault


def total_bounds(code: Code, expression: str) -> Interval:
    """Range of every total a code can throw (explosions to their limit), within the integer rule."""
    return check_interval(min(0, code.dice) + code.pips, 6 * max(0, code.dice) + code.pips + _EXPLOSION_ALLOWANCE,
                          expression, 0)


def _check_rollable(code: Code, what: list[str], expression: str, column: int | None) -> None:
    if code.dice <= 0:
        raise DiceValueError(N_("{what} is {code}: a code reduced to 0D cannot be rolled"), expression, column,
                             what=what, code=f"{code.dice}D{code.pips:+d}")
    if code.dice > MAX_DICE:
        raise DiceLimitError(N_("too many dice: {count} (at most {limit})"), expression, column, count=code.dice,
                             limit=MAX_DICE)


class CodePlan(Plan):
    """A code, or a check of a code against a difficulty, thrown by ``dice``."""

    def __init__(self, expression: str, dice: CodeDice, outcome_type: type, actor: Code,
                 difficulty: int | Code | None, tie: str) -> None:
        self.expression = expression
        self.dice_model = dice
        self.opponent_dice = dice.opponent()
        self.outcome_type = outcome_type
        self.actor_code = actor
        self.difficulty = difficulty
        self.tie = tie
        self.rolled_difficulty = isinstance(difficulty, Code)
        self.dice_per_roll = actor.dice + (difficulty.dice if isinstance(difficulty, Code) else 0)
        self.table_fields = ("margin",) if difficulty is not None else ("total",)

    # ------------------------------------------------------------ one roll
    def roll(self, rng: Any) -> tuple[Any, Any]:
        r = rng.random
        model = self.dice_model
        total, extras, record = model.roll(self.actor_code, r)
        if self.difficulty is None:
            return self.outcome_type(total, *extras), (record,)
        if not self.rolled_difficulty:
            diff: int = self.difficulty  # type: ignore[assignment]
            return self.outcome_type(total, *extras, total >= diff, total - diff), (record,)
        ties: list[tuple[Any, Any]] = []  # tied throws, rolled again ("reroll")
        while True:
            against, _, opp_record = self.opponent_dice.roll(self.difficulty, r)  # type: ignore[arg-type]
            if total != against or self.tie != "reroll":
                break
            if len(ties) >= MAX_REROLLS:
                raise DiceLimitError(N_("more than {max_rerolls} ties in a row"), self.expression, 0,
                                     max_rerolls=MAX_REROLLS)
            ties.append((record, opp_record))
            total, extras, record = model.roll(self.actor_code, r)
        margin = total - against
        success = margin > 0 or (margin == 0 and self.tie == "actor")
        return self.outcome_type(total, *extras, success, margin), (record, opp_record, against, ties)

    def dice(self, record: Any) -> list[Die]:
        model = self.dice_model
        out: list[Die] = []
        if len(record) > 1:
            for tied, tied_opp in record[3]:
                out.extend(d._replace(kept=False, rerolled=True) for d in model.dice(tied))
                out.extend(d._replace(kept=False, rerolled=True, label="difficulty")
                           for d in self.opponent_dice.dice(tied_opp))
        out.extend(model.dice(record[0]))
        if len(record) > 1:
            out.extend(d._replace(label="difficulty") for d in self.opponent_dice.dice(record[1]))
        return out

    @cached_property
    def _head(self) -> Group:
        """The expression, as the head of the roll's text."""
        return Group((self.expression,), "expression")

    def explain(self, outcome: Any, record: Any) -> list[Part]:
        parts: list[Part] = [self._head, ": "]
        parts += self.dice_model.parts(record[0], self.actor_code)
        parts.append(f" = {outcome.total}")
        if self.difficulty is None:
            return parts
        if self.rolled_difficulty:
            parts += (" ", _AGAINST, " ")
            parts += self.opponent_dice.parts(record[1], self.difficulty)  # type: ignore[arg-type]
            parts.append(f" = {record[2]}")
            if record[3]:
                parts += (" (", Words(*TIES, n=len(record[3])), ")")
        parts += (", ", _verdict(bool(outcome.success), abs(outcome.margin)))
        return parts

    def explainer(self, text: Callable[[Any], str]) -> Callable[[Any, Any], str]:
        """:meth:`explain` compiled: the texts of the head, words, faces and separators asked once."""
        opening = text(self._head) + text(": ")
        actor = self.dice_model.writer(text, self.actor_code)
        equals: dict[int, str] = {}

        def equal(n: int) -> str:  # " = 12"
            found = equals.get(n)
            if found is None:
                found = text(f" = {n}")
                if len(equals) < 1024:
                    equals[n] = found
            return found

        if self.difficulty is None:
            return lambda o, record: opening + actor(record[0]) + equal(o.total)
        sep = text(", ")
        verdicts: dict[tuple[bool, int], str] = {}

        def verdict(o: Any) -> str:  # ", success by 3"
            key = (bool(o.success), abs(o.margin))
            found = verdicts.get(key)
            if found is None:
                found = sep + text(_verdict(*key))
                if len(verdicts) < 1024:
                    verdicts[key] = found
            return found

        if not self.rolled_difficulty:
            return lambda o, record: opening + actor(record[0]) + equal(o.total) + verdict(o)
        against = text(" ") + text(_AGAINST) + text(" ")
        opponent = self.opponent_dice.writer(text, self.difficulty)  # type: ignore[arg-type]
        opened, closed = text(" ("), text(")")

        def write(o: Any, record: Any) -> str:
            line = opening + actor(record[0]) + equal(o.total) + against + opponent(record[1]) + equal(record[2])
            if record[3]:
                line += opened + text(Words(*TIES, n=len(record[3]))) + closed
            return line + verdict(o)

        return write

    # ------------------------------------------------------------ bulk
    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        total, extras = self.dice_model.sample(self.actor_code, n, rng)
        out = {"total": np.asarray(total, dtype=np.int64), **extras}
        if self.difficulty is None:
            return out
        if not self.rolled_difficulty:
            margin = out["total"] - self.difficulty
            out["success"] = margin >= 0
            out["margin"] = margin
            return out
        against, _ = self.opponent_dice.sample(self.difficulty, n, rng)  # type: ignore[arg-type]
        if self.tie == "reroll":
            ties = np.flatnonzero(out["total"] == against)
            tries = 0
            while len(ties):
                tries += 1
                if tries > MAX_REROLLS:
                    raise DiceLimitError(N_("more than {max_rerolls} ties in a row"), self.expression, 0,
                                         max_rerolls=MAX_REROLLS)
                t2, e2 = self.dice_model.sample(self.actor_code, len(ties), rng)
                a2, _ = self.opponent_dice.sample(self.difficulty, len(ties), rng)  # type: ignore[arg-type]
                out["total"][ties] = t2
                for k, v in e2.items():
                    out[k][ties] = v
                against[ties] = a2
                ties = ties[t2 == a2]
        margin = out["total"] - against
        out["success"] = margin > 0 if self.tie == "opponent" else margin >= 0
        out["margin"] = margin
        return out

    # ------------------------------------------------------------ exact
    def exact_cost(self) -> Cost:
        """What :meth:`distribution` will cost: the joints of both sides, then one row per (actor row,
        difficulty total) with its columns."""
        cost, rows, _ = self.dice_model.joint_cost(self.actor_code)
        columns = 2 + len(self.dice_model.extras)
        if isinstance(self.difficulty, Code):
            opp_cost, opp_rows, span = self.opponent_dice.joint_cost(self.difficulty)
            cost = cost + opp_cost + Cost(opp_rows * NUMPY_CALL // 50 + span * 4, span * 2)
            rows *= span
            columns += 2
        elif self.difficulty is not None:
            columns += 2
        return cost + _columns_cost(rows, columns)

    def distribution(self) -> Distribution:
        joint, truncated = self.dice_model.joint(self.actor_code)
        names = self.dice_model.extras
        cols: dict[str, list[np.ndarray]] = {"total": [], **{k: [] for k in names}}
        probs: list[np.ndarray] = []
        if self.difficulty is None:
            for extras, pmf in joint.items():
                cols["total"].append(pmf.values)
                for k, v in zip(names, extras):
                    cols[k].append(np.full(len(pmf.p), v))
                probs.append(pmf.p)
            return _distribution(self.outcome_type, cols, probs, truncated)
        cols["success"], cols["margin"] = [], []
        if not self.rolled_difficulty:
            against_vals, against_p = np.array([self.difficulty]), np.array([1.0])
        else:
            opp, opp_trunc = self.opponent_dice.joint(self.difficulty)  # type: ignore[arg-type]
            truncated += opp_trunc
            merged = PMF.point(0, 0.0)
            for pmf in opp.values():
                merged = merged.mix(pmf)
            against_vals, against_p = merged.values, merged.p
        rows = sum(len(pmf.p) for pmf in joint.values()) * len(against_vals)
        if rows > MAX_ROWS:
            raise DiceLimitError(N_("too many outcomes for exact odds ({rows}, at most {max_rows}): compare the two "
                                    "totals with fewer dice"),
                                 self.expression, 0, rows=rows, max_rows=MAX_ROWS)
        for extras, pmf in joint.items():
            t = np.repeat(pmf.values, len(against_vals))
            a = np.tile(against_vals, len(pmf.values))
            p = np.outer(pmf.p, against_p).ravel()
            margin = t - a
            cols["total"].append(t)
            for k, v in zip(names, extras):
                cols[k].append(np.full(len(t), v))
            # a difficulty number is met on a tie; a rolled difficulty follows the tie rule
            opponent_wins_ties = self.rolled_difficulty and self.tie == "opponent"
            cols["success"].append(margin > 0 if opponent_wins_ties else margin >= 0)
            cols["margin"].append(margin)
            probs.append(p)
        if self.rolled_difficulty and self.tie == "reroll":
            all_margin = np.concatenate(cols["margin"])
            all_p = np.concatenate(probs)
            p_tie = float(all_p[all_margin == 0].sum())
            if p_tie >= 1.0:
                raise DiceValueError(N_("these two rolls always tie"), self.expression, 0)
            probs = [np.where(m == 0, 0.0, p) / (1.0 - p_tie) for m, p in zip(cols["margin"], probs)]
        return _distribution(self.outcome_type, cols, probs, truncated)


def _columns_cost(rows: int, columns: int) -> Cost:
    """What the columns of a distribution cost: built, then concatenated, then filtered."""
    return Cost(rows * columns * 12 + NUMPY_CALL, rows * (columns + 2) * 2)


def _distribution(outcome_type: type, cols: dict[str, list[np.ndarray]], probs: list[np.ndarray],
                  truncated: float) -> Distribution:
    WORK.work += _columns_cost(sum(len(p) for p in probs), len(cols) + 1).work  # counted, as the primitives count
    columns = {k: np.concatenate(v) for k, v in cols.items()}
    # rows are distinct already: one per (extras, total, difficulty total)
    return Distribution(outcome_type, columns, np.concatenate(probs), truncated=truncated)


def _unknown_difficulty(node: Any, ladder: Mapping[str, Any], expression: str) -> DiceValueError:
    """A difficulty name the ladder lacks: the nearest name when one is near ("modrate": moderate), else them all."""
    from diceengine.hints import closest

    names = ", ".join(sorted(ladder))
    name = repr(node.words.replace("_", " "))
    guess = closest(node.words, ladder, 0.7)
    if guess is not None:
        return DiceValueError(N_("unknown difficulty {name}: did you mean {guess}? (known: {names})"), expression,
                              node.pos, name=name, guess=guess.replace("_", " "), names=names)
    return DiceValueError(N_("unknown difficulty {name} (known: {names})"), expression, node.pos, name=name,
                          names=names)

def prepare_check(tree: Any, expression: str, dice: CodeDice, outcome_type: type,
                  ladder: Mapping[str, int], tie: str, transform: Callable[[Code], Code] | None = None) -> CodePlan:
    """The plan of a code or a check; ``transform`` changes the actor's code (a Force point)."""
    from diceengine.ast import start as position

    if isinstance(tree, Check):
        actor_node, diff_node = tree.actor, tree.difficulty
    else:
        actor_node, diff_node = tree, None
    for node in (actor_node, diff_node):  # the integer rule, before any code is built
        if node is not None and not isinstance(node, NamedDifficulty):
            check_bounds(node, expression, _literal_bounds)
    actor = code_of(actor_node, expression)
    if transform is not None:
        actor = transform(actor)
    _check_rollable(actor, [N_("the code")], expression, position(actor_node))
    difficulty: int | Code | None = None
    if isinstance(diff_node, NamedDifficulty):
        if diff_node.words not in ladder:
            raise _unknown_difficulty(diff_node, ladder, expression)
        difficulty = ladder[diff_node.words]
    elif diff_node is not None:
        code = code_of(diff_node, expression)
        if code.is_number:
            difficulty = code.pips
        else:
            _check_rollable(code, [N_("the difficulty")], expression, position(diff_node))
            difficulty = code
    if isinstance(difficulty, Code) and actor.dice + difficulty.dice > MAX_DICE:
        raise DiceLimitError(N_("too many dice (at most {max_dice})"), expression, 0, max_dice=MAX_DICE)
    lo, hi = total_bounds(actor, expression)
    if difficulty is not None:  # the margin, total - difficulty
        d_lo, d_hi = total_bounds(difficulty, expression) if isinstance(difficulty, Code) else (difficulty, difficulty)
        check_interval(lo - d_hi, hi - d_lo, expression, tree.pos)
    return CodePlan(expression, dice, outcome_type, actor, difficulty, tie)


def code_range(first: int, last: int, pips: bool = True) -> list[str]:
    """``["1D", "1D+1", "1D+2", "2D", ...]`` up to ``last``D (+2 when ``pips``)."""
    return [f"{n}D" + (f"+{p}" if p else "") for n in range(first, last + 1) for p in ((0, 1, 2) if pips else (0,))]


def d6_catalogue(ladder: Mapping[str, int]) -> list[tuple[str, str]]:
    """Codes 1D to 12D+2 against each step of the ladder (5 to 30)."""
    steps = sorted(set(ladder.values()) | {5, 10, 15, 20, 25, 30})
    return [(f"{code} vs {n}", f"{code} vs {n}") for code in code_range(1, 12) for n in steps]
