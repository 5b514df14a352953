"""One property over every built-in system: the roll, the sample and the exact odds of the same expression with
the same options agree (Hypothesis draws the expression and each option of the system among its choices, fixed
and rolled difficulties alike). A roll's outcome is in the exact support; a sample of a fixed seed passes a
chi-square test against the exact odds at a level strict enough (1e-6) that a correct engine does not fail it."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine.registry import get_system
from tests.conftest import examples
from tests.helpers import chi2_critical, chi2_statistic

Z_STRICT = 4.753424308822899  # the standard normal quantile of 1 - 1e-6
ROLLS = 600  # rolls of each example, seeds 0 to 599
#: small expressions of each system (exact odds in milliseconds): codes, fixed and rolled difficulties
EXPRESSIONS = {
    "standard": ["2d6+1", "4d6kh3", "1d6!+1", "6d6>=5f1", "2d20kl1+5", "1d20+5 >= 15", "3dF", "2d6!!p", "3d4r1",
                 "{1d6, 1d8}kh1", "1d10/3", "4d6dl1dh1", "2d8cs8"],
    "d6": ["3D+1", "2D vs 7", "3D vs short", "2D vs 2D+1", "3D vs 5+1D", "1D vs 1D"],
    "d6wild": ["3D+1", "2D vs 7", "2D+2 vs moderate", "2D vs 1D+2", "3D vs 5+1D", "1D vs 1D"],
    "d20pool": ["2d20<=12", "3d20<=12 spec 3 vs 2", "2d20<=9+3 vs 1", "2d20<=15 spec 5 vs 4", "3d20<=10 vs 0"],
    "ffg": ["2a1p vs 2d", "1a1b vs 1d1s", "1p vs 1c", "1f", "2 ability + 1 boost vs 1 challenge"],
}
#: expressions only an option reads
OPTIONAL = {("d20pool", "one_die", True): ["1d20<=12 vs 1"], ("ffg", "letters", "colour"): ["2g1y vs 2p", "1g1b vs 1p1k"]}


def _choices(option) -> tuple:
    return tuple(option.choices) if option.choices else (True, False)


@st.composite
def cases(draw) -> tuple[str, str, dict]:
    """A system, one of its expressions and a value of each of its options."""
    system = draw(st.sampled_from(sorted(EXPRESSIONS)))
    options = {name: draw(st.sampled_from(_choices(opt))) for name, opt in sorted(get_system(system).options.items())}
    pool = list(EXPRESSIONS[system])
    for (sys_, name, value), more in OPTIONAL.items():
        if sys_ == system and options.get(name) == value:
            pool += more
    if system == "ffg" and options["letters"] == "colour":  # the initials mean other dice
        pool = [e for e in pool if e[0] == "2" and "ability" in e or e in OPTIONAL[("ffg", "letters", "colour")]]
    return system, draw(st.sampled_from(pool)), options


def _fields(outcome_type) -> tuple[str, ...]:
    if dataclasses.is_dataclass(outcome_type):
        return tuple(f.name for f in dataclasses.fields(outcome_type))
    return tuple(outcome_type._fields)


@settings(max_examples=examples(60), deadline=None)
@given(cases())
def test_roll_sample_and_exact_odds_agree(case):
    system, expr, options = case
    d = de.distribution(expr, system=system, **options)
    exact = {tuple(o): p for o, p in d.items()}
    assert abs(sum(exact.values()) + d.truncated - 1.0) < 1e-9
    rolled: dict = {}
    for seed in range(ROLLS):
        o = tuple(de.roll(expr, system=system, seed=seed, **options).outcome)
        assert o in exact, f"{expr} {options}: the roll {o} is not in the exact support"
        rolled[o] = rolled.get(o, 0) + 1
    stat, df = chi2_statistic(rolled, exact, ROLLS)
    assert stat < chi2_critical(df, Z_STRICT), f"{system}: {expr} {options}: rolls' chi-square {stat:.1f}, {df} dof"
    s = de.sample(expr, 4000, system=system, seed=23, **options)
    names = _fields(type(next(iter(d.items()))[0]))
    columns = [s[n].tolist() if n in s else [None] * s.n for n in names]
    observed: dict = {}
    for row in zip(*columns):
        observed[row] = observed.get(row, 0) + 1
    stat, df = chi2_statistic(observed, exact, s.n)
    assert stat < chi2_critical(df, Z_STRICT), f"{system}: {expr} {options}: chi-square {stat:.1f}, {df} dof"


def test_a_sample_is_a_mapping_of_its_fields():
    # `in` and `get` answer for a field the sample lacks (they raised the engine's error through __getitem__)
    s = de.sample("2D", 3, system="d6", seed=1)
    assert "total" in s and "success" not in s and 3 not in s
    assert s.get("success") is None and s.get("total") is s["total"] and s.get("x", 0) == 0
