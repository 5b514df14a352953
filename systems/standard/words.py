"""Words after a roll that name an operation, in English and French: ``4d6 keep 3`` is ``4d6kh3``, ``1d20+5
advantage`` is ``2d20kh1+5``, ``1d20+5 vs 15`` is ``1d20+5 >= 15``, ``4d6 garde 3`` is ``4d6kh3``; a modifier
written after a space (``{1d8, 1d8} kl1``, ``4d6>4 f<3``) is that modifier. A trailing text is a description
only when it cannot be meant as dice.

:func:`meant` gives the text such words mean (the parser reads it: :func:`diceengine.parser.parse`), with the
error to raise when that text does not read; words that name an operation without one meaning (``3d6 + 1d4
keep 3``: which dice?) are refused with a caret under them and the spelling to use. Quoted words, or words
after ``#``, ``//`` or ``/*``, stay a description whatever they say (``1d20 # keep it secret``): the reading
avrae's d20 gives any trailing text, and rpg-dice-roller's comments.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from diceengine.ast import Number, children
from diceengine.errors import DiceError, DiceSyntaxError
from diceengine.hints import closest
from diceengine.i18n import N_
from diceengine.lalr import Token

from ..words import plain_word
from .nodes import Dice

__all__ = ["FIELD_WORDS", "OPERATION_WORDS", "meant"]

#: the fields of a standard outcome named by an identifier, said in words where a user reads them (``dice odds``, the
#: page): each is a catalogue message whose English is words too (``critical_successes``: "critical successes",
#: "réussites critiques"); ``total`` is a word already. The JSON keeps the identifiers.
FIELD_WORDS = (N_("critical_successes"), N_("critical_failures"))

#: a word (accents dropped, lower case) -> the operation it names
OPERATION_WORDS: dict[str, str] = {
    **dict.fromkeys(("keep", "keeps", "garde", "garder", "gardant", "conserve", "conserver"), "keep"),
    **dict.fromkeys(("drop", "drops", "retire", "retirer", "enleve", "enlever", "ecarte", "ecarter"), "drop"),
    **dict.fromkeys(("highest", "best", "meilleur", "meilleurs", "meilleure", "meilleures"), "high"),
    **dict.fromkeys(("lowest", "worst", "pire", "pires"), "low"),
    **dict.fromkeys(("advantage", "adv", "avantage"), "advantage"),
    **dict.fromkeys(("disadvantage", "disadv", "dis", "desavantage", "desav"), "disadvantage"),
    **dict.fromkeys(("vs", "versus", "against", "contre", "dc", "dd"), "vs"),
    **dict.fromkeys(("reroll", "rerolls", "re-roll", "relance", "relancer", "relancez"), "reroll"),
    **dict.fromkeys(("explode", "explodes", "exploding", "explosive", "explose", "explosif", "explosifs"),
                    "explode"),
}
#: the operation words by their first letter (a misspelt word is looked for among those of its initial)
_BY_INITIAL: dict[str, list[str]] = {}
for _word in OPERATION_WORDS:
    _BY_INITIAL.setdefault(_word[0], []).append(_word)
#: words that may stand between an operation's words and its number ("keep the 3 highest", "garde les 3 meilleurs")
_FILLERS = frozenset(("the", "les", "le", "la", "de", "des", "dice", "die", "on", "sur", "plus"))
#: numbers in words, English and French ("keep three", "garde trois")
_NUMBER_WORDS = {word: str(n) for n, words in enumerate((
    (), ("one", "ones", "un"), ("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"), ("six",),
    ("seven", "sept"), ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"))) for word in words}
#: "reroll once", "relance une fois": re-rolled once (ro), not until the face misses (r)
_ONCE = frozenset(("once", "une", "fois"))
#: "plus haut(s)" / "plus bas" in French: highest / lowest
_FRENCH_RANKS = {"haut": "high", "hauts": "high", "haute": "high", "hautes": "high", "bas": "low", "basse": "low",
                 "basses": "low"}
#: a modifier (or several) written after a space: ``kh3``, ``dl1``, ``f<3``, ``cs>18``, ``!``; without a number or a
#: sign, only a modifier's own letters (``s``, ``kh``: never a word such as "us")
_BARE_MODIFIERS = frozenset(("s", "sa", "sd", "r", "ro", "u", "uo", "kh", "kl", "dh", "dl", "cs", "cf", "dbl"))
#: a modifier whose number may follow after a space (``1d20 min 5``, ``4d6 kh 3``)
_NUMBERED = frozenset(("kh", "kl", "dh", "dl", "k", "d", "p", "ph", "pl", "r", "ro", "rr", "ra", "mi", "ma", "min", "max",
                       "cs", "cf", "dbl", "e", "f", "u", "uo", "rol", "roh", "ral", "rah"))
#: what may follow such a modifier after a space: its number, or its compare point or sign and then the number
#: (``min 5``, ``rr < 20``, ``max - 12``)
_MODIFIER_NUMBER = re.compile(r"[<>=!]*-?[0-9]|(?:[<>=!]{1,2}|<>|-)$")
_MODIFIER_WORD = re.compile(
    r"(?:(?:dbl|min|max|k[hl]?|d[hl]?|p[hl]?|r[oar]?[lh]?|mi|ma|uo?|s[ad]?|c[sf]|e|f|!!?p?)"
    r"(?:(?:[<>=!]=?|<>)?-?[0-9]+(?:\.[0-9]+)?)?)+", re.IGNORECASE | re.ASCII)
#: dice written after a space: ``1 d20``, ``2 d%``, ``4 dF``, ``1 d(4+4)``
_DICE_START = re.compile(r"[dD](?:[0-9]|%|[fF]|\()")
#: another roller's operator: a lone letter and a number ("6d6 o 3", "(1, 2, 5) v 3", "6 e 5", "2d6 x2")
_LONE_LETTER = re.compile(r"([A-Za-z])\s*(?:[<>=!]=?|<>)?\s*[-+]?\d+(?![A-Za-z\d])")
#: a dice term as typed: its count and sides (``4d6``, ``d20``, ``2d%``, ``4dF``)
_DICE_TEXT = re.compile(r"([0-9]*)[dD]([0-9]+|%|[fF](?:\.[12])?)(?![0-9])")
_NUMBER = re.compile(r"[<>=]{0,2}[0-9]+")
#: the spellings of modifiers of more than one character: a space inside one (``4d10d h1``, ``1d6! p``, ``d6r o``,
#: ``4d6s a``) splits it, and the part after the space must not become a description
_LONG_MODIFIERS = ("kh", "kl", "dh", "dl", "ph", "pl", "ro", "rr", "ra", "rol", "roh", "ral", "rah", "rrl", "rrh",
                   "rl", "rh", "sa", "sd", "uo", "cs", "cf", "mi", "ma", "min", "max", "dbl", "!p", "!!p", "!!")
#: what may follow a split modifier's last letters in the same word: nothing, or a number, a compare point or an
#: operator and what follows (``h1kl1``, ``p/(23*d12r)``), never more letters of a word (``1d6s and more``)
_SPLIT_REST = re.compile(r"(?:[^A-Za-z\s].*)?")
_WORD_SPLIT = re.compile(r"[^\s]+")


def meant(expression: str, pos: int, tree: Any, comparison: type, described: type, letters: Collection[str]) -> Any:
    """What the description at ``pos`` of ``expression`` (after the roll ``tree``) means: ``None`` (words),
    ``(text, error)``: the text to read instead, and the error to raise if it does not read (``None``: then
    the words stay a description), or the tree the words make of ``tree`` (positions in ``expression``).
    ``comparison`` and ``described`` are the notation's node classes for a check and for words after it
    (``Comparison``, ``Described``): a check (``1d20+5 vs 15``) is built of them. ``letters`` are the spellings of
    the system's modifiers (``kh``, ``mt``, ``even``): one written alone after a space is notation, never words."""
    head, raw = expression[:pos], expression[pos:]
    column = pos + len(raw) - len(raw.lstrip())
    text = raw.strip()
    if not text or text[0] in "#/\"'“‘«":
        return None
    words = [(m.group(0), column + m.start()) for m in _WORD_SPLIT.finditer(text)]
    first = words[0][0]
    split = _split_modifier(head, first, column) or _die_or_drop(head, first, column)
    if split is not None:
        raise split
    if _joins(first, words[1][0] if len(words) > 1 else "", letters):
        return head.rstrip() + raw.lstrip(), _lone_letter(text, column) or _unread_notation(first, column)
    operation = OPERATION_WORDS.get(plain_word(first).rstrip(".:,"))
    if operation is not None:
        return _operation(operation, head, words, column, tree, (comparison, described))
    lone = _lone_letter(text, column)
    if lone is not None:
        raise lone
    plain = plain_word(first)
    near = [w for w in _BY_INITIAL.get(plain[:1], ()) if abs(len(w) - len(plain)) <= 2]
    guess = closest(plain, near, 0.85) if len(plain) >= 3 and near else None
    if guess is not None:
        raise DiceSyntaxError(N_("{got} is not a word of the notation: did you mean {guess}? (to keep words as a "
                                 "description, begin them with #)"), expression, column, got=repr(first),
                              guess=guess)
    return None


