"""The AnyDice language, feature by feature, each expected value from an enumeration written here or from the rule
in AnyDice's documentation (never from the engine's own tables); its errors (line, caret, French); every refusal of
the budget; ``de.anydice`` and ``dice anydice``."""

from __future__ import annotations

import io
import json
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import diceengine as de
from diceengine.anydice import interpreter, parse
from diceengine.cli import main
from diceengine.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from tests.helpers import enumerate_dice


def _dist(program: str, index: int = 0) -> dict[int, float]:
    return de.anydice(program)[index].marginal()


def _enumerate(n: int, sides: int, read) -> dict[int, float]:
    """The distribution of ``read(roll)`` over every roll of ``n`` dice of ``sides`` sides."""
    counts = Counter(read(roll) for roll in product(range(1, sides + 1), repeat=n))
    total = sides**n
    return {v: c / total for v, c in sorted(counts.items())}


def _same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12)


# ---------------------------------------------------------------- dice, pools and positions

def test_highest_lowest_middle_of_a_pool():
    _same(_dist("output [highest 2 of 3d6]"), _enumerate(3, 6, lambda r: sum(sorted(r)[1:])))
    _same(_dist("output [lowest 1 of 3d6]"), _enumerate(3, 6, min))
    _same(_dist("output [middle 1 of 3d6]"), _enumerate(3, 6, lambda r: sorted(r)[1]))
    # no exact middle: the lower of the two middles (index (4 - 1) // 2 from the lowest)
    _same(_dist("output [middle 1 of 4d6]"), _enumerate(4, 6, lambda r: sorted(r)[1]))


def test_positions_follow_the_position_order():
    _same(_dist("output 2@3d6"), _enumerate(3, 6, lambda r: sorted(r, reverse=True)[1]))
    _same(_dist("output {1,3}@4d6"), _enumerate(4, 6, lambda r: max(r) + sorted(r)[1]))
    _same(_dist('set "position order" to "lowest first"\noutput 1@3d6'), _enumerate(3, 6, min))
    # a number's digits and a sequence's elements
    assert _dist("output 1@789") == {7: 1.0}
    assert _dist('set "position order" to "lowest first"\noutput 1@789') == {9: 1.0}
    assert _dist("output 2@{5,6,7}") == {6: 1.0}
    assert _dist("output 4@{5,6,7}") == {0: 1.0}


def test_explode_to_the_explode_depth():
    # depth 2 (the default): a 6 throws again, twice at most, the last throw stands
    want: dict[int, Fraction] = {}
    for a in range(1, 7):
        if a < 6:
            want[a] = want.get(a, 0) + Fraction(1, 6)
            continue
        for b in range(1, 7):
            if b < 6:
                want[6 + b] = want.get(6 + b, 0) + Fraction(1, 36)
                continue
            for c in range(1, 7):
                want[12 + c] = want.get(12 + c, 0) + Fraction(1, 216)
    _same(_dist("output [explode d6]"), {k: float(v) for k, v in want.items()})
    _same(_dist('set "explode depth" to 0\noutput [explode d6]'), {k: 1 / 6 for k in range(1, 7)})


def test_dice_of_dice_and_custom_dice():
    _same(_dist("output d{1,1,2}"), {1: 2 / 3, 2: 1 / 3})
    _same(_dist("output d{0, 0, 0, 1d4}"), {0: 3 / 7, 1: 1 / 7, 2: 1 / 7, 3: 1 / 7, 4: 1 / 7})
    # (d3)d4: one to three d4, each count a third
    want: Counter = Counter()
    for n in (1, 2, 3):
        for roll in product(range(1, 5), repeat=n):
            want[sum(roll)] += Fraction(1, 3) / 4**n
    _same(_dist("output (d3)d4"), {k: float(v) for k, v in want.items()})


def test_operators_and_their_precedence():
    assert _dist("output 2 + 3 * 4") == {14: 1.0}
    assert _dist("output 2 ^ 3 ^ 2") == {64: 1.0}  # left-associative
    assert _dist("output 7 / 2") == {3: 1.0}
    assert _dist("output -7 / 2") == {-3: 1.0}  # toward zero
    assert _dist("output #-123") == {3: 1.0}
    assert _dist("output ! 2 > 3") == {0: 1.0}  # (!2) > 3
    assert _dist("output {1,2,3} < 3") == {2: 1.0}  # a sequence against a number: how many elements pass
    assert _dist("output {1,2,3} + 1") == {7: 1.0}  # a sequence where a number is wanted: its sum
    _same(_dist("output d6 > 3"), {0: 0.5, 1: 0.5})
    _same(_dist("output -2d3"), _enumerate(2, 3, lambda r: -sum(r)))
    _same(_dist("output d4 * d4"), _enumerate(2, 4, lambda r: r[0] * r[1]))
    _same(_dist("output 1d2 & 1d2 - 1"), {0: 0.5, 1: 0.5})


# ---------------------------------------------------------------- functions

