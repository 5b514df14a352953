"""The standard notation's text and dice JSON written by the functions chosen once per term and per plan (a face
table for one die, a %-format for a few, one format per struck die, two-item groups, the line compiled per plan)
are the general writers' texts: the hand-written lines below (ties included: the first lowest die is struck by
a keep-highest, the last highest by a keep-lowest), the plain text of a term's parts and each die's JSON written
one by one, in English and French, and for a plan shown under another spelling."""

from __future__ import annotations

import copy
import json

import pytest

import diceengine as de
from diceengine.renderers.plain import render_parts
from diceengine.rolljson import dice_json
from tests.helpers import Scripted


@pytest.mark.parametrize(("expr", "faces", "sides", "line"), [
    ("1d20+5", [13], 20, "1d20+5: [13] + 5 = 18"),
    ("2d20kh1", [7, 7], 20, "2d20kh1: [~7~, 7] = 7"),
    ("2d20kh1", [3, 17], 20, "2d20kh1: [~3~, 17] = 17"),
    ("2d20kh1", [17, 3], 20, "2d20kh1: [17, ~3~] = 17"),
    ("2d20kl1", [7, 7], 20, "2d20kl1: [7, ~7~] = 7"),
    ("2d20kl1+5", [17, 3], 20, "2d20kl1+5: [~17~, 3] + 5 = 8"),
    ("4d6kh3", [3, 1, 1, 5], 6, "4d6kh3: [3, ~1~, 1, 5] = 9"),
    ("4d6dl1", [2, 2, 2, 2], 6, "4d6dl1: [~2~, 2, 2, 2] = 6"),
    ("4d6kl3", [6, 2, 6, 1], 6, "4d6kl3: [6, 2, ~6~, 1] = 9"),
    ("4d6dh1", [6, 6, 6, 6], 6, "4d6dh1: [6, 6, 6, ~6~] = 18"),
    ("3d6[50%]", [1, 2, 3], 6, "3d6[50%]: [1, 2, 3] (50%) = 6"),
    ("1d6[{x}]+2", [4], 6, "1d6[{x}]+2: [4] ({x}) + 2 = 6"),
    ("4d6kh3[%s]", [5, 1, 4, 4], 6, "4d6kh3[%s]: [5, ~1~, 4, 4] (%s) = 13"),
    ("3d6!", [6, 2, 3, 6, 6, 1], 6, "3d6!: [6!+2, 3, 6!+6!+1] = 24"),
    ("4d6!", [1, 5, 2, 3], 6, "4d6!: [1, 5, 2, 3] = 11"),
    ("5d10>=7", [7, 1, 10, 6, 8], 10, "5d10>=7: [7*, 1, 10*, 6, 8*] = 3"),
    ("(1d20+5, 1d20+5)kh1", [7, 15], 20, "(1d20+5, 1d20+5)kh1: (~[7] + 5 = 12~, [15] + 5 = 20)kh1 = 20"),
    ("(1d20+5, 1d20+5)kh1", [15, 7], 20, "(1d20+5, 1d20+5)kh1: ([15] + 5 = 20, ~[7] + 5 = 12~)kh1 = 20"),
    ("(1d20+5, 1d20+5)kh1", [9, 9], 20, "(1d20+5, 1d20+5)kh1: (~[9] + 5 = 14~, [9] + 5 = 14)kh1 = 14"),
    ("(1d20+5, 1d20+5)kl1", [7, 15], 20, "(1d20+5, 1d20+5)kl1: ([7] + 5 = 12, ~[15] + 5 = 20~)kl1 = 12"),
    ("(1d20+5, 1d20+5)", [7, 15], 20, "(1d20+5, 1d20+5): ([7] + 5 = 12, [15] + 5 = 20) = 32"),
    ("(1d20+5, 1d20+5)kh0", [7, 15], 20, "(1d20+5, 1d20+5)kh0: (~[7] + 5 = 12~, ~[15] + 5 = 20~)kh0 = 0"),
    ("{1d20[a], 1d20[b]}kh1 + 1", [4, 11], 20, "{1d20[a], 1d20[b]}kh1 + 1: {~[4] (a) = 4~, [11] (b) = 11}kh1 + 1 = 12"),
    ("(1d20+0.5, 1d20+0.5)kh1", [4, 11], 20, "(1d20+0.5, 1d20+0.5)kh1: (~[4] + 0.5 = 4.5~, [11] + 0.5 = 11.5)kh1 = 11.5"),
    ("1d8+4[piercing] + 2d6[fire]", [(3, 8), (6, 6), (2, 6)], 6,
     "1d8+4[piercing] + 2d6[fire]: [3] + 4 (piercing) + [6, 2] (fire) = 15"),
])
def test_lines_as_written_by_hand(expr: str, faces: list, sides: int, line: str) -> None:
    for lang in (None, "fr"):  # the standard notation has no words: the same line in French
        r = de.roll(expr, seed=Scripted(faces, sides), lang=lang)
        assert str(r) == line
        data = json.loads(r.model_dump_json())
        assert data["text"] == line
        assert data["dice"] == json.loads(r.model().model_dump_json())["dice"]


