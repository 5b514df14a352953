"""Test configuration: property tests are derandomized in CI; ``DICE_PROPERTY_SCALE=20`` digs deeper. The shared
fixtures: ``where`` (a fresh database, SQLite and PostgreSQL) and ``browser`` (Debian's Chromium, one a module).
Under pytest-xdist (``-n``, on by default: ``pyproject.toml``), each worker has a PostgreSQL database of its own."""

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.helpers import clear_engine_caches, database, drop_postgres_database, worker_postgres_database

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


#: what :func:`pytest_configure` made for the session (or the worker), removed by :func:`pytest_unconfigure`
_MADE: dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    """What the process's tests share, made its own: the web service's default tables database
    (``DICE_TABLE_DB``, else ``dice-tables.sqlite`` in the working directory, which every process would share) is
    a file in a folder of the session's; in a pytest-xdist worker, ``DICEENGINE_TEST_POSTGRES`` names a database
    of the worker's (``<db>_gw0_<run>``, made here). Both are removed when the process ends."""
    _MADE["folder"] = Path(tempfile.mkdtemp(prefix="diceengine-tests-"))
    os.environ["DICE_TABLE_DB"] = str(_MADE["folder"] / "dice-tables.sqlite")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    server = os.environ.get("DICEENGINE_TEST_POSTGRES")
    if worker and server:
        admin, name, url = worker_postgres_database(server, worker, os.environ["PYTEST_XDIST_TESTRUNUID"])
        _MADE["postgres"] = (admin, name)
        os.environ["DICEENGINE_TEST_POSTGRES"] = url


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Remove what :func:`pytest_configure` made, once the tests and their fixtures are done (in a worker, before
    it reports its end: after that, pytest-xdist interrupts a worker that has not exited within seconds)."""
    pytest_unconfigure(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove what :func:`pytest_configure` made (if :func:`pytest_sessionfinish` did not: a run stopped early)."""
    if "postgres" in _MADE:
        drop_postgres_database(*_MADE.pop("postgres"))
    if "folder" in _MADE:
        shutil.rmtree(_MADE.pop("folder"), ignore_errors=True)


#: test files whose tests pytest-xdist hands out one by one, first (each of theirs a unit of work): each test starts
#: server processes that keep a core busy for a minute or more (Schemathesis), so that the workers share them
ONE_BY_ONE = ("tests/test_schemathesis.py",)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (pyproject's addopts), with the tests of :data:`ONE_BY_ONE` units of their own, handed
    out before the files: a file's tests run in one worker, in order, its module fixtures made once, as in a
    serial run. Other modes are pytest-xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    if not all(hasattr(LoadFileScheduling, name) for name in ("_split_scope", "_assign_work_unit")):
        return None  # a pytest-xdist whose scheduler changed: its own loadfile, Schemathesis in file order

    class Files(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path in ONE_BY_ONE else path

        def _assign_work_unit(self, node: Any) -> None:
            for scope in reversed([s for s in self.workqueue if s.split("::", 1)[0] in ONE_BY_ONE]):
                self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return Files(config, log)


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


@pytest.fixture
def registry_put_back() -> Iterator[None]:
    """A system a test registers leaves with it: a later file (the fuzz harness reads the registry's names) sees
    only the shipped systems, in whatever order the files run (on one core or several)."""
    from diceengine import registry

    before = dict(registry._registry)
    yield
    registry._registry.clear()
    registry._registry.update(before)


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
