"""diceengine/rolljson.py: the roll's JSON written directly."""

from __future__ import annotations

import json

import pytest

import diceengine as de
from diceengine.errors import Unwritten
from diceengine.rolls import Roll, roll_json


def _refuse(constant: str) -> None:
    raise AssertionError(f"not JSON (RFC 8259 has no {constant})")


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_non_finite_number_is_left_to_pydantic_and_the_json_stays_json(value):
    r = de.roll("2d6", seed=1)
    odd = Roll(r._plan, r.outcome._replace(total=value), r._record, r.expression, r.system)
    with pytest.raises(Unwritten):  # the direct writer never writes NaN / Infinity
        roll_json(odd)
    data = json.loads(odd.model_dump_json(), parse_constant=_refuse)
    assert data["outcome"]["total"] is None and data["expression"] == "2d6"


def test_every_field_of_an_outcome_is_written_whatever_its_length():
    # the one-field shortcut must not swallow the fields of a two- or three-field outcome (a plug-in's), and the
    # direct JSON is pydantic's text field for field
    from typing import NamedTuple

    r = de.roll("2d6", seed=1)

    class Two(NamedTuple):
        total: int
        extra: int

    class Three(NamedTuple):
        total: int
        extra: int
        flag: bool

    for outcome in (Two(7, 3), Three(7, 3, True)):
        odd = Roll(r._plan, outcome, r._record, r.expression, r.system)
        assert json.loads(roll_json(odd))["outcome"] == outcome._asdict()


def test_a_die_is_written_once_its_model_and_its_json_follow_its_fields():
    """Die (diceengine.parts) is the one place a die's fields are written: the pydantic model has them, in
    order, with their defaults, and the JSON written without pydantic is the model's, field for field."""
    import itertools

    from diceengine.models import DieModel
    from diceengine.parts import Die
    from diceengine.rolljson import die_json

    assert list(DieModel.model_fields) == list(Die._fields)
    assert {k: f.default for k, f in DieModel.model_fields.items() if not f.is_required()} == Die._field_defaults
    kinds = ("d6", "wild", 'a "quoted" é')
    for kind, flags, text in itertools.product(kinds, itertools.product((False, True), repeat=5), (None, "x")):
        die = Die(kind, 6, 4, *flags, face=text, label=text, critical=text)
        assert die_json(die) == DieModel(**die._asdict()).model_dump_json()
        assert json.loads(die_json(die)) == die._asdict()
