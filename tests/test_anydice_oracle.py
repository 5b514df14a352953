"""AnyDice's own answers (tests/data/anydice_programs.json, a copy of shared/anydice/programs.json: 71 programs, 547 outputs, the percentages anydice.com
printed) against the engine's, output by output; then hostile programs and programs mutated from the corpus, which
answer or are refused with the engine's error, never anything else.

Precision: AnyDice prints a percentage with 12 significant digits; an output matches when every value it shows
has the engine's probability within 1e-9 and no other value has any. A row AnyDice prints at 0% (a comparison
lists both 0 and 1 even when one cannot happen: programs 63 and 67) is a value without probability, as the engine
holds it. Every output matches, labels included; two reproduce an AnyDice defect on purpose: programs 46 and 47
("BUGGED DICE WITH SUM OF PROBABILITY < 100%") show 33.33% in all, and the engine's distribution says so too
(its ``truncated`` is the 66.67% AnyDice lost).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import diceengine as de
from diceengine.anydice import run
from diceengine.errors import DiceError, DiceLimitError

# a copy of shared/anydice/programs.json (its "source" says where AnyDice's answers were collected), kept with the
# tests so that every checkout runs the oracle
ORACLE = Path(__file__).resolve().parent / "data" / "anydice_programs.json"
PROGRAMS = json.loads(ORACLE.read_text())["programs"]
#: AnyDice prints 12 significant digits: a probability within this of its
PRECISION = 1e-9

assert PROGRAMS, "the AnyDice oracle (tests/data/anydice_programs.json) is empty"


def _expected(output: dict) -> dict[int, float]:
    return {int(v): pc / 100 for v, pc in output["percent"] if pc != 0}


@pytest.mark.parametrize("index", range(len(PROGRAMS)))
def test_every_output_of_the_oracle(index):
    program = PROGRAMS[index]
    outputs = run(program["program"])
    assert [o.label for o in outputs] == [e["label"] for e in program["outputs"]]
    for got, expected in zip(outputs, program["outputs"], strict=True):
        want = _expected(expected)
        have = {} if got.die is None else {v: p for v, p in got.die.items() if p > 0}
        assert set(have) == set(want), (got.label, sorted(have), sorted(want))
        for value, p in want.items():
            assert abs(have[value] - p) <= PRECISION, (got.label, value, have[value], p)


def test_the_oracle_holds_547_outputs():
    assert len(PROGRAMS) == 71
    assert sum(len(p["outputs"]) for p in PROGRAMS) == 547


def test_anydice_defect_reproduced_with_what_it_lost():
    """Programs 46 and 47: AnyDice's answer sums to a third; the distribution says what is missing."""
    for index in (46, 47):
        (dist,) = de.anydice(PROGRAMS[index]["program"])
        assert dist.items()[0][0].total == 3
        assert dist.total_probability() == pytest.approx(1 / 3, abs=1e-12)
        assert dist.truncated == pytest.approx(2 / 3, abs=1e-12)


# ---------------------------------------------------------------- hostile programs

HOSTILE = [
    "function: r N:n { result: [r N] + 1 }\nset \"maximum function depth\" to 100\noutput [r d6]",
    "set \"maximum function depth\" to 1000000",
    "loop N over {1..1000000} { X: N }",
    "X: 0\nloop A over {1..1000} { loop B over {1..1000} { X: X + 1 } }\noutput X",
    "function: f N:n { result: 1000d1000 }\noutput [f d2]",
    "function: f N:n { result: N }\noutput [f 1000d1000]",
    "function: f S:s { result: 1 }\noutput [f 20d10]",
    "output 10001d6",
    "output d2000000",
    "output 2 ^ 1000",
    "output d{1, 100000000000}",
    "output {1..100000000}",
    "output " + "+".join(["1"] * 2000),
    "output " + "(" * 500 + "1" + ")" * 500,
    "function: f N:n { result: [f N]+" + "+".join(["1"] * 900) + "}\nset \"maximum function depth\" to 100\n"
    "output [f d6]",
    "set \"explode depth\" to 100000\noutput [explode d6]",
    "output {1:100000000}",
    "output 99999999999999999999999 * 99999999999999999999",
    "output d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6 * d6",
    "output 1/0",
    "output d6 / (d2 - 1)",
]


