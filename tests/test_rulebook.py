"""``systems.rulebook.rule_table``: a ruleset's rules named by their functions, each with its summary."""

from __future__ import annotations

import importlib

import pytest

from diceengine.systems.rulebook import rule_table

TABLES = [("d6.system", "RULES", "RULE_SUMMARIES"), ("d6.play", "RULES", "RULE_SUMMARIES"),
          ("d6wild.system", "RULES", "RULE_SUMMARIES"), ("d6wild.play", "RULES", "RULE_SUMMARIES"),
          ("d20pool.rules", "RULES", "RULE_SUMMARIES"), ("d20pool.play", "RULES", "RULE_SUMMARIES"),
          ("ffg.rules", "RULES", "RULE_SUMMARIES"), ("ffg.play", "RULES", "RULE_SUMMARIES")]


def first(x: int) -> int:
    return x


def second(x: int) -> int:
    return -x


def test_rules_are_named_by_their_functions_in_the_order_written() -> None:
    rules, summaries = rule_table((second, "S"), (first, "F"))
    assert list(rules.items()) == [("second", second), ("first", first)]
    assert summaries == {"second": "S", "first": "F"}


def test_joined_tables_follow_the_module_own_rules() -> None:
    rules, summaries = rule_table((first, "F"), joining=[({"other": second}, {"other": "O"})])
    assert list(rules) == ["first", "other"] and rules["other"] is second
    assert summaries == {"first": "F", "other": "O"}


@pytest.mark.parametrize(("module", "rules", "summaries"), TABLES)
def test_every_rule_of_a_ruleset_has_its_own_name_and_a_summary(module: str, rules: str, summaries: str) -> None:
    mod = importlib.import_module(f"diceengine.systems.{module}")
    table, words = getattr(mod, rules), getattr(mod, summaries)
    assert table and list(table) == list(words)
    assert all(name == rule.__name__ and callable(rule) for name, rule in table.items())
    assert all(isinstance(text, str) and text.endswith((".", ")")) for text in words.values())


def test_the_packages_export_their_modules_names() -> None:
    for package, modules in {"d6": ("rules", "shared", "system"), "d6wild": ("dice", "rules", "system"),
                             "ffg": ("rules", "system"), "d20pool": ("rules", "system")}.items():
        pkg = importlib.import_module(f"diceengine.systems.{package}")
        assert len(pkg.__all__) == len(set(pkg.__all__))
        for name in modules:
            module = importlib.import_module(f"diceengine.systems.{package}.{name}")
            assert set(module.__all__) <= set(pkg.__all__)
            assert all(getattr(pkg, n) is getattr(module, n) for n in module.__all__)
