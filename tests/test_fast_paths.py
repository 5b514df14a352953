"""The fast paths of a roll must give what the slow ones give.

- A roll's JSON is written directly (:mod:`diceengine.rolljson`, each plan's ``dice_json``), without the
  pydantic model: it must be the very text pydantic writes from ``Roll.model()``, for every system and
  every kind of die (kept, dropped, exploded, re-rolled, labelled, critical, narrative, wild).
- A standard expression's line is written from templates compiled once per node; it must be the line
  the tree's own ``render`` writes.
- A term that only explodes has its own roller; it must throw, record and count as the general one."""

from __future__ import annotations

import json

import pytest
from diceengine.systems.standard.exact import show

import diceengine as de
from diceengine.rolls import roll_json
from tests.peer_corpus import CORPUS

SYSTEMS = [
    ("d6", ["3D+2", "2D vs 1D+2", "4D vs short", "5D/2"]),
    ("d6wild", ["4D+2 vs 15", "1D", "3D+1 vs 2D"]),
    ("d20pool", ["3d20<=12 spec 3 vs 2", "2d20<=20", "4d20<=15 vs 3"]),
    ("ffg", ["2a1p1b vs 2d1s", "1f", "3p2c"]),
]
PEERS = sorted({(e, tuple(sorted(o.items()))) for e, _, o, conflict in CORPUS if conflict is None})


def _same(r: de.Roll) -> None:
    # written directly: no value of these rolls needs pydantic (a fast path that gave up on one, falling back to
    # pydantic's slower and equal JSON, would not show otherwise)
    fast = roll_json(r)
    assert fast == r.model_dump_json() == r.model().model_dump_json()
    data = json.loads(fast)
    assert len(data["dice"]) == len(r.dice)
    assert data["text"] == str(r)


@pytest.mark.parametrize(("system", "expressions"), SYSTEMS)
def test_every_systems_json_is_pydantics(system: str, expressions: list[str]) -> None:
    for expr in expressions:
        for seed in range(12):
            _same(de.roll(expr, system, seed=seed))


MODIFIED = [("1d20cs>=19cf1+5", ()), ("4d6r1!kh3", ()), ("3d6ro<3", ()), ("8d10>=7f1", ()), ("4dF+1", ()),
            ("3d6!p", ()), ("5d6u", ()), ("4d6!kh3", (("explosions", "dice"),)), ("6d6cs6sd", ()),
            ("2d20kh1cs20cf1", ()), ("4d6!!>=8", ()), ("3d6!cs6cf1", ()),
            ("{1d20+5, 1d20+5}kh1", ()), ("{3d20+5}>40", ()), ("{4d6+2d8, 3d20+3, 0d6}kh1", ()),
            ("(1d6, 1d8, 4)kh1 + {2d6!, 1d4}dl1", ())]


@pytest.mark.parametrize(("expr", "options"), PEERS + MODIFIED)
def test_every_peer_expressions_json_is_pydantics(expr: str, options: tuple) -> None:
    for seed in range(8):
        _same(de.roll(expr, seed=seed, **dict(options)))


def test_kept_and_dropped_dice_of_one_kind_are_told_apart() -> None:
    # a plain term writes each face once per kept / dropped state: the two must never be mixed up
    for seed in range(30):
        r = de.roll("4d6kh3 + 3d6dl1[fire]", seed=seed)
        _same(r)
        data = json.loads(r.model_dump_json())["dice"]
        assert [d["kept"] for d in data] == [d.kept for d in r.dice]
        assert sum(not d["kept"] for d in data) == 2
        assert [d["label"] for d in data] == [None] * 4 + ["fire"] * 3


def test_faces_beyond_the_written_table_are_still_written() -> None:
    from diceengine.rolljson import FaceJson

    for seed in range(40):  # d1000: most faces are past the table's limit
        _same(de.roll("6d1000kh2", seed=seed))
    assert len(de.roll("6d1000kh2")._plan.root.term.views._json[0]) <= FaceJson.LIMIT


@pytest.mark.parametrize("expr", ["4d6!", "3d6!!", "2d10!>=9", "5d4!3", "6d6!<2", "1d2!"])
def test_exploding_terms_fast_roller_is_the_general_one(expr: str) -> None:
    # the roller of a term that only explodes must throw, record and count as the general roller does
    import random

    plan = de.roll(expr)._plan
    term = plan.root.term
    fast = term.roller()
    assert fast.__name__ == "roll_explode"
    for seed in range(300):
        a, b = random.Random(seed), random.Random(seed)
        rec_fast: list = []
        rec_general: list = []
        assert fast(a.random, rec_fast) == term.rolls.general(b.random, rec_general)
        assert rec_fast[0][1] == rec_general[0][1]
        assert a.random() == b.random()  # as many numbers drawn


@pytest.mark.parametrize(("expr", "options"), PEERS + [(e, ()) for e in (
    "-(1d8+3)[healing]", "9[bonus]", "1d8+4[piercing] + 2d6[fire]", "2*(3+4)-10/3", "2^3^2", "(2-3)-(4-1d6)",
    "-1d6", "+1d4", "1d6[{odd} label]", "3d6!+2d8r1+4", "{1d20+5, 1d20+5}kh1 + 1d4")])
def test_the_compiled_line_is_the_trees_line(expr: str, options: tuple) -> None:
    for seed in range(3):
        r = de.roll(expr, seed=seed, **dict(options))
        plan = r._plan
        assert str(r) == f"{expr}: {plan.root.render(iter(r._record))} = {show(r.total)}"


def test_a_plan_shared_by_two_spellings_shows_each() -> None:
    # the plan cache shares one plan between spellings of one meaning (a copy showing the other text):
    # the line and the JSON must follow the copy's text, not the text they were first written for
    for first, second in (("1d20+5", "1d20 + 5"), ("1", "(1)"), ("2d6[fire]", "2d6 [fire]"),
                          ("1d20+5 to hit", "1d20 + 5 to hit")):
        for expr in (first, second, first):
            r = de.roll(expr, seed=1)
            assert str(r).startswith(f"{expr}: ")
            data = json.loads(r.model_dump_json())
            assert data["expression"] == expr and data["text"] == str(r)
            assert data["description"] == ("to hit" if expr.endswith("to hit") else None)
            _same(r)


def test_exploding_dice_are_written_as_the_notation_guide_shows() -> None:
    from tests.helpers import Scripted

    assert str(de.roll("3d6!", seed=Scripted([6, 2, 3, 6, 6, 1]))) == "3d6!: [6!+2, 3, 6!+6!+1] = 24"
    assert str(de.roll("2d6!![fire]", seed=Scripted([6, 6, 1, 4]))) == "2d6!![fire]: [6!+6!+1, 4] (fire) = 17"
