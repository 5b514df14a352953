"""The parse tables of the engine's LALR runtime (:mod:`diceengine.lalr`), from Lark: Lark's parser with the engine's
options (:func:`compile_grammar`), what it computes for a grammar (:func:`tables_data`), the shipped tables of a
built-in grammar or, when its text changed since, the same computed now (:func:`tables_for`), and the writer of
the shipped modules (:func:`tables_files`, ``python -m diceengine.lalr``).

The modules are written into ``grammars/`` beside the grammar: ``_tables_<name>.py``, which holds every field when
it fits in :data:`MAX_LINES` lines; else the tables of one row a line (the rules, the states, the lexers) in
modules of their own that it imports (``_tables_<name>_states.py``; numbered, ``_tables_<name>_states_2.py``, when
one table alone would not fit). Lark is imported only here, and only by the functions that need it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from diceengine.lalr import FLAGS

__all__ = ["MAX_LINES", "build_tables", "compile_grammar", "main", "tables_data", "tables_files", "tables_for"]

#: most lines of one written module (the house keeps its modules under 500 lines)
MAX_LINES = 400
#: the fields of a tables module, in their order
FIELDS = ("GRAMMAR", "LARK", "START", "END", "IGNORE", "NEWLINE", "RULES", "STATES", "LEXERS", "STATE_LEXER")
#: the fields written one row a line, which may go to modules of their own
ROWS = ("RULES", "STATES", "LEXERS")


def compile_grammar(grammar: str, transformer: Any = None, cache: bool = True) -> Any:
    """Lark's parser of ``grammar`` with the engine's options (Lark imported here); ``cache``: the grammar's
    analysis kept on disk by Lark (keyed on grammar, options and version)."""
    import lark

    if int(lark.__version__.split(".")[0]) < 1:  # lark-parser (the old name, d20's dependency) wrote over lark
        raise ImportError(f"diceengine needs lark 1.x, found {lark.__version__} (the old lark-parser package, which "
                          "d20 installs, writes over lark's files): pip install --force-reinstall --no-deps "
                          "'lark>=1.1.9'")
    return lark.Lark(grammar, parser="lalr", lexer="contextual", transformer=transformer, maybe_placeholders=True,
                     g_regex_flags=FLAGS, cache=cache)



def tables_data(grammar: str) -> dict[str, Any]:
    """What Lark computes for ``grammar``: the fields of a tables module (:func:`tables_files`)."""
    import lark as lark_module

    lark = compile_grammar(grammar, cache=False)
    table = lark.parser.parser.parser.parse_table
    # numbered in an order of their own (Lark's numbering changes from one process to the next): rules by what they
    # are, states in the order a walk from the start reaches them, symbols in sorted order
    rules = sorted(lark.rules, key=lambda r: (str(r.origin.name), tuple(str(s.name) for s in r.expansion),
                                              str(r.alias or ""), r.order))
    order, number = _state_order(table)
    lexers, state_lexer, newline = _lexers(lark.parser.lexer.lexers, order)
    return {"GRAMMAR": grammar, "LARK": lark_module.__version__, "START": 0,
            "END": number[table.end_states["start"]], "IGNORE": frozenset(map(str, lark.lexer_conf.ignore)),
            "NEWLINE": frozenset(map(str, newline)), "RULES": tuple(_rule_shapes(lark, rules)),
            "STATES": tuple(_state_rows(table, order, number, {rule: i for i, rule in enumerate(rules)})),
            "LEXERS": tuple(lexers), "STATE_LEXER": tuple(state_lexer)}


def _state_order(table: Any) -> tuple[list[int], dict[int, int]]:
    """Lark's states in the order a walk from the start reaches them (the unreached after), and each one's number
    in that order."""
    order = [table.start_states["start"]]
    number = {order[0]: 0}
    for state in order:
        for _symbol, (action, arg) in sorted(table.states[state].items()):
            if action.name != "Reduce" and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    for state in range(len(table.states)):
        if state not in number:
            number[state] = len(order)
            order.append(state)
    return order, number


def _state_rows(table: Any, order: Sequence[int], number: Mapping[int, int],
                index: Mapping[Any, int]) -> list[dict[str, int]]:
    """Each state's actions, symbol -> the next state's number, or ``~`` the rule's index for a reduction."""
    states: list[dict[str, int]] = []
    for state in order:
        row = {}
        for symbol, (action, arg) in sorted(table.states[state].items()):
            row[str(symbol)] = ~index[arg] if action.name == "Reduce" else number[arg]
        states.append(row)
    return states