def _split_modifier(head: str, word: str, column: int) -> DiceSyntaxError | None:
    """The refusal of a modifier cut in two by a space (``4d10d h1dl2``: ``dh1`` or ``d`` then words?), or ``None``."""
    typed = head.rstrip()
    for spelling in sorted(_LONG_MODIFIERS, key=len, reverse=True):
        for cut in range(1, len(spelling)):
            before, after = spelling[:cut], spelling[cut:]
            if typed.lower().endswith(before) and word.lower().startswith(after) and \
                    _SPLIT_REST.fullmatch(word[len(after):]):
                return DiceSyntaxError(N_("a space splits the modifier {modifier}: write it without the space "
                                          "({example})"), None, column, modifier=repr(spelling),
                                       example=typed + word)
    return None


#: a bare ``dN`` after a space: a die (``1d20 d4``: and a d4?) or rpg-dice-roller's drop of the lowest N (``1d20d4``)
_BARE_D = re.compile(r"[dD]([0-9]+)$")
#: the end of a roll that is a bare number (``1`` in ``1 d20``, ``2 + 1`` in ``2 + 1 d6``): dice written after it are
#: its dice
_BARE_NUMBER = re.compile(r"(?:^|[\s+\-*/(,{^])[0-9]+$")


def _die_or_drop(head: str, word: str, column: int) -> DiceSyntaxError | None:
    """The refusal of a bare ``dN`` written after a space right after dice (``1d20 d4``): another die, or the lowest
    N dropped (joined, ``1d20d4`` is 0)? ``None`` after a bare number (``1 d20``) or a group (``{19d23} d1``)."""
    typed = head.rstrip()
    m = _BARE_D.match(word)
    if m is None or not typed or not (typed[-1].isalnum() or typed[-1] in "%!") or _BARE_NUMBER.search(typed):
        return None
    return DiceSyntaxError(N_("{got} after dice reads two ways: write {plus} to add a die, or {joined} to drop the "
                              "lowest {n}"), None, column, got=repr(word), plus=f"{typed}+1{word}",
                           joined=typed + word, n=m.group(1))


