"""Syntax-tree nodes of the standard dice notation (``grammars/standard.lark``), one frozen record per rule: the dice
term and its modifiers (the expressions around it are in :mod:`.expressions`)."""

from __future__ import annotations

from diceengine.ast import AsList, Node, Token, at_token, to_int
from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from diceengine.i18n import N_
from diceengine.limits import MAX_CONSTANT
from diceengine.records import dataclass, field

from .exact import DecimalValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any

__all__ = [
    "Clamp",
    "Compare",
    "CountFailures",
    "CountSuccesses",
    "Critical",
    "Dice",
    "Double",
    "Explode",
    "GroupKeep",
    "Keep",
    "ListedFaces",
    "Modifiers",
    "NamedModifier",
    "Reroll",
    "RerollRank",
    "Sort",
    "Unique",
    "lowered",
]


def lowered(token: Any) -> str:
    """A token's text in lower case: the letters of a modifier read whatever their case (``KH``, ``Even``)."""
    return str(token).lower()


@dataclass(frozen=True, slots=True)
class ListedFaces(Node, AsList):
    """The faces of a die listed one by one, ``{1,2,4,8}`` in ``d{1,2,4,8}`` (a face listed twice is twice as
    likely)."""

    items: Any
    faces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            faces, sign = [], 1
            for tok in self.items:
                if tok is None:
                    continue
                if tok.type == "MINUS":
                    sign = -1
                    continue
                faces.append(sign * to_int(tok))
                sign = 1
            object.__setattr__(self, "faces", tuple(faces))
            object.__setattr__(self, "items", ())


def _compare_parts(items: Any) -> tuple[str, int]:
    """``(op, value)`` from the tokens ``[COMPARATOR] [MINUS] INT`` (or a number computed in the modifier: a node
    with its ``value``, :class:`~.expressions.Computed`)."""
    op, sign, value = "=", 1, 0
    for tok in items:
        if tok is None:
            continue
        if isinstance(tok, Node):  # a Computed number
            value = getattr(tok, "value")  # noqa: B009 - a Node of expressions', read without importing it
        elif tok.type == "COMPARATOR":
            op = str(tok)
        elif tok.type == "MINUS":
            sign = -1
        else:
            value = to_int(tok)
    return op, sign * value


@dataclass(frozen=True, slots=True)
class Compare(Node, AsList):
    """A compare point: ``>=7``, ``<2``, ``=1``, ``>=-1`` or a bare ``1`` (equal)."""

    items: Any
    op: str = "="
    value: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            op, value = _compare_parts(self.items)
            object.__setattr__(self, "items", ())
            object.__setattr__(self, "op", op)
            object.__setattr__(self, "value", value)

    @classmethod
    def of(cls, op: str, value: int) -> Compare:
        return cls((), op, value)

    def test(self, x: Any) -> Any:
        """Whether ``x`` (an int or a numpy array) meets the compare point."""
        v = self.value
        op = self.op
        if op == "=" or op == "==":
            return x == v
        if op == ">=":
            return x >= v
        if op == ">":
            return x > v
        if op == "<=":
            return x <= v
        if op == "!=" or op == "<>":
            return x != v
        return x < v

    def predicate(self) -> Any:
        """The test of one integer, as a fast built-in method (``7 .__le__`` for ``>=7``)."""
        v = self.value
        return {"=": v.__eq__, "==": v.__eq__, ">=": v.__le__, ">": v.__lt__, "<=": v.__ge__, "<": v.__gt__,
                "!=": v.__ne__, "<>": v.__ne__}[self.op]

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