def _rule_shapes(lark: Any, rules: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Each rule as the runtime builds its tree: its origin, its name, whether it inlines one child, its length, and
    which children it keeps (Lark's child filter)."""
    from lark.parse_tree_builder import maybe_create_child_filter

    shaped = []
    for rule in rules:
        options = rule.options
        spec = maybe_create_child_filter(rule.expansion, options.keep_all_tokens, False,
                                         options.empty_indices if lark.options.maybe_placeholders else None)  # type: ignore[arg-type]
        shape = None
        if spec is not None:
            include, append_none = spec.args if len(spec.args) == 2 else (spec.args[0], 0)
            include = tuple((i, bool(expand), nones) for i, expand, nones in
                            (item if len(item) == 3 else (*item, 0) for item in include))
            shape = (include, append_none)
        name = str(rule.alias or options.template_source or rule.origin.name)
        shaped.append((str(rule.origin.name), name, bool(options.expand1 and not rule.alias), len(rule.expansion), shape))
    return shaped


def _lexers(by_state: Mapping[int, Any], order: Sequence[int]) \
        -> tuple[list[tuple[tuple[str, ...], dict[str, tuple[str, ...]]]], list[int], set[str]]:
    """The contextual lexer's distinct lexers (each one's expressions, and those of the tokens a token's text may
    turn into), each state's lexer, and the tokens that may hold a newline."""
    lexers: list[tuple[tuple[str, ...], dict[str, tuple[str, ...]]]] = []
    seen: dict[int, int] = {}
    state_lexer = []
    newline: set[str] = set()
    for state in order:
        basic = by_state[state]
        if id(basic) not in seen:
            groups = _groups(basic.scanner)  # built first: it sets the lexer's callbacks
            unless = {str(name): _groups(cb.scanner) for name, cb in sorted(basic.callback.items())}
            seen[id(basic)] = len(lexers)
            lexers.append((groups, unless))
            newline |= basic.newline_types
        state_lexer.append(seen[id(basic)])
    return lexers, state_lexer, newline


def _groups(scanner: Any) -> tuple[str, ...]:
    """The named groups of a Lark scanner's expressions, in its order (the same text as its joined expressions)."""
    groups = tuple(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanner.terminals)
    assert "|".join(groups) == "|".join(m.pattern for m in scanner._mres), "Lark joins its terminals otherwise"
    return groups


class _Tables:
    """Tables computed in memory (a grammar changed since its tables were written)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.__dict__.update(data)


def build_tables(grammar: str) -> Any:
    """The tables of ``grammar``, computed now by Lark."""
    return _Tables(tables_data(grammar))


def tables_for(fragment: str | None, grammar: str) -> Any:
    """The tables of the grammar fragment ``fragment`` of ``diceengine.grammars`` (a file name, ``NAME.lark``), whose
    full text is ``grammar``: the shipped ones (``_tables_NAME``) when they were written from this very text, else
    computed now; ``None`` when the fragment has no shipped tables."""
    if not fragment or not fragment.endswith(".lark") or not fragment[:-5].isidentifier():
        return None
    import importlib

    try:
        module = importlib.import_module(f"diceengine.grammars._tables_{fragment[:-5]}")
    except ImportError:
        return None
    return module if module.GRAMMAR == grammar else build_tables(grammar)



def _assignment(key: str, value: Any) -> list[str]:
    """The lines of ``KEY = value`` in a tables module."""
    if isinstance(value, frozenset):
        return [f"{key} = frozenset({sorted(value)!r})"]
    if key in ROWS:
        return [f"{key} = (", *(f"    {item!r}," for item in value), ")"]
    return [f"{key} = {value!r}"]


def _head(name: str, lark: str, part: str | None = None) -> list[str]:
    """The opening lines of a tables module of ``name``; ``part``: the field it holds for ``_tables_<name>.py``."""
    what = f"Parse tables of ``{name}`` (``core.lark`` and its fragment)"
    if part is not None:
        what = f"The {part} of the parse tables of ``{name}`` (imported by ``_tables_{name[:-5]}.py``)"
    return [f'"""{what}, written by ``python -m diceengine.lalr`` with Lark {lark}:',
            'do not edit; change the grammar and run it again (tests/test_parser_tables.py checks they are in step)."""',
            "", "# fmt: off", "# ruff: noqa", ""]


def _parts(module: str, key: str, rows: Sequence[Any], name: str, lark: str,
           max_lines: int) -> tuple[dict[str, str], list[str], list[str]]:
    """The modules holding the table ``key`` of ``module`` (each at most ``max_lines`` lines): ``(file name -> text,
    the import lines of the first module, the lines that join the parts there)``."""
    per = max(1, max_lines - len(_head(name, lark, key)) - 2)
    chunks = [tuple(rows[i:i + per]) for i in range(0, len(rows), per)]
    files, imports, names = {}, [], []
    for k, chunk in enumerate(chunks, 1):
        part = f"{module}_{key.lower()}" + (f"_{k}" if len(chunks) > 1 else "")
        files[f"{part}.py"] = "\n".join(_head(name, lark, key) + _assignment(key, chunk)) + "\n"
        alias = key if len(chunks) == 1 else f"_{key}_{k}"
        imports.append(f"from .{part} import {key}" + ("" if len(chunks) == 1 else f" as {alias}"))
        names.append(alias)
    return files, imports, ([f"{key} = " + " + ".join(names)] if len(chunks) > 1 else [])


def _layout(module: str, data: Mapping[str, Any], name: str, moved: Sequence[str],
            max_lines: int) -> dict[str, str]:
    """The modules of the tables ``data`` with the tables ``moved`` in modules of their own."""
    files: dict[str, str] = {f"{module}.py": ""}
    imports: list[str] = []
    body: list[str] = []
    for key in FIELDS:
        if key not in moved:
            body += _assignment(key, data[key])
            continue
        found, imported, joined = _parts(module, key, data[key], name, data["LARK"], max_lines)
        files.update(found)
        imports += imported
        body += joined
    files[f"{module}.py"] = "\n".join(_head(name, data["LARK"]) + imports + [""] * bool(imports) + body) + "\n"
    return files


def tables_files(grammar: str, name: str, max_lines: int = MAX_LINES) -> dict[str, str]:
    """The modules of the tables of ``grammar``, ``core.lark`` and the fragment ``name``: file name -> text, each
    at most ``max_lines`` lines; ``_tables_<stem>.py`` first, the only one when all fits in it, else the longest
    tables moved out until it fits (each module more is one more file read by the first parse)."""
    data = tables_data(grammar)
    module = f"_tables_{name[:-5]}"
    longest = sorted(ROWS, key=lambda key: -len(data[key]))
    for count in range(len(ROWS) + 1):
        files = _layout(module, data, name, longest[:count], max_lines)
        if len(files[f"{module}.py"].splitlines()) <= max_lines:
            break
    return files


def is_part(file: str, name: str) -> bool:
    """Whether ``file`` is a name :func:`tables_files` may give a module of the fragment ``name``'s tables."""
    keys = "|".join(key.lower() for key in ROWS)
    return re.fullmatch(rf"_tables_{re.escape(name[:-5])}(_({keys})(_\d+)?)?\.py", file) is not None


def main(argv: Sequence[str] | None = None) -> None:
    """Write the tables of every built-in grammar beside it (``python -m diceengine.lalr``), and remove the modules
    of an earlier layout that this one does not write."""
    from importlib import resources
    from pathlib import Path

    folder = Path(str(resources.files("diceengine.grammars")))
    core = (folder / "core.lark").read_text(encoding="utf-8")
    for path in sorted(folder.glob("*.lark")):
        if path.name == "core.lark":
            continue
        grammar = core + "\n" + path.read_text(encoding="utf-8")  # as diceengine.parser.grammar_text joins them
        files = tables_files(grammar, path.name)
        for stale in sorted(folder.glob(f"_tables_{path.stem}*.py")):
            if stale.name not in files and is_part(stale.name, path.name):
                stale.unlink()
                print(f"removed {stale}")
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
            print(f"wrote {folder / file}")