@pytest.mark.parametrize("program", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_program_answers_or_is_refused(program):
    try:
        outputs = de.anydice(program)
    except DiceError:
        return
    for dist in outputs:
        assert dist.total_probability() <= 1 + 1e-9


@pytest.mark.parametrize("program", [HOSTILE[1], HOSTILE[2], HOSTILE[6], HOSTILE[7], HOSTILE[11], HOSTILE[12],
                                     HOSTILE[13], HOSTILE[14], HOSTILE[15]])
def test_these_are_refused_by_the_budget(program):
    with pytest.raises(DiceLimitError):
        de.anydice(program)


def test_deep_recursion_within_the_depth_answers():
    (dist,) = de.anydice(HOSTILE[0])
    assert dist.marginal() == pytest.approx({100: 1.0})


# ---------------------------------------------------------------- fuzzed programs

_PIECES = ["d", "@", "#", "!", "-", "+", "*", "/", "^", "=", "&", "|", "[", "]", "{", "}", "(", ")", ",", "..",
           ":", "\\", '"', "\n", " ", "0", "1", "6", "X", "N", "output ", "result: ", "loop ", "if ", "else ",
           "function: ", "set ", "named ", " over ", "[highest 1 of ", "[explode ", "{}", "[f]", ":n", ":s", ":d",
           "\u00e9", "\x00", "99999999999999999999"]


def _mutants(count: int, seed: int = 35) -> list[str]:
    rng = random.Random(seed)
    small = [p["program"] for p in PROGRAMS if len(p["program"]) < 700]
    out = []
    for _ in range(count):
        text = rng.choice(small)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(text) + 1)
            kind = rng.random()
            if kind < 0.4:
                text = text[:i] + rng.choice(_PIECES) + text[i:]
            elif kind < 0.7:
                text = text[:i] + text[i + rng.randint(1, 5):]
            else:
                j = rng.randrange(len(text) + 1)
                text = text[:i] + text[j:j + rng.randint(1, 12)] + text[i:]
        out.append(text)
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_mutated_programs_never_crash(chunk):
    for program in _mutants(400)[chunk * 100:(chunk + 1) * 100]:
        try:
            outputs = de.anydice(program, lang="fr")
        except DiceError as err:
            assert str(err)  # the engine's error, in words
            continue
        assert isinstance(outputs, list)


_ATOMS = ["0", "1", "2", "-3", "7", "999", "d6", "2d4", "d{}", "{}", "{1,2}", "{0,-1,3}", "d{1,1,5}", "[f]", "[f]d0",
          "X", "S", "D", "0d4", "{d4}", "[g d4]", "[h 2d3]", "[highest 1 of 3d4]", "[explode d3]", "[sort {3,1}]",
          "1000000000", "#{}"]
_BINARY = ["+", "-", "*", "/", "^", "@", "d", "=", "!=", "<", "<=", ">", ">=", "&", "|"]
_PRELUDE = ("function: f {}\nfunction: g N:n { result: N * 2 }\nfunction: h S:s { result: 1@S }\n"
            "X: 3\nS: {1,2,3}\nD: 2d6\n")


def _expression(rng: random.Random, depth: int = 0) -> str:
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice(_ATOMS)
    if r < 0.5:
        return rng.choice(["-", "!", "#", "d", "+"]) + _expression(rng, depth + 1)
    if r < 0.6:
        return "(" + _expression(rng, depth + 1) + ")"
    return f"{_expression(rng, depth + 1)} {rng.choice(_BINARY)} {_expression(rng, depth + 1)}"


def test_random_expressions_over_every_type_pair_never_crash():
    """Every operator between numbers, sequences, dice, pools and both empty dice, nested at random."""
    rng = random.Random(35)
    for _ in range(300):
        program = _PRELUDE + f'output {_expression(rng)} named "[X] [S] [D]"'
        try:
            outputs = de.anydice(program)
        except DiceError:
            continue
        assert len(outputs) == 1


# ---------------------------------------------------------------- the prebuilt tables read programs as Lark does

def _read_by(parse, text: str) -> tuple:
    from lark.exceptions import UnexpectedInput

    from diceengine import lalr

    try:
        return ("tree", repr(parse(text)))  # positions included
    except (lalr.Unparsed, UnexpectedInput):
        return ("not a program",)
    except DiceError as err:
        return ("refused", str(err))


def test_the_runtime_reads_every_program_as_lark_does():
    """grammars/_tables_anydice.py (python -m diceengine.lalr) read by the engine's runtime: the same trees,
    positions included, the same refusals, the same texts out of the grammar as Lark's own parser."""
    from diceengine.anydice import parse

    seen = set()
    for text in [p["program"] for p in PROGRAMS] + _mutants(300, seed=25):
        ours, theirs = _read_by(parse._runtime().parse, text), _read_by(parse._parser().parse, text)
        assert ours == theirs, text
        seen.add(ours[0])
    assert seen == {"tree", "not a program", "refused"}


def test_a_program_is_read_without_lark():
    import subprocess
    import sys

    code = ("import sys, diceengine as de; de.anydice('output [highest 2 of 3d6]'); "
            "print('lark' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
