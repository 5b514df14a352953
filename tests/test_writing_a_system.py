"""The worked plug-in of ``docs/writing-a-system.md``, built from the page's own code blocks: its grammar file
in its own package, its node, plan and system, registered and rolled, sampled and given exact odds (expected
values from the binomial law, written here)."""

from __future__ import annotations

import importlib
import re
import sys
from math import comb
from pathlib import Path

import pytest

import diceengine as de
from tests.helpers import chi2_passes

PAGE = Path(__file__).resolve().parent.parent / "docs" / "writing-a-system.md"


@pytest.fixture(scope="module")
def coins(tmp_path_factory: pytest.TempPathFactory):
    blocks = re.findall(r"```(\w+)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    grammar = [code for lang, code in blocks if lang == "lark"]
    # the page's Python blocks of dice_coins/system.py: the node, the outcome and plan, the system
    module = [code for lang, code in blocks if lang == "python" and "import diceengine as de\n\nde.roll" not in code]
    assert len(grammar) == 1 and len(module) == 3
    root = tmp_path_factory.mktemp("plugin")
    package = root / "dice_coins"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "coins.lark").write_text(grammar[0], encoding="utf-8")
    (package / "system.py").write_text("from __future__ import annotations\n\n" + "\n\n".join(module),
                                       encoding="utf-8")
    from diceengine import registry

    before = registry._registry.get("coins")  # another test's "coins" system, if it ran first: put back after
    sys.path.insert(0, str(root))
    try:
        system = importlib.import_module("dice_coins.system")
        yield de.register(system.CoinSystem, replace=True)
    finally:
        sys.path.remove(str(root))
        sys.modules.pop("dice_coins.system", None)
        sys.modules.pop("dice_coins", None)
        if before is None:
            registry._registry.pop("coins", None)
        else:
            registry._registry["coins"] = before


def test_the_guide_plugin_reads_its_grammar_from_its_own_package(coins):
    assert type(coins).grammar_package is None  # nothing but the default: the package that defines it
    assert "COIN" in coins.grammar_source()
    roll = de.roll("3c", system="coins", seed=1)
    assert 0 <= roll.outcome.heads <= 3 and len(roll.dice) == 3
    assert roll.outcome.heads == sum(d.value for d in roll.dice)


def test_the_guide_plugin_has_the_binomial_odds(coins):
    dist = de.distribution("4c", system="coins")
    assert dist.mean("heads") == pytest.approx(2.0)
    assert dist.marginal("heads") == pytest.approx({k: comb(4, k) / 16 for k in range(5)})
    sample = de.sample("6c", 20_000, system="coins", seed=3)
    assert chi2_passes(sample["heads"], {k: comb(6, k) / 64 for k in range(7)})


def test_the_guide_plugin_refuses_with_the_engines_errors(coins):
    with pytest.raises(de.DiceSyntaxError) as info:
        de.roll("3x", system="coins")
    assert "^" in str(info.value)
    with pytest.raises(de.DiceLimitError):
        de.roll("20000c", system="coins")
