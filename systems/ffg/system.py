"""The ``ffg`` system: Fantasy Flight Games Star Wars narrative dice (rule text ``004``).

Notation: counts and letters, ``a`` ability (green d8), ``p`` proficiency (yellow d12), ``b`` boost
(blue d6), ``d`` difficulty (purple d8), ``c`` challenge (red d12), ``s`` setback (black d6),
``f`` force (white d12); full names too (``2 ability 1 proficiency``), in French too (``2 capacité
1 compétence vs 2 difficulté``; défi, fortune, revers, Force), and colour names (green / vert, yellow /
jaune, blue / bleu, purple / violet, red / rouge, black / noir, white / blanc); case-insensitive,
accents optional; spaces and ``+`` allowed. Option ``letters="colour"`` reads single letters as the
FFG community's bots do: ``y`` proficiency, ``g`` ability, ``b`` boost, ``p`` difficulty, ``r``
challenge, ``k`` setback, ``w`` force (and ``pro abi boo dif cha blk sb set frc``): ``yyygg vs ppr``.
A letter of the other set is refused with a message, never read silently.

``vs`` reads as "against": the dice after it join the pool (``2a1p1b vs 2d1s``). Ability and
proficiency dice after ``vs`` are the opponent's, read as the text's opposed check: green dice become
purple and yellow become red (``3a2p vs 2a1p`` is ``3a2p vs 2d1c``); a boost die after ``vs`` is
refused (the opposition's help is a setback die).

The outcome: net ``success`` (successes - failures; a triumph counts one success and a despair one
failure, each exactly once), net ``advantage`` (negative: threat), ``triumph``, ``despair``,
``light``, ``dark``, and ``succeeded`` (net success > 0). Triumphs and despairs are never cancelled.

The rules of the text are functions (:mod:`diceengine.systems.ffg.rules`): pools from characteristics
and skills, upgrades and downgrades, the destiny pool, minion groups, critical injuries, initiative and
advancement; ``dice rule ffg NAME ...`` runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np

from diceengine.ast import Node, Token, to_int
from diceengine.distributions import Distribution
from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_, NP_
from diceengine.parts import Face, Group, Part, Words
from diceengine.registry import Option, Plan
from diceengine.rolls import Die

from ..ruleset import Ruleset, SymbolPoolPlan
from ..words import plain_word
from .dice import DICE, MAX_POOL, ORDER, SIDES, SYMBOLS, face_symbols, face_text, pool
from .rules import DIFFICULTIES, DIFFICULTY_WORDS, RULE_SUMMARIES, RULES, build_pool  # noqa: F401 (RULES read from here)

__all__ = ["FFGSystem", "NarrativeDice", "NarrativeOutcome", "die_name", "net_text",
           "resolve_dice"]

#: die names read in every letters mode (English and French names, colour names), accents dropped
_NAMES = {
    **dict.fromkeys(("ability", "abilities", "capacite", "capacites", "green", "vert"), "ability"),
    **dict.fromkeys(("proficiency", "proficiencies", "competence", "competences", "yellow", "jaune"), "proficiency"),
    **dict.fromkeys(("boost", "boosts", "fortune", "fortunes", "blue", "bleu"), "boost"),
    **dict.fromkeys(("difficulty", "difficulties", "difficulte", "difficultes", "purple", "violet"), "difficulty"),
    **dict.fromkeys(("challenge", "challenges", "defi", "defis", "red", "rouge"), "challenge"),
    **dict.fromkeys(("setback", "setbacks", "revers", "black", "noir"), "setback"),
    **dict.fromkeys(("force", "forces", "white", "blanc"), "force"),
}
#: the letters of each ``letters`` option: the dice's initials (this engine's) or the community's colours
LETTER_SETS: dict[str, dict[str, str]] = {
    "initials": {"a": "ability", "p": "proficiency", "b": "boost", "d": "difficulty", "c": "challenge",
                 "s": "setback", "f": "force"},
    "colour": {"g": "ability", "abi": "ability", "y": "proficiency", "pro": "proficiency", "b": "boost",
               "boo": "boost", "p": "difficulty", "dif": "difficulty", "r": "challenge", "cha": "challenge",
               "k": "setback", "blk": "setback", "sb": "setback", "set": "setback", "w": "force", "frc": "force"},
}
UNKNOWN_LETTER = N_("unknown die letter {letter}")
COLOUR_LETTER = N_("unknown die letter {letter} (a colour letter: add the option letters=colour)")
NOT_A_COLOUR_LETTER = N_("unknown die letter {letter} (with letters=colour, the dice are y g b p r k w)")
#: the text's opposed check: the opponent's green dice become purple, yellow become red
OPPOSED = {"ability": "difficulty", "proficiency": "challenge"}


def die_name(word: str, letters: str = "initials") -> str:
    """``"a"``, ``"ability"``, ``"capacité"``, ``"green"`` -> ``"ability"`` (letters read by ``letters``)."""
    w = plain_word(word)
    return _NAMES.get(w) or LETTER_SETS[letters][w]


def resolve_dice(group: NarrativeDice, letters: str, expression: str) -> list[tuple[str, int, int]]:
    """``(die, count, position)`` of a group: a name, a letter of the ``letters`` option, or a run of its
    letters (``sb`` is setback then boost with the initials); a letter of the other set is refused."""
    word = plain_word(group.die)
    table = LETTER_SETS[letters]
    if word in _NAMES or word in table:
        return [(_NAMES.get(word) or table[word], group.count, group.pos or 0)]
    out = []
    start = group.word_pos if group.word_pos is not None else (group.pos or 0)
    for i, letter in enumerate(word):
        if letter not in table:
            other = "colour" if letters == "initials" else "initials"
            message = UNKNOWN_LETTER
            if word in LETTER_SETS[other] or letter in LETTER_SETS[other]:
                message = COLOUR_LETTER if other == "colour" else NOT_A_COLOUR_LETTER
            raise DiceSyntaxError(message, expression, start + i, letter=repr(letter))
        out.append((table[letter], group.count if i == 0 else 1, start + i))
    return out


#: what a syntax error calls the token of the FFG grammar (``grammars/ffg.lark``)
_TOKEN_WORDS: Mapping[str, str] = {"SYMBOL_DIE": N_("a die letter (a p b d c s f) or name")}


class NarrativeOutcome(NamedTuple):
    """The outcome of a narrative dice pool."""

    success: int
    advantage: int
    triumph: int
    despair: int
    light: int
    dark: int
    succeeded: bool


@dataclass(frozen=True, slots=True)
class NarrativeDice(Node):
    """``2a``, ``1 proficiency``."""

    count: Any
    die: Any
    pos: int | None = field(default=None, compare=False)

    word_pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.die, Token):
            object.__setattr__(self, "pos", self.count.start_pos if isinstance(self.count, Token) else self.die.start_pos)
            object.__setattr__(self, "word_pos", self.die.start_pos)
            object.__setattr__(self, "die", str(self.die))
        if isinstance(self.count, Token):
            object.__setattr__(self, "count", to_int(self.count))
        elif self.count is None:
            object.__setattr__(self, "count", 1)


@dataclass(frozen=True, slots=True)
class NarrativePool(Node):
    """Dice groups side by side."""

    groups: Any

    def __init__(self, *groups: Any) -> None:
        object.__setattr__(self, "groups", tuple(groups))


@dataclass(frozen=True, slots=True)
class NarrativeCheck(Node):
    """``POOL [vs POOL]``."""

    pool: NarrativePool
    against: Any
    opposition: NarrativePool | None


#: every face of every die as a part of a roll's text (faces never change: built once)
_FACES = {die: [Face(Die(die, SIDES[die], i + 1, face=face_text(die, i)), symbols=face_symbols(die, i))
                for i in range(SIDES[die])] for die in DICE}


#: the net results shown so far (a pool has few distinct ones): built once each
_RESULTS: dict[Any, Group] = {}


class NarrativePlan(SymbolPoolPlan):
    """A pool of narrative dice."""

    outcome_type = NarrativeOutcome
    table_fields = ("success", "advantage")

    def __init__(self, expression: str, counts: Mapping[str, int]) -> None:
        self.expression = expression
        self.counts = {die: counts.get(die, 0) for die in ORDER if counts.get(die, 0)}
        self.order = [die for die in ORDER for _ in range(self.counts.get(die, 0))]
        self.dice_per_roll = len(self.order)
        #: Force dice alone (``1f``, a destiny roll): no check, its result is its light and dark side points
        self.force_only = set(self.counts) == {"force"}
        self.pool = pool(self.counts)

    def roll(self, rng: Any) -> tuple[NarrativeOutcome, list[tuple[str, int]]]:
        (s, a, t, e, lt, dk), record = self.pool.roller(rng.random)
        return NarrativeOutcome(s, a, t, e, lt, dk, s > 0), record

    def dice(self, record: list[tuple[str, int]]) -> list[Die]:
        return [Die(die, SIDES[die], i + 1, face=face_text(die, i)) for die, i in record]

    def explain(self, outcome: Any, record: list[tuple[str, int]]) -> list[Part]:
        parts: list[Part] = [Group((self.expression,), "expression"), ": ["]
        for die, i in record:
            parts += (_FACES[die][i], ", ")
        parts[-1] = "] = "
        force_only = self.force_only
        result = _RESULTS.get((outcome, force_only))
        if result is None:
            result = Group(tuple(net_parts(outcome, force_only)), "result")
            if len(_RESULTS) < 4096:
                _RESULTS[outcome, force_only] = result
        parts.append(result)
        return parts

    def explainer(self, text: Callable[[Any], str]) -> Callable[[Any, list[tuple[str, int]]], str]:
        """:meth:`explain` compiled: the texts of the faces, the net results and separators asked once."""
        opening = text(Group((self.expression,), "expression")) + text(": [")
        sep, closing = text(", "), text("] = ")
        faces = {die: [text(face) for face in _FACES[die]] for die in set(self.order)}
        results: dict[Any, str] = {}

        def write(outcome: Any, record: list[tuple[str, int]]) -> str:
            result = results.get(outcome)
            if result is None:
                result = text(Group(tuple(net_parts(outcome, self.force_only)), "result"))
                if len(results) < 4096:
                    results[outcome] = result
            return opening + sep.join([faces[die][i] for die, i in record]) + closing + result

        return write

    def _check(self, sums: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The check read from the net symbols: succeeded on a net success."""
        sums["succeeded"] = sums["success"] > 0
        return sums

    def odds_summary(self, dist: Distribution) -> dict[str, float]:
        return {"P(succeeded)": dist.chance("succeeded"),
                "P(triumph)": dist.probability(lambda o: o.triumph > 0),
                "P(despair)": dist.probability(lambda o: o.despair > 0),
                "P(net advantage)": dist.probability(lambda o: o.advantage > 0)}


