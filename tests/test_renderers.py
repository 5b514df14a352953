"""Renderings of every system (plain, Markdown, HTML, symbols) on scripted dice, in English and French.

The dice are scripted (a generator that throws given faces), so every expected line is written here
by hand from the faces thrown and the rule texts' arithmetic, not copied from the engine.
"""

from __future__ import annotations

import random

import pytest

import diceengine as de
from diceengine import renderers
from diceengine.renderers.markdown import escape


class Thrown(random.Random):
    """A generator (accepted as a seed) that throws the given ``(face, sides)`` in order; narrative
    faces are 1-based positions in the published face tables."""

    def __init__(self, faces: list[tuple[int, int]]) -> None:
        super().__init__(0)
        self._draws = [(f - 0.5) / sides for f, sides in faces]

    def random(self) -> float:
        return self._draws.pop(0)


def d(sides: int, *faces: int) -> list[tuple[int, int]]:
    return [(f, sides) for f in faces]


# published face tables (rules README), 1-based positions used below:
# proficiency 12 = Triumph; ability 1 = blank, 4 = S+S; boost 3 = S; difficulty 4 = T, 8 = F+T; setback 3 = F
FFG_FACES = [(12, 12), (1, 8), (4, 8), (3, 6), (4, 8), (8, 8), (3, 6)]


def roll(expr: str, system: str, faces: list[tuple[int, int]], **kw: object) -> de.Roll:
    return de.roll(expr, system, seed=Thrown(faces), **kw)


def test_standard_keep_drop():
    r = roll("4d6kh3", "standard", d(6, 1, 6, 5, 2))
    assert r.render() == str(r) == "4d6kh3: [~1~, 6, 5, 2] = 13"
    assert r.render("markdown") == "`4d6kh3`: [~~1~~, ***6***, **5**, **2**] = **13**"
    assert r.render("symbols") == "4d6kh3: [~⚀~, ⚅, ⚄, ⚁] = 13"
    assert r.render("html") == (
        '<span class="dice-roll dice-standard" lang="en"><code class="dice-expression">4d6kh3</code>: ['
        '<span class="die die-d6 dropped">1</span>, <span class="die die-d6 kept critical">6</span>, '
        '<span class="die die-d6 kept">5</span>, <span class="die die-d6 kept">2</span>] = '
        '<strong class="dice-result">13</strong></span>')


def test_standard_successes_explosions_rerolls_and_labels():
    r = roll("8d10>=7f1", "standard", d(10, 10, 10, 1, 1, 9, 8, 7, 4))
    assert str(r) == "8d10>=7f1: [10*, 10*, 1_, 1_, 9*, 8*, 7*, 4] = 3"
    assert r.render("markdown") == ("`8d10>=7f1`: [***10***\\*, ***10***\\*, **1**\\_, **1**\\_, **9**\\*, **8**\\*, "
                                    "**7**\\*, **4**] = **3**")
    r = roll("2d6r1!+1", "standard", d(6, 1, 6, 3, 4))
    assert str(r) == "2d6r1!+1: [~1~r 6!+3, 4] + 1 = 14"
    assert r.render("markdown") == "`2d6r1!+1`: [~~1~~r ***6***!+**3**, **4**] + 1 = **14**"
    assert r.render("symbols") == "2d6r1!+1: [~⚀~r ⚅!+⚂, ⚃] + 1 = 14"
    r = roll("2d6[<b>]", "standard", d(6, 2, 3))
    html = r.render("html")
    assert "<b>" not in html and "&lt;b&gt;" in html and 'title="&lt;b&gt;"' in html


def test_fudge_symbols():
    r = roll("3dF", "standard", d(3, 1, 2, 3))
    assert str(r) == "3dF: [-1, 0, 1] = 0"
    assert r.render("symbols") == "3dF: [⊟, ▢, ⊞] = 0"


def test_d6_opposed_in_both_languages():
    r = roll("3D vs 2D+2", "d6", d(6, 3, 1, 4, 1, 3))
    assert str(r) == "3D vs 2D+2: 3 + 1 + 4 = 8 against 1 + 3 + 2 = 6, success by 2"
    assert r.render(lang="fr") == "3D vs 2D+2: 3 + 1 + 4 = 8 contre 1 + 3 + 2 = 6, réussite de 2"
    assert r.render("markdown") == "`3D vs 2D+2`: **3** + **1** + **4** = 8 against **1** + **3** + 2 = 6, **success by 2**"
    assert r.render("symbols") == "3D vs 2D+2: ⚂ + ⚀ + ⚃ = 8 against ⚀ + ⚂ + 2 = 6, success by 2"


def test_d6wild_the_design_cards_line():
    r = roll("4D+2 vs 15", "d6wild", d(6, 3, 5, 1, 6, 4))
    assert str(r) == "4D+2 vs 15: 3 + 5 + 1 + wild 6!+4 + 2 = 21, success by 6"
    assert r.render(lang="fr") == "4D+2 vs 15: 3 + 5 + 1 + Dé Libre 6!+4 + 2 = 21, réussite de 6"
    assert r.render("markdown") == "`4D+2 vs 15`: **3** + **5** + **1** + wild ***6***!+**4** + 2 = 21, **success by 6**"
    assert r.render("symbols") == "4D+2 vs 15: ⚂ + ⚄ + ⚀ + wild ⚅!+⚃ + 2 = 21, success by 6"
    html = r.render("html")
    assert '<span class="die die-wild kept exploded wild critical">6!</span>+' in html
    assert '<span class="die die-wild kept wild added">4</span>' in html


