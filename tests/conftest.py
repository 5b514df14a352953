"""Test configuration: property tests are derandomized in CI; ``DICE_PROPERTY_SCALE=20`` digs deeper."""

import os
import sys

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(n: int) -> int:
    """``n`` property examples, scaled by ``DICE_PROPERTY_SCALE``."""
    return int(n * float(os.environ.get("DICE_PROPERTY_SCALE", "1")))


@pytest.fixture(autouse=True)
def _fresh_engine_caches() -> None:
    """Under mutmut (``python -m tests.mutation``), every test builds its own parses and plans: a cached
    plan would hide the functions that built it, and the test would not be linked to their mutants."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        for name, module in list(sys.modules.items()):
            if name.startswith("diceengine"):
                for attr, value in list(vars(module).items()):
                    if hasattr(value, "cache_clear") and attr != "parser_for":  # lru caches, not the Lark parsers
                        value.cache_clear()
                    elif type(value).__name__ == "PlanCache":  # the prepared plans of diceengine.api
                        value.clear()