def test_a_die_where_a_number_is_asked_is_enumerated():
    program = "function: keep X:n { if X > 3 { result: X } result: 0 }\noutput [keep d6]"
    _same(_dist(program), {0: 0.5, 4: 1 / 6, 5: 1 / 6, 6: 1 / 6})
    program = "function: top S:s { result: 1@S + 2@S }\noutput [top 3d6]"
    _same(_dist(program), _enumerate(3, 6, lambda r: sum(sorted(r)[1:])))
    program = "function: same A:n B:n { result: A = B }\noutput [same d6 1d6]"  # [same d6 d6] is [same (d6)d6]: a d after an expression continues it
    _same(_dist(program), {0: 5 / 6, 1: 1 / 6})


def test_a_die_parameter_keeps_its_pool():
    assert _dist("function: size D:d { result: #D }\noutput [size 4d6]") == {4: 1.0}


def test_functions_see_their_callers_variables_and_depth_cuts_recursion():
    assert _dist("function: x { result: X }\nfunction: y { X: 2\nresult: [x] }\nX: 1\noutput [y]") == {2: 1.0}
    # at the maximum depth a call is not made: its value is an empty die, which adds nothing
    assert _dist("function: r { result: [r] + 1 }\noutput [r]") == {10: 1.0}
    assert _dist('set "maximum function depth" to 3\nfunction: r { result: [r] + 1 }\noutput [r]') == {3: 1.0}


def test_the_library():
    assert _dist("output [count {1,2} in {1,1,2,3}]") == {3: 1.0}
    assert _dist("output [{1,2,3} contains 2]") == {1: 1.0}
    assert _dist("output 1@[sort {2,3,1}]") == {3: 1.0}
    assert _dist("output 1@[reverse {1,2,3}]") == {3: 1.0}
    assert _dist("output [absolute -4]") == {4: 1.0}
    assert _dist("output [maximum of 2d6]") == {12: 1.0}
    assert _dist("output [highest of 3 and 5] + [lowest of 3 and 5]") == {8: 1.0}


def test_a_program_may_replace_a_library_function():
    assert _dist("function: absolute N:n { result: 7 }\noutput [absolute -4]") == {7: 1.0}


def test_labels_name_numbers_sequences_and_dice():
    names = [d.expression for d in de.anydice(
        'loop N over {1..2} { output N named "[N]d6 is [D]" }'.replace("[D]", "[N]") +
        '\nD: 3d6\nS: {1}\noutput 0 named "[D] [S]"\noutput 1')]
    assert names == ["1d6 is 1", "2d6 is 2", "3d6 {?}", "output 4"]


# ---------------------------------------------------------------- errors

def test_a_parameter_type_is_n_s_or_d():
    with pytest.raises(DiceSyntaxError, match="a parameter's type is n .number., s .sequence. or d .die., not 'q'"):
        de.anydice("function: f X:q { }")


def test_a_syntax_error_names_its_line_with_a_caret():
    with pytest.raises(DiceSyntaxError) as caught:
        de.anydice("output 1\noutput 2 +\noutput 3")
    text = str(caught.value)
    assert text.startswith("line 3: unexpected 'output'")
    assert text.endswith("  output 3\n  ^")
    assert "sum" not in text and "atom" not in text  # never a grammar rule's name
    with pytest.raises(DiceSyntaxError) as caught:
        de.anydice("output 1\noutput 2 +\noutput 3", lang="fr")
    assert str(caught.value).startswith("ligne 3 : 'output' inattendu")


@pytest.mark.parametrize(("program", "message"), [
    ("output X", "unknown variable X"),
    ("output [nothing here]", "no function [nothing here]"),
    ("output d6 @ 1", "a position is a number or a sequence, not a die"),
    ("function: f { output 1 }\nX: [f]", "output inside a function"),
    ("result: 1", "result: outside a function"),
    ("if d6 { output 1 }", "a condition is a number, not a die"),
    ("loop N over d6 { }", "a loop goes over a sequence, not a die"),
    ('set "colour" to 1', "unknown setting"),
    ("output 1 / 0", "division by zero"),
    ("output {d6..3}", "a range is between numbers, not a die"),
])
def test_a_meaningless_program_is_the_engines_value_error(program, message):
    with pytest.raises(DiceValueError) as caught:
        de.anydice(program)
    assert message in str(caught.value)
    with pytest.raises(DiceValueError) as caught:
        de.anydice(program, lang="fr")
    assert str(caught.value).startswith("ligne ")


# ---------------------------------------------------------------- every refusal of the budget