TERMS = ["1d20", "1d6[fire]", "3d6", "2d6[50%]", "32d6", "33d6", "2d4kh1", "2d4kl1", "2d4dl1", "2d4dh1", "4d4kh3",
         "4d4kl3", "4d4dl1", "4d4dh1[x]", "5d4kh2", "5d4dl2", "3d2kl2", "33d4kh32", "4d6!", "6d6!!", "3d6![fire]",
         "8d10>=7", "8d10>=7[x]", "10d10>=8f1", "1d20kh1", "3d6kh3", "1d20cs>=19", "4d6cs6cf1kh3", "6d10>=8cs10",
         "5d10>=7dbl10", "2d8r1", "4d6!kh3", "3d6sd", "4d10!>=8cs10cf1", "6d6dl2dh1"]


@pytest.mark.parametrize("expr", TERMS)
def test_a_terms_text_and_json_are_the_general_ones(expr: str) -> None:
    for seed in range(150):
        r = de.roll(expr, seed=seed)
        ((owner, data),) = r._record
        assert owner.render(data) == render_parts(owner.parts(data))  # the plain text of the term's parts
        dice = owner.dice(data)
        assert owner.dice_json(data) == dice_json(dice)  # each die's JSON written one by one
        assert owner.dice_json(data, True) == dice_json([d._replace(kept=False) for d in dice])


@pytest.mark.parametrize("expr", ["1d20+5", "(1d20+5, 1d20+5)kh1", "3d6+2d8+4", "1d8+4[piercing] + 2d6[fire]",
                                  "2d20kh1+5", "4d6!", "1+2", "(1d4)d6", "-1d6", "{1d6, 2d8}kh1 + 1d4"])
def test_the_compiled_line_is_the_same_in_english_and_french(expr: str) -> None:
    for seed in range(40):
        en, fr = de.roll(expr, seed=seed), de.roll(expr, seed=seed, lang="fr")
        text = f"{expr}: {en._plan.root.render(iter(en._record))} = {en.render('markdown').rsplit('**', 2)[1]}"
        assert str(en) == str(fr) == fr.render("plain", "en") == en.render("plain", "fr") == text
        assert json.loads(fr.model_dump_json())["text"] == text


def test_a_respelled_copy_of_a_plan_writes_its_own_spelling() -> None:
    # the plan cache shows one plan under another spelling through a shallow copy whose expression it sets:
    # the line compiled for the first spelling must not follow the copy
    plan = de.roll("1d20+5")._plan
    outcome, record = plan.roll(Scripted([12], 20))
    assert plan.describe(outcome, record) == "1d20+5: [12] + 5 = 17"
    other = copy.copy(plan)
    other.expression = "1d20 + 5"
    assert other.describe(outcome, record) == "1d20 + 5: [12] + 5 = 17"
    assert plan.describe(outcome, record) == "1d20+5: [12] + 5 = 17"
