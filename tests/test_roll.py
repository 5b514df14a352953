"""One roll: every die explained, the human line, the JSON view."""

from __future__ import annotations

import json

import pytest

import diceengine as de


def test_roll_keeps_every_die():
    r = de.roll("4d6kh3", seed=1)
    assert len(r.dice) == 4
    kept = [d.value for d in r.dice if d.kept]
    dropped = [d for d in r.dice if d.dropped]
    assert len(kept) == 3 and len(dropped) == 1
    assert dropped[0].value <= min(kept)
    assert r.total == sum(kept) == r.outcome.total
    assert str(r).startswith("4d6kh3: [") and str(r).endswith(f"= {r.total}")


@pytest.mark.parametrize("seed", range(30))
def test_totals_match_the_recorded_dice(seed):
    r = de.roll("3d6+2d8+4", seed=seed)
    assert r.total == sum(d.value for d in r.dice) + 4
    r = de.roll("6d6!", seed=seed)
    assert r.total == sum(d.value for d in r.dice)
    assert sum(d.added for d in r.dice) == sum(d.exploded for d in r.dice)
    assert all(d.value == 6 for d in r.dice if d.exploded)
    r = de.roll("5d6r<3", seed=seed)
    assert all(d.value < 3 for d in r.dice if d.rerolled)
    assert all(d.value >= 3 for d in r.dice if d.kept)
    r = de.roll("8d10>=7f1", seed=seed)
    assert r.total == sum(d.value >= 7 for d in r.dice) - sum(d.value == 1 for d in r.dice)


def test_explosion_text_and_flags():
    for seed in range(200):
        r = de.roll("1d6!", seed=seed)
        if len(r.dice) > 1:
            assert "6!+" in str(r)
            assert r.dice[0].exploded and r.dice[1].added
            break
    else:  # pragma: no cover
        pytest.fail("no explosion in 200 seeded rolls")


def test_json_view():
    r = de.roll("3d6[fire]+2", seed=4)
    data = json.loads(r.model_dump_json())
    assert data["outcome"] == {"total": r.total}
    assert data["expression"] == "3d6[fire]+2"
    assert len(data["dice"]) == 3 and all(d["label"] == "fire" for d in data["dice"])
    assert data["text"] == str(r)
    assert r.model_dump()["system"] == "standard"


def test_constant_expression_and_arithmetic():
    assert de.roll("2*(3+4)-10/3").total == 11
    assert de.roll("-7/2").total == -4  # rounds down
    assert de.roll("1d1*5").total == 5


def test_outcome_is_a_named_tuple_and_attribute_errors_are_clear():
    r = de.roll("1d6")
    assert r.outcome._fields == ("total",)
    with pytest.raises(AttributeError, match="no field"):
        _ = r.success
