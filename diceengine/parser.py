"""Text to syntax tree: the core grammar plus a system's fragment, an LALR grammar of Lark's.

Each system gets one parser, built on first use. A built-in grammar is read by the engine's runtime from the
tables Lark computed for it (:mod:`diceengine.lalr`: no Lark import on a roll); a text it cannot read is parsed
again by Lark, whose syntax error is the one raised. A plug-in's grammar is parsed by Lark itself. Either way
each rule's node is built inside the LALR parser, so building the tree never recurses, and the depth of the
tree is checked before anything walks it.

Letters are ASCII letters: every terminal is compiled with :data:`re.ASCII`, so a case-insensitive
terminal (``"vs"i``, ``/[a-z]+/i``) folds the case of ASCII letters only, and Unicode look-alikes
(the long s ``ſ``, the dotted capital ``İ``, the Kelvin sign) are syntax errors with a caret instead
of accidents of case folding. A grammar that wants a non-ASCII word (French vocabulary) writes it
deliberately, each case it accepts spelled out (``/tr[eéEÉ]s/``); word and digit classes are ASCII too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import diceengine.ast as ast  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.lalr as lalr  # noqa: PLR0402 - the module itself, not its package's re-exports
import diceengine.lalr.tables as lalr_tables

from .errors import DiceError, DiceLimitError, DiceSyntaxError
from .i18n import N_
from .limits import MAX_DEPTH, MAX_EXPRESSION_LENGTH

if TYPE_CHECKING:
    import types

    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput

    from .registry import System

__all__ = ["core_grammar", "grammar_text", "parse", "parser_for"]

@cache
def core_grammar() -> str:
    """The text of the engine's ``core.lark``."""
    from .registry import package_text

    return package_text("diceengine.grammars", "core.lark")


def grammar_text(system: System) -> str:
    """The full grammar of a system: the engine's ``core.lark`` followed by the system's fragment
    (:meth:`~diceengine.registry.System.grammar_source`)."""
    text = core_grammar()
    fragment = system.grammar_source()
    return text + "\n" + fragment if fragment else text


def _is_list(cls: type) -> bool:
    """The node takes its children as one list: :class:`diceengine.ast.AsList` (or Lark's ``ast_utils.AsList``)."""
    return any(c.__name__ == "AsList" and c.__module__ in ("diceengine.ast", "lark.ast_utils") for c in cls.__mro__)


def _classes(modules: Sequence[types.ModuleType]) -> dict[str, tuple[type, bool]]:
    """Rule name -> (node class, takes a list): the nodes of ``modules`` (Lark's ``ast_utils`` pattern)."""
    found = lalr.node_classes(modules, ast.Node, ())
    return {name: (cls, _is_list(cls)) for name, (cls, _) in found.items()}


def _transformer(modules: Sequence[types.ModuleType]) -> Transformer:
    """Lark's transformer building the nodes of ``modules``, as ``ast_utils.create_transformer`` does."""
    from lark import Transformer, v_args

    transformer: Transformer = Transformer()
    for name, (cls, as_list) in _classes(modules).items():
        setattr(transformer, name, v_args(inline=not as_list)(cls).__get__(transformer))
    return transformer


class _Engine:
    """A system's parser: the engine's runtime on tables prebuilt by Lark (:mod:`diceengine.lalr`) for a built-in
    grammar, Lark itself for a plug-in's (whose nodes may expect Lark's own tokens). A text the runtime cannot read
    is parsed again by Lark, whose error is the one raised."""

    def __init__(self, system: System) -> None:
        self.modules = (ast, *system.ast_modules())
        self.grammar = grammar_text(system)
        builtin = system.grammar_package == "diceengine.grammars" and all(
            m.__name__.startswith("diceengine.") for m in self.modules)
        tables = lalr_tables.tables_for(system.grammar, self.grammar) if builtin else None
        self.runtime = lalr.Parser(tables, _classes(self.modules)) if tables is not None else None
        self._lark: Lark | None = None

    @property
    def lark(self) -> Lark:
        """Lark's parser of the grammar (built on first use: a plug-in's parse, or an error of the runtime's)."""
        if self._lark is None:
            self._lark = lalr_tables.compile_grammar(self.grammar, _transformer(self.modules))
        return self._lark

    def parse(self, expression: str) -> Any:
        if self.runtime is not None:
            try:
                return self.runtime.parse(expression)
            except lalr.Unparsed:
                pass  # Lark says why (or, should the two ever disagree, reads it)
        return self.lark.parse(expression)

    def reads(self, expression: str) -> Any | None:
        """The tree of ``expression``, or ``None`` when it does not read (Lark is not asked why)."""
        if self.runtime is not None:
            try:
                return self.runtime.parse(expression)
            except (DiceError, lalr.Unparsed):
                return None
        from lark.exceptions import UnexpectedInput, VisitError

        try:
            return self.lark.parse(expression)
        except (DiceError, UnexpectedInput, VisitError):
            return None


@cache
def parser_for(system: System) -> _Engine:
    """The parser of ``system`` (built once per system)."""
    return _Engine(system)


def _describe_terminals(parser: Lark, names: Iterable[str], system: System) -> list[str]:
    """The tokens ``names`` of ``system``'s grammar in words a player knows (:data:`diceengine.hints.TERMINAL_WORDS`
    for the core's tokens, the system's own for its grammar's: :meth:`~diceengine.registry.System.token_words`)."""
    from .hints import expected_words

    return expected_words(names, {t.name: t.pattern for t in parser.terminals}, system.token_words())


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