def _unread_notation(word: str, column: int) -> DiceSyntaxError:
    """The refusal of notation written after a space whose text, joined to the roll, does not read (``1d20 kh1
    (x)``, ``4d6 dl 2 * ( 5 )``): never the notation dropped as a description."""
    return DiceSyntaxError(N_("{got} after a space reads as notation, but the text from it does not: write the "
                              "notation without spaces, or begin a description with #"), None, column, got=repr(word))


def _joins(word: str, second: str, letters: Collection[str]) -> bool:
    """The first word after the roll is notation written after a space: dice (``1 d20``, ``5 d %``), a modifier
    (``kh3``, ``f<3``, ``s``, ``min 5``; one of ``letters`` spelled in two letters or more, alone: ``mt``, ``even``),
    never a word ("us", "fire")."""
    if _DICE_START.match(word) or (word.lower() in _NUMBERED and _MODIFIER_NUMBER.match(second)):
        return True
    if word.lower() == "d" and re.match(r"[0-9%(]|[fF](?:\.[12])?$", second):
        return True
    if len(word) > 1 and word.lower() in letters:
        return True
    m = _MODIFIER_WORD.match(word)
    if m is None or (m.end() < len(word) and word[m.end()].isalpha()):
        return False
    return bool(re.search(r"[0-9<>=!]", m.group(0))) or m.group(0).lower() in _BARE_MODIFIERS


