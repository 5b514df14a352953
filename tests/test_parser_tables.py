"""The prebuilt parse tables (:mod:`diceengine.lalr`): in step with the grammars, read as Lark reads them, and a
roll that loads neither numpy nor Lark (issue 25). Nothing here is timed (benchmarks/cold_start.py times it)."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from importlib import resources

import lark
import pytest
from lark.exceptions import UnexpectedInput

import diceengine as de
import diceengine.lalr.tables as lalr_tables
from diceengine import lalr
from diceengine.ast import Number, Token
from diceengine.errors import DiceError
from diceengine.parser import core_grammar, parser_for
from diceengine.registry import get_system

from .fuzz_strategies import mutate, random_text, seed_expressions, sentence

BUILT_IN = ("standard", "d6", "d6wild", "ffg", "d20pool")
FRAGMENTS = sorted(p.name for p in resources.files("diceengine.grammars").iterdir()
                   if p.name.endswith(".lark") and p.name != "core.lark")


def test_every_built_in_grammar_has_tables():
    # the rulesets' grammars, and the AnyDice language's (a fragment of core.lark too, read by diceengine.anydice)
    assert set(FRAGMENTS) == {get_system(name).grammar for name in BUILT_IN} | {"anydice.lark"}


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_the_shipped_tables_are_in_step_with_the_grammar(fragment):
    # the grammar files are the source of truth: the tables were written from their very text, and writing them
    # again from it gives the same file (python -m diceengine.lalr after any change of a grammar)
    grammars = resources.files("diceengine.grammars")
    module = importlib.import_module(f"diceengine.grammars._tables_{fragment[:-5]}")
    text = grammars.joinpath("core.lark").read_text(encoding="utf-8") + "\n" + \
        grammars.joinpath(fragment).read_text(encoding="utf-8")
    assert module.GRAMMAR == text, f"grammars/{fragment} changed: run python -m diceengine.lalr"
    if module.LARK != lark.__version__:
        pytest.skip(f"tables written with Lark {module.LARK}, Lark {lark.__version__} installed")
    written = lalr_tables.tables_files(text, fragment)
    shipped = {p.name: p.read_text(encoding="utf-8") for p in grammars.iterdir()
               if lalr_tables.is_part(p.name, fragment)}  # an earlier layout's module left behind is out of step too
    assert sorted(shipped) == sorted(written), f"grammars/{fragment}: run python -m diceengine.lalr"
    for file, text in written.items():
        assert text == shipped[file], f"grammars/{file} is out of step: run python -m diceengine.lalr"


def test_no_shipped_tables_module_is_long():
    # the house keeps modules under 500 lines: a grammar whose tables are long is written in several modules
    lengths = {p.name: len(p.read_text(encoding="utf-8").splitlines())
               for p in resources.files("diceengine.grammars").iterdir() if p.name.endswith(".py")}
    assert max(lengths.values()) <= lalr_tables.MAX_LINES < 500, lengths
    assert "_tables_standard_states.py" in lengths  # the standard notation's would not fit in one


def test_tables_written_in_pieces_read_back_whole(tmp_path, monkeypatch):
    # written in pieces of at most 30 lines, a table in several numbered modules: imported, the same tables
    text = core_grammar() + "\n" + get_system("d6").grammar_source()
    files = lalr_tables.tables_files(text, "d6.lark", max_lines=30)
    assert {"_tables_d6.py", "_tables_d6_states_1.py", "_tables_d6_states_2.py"} <= set(files)
    assert all(len(t.splitlines()) <= 30 for t in files.values())
    assert all(lalr_tables.is_part(name, "d6.lark") for name in files)
    assert not lalr_tables.is_part("_tables_d6wild.py", "d6.lark") and not lalr_tables.is_part("_tables_d6_x.py", "d6.lark")
    package = tmp_path / "pieces"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, body in files.items():
        (package / name).write_text(body, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    read = importlib.import_module("pieces._tables_d6")
    whole = lalr_tables.tables_data(text)
    for key in lalr_tables.FIELDS:
        assert getattr(read, key) == whole[key], key
    assert isinstance(read.STATES, tuple) and len(read.STATES) == len(whole["STATES"]) > 30


@pytest.mark.parametrize("name", BUILT_IN)
def test_built_in_systems_parse_with_the_shipped_tables(name):
    system = get_system(name)
    engine = parser_for(system)
    assert engine.runtime is not None
    assert engine.runtime.states is importlib.import_module(f"diceengine.grammars._tables_{system.grammar[:-5]}").STATES


def _outcome(parse, text):
    try:
        return ("tree", repr(parse(text)))  # positions included (a dataclass's repr shows them)
    except (lalr.Unparsed, UnexpectedInput):
        return ("not in the grammar",)
    except DiceError as err:
        return ("refused", type(err).__name__, str(err), err.column)


#: texts where Lark's lexer retypes a match (a keep ``d`` read as a group's drop), and other corners
CORNERS = ["{1d6,2d4}d1", "{3d6,2d8}d", "{1d6, 1d8}D1", "{2d6}dl1", "{2d6}kh1d", "4d6d1", "4d6kh3d1", "d%", "4dF.1",
           "1d6r1d", "1d6>3d+2", "1d6r1d1", "{1d6r1d1,2d4}",
           "  2d20kl1 +\n 5", "3d6[fire]\n+\n1d4", "\t1d6\r\n", "1d6 fire damage", "2d6 vs 12", "((1))", "-(-2)"]


@pytest.mark.parametrize("text", CORNERS)
def test_the_runtime_reads_what_lark_reads_in_corners(text):
    engine = parser_for(get_system("standard"))
    assert _outcome(engine.runtime.parse, text) == _outcome(engine.lark.parse, text)


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_runtime_reads_what_lark_reads(name):
    # the same trees (nodes, tokens, positions), the same refusals by the nodes, the same texts out of the grammar,
    # on sentences of the grammar, mutations of valid expressions and random text
    engine = parser_for(get_system(name))
    rng = random.Random(25)
    seeds = seed_expressions(name)
    seen = set()
    for i in range(240):
        kind = i % 4
        text = (sentence(name, rng.choice) if kind == 0 else mutate(rng.choice(seeds), rng) if kind == 1
                else rng.choice(seeds) if kind == 2 else random_text(rng))[:200]
        ours, theirs = _outcome(engine.runtime.parse, text), _outcome(engine.lark.parse, text)
        assert ours == theirs, text
        seen.add(ours[0])
    assert seen == {"tree", "not in the grammar", "refused"} or name != "standard"


def test_positions_and_lines_are_lark_s():
    engine = parser_for(get_system("standard"))
    for text in ("4d6kh3", "  2d20kl1 +\n 5", "3d6[fire]\n+\n1d4", "\n\n1d6!"):
        assert repr(engine.runtime.parse(text)) == repr(engine.lark.parse(text))
    tokens = []

    def spying(callback):
        def spy(children):
            tokens.extend(c for c in children if isinstance(c, Token))
            return callback(children)
        return spy

    engine.runtime.rules = [(origin, size, spying(callback), unit) for origin, size, callback, unit in engine.runtime.rules]
    try:
        engine.runtime.parse("1 +\n  20")
    finally:
        parser_for.cache_clear()
    by_value = {str(t): (t.type, t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos) for t in tokens}
    assert by_value["20"] == ("INT", 6, 2, 3, 2, 5, 8)
    assert by_value["+"] == ("PLUS", 2, 1, 3, 1, 4, 3)


def test_a_changed_grammar_is_compiled_again():
    # a grammar edited since its tables were written is read from its own text, never from stale tables
    system = get_system("standard")
    text = core_grammar() + "\n" + system.grammar_source()
    assert lalr_tables.tables_for("standard.lark", text) is importlib.import_module("diceengine.grammars._tables_standard")
    changed = text.replace('PLUS: "+"', 'PLUS: "+" | "&"')
    tables = lalr_tables.tables_for("standard.lark", changed)
    assert tables.GRAMMAR == changed
    parser = lalr.Parser(tables, {"number": (Number, False)})
    assert parser.parse("2&3") == lalr.Tree("add", [Number(2), Token("PLUS", "&"), Number(3)])
    with pytest.raises(lalr.Unparsed):
        lalr.Parser(lalr_tables.tables_for("standard.lark", text), {}).parse("2&3")
    assert lalr_tables.tables_for("no-such.lark", text) is None and lalr_tables.tables_for(None, text) is None


def test_a_node_takes_lark_s_tokens_too():
    # a plug-in's grammar is parsed by Lark itself: the engine's nodes read Lark's tokens as their own
    assert isinstance(lark.Token("INT", "12"), Token)
    assert Number(lark.Token("INT", "12", start_pos=4)) == Number(12)
    assert Number(lark.Token("INT", "12", start_pos=4)).pos == 4
    assert not isinstance("12", Token) and not isinstance(12, Token)
    assert Token("INT", "3") == "3" and not Token("INT", "3") == Token("WORD", "3")  # noqa: SIM201 - as Lark's


def test_a_syntax_error_is_lark_s():
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6kh3 +")
    assert err.value.column == len("4d6kh3 +")
    with pytest.raises(de.DiceSyntaxError, match="unexpected character '\\?'") as err:
        de.roll("2d6 ? 3")
    assert err.value.column == 4


_LOADED = ("import sys\n{call}\n"
           "print(*(m in sys.modules for m in ('numpy', 'lark', 'pydantic', 'diceengine.samples', 'importlib.metadata')))")


@pytest.mark.parametrize("call", [
    "import diceengine; diceengine.roll('4d6kh3')",
    "import diceengine; print(diceengine.roll('3d6+2', seed=1).render('markdown'))",
    "import diceengine; [diceengine.roll(e) for e in ('1d6!', '8d10>=7f1', '2d20kl1+5', '3d6[fire] + 1d4', '4dF')]",
    "from diceengine.cli import main; sys.argv = ['dice', 'roll', '4d6kh3']; main()",
])
def test_a_roll_loads_neither_numpy_nor_lark(call):
    # numpy is for samples and exact odds, Lark for compiling a grammar (a plug-in's, or an error's explanation)
    out = subprocess.run([sys.executable, "-c", _LOADED.format(call=call)], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[-5:] == ["False"] * 5


def test_the_other_built_in_systems_roll_without_lark():
    # their rules hold numpy code at module level; their grammars are read from prebuilt tables as well
    call = ("import diceengine; diceengine.roll('3D+1', 'd6'); diceengine.roll('3D', 'd6wild'); "
            "diceengine.roll('2a1p1b vs 2d1s', 'ffg'); diceengine.roll('3d20<=12 spec 3 vs 2', 'd20pool')")
    out = subprocess.run([sys.executable, "-c", _LOADED.format(call=call)], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[-4] == "False"


def test_numpy_comes_with_the_first_sample():
    code = ("import sys, diceengine; diceengine.roll('2d6kh1')\n"
            "print('numpy' in sys.modules); s = diceengine.sample('2d6kh1', 1000, seed=1)\n"
            "print('numpy' in sys.modules, 1 <= s['total'].min() <= s['total'].max() <= 6)")
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "True"]


def test_the_old_lark_parser_in_lark_s_place_is_named(monkeypatch):
    """d20 depends on lark-parser 0.x, which installs over lark's own files: the engine says so and how to mend it,
    instead of failing deep in a grammar."""
    import lark

    from diceengine.lalr.tables import compile_grammar

    monkeypatch.setattr(lark, "__version__", "0.9.0")
    with pytest.raises(ImportError, match=r"lark 1\.x, found 0\.9\.0.*--force-reinstall --no-deps"):
        compile_grammar("start: \"a\"\n", cache=False)
