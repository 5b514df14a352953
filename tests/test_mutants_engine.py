"""Engine bounds, error positions, the command line and the comparisons (issue 16).

Each bound is tried exactly at its limit (accepted) and one past it (refused); the comparisons are
checked against chances enumerated here and against the numbers the documentation prints (docs/compare.md).
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import diceengine as de
from diceengine import compare
from diceengine.cli import main

from .test_mutants_pools import d20_pool, published_pool

COMPARE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "compare.md"


# ---------------------------------------------------------------- bounds (docs/bounds.md)


def test_nesting_depth_exactly_at_the_bound():
    # 64 levels: 63 unary minus around a number, or 63 additions down the left of a sum
    assert de.roll("-" * 63 + "1").total == -1
    assert de.roll("+".join(["1"] * 64)).total == 64
    with pytest.raises(de.DiceLimitError):
        de.roll("-" * 64 + "1")
    with pytest.raises(de.DiceLimitError):
        de.roll("+".join(["1"] * 65))


def test_dice_count_exactly_at_the_bound():
    r = de.roll("10000d6", seed=1)
    assert len(r.dice) == 10_000 and 10_000 <= r.total <= 60_000
    assert de.roll("5000d6+5000d6", seed=1).total >= 10_000
    assert de.sample("10000d2", 3, seed=1)["total"].min() >= 10_000
    for bad in ("10001d6", "5000d6+5001d6", "1d6+10000d6"):
        with pytest.raises(de.DiceLimitError):
            de.roll(bad)
        with pytest.raises(de.DiceLimitError):
            de.sample(bad, 2, seed=1)
    assert len(de.roll("10000D", "d6", seed=1).dice) == 10_000
    with pytest.raises(de.DiceLimitError):
        de.roll("10001D", "d6")


def test_expression_length_exactly_at_the_bound():
    text = "1d6" + " " * 997
    assert len(text) == 1000
    assert 1 <= de.roll(text, seed=1).total <= 6
    with pytest.raises(de.DiceLimitError):
        de.roll(text + " ")


@pytest.mark.parametrize("expr, system, fault, kind", [
    ("3d6 + 1d0", "standard", "1d0", de.DiceValueError),
    ("2d6 + 1d6r<7", "standard", "r<7", de.DiceLimitError),
    ("2d6+1d1!", "standard", "!", de.DiceLimitError),
    ("1d6 / 0", "standard", "/", de.DiceValueError),
    ("2d20<=21", "d20pool", "21", de.DiceValueError),
    ("2d20<=10 spec 11", "d20pool", "11", de.DiceValueError),
    ("2d20<=10 vs 1-2", "d20pool", "1-2", de.DiceValueError),
    ("7d20<=10", "d20pool", "7d20", de.DiceValueError),
    ("1d20<=10", "d20pool", "1d20", de.DiceValueError),
    ("x + 6d20<=10", "d20pool", "x", de.DiceSyntaxError),
    ("4D vs nowhere", "d6", "nowhere", de.DiceValueError),
    ("2D * 3D", "d6", "*", de.DiceValueError),
    ("4D / 0", "d6", "/", de.DiceValueError),
])
def test_value_errors_point_at_the_fault(expr, system, fault, kind):
    with pytest.raises(kind) as info:
        de.roll(expr, system)
    column = expr.index(fault)
    assert info.value.column == column
    lines = str(info.value).splitlines()
    assert lines[-2] == "  " + expr and lines[-1] == "  " + " " * column + "^"


# ---------------------------------------------------------------- the command line


def test_roll_count_zero_is_an_error(capsys):
    assert main(["roll", "3d6", "-n", "0"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "-n" in out.err
    assert main(["roll", "3d6", "-n", "-1"]) == 2
    assert main(["roll", "3d6", "-n", "2", "--seed", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_rule_with_a_missing_argument_is_an_error(capsys):
    assert main(["rule", "d6", "damage_result", "damage=12"]) == 2
    err = capsys.readouterr().err
    assert "damage_result" in err and "strength" in err
    assert main(["rule", "d6", "damage_result", "damage=12", "strength=5"]) == 0
    assert capsys.readouterr().out.strip() == "incapacitated"  # 12 is at least twice 5, below three times
    assert main(["rule", "d6", "damage_result", "power=3"]) == 2
    assert main(["rule", "d6", "no_such_rule"]) == 2
    proc = subprocess.run([sys.executable, "-m", "diceengine", "rule", "d6", "damage_result", "damage=12"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.startswith("dice: error")
    proc = subprocess.run([sys.executable, "-m", "diceengine", "rule"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_odds_table_columns(capsys):
    assert main(["odds", "2d6"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+)\s+([\d.]+)%\s+([\d.]+)%", line)
        if m:
            rows[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    assert sorted(rows) == list(range(2, 13))
    for total, (p_eq, p_ge) in rows.items():
        eq = Fraction(6 - abs(total - 7), 36)
        ge = sum(Fraction(6 - abs(t - 7), 36) for t in range(total, 13))
        assert p_eq == pytest.approx(float(100 * eq), abs=0.006)
        assert p_ge == pytest.approx(float(100 * ge), abs=0.006)


# ---------------------------------------------------------------- comparisons


def d6wild_chance(dice: int, pips: int, difficulty: int) -> Fraction:
    """P(total >= difficulty): dice - 1 normal d6 and a Wild Die that adds again on each 6 (a 1 counts)."""
    normal: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=dice - 1):
        normal[sum(faces)] = normal.get(sum(faces), Fraction(0)) + Fraction(1, 6 ** (dice - 1))
    wild: dict[int, Fraction] = {}
    for sixes in range(12):  # chains beyond 11 sixes exceed any difficulty here anyway
        for last in range(1, 6):
            wild[6 * sixes + last] = Fraction(1, 6) ** (sixes + 1)
    rest = 1 - sum(wild.values())  # 12 sixes or more: a total of at least 72
    p = sum(pn * pw for n, pn in normal.items() for w, pw in wild.items() if n + w + pips >= difficulty)
    return p + rest


def test_the_docs_compare_numbers():
    ffg_chance = sum(p for o, p in published_pool(["ability", "ability", "proficiency", "difficulty",
                                                   "difficulty"]).items() if o[0] > 0)
    d6_chance = sum(Fraction(1, 6**4) for f in itertools.product(range(1, 7), repeat=4) if sum(f) + 1 >= 15)
    wild_chance = d6wild_chance(4, 1, 15)
    pool_chance = sum(p for (s, _), p in d20_pool(3, 12, 3).items() if s >= 2)
    expected = {"ffg: 2a1p vs 2d": ffg_chance, "d6: 4D+1 vs 15": d6_chance, "d6wild: 4D+1 vs 15": wild_chance,
                "d20pool: 3d20<=12 spec 3 vs 2": pool_chance}
    page = COMPARE_PAGE.read_text(encoding="utf-8")
    for check, chance in expected.items():
        shown = f"{100 * float(chance):.2f}%"
        system, expr = check.split(": ")
        assert compare.success_chance(system, expr) == pytest.approx(float(chance), abs=1e-12)
        assert re.search(re.escape(check) + r"\s+" + re.escape(shown), page), (check, shown)
    assert f"{100 * float(ffg_chance):.2f}%" == "65.08%" and f"{100 * float(wild_chance):.2f}%" == "57.88%"


def test_compare_command_prints_those_numbers(capsys):
    assert main(["compare", "d6wild: 4D+1 vs 15", "ffg: 2a1p vs 2d"]) == 0
    out = capsys.readouterr().out
    assert "57.88%" in out and "65.08%" in out


def test_distance_is_target_minus_source():
    source = Fraction(135, 216)  # 3D vs 10: P(3d6 >= 10)
    chance, matches = compare.convert("3D vs 10", "d6", "ffg", top=10)
    assert chance == pytest.approx(float(source), abs=1e-15)
    assert any(m.distance > 0 for m in matches) and any(m.distance < 0 for m in matches)
    for m in matches:
        assert m.distance == pytest.approx(100 * (m.chance - float(source)), abs=1e-9)
    # one the test can check by hand: the d6 catalogue has 3D vs 10 itself, and 3D+1 vs 10 is easier
    _, back = compare.convert("3D vs 10", "d6", "d6", top=3)
    assert back[0].expression == "3D vs 10" and back[0].distance == pytest.approx(0, abs=1e-12)
    easier = sum(Fraction(1, 216) for f in itertools.product(range(1, 7), repeat=3) if sum(f) + 1 >= 10)
    found = [m for m in compare.convert("3D vs 10", "d6", "d6", top=40)[1] if m.expression == "3D+1 vs 10"]
    assert found and found[0].distance == pytest.approx(float(100 * (easier - source)), abs=1e-9) and easier > source


def test_convert_ladder_honours_the_target_options():
    # without its Wild Die, d6wild throws the same dice as d6: every step of the ladder has an exact match
    table = compare.convert_ladder("d6", "d6wild", target_options={"wild": False})
    assert len(table) == 8 * 4
    assert all(m.distance == pytest.approx(0, abs=1e-9) for _, _, _, m in table)
    with_wild = compare.convert_ladder("d6", "d6wild")
    assert any(abs(m.distance) > 1e-6 for _, _, _, m in with_wild)
    # and the source options: a d6wild ladder without the Wild Die is the d6 chance
    back = compare.convert_ladder("d6wild", "d6", source_options={"wild": False})
    chances = {(label, name): chance for label, name, chance, _ in back}
    assert chances[("2D", "easy")] == pytest.approx(6 / 36, abs=1e-12)  # 2D vs 10 without the Wild Die
    assert chances[("1D", "very easy")] == pytest.approx(2 / 6, abs=1e-12)


def test_catalogue_upper_end():
    # D6: codes 1D to 12D+2 against the ladder (docs/compare.md)
    for name in ("d6", "d6wild"):
        codes = {expr.split(" vs ")[0] for _, expr in de.systems()[name].catalogue()}
        expected = {f"{n}D" + (f"+{p}" if p else "") for n in range(1, 13) for p in range(3)}
        assert codes == expected
    _, matches = compare.convert("12D+2 vs 30", "d6", "d6", top=1)
    assert matches[0].expression == "12D+2 vs 30"
    # FFG: characteristic up to 6 and skill up to 5: six yellow dice against formidable plus two upgrades
    expressions = {expr for _, expr in de.systems()["ffg"].catalogue()}
    assert "1a5p vs 3d2c" in expressions
    # d20 pool: thresholds 2-18, 2-5 dice, difficulty 0-5
    pools = {expr for _, expr in de.systems()["d20pool"].catalogue()}
    assert "5d20<=18 spec 5 vs 5" in pools and "2d20<=2 vs 0" in pools
    assert not any("<=19" in e or "6d20" in e or "vs 6" in e for e in pools)
