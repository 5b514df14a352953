"""The generic renderers (``render_parts``, ``describe`` and each format's walk over a roll's parts) against the
compiled text writers (``Plan.explainer`` and the dice term's own writers) on GENERATED expressions: the same
marking of every die state (kept, dropped, exploded, re-rolled, a success, a failure, doubled, a critical mark, a
Wild Die's complication, a tie rolled again), in every format and language. Each state is also asked for by name,
so that a marking the two passes write differently cannot hide in a state no generated roll showed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import diceengine as de
from diceengine.renderers.plain import describe, render_parts
from tests.conftest import examples
from tests.test_modifier_pairs import MODS, REFUSED
from tests.test_render_compiled import FORMATS, walked

#: a die state, an expression that shows it, and its mark in the plain text
STATES = [
    ("dropped", "standard", "4d6kh3", {}, "~"),
    ("re-rolled", "standard", "4d6r<3", {}, "~r"),
    ("re-rolled once", "standard", "4d6ro1kh3", {}, "~r"),
    ("unique", "standard", "5d6u", {}, "~r"),
    ("exploded", "standard", "4d6!", {}, "!"),
    ("exploded and dropped", "standard", "4d6!kl1", {}, "!"),
    ("each die ranked", "standard", "4d6!kh2", {"explosions": "dice"}, "!"),
    ("compound", "standard", "4d6!!6>=8", {}, "*"),
    ("penetrating", "standard", "4d6!p>=4", {}, "!"),
    ("success", "standard", "6d6>=4", {}, "*"),
    ("failure", "standard", "6d6>=4f1", {}, "_"),
    ("doubled", "standard", "8d10>=8dbl10", {}, "**"),
    ("doubled, exploding", "standard", "6d10!10>=8dbl10", {}, "**"),
    ("critical success", "standard", "4d20cs>=18", {}, "(cs)"),
    ("critical failure", "standard", "4d20cf<=3kh2", {}, "(cf)"),
    ("clamped", "standard", "4d6mi3ma5kh2", {}, "~"),
    ("re-rolled by rank", "standard", "4d6rol1>=4", {}, "~r"),
    ("added by rank", "standard", "3d6rah1", {}, "!"),
    ("sorted, dropped", "standard", "5d6kh3sd", {}, "~"),
    ("a group's dropped item", "standard", "{2d6, 1d12}kh1", {}, "~"),
    ("a Wild Die's complication", "d6wild", "3D+1 vs 10", {}, "complication"),
    ("a Wild Die exploding", "d6wild", "2D vs 10", {}, "!"),
    ("a highest die removed", "d6wild", "4D vs 15", {"complication": "remove_highest"}, "~"),
    ("a character point", "d6wild", "2D vs 10", {"character_point": True, "character_point_explodes": True}, "+"),
    ("a tie rolled again", "d6", "1D vs 1D", {"tie": "reroll"}, "rolled again"),
    ("a tie rolled again, wild", "d6wild", "1D vs 1D", {"tie": "reroll"}, "rolled again"),
    ("a pool's complication", "d20pool", "4d20<=12 spec 3 vs 2", {}, "*"),
    ("narrative dice", "ffg", "2a1p1b vs 2d1s", {}, "success"),
]


def same_in_both_passes(r: de.Roll) -> None:
    """The compiled text of a roll is the walk's, in every format and language; ``describe`` is
    ``render_parts`` of the roll's parts."""
    w = walked(r)
    for fmt, lang in FORMATS:
        assert r.render(fmt, lang) == w.render(fmt, lang), (r.expression, fmt, lang)
    assert r.render("symbols", emoji=True) == w.render("symbols", emoji=True), r.expression
    for lang in (None, "fr"):
        assert describe(r._plan, r.outcome, r._record, lang) == render_parts(r.parts(), lang), (r.expression, lang)
    assert str(r) == render_parts(r.parts())


@pytest.mark.parametrize("state, system, expr, options, mark", STATES, ids=[s[0] for s in STATES])
def test_every_die_state_is_marked_alike_by_both_passes(state: str, system: str, expr: str, options: dict,
                                                       mark: str) -> None:
    shown = 0
    for seed in range(300):
        r = de.roll(expr, system, seed=seed, **options)
        if mark in str(r).split(": ", 1)[1]:
            same_in_both_passes(r)
            shown += 1
            if shown == 6:
                return
    pytest.fail(f"{state}: no roll of {expr} in 300 seeds shows {mark!r}")


@st.composite
def expressions(draw: Any) -> tuple[str, dict]:
    """A dice term with one or two modifiers of different kinds, a sort or a label, and maybe a second term."""
    first = draw(st.sampled_from(MODS))
    second = draw(st.none() | st.sampled_from([m for m in MODS if m.kind != first.kind
                                                and frozenset({m.kind, first.kind}) not in REFUSED]))
    mods = first.text + (second.text if second is not None else "")
    count, sides = draw(st.integers(1, 5)), draw(st.sampled_from([4, 6, 10]))
    tail = draw(st.sampled_from(["", "s", "sd", "[fire]", "sa[ice]"]))
    more = draw(st.sampled_from(["", " + 2", " + 1d6!", " - 2d4kh1", " + 2d8>=5"]))
    options = {"explosions": draw(st.sampled_from(["unit", "dice"]))}
    return f"{count}d{sides}{mods}{tail}{more}", options


@settings(max_examples=examples(80), deadline=None)
@given(expressions())
def test_generated_rolls_are_written_alike_by_both_passes(case: tuple[str, dict]) -> None:
    expr, options = case
    try:
        de.roll(expr, seed=0, **options)
    except de.DiceError:
        assume(False)
    for seed in range(8):
        same_in_both_passes(de.roll(expr, seed=seed, **options))


@pytest.mark.parametrize("expr", ["2d4r1cs4", "2d4ucs4", "2d4ra4cf1", "2d4mi2cs4", "4d6mi2cs>=5>=4", "4d6r1cs6>=4f1",
                                  "5d6ro<3cf<=2>=3"])
def test_critical_marks_on_units_alike_by_both_passes(expr: str) -> None:
    # a term whose dice are units (re-rolled, unique, added) or whose faces are listed (clamped) writes its marks in
    # its parts as str(roll) does: 4(cs), and after the mark the success marks (4(cs)*)
    shown = 0
    for seed in range(300):
        r = de.roll(expr, seed=seed)
        if "(c" in str(r):
            same_in_both_passes(r)
            shown += 1
    assert shown >= 6


@pytest.mark.parametrize("expr", ["2d4!cs4", "4d6!cs6kh2", "3d6!!cs6", "3d6!p>=5cf1", "4d6!cs6>=4kh2"])
def test_critical_marks_on_exploding_dice_alike_by_both_passes(expr: str) -> None:
    # the mark of an exploding face sits between its value and its '!' (4(cs)!+4(cs)!+2) in the parts too: the
    # face's part holds it (face_marks), so the HTML keeps the die's exploded flag and its mark
    shown = 0
    for seed in range(300):
        r = de.roll(expr, seed=seed)
        if "(c" in str(r):
            same_in_both_passes(r)
            shown += 1
    assert shown >= 6
