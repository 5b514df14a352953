"""Bad input: the engine's error with a caret, never a traceback or a hang."""

from __future__ import annotations

import subprocess
import sys

import pytest

import diceengine as de


@pytest.mark.parametrize(
    "expr, column, words",
    [
        ("3d6 +", 5, "ends too early"),
        ("4d6r<", 5, "expected a number"),
        ("2d6 $ 3", 4, "unexpected character '$'"),
        ("3d6)", 3, "unexpected ')'"),
        ("(3d6", 4, "ends too early"),
        ("1d6!!!", 5, "more than one explosion"),
        ("1d6f1", 3, "failure count"),
    ],
)
def test_syntax_errors_show_where(expr, column, words):
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll(expr)
    err = info.value
    assert words in str(err)
    assert err.column == column
    lines = str(err).splitlines()
    assert lines[-2].strip() == expr.strip()
    assert lines[-1].index("^") - 2 == column


@pytest.mark.parametrize(
    "expr, kind",
    [
        ("1d1!", de.DiceLimitError),
        ("1d6r<7", de.DiceLimitError),
        ("(" * 5000 + "1" + ")" * 5000, de.DiceLimitError),
        ("+".join(["1"] * 5000), de.DiceLimitError),
        ("-" * 500 + "1", de.DiceLimitError),
        ("(" * 80 + "1" + ")" * 80 + "+" + "(1+" * 70 + "1" + ")" * 70, de.DiceLimitError),
        ("100000d6", de.DiceLimitError),
        ("5000d6+5001d6", de.DiceLimitError),
        ("1d99999999", de.DiceLimitError),
        ("99999999999999999999", de.DiceLimitError),
        ("1d0", de.DiceValueError),
        ("10/0", de.DiceValueError),
        ("", de.DiceSyntaxError),
        ("   ", de.DiceSyntaxError),
        ("3d6r1ro2", de.DiceSyntaxError),
    ],
)
def test_limits_and_meaningless_expressions(expr, kind):
    with pytest.raises(kind):
        de.roll(expr)


def test_explosion_depth_is_bounded_in_every_evaluation():
    # explodes on 2..100: chains of 200 dice keep 0.99**200 = 13% of the mass: refused up front, the
    # same way by the three evaluations (a roll no longer fails by chance half-way)
    for call in (lambda: de.distribution("1d100!>1"), lambda: de.roll("1d100!>1", seed=1),
                 lambda: de.sample("1d100!>1", 100, seed=1)):
        with pytest.raises(de.DiceLimitError, match="explodes too often"):
            call()
    # explodes on 5 faces of 6: 200 explosions in a row have probability (5/6)**200 ~ 1.5e-16, accepted
    for seed in range(20):
        r = de.roll("1d6!<6", seed=seed)
        assert r.total == sum(d.value for d in r.dice) and len(r.dice) <= 201


def test_non_string_and_bad_arguments():
    with pytest.raises(de.DiceError):
        de.roll(42)  # type: ignore[arg-type]
    with pytest.raises(de.DiceError, match="unknown system"):
        de.roll("1d6", system="nope")
    with pytest.raises(de.DiceError, match="unknown option"):
        de.roll("1d6", nope=1)
    with pytest.raises(de.DiceError, match="hashable"):
        de.roll("4D", system="d6wild", complication=["flag"])
    with pytest.raises(de.DiceError, match="seed"):
        de.roll("1d6", seed="x")  # type: ignore[arg-type]
    with pytest.raises(de.DiceError):
        de.sample("1d6", -1)
    with pytest.raises(de.DiceLimitError):
        de.sample("1d6", 10**12)


@pytest.mark.slow
def test_exact_odds_never_hang():
    # big supports go through FFT convolution; work beyond the budget is a clear limit error
    assert de.distribution("10d100000").mean() == pytest.approx(500005, rel=1e-12)
    for expr in ("400d100kh200", "1d100!>1", "2000d1000000"):
        with pytest.raises(de.DiceLimitError):
            de.distribution(expr)


@pytest.mark.parametrize("system, expr", [("d6", "4D vs 4D vs 4D"), ("d20pool", "2d20<=12 spec"),
                                           ("ffg", "2a vs 2d vs 1c"), ("d6wild", "vs 15")])
def test_every_system_reports_syntax_errors_with_a_caret(system, expr):
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll(expr, system=system)
    assert "^" in str(info.value) and "expected" in str(info.value)


def test_huge_checks_are_bounded_in_every_evaluation():
    with pytest.raises(de.DiceLimitError):
        de.distribution("5000D vs 5000D", system="d6")
    s = de.sample("10000D", 3000, system="d6", seed=1)  # drawn in chunks of bounded memory
    assert s["total"].shape == (3000,) and abs(s.mean() - 35000) < 100
    a = de.sample("2000d6", 9000, seed=4)["total"]
    b = de.sample("2000d6", 9000, seed=4)["total"]
    assert (a == b).all()


_LOOPS = """
import diceengine as de
cases = [("standard", "1d1r1"), ("standard", "2d6r<=12"), ("standard", "1d1!"), ("standard", "1d2!>=1"),
         ("standard", "3d2u"), ("standard", "5d1uo"), ("standard", "6d6u"), ("standard", "2d2ro<=2"),
         ("standard", "1d6!!>=1"), ("standard", "1d6!p>=1"), ("standard", "10d10!>=2"),
         ("d6", "1D vs 1D"), ("d6", "0D+2 vs 0D+2"), ("d6wild", "1D vs 1D"), ("d20pool", "1d20<=20 vs 1")]
for system, text in cases:
    for options in ({}, {"tie": "reroll"}) if system in ("d6", "d6wild") else ({},):
        for call in (lambda: de.roll(text, system, seed=1, **options),
                     lambda: de.sample(text, 2000, system, seed=1, **options),
                     lambda: de.distribution(text, system, **options)):
            try:
                call()
            except de.DiceError:
                pass
print("done")
"""


def test_every_loop_that_waits_on_dice_has_a_bound():
    # re-rolls, unique dice, explosions and ties whose stopping face is rare or missing: each answers or is
    # refused up front; a child process, so that a loop without a bound fails this test instead of hanging
    done = subprocess.run([sys.executable, "-c", _LOOPS], capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr
