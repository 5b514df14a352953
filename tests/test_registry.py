"""The plug-in interface: a third-party system registers and rolls like a built-in one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pytest

import diceengine as de
from diceengine.arith import constant
from diceengine.distributions import Distribution

#: every test here puts the registry back as it found it (:func:`tests.conftest.registry_put_back`)
pytestmark = pytest.mark.usefixtures("registry_put_back")


class CoinOutcome(NamedTuple):
    heads: int


class CoinPlan(de.Plan):
    outcome_type = CoinOutcome

    def __init__(self, n: int) -> None:
        self.n = n

    def roll(self, rng: Any) -> tuple[CoinOutcome, list[int]]:
        flips = [int(rng.random() * 2) for _ in range(self.n)]
        return CoinOutcome(sum(flips)), flips

    def dice(self, record: list[int]) -> list[de.Die]:
        return [de.Die("coin", 2, v) for v in record]

    def describe(self, outcome: Any, record: list[int]) -> str:
        return f"{self.n} coins: {outcome.heads} heads"

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {"heads": rng.integers(0, 2, size=(n, self.n)).sum(axis=1)}

    def distribution(self) -> Distribution:
        from math import comb

        ks = np.arange(self.n + 1)
        return Distribution(CoinOutcome, {"heads": ks}, np.array([comb(self.n, k) for k in ks]) / 2**self.n)


class CoinSystem(de.System):
    """Flip N coins: the expression is the number of coins (core arithmetic only)."""

    name = "coins"
    summary = "count heads"
    outcome = CoinOutcome

    def prepare(self, tree: Any, expression: str, options: Mapping[str, Any]) -> de.Plan:
        return CoinPlan(constant(tree))


def test_third_party_system_plugs_in():
    de.register(CoinSystem)
    assert "coins" in de.systems()
    r = de.roll("2+1", system="coins", seed=1)
    assert 0 <= r.heads <= 3 and len(r.dice) == 3
    assert de.distribution("4", system="coins").mean("heads") == 2
    assert de.sample("4", 10, system="coins", seed=1)["heads"].shape == (10,)
    with pytest.raises(de.DiceSyntaxError):
        de.roll("1d6", system="coins")


def test_builtin_systems_come_from_entry_points():
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="diceengine.systems")}
    assert {"standard", "d6", "d6wild", "d20pool", "ffg"} <= names
    assert {"standard", "d6", "d6wild", "d20pool", "ffg"} <= set(de.systems())


def test_core_names_no_system():
    import ast
    import pathlib

    core = pathlib.Path(de.__file__).parent
    for path in core.glob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and id(node) not in docstrings:
                assert node.value not in ("d6", "d6wild", "d20pool", "ffg"), f"{path.name} names {node.value}"


def test_public_surface():
    assert set(de.__all__) >= {"roll", "sample", "distribution", "systems", "DiceError", "DiceSyntaxError",
                               "DiceLimitError", "System", "register"}


def test_the_example_plugin_is_found_through_its_entry_point():
    """examples/plugin-percentile, once installed (CI installs it like a user's package): its system comes from
    the entry point, its grammar from its own package, not from diceengine.grammars."""
    from importlib import resources
    from importlib.metadata import entry_points

    plugin = pytest.importorskip("dice_percentile", reason="pip install ./examples/plugin-percentile")
    (ep,) = [ep for ep in entry_points(group="diceengine.systems") if ep.name == "percentile"]
    assert ep.load() is plugin.PercentileSystem
    system = de.systems()["percentile"]
    assert type(system) is plugin.PercentileSystem
    assert system.grammar_source() == resources.files(plugin).joinpath("percentile.lark").read_text(encoding="utf-8")
    assert de.roll("d100<=60 bonus", system="percentile", seed=1).roll in range(1, 101)


def test_a_replaced_system_is_asked_afresh():
    # register(replace=True) puts a new system in place: no plan or chance prepared by the old one is used again
    from diceengine import compare

    class Fixed(de.System):
        name = "fixed-replaced"
        outcome = tuple
        value = 1

        def prepare(self, tree, expression, options):
            value = self.value

            class FixedPlan(de.Plan):
                outcome_type = tuple

                def roll(self, rng):
                    return (value,), None

                def sample(self, n, rng):
                    raise NotImplementedError

                def distribution(self):
                    raise NotImplementedError

                def describe(self, outcome, record):
                    return str(value)

                def dice(self, record):
                    return []

            return FixedPlan()

    class Other(Fixed):
        value = 2

    de.register(Fixed, replace=True)
    try:
        assert de.roll("1", system="fixed-replaced").outcome == (1,)
        de.register(Other, replace=True)
        assert de.roll("1", system="fixed-replaced").outcome == (2,)
        assert compare._chance.cache_info().currsize == 0
    finally:
        from diceengine import registry

        registry._registry.pop("fixed-replaced", None)
