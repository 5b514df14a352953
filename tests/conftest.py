"""Test configuration: property tests are derandomized in CI; ``DICE_PROPERTY_SCALE=20`` digs deeper."""

import os

import pytest
from hypothesis import settings

from tests.helpers import clear_engine_caches

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
        clear_engine_caches()
