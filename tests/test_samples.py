"""Samples (``diceengine.sample``): a sample is a mapping of its fields, whole totals are integer columns,
its moments against enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import diceengine as de

# ---------------------------------------------------------------- samples


def test_a_sample_is_a_mapping_of_its_fields():
    s = de.sample("3d6", 5, seed=1)
    assert list(s) == ["total"] and len(s) == 1 and s.n == 5
    assert s.system == "standard" and s.expression == "3d6"
    assert s.mean() == pytest.approx(float(np.mean(s["total"])))
    assert repr(s) == "<Sample standard '3d6': n=5, fields=['total']>"
    wild = de.sample("3D", 4, system="d6wild", seed=1)
    assert list(wild) == ["total", "complication", "explosions"] and len(wild) == 3
    assert wild.mean("explosions") == pytest.approx(float(np.mean(wild["explosions"])))
    assert wild.mean("total") != wild.mean("explosions") or (wild["total"] == wild["explosions"]).all()
    assert repr(wild) == "<Sample d6wild '3D': n=4, fields=['total', 'complication', 'explosions']>"


def test_a_missing_sample_field_names_the_fields():
    s = de.sample("3D", 3, system="d6wild", seed=1)
    with pytest.raises(de.DiceError) as err:
        s["nope"]
    assert str(err.value) == "this sample has no field 'nope' (fields: total, complication, explosions)"
    assert not isinstance(err.value, KeyError)


@pytest.mark.parametrize(("system", "expr", "options"),
                         [("d6", "3D vs 10", {}), ("d6wild", "4D+2 vs 15", {}), ("d6wild", "1D", {}),
                          ("d6wild", "3D+1", {"wild": False}), ("d20pool", "3d20<=12 spec 3 vs 2", {}),
                          ("ffg", "2a1p vs 2d", {}), ("standard", "4d6kh3cs6cf1", {}), ("standard", "3d6!", {})])
def test_sampled_counts_are_whole_numbers(system, expr, options):
    # every field of a sample is a count, a total or a verdict: int64 or bool arrays, never floats
    s = de.sample(expr, 500, system, seed=2, **options)
    for name, column in s.items():
        assert column.dtype in (np.int64, np.bool_), (name, column.dtype)
    if system == "d6wild" and not options:
        assert s["explosions"].max() >= 1  # a six rolled on the Wild Die in 500 rolls: the count is there


@pytest.mark.parametrize(("expr", "sides"), [("2d6", (6, 6)), ("1d4+1d6", (4, 6)), ("1d20+1d4+1d8", (20, 4, 8))])
def test_variance_and_standard_deviation_against_enumeration(expr, sides):
    totals = [sum(faces) for faces in itertools.product(*[range(1, s + 1) for s in sides])]
    mean = sum(totals) / len(totals)
    var = sum((t - mean) ** 2 for t in totals) / len(totals)
    dist = de.distribution(expr)
    assert dist.variance() == pytest.approx(var, rel=1e-12)
    assert dist.stdev() == pytest.approx(var ** 0.5, rel=1e-12)


def test_standard_deviation_of_another_field():
    # a success count of 3d6>=5: binomial(3, 1/3), variance 3 * 1/3 * 2/3
    dist = de.distribution("3d6>=5")
    assert dist.stdev("total") == pytest.approx((3 * 1 / 3 * 2 / 3) ** 0.5, rel=1e-12)


@pytest.mark.parametrize(("expr", "options"), [("3d20^4", {}), ("max(1d6+1000, 1d4+1000)", {}), ("abs(5*1d250)", {}),
                                               ("round((1d6+2000)/3)", {"division": "exact"}),
                                               ("1d20cs20^3", {}), ("2d6", {})])
def test_exact_whole_totals_are_integer_columns(expr, options):
    # however the engine holds a distribution (dense, or sparse when its values are far apart), whole-number
    # totals come out as int64 columns, as in samples; fractions stay exact (Python numbers)
    dist = de.distribution(expr, **options)
    assert dist.columns["total"].dtype == np.int64
    assert de.distribution("1d6/4", division="exact").columns["total"].dtype == object
