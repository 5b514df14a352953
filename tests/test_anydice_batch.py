"""A function enumerated over its arguments (a die given where a number or a sequence is asked) is run for every
combination at once (diceengine/anydice/batch.py). Each expected value is enumerated here: every roll of the dice,
sorted as AnyDice sorts a pool read as a sequence, the body's rule written in Python; and a body the batch does not
read gives the same answers through the calls one by one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import product

import pytest

import diceengine as de
from diceengine.algebra import Die
from diceengine.anydice import batch
from diceengine.anydice.calls import Function, choices
from diceengine.anydice.parse import parse_program
from diceengine.anydice.values import Dice

RISK = "function: risk A:s B:s { result: (1@A > 1@B) + (2@A > 2@B) + (3@A > 3@B) }\n"


def _dist(program: str) -> dict[int, float]:
    return de.anydice(program)[0].marginal()


def _enumerate(pools: list[tuple[int, int]], read: Callable[..., int | None], highest: bool = True) -> dict:
    """``read`` of each pool's sorted roll (``(count, sides)`` a pool), over every roll; a ``None`` left out (a
    call without a result) and the rest weighed as before."""
    counts: Counter[int] = Counter()
    rolls = [list(product(range(1, sides + 1), repeat=n)) for n, sides in pools]
    for combo in product(*rolls):
        value = read(*[tuple(sorted(r, reverse=highest)) for r in combo])
        if value is not None:
            counts[value] += 1
    total = sum(counts.values())
    return {v: c / total for v, c in sorted(counts.items())}


def _same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for k, p in want.items():
        assert got[k] == pytest.approx(p, abs=1e-12)


def _at(position: int, seq: tuple[int, ...]) -> int:
    return seq[position - 1] if 1 <= position <= len(seq) else 0


def test_risk_three_against_three():
    _same(_dist(RISK + "output [risk 3d6 3d6]"),
          _enumerate([(3, 6), (3, 6)], lambda a, b: sum(a[i] > b[i] for i in range(3))))


def test_risk_three_against_two_reads_zero_past_the_defenders_dice():
    # AnyDice's 3@B of two dice is 0: the third "pair" always goes to the attacker
    _same(_dist(RISK + "output [risk 3d6 2d6]"),
          _enumerate([(3, 6), (2, 6)], lambda a, b: sum(_at(i, a) > _at(i, b) for i in (1, 2, 3))))


def test_the_position_order_sorts_the_rolls():
    program = 'set "position order" to "lowest first"\n' + RISK + "output [risk 3d4 2d4]"
    _same(_dist(program), _enumerate([(3, 4), (2, 4)], lambda a, b: sum(_at(i, a) > _at(i, b) for i in (1, 2, 3)),
                                     highest=False))


def test_numbers_sequences_and_their_operators():
    program = """function: f A:s with N:n {
  result: (A > N) * 10 + #A - (N = 2) + ((A > 3) & (N - 2)) + (!N | 1@A) + 2@A * -N
}
output [f 2d4 with d3]"""

    def read(a: tuple[int, ...], n: tuple[int, ...]) -> int:
        (x,) = n
        return (sum(v > x for v in a) * 10 + len(a) - (x == 2) + int(sum(v > 3 for v in a) != 0 and x != 2)
                + int(x == 0 or bool(a[0])) + a[1] * -x)

    _same(_dist(program), _enumerate([(2, 4), (1, 3)], read))


def _divide(num: int, den: int) -> int:
    q = abs(num) // abs(den)
    return q if (num >= 0) == (den >= 0) else -q


@pytest.mark.parametrize("below", [2, 9])  # 2: X - 2 is 0 where the branch is not taken
def test_division_truncates_toward_zero_and_a_zero_divisor_untaken_is_no_error(below):
    program = f"""function: f X:n {{
  if X > {below} {{ result: (1 - X * 3) / (X - {below}) }}
  result: -7 / X + X / -2
}}
output [f d5]"""

    def read(x: tuple[int, ...]) -> int:
        (v,) = x
        return _divide(1 - v * 3, v - below) if v > below else _divide(-7, v) + _divide(v, -2)

    _same(_dist(program), _enumerate([(1, 5)], read))


def test_branches_assignments_and_the_callers_variables():
    program = """BONUS: 2
