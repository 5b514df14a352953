"""The d20 success pool (text 001): every face of every small pool enumerated, samples, rules."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from diceengine.systems import d20pool

import diceengine as de
from tests.helpers import chi2_passes


def score(v, threshold, discipline):
    """Successes and complications of one die, as the text states them."""
    spec = discipline is not None
    if v == 20:
        return 0, (0 if spec else 1)
    if v == 1:
        return (4 if spec else 2), 0
    if spec and v <= discipline:
        return 2, 0
    return (1 if v <= threshold else 0), 0


def enumerate_pool(n, threshold, discipline=None, difficulty=None):
    rows: dict[tuple, Fraction] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        s = sum(score(v, threshold, discipline)[0] for v in faces)
        c = sum(score(v, threshold, discipline)[1] for v in faces)
        key = (s, c) if difficulty is None else (s, c, s >= difficulty, max(0, s - difficulty) if s >= difficulty else 0)
        rows[key] = rows.get(key, Fraction(0)) + Fraction(1, 20**n)
    return rows


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("threshold, discipline, difficulty", [(12, None, None), (12, 3, 2), (9, 0, 0), (15, 5, 4), (1, None, 1)])
def test_exact_odds_match_every_face(n, threshold, discipline, difficulty):
    expr = f"{n}d20<={threshold}" + (f" spec {discipline}" if discipline is not None else "") + \
        (f" vs {difficulty}" if difficulty is not None else "")
    dist = de.distribution(expr, system="d20pool", one_die=n == 1)
    got = {tuple(v for v in o if v is not None): p for o, p in dist.items()}
    want = enumerate_pool(n, threshold, discipline, difficulty)
    assert set(got) == set(want)
    for key, p in want.items():
        assert got[key] == pytest.approx(float(p), abs=1e-15)


@pytest.mark.parametrize("expr", ["2d20<=12", "3d20<=12 spec 3 vs 2", "5d20<=15 spec 5 vs 4", "4d20<=8 vs 3"])
def test_samples_and_rolls_match_exact(expr):
    dist = de.distribution(expr, system="d20pool")
    s = de.sample(expr, 50_000, system="d20pool", seed=3)
    assert chi2_passes(s["successes"], dist.marginal("successes"))
    assert chi2_passes(s["complications"], dist.marginal("complications"))
    rolls = [de.roll(expr, system="d20pool", seed=i).successes for i in range(4000)]
    assert chi2_passes(rolls, dist.marginal("successes"))


def test_defaults_bounds_and_errors():
    assert len(de.roll("d20<=10", system="d20pool").dice) == 2
    # 9+3 is the threshold 12: a 1 is 2 successes, 12 is one, 13 none
    faces = iter([0.5 / 20, 11.5 / 20, 12.5 / 20])
    rng = type("Scripted", (random.Random,), {"random": lambda self: next(faces)})(0)
    assert de.roll("3d20<=9+3", system="d20pool", seed=rng).successes == 3
    for bad in ["0d20<=10", "6d20<=10", "2d20<=21", "2d20<=10 spec 11", "2d20<=10 vs -1", "2d20<10", "2d6<=10",
                "2d20<=1d6"]:
        with pytest.raises(de.DiceError) as info:
            de.roll(bad, system="d20pool")
        assert "^" in str(info.value)


def test_roll_outcome_and_text():
    r = de.roll("3d20<=12 spec 3 vs 2", system="d20pool", seed=8)
    table = [score(x.value, 12, 3) for x in r.dice]
    assert r.successes == sum(t[0] for t in table)
    assert r.success == (r.successes >= 2)
    assert r.impulsion == (r.successes - 2 if r.success else 0)
    assert "success" in str(r)


def test_odds_prints_success_and_complication(capsys):
    from diceengine.cli import main

    assert main(["odds", "3d20<=12 spec 3 vs 2", "--system", "d20pool"]) == 0
    out = capsys.readouterr().out
    assert "P(success)" in out and "P(at least one complication)" in out
    assert main(["odds", "d20pool: 2d20<=12 vs 1", "--json"]) == 0


def test_force_power_costs_of_the_text():
    # 5 (base) + 1 (opposed alignment) - 2 (successes beyond the first) = 4 PF
    assert d20pool.force_power_cost(3, "opposed") == (4, 0)
    # 5 - 1 (matching) - 4 -> 1 PF and 1 Impulsion
    assert d20pool.force_power_cost(5, "matching") == (1, 1)
    assert d20pool.force_power_cost(1, "neutral") == (5, 0)
    assert d20pool.force_power_cost(2, "neutral", base=3) == (2, 0)
    with pytest.raises(de.DiceError):
        d20pool.force_power_cost(0)


def test_check_from_a_character():
    c = d20pool.build_check(attribute=9, discipline=3, difficulty=2, specialisation=True, impulsion_dice=1, menace_dice=1)
    assert c.threshold == 12 and c.dice == 4
    assert (c.impulsion_spent, c.menace_added) == (1, 2)
    assert c.expression == "4d20<=12 spec 3 vs 2"
    assert 0 < c.distribution().chance("success") < 1
    with pytest.raises(de.DiceError):
        d20pool.build_check(9, 3, 2, impulsion_dice=2, menace_dice=2)
    with pytest.raises(de.DiceError):
        d20pool.build_check(14, 3, 2)


def test_experience():
    assert d20pool.xp_cost("attribute", 12) == 50
    assert d20pool.xp_cost("discipline", 4) == 30
    assert d20pool.xp_cost("new_specialisation") == 30
    assert d20pool.xp_cost("change_specialisation") == 10
    assert d20pool.xp_cost("impulsion", points=3) == 15
    with pytest.raises(de.DiceError, match="13"):
        d20pool.xp_cost("attribute", 13)
    with pytest.raises(de.DiceError, match="5"):
        d20pool.xp_cost("discipline", 5)
