"""Plans' explainers (``Plan.explainer``: a plan's ``explain`` compiled per format and language, for
speed) write exactly what the renderers write of the plan's parts.

The reference is the renderers' own walk over ``roll.parts()``: the same roll is rendered through a
plan that has no explainer, in every format and language, for many seeded rolls of every system and
of the notation's modifiers (drops, explosions, re-rolls, success counts, critical marks, labels,
sorting, computed dice, a Wild Die's complication and character point, ties rolled again).
"""

from __future__ import annotations

from typing import Any

import pytest

import diceengine as de
from diceengine import Plan
from diceengine.parts import Dice, Group
from diceengine.renderers.plain import render_parts

CASES = [
    ("standard", "4d6kh3", {}), ("standard", "8d10>=7f1", {}), ("standard", "3d6!+2d8r1+4", {}),
    ("standard", "3d6+2", {}), ("standard", "2d20kl1+5", {}), ("standard", "3d6[fire] + 1d4", {}),
    ("standard", "4dF", {}), ("standard", "6d6!!", {}), ("standard", "5d10>=8f<=2!", {}),
    ("standard", "2d20>=15cf1", {}), ("standard", "5d10>=7cs10", {}), ("standard", "4d6kh3sd", {}),
    ("standard", "(1d4)d6", {}), ("standard", "{1d6, 2d8}kh1", {}), ("standard", "2*(3d6+1)-4/2", {}),
    ("standard", "-(1d6)", {}), ("standard", "10d6!>=5", {}), ("standard", "4d6r<3kh2", {}),
    ("standard", "4d6!kh2", {"explosions": "dice"}), ("standard", "4d6!sd", {}), ("standard", "3d6r<2sa", {}), ("standard", "5d6k2[<b>]", {}), ("standard", "d%", {}),
    ("d6", "4D+2", {}), ("d6", "3D vs 2D+2", {}), ("d6", "5D+1 - 2D vs short", {}), ("d6", "2D-1 vs 3", {}),
    ("d6", "3D vs 3D", {"tie": "reroll"}), ("d6", "5D+2 vs 10+4D+1", {}),
    ("d6wild", "4D+2 vs 15", {}), ("d6wild", "1D", {}), ("d6wild", "3D+2 vs 2D+1", {}), ("d6wild", "6D-2 vs 20", {}),
    ("d6wild", "4D+2 vs 15", {"complication": "remove_highest"}), ("d6wild", "1D vs 5", {"complication": "remove_highest"}),
    ("d6wild", "3D vs 10", {"character_point": True, "character_point_explodes": True}),
    ("d6wild", "3D vs 3D", {"tie": "reroll"}), ("d6wild", "4D+2 vs Très facile", {"complication": "none"}),
    ("d20pool", "2d20<=12", {}), ("d20pool", "3d20<=12 spec 3 vs 2", {}), ("d20pool", "5d20<=15 spec 5 vs 4", {}),
    ("ffg", "2a1p1b vs 2d1s", {}), ("ffg", "3p2c vs 2d", {}), ("ffg", "5f", {}),
    ("ffg", "yyygg vs ppr", {"letters": "colour"}),
]
FORMATS = [("plain", None), ("plain", "fr"), ("markdown", None), ("markdown", "fr"), ("html", None),
           ("html", "fr"), ("symbols", None), ("symbols", "fr")]


class Walked(Plan):
    """A plan's parts without its explainer: what the renderers write walking the parts."""

    def __init__(self, plan: Any) -> None:
        self.plan = plan

    def roll(self, rng: Any) -> Any:
        raise AssertionError("not rolled")

    def dice(self, record: Any) -> Any:
        return self.plan.dice(record)

    def explain(self, outcome: Any, record: Any) -> Any:
        return self.plan.explain(outcome, record)

    def describe(self, outcome: Any, record: Any) -> str:
        return render_parts(self.explain(outcome, record))

    def sample(self, n: int, rng: Any) -> Any:
        raise AssertionError("not sampled")

    def distribution(self) -> Any:
        raise AssertionError("no odds")


def walked(r: de.Roll) -> de.Roll:
    return de.Roll(Walked(r._plan), r.outcome, r._record, r.expression, r.system, r.lang)


