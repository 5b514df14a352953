"""A derandomized run of the fuzz harness (tests/fuzz_strategies.py): every hostile call answers with a
result or the engine's own error, within the time and memory limits of a worker process."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given, settings
from lark import Lark

from diceengine.registry import system_names
from tests.conftest import examples
from tests.fuzz_strategies import (
    CALLS,
    FIGHT_METHODS,
    SYSTEMS,
    Case,
    Runner,
    _grammar,
    fight_systems,
    grammar_sentences,
    random_case,
    run,
)


def test_a_few_thousand_hostile_calls_keep_the_promise():
    report = run(examples(1500))
    assert report.calls == examples(1500)
    assert report.failed == 0, report.summary()


def test_the_harness_catches_a_broken_promise():
    # a call that raises a bare exception, one that hangs: both are failures, of their own class
    runner = Runner(time_limit=2.0)
    try:
        assert runner.run(Case("roll", "standard", "1d6"))[0] is None
        assert runner.run(Case("roll", "nope-system", "1d6"))[0] is None  # the engine's own error
        assert runner.run(Case("sample", "standard", "1d6", (("n", "x"),)))[0] is not None  # a TypeError
    finally:
        runner.close()
    runner = Runner(time_limit=0.0005)
    try:
        assert runner.run(Case("distribution", "standard", "1000d1000"))[0] == "timeout"
    finally:
        runner.close()


@settings(max_examples=examples(40))
@given(grammar_sentences("standard"))
def test_grammar_sentences_are_sentences_of_the_grammar(text):
    Lark.parse(_grammar("standard"), text)  # raises if the generator left the grammar


def test_every_kind_of_input_is_generated():
    rng = random.Random(0)
    cases = [random_case(rng) for _ in range(400)]
    assert set(SYSTEMS) == set(system_names())  # the registry's systems, not a list of the harness's own
    assert {c.system for c in cases} == set(SYSTEMS)
    assert {c.call for c in cases} == set(CALLS)
    assert any(c.options for c in cases) and any(not c.expression.isascii() for c in cases)
    # expressions and option values come as str subclasses too (numpy.str_, a chat message type)
    assert any(type(c.expression) is np.str_ for c in cases)
    assert any(type(c.expression) not in (str, np.str_) and isinstance(c.expression, str) for c in cases)
    assert any(isinstance(v, np.str_) for c in cases for _, v in c.options)


def test_fights_are_generated_with_codes_that_fall_to_0d():
    rng = random.Random(1)
    cases = [c for c in (random_case(rng) for _ in range(3000)) if c.call == "fight"]
    assert {c.system for c in cases} == set(fight_systems()) and len(fight_systems()) >= 3
    assert {dict(c.options)["method"] for c in cases} == set(FIGHT_METHODS)
    encounters = [json.loads(c.expression)[c.system] for c in cases if c.system in ("d6", "d6wild")]

    def two_of_a_kind(enc):
        return len({f["player"] for f in enc["a"] + enc["b"]}) == 1

    def falls(enc):  # every fighter's Perception (Wild Die) or attack is 1D: a wound takes it to 0D
        code = "perception" if "perception" in enc["a"][0] else "attack"
        return all(f.get(code) in ("1D", "0D", "1D+1") for f in enc["a"] + enc["b"])

    assert any(two_of_a_kind(e) and falls(e) for e in encounters)
    assert any(two_of_a_kind(e) and all(f["player"] for f in e["a"] + e["b"]) and falls(e) for e in encounters)
