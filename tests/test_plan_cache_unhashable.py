"""A plug-in whose syntax tree cannot be hashed (a tree holding a list) rolls and answers as any other: its plan is
kept under the spelling typed, never shared by meaning with another spelling, and its exact odds are remembered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine.distributions import Distribution


class Face(NamedTuple):
    total: int


class ConstantPlan(de.Plan):
    outcome_type = Face

    def __init__(self, value: int) -> None:
        self.value = value

    def roll(self, rng: Any) -> tuple[Face, list[int]]:
        return Face(self.value), []

    def dice(self, record: list[int]) -> list[de.Die]:
        return []

    def describe(self, outcome: Any, record: list[int]) -> str:
        return f"= {outcome.total}"

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"total": np.full(n, self.value)}

    def distribution(self) -> Distribution:
        return Distribution(Face, {"total": np.array([self.value])}, np.array([1.0]))


class ListTreeSystem(de.System):
    """A number, read into a tree that is a list (unhashable); every prepare counted."""

    name = "listtree"
    outcome = Face

    def __init__(self) -> None:
        self.prepared: list[str] = []

    def quick(self, expression: str, options: Mapping[str, Any]) -> tuple[Any, None, tuple]:
        return [int(expression)], None, ()  # " 7" and "7" read to equal trees, which cannot be hashed

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> de.Plan:
        self.prepared.append(expression)
        return ConstantPlan(tree[0])


@pytest.fixture
def system(registry_put_back: None):
    api.PLANS.clear()
    found = de.register(ListTreeSystem)
    yield found
    api.PLANS.clear()


def test_an_unhashable_tree_is_kept_under_its_spelling(system):
    assert de.roll("7", "listtree").total == 7
    assert de.roll("7", "listtree").total == 7
    assert system.prepared == ["7"]  # the second call found the spelling
    assert de.roll(" 7", "listtree").total == 7
    assert system.prepared == ["7", " 7"]  # an equal tree that cannot be hashed is not shared
    assert api.PLANS.get(("listtree", "7")) is not api.PLANS.get(("listtree", " 7"))


def test_an_unhashable_tree_has_its_odds_remembered(system):
    first = de.distribution("7", "listtree")
    again = de.distribution("7", "listtree")
    assert again is not first and again.marginal() == first.marginal() == {7: 1.0}
    assert api.PLANS.answer(("listtree", "7")) is not None
    assert system.prepared == ["7"]
    assert de.sample("7", 3, "listtree")["total"].tolist() == [7, 7, 7]
