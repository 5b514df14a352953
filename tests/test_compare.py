"""Comparing systems: profiles, the converter, ladders and plots, all from exact distributions."""

from __future__ import annotations

import itertools
import json
import re
import struct
from fractions import Fraction
from pathlib import Path

import pytest

import diceengine as de
from diceengine import compare
from diceengine.cli import main
from tests.test_d20pool import d20_pool
from tests.test_ffg import published_pool


def test_known_value():
    assert compare.success_chance("d6", "3D vs 10") == pytest.approx(5 / 8, abs=1e-15)


def test_profiles_read_each_system():
    p = compare.profile("d6wild", "4D+1 vs 15")
    assert p.flags["complication"] == pytest.approx(1 / 6, abs=1e-12)
    assert p.mean_field == "margin"
    f = compare.profile("ffg", "2a1p vs 2d")
    assert f.mean_field == "success" and f.flags["triumph"] == pytest.approx(1 / 12)
    # 2a1p vs 2d, enumerated over the published faces (tests/test_ffg.py)
    assert f.success == pytest.approx(float(sum(p for o, p in published_pool(
        ["ability", "ability", "proficiency", "difficulty", "difficulty"]).items() if o[0] > 0)), abs=1e-12)
    d = compare.profile("d20pool", "3d20<=12 spec 3 vs 2")
    assert d.success == pytest.approx(0.72, abs=1e-12)
    assert compare.profile("standard", "3d6").success is None


def test_converter_finds_an_exact_match():
    chance, matches = compare.convert("4D+1 vs 15", "d6", "d6wild", target_options={"wild": False})
    assert matches[0].expression == "4D+1 vs 15"
    assert matches[0].distance == pytest.approx(0.0, abs=1e-12)
    assert matches[0].chance == pytest.approx(chance, abs=1e-15)


def test_converter_is_ordered_and_symmetric():
    chance, matches = compare.convert("4D+1 vs 15", "d6", "ffg", top=10)
    distances = [abs(m.distance) for m in matches]
    assert distances == sorted(distances)
    best = matches[0]
    assert (best.chance - chance) * 100 == pytest.approx(best.distance)  # target minus source
    # converting back lands within the same distance: the source check is in the d6 catalogue
    back_chance, back = compare.convert(best.expression, "ffg", "d6")
    assert abs(back[0].chance - back_chance) <= abs(best.chance - chance) + 1e-12


@pytest.mark.slow
def test_converter_search_is_exhaustive():
    # the best match is no worse than any check of the catalogue
    chance, matches = compare.convert("2a1p vs 2d", "ffg", "d20pool", top=1)
    for label, expr in de.systems()["d20pool"].catalogue()[::97]:
        assert abs(matches[0].chance - chance) <= abs(compare.success_chance("d20pool", expr) - chance) + 1e-15


def test_ladders():
    names, rows = compare.ladder("d6wild")
    assert names == ["very easy", "easy", "moderate", "difficult", "very difficult", "heroic"]
    for _, chances in rows:  # harder is never easier
        assert all(b <= a + 1e-12 for a, b in itertools.pairwise(chances))
    for col in zip(*(c for _, c in rows)):  # more dice is never worse
        assert all(b >= a - 1e-12 for a, b in itertools.pairwise(col))
    names, rows = compare.ladder("d6")
    assert dict(rows)["3D"][1] == pytest.approx(5 / 8)  # 3D vs short (10)
    table = compare.convert_ladder("d6", "ffg")
    assert len(table) == 8 * 4
    assert all(0 <= c <= 1 and 0 <= m.chance <= 1 for _, _, c, m in table)


def test_compare_command(capsys):
    code = main(["compare", "d6: 4D+1 vs 15", "d6wild: 4D+1 vs 15", "d20pool: 3d20<=12 spec 3 vs 2", "ffg: 2a1p vs 2d"])
    assert code == 0
    out = capsys.readouterr().out
    assert "55.63%" in out and "complication 16.67%" in out and "triumph 8.33%" in out
    assert main(["compare", "d6: 3D vs 10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["success"] == pytest.approx(0.625)


def test_convert_and_ladder_commands(capsys):
    assert main(["convert", "4D+1 vs 15", "--from", "d6", "--to", "ffg", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chance"] == pytest.approx(compare.success_chance("d6", "4D+1 vs 15"))
    assert len(data["matches"]) == 5
    assert main(["convert", "d6: 3D vs 10", "--to", "d6wild", "--to-option", "wild=false", "--top", "1"]) == 0
    assert "3D vs 10" in capsys.readouterr().out
    assert main(["convert", "--from", "d6", "--to", "d20pool", "--ladder"]) == 0
    assert "point blank" in capsys.readouterr().out
    assert main(["ladder", "--system", "ffg", "--json"]) == 0
    assert "formidable" in capsys.readouterr().out
    assert main(["convert", "3d6", "--from", "standard", "--to", "ffg"]) == 2


def test_rule_command(capsys):
    assert main(["rule", "d6", "damage_result", "damage=12", "strength=7"]) == 0
    assert capsys.readouterr().out.strip() == "wounded"
    assert main(["rule", "d20pool", "force_power_cost", "successes=5", "alignment=matching", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"force_points": 1, "impulsion": 1}
    assert main(["rule", "d6", "multiple_action_codes", "code=5D+1", "declared=3", "running=true"]) == 0
    assert capsys.readouterr().out.strip() == "2D+1, 2D+1, 2D+1"
    assert main(["rule", "ffg", "minions_defeated", "damage=16", "soak=5", "wound_threshold=5", "group_size=4"]) == 0
    assert capsys.readouterr().out.strip() == "2"
    assert main(["rule", "d6", "round_penalties", "declared=3", "reactions_after=1"]) == 0
    assert capsys.readouterr().out.strip() == "2, 3, 3, 3"
    assert main(["rule", "ffg"]) == 0 and "build_pool" in capsys.readouterr().out
    assert main(["rule", "d6", "nope"]) == 2
    assert main(["rule", "d6", "damage_result", "dmg=3"]) == 2


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("argv", [["odds", "3d6"], ["compare", "d6: 3D vs 10", "ffg: 2a vs 1d"], ["ladder", "--system", "d6"]])
def test_plots_render_png(tmp_path, argv, capsys):
    pytest.importorskip("matplotlib")
    from diceengine.plots import DPI, FIGSIZE

    out = tmp_path / "plot.png"
    assert main([*argv, "--plot", str(out)]) == 0
    assert png_size(out) == (int(FIGSIZE[0] * DPI), int(FIGSIZE[1] * DPI))


def test_a_sure_check_is_a_probability_not_more():
    # 8D against point blank (5) sums to 1.0000000000000002 in floats; a chance never leaves [0, 1]
    dist = de.distribution("8D vs 5", system="d6")
    assert dist.chance("success") == 1.0
    assert dist.at_least(-10**9, "margin") == 1.0
    assert dist.probability(lambda o: True) == 1.0


COMPARE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "compare.md"


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