function: f A:s {
  S: 1@A + BONUS
  if S >= 6 { S: S * 2 } else if 2@A = 1 { result: 0 } else { S: S - 1 }
  if S > 9 { result: S }
}
output [f 2d6]"""

    def read(a: tuple[int, ...]) -> int | None:
        s = a[0] + 2
        if s >= 6:
            s *= 2
        elif a[1] == 1:
            return 0
        else:
            s -= 1
        return s if s > 9 else None  # no result: the call is left out

    _same(_dist(program), _enumerate([(2, 6)], read))


def test_a_function_without_any_result_gives_nothing():
    # no call reaches a result: the die has no outcome, and AnyDice shows nothing
    assert _dist("function: f A:s { if 1@A > 9 { result: 1 } }\noutput [f 2d6]") == {}


@pytest.mark.parametrize("body, read", [
    # not read by the batch (a loop, a call, a die), answered call by call
    ("S: 0\n loop I over A { S: S + I * I }\n result: S", lambda a: sum(v * v for v in a)),
    ("result: [g 1@A]", lambda a: a[0] + 1),
    ("if 1@A = 2@A { result: d1 + 1@A } result: 0", lambda a: a[0] + 1 if a[0] == a[1] else 0),
    ("if 1@A > 5 { T: 1 } result: T", None),  # T exists in some calls only: the interpreter's error
])
def test_a_body_the_batch_does_not_read_is_called_one_by_one(body, read):
    program = f"function: g X:n {{ result: X + 1 }}\nfunction: f A:s {{\n {body}\n}}\noutput [f 2d6]"
    if read is None:
        with pytest.raises(de.DiceError):
            de.anydice(program)
        return
    _same(_dist(program), _enumerate([(2, 6)], read))


def _risk_call() -> tuple[Function, list]:
    definition = parse_program(RISK).statements[0]
    function = Function(definition.key, tuple(p.name for p in definition.params),
                        tuple(p.type for p in definition.params), body=definition.body)
    pool = Dice(Die.uniform(6), 3, "3d6")
    return function, [choices("s", pool, "highest"), choices("s", pool, "highest")]


def test_the_risk_function_is_read_at_once():
    function, per_argument = _risk_call()
    found = batch.call(function, per_argument, lambda name: 0)
    assert isinstance(found, Dice)
    want = _enumerate([(3, 6), (3, 6)], lambda a, b: sum(a[i] > b[i] for i in range(3)))
    _same(dict(found.total().items()), want)


def test_numbers_past_what_a_die_holds_are_left_to_the_calls():
    program = "function: f X:n { result: X * 4503599627370496 * 4 }\noutput [f d2]"  # 2**52 * 4 * X > 2**53 - 1
    with pytest.raises(de.DiceError):
        de.anydice(program)


def test_pools_enumerated_again_are_told_apart_by_their_chances_and_order():
    # the sorted rolls of a pool are kept for reuse: the same faces with other chances, or the other position
    # order, must not reuse them
    program = RISK + ('output [risk 2d{1,2,3} 2d{1,2,3}]\noutput [risk 2d{1,2,3,3} 2d{1,2,3}]\n'
                      'set "position order" to "lowest first"\noutput [risk 2d{1,2,3} 3d{1,2,3}]')
    got = [d.marginal() for d in de.anydice(program)]

    def faces(counts: list[int], pools: list[tuple[int, ...]], highest: bool) -> dict:
        out: Counter[int] = Counter()
        rolls = [list(product(f, repeat=n)) for n, f in zip(counts, pools)]
        for a, b in product(*rolls):
            sa, sb = sorted(a, reverse=highest), sorted(b, reverse=highest)
            out[sum(_at(i, tuple(sa)) > _at(i, tuple(sb)) for i in (1, 2, 3))] += 1
        total = sum(out.values())
        return {k: v / total for k, v in out.items()}

    _same(got[0], faces([2, 2], [(1, 2, 3), (1, 2, 3)], True))
    _same(got[1], faces([2, 2], [(1, 2, 3, 3), (1, 2, 3)], True))
    _same(got[2], faces([2, 3], [(1, 2, 3), (1, 2, 3)], False))


def _expression(rng, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["A", "N", "B", str(rng.randint(-3, 5)), f"{rng.randint(0, 3)}@A", "#A", "{1,2}"])
    if rng.random() < 0.2:
        return f"{rng.choice(['-', '!', '#'])}({_expression(rng, depth - 1)})"
    op = rng.choice(["+", "-", "*", "/", "=", "!=", "<", "<=", ">", ">=", "&", "|", "@"])
    return f"({_expression(rng, depth - 1)} {op} {_expression(rng, depth - 1)})"


def _body(rng) -> str:
    lines = [f"X: {_expression(rng, 2)}"] if rng.random() < 0.5 else []
    for _ in range(rng.randint(0, 2)):
        lines.append(f"if {_expression(rng, 2)} {{ result: {_expression(rng, 2)} }}"
                     + (f" else {{ X: {_expression(rng, 1)} }}" if lines and rng.random() < 0.5 else ""))
    lines.append(f"result: {_expression(rng, 3)}")
    return "\n ".join(lines)


def _answer(program: str):
    try:
        return [d.marginal() for d in de.anydice(program)]
    except de.DiceError as err:
        return type(err).__name__, err.message


@pytest.mark.parametrize("seed", range(10))
def test_random_bodies_answer_as_their_calls_one_by_one(seed):
    # each body twice: as it is (run at once when the batch reads it) and behind an empty loop, which the batch
    # does not read and which changes nothing (so every call runs one by one): the same answers, the same errors
    import random

    rng = random.Random(seed)
    for _ in range(40):
        body = _body(rng)
        head = "B: 2\nfunction: f A:s with N:n {\n "
        tail = "\n}\noutput [f 2d4 with d4]"
        at_once, one_by_one = _answer(head + body + tail), _answer(head + "loop I over {} { } " + body + tail)
        if isinstance(at_once, tuple) or isinstance(one_by_one, tuple):
            assert at_once == one_by_one, body
        else:
            _same(at_once[0], one_by_one[0])


@pytest.mark.parametrize("body", ["result: X * 600000", "result: X * 1000000", "result: X * 100000000000",
                                  "result: {X, X * 3000000}"])
def test_results_far_apart_answer_as_the_calls_one_by_one(body):
    # outcomes too far apart for one table of chances: the same answer, or the same refusal, either way
    program = "function: f X:n {\n BODY\n}\noutput [f d3]"
    at_once = _answer(program.replace("BODY", body))
    one_by_one = _answer(program.replace("BODY", "loop I over {} { } " + body))
    if isinstance(at_once, tuple) or isinstance(one_by_one, tuple):
        assert at_once == one_by_one
    else:
        _same(at_once[0], one_by_one[0])


def test_each_call_run_at_once_counts_its_steps():
    # 6d6 against 6d6: 462 x 462 sorted rolls, 2 steps a call, within the 500,000 steps; the answer: the highest
    # die of the first pool beats the second's (P(highest <= m) = (m/6)**6, the rule of independent dice)
    program = "function: f A:s B:s { result: 1@A > 1@B }\noutput [f {n}d6 6d6]"
    below = [(m / 6) ** 6 for m in range(7)]
    want = sum((below[m] - below[m - 1]) * below[m - 1] for m in range(1, 7))
    assert de.anydice(program.replace("{n}", "6"))[0].mean() == pytest.approx(want, abs=1e-12)
    with pytest.raises(de.DiceLimitError, match="500000 steps"):  # 792 x 462 calls: 731,808 steps
        de.anydice(program.replace("{n}", "7"))
