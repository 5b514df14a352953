"""The benchmarks' peers stay honest: the render benchmark's "line before the renderers" writes what the engine
writes (a faster peer that wrote less would flatter nobody; one that no longer runs hid a broken benchmark)."""

from __future__ import annotations

import pytest

import diceengine as de
from benchmarks.render import CASES, before


@pytest.mark.parametrize("system, expr", CASES)
def test_the_render_benchmarks_peer_writes_what_the_engine_writes(system: str, expr: str) -> None:
    for seed in range(30):
        r = de.roll(expr, system, seed=seed)
        assert before(r) == str(r)
