"""Test configuration: property tests are derandomized in CI; ``DICE_PROPERTY_SCALE=20`` digs deeper."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(n: int) -> int:
    """``n`` property examples, scaled by ``DICE_PROPERTY_SCALE``."""
    return int(n * float(os.environ.get("DICE_PROPERTY_SCALE", "1")))
