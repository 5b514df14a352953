"""``systems.rulebook``: a ruleset's rules named by their functions, each with the summary given where it is
defined."""

from __future__ import annotations

import importlib

import pytest
from diceengine.systems.rulebook import rule, rule_table

TABLES = [("d6.system", "RULES", "RULE_SUMMARIES"), ("d6.play", "RULES", "RULE_SUMMARIES"),
          ("d6wild.system", "RULES", "RULE_SUMMARIES"), ("d6wild.play", "RULES", "RULE_SUMMARIES"),
          ("d20pool.rules", "RULES", "RULE_SUMMARIES"), ("d20pool.play", "RULES", "RULE_SUMMARIES"),
          ("ffg.rules", "RULES", "RULE_SUMMARIES"), ("ffg.play", "RULES", "RULE_SUMMARIES")]


@rule("F")
def first(x: int) -> int:
    return x


@rule("S")
def second(x: int) -> int:
    return -x


def test_a_rule_is_its_function_marked_with_its_summary() -> None:
    assert first(3) == 3 and second(3) == -3


def test_rules_are_named_by_their_functions_in_the_order_written() -> None:
    rules, summaries = rule_table(second, first)
    assert list(rules.items()) == [("second", second), ("first", first)]
    assert list(summaries.items()) == [("second", "S"), ("first", "F")]


def test_a_function_not_marked_as_a_rule_is_no_rule() -> None:
    with pytest.raises(AttributeError):
        rule_table(len)


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


def test_a_ruleset_finds_its_state_of_play_and_combat_by_the_names_it_gives() -> None:
    from diceengine.systems.ruleset import Ruleset

    from diceengine.registry import get_system

    for name in ("d6", "d6wild", "ffg", "d20pool"):
        system = get_system(name)
        assert isinstance(system, Ruleset)
        play = system.rules_of_play()
        assert play is not None and play.__name__ == f"diceengine.systems.{name}.play" and play.RULES
    assert type(get_system("d6wild").fight_rules()).__module__ == "diceengine.systems.d6wild.fight"
    assert get_system("d20pool").fight_rules() is None


def test_a_roll_imports_neither_the_state_of_play_nor_the_combat() -> None:
    import subprocess
    import sys

    code = ("import sys, diceengine as de; de.roll('4D+2 vs 15', system='d6wild', seed=1); "
            "print(sorted(m for m in sys.modules if m.endswith(('.play', '.fight'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_character_is_found_by_name_or_refused_with_those_there_are() -> None:
    from diceengine.systems.d6wild.play import WildScene, spend_force_point

    from diceengine.errors import DiceValueError

    scene = WildScene.model_validate({"characters": {}})
    with pytest.raises(DiceValueError, match=r"no character named 'Han' \(known: none\)"):
        spend_force_point(scene, "Han")
    from diceengine.systems.d20pool.play import add_character, award_xp
    from diceengine.systems.d20pool.state import Character, PoolState

    state = add_character(PoolState(), Character(name="Kira")).state
    with pytest.raises(DiceValueError, match=r"no character named 'Han' \(known: Kira\)"):
        award_xp(state, 10, who="Han")
    assert award_xp(state, 10).state.characters["Kira"].xp == 10
