"""Text to tree: an AnyDice program read by Lark (``grammars/anydice.lark``) into the records of
:mod:`diceengine.anydice.tree`; a syntax error is the engine's, with the line and a caret, in the user's words
(never a rule's name)."""

from __future__ import annotations

from functools import cache
from typing import Any

from diceengine.errors import DiceError, DiceLimitError, DiceSyntaxError
from diceengine.i18n import N_

from .errors import located
from .tree import (
    Assign,
    Binary,
    Block,
    Call,
    FunctionDef,
    If,
    Item,
    Loop,
    Name,
    Number,
    Output,
    Param,
    Program,
    Result,
    Sequence,
    Set,
    Unary,
)

__all__ = ["MAX_NESTING", "MAX_PROGRAM_LENGTH", "MAX_TREE_DEPTH", "parse_program"]

#: longest program accepted, in characters
MAX_PROGRAM_LENGTH = 100_000
#: deepest nesting of brackets
MAX_NESTING = 200
#: deepest tree (a chain of operators nests as deep as it is long)
MAX_TREE_DEPTH = 1000

#: how each terminal is named in an error (messages of the catalogues)
_TERMINALS = {
    "NAME": N_("a variable name"), "WORD": N_("a word"), "INT": N_("a number"), "STRING": N_("a string"),
    "COMPARE": N_("a comparison"), "$END": N_("the end of the program"), "D": "'d'", "OUTPUT": "'output'",
    "NAMED": "'named'", "RESULT": "'result'", "FUNCTION": "'function'", "IF": "'if'", "ELSE": "'else'",
    "LOOP": "'loop'", "OVER": "'over'", "SET": "'set'", "TO": "'to'", "AND": "'&'", "OR": "'|'", "PLUS": "'+'",
    "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "CARET": "'^'", "AT": "'@'", "BANG": "'!'", "HASH": "'#'",
    "RANGE": "'..'", "LBRACE": "'{'", "LBRACKET": "'['", "RBRACE": "'}'", "RSQB": "']'", "LPAR": "'('",
    "RPAR": "')'", "COLON": "':'", "COMMA": "','",
}


def _start(node: Any) -> int:
    return int(getattr(node, "pos", 0))


def _tokens(children: list[Any]) -> list[Any]:
    return [c for c in children if c is not None]


class _Builder:
    """Lark's inline transformer: one method a rule, building the tree's records as the parser reduces."""

    def start(self, children: list[Any]) -> Program:
        return Program(tuple(children))

    def assign(self, children: list[Any]) -> Assign:
        name, value = children
        return Assign(str(name), value, name.start_pos)

    def output(self, children: list[Any]) -> Output:
        keyword, value, _named, label = children
        return Output(value, None if label is None else _string(label), keyword.start_pos)

    def result(self, children: list[Any]) -> Result:
        keyword, value = children
        return Result(value, keyword.start_pos)

    def function(self, children: list[Any]) -> FunctionDef:
        keyword, parts, body = children
        return FunctionDef(tuple(parts), body, keyword.start_pos)

    def signature(self, children: list[Any]) -> list[Any]:
        return [str(c) if not isinstance(c, Param) else c for c in children]

    def param(self, children: list[Any]) -> Param:
        name, kind = children
        if kind is None:
            return Param(str(name), "", name.start_pos)
        if str(kind) not in ("n", "s", "d"):
            raise DiceSyntaxError(N_("a parameter's type is n (number), s (sequence) or d (die), not {got}"),
                                  None, kind.start_pos, got=repr(str(kind)))
        return Param(str(name), str(kind), name.start_pos)

    def param_type(self, children: list[Any]) -> Any:
        return children[0]

    def if_stmt(self, children: list[Any]) -> If:
        keyword, condition, then, _else, otherwise = children
        return If(condition, then, otherwise, keyword.start_pos)

    def loop(self, children: list[Any]) -> Loop:
        keyword, name, _over, over, body = children
        return Loop(str(name), over, body, keyword.start_pos)

    def setting(self, children: list[Any]) -> Set:
        keyword, name, _to, value = children
        value = _string(value) if getattr(value, "type", None) == "STRING" else value
        return Set(_string(name), value, keyword.start_pos)

    def block(self, children: list[Any]) -> Block:
        statements = tuple(children)
        return Block(statements, _start(statements[0]) if statements else 0)

    def binary(self, children: list[Any]) -> Binary:
        left, op, right = children
        return Binary(str(op), left, right, op.start_pos)

    def prefix(self, children: list[Any]) -> Unary:
        op, operand = children
        return Unary(str(op), operand, op.start_pos)

    def number(self, children: list[Any]) -> Number:
        (token,) = children
        return Number(int(str(token)), token.start_pos)

    def variable(self, children: list[Any]) -> Name:
        (token,) = children
        return Name(str(token), token.start_pos)

    def sequence(self, children: list[Any]) -> Sequence:
        brace, *items = _tokens(children)
        return Sequence(tuple(items), brace.start_pos)

    def item(self, children: list[Any]) -> Item:
        value, _range, upto, repeat = children
        return Item(value, upto, repeat, _start(value))

    def call(self, children: list[Any]) -> Call:
        bracket, *parts = children
        return Call(tuple(parts), bracket.start_pos)

    def word(self, children: list[Any]) -> str:
        return str(children[0])


