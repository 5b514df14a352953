"""The exact odds' edges that their mutation run (``python -m tests.mutation diceengine/pmf.py``) found unchecked;
expected values from the definitions (the sum of n dice of 1 to s: from n to n * s, mean n * (s + 1) / 2)."""

from __future__ import annotations

import pytest

from diceengine.errors import DiceLimitError
from diceengine.pmf import MAX_SUPPORT, PMF


def test_a_sum_of_copies_with_exactly_the_most_results_is_computed() -> None:
    # 2,002 dice of 1,000 faces: 999 * 2,002 + 1 = 1,999,999 possible totals, within the 2,000,000 allowed
    assert MAX_SUPPORT == 2_000_000
    d1000 = PMF(1, [1 / 1000] * 1000)
    total = d1000.power(2002)
    # (the tails whose chances underflow to zero are trimmed: what is left lies within the possible totals)
    assert 2002 <= total.offset and total.offset + len(total.p) - 1 <= 2_002_000
    assert total.mass == pytest.approx(1.0, abs=1e-9)
    assert total.mean() == pytest.approx(2002 * 500.5, rel=1e-9)
    with pytest.raises(DiceLimitError, match="too many possible results"):
        d1000.power(2003)  # 999 * 2,003 + 1 = 2,000,998