#: the words of a pool's net result (messages of the catalogues)
NET_WORDS = {
    "success": NP_("{n} success", "{n} successes"), "failure": NP_("{n} failure", "{n} failures"),
    "advantage": NP_("{n} advantage", "{n} advantages"), "threat": NP_("{n} threat", "{n} threats"),
    "triumph": NP_("{n} triumph", "{n} triumphs"), "despair": NP_("{n} despair", "{n} despairs"),
    "light": NP_("{n} light side point", "{n} light side points"),
    "dark": NP_("{n} dark side point", "{n} dark side points"),
}
NO_NET_SUCCESS = N_("no net success")
SUCCEEDED, FAILED = N_("succeeded"), N_("failed")
#: the words of the chances ``dice odds`` prints
FIELD_WORDS = (N_("net advantage"),)


def net_parts(o: Any, force_only: bool = False) -> list[Part]:
    """The net result in words: successes or failures, advantage or threat, triumph, despair, Force
    points, and whether the check succeeded; ``force_only`` (a roll of Force dice alone, which is no check):
    its light and dark side points only."""
    parts: list[Part] = []
    if force_only:
        for name in ("light", "dark"):
            if getattr(o, name):
                parts += [", ", Words(*NET_WORDS[name], n=getattr(o, name))]
        return parts[1:]
    if o.success:
        parts.append(Words(*NET_WORDS["success" if o.success > 0 else "failure"], n=abs(o.success)))
    else:
        parts.append(Words(NO_NET_SUCCESS))
    if o.advantage:
        parts += [", ", Words(*NET_WORDS["advantage" if o.advantage > 0 else "threat"], n=abs(o.advantage))]
    for name in ("triumph", "despair", "light", "dark"):
        if getattr(o, name):
            parts += [", ", Words(*NET_WORDS[name], n=getattr(o, name))]
    parts += [", ", Words(SUCCEEDED if o.succeeded else FAILED)]
    return parts


