"""Issue 33, a first question's fixed cost: the quick reader (:mod:`diceengine.systems.standard.quick`) also reads a
term's re-roll (``r1``, ``ro1``) or minimum (``mi2``), its count of successes and failures (``>=5f1``) before its
keep / drop, and leaves the tree to the general
path's compiling (:meth:`~diceengine.systems.standard.StandardSystem.prepare`): only the grammar's reading is saved.
The tree must be the parser's (positions included) wherever the quick reader reads one, and anything the grammar
refuses or reads otherwise left to it; the plans roll, write and answer as the general path's, seed for seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine.errors import DiceError
from tests.test_quick_path import GENERAL, OPTIONS, STANDARD, _cost, _same_roll, quick_tree

_MODS = ["", "r1", "ro1", "R1", "rO1", "Ro2", "r0", "r000", "ro99999", "mi2", "MI2", "mI0", "Mi7"]
_COUNTS = ["", ">=5", ">4", "<=2", "<1", "=6", ">=2f1", ">=5F1", "<3f6", "=0f0", ">=01f01"]
_KEEPS = ["", "k", "kh", "kl", "dh", "dl", "K", "KH", "Kl", "dL", "DH"]


def _term(rng: random.Random) -> str:
    count = rng.choice(["", "1", str(rng.randint(2, 12)), str(rng.randint(13, 60))])
    sides = rng.choice([1, 2, 4, 6, 8, 10, 12, 20, 100, rng.randint(1, 1000)])
    keep = rng.choice(_KEEPS)
    mods = rng.choice(_MODS) + rng.choice(_COUNTS)
    text = f"{count}{rng.choice('dD')}{sides}{mods or 'r1'}"
    return text + (f"{keep}{rng.choice([0, 1, 2, 3, rng.randint(0, 70)])}" if keep else "")


def generated(n: int, seed: int = 3) -> list[str]:
    """``n`` sums of terms with a re-roll, a minimum or a count, plain dice terms and numbers, blanks between."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        items = [_term(rng)]
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            items.append(rng.choice([_term(rng), f"{rng.randint(1, 6)}d{rng.choice([4, 6, 20])}",
                                     str(rng.randint(0, 30))]))
        rng.shuffle(items)
        out.append("".join(f"{rng.choice(['', ' '])}{op}{rng.choice(['', ' '])}{item}"
                           for op, item in zip(["", *(rng.choice("+-") for _ in items[1:])], items)))
    return out


EXPRESSIONS = generated(300) + ["3d8ro1dh2", "5d10r1dh4", "2d10ro1kl1", "1d4mi2", "d20r1+5", "4d6ro1kh3 - 1d4mi2",
                                "1d8>=2f1", "8d10>=7", "3d6>=5kh2", "1d6>1dh4", "5d10r1>=8f1kh3 + 2"]
# read otherwise or refused by the grammar, or not read here: the parser's (or compile's) answer, word for word
DECLINED = ["3d8r1d1", "3d8ro1D1", "1d4min2", "2d6r1r2", "3d8dh2r1", "3d8r<2", "3d8ro=1", "3d8rr1", "1d4mi-1",
            "1d4ma3", "3d8r", "0d8r1", "3d6f1", "1d6>1d4", "2d6>2d6", "1d20>=10>3", "1d6>=2f1d1", "1d6 >= 2",
            "3d6>=5f<=2", "3d6>=5dbl6", "3d6kh2>=5", "3d6>=-1", "3d6!>=5"]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_quick_tree_is_the_parsers(expression: str) -> None:
    assert quick_tree(expression)[1] is None  # compiled by the general path


@pytest.mark.parametrize("expression", DECLINED)
def test_what_the_quick_reader_leaves_to_the_parser(expression: str) -> None:
    assert STANDARD.quick(expression, STANDARD.resolve_options({})) is None


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_quick_read_plans_roll_and_answer_as_the_general_ones(options: dict) -> None:
    for expression in EXPRESSIONS[:100] + DECLINED + ["1d1r1", "3d1ro1", "2d6r1+1d1r1", "1d1>=1f1"]:
        try:
            general = api.plan(expression, GENERAL, **options)
        except DiceError as err:  # refused (a re-roll that never ends...): the same error, in the same place
            with pytest.raises(DiceError) as caught:
                api.plan(expression, **options)
            assert str(caught.value) == str(err)
            assert (caught.value.expression, caught.value.column) == (err.expression, err.column)
            continue
        quick = api.plan(expression, **options)
        assert type(quick) is type(general)
        assert quick.bounds == general.bounds and _cost(quick) == _cost(general), expression
        for seed in range(3):
            _same_roll(de.roll(expression, seed=seed, **options), de.roll(expression, GENERAL, seed=seed, **options),
                       expression)


@pytest.mark.parametrize("expression", ["3d8ro1dh2", "5d10r1dh4", "2d10ro1kl1", "1d4mi2", "1d8mi3+2d6r1kh1-2",
                                        "1d8>=2f1", "6d10r1>=7f1 - 3"])
def test_quick_read_odds_are_the_general_ones(expression: str) -> None:
    a, b = de.distribution(expression), de.distribution(expression, GENERAL)
    assert np.array_equal(a.columns["total"], b.columns["total"])
    assert np.array_equal(a.probabilities, b.probabilities)


def test_a_minimum_and_a_reroll_by_enumeration() -> None:
    # independent of the engine: 1d4mi2 is 2, 2, 3, 4; 2d4ro1kl1 re-rolls each 1 once and keeps the lower
    assert {o.total: p for o, p in de.distribution("1d4mi2").items()} == pytest.approx({2: 0.5, 3: 0.25, 4: 0.25})
    die = {1: 1 / 16, **{v: 1 / 4 + 1 / 16 for v in (2, 3, 4)}}  # a d4 whose 1 is thrown once more
    low: dict[int, float] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            low[min(a, b)] = low.get(min(a, b), 0.0) + pa * pb
    assert {o.total: p for o, p in de.distribution("2d4ro1kl1").items()} == pytest.approx(low)
    # 2d8>=7f1: each die scores +1 on 7 or 8, -1 on 1, else 0
    one = {1: 2 / 8, -1: 1 / 8, 0: 5 / 8}
    two: dict[int, float] = {}
    for a, pa in one.items():
        for b, pb in one.items():
            two[a + b] = two.get(a + b, 0.0) + pa * pb
    assert {o.total: p for o, p in de.distribution("2d8>=7f1").items()} == pytest.approx(two)