def test_d6wild_complication_removed_in_french():
    # remove_highest: the Wild Die's 1 and the highest other die (5) leave the total
    r = roll("4D+2 vs Très facile", "d6wild", d(6, 3, 5, 2, 1), complication="remove_highest", lang="fr")
    assert str(r) == "4D+2 vs Très facile: 3 + ~5~ + 2 + Dé Libre ~1~ (complication) + 2 = 7, réussite de 2"
    assert r.render("markdown", "en") == ("`4D+2 vs Très facile`: **3** + ~~5~~ + **2** + wild ~~1~~ (complication) + 2"
                                          " = 7, **success by 2**")


def test_d20pool_marks_and_crits():
    r = roll("3d20<=12 spec 3 vs 2", "d20pool", d(20, 3, 17, 16))
    assert str(r) == "3d20<=12 spec 3 vs 2: [3**, 17, 16] = 2 successes, success"
    r = roll("2d20<=12 vs 1", "d20pool", d(20, 20, 1))
    assert str(r) == "2d20<=12 vs 1: [20!, 1**] = 2 successes, 1 complication, success, 1 Impulsion"
    assert r.render(lang="fr") == "2d20<=12 vs 1: [20!, 1**] = 2 succès, 1 complication, succès, 1 Impulsion"
    # the natural 1 is the critical; the 20 is a complication, not a crit
    assert r.render("markdown") == ("`2d20<=12 vs 1`: [**20**!, ***1***\\*\\*] = 2 successes, 1 complication, "
                                    "**success**, 1 Impulsion")
    html = r.render("html")
    assert '<span class="die die-d20 kept complication">20!</span>' in html
    assert '<span class="die die-d20 kept critical success">1**</span>' in html
    assert r.render("symbols") == str(r)  # no symbols declared for the d20: written as in plain text


def test_ffg_every_format():
    r = roll("2a1p1b vs 2d1s", "ffg", FFG_FACES)
    plain = ("2a1p1b vs 2d1s: [proficiency triumph, ability blank, ability success + success, boost success, "
             "difficulty threat, difficulty failure + threat, setback failure] = 2 successes, 2 threat, 1 triumph, "
             "succeeded")
    assert str(r) == plain
    assert (r.success, r.advantage, r.triumph) == (2, -2, 1)
    assert r.render(lang="fr") == (
        "2a1p1b vs 2d1s: [compétence : triomphe, capacité : vierge, capacité : succès + succès, fortune : succès, "
        "difficulté : menace, difficulté : échec + menace, revers : échec] = 2 succès, 2 menaces, 1 triomphe, réussite")
    assert r.render("markdown") == (
        "`2a1p1b vs 2d1s`: [***proficiency triumph***, **ability blank**, **ability success + success**, "
        "**boost success**, **difficulty threat**, **difficulty failure + threat**, **setback failure**] = "
        "**2 successes, 2 threat, 1 triumph, succeeded**")
    assert r.render("symbols") == "2a1p1b vs 2d1s: [🟨 ⍟, 🟩 ·, 🟩 ✹✹, 🟦 ✹, 🟪 ▼, 🟪 ✖▼, ⬛ ✖] = 2 successes, 2 threat, 1 triumph, succeeded"
    assert r.render("symbols", emoji=True).startswith(
        "2a1p1b vs 2d1s: [:proficiency: :triumph:, :ability: :blank:, :ability: :success::success:, ")
    custom = r.render("symbols", symbols={"triumph": "<:tri:1>", "ability": "G"})
    assert custom.startswith("2a1p1b vs 2d1s: [🟨 <:tri:1>, G ·, G ✹✹, ")
    html = r.render("html", "fr")
    assert html.startswith('<span class="dice-roll dice-ffg" lang="fr"><code class="dice-expression">2a1p1b vs 2d1s'
                           '</code>: [<span class="die die-proficiency kept critical triumph">compétence : triomphe</span>')
    assert '<span class="die die-difficulty kept failure threat">difficulté : échec + menace</span>' in html
    assert html.endswith('<strong class="dice-result">2 succès, 2 menaces, 1 triomphe, réussite</strong></span>')


def test_colour_letters_render_the_same_dice():
    faces = [(12, 12), (4, 8), (3, 6)]
    a = roll("1y1g vs 1k", "ffg", faces, letters="colour")
    b = roll("1p1a vs 1s", "ffg", faces)
    assert a.render("symbols").split(": ", 1)[1] == b.render("symbols").split(": ", 1)[1] == "[🟨 ⍟, 🟩 ✹✹, ⬛ ✖] = 2 successes, 1 triumph, succeeded"


def test_roll_does_no_rendering_work(monkeypatch):
    from diceengine.api import plan

    prepared = plan("4d6kh3")

    def refuse(*args: object) -> list:
        raise AssertionError("rendering on the hot path")

    monkeypatch.setattr(prepared, "explain", refuse)
    monkeypatch.setattr(prepared, "explainer", refuse)
    monkeypatch.setattr(renderers.markdown, "_WRITERS", {})  # nothing compiled for this plan yet
    r = de.roll("4d6kh3", seed=1, lang="fr")  # no text built
    assert r.total == 13
    with pytest.raises(AssertionError):
        r.render("markdown")


def test_unknown_format_and_language():
    r = de.roll("1d6", seed=1)
    with pytest.raises(de.DiceError, match="unknown format"):
        r.render("pdf")
    with pytest.raises(de.DiceError, match="no catalogue"):
        r.render(lang="tlh")


def test_markdown_escapes():
    assert escape("a*b_c~d`e|f\\") == "a\\*b\\_c\\~d\\`e\\|f\\\\"
