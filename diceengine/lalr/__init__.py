"""The engine's LALR parser: parse tables prebuilt from the grammar by Lark, read by a small runtime.

The grammars in ``grammars/`` stay the source of truth. ``python -m diceengine.lalr`` (Lark required, as it is
for the engine) compiles each built-in grammar (``core.lark`` followed by a system's fragment) with Lark, with
the engine's options (LALR, contextual lexer, placeholders, ASCII letters), and writes what Lark computed:
the parse table, the rules with the way Lark's tree builder shapes their children, and the regular
expressions of each state's lexer, exactly as Lark joins them, into ``grammars/_tables_<name>.py`` (and, for a
grammar whose tables would make a long module, the modules it imports), beside the grammar they come from, with
the grammar's text. :func:`diceengine.lalr.tables.tables_for` gives those tables when the text still matches (the
test suite checks that every shipped table is in step); a grammar changed since is compiled again in memory
(slower, never different). What needs Lark is in :mod:`diceengine.lalr.tables` (``python -m diceengine.lalr``
runs its writer: :mod:`diceengine.lalr.__main__`); this module is the runtime.

The runtime (:class:`Parser`) lexes and parses as Lark's own LALR parser does with these tables: one
lexer per parser state, the first alternative of its expression that matches, the keywords a name
matches retyped as Lark does, the children of each rule filtered, inlined and completed with placeholders,
and each rule built by its node class (:mod:`diceengine.ast`). It knows nothing of errors: on any input it
cannot read it raises :class:`Unparsed`, and the caller asks Lark itself why (:mod:`diceengine.parser`), so
a syntax error is Lark's, word for word. A roll never imports Lark.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Self

__all__ = ["FLAGS", "Parser", "Token", "Tree", "Unparsed", "camel_to_snake", "node_classes"]

#: the regular expressions' flags of every lexer of the engine, the runtime's and Lark's (:mod:`.tables`)
FLAGS = re.ASCII


class _TokenType(type):
    """A :class:`Token` is the engine's token or, once Lark is loaded (a plug-in's grammar), Lark's."""

    def __instancecheck__(cls, obj: Any) -> bool:
        if type.__instancecheck__(cls, obj):
            return True
        lark = sys.modules.get("lark")
        return lark is not None and type.__instancecheck__(lark.Token, obj)


class Token(str, metaclass=_TokenType):
    """A piece of the text, as Lark's ``Token``: a ``str`` with its terminal's name and position."""

    __slots__ = ("column", "end_column", "end_line", "end_pos", "line", "start_pos", "type", "value")

    type: str
    start_pos: int | None
    value: Any
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(cls, type: str, value: Any, start_pos: int | None = None, line: int | None = None,
                column: int | None = None, end_line: int | None = None, end_column: int | None = None,
                end_pos: int | None = None) -> Self:
        inst = str.__new__(cls, value)
        inst.type, inst.value, inst.start_pos, inst.line, inst.column = type, value, start_pos, line, column
        inst.end_line, inst.end_column, inst.end_pos = end_line, end_column, end_pos
        return inst

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (self.type, self.value, self.start_pos, self.line, self.column))

    def __deepcopy__(self, memo: Any) -> Token:
        return Token(self.type, self.value, self.start_pos, self.line, self.column)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Tree:
    """A rule that no node class builds, as Lark's default ``Tree``: its name and children."""

    __slots__ = ("children", "data")

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data, self.children = data, children

    def __eq__(self, other: object) -> bool:
        try:
            return self.data == other.data and self.children == other.children  # type: ignore[attr-defined]
        except AttributeError:
            return False

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


class Unparsed(Exception):
    """The runtime cannot read the text: Lark says why."""