def _letter_not_equal(token: Token, compare: Compare | None) -> tuple[str, Compare | None]:
    """A modifier letter read with a ``!=`` right after it (``r!=5``, ``cs!=20``): the letter, and its compare
    point ``!=N`` (rpg-dice-roller: a compare point of that modifier, never an explosion)."""
    text = "".join(str(token).lower().split())  # "r !=" (a space inside) is "r!="
    if not text.endswith("!="):
        return text, compare
    column = (token.start_pos or 0) + len(text)
    if compare is None or compare.op != "=":
        raise DiceSyntaxError(N_("'{token}' needs a number after '!=' (a compare point of '{point}')"),
                              column=column, token=str(token), point=text[:-2])
    return text[:-2], Compare.of("!=", compare.value)


@dataclass(frozen=True, slots=True)
class _KindPoint(Node):
    """A modifier written as its letters (``kind``) and an optional compare point: ``r<2``, ``u``, ``cs>=19``,
    ``f<=1``, ``dbl10``; the letters read lower case, a ``!=`` right after them read as the point ``!=N``."""

    kind: Any
    compare: Compare | None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            kind, compare = _letter_not_equal(self.kind, self.compare)
            object.__setattr__(self, "compare", compare)
            at_token(self, "kind", lambda _: kind)


#: spellings of keep / drop and what they mean: ``kN`` is ``khN``, bare ``dN`` (rpg-dice-roller) is ``dlN``,
#: d20's ``phN`` / ``plN`` (drop) are ``dhN`` / ``dlN``
_KEEP_SPELLINGS = {"k": "kh", "d": "dl", "ph": "dh", "pl": "dl"}


@dataclass(frozen=True, slots=True)
class Keep(Node):
    """``khN`` / ``kN`` keep highest, ``klN`` keep lowest, ``dhN`` / ``phN`` drop highest, ``dlN`` / ``dN`` /
    ``plN`` drop lowest; ``N`` defaults to 1. ``spelled`` is what was typed. In d20's dialect, bare ``kN`` /
    ``pN`` keep / drop the dice showing N and ``k<N``, ``k>N``, ``p<N``, ``p>N`` the dice under / over N
    (``point``)."""

    kind: Any
    n: Any
    point: Any = None
    pos: int | None = field(default=None, compare=False)
    spelled: str = field(default="")  # part of the meaning: d20 reads k3 and kh3 apart
    fresh: bool = False  # d20: an operator of its own, never joined to the one before (a set's on its dice)

    def __post_init__(self) -> None:
        if isinstance(self.n, Token) and self.n.type == "COMPARATOR":  # keep_point: KEEP COMPARATOR INT
            n, point = self.point, self.n
            object.__setattr__(self, "n", n)
            object.__setattr__(self, "point", point)
        if isinstance(self.point, Token):
            if str(self.point) not in ("<", ">"):
                raise DiceSyntaxError(N_("a keep / drop selects dice under (<) or over (>) a value, not {point}"),
                                      column=self.point.start_pos, point=str(self.point))
            object.__setattr__(self, "point", str(self.point))
        if isinstance(self.kind, Token):
            object.__setattr__(self, "spelled", lowered(self.kind))
            at_token(self, "kind", lambda t: _KEEP_SPELLINGS.get(lowered(t), lowered(t)))
        if isinstance(self.n, Token):
            object.__setattr__(self, "n", to_int(self.n))
        elif isinstance(self.n, Node):  # a Computed number (expressions.Computed: its value and position)
            n, pos = getattr(self.n, "value"), getattr(self.n, "pos")  # noqa: B009 - read without importing it
            if n < 0:
                raise DiceValueError(N_("a keep / drop takes a number of dice, not {n}"), column=pos, n=n)
            object.__setattr__(self, "n", n)
        elif self.n is None:
            object.__setattr__(self, "n", 1)
            object.__setattr__(self, "spelled", self.spelled + "\x00")  # no number was typed

    @property
    def text(self) -> str:
        if self.spelled.endswith("\x00"):
            return self.spelled[:-1]
        return f"{self.spelled or self.kind}{self.point or ''}{self.n}"

    @property
    def bare(self) -> bool:
        """``kN`` / ``pN`` / ``k<N``...: the spellings whose meaning depends on the dialect."""
        return self.spelled.rstrip("\x00") in ("k", "p") or self.point is not None


