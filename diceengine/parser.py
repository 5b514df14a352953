"""Text to syntax tree: the core grammar plus a system's fragment, parsed by Lark (LALR).

Each system gets one parser, built on first use. The Lark transformer
runs inside the LALR parser, so building the tree never recurses, and the depth of the tree is
checked before anything walks it.

Letters are ASCII letters: every terminal is compiled with :data:`re.ASCII`, so a case-insensitive
terminal (``"vs"i``, ``/[a-z]+/i``) folds the case of ASCII letters only, and Unicode look-alikes
(the long s ``ſ``, the dotted capital ``İ``, the Kelvin sign) are syntax errors with a caret instead
of accidents of case folding. A grammar that wants a non-ASCII word (French vocabulary) writes it
deliberately, each case it accepts spelled out (``/tr[eéEÉ]s/``); word and digit classes are ASCII too.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from lark import Lark, Transformer, ast_utils
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast
from .errors import DiceError, DiceLimitError, DiceSyntaxError
from .i18n import N_
from .limits import MAX_DEPTH, MAX_EXPRESSION_LENGTH

if TYPE_CHECKING:
    from .registry import System

__all__ = ["grammar_text", "parse", "parser_for"]

#: how a terminal is named in an error message (messages of the catalogues)
_TERMINAL_NAMES = {
    "INT": N_("a number"),
    "WORD": N_("a name"),
    "FRENCH_WORD": N_("a name"),
    "$END": N_("the end of the expression"),
    "LABEL": N_("a label in brackets"),
    "COMPARATOR": N_("a comparison (>=, >, <=, <, =)"),
    "SYMBOL_DIE": N_("a die letter (a p b d c s f) or name"),
}


def grammar_text(system: System) -> str:
    """The full grammar of a system: the engine's ``core.lark`` followed by the system's fragment
    (:meth:`~diceengine.registry.System.grammar_source`)."""
    text = resources.files("diceengine.grammars").joinpath("core.lark").read_text(encoding="utf-8")
    fragment = system.grammar_source()
    return text + "\n" + fragment if fragment else text


def _transformer(modules: Iterable[types.ModuleType]) -> Transformer:
    transformer: Transformer = Transformer()
    for module in modules:
        transformer = ast_utils.create_transformer(module, transformer)
    return transformer


@cache
def parser_for(system: System) -> Lark:
    """The Lark parser of ``system`` (built once per system)."""
    modules = [ast, *system.ast_modules()]
    return Lark(
        grammar_text(system),
        parser="lalr",
        lexer="contextual",
        transformer=_transformer(modules),
        maybe_placeholders=True,
        g_regex_flags=re.ASCII,  # letters are ASCII letters: no Unicode case folding (module docstring)
        cache=True,  # the grammar's analysis kept on disk by Lark (keyed on grammar, options and version)
    )


def _describe_terminals(parser: Lark, names: Iterable[str]) -> list[str]:
    patterns = {t.name: t.pattern for t in parser.terminals}
    shown = []
    for name in sorted(set(names)):
        if name in _TERMINAL_NAMES:
            shown.append(_TERMINAL_NAMES[name])
        elif name in patterns and patterns[name].type == "str":
            shown.append(repr(patterns[name].value))
        elif name in patterns:
            shown.append(name.lower())
        else:
            shown.append(name)
    return sorted(set(shown))


_WORD = re.compile(r"\w+")


def _look_alike(expression: str, column: int) -> int | None:
    """Column of the first non-ASCII character of the word around ``column``, if any: a letter the
    grammar does not know (``profİciencies`` fails at ``r``, the fault is the ``İ``)."""
    for word in _WORD.finditer(expression):
        if word.start() <= column < word.end():  # a fault right after a word is not in it ("compétence!")
            for i in range(word.start(), word.end()):
                if not expression[i].isascii():
                    return i
            return None
    return None


def _syntax_error(parser: Lark, expression: str, err: UnexpectedInput) -> DiceSyntaxError:
    error = _lark_syntax_error(parser, expression, err)
    column = error.column if error.column is not None else 0
    odd = _look_alike(expression, column)
    if odd is not None and odd != column:
        return DiceSyntaxError(N_("unexpected character {got}: letters are ASCII letters here"), expression, odd,
                               got=repr(expression[odd]))
    return error


def _lark_syntax_error(parser: Lark, expression: str, err: UnexpectedInput) -> DiceSyntaxError:
    if isinstance(err, UnexpectedCharacters):
        column = err.pos_in_stream or 0
        got = repr(expression[column]) if column < len(expression) else "''"
        expected = _describe_terminals(parser, err.allowed or ())
        return DiceSyntaxError(N_("unexpected character {got}: expected {expected}"), expression, column, got=got,
                               expected=expected)
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = _describe_terminals(parser, getattr(err, "expected", ()) or ())
        return DiceSyntaxError(N_("the expression ends too early: expected {expected}"), expression, len(expression),
                               expected=expected)
    assert isinstance(err, UnexpectedToken)
    column = err.token.start_pos if err.token.start_pos is not None else len(expression)
    expected = _describe_terminals(parser, err.accepts or err.expected)
    return DiceSyntaxError(N_("unexpected {got}: expected {expected}"), expression, column, got=repr(str(err.token)),
                           expected=expected)


def check_depth(tree: Any, expression: str) -> None:
    """Raise :class:`DiceLimitError` when ``tree`` is nested deeper than :data:`MAX_DEPTH`."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            column = ast.position(node)
            raise DiceLimitError(N_("expression nested too deeply (more than {limit} levels)"), expression,
                                 column if column is not None else 0, limit=MAX_DEPTH)
        stack.extend((child, depth + 1) for child in ast.children(node))


def parse(expression: str, system: System) -> Any:
    """The syntax tree of ``expression`` in ``system``'s notation (not cached here: the plan cache of
    :mod:`diceengine.api`, bounded in bytes, keeps what is worth keeping)."""
    if not isinstance(expression, str):
        raise DiceError(f"an expression must be a string, not {type(expression).__name__}")
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(N_("expression too long: {length} characters (at most {limit})"), length=len(expression),
                             limit=MAX_EXPRESSION_LENGTH)
    if not expression.strip():
        raise DiceSyntaxError(N_("empty expression"), expression, 0)
    parser = parser_for(system)
    try:
        tree = parser.parse(expression)
    except UnexpectedInput as err:
        raise _syntax_error(parser, expression, err) from None
    except VisitError as err:  # a node refused its children
        inner = err.orig_exc
        if isinstance(inner, DiceError):
            raise inner.at(expression, inner.column) from None
        raise
    except DiceError as err:
        raise err.at(expression, err.column) from None
    check_depth(tree, expression)
    return tree