def _lone_letter(text: str, column: int) -> DiceSyntaxError | None:
    """The refusal of another roller's operator taken for words (``6d6 o 3``), or ``None``."""
    operator = _LONE_LETTER.match(text)
    if operator is None:
        return None
    if operator.group(1).lower() == "x":
        return DiceSyntaxError(N_("{got} reads as another roller's operator, not as a description (multiply with *): "
                                  "write the modifier right after the dice, or quote the description ({quoted}) or "
                                  "begin it with #"), None, column, got=repr(operator.group(0).strip()),
                               quoted=f'"{text}"')
    return DiceSyntaxError(N_("{got} reads as another roller's operator, not as a description: write the modifier "
                              "right after the dice, or quote the description ({quoted}) or begin it with #"),
                           None, column, got=repr(operator.group(0).strip()), quoted=f'"{text}"')


def _operation(operation: str, head: str, words: list[tuple[str, int]], column: int, tree: Any,
               classes: tuple[type, type]) -> Any:
    """The text an operation's words mean, or their refusal (``classes``: a check's node classes, :func:`meant`)."""
    typed = words[0][0]
    if operation == "vs":
        return _versus(head, words, column, tree, classes)
    if operation in ("advantage", "disadvantage"):
        return _advantage(operation, typed, head, words, column, tree)
    number, rank, tail = _number_and_rank(words[1:])
    once = any(plain_word(word) in _ONCE for word, _ in words[1:len(words) - len(tail)])
    if operation in ("high", "low"):
        operation, rank = "keep", operation
    spellings: dict[str, dict[str | None, str]] = {
        "keep": {"high": "kh", "low": "kl", None: "kh"}, "drop": {"high": "dh", "low": "dl", None: "dl"},
        "reroll": {None: "ro" if once else "r"}, "explode": {None: "!"}}
    spelling = spellings[operation]
    bare = number is None and rank is None  # "keep" alone: how many? "explode 5": on 5, or from 5?
    if rank not in spelling or (operation == "explode" and number is not None) or \
            (bare and (operation in ("keep", "drop") or (tail and operation == "reroll"))):
        raise _refused(operation, typed, column, head)
    modifier = spelling[rank] + (number or ("1" if operation in ("keep", "drop") else ""))
    return _after_dice(head, modifier, tail, column, tree, typed)


def _number_and_rank(words: list[tuple[str, int]]) -> tuple[str | None, str | None, list[tuple[str, int]]]:
    """The number and the rank (high / low) among an operation's words, and the words after them."""
    number: str | None = None
    rank: str | None = None
    taken = 0
    for word, _ in words:
        plain = plain_word(word).rstrip(".,")
        kind = OPERATION_WORDS.get(plain)
        if kind in ("high", "low") and rank is None:
            rank = kind
        elif plain in _FRENCH_RANKS and rank is None:
            rank = _FRENCH_RANKS[plain]
        elif number is None and _NUMBER.fullmatch(plain.removesuffix("s")):
            number = plain.removesuffix("s")
        elif number is None and plain in _NUMBER_WORDS:
            number = _NUMBER_WORDS[plain]
        elif plain not in _FILLERS and plain not in _ONCE:
            break
        taken += 1
    return number, rank, words[taken:]


def _dice_terms(tree: Any) -> list[Any]:
    """The dice terms of ``tree`` (standard notation's ``Dice`` nodes), in order."""
    found: list[Any] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Dice):
            found.append(node)
        stack.extend(reversed(list(children(node))))
    return sorted(found, key=lambda d: d.pos or 0)