class GroupKeep(Keep):
    """Keep / drop on a group or a set: ``{...}kh1``, ``(...)kl1``."""

    __slots__ = ()


class KeepPoint(Keep):
    """d20's keep / drop by value on dice: ``k<3``, ``p>4`` (dialect="d20")."""

    __slots__ = ()


class GroupKeepPoint(GroupKeep):
    """d20's keep / drop by value on a set: ``(1, 2, 3)k<3``."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Explode(Node):
    """``!`` explode (on the maximum, or on the compare point); ``!!`` compound; ``!p`` penetrate (each added
    die counts one less); ``!!p`` compound and penetrate; d20's ``eN`` is ``!N``."""

    bang: Any
    compare: Compare | None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "bang", lambda t: "!" if lowered(t) == "e" else lowered(t))

    @property
    def compound(self) -> bool:
        return self.bang.startswith("!!")

    @property
    def penetrate(self) -> bool:
        return self.bang.endswith("p")


class Reroll(_KindPoint):
    """``rN`` / ``r<N`` / d20's ``rrN`` re-roll until the face misses the compare point; ``roN`` re-roll once;
    d20's ``raN`` throws one more die, added, when the face meets the point (once). Without a compare point
    (rpg-dice-roller's bare ``r`` / ``ro``) the point is the lowest face."""

    __slots__ = ()

    def __post_init__(self) -> None:
        if isinstance(self.kind, Token):
            _KindPoint.__post_init__(self)
            if self.kind == "rr":
                object.__setattr__(self, "kind", "r")

    @property
    def once(self) -> bool:
        return self.kind == "ro"

    @property
    def added(self) -> bool:
        return self.kind == "ra"


@dataclass(frozen=True, slots=True)
class CountSuccesses(Node, AsList):
    """``>=N`` (and ``>N <=N <N =N``): the term counts the dice meeting it instead of summing."""

    items: Any
    compare: Compare | None = None
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.items, list):
            object.__setattr__(self, "pos", self.items[0].start_pos)
            object.__setattr__(self, "compare", Compare.of(*_compare_parts(self.items)))
            object.__setattr__(self, "items", ())