@pytest.mark.parametrize(("system", "expr", "options"), CASES, ids=[f"{s}:{e}:{o}" for s, e, o in CASES])
def test_explainer_writes_what_the_walk_writes(system: str, expr: str, options: dict) -> None:
    for seed in range(40):
        r = de.roll(expr, system, seed=seed, **options)
        w = walked(r)
        for fmt, lang in FORMATS:
            assert r.render(fmt, lang) == w.render(fmt, lang), (seed, fmt, lang)
        assert r.render("symbols", emoji=True) == w.render("symbols", emoji=True), seed
        assert str(r) == str(w), seed


def test_the_standard_notation_writes_no_words() -> None:
    """A plan saying its parts hold no words (``language_free``) has the same plain text in every language."""
    for expr, _ in [("4d6kh3", 0), ("8d10>=7f1", 0), ("3d6!+2d8r1+4[fire]", 0), ("2d20cs>19", 0)]:
        for seed in range(20):
            r = de.roll(expr, seed=seed)
            walked_fr = walked(r).render("plain", "fr")
            assert r.render("plain", "fr") == walked_fr == str(r)


class Texts(Walked):
    """A plan whose explainer only keeps the ``text`` function it is given."""

    text: Any = None

    def describe(self, outcome: Any, record: Any) -> str:
        return Plan.describe(self, outcome, record)  # through the explainer

    def explainer(self, text: Any) -> Any:
        type(self).text = staticmethod(text)
        return lambda outcome, record: "compiled"


@pytest.mark.parametrize(("fmt", "lang"), FORMATS)
def test_a_run_of_dice_is_its_dice_joined_by_its_separator(fmt: str, lang: str | None) -> None:
    """The rule :func:`diceengine.parts.dice_writer` relies on, in every format."""
    r = de.roll("3d6", seed=1)
    fake = de.Roll(Texts(r._plan), r.outcome, r._record, r.expression, "standard")
    assert "compiled" in fake.render(fmt, lang)
    text = Texts.text
    for kind, sides, values, sep, label in [("d6", 6, (6, 1, 3), " + ", None), ("d20", 20, (20, 7), ", ", "a<b>"),
                                            ("d10", 10, (10, 10, 1, 5), "*", "fire")]:
        one = [text(Dice(kind, sides, (v,), sep, label)) for v in values]
        assert text(Dice(kind, sides, values, sep, label)) == text(sep).join(one)
    assert text(Group(("4d6",), "expression")) != ""


def test_functions_and_comparisons_in_every_format() -> None:
    """The function's own parts (name, arguments, separators), written out: the walk and the compiled text share
    them, so only a text written here can tell a wrong one."""
    from tests.helpers import Scripted

    r = de.roll("floor(1d6/2)+max(1d6, 2)", seed=Scripted([5, 3]))
    assert r.outcome.total == 5
    assert str(r) == "floor(1d6/2)+max(1d6, 2): floor([5] / 2) + max([3], 2) = 5"
    assert r.render("markdown") == "`floor(1d6/2)+max(1d6, 2)`: floor([**5**] / 2) + max([**3**], 2) = **5**"
    assert walked(r).render("markdown") == r.render("markdown")
    html = r.render("html")
    assert "floor([<span" in html and "] / 2) + max([<span" in html and "], 2) = <strong" in html


def test_computed_dice_and_counted_groups_written_out() -> None:
    """Computed sides (the count written as typed) and a group counting successes and failures (``*`` and ``_``
    after each item's value), in plain text and Markdown, from dice thrown by hand."""
    from tests.helpers import Scripted

    r = de.roll("2d(1d4+2)", seed=Scripted([2, 1, 4], sides=4))  # 1d4 shows 2: two d4 show 1 and 4
    assert str(r) == "2d(1d4+2): 2d([2] + 2)=[1, 4] = 5"
    assert r.render("markdown") == "`2d(1d4+2)`: 2d([**2**] + 2)=[**1**, ***4***] = **5**"
    r = de.roll("{1d20, 1d20+1, 1d20}>=15f<=2", seed=Scripted([20, 1, 1], sides=20))
    assert str(r) == "{1d20, 1d20+1, 1d20}>=15f<=2: {[20] = 20*, [1] + 1 = 2_, [1] = 1_}>=15f<=2 = -1"
    assert r.render("markdown") == ("`{1d20, 1d20+1, 1d20}>=15f<=2`: {[***20***] = 20\\*, [**1**] + 1 = 2\\_, "
                                    "[**1**] = 1\\_}>=15f<=2 = **-1**")