def _after_dice(head: str, modifier: str, tail: list[tuple[str, int]], column: int, tree: Any,
                typed: str) -> tuple[str, DiceError | None]:
    """``head`` with ``modifier`` written right after its one plain dice term, the words ``tail`` kept after."""
    terms = _dice_terms(tree)
    plain = [d for d in terms if not d.modifiers.items and not d.computed]
    m = _DICE_TEXT.match(head, plain[0].pos) if len(terms) == 1 and plain and plain[0].pos is not None else None
    if m is None:
        example = _example(head, modifier)
        raise DiceSyntaxError(N_("{words} applies to one set of dice: write {modifier} right after the dice it "
                                 "changes ({example})"), None, column, words=repr(typed), modifier=modifier,
                              example=example)
    text = head[:m.end()] + modifier + head[m.end():].rstrip() + _tail(tail)
    return text, DiceSyntaxError(N_("write {modifier} right after the dice: {example}"), None, column,
                                 modifier=modifier, example=head[:m.end()] + modifier + head[m.end():].rstrip())


def _example(head: str, modifier: str) -> str:
    m = _DICE_TEXT.search(head)
    return (m.group(0) if m is not None else "4d6") + modifier


def _tail(tail: list[tuple[str, int]]) -> str:
    return (" " + " ".join(word for word, _ in tail)) if tail else ""


def _versus(head: str, words: list[tuple[str, int]], column: int, tree: Any, classes: tuple[type, type]) -> Any:
    """``1d20+5 vs 15``: the check meets or beats 15, a success (1) or a failure (0). A whole number is the tree
    ``total >= 15`` (any words after it its description); another expression is written ``10+2 <= 1d20+5``, as
    ``>=`` right after dice would count the dice meeting the number."""
    comparison, described = classes
    refusal = DiceSyntaxError(N_("a check is written {example}: the roll, vs and the number to meet or beat"), None,
                              column, example="1d20+5 vs 15" if isinstance(tree, comparison) else f"{head.strip()} vs 15")
    if len(words) < 2 or not (words[1][0][0].isdigit() or words[1][0][0] in "(+-") or isinstance(tree, comparison):
        raise refusal
    number, at = words[1]
    if number.isdigit() and len(number) <= 9:
        check = comparison(tree, ">=", Number(int(number), pos=at))
        if len(words) == 2:
            return check
        start = at + len(number)
        return described(check, Token("DESCRIPTION", " " + _tail(words[2:]).strip(), start_pos=start))
    return f"{number} <= {head.strip()}{_tail(words[2:])}", refusal


def _advantage(operation: str, typed: str, head: str, words: list[tuple[str, int]], column: int,
               tree: Any) -> tuple[str, DiceError | None]:
    """``1d20+5 advantage``: two d20, the higher kept (``2d20kh1+5``); disadvantage the lower."""
    modifier = "kh1" if operation == "advantage" else "kl1"
    terms = _dice_terms(tree)
    d20 = [d for d in terms if d.sides == 20 and d.count in (None, 1) and not d.modifiers.items]
    m = _DICE_TEXT.match(head, d20[0].pos) if len(terms) == 1 and d20 and d20[0].pos is not None else None
    if m is None:
        message = (N_("{words} rolls one d20 twice and keeps the higher: write 2d20kh1 in its place (1d20+5 "
                      "advantage is 2d20kh1+5)") if operation == "advantage" else
                   N_("{words} rolls one d20 twice and keeps the lower: write 2d20kl1 in its place (1d20+5 "
                      "disadvantage is 2d20kl1+5)"))
        raise DiceSyntaxError(message, None, column, words=repr(typed))
    text = head[:m.start()] + "2d20" + modifier + head[m.end():].rstrip() + _tail(words[1:])
    return text, None


def _refused(operation: str, typed: str, column: int, head: str) -> DiceSyntaxError:
    """The refusal of an operation's words that say no one thing (``explode 5``: on 5, or on 5 and more?)."""
    dice = _example(head, "")
    if operation == "explode":
        return DiceSyntaxError(N_("{words} with a number has no one meaning: write {dice}! (on the highest face), "
                                  "{dice}!>=5 (on 5 or more) or {dice}!5 (on 5)"), None, column, words=repr(typed),
                               dice=dice)
    examples = {"keep": "kh3", "drop": "dl1", "reroll": "r1"}
    return DiceSyntaxError(N_("{words} has no one meaning here: write {example}"), None, column,
                           words=repr(typed), example=dice + examples[operation])
