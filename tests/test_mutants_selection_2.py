"""d20's keep / drop (``dialect="d20"``) under mutation (issue 16): every face combination rolled with scripted
dice, samples and exact odds, each against the rule written here from d20's documentation (README, "Where
the peers differ"): a sequence of operators, each choosing among the dice still kept; consecutive operators of
one kind join; ``hN`` / ``lN`` the N highest / lowest still kept, ``N`` the dice showing N, ``<N`` / ``>N``;
``k`` keeps what its selectors choose, ``p`` drops it.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import diceengine as de

from .helpers import assert_close, chi2_passes

D20 = {"dialect": "d20"}


class Scripted(random.Random):
    """A generator (a ``random.Random``, accepted as a seed) that throws the given faces in order (``sides``:
    one number for every die, or one per die)."""

    def __init__(self, faces: list[int], sides: int | list[int]) -> None:
        super().__init__(0)
        each = sides if isinstance(sides, list) else [sides] * len(faces)
        self._draws = [(f - 0.5) / s for f, s in zip(faces, each)]

    def random(self) -> float:
        return self._draws.pop(0)


def d20_kept(values: tuple[int, ...], ops: list[tuple[str, list[tuple[str, int]]]]) -> list[bool]:
    """Which dice stay kept: each operator chooses among the dice still kept (d20's rule)."""
    kept = [True] * len(values)
    for mode, selectors in ops:
        alive = [i for i in range(len(values)) if kept[i]]
        ranked = sorted(alive, key=lambda i: values[i])
        # d20 sorts highest-first with a stable sort: among equal faces the earliest die is both the
        # highest and the lowest (d20 1.1.2: `(1,1,1,1)kh1kl1` = 1, `(5,5,2,2)kh1kl1` = 7)
        descending = sorted(alive, key=lambda i: values[i], reverse=True)
        chosen: set[int] = set()
        for kind, n in selectors:
            if kind == "h":
                chosen.update(descending[:n])
            elif kind == "l":
                chosen.update(ranked[:n])
            elif kind == "=":
                chosen.update(i for i in alive if values[i] == n)
            elif kind == "<":
                chosen.update(i for i in alive if values[i] < n)
            else:
                chosen.update(i for i in alive if values[i] > n)
        for i in alive:
            if (i in chosen) != (mode == "k"):
                kept[i] = False
    return kept


# expression on 4d6 (or 3d6) and its operators
CASES = [
    ("4d6k6", [("k", [("=", 6)])]),
    ("4d6k<3", [("k", [("<", 3)])]),
    ("4d6k>4", [("k", [(">", 4)])]),
    ("4d6p>4", [("p", [(">", 4)])]),
    ("4d6p<2", [("p", [("<", 2)])]),
    ("4d6p1p2", [("p", [("=", 1), ("=", 2)])]),
    ("4d6k1k2", [("k", [("=", 1), ("=", 2)])]),
    ("4d6k>1p6", [("k", [(">", 1)]), ("p", [("=", 6)])]),
    ("4d6kh3", [("k", [("h", 3)])]),
    ("4d6kl1", [("k", [("l", 1)])]),
    ("4d6ph1", [("p", [("h", 1)])]),
    ("4d6pl2", [("p", [("l", 2)])]),
    ("4d6dh1", [("p", [("h", 1)])]),  # Roll20's dh / dl read as d20's ph / pl
    ("4d6dl1", [("p", [("l", 1)])]),
    ("4d6kh5", [("k", [("h", 5)])]),
    ("4d6kh3pl1", [("k", [("h", 3)]), ("p", [("l", 1)])]),
    ("4d6kl3ph1", [("k", [("l", 3)]), ("p", [("h", 1)])]),
    ("4d6kh2pl3", [("k", [("h", 2)]), ("p", [("l", 3)])]),
    ("4d6pl1kh2", [("p", [("l", 1)]), ("k", [("h", 2)])]),
    ("4d6ph1kl5", [("p", [("h", 1)]), ("k", [("l", 5)])]),
    ("4d6kh1kl1", [("k", [("h", 1), ("l", 1)])]),
    ("4d6ph1pl1", [("p", [("h", 1), ("l", 1)])]),
    ("4d6p1kh2", [("p", [("=", 1)]), ("k", [("h", 2)])]),
    ("4d6ph5p1", [("p", [("h", 5), ("=", 1)])]),
    ("4d6k>2kh2", [("k", [(">", 2), ("h", 2)])]),
    ("4d6kl2p<2", [("k", [("l", 2)]), ("p", [("<", 2)])]),
]


def enumerated(n: int, ops, score=lambda v: v) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for combo in itertools.product(range(1, 7), repeat=n):
        kept = d20_kept(combo, ops)
        total = sum(score(v) for v, k in zip(combo, kept) if k)
        out[total] = out.get(total, Fraction(0)) + Fraction(1, 6**n)
    return out


@pytest.mark.parametrize("expr, ops", CASES, ids=[c[0] for c in CASES])
def test_d20_keep_and_drop_in_the_three_evaluations(expr, ops):
    n = int(expr[0])
    # every combination of faces, thrown by scripted dice: the total and the kept dice
    for combo in itertools.product(range(1, 7), repeat=n):
        r = de.roll(expr, seed=Scripted(list(combo), 6), **D20)
        kept = d20_kept(combo, ops)
        assert r.total == sum(v for v, k in zip(combo, kept) if k), combo
        assert sorted(d.value for d in r.dice if d.kept) == sorted(v for v, k in zip(combo, kept) if k), combo
    expected = enumerated(n, ops)
    assert chi2_passes(de.sample(expr, 20_000, seed=11, **D20)["total"], expected)
    assert_close(de.distribution(expr, **D20).marginal("total"), expected)  # unions of selectors included


@pytest.mark.parametrize("expr, ops, success", [
    ("4d6kh3>=4", [("k", [("h", 3)])], lambda v: int(v >= 4)),
    ("4d6k<4>=2", [("k", [("<", 4)])], lambda v: int(v >= 2)),
    ("4d6p6>4f1", [("p", [("=", 6)])], lambda v: 1 if v > 4 else -1 if v == 1 else 0),
    ("4d6kh1kl1>3", [("k", [("h", 1), ("l", 1)])], lambda v: int(v > 3)),
])
def test_d20_keep_then_count_successes(expr, ops, success):
    expected = enumerated(4, ops, success)
    for combo in itertools.product(range(1, 7), repeat=4):
        kept = d20_kept(combo, ops)
        assert de.roll(expr, seed=Scripted(list(combo), 6), **D20).total == \
            sum(success(v) for v, k in zip(combo, kept) if k), combo
    assert chi2_passes(de.sample(expr, 20_000, seed=12, **D20)["total"], expected)
    if "kh1kl1" not in expr:
        assert_close(de.distribution(expr, **D20).marginal("total"), expected)


def test_roll20_reading_refuses_d20_spellings():
    for expr, shown in (("4d6k<3", "k<3"), ("4d6p2", "p2"), ("4d6p>4", "p>4")):
        with pytest.raises(de.DiceValueError) as err:
            de.roll(expr)
        assert str(err.value).splitlines()[0] == (f"{shown} is d20's notation (keep / drop dice by value): "
                                                  "use the option dialect='d20'")
        assert err.value.column == 3


def test_a_keep_point_is_under_or_over():
    with pytest.raises(de.DiceSyntaxError) as err:
        de.roll("4d6k>=3", **D20)
    assert err.value.column is not None


# ---------------------------------------------------------------- sets of expressions


def set_enumeration(faces: list[range], ops, score=lambda v: v) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    total_count = 1
    for f in faces:
        total_count *= len(f)
    for combo in itertools.product(*faces):
        kept = d20_kept(combo, ops)
        total = sum(score(v) for v, k in zip(combo, kept) if k)
        out[total] = out.get(total, Fraction(0)) + Fraction(1, total_count)
    return out


D6, D4, THREE = range(1, 7), range(1, 5), range(3, 4)


@pytest.mark.parametrize("expr, faces, ops, score", [
    ("(1d6, 1d6, 1d6)p1", [D6] * 3, [("p", [("=", 1)])], None),
    ("(1d6, 1d4, 3)k>2", [D6, D4, THREE], [("k", [(">", 2)])], None),
    ("(1d6, 1d6, 1d4)p<3", [D6, D6, D4], [("p", [("<", 3)])], None),
    ("{1d6, 1d6, 1d6}p>4", [D6] * 3, [("p", [(">", 4)])], None),
    ("(1d6, 1d6, 1d6)kh2pl1", [D6] * 3, [("k", [("h", 2)]), ("p", [("l", 1)])], None),
    ("(1d6, 1d6, 1d6)kh1kl1", [D6] * 3, [("k", [("h", 1), ("l", 1)])], None),
    ("(1d6, 1d6, 1d6)k>1>4", [D6] * 3, [("k", [(">", 1)])], lambda v: int(v > 4)),
    ("(1d6, 1d6, 1d6)k>2>4f1", [D6] * 3, [("k", [(">", 2)])], lambda v: 1 if v > 4 else -(v == 1)),
    ("(1d6, 1d6, 1d4)p1>=3f2", [D6, D6, D4], [("p", [("=", 1)])], lambda v: 1 if v >= 3 else -(v == 2)),
    ("(1d6, 1d6, 1d6)kh1kl1>=5", [D6] * 3, [("k", [("h", 1), ("l", 1)])], lambda v: int(v >= 5)),
])
def test_d20_selectors_on_sets(expr, faces, ops, score):
    score = score or (lambda v: v)
    expected = set_enumeration(faces, ops, score)
    for combo in itertools.product(*faces):
        dice = [v for v, f in zip(combo, faces) if f is not THREE]
        sides = [len(f) for f in faces if f is not THREE]
        r = de.roll(expr, seed=Scripted(dice, sides), **D20)
        kept = d20_kept(combo, ops)
        assert r.total == sum(score(v) for v, k in zip(combo, kept) if k), combo
    assert chi2_passes(de.sample(expr, 20_000, seed=13, **D20)["total"], expected)
    assert_close(de.distribution(expr, **D20).marginal("total"), expected)  # unions of selectors included


def test_the_readme_sets_in_d20s_reading():
    assert de.roll("(1, 2, 3, 4, 5)k3", **D20).total == 3
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1", **D20).total == 6
    assert de.roll("(1, 2, 3, 4, 5)kh1kl1").total == 0  # rpg-dice-roller's reading by default
    assert de.roll("(1, 2, 3, 4, 5)p1p5", **D20).total == 9
    assert de.roll("(1, 2, 3, 4, 5)ph2", **D20).total == 6