@pytest.mark.parametrize(("program", "message"), [
    ("loop A over {1..1000} { loop B over {1..1000} { X: 1 } }", "steps"),
    ("function: f N:n { result: N }\noutput [f d1000 + d1000 * 1000]", "steps"),
    ('set "maximum function depth" to 101', "maximum function depth is at most 100"),
    ('set "explode depth" to 201', "explode depth is at most 200"),
    ("output {1..100001}", "a sequence of more than 100000 elements"),
    ("output {1:100001}", "a sequence of more than 100000 elements"),
    ("output " + "+".join(["1"] * 1001), "nested too deeply (more than 1000 levels)"),
    ("output " + "(" * 201 + "1" + ")" * 201, "more than 200 brackets"),
    ("output 10001d6", "too many dice"),
    ("output d1000001", "too many sides"),
    ("output 3 ^ 100", "a number too large"),
    ("output d{1, 2^60}", "a number too large for a die"),
    ("output d1000 * d1001", "too many outcomes to combine"),
    ("function: f S:s { result: 1 }\noutput [f 20d10]", "sorted rolls"),
    ("function: f N:n { result: [f N]+" + "+".join(["1"] * 900) + "}\nset \"maximum function depth\" to 100\n"
     "output [f 1]", "Python frames"),
])
def test_each_refusal_of_the_budget(program, message):
    with pytest.raises(DiceLimitError) as caught:
        de.anydice(program)
    assert message in str(caught.value)


def test_a_program_too_long_is_refused():
    with pytest.raises(DiceLimitError, match="program too long"):
        de.anydice(" " * (parse.MAX_PROGRAM_LENGTH + 1))
    assert interpreter.MAX_STEPS == 500_000


# ---------------------------------------------------------------- the ways in

def test_the_distribution_has_the_views_every_distribution_has():
    (dist,) = de.anydice('output 2d6 named "two dice"')
    assert dist.expression == "two dice" and dist.system == "anydice"
    assert dist.mean() == pytest.approx(7.0)
    assert dist.at_least(10) == pytest.approx(6 / 36)
    assert dist.probability(lambda o: o.total <= 4) == pytest.approx(6 / 36)
    assert de.anydice("function: f {}\noutput [f]")[0].marginal() == {}
    model = dist.model().model_dump()  # the JSON view every distribution has
    assert model["system"] == "anydice" and model["fields"] == ["total"] and len(model["outcomes"]) == 11


def test_the_command_line(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.anydice"
    path.write_text('output 1d2 named "coin"\n')
    assert main(["anydice", str(path), "--view", "all"]) == 0
    out = capsys.readouterr().out
    assert "coin" in out and "50.00" in out and "100.00" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("output 1d2"))
    assert main(["anydice", "-", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["label"] == "output 1" and data[0]["at most"] == [[1, 0.5], [2, 1.0]]
    monkeypatch.setattr("sys.stdin", io.StringIO("output d6 @ 1"))
    assert main(["--lang", "fr", "anydice", "-"]) == 2
    assert "ligne 1 : une position est un nombre ou une séquence, pas un dé" in capsys.readouterr().err


def test_answers_are_kept_for_the_last_programs_only():
    import diceengine.anydice as package

    first = package.run("output 3d6")
    again = package.run("output 3d6")
    assert first[0] is again[0]  # not run again
    for n in range(package.KEEP + 1):
        package.run(f"output {n}")
    assert package.run("output 3d6")[0] is not first[0]  # pushed out, run again
    assert len(package._ANSWERS) <= package.KEEP


def test_the_command_line_draws_the_outputs(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    path, png = tmp_path / "p.anydice", tmp_path / "p.png"
    path.write_text("output 2d6\noutput [highest 1 of 2d6]\n")
    assert main(["anydice", str(path), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "output 2" in capsys.readouterr().out


def test_diceengine_anydice_is_the_package_and_the_function():
    import diceengine.anydice as package

    assert de.anydice is package and callable(de.anydice)
    assert de.anydice("output 1")[0].mean() == 1
    assert de.api.anydice("output 2")[0].mean() == 2
    with pytest.raises(de.DiceError, match="a program must be a string, not bytes"):
        de.anydice(b"output 1")


def test_an_output_is_sampled_and_drawn_by_its_exact_chances():
    # issue 35: a roll and a sample of an output, where it is a die; checked against its own exact chances
    (out,) = de.anydice("output [highest 2 of 3d6]")
    chances = {k: float(v) for k, v in enumerate_dice([range(1, 7)] * 3, lambda r: sum(sorted(r)[1:])).items()}
    sample = out.sample(60_000, seed=3)
    assert len(sample["total"]) == 60_000 and set(np.unique(sample["total"]).tolist()) <= set(chances)
    for value, p in chances.items():
        seen = float(np.count_nonzero(sample["total"] == value)) / 60_000
        assert abs(seen - p) <= 5 * (p * (1 - p) / 60_000) ** 0.5 + 1e-9, (value, seen, p)
    draws = [out.draw(seed).total for seed in range(300)]
    assert set(draws) <= set(chances) and draws == [out.draw(seed).total for seed in range(300)]  # reproducible
    assert (out.sample(10, seed=5)["total"] == out.sample(10, seed=5)["total"]).all()
    with pytest.raises(de.DiceError):
        out.sample(-1)
