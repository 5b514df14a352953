"""A roll of a term scored as a multiset (``6d6mt``, ``6d6even``) runs the evaluator over the faces shown with its set-up
bound once a term (``PoolTerm._counted_roller``): the same evaluator as the general path (:func:`run_one`), compared
here on many rolls, and both against a count written in the test."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from diceengine.systems.standard.term.pooled import run_one

import diceengine as de
from diceengine import api


def _by_hand(expr: str, faces: list[int]) -> int:
    """The score written here: sets of at least ``size`` dice (``mt``), or dice showing an even / odd face."""
    if "even" in expr or "odd" in expr:
        return sum((v % 2 != 0) == ("odd" in expr) for v in faces)
    size = int(expr.split("mt")[1] or 2)
    return sum(c >= size for c in Counter(faces).values())


@pytest.mark.parametrize("expr, fast", [
    ("6d6mt", True), ("8d10mt", True), ("8d10mt3", True), ("4d10mt", True), ("12d4mt4", True), ("6d6even", True),
    ("5d8odd", True), ("4dFodd", True), ("1d6mt", True), ("4d6mi3mt", False), ("6d6mi2even", False),
])
def test_the_fast_roll_is_the_general_path(expr, fast):
    term = api.plan(expr).root.term
    assert term._counted_faces() is fast
    rng = random.Random(35)
    for _ in range(300):
        roll = de.roll(expr, seed=rng)
        faces = [d.value for d in roll.dice]
        general = run_one(term.pool.evaluator, faces, term._visited(faces))
        assert roll.total == general == _by_hand(expr, faces), (expr, faces)
