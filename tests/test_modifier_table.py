"""The standard notation's modifiers as a table (systems/standard/modifiers/): every modifier of the grammar has its
class, a term's text is written by the table, and a plug-in modifier (a face map) is honoured by the roll, the
sample and the exact odds, checked against an enumeration written here; every refusal is the engine's error."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from importlib import resources
from importlib.metadata import EntryPoint

import pytest
from diceengine.systems.standard import modifiers as table
from diceengine.systems.standard import nodes
from diceengine.systems.standard.evaluate.terms import compile_term
from diceengine.systems.standard.modifiers import plugin
from diceengine.systems.standard.modifiers.tokens import rule_tokens

import diceengine as de
from diceengine import hints
from diceengine.lalr import camel_to_snake


def _rules(name: str) -> list[str]:
    """The alternatives of a rule of grammars/standard.lark (``?dice_modifier: keep | explode | ...``)."""
    text = resources.files("diceengine.grammars").joinpath("standard.lark").read_text(encoding="utf-8")
    body = re.search(rf"^\?{name}:(.*?)(?=^\S)", text, re.MULTILINE | re.DOTALL)
    assert body is not None
    return re.findall(r"[a-z_]+", body.group(1))


def test_every_modifier_of_the_grammar_has_its_class_in_the_table():
    # a rule added to the grammar without its class would be refused by compile_term, never silently ignored
    classes = {camel_to_snake(name): obj for module in de.systems()["standard"].ast_modules()
               for name, obj in vars(module).items() if isinstance(obj, type)}
    for rule in {*_rules("dice_modifier"), *_rules("q_dice_modifier")}:
        node = classes[rule]
        assert any(issubclass(node, kind) for entry in table.TABLE for kind in entry.nodes), rule


@pytest.mark.parametrize("expression", ["4d6kh3", "4d6dl1dh1", "3d6!>=5", "3d6!!", "2d6!p", "3d6r<2", "2d8r=8r=1",
                                        "3d6ro=1", "3d6ra=6", "8d10>=7f=1", "10d10>=8dbl=10", "4d6min2max5", "5d6u",
                                        "5d6uo", "4d6sd", "2d20cs>=19cf", "4d6rol1", "3d6>=4f<2sa", "3d6e=6"])
def test_a_terms_text_is_written_by_the_table(expression):
    # each modifier as the table writes it: its letters, then its point (a bare point is written "=N": 2d8r8 is r=8)
    term = compile_term(_dice(expression), expression, dialect="d20" if "rol" in expression else "roll20")
    assert term.spec.text == expression.replace("e=6", "!=6")
    assert compile_term(_dice("2d8r8r1"), "2d8r8r1").spec.text == "2d8r=8r=1"


def _dice(expression: str) -> nodes.Dice:
    """The dice node of an expression of one dice term."""
    from diceengine.parser import parse

    tree = parse(expression, de.systems()["standard"])
    assert isinstance(tree, nodes.Dice), tree
    return tree


def test_a_node_no_modifier_lowers_is_refused():
    class Stray(nodes.Sort):
        pass

    dice = _dice("4d6s")
    stray = Stray("s", 3)
    dice = nodes.Dice(dice.count, dice.die, dice.sides, nodes.Modifiers([stray]), dice.pos)
    table._LOWERING.pop(Stray, None)
    # a subclass of a modifier's node is that modifier (GroupKeep is keep); a node of no class of the table is refused
    assert compile_term(dice, "4d6s").spec.sort == "s"

    class Foreign(nodes.Node):
        pos = 3

    with pytest.raises(de.DiceSyntaxError, match="no modifier of the table reads Foreign"):
        compile_term(nodes.Dice(4, "d", 6, nodes.Modifiers([Foreign()]), 0), "4d6?")


# --------------------------------------------------------------------------- a plug-in modifier, in this process


class Half:
    """``h``: each face halved, rounded up (a d6 reads 1 1 2 2 3 3); a point, when written, halves only the faces
    meeting it."""

    name = "h"

    def face(self, face, point, faces):
        return -(-face // 2) if point is None or point.test(face) else face


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setattr(plugin, "_registered", {})
    table.register_modifier(Half)
    return plugin._registered


def _enumerated(faces, count, score=sum) -> dict[int, float]:
    found = Counter(score(t) for t in itertools.product(faces, repeat=count))
    return {k: v / len(faces) ** count for k, v in found.items()}


HALF_D6 = [1, 1, 2, 2, 3, 3]
HALF_CASES = {
    "3d6h": _enumerated(HALF_D6, 3),
    "4d6kh2h": _enumerated(HALF_D6, 4, lambda t: sum(sorted(t)[2:])),  # 4d6hkh2 would read the letters "hkh"
    "3d6h>=5": _enumerated([1, 2, 3, 4, 3, 3], 3),
    # the faces are mapped before any other modifier reads them, wherever it is written (5d6h>=2: h's own point)
    "5d6>=2h": _enumerated(HALF_D6, 5, lambda t: sum(1 for f in t if f >= 2)),
    "2d6H<=2+1": {k + 1: p for k, p in _enumerated([1, 1, 3, 4, 5, 6], 2).items()},
}


@pytest.mark.parametrize("expression", list(HALF_CASES))
def test_a_face_map_is_honoured_three_ways(registered, expression):
    want = HALF_CASES[expression]
    got: Counter = Counter()
    for outcome, p in de.distribution(expression).items():
        got[outcome.total] += p
    assert set(got) == set(want)
    for total, p in want.items():
        assert got[total] == pytest.approx(p, abs=1e-12)
    n = 60_000  # seeded: the same draws every run, each frequency within 6 standard deviations
    totals = Counter(de.sample(expression, n, seed=5)["total"].tolist())
    assert set(totals) <= set(want)
    for total, p in want.items():
        assert abs(totals[total] / n - p) <= 6 * math.sqrt(p * (1 - p) / n) + 1e-9
    for seed in range(100):
        assert de.roll(expression, seed=seed).total in want


def test_a_plugin_modifier_is_written_in_the_terms_text(registered):
    roll = de.roll("3d6H>=5", seed=1)
    assert str(roll).startswith("3d6H>=5: [")
    assert compile_term(_dice("3d6H>=5"), "3d6H>=5").spec.text == "3d6h>=5"


@pytest.mark.parametrize(("modifier", "error"), [
    (type("Bad", (), {"name": "fx", "face": lambda self, f, p, fs: f}), "begins as the built-in 'f'"),
    (type("Bad", (), {"name": "cs", "face": lambda self, f, p, fs: f}), "begins as the built-in"),
    (type("Bad", (), {"name": "H1", "face": lambda self, f, p, fs: f}), "lower-case ASCII letters"),
    (type("Bad", (), {"name": "é", "face": lambda self, f, p, fs: f}), "lower-case ASCII letters"),
    (type("Bad", (), {"name": "h", "face": lambda self, f, p, fs: f}), "already registered"),
    (type("Bad", (), {"name": "q"}), "no face"),
])
def test_a_modifier_that_breaks_the_contract_is_refused_when_registered(registered, modifier, error):
    with pytest.raises((ValueError, TypeError), match=error):
        table.register_modifier(modifier)


@pytest.mark.parametrize(("face", "message"), [
    (lambda self, f, p, fs: 1 / 0, "the modifier 'q' failed on the face 1: division by zero"),
    (lambda self, f, p, fs: f / 2, "the modifier 'q' gave 0.5 for the face 1: a whole number is needed"),
    (lambda self, f, p, fs: True, "the modifier 'q' gave True for the face 1"),
    (lambda self, f, p, fs: 10**10, "gave 10000000000 for the face 1"),
])
def test_a_faulty_face_map_is_the_engines_error(registered, face, message):
    table.register_modifier(type("Faulty", (), {"name": "q", "face": face}))
    with pytest.raises(de.DiceValueError) as err:
        de.roll("2d6+4d6q")
    assert message in str(err.value)
    assert err.value.column == 7


def test_unknown_letters_are_refused_with_a_caret_and_a_guess(registered):
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("1+4d6hh")
    assert str(err.value).startswith("unknown modifier 'hh': did you mean h?")
    assert err.value.column == 5
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6wq2")
    assert "unknown modifier 'wq': no built-in modifier or installed plug-in is spelled so" in str(err.value)
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6wq2", lang="fr")
    assert str(err.value).startswith("modificateur inconnu 'wq' : aucun modificateur intégré ni greffon installé")


def test_a_face_map_after_a_decimal_bound_is_refused(registered):
    # decimal faces (6d%max50.45) go with keep / drop and sort only: a plug-in's face map never sees a fraction
    with pytest.raises(de.DiceValueError) as err:
        de.roll("6d%max50.45h")
    assert str(err.value).startswith("a decimal minimum or maximum (max50.45) goes with keep / drop and sort only")
    assert err.value.column == 11


def test_a_plugin_that_fails_to_load_is_the_engines_error(registered, monkeypatch):
    broken = EntryPoint(name="bq", value="no_such_module_here:Modifier", group="diceengine.modifiers")
    monkeypatch.setattr(plugin, "_entry_points", lambda: {"bq": broken})
    with pytest.raises(de.DiceError, match="the modifier 'bq' failed to load"):
        de.roll("4d6bq")


def test_an_entry_point_named_other_than_its_letters_is_refused(registered, monkeypatch):
    misnamed = EntryPoint(name="hq", value="tests.test_modifier_table:Half", group="diceengine.modifiers")
    monkeypatch.setattr(plugin, "_entry_points", lambda: {"hq": misnamed})
    with pytest.raises(de.DiceError, match="the modifier 'hq' failed to load: its entry point is named 'hq', its "
                                           "letters are 'h'"):
        de.roll("4d6hq")


def test_the_example_plugin_modifier_is_found_through_its_entry_point():
    """examples/plugin-zero, once installed (CI installs it like a user's package)."""
    from importlib.metadata import entry_points

    zero = pytest.importorskip("dice_zero", reason="pip install ./examples/plugin-zero")
    (ep,) = [ep for ep in entry_points(group="diceengine.modifiers") if ep.name == "z"]
    assert ep.load() is zero.Zero
    assert "z" in table.modifier_names()
    assert {d.value for d in de.roll("4d6z1", seed=2).dice} <= {0, 2, 3, 4, 5, 6}


# --------------------------------------------------------------------------- what a syntax error knows, from the table


def test_the_tokens_named_a_modifier_are_read_from_the_grammar_rules_of_the_table():
    # the first token of each modifier rule of grammars/standard.lark, read off the grammar by hand for this test
    # (COMPARATOR begins count_successes: it keeps its own words, "a comparison")
    assert set(table.modifier_tokens()) == {
        "KEEP", "GROUP_KEEP", "BRACE_DROP", "BANG", "EXPLODE_E", "REROLL", "REROLL_RANK", "COMPARATOR", "FAIL",
        "FAIL_NOT", "DOUBLE", "CLAMP", "UNIQUE", "SORT", "CRITICAL", "MATCHING", "PARITY", "MODIFIER_NAME"}
    words = hints.terminal_words(de.systems()["standard"].token_words())
    assert all(words[t] == "a modifier (kh3, dl1, !, r1, cs20, s...)" for t in table.modifier_tokens()
               if t != "COMPARATOR")
    assert words["COMPARATOR"] == "a comparison (>=, >, <=, <, =)"


def test_rule_tokens_reads_groups_options_and_aliases():
    grammar = ("// a comment: widget: NOT_THIS\n"
               "widget: (WID | WID_NOT) compare\n"
               "     | [MINUS] WIDE -> widget\n"
               "other: OTHER\n"
               "spelled: SPELT [INT] -> widget\n"
               "?rest: widget | other\n")
    assert rule_tokens(grammar, {"widget"}) == ("WID", "WID_NOT", "MINUS", "WIDE", "SPELT")


def test_did_you_mean_proposes_the_letters_of_the_table():
    # every spelling of every class of the table, a modifier added later included (Roll20's mt: "tm" swapped)
    assert {"kh", "ro", "dbl", "min", "mt", "sd", "rah"} <= set(table.spellings())
    assert all(s.isalpha() for s in table.spellings())
    assert "did you mean kh?" in str(_refused("4d6hk3"))


def _refused(expression: str) -> de.DiceError:
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll(expression)
    return err.value


@pytest.mark.parametrize("name, built_in", [("mq", "m"), ("mtq", "m"), ("oddly", "odd"), ("evenq", "e")])
def test_a_plugin_may_not_take_letters_beginning_as_a_built_in(monkeypatch, name, built_in):
    # matching dice and even / odd, the built-ins added after the plug-in slot: a plug-in name beginning with their
    # letters would be read as theirs; the refusal names the built-in the grammar would read first
    monkeypatch.setattr(plugin, "_registered", {})

    class Taken:
        def face(self, face, point, faces):
            return face

    Taken.name = name  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=f"begins as the built-in '{built_in}'"):
        table.register_modifier(Taken)