def camel_to_snake(name: str) -> str:
    """The rule a node class builds (Lark's ``ast_utils``: ``KeepDrop`` -> ``keep_drop``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def node_classes(modules: Iterable[Any], base: type, list_bases: tuple[type, ...]) -> dict[str, tuple[type, bool]]:
    """Rule name -> (class, takes its children as one list), from the public subclasses of ``base`` in
    ``modules`` (a later module's class wins), as Lark's ``ast_utils.create_transformer`` finds them."""
    found: dict[str, tuple[type, bool]] = {}
    for module in modules:
        for name, obj in sorted(vars(module).items()):
            if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, base):
                found[camel_to_snake(name)] = (obj, issubclass(obj, list_bases))
    return found


# ------------------------------------------------------------------ the runtime


#: a terminal's expression this long is matched on its own: joined with the others in each state's expression, it
#: would be compiled again for every state (the standard notation's descriptions: most of a first parse's time)
_ALONE = 80
#: compiled expressions, shared by the lexers of every state and grammar
_COMPILED: dict[str, Any] = {}


def _segments(groups: Sequence[str]) -> list[Any]:
    """The compiled expressions matching ``groups`` (``(?P<NAME>...)``, in Lark's order) as Lark's one alternation
    does: the first group that matches wins, so runs of groups are joined and a long one stands alone."""
    texts: list[str] = []
    run: list[str] = []
    for group in groups:
        if len(group) >= _ALONE:
            if run:
                texts.append("|".join(run))
                run = []
            texts.append(group)
        else:
            run.append(group)
    if run:
        texts.append("|".join(run))
    out = []
    for text in texts:
        found = _COMPILED.get(text)
        if found is None:
            found = _COMPILED[text] = re.compile(text, FLAGS)
        out.append(found)
    return out


class _Lexer:
    """One parser state's lexer: its terminals' expressions in Lark's order, compiled on first use."""

    __slots__ = ("_mres", "_unless", "groups", "unless")

    def __init__(self, groups: Sequence[str], unless: Mapping[str, Sequence[str]]) -> None:
        self.groups, self.unless = groups, unless
        self._mres: list[Any] | None = None
        self._unless: dict[str, list[Any]] = {}

    def compiled(self) -> tuple[list[Any], dict[str, list[Any]]]:
        if self._mres is None:
            self._unless = {name: _segments(groups) for name, groups in self.unless.items()}
            self._mres = _segments(self.groups)
        return self._mres, self._unless


def _wrap(build: Callable[[list[Any]], Any], rule: Sequence[Any]) -> Callable[[list[Any]], Any]:
    """The callback of one rule, as Lark's tree builder composes it: its children filtered (tokens dropped,
    ``_rules`` inlined, placeholders added), then a single child passed up (``?rule``) or the rule built."""
    _origin, _name, expand1, _size, shape = rule
    f = build
    if expand1:
        inner = f

        def f(children: list[Any]) -> Any:
            return children[0] if len(children) == 1 else inner(children)

    if shape is not None:
        include, append_none = shape
        then = f

        def f(children: list[Any]) -> Any:
            filtered: list[Any] = []
            for i, expand, nones in include:
                if nones:
                    filtered += [None] * nones
                if expand:
                    if filtered:
                        filtered += children[i].children
                    else:
                        filtered = children[i].children
                else:
                    filtered.append(children[i])
            if append_none:
                filtered += [None] * append_none
            return then(filtered)

    return f


def _builder(name: str, classes: Mapping[str, tuple[type, bool]]) -> Callable[[list[Any]], Any]:
    found = classes.get(name)
    if found is None:
        return lambda children: Tree(name, children)
    cls, as_list = found
    if as_list:
        return cls  # type: ignore[return-value]
    return lambda children: cls(*children)


class Parser:
    """The LALR parser of one grammar's tables, building the nodes of ``classes`` (:func:`node_classes`)."""

    def __init__(self, tables: Any, classes: Mapping[str, tuple[type, bool]]) -> None:
        self.states: Sequence[Mapping[str, int]] = tables.STATES
        self.start: int = tables.START
        self.end: int = tables.END
        self.ignore: frozenset[str] = tables.IGNORE
        self.newline: frozenset[str] = tables.NEWLINE
        lexers = [_Lexer(groups, unless) for groups, unless in tables.LEXERS]
        self.lexers = [lexers[i] for i in tables.STATE_LEXER]
        # a rule ``?a: b`` passes its one child up as it is: the parser only changes state (no call)
        self.rules = [(rule[0], rule[3], _wrap(_builder(rule[1], classes), rule),
                       rule[2] and rule[3] == 1 and rule[4] in (None, (((0, False, 0),), 0)))
                      for rule in tables.RULES]

    def parse(self, text: str) -> Any:
        """The tree of ``text``; :class:`Unparsed` when it is not in the grammar (or any doubt)."""
        states, lexers, rules, ignore, newline = self.states, self.lexers, self.rules, self.ignore, self.newline
        end_state = self.end
        stack = [self.start]
        values: list[Any] = []
        pos, length, line, line_start = 0, len(text), 1, 0
        while True:
            token = None
            while pos < length:  # the next token, read by the lexer of the current state
                lexer = lexers[stack[-1]]
                mres, unless = (lexer._mres, lexer._unless) if lexer._mres is not None else lexer.compiled()
                for mre in mres:
                    m = mre.match(text, pos)
                    if m:
                        break
                else:
                    raise Unparsed(pos)
                value, kind = m.group(0), m.lastgroup
                assert kind is not None
                start, start_line, column = pos, line, pos - line_start + 1
                pos += len(value)
                if kind in newline:
                    count = value.count("\n")
                    if count:
                        line += count
                        line_start = start + value.rindex("\n") + 1
                if kind in ignore:
                    continue
                if kind in unless:
                    for ure in unless[kind]:
                        um = ure.fullmatch(value)
                        if um:
                            kind = um.lastgroup
                            break
                token = Token(kind, value, start, start_line, column, line, pos - line_start + 1, pos)
                break
            is_end = token is None
            if token is None:
                kind = "$END"
            while True:  # fed to the parser: reductions, then the shift
                action = states[stack[-1]].get(kind)  # type: ignore[arg-type]
                if action is None:
                    raise Unparsed(pos)
                if action >= 0:
                    if is_end:
                        raise Unparsed(pos)
                    stack.append(action)
                    values.append(token)
                    break
                origin, size, callback, unit = rules[~action]
                if unit:
                    del stack[-1]
                    goto = states[stack[-1]].get(origin)
                    if goto is None or goto < 0:
                        raise Unparsed(pos)
                    stack.append(goto)
                    if is_end and goto == end_state:
                        return values[-1]
                    continue
                if size:
                    children = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    children = []
                value = callback(children)
                goto = states[stack[-1]].get(origin)
                if goto is None or goto < 0:
                    raise Unparsed(pos)
                stack.append(goto)
                values.append(value)
                if is_end and goto == end_state:
                    return value