def net_text(o: Any, lang: str | None = None, force_only: bool = False) -> str:
    """``"2 successes, 1 threat, 1 triumph, succeeded"`` (``force_only``: ``"1 dark side point"``)."""
    from diceengine.renderers.plain import render_parts

    return render_parts(net_parts(o, force_only), lang)


class FFGSystem(Ruleset):
    """FFG narrative dice."""

    name = "ffg"
    summary = N_("FFG narrative dice: a ability, p proficiency, b boost, d difficulty, c challenge, s setback, "
               "f force; e.g. 2a1p1b vs 2d1s")
    examples = ("2a1p1b vs 2d1s", "3a2p vs 3d", "2 ability + 1 boost vs 1 challenge", "1f")
    grammar = "ffg.lark"
    grammar_package = "diceengine.grammars"
    outcome = NarrativeOutcome
    symbols = SYMBOLS
    play_module = "diceengine.systems.ffg.play"
    fight_module = "diceengine.systems.ffg.fight"
    options: ClassVar[Mapping[str, Option]] = {
        "letters": Option("initials", N_("what single letters mean: the dice's initials (a p b d c s f) or the "
                                         "community's colours (y g b p r k w; blk, pro, boo, dif, cha, abi, sb, frc)"),
                          choices=("initials", "colour")),
    }

    def token_words(self) -> Mapping[str, str]:
        """The words of the grammar's own token: a symbol die."""
        return _TOKEN_WORDS

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> Plan:
        counts: dict[str, int] = {}
        letters = options["letters"]
        dice = [(d, False) for g in tree.pool.groups for d in resolve_dice(g, letters, expression)]
        if tree.opposition:
            dice += [(d, True) for g in tree.opposition.groups for d in resolve_dice(g, letters, expression)]
        for (die, count, pos), opposing in dice:
            if opposing and die == "boost":
                raise DiceValueError(N_("a boost die after vs: the opposition's help is a setback die (s, or k with "
                                        "letters=colour); put boost dice before vs"), expression, pos)
            if opposing:
                die = OPPOSED.get(die, die)
            counts[die] = counts.get(die, 0) + count
            if sum(counts.values()) > MAX_POOL:
                raise DiceLimitError(N_("too many dice in one pool (at most {limit})"), expression, pos, limit=MAX_POOL)
        if not any(counts.values()):
            raise DiceValueError(N_("the pool has no dice"), expression, 0)
        return NarrativePlan(expression, counts)

    def catalogue(self) -> Sequence[tuple[str, str]]:
        """Characteristic 1-6 and skill 0-5 against difficulty 1-5 with 0-2 upgrades of the difficulty."""
        seen: dict[str, str] = {}
        names = {v: k for k, v in DIFFICULTIES.items()}
        for char in range(1, 7):
            for skill in range(6):
                for diff in range(1, 6):
                    for up in range(3):
                        pool = build_pool(char, skill, diff, difficulty_upgrades=up)
                        label = f"characteristic {char}, skill {skill} vs {names[diff]}" + (f" +{up} upgrade" if up else "")
                        seen.setdefault(pool.expression, label)
        return [(label, expr) for expr, label in seen.items()]

    def ladder(self) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[str, str]]]:
        people = [(2, 0), (2, 1), (3, 1), (3, 2), (4, 2), (4, 3), (5, 3), (5, 5)]
        rows = [(f"characteristic {c}, skill {s}", build_pool(c, s).expression) for c, s in people]
        cols = [(name, f"{n}d") for name, n in DIFFICULTIES.items() if n]
        return rows, cols
