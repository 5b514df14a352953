"""The standard system's plan: its dice, JSON, text and parts for one record and for several, samples and
distributions of integers and fractions, a plan's facts, the options the system declares."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine import pmf as pmf_module
from diceengine.registry import get_system
from tests.helpers import Scripted, clear_engine_caches


def test_one_record_and_several():
    one = de.roll("3d6kh2", seed=Scripted([(1, 6), (6, 6), (4, 6)]))
    assert [(d.value, d.kept) for d in one.dice] == [(1, False), (6, True), (4, True)]
    many = de.roll("2d6 + 1d4[x] + 3 + 1d8!", seed=Scripted([(1, 6), (6, 6), (4, 4), (8, 8), (2, 8)]))
    assert [(d.kind, d.value, d.label, d.exploded) for d in many.dice] == [
        ("d6", 1, None, False), ("d6", 6, None, False), ("d4", 4, "x", False), ("d8", 8, None, True),
        ("d8", 2, None, False)]
    assert many.total == 24
    for r in (one, many):
        data = json.loads(r.model_dump_json())
        assert data == json.loads(r.model().model_dump_json())
        assert [d["value"] for d in data["dice"]] == [d.value for d in r.dice]
        assert [d["kept"] for d in data["dice"]] == [d.kept for d in r.dice]
        assert data["text"] == str(r)
    assert str(many) == "2d6 + 1d4[x] + 3 + 1d8!: [1, 6] + [4] (x) + 3 + [8!+2] = 24"


def test_json_of_a_roll_without_dice_and_of_constants():
    r = de.roll("3 + 4")
    data = json.loads(r.model_dump_json())
    assert data["dice"] == [] and data["outcome"] == {"total": 7} and data["text"] == "3 + 4: 3 + 4 = 7"
    r = de.roll("0d6 + 2d4", seed=Scripted([(1, 4), (3, 4)]))
    data = json.loads(r.model_dump_json())
    assert [d["value"] for d in data["dice"]] == [1, 3] and data == json.loads(r.model().model_dump_json())


def test_the_line_when_the_template_cannot_be_used():
    # a computed term is rendered by the tree (no template): the same line form
    r = de.roll("(1d4)d6 + 1", seed=Scripted([(2, 4), (1, 6), (5, 6)]))
    assert str(r) == "(1d4)d6 + 1: ([2])d6=[1, 5] + 1 = 7"
    assert r.render("plain") == str(r)
    r = de.roll("{1d6, 1d6}kh1 + 2d6", seed=Scripted([(1, 6), (3, 6), (2, 6), (2, 6)]))
    assert str(r) == "{1d6, 1d6}kh1 + 2d6: {~[1] = 1~, [3] = 3}kh1 + [2, 2] = 7"


def test_a_respelled_plan_shows_its_own_spelling():
    de.roll("1d6 + 2", seed=1)
    r = de.roll("1D6+2", seed=Scripted([(4, 6)]))
    assert str(r) == "1D6+2: [4] + 2 = 6"
    r = de.roll("{1d6}+{1d6}", seed=Scripted([(4, 6), (1, 6)]))
    assert str(r).startswith("{1d6}+{1d6}: ")


def test_parts_of_a_roll():
    r = de.roll("2d6 + 1d4[x] to hit", seed=Scripted([(1, 6), (6, 6), (4, 4)]))
    parts = r.parts()
    assert parts[0].parts == ("2d6 + 1d4[x] to hit",) and parts[0].role == "expression"
    assert parts[-1].parts == ("11",) and parts[-1].role == "result"
    assert parts[1] == ": " and parts[-2] == " = "
    assert r.render("markdown") == "`2d6 + 1d4[x] to hit`: [**1**, ***6***] + [***4***] (x) = **11**"


def test_samples_of_constants_and_of_fractions():
    s = de.sample("3", 4, seed=1)["total"]
    assert s.tolist() == [3, 3, 3, 3] and s.dtype == np.int64
    s[0] = 9  # a sample is the caller's own array
    assert de.sample("3", 4, seed=1)["total"].tolist() == [3, 3, 3, 3]
    f = de.sample("3/2", 3, seed=1, division="exact")["total"]
    assert f.tolist() == [1.5, 1.5, 1.5] and f.dtype == np.float64
    f[0] = 0.0
    g = de.sample("1d2/2", 2000, seed=1, division="exact")["total"]
    assert set(g.tolist()) == {0.5, 1.0} and g.dtype == np.float64
    i = de.sample("1d6", 5, seed=1)["total"]
    assert i.dtype == np.int64 and i.flags.writeable


def test_distributions_of_integers_and_of_fractions():
    d = de.distribution("1d2/2", division="exact")
    assert d.marginal("total") == {Fraction(1, 2): 0.5, 1: 0.5}
    assert d.truncated == 0.0
    assert list(d.columns["total"]) == [Fraction(1, 2), 1]
    d = de.distribution("1d4-2")
    assert d.marginal("total") == {-1: 0.25, 0: 0.25, 1: 0.25, 2: 0.25}
    assert d.columns["total"].tolist() == [-1, 0, 1, 2]
    assert d.probabilities.tolist() == [0.25] * 4
    assert 0 < de.distribution("1d6! + 1d6!").truncated < 1e-11


def test_a_plans_facts():
    p = api.plan("1d6+2")
    assert p.dice_per_roll == 1 and p.bounds == (2, 8) and p.description is None
    p = api.plan("5")
    assert p.dice_per_roll == 1 and p.bounds == (5, 5)
    assert de.roll("5").total == 5 and de.roll("5").dice == []
    p = api.plan("2d6 + 1d4 to hit")
    assert p.dice_per_roll == 3 and p.description == "to hit"
    assert api.plan("1d20 #").description is None
    assert api.plan("4d6kh3 + 2d8").dice_per_roll == 6
    assert api.plan("1d6+2").exact_cost().work > 0


def test_too_many_dice_in_one_roll():
    with pytest.raises(de.DiceLimitError) as err:
        de.roll("5001d6+5000d6")
    assert str(err.value).splitlines()[0] == "too many dice: 10001 in one roll (at most 10000)"
    assert err.value.column == 0
    assert de.roll("5000d1+5000d1").total == 10000


def test_the_system_declares_its_options():
    system = get_system("standard")
    assert system.name == "standard"
    assert system.options["division"].default == "floor" and system.options["division"].choices == ("floor", "exact")
    assert system.options["dialect"].default == "roll20" and system.options["dialect"].choices == ("roll20", "d20")
    assert system.options["explosions"].default == "unit" and system.options["explosions"].choices == ("unit", "dice")
    assert system.summary.startswith("standard dice notation: NdM, d%, dF")
    for example in system.examples:
        de.roll(example, seed=1)
    assert "4d6kh3" in system.examples and "8d10>=7f1" in system.examples
    with pytest.raises(de.DiceError):
        de.roll("1d6", division="round")
    assert de.roll("7/2", division="floor").total == 3


@pytest.mark.parametrize("expr", ["max(1d6, 6d6kh3)", "min(1d4, 1d6, 6d6kh3)", "max(6d6kh3, 1d6, 2)",
                                  "min(1d6, 5d10dl2)"])
def test_a_function_estimates_the_work_of_each_argument(expr):
    """Each argument's exact odds are part of the function's: the estimate bounds the work counted, whichever
    argument does it."""
    clear_engine_caches()
    cost = api.plan(expr).exact_cost()
    pmf_module.WORK.work = 0.0
    de.distribution(expr)
    assert 0 < pmf_module.WORK.work <= cost.work
