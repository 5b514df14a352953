"""A derandomized run of the fuzz harness (tests/fuzz_strategies.py): every hostile call answers with a
result or the engine's own error, within the time and memory limits of a worker process."""

from __future__ import annotations

import random

from hypothesis import given, settings
from lark import Lark

from tests.conftest import examples
from tests.fuzz_strategies import SYSTEMS, Case, Runner, _grammar, grammar_sentences, random_case, run


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
    assert {c.system for c in cases} == set(SYSTEMS)
    assert {c.call for c in cases} == {"roll", "sample", "distribution", "cli"}
    assert any(c.options for c in cases) and any(not c.expression.isascii() for c in cases)
