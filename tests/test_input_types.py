"""What the public entry points accept as text: a ``str`` subclass (``numpy.str_``, a chat library's message
type) is a string like any other, for the expression, the system's name and option values; bytes and other
objects are the engine's error. Nothing a caller's odd type reaches is kept: the next plain call is unharmed."""

from __future__ import annotations

import numpy as np
import pytest

import diceengine as de
from diceengine import compare, fights
from diceengine.api import PLANS


class Message(str):
    """A chat library's message: a ``str`` with attributes of its own and a ``__str__`` that is not the text."""

    author = "someone"

    def __str__(self) -> str:
        return f"<message by {self.author}>"


KINDS = [np.str_, Message]
CASES = [("standard", "4d6kh3+1", {}), ("d6", "2D+1", {}), ("d6wild", "3D+2 vs 10", {"complication": "flag"}),
         ("d20pool", "3d20<=12 spec 3 vs 2", {}), ("ffg", "2a1p vs 2d", {})]


@pytest.fixture(autouse=True)
def _cold_plans():
    PLANS.clear()  # each case starts with its plan not cached: the odd type would be the first to prepare it
    yield
    PLANS.clear()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("system, text, options", CASES)
def test_a_str_subclass_rolls_like_the_string(kind, system, text, options):
    odd_options = {k: kind(v) for k, v in options.items()}
    odd = de.roll(kind(text), system=kind(system), seed=5, **odd_options)
    assert type(odd.expression) is str and type(odd.system) is str and odd.expression == text
    plain = de.roll(text, system=system, seed=5, **options)  # after the odd caller: the cached plan is unharmed
    assert str(odd) == str(plain) and odd.outcome == plain.outcome
    assert odd.model_dump_json() == plain.model_dump_json()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("system, text, options", CASES)
def test_a_str_subclass_samples_and_has_odds_like_the_string(kind, system, text, options):
    odd_options = {k: kind(v) for k, v in options.items()}
    sample = de.sample(kind(text), 50, system=kind(system), seed=2, **odd_options)
    assert type(sample.expression) is str
    again = de.sample(text, 50, system=system, seed=2, **options)
    assert all((sample[f] == again[f]).all() for f in again.arrays)
    dist = de.distribution(kind(text), system=kind(system), **odd_options)
    assert type(dist.expression) is str and type(dist.system) is str
    plain = de.distribution(text, system=system, **options)
    assert dist.fields == plain.fields and all((dist.column(f) == plain.column(f)).all() for f in plain.fields)


def test_the_plain_roll_after_an_odd_one_explains_itself():
    # the report: numpy.str_ first, then every later roll of the expression failed to give its text
    first = de.roll(np.str_("2D+1"), system="d6", seed=1)
    assert "2D+1" in str(first)
    assert str(de.roll("2D+1", system="d6", seed=1)) == str(first)


@pytest.mark.parametrize("value", [b"2D+1", bytearray(b"2D+1"), 21, None, 2.5, ["2D+1"]])
@pytest.mark.parametrize("call", ["roll", "sample", "distribution"])
def test_anything_but_text_is_the_engines_error(call, value):
    args = (value, 3) if call == "sample" else (value,)
    with pytest.raises(de.DiceError, match="must be a string"):
        getattr(de, call)(*args, system="d6")


def test_bytes_get_a_hint_and_a_system_name_must_be_text():
    with pytest.raises(de.DiceError, match="decode"):
        de.roll(b"1d6")
    with pytest.raises(de.DiceError, match="system name must be a string"):
        de.roll("1d6", system=b"d6")


@pytest.mark.parametrize("kind", KINDS)
def test_comparisons_and_fights_take_str_subclasses(kind):
    assert compare.success_chance(kind("d6"), kind("3D vs 10")) == compare.success_chance("d6", "3D vs 10")
    fighter = {"name": kind("A"), "attack": kind("4D"), "strength": kind("2D"), "damage": kind("4D")}
    enc = fights.load_encounter({"name": "t", "d6": {"a": [fighter], "b": [dict(fighter, name="B")]}})
    odds = fights.duel_odds(enc["d6"])
    assert odds.a_wins == pytest.approx(odds.b_wins)