def _string(token: Any) -> str:
    """A string literal's text: the quotes taken off, ``\\"`` and ``\\\\`` read."""
    body = str(token)[1:-1]
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append(body[i + 1])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _builders() -> dict[str, Any]:
    """Rule name -> the builder of its node (a method of :class:`_Builder`, taking the rule's children)."""
    builder = _Builder()
    return {name: getattr(builder, name) for name in dir(builder) if not name.startswith("_")}


@cache
def _grammar() -> str:
    """The grammar's full text: ``core.lark`` followed by ``anydice.lark``, as the rulesets' grammars are joined."""
    from diceengine.parser import core_grammar
    from diceengine.registry import package_text

    return core_grammar() + "\n" + package_text("diceengine.grammars", "anydice.lark")


@cache
def _runtime() -> Any:
    """The engine's LALR runtime on the tables Lark wrote for the grammar (:mod:`diceengine.lalr`: no Lark import)."""
    from diceengine.lalr import Parser
    from diceengine.lalr.tables import tables_for

    parser = Parser(tables_for("anydice.lark", _grammar()), {name: (fn, True) for name, fn in _builders().items()})
    for lexer in parser.lexers:  # compiled now, with the first program, not one parser state at a time later:
        lexer.compiled()  # a program using a new construct (a function, a loop) would pay for its states' lexers
    return parser


@cache
def _parser() -> Any:
    """Lark's parser of the grammar, building the same nodes (what says why a text is not a program)."""
    from lark import Transformer, v_args

    from diceengine.lalr.tables import compile_grammar

    transformer: Any = Transformer()
    for name, fn in _builders().items():
        setattr(transformer, name, v_args(inline=False)(fn))
    return compile_grammar(_grammar(), transformer)


def _read(text: str) -> Any:
    """The program's tree: read by the runtime, or by Lark (whose error is the one raised) when the runtime cannot."""
    from diceengine.lalr import Unparsed

    try:
        return _runtime().parse(text)
    except Unparsed:
        return _parser().parse(text)


def _error(text: str, message: str, pos: int, *, cls: type[DiceError] = DiceSyntaxError, **params: Any) -> Any:
    return located(cls, message, text, pos, **params)


def _relocated(text: str, err: DiceSyntaxError) -> Any:
    """A node's refusal (at a column of the whole text) located at its line."""
    params: dict[str, Any] = dict(err.params)
    return _error(text, err.template, err.column or 0, **params)


def _expected(names: Any) -> list[str]:
    return sorted({_TERMINALS.get(n, n.lower()) for n in names or ()})


def _syntax_error(text: str, err: Any) -> DiceSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        return _error(text, N_("unexpected character {got}"), pos, got=repr(text[pos:pos + 1]))
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        return _error(text, N_("the program ends too early: expected {expected}"), len(text),
                      expected=_expected(getattr(err, "expected", ())))
    assert isinstance(err, UnexpectedToken)
    pos = err.token.start_pos if err.token.start_pos is not None else len(text)
    return _error(text, N_("unexpected {got}: expected {expected}"), pos, got=repr(str(err.token)),
                  expected=_expected(err.accepts or err.expected))


def _depth(program: Program) -> None:
    """Refuse a tree deeper than :data:`MAX_TREE_DEPTH`."""
    stack: list[tuple[Any, int]] = [(s, 1) for s in program.statements]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise _error(program.text, N_("nested too deeply (more than {limit} levels)"), int(getattr(node, "pos", 0)),
                         cls=DiceLimitError, limit=MAX_TREE_DEPTH)
        if isinstance(node, tuple):
            stack.extend((item, depth) for item in node)
        elif type(node).__module__ == Name.__module__:
            stack.extend((getattr(node, name), depth + 1) for name in type(node).__slots__ if name != "pos")


def _nesting(text: str) -> None:
    """Refuse a program nested deeper than :data:`MAX_NESTING` brackets (before Lark reads it)."""
    depth, deepest = 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth > MAX_NESTING:
                    raise _error(text, N_("nested too deeply (more than {limit} brackets)"), i, cls=DiceLimitError,
                                 limit=MAX_NESTING)
        elif c in ")]}":
            depth -= 1


def parse_program(text: str) -> Program:
    """The tree of an AnyDice program (the engine's syntax error, with the line and a caret, when it is not one)."""
    if len(text) > MAX_PROGRAM_LENGTH:
        raise DiceLimitError(N_("program too long: {length} characters (at most {limit})"), length=len(text),
                             limit=MAX_PROGRAM_LENGTH)
    _nesting(text)
    try:
        program = _read(text)
    except DiceSyntaxError as err:
        raise _relocated(text, err) from None
    except Exception as err:
        from lark.exceptions import UnexpectedInput, VisitError

        if isinstance(err, UnexpectedInput):
            raise _syntax_error(text, err) from None
        if isinstance(err, VisitError) and isinstance(err.orig_exc, DiceSyntaxError):
            raise _relocated(text, err.orig_exc) from None
        raise
    program = Program(program.statements, text)
    _depth(program)
    return program
