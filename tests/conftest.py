"""Test configuration: property tests are derandomized in CI; ``DICE_PROPERTY_SCALE=20`` digs deeper. The shared
fixtures: ``where`` (a fresh database, SQLite and PostgreSQL) and ``browser`` (Debian's Chromium, one a module)."""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.helpers import clear_engine_caches, database

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what needs a browser (the ``browser`` fixture) or a PostgreSQL server (the ``postgres`` fixture, a
    ``postgresql`` parameter): ``-m "not browser and not postgres"`` leaves them out, the default run runs all."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        callspec = getattr(item, "callspec", None)
        params = {str(v) for v in callspec.params.values()} if callspec is not None else set()
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if "postgres" in names or "postgresql" in params:
            item.add_marker(pytest.mark.postgres)


def examples(n: int) -> int:
    """``n`` property examples, scaled by ``DICE_PROPERTY_SCALE``."""
    return int(n * float(os.environ.get("DICE_PROPERTY_SCALE", "1")))


@pytest.fixture(autouse=True)
def _fresh_engine_caches() -> None:
    """Under mutmut (``python -m tests.mutation``), every test builds its own parses and plans: a cached
    plan would hide the functions that built it, and the test would not be linked to their mutants."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        clear_engine_caches()


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a database of its own on the PostgreSQL server of
    ``DICEENGINE_TEST_POSTGRES`` (dropped after the test; skipped where unset, a failure under CI)."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one launch for the module's tests (each opens its own pages or
    contexts); the module is skipped where Chromium is missing, except under CI (``tests/browser.py``)."""
    from tests.browser import launched

    with launched() as b:
        yield b