class CountFailures(_KindPoint):
    """``fN`` / ``f<=N``: dice meeting it are subtracted from the successes."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class RerollRank(Node):
    """d20's ``rolN`` / ``rohN``: the lowest (highest) N dice re-rolled once; ``ralN`` / ``rahN``: one of them
    (the lowest, the highest) throws one more die, added. ``rrlN`` / ``rlN`` would never stop (refused)."""

    letter: Any
    n: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if at_token(self, "letter", lowered):
            object.__setattr__(self, "n", int(self.n))

    @property
    def kind(self) -> str:
        return self.letter[:-1]

    @property
    def side(self) -> str:
        return self.letter[-1]


class Double(_KindPoint):
    """``dblN`` / ``dbl>=N``: a success meeting the point counts twice (World of Darkness' 10s); bare ``dbl``
    doubles the highest face. It needs a success count before it."""

    __slots__ = ()


#: most digits a decimal literal may have after its point
MAX_DECIMALS = 9


def decimal_of(token: Any) -> Fraction:
    """The exact value of a ``DECIMAL`` token (``1.5``, ``.5``, ``0.20``), bounded as integers are."""
    from fractions import Fraction

    text = str(token)
    whole, _, digits = text.partition(".")
    column = getattr(token, "start_pos", None)
    if len(whole) > 10 or int(whole or "0") > MAX_CONSTANT:
        raise DiceLimitError(N_("number too large: {number} (at most {limit})"), column=column, number=text,
                             limit=MAX_CONSTANT)
    if len(digits) > MAX_DECIMALS:
        raise DiceLimitError(N_("too many decimal places: {number} (at most {limit})"), column=column,
                             number=text, limit=MAX_DECIMALS)
    return Fraction(int(whole or "0") * 10 ** len(digits) + int(digits), 10 ** len(digits))


@dataclass(frozen=True, slots=True)
class Clamp(Node):
    """Per-die minimum / maximum: d20's ``miN`` / ``maN``, rpg-dice-roller's ``minN`` / ``maxN`` (a face
    below the minimum counts as the minimum, above the maximum as the maximum)."""

    kind: Any
    sign: Any
    value: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "kind", lambda t: "min" if lowered(t).startswith("mi") else "max")
        if isinstance(self.value, Token):
            sign = -1 if self.sign is not None else 1
            object.__setattr__(self, "sign", None)
            if self.value.type == "DECIMAL":  # rpg-dice-roller's max50.45: a fraction (a whole one is an int)
                value = sign * decimal_of(self.value)
                object.__setattr__(self, "value", int(value) if value.denominator == 1 else DecimalValue(value))
            else:
                object.__setattr__(self, "value", sign * to_int(self.value))


class Unique(_KindPoint):
    """``u``: a face already shown by another die of the term is thrown again (until unique); ``uo`` once;
    with a compare point (``u=1``), only faces meeting it must be unique."""

    __slots__ = ()

    @property
    def once(self) -> bool:
        return self.kind == "uo"


@dataclass(frozen=True, slots=True)
class Sort(Node):
    """``s`` / ``sa`` sort the dice shown ascending, ``sd`` descending (display only)."""

    kind: Any
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        at_token(self, "kind", lambda t: "sd" if lowered(t) == "sd" else "sa")


class Critical(_KindPoint):
    """``cs`` / ``cs>=19`` marks critical successes, ``cf`` / ``cf<=2`` critical failures (default: the highest,
    the lowest face); marks only, the total is unchanged."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class NamedModifier(Node):
    """A modifier known by its letters only, resolved when the term is compiled (a plug-in's: ``4d6z1``, entry-point
    group ``diceengine.modifiers``; :mod:`.modifiers.plugin`): ``name`` lower case, ``typed`` as written."""

    name: Any
    compare: Compare | None
    pos: int | None = field(default=None, compare=False)
    typed: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.name, Token):
            object.__setattr__(self, "typed", str(self.name))
            at_token(self, "name", lowered)


@dataclass(frozen=True, slots=True)
class Modifiers(Node, AsList):
    """The modifiers after a dice term, in order."""

    items: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(self.items))


@dataclass(frozen=True, slots=True)
class Dice(Node):
    """``NdM`` with its modifiers; the count and the sides may be expressions (``(1d4)d6``, ``2d(1d6+2)``);
    ``dF`` is ``dF.2`` (-1/0/+1), ``dF.1`` has one -1, four 0 and one +1; listed faces (``d{1,2,4,8}``) are a
    tuple."""

    count: Any
    die: Any
    sides: Any
    modifiers: Modifiers
    pos: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.die, Token):
            start = self.count.start_pos if isinstance(self.count, Token) else self.die.start_pos
            object.__setattr__(self, "pos", start)
            object.__setattr__(self, "die", "d")
        if isinstance(self.count, Token):
            object.__setattr__(self, "count", to_int(self.count))
        if isinstance(self.sides, ListedFaces):
            object.__setattr__(self, "sides", self.sides.faces)
        elif isinstance(self.sides, Token):
            kind = self.sides.type
            text = str(self.sides).upper()
            object.__setattr__(self, "sides", "%" if kind == "PERCENT" else ("F.1" if text == "F.1" else "F")
                               if kind in ("PERCENT", "FUDGE") else to_int(self.sides))

    @property
    def computed(self) -> bool:
        """The count or the sides are expressions."""
        return isinstance(self.count, Node) or isinstance(self.sides, Node)
