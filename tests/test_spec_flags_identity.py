"""The fast-path flags read a field by identity with its bare value: a value merely equal to it (``0`` for
``False``, an equal but distinct tuple) turns a path off, never on (systems/standard/term/spec.py, ``_FLAGS``)."""

from __future__ import annotations

from diceengine.systems.standard.term.spec import TermSpec

from diceengine import api
from diceengine.records import fields
from tests.test_quick_path import _specs


def _spec(expression: str) -> TermSpec:
    [spec] = _specs(api.plan(expression))
    return spec


def _rebuilt(spec: TermSpec, **changes: object) -> TermSpec:
    given = {f.name: getattr(spec, f.name) for f in fields(TermSpec) if f.init}
    return TermSpec(**{**given, **changes})


def test_a_value_merely_equal_to_the_bare_one_turns_the_paths_off() -> None:
    flat = _spec("4d6")
    assert flat.flat and flat.plain
    for name, equal in {"compound": 0, "penetrate": 0, "unique_on": 0.0}.items():
        changed = _rebuilt(flat, **{name: equal})
        assert not changed.flat and not changed.plain and not changed.explode_only, name
    exploding = _spec("4d6!")
    assert exploding.explode_only
    assert not _rebuilt(exploding, reroll_once=0).explode_only
    assert not _rebuilt(exploding, penetrate=0).explode_only


def test_the_bare_values_themselves_keep_the_paths_on() -> None:
    for expression, flag in (("4d6", "plain"), ("4d6kh3", "plain"), ("8d10>=7f1", "flat"), ("4d6!!", "explode_only")):
        spec = _spec(expression)
        assert getattr(_rebuilt(spec), flag), expression