def _syntax_error(parser: Lark, expression: str, err: UnexpectedInput, system: System, hints: bool) -> DiceSyntaxError:
    """Lark's error in a player's words, with the fix when one is known (``hints``: :mod:`diceengine.hints`)."""
    from .hints import modifier_fix, system_fix
    from .registry import registered_systems

    error = _lark_syntax_error(parser, expression, err, system)
    column = error.column if error.column is not None else 0
    odd = _look_alike(expression, column)
    if odd is not None and odd != column:
        return DiceSyntaxError(N_("unexpected character {got}: letters are ASCII letters here"), expression, odd,
                               got=repr(expression[odd]))
    if not hints:
        return error
    found = system_fix(expression, system, column, registered_systems(), _reads_as_it_is)
    letters = system.modifier_letters()
    if found is None and letters:
        found = modifier_fix(expression, column, letters)
    return found or error


def _reads_as_it_is(expression: str, system: System) -> bool:
    """``system``'s notation reads ``expression``, no description left over (one would hide what it did not read)."""
    try:
        tree = parse(expression, system, hints=False)
    except DiceError:
        return False
    return not hasattr(tree, "meant")


def _lark_syntax_error(parser: Lark, expression: str, err: UnexpectedInput, system: System) -> DiceSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        column = err.pos_in_stream or 0
        got = repr(expression[column]) if column < len(expression) else "''"
        expected = _describe_terminals(parser, err.allowed or (), system)
        return DiceSyntaxError(N_("unexpected character {got}: expected {expected}"), expression, column, got=got,
                               expected=expected)
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = _describe_terminals(parser, getattr(err, "expected", ()) or (), system)
        return DiceSyntaxError(N_("the expression ends too early: expected {expected}"), expression, len(expression),
                               expected=expected)
    assert isinstance(err, UnexpectedToken)
    column = err.token.start_pos if err.token.start_pos is not None else len(expression)
    expected = _describe_terminals(parser, err.accepts or err.expected, system)
    return DiceSyntaxError(N_("unexpected {got}: expected {expected}"), expression, column, got=repr(str(err.token)),
                           expected=expected)


def check_depth(tree: Any, expression: str) -> None:
    """Raise :class:`DiceLimitError` when ``tree`` is nested deeper than :data:`MAX_DEPTH` (its children as
    :func:`diceengine.ast.children` gives them)."""
    stack = [(tree, 1)]
    children = ast.children
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            column = ast.position(node)
            raise DiceLimitError(N_("expression nested too deeply (more than {limit} levels)"), expression,
                                 column if column is not None else 0, limit=MAX_DEPTH)
        stack.extend([(child, depth + 1) for child in children(node)])


def parse(expression: str, system: System, hints: bool = True) -> Any:
    """The syntax tree of ``expression`` in ``system``'s notation (not cached here: the plan cache of
    :mod:`diceengine.api`, bounded in bytes, keeps what is worth keeping). A syntax error says the fix when one is
    known (``hints``: another system reads the text, a system name misspelt...).

    A tree whose root reads its words as dice (:meth:`meant`: ``4d6 keep 3`` is ``4d6kh3``) is the tree of the
    text they mean, or its own error (a caret under the words and the spelling to use)."""
    if not isinstance(expression, str):
        raise DiceError(N_("an expression must be a string, not {kind}"), kind=type(expression).__name__)
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(N_("expression too long: {length} characters (at most {limit})"), length=len(expression),
                             limit=MAX_EXPRESSION_LENGTH)
    if not expression.strip():
        raise DiceSyntaxError(N_("empty expression"), expression, 0)
    tree = _meant(_tree(expression, system, hints), expression, system)
    check_depth(tree, expression)
    return tree


#: words read as dice read again at most this many times ("4d6 keep 3 vs 12": the keep, then the check)
_MOST_READINGS = 4


def _meant(tree: Any, expression: str, system: System) -> Any:
    """The tree of what ``tree``'s words mean (:meth:`meant` of its root, told the text read so far and the system
    reading it: a text to read instead, or a tree), ``tree`` when they are words; their error when that text does
    not read and the words must be dice."""
    text = expression
    for _ in range(_MOST_READINGS):
        meant = getattr(tree, "meant", None)
        try:
            found = meant(text, system) if meant is not None else None
        except DiceError as err:
            raise _in_typed(err, expression, text) from None
        if found is None:
            return tree
        if not isinstance(found, tuple):  # the tree the words make (positions in the text read so far)
            tree = found
            continue
        other = parser_for(system).reads(found[0])
        if other is None:
            if found[1] is not None:
                raise _in_typed(found[1], expression, text) from None
            return tree
        text, tree = found[0], other
    return tree


def _in_typed(err: DiceError, expression: str, text: str) -> DiceError:
    """``err``, found in words at the end of ``text`` (the expression as read so far), located in ``expression``."""
    column = err.column if err.column is not None else len(text)
    return err.at(expression, max(0, column - (len(text) - len(expression))))


def _tree(expression: str, system: System, hints: bool) -> Any:
    parser = parser_for(system)
    try:
        tree = parser.parse(expression)
    except DiceError as err:
        raise err.at(expression, err.column) from None
    except Exception as err:
        from lark.exceptions import UnexpectedInput, VisitError

        if isinstance(err, UnexpectedInput):
            raise _syntax_error(parser.lark, expression, err, system, hints) from None
        if not isinstance(err, VisitError):
            raise
        # a node refused its children
        inner = err.orig_exc
        if isinstance(inner, DiceError):
            raise inner.at(expression, inner.column) from None
        raise
    return tree
