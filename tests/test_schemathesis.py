"""Schemathesis against a real ``dice serve`` (a subprocess on a free port), with every check (``--checks all``):
the table endpoints on SQLite and on the PostgreSQL server CI starts (``DICEENGINE_TEST_POSTGRES``), without a key
and with a game master's key (on a table of its own: every table endpoint but the live log, a stream, tried with
it); the other endpoints, which read no database and take no key, once.

Bounded: ``EXAMPLES`` examples an operation (``$DICE_SCHEMATHESIS_EXAMPLES``) and ``SCENARIOS`` scenarios of the
stateful phase, a fixed seed (the same cases each run, as the suite's property tests in CI), each run stopped and
failed past ``SECONDS``. The runs go two at a time (:func:`runs`): each is one process bound to one core.

What the checks may not know, said here: a request the schema calls valid may still be refused by the engine (an
expression that does not parse: 400; a bound of the engine, such as 10,000 dice: 422 ``limit``) or by the table
(a name taken, a step the member may not take: 400, 403, 409), or be rate limited (429); a body past the service's
64 KiB is refused (413) whatever the schema says. What they would not check, added here
(:func:`schema_valid_requests_fit_the_models`): a request the schema calls valid is never refused as not fitting
the request models (``invalid_request``): the schema and the models say the same.

This module is also the hooks module the ``st`` process loads (``SCHEMATHESIS_HOOKS``), for that check.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import database, dice_serve, get_json

schemathesis = pytest.importorskip("schemathesis", reason="the test extra (schemathesis) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

#: examples an operation (each phase draws up to this many; the coverage phase adds its boundary cases whatever
#: the number); ``DICE_SCHEMATHESIS_EXAMPLES=1000`` digs deeper
EXAMPLES = int(os.environ.get("DICE_SCHEMATHESIS_EXAMPLES", "200"))
#: scenarios of the stateful phase (sequences of calls across the operations, single-threaded in Schemathesis):
#: 270 at 200 took as long as the fuzzing phase of 24 operations; ``DICE_SCHEMATHESIS_SCENARIOS`` digs deeper
SCENARIOS = int(os.environ.get("DICE_SCHEMATHESIS_SCENARIOS", "50"))
#: the most one run may take (seconds): a guard against a hang, not a timing (past it the test fails)
SECONDS = float(os.environ.get("DICE_SCHEMATHESIS_SECONDS", "1800"))
ROOT = Path(__file__).resolve().parents[1]

CONFIG = f"""
[generation]
max-examples = {EXAMPLES}

[phases.stateful.generation]
max-examples = {SCENARIOS}

[checks.positive_data_acceptance]
# the engine's and the table's refusals of what the schema cannot say (an expression that does not parse, a bound,
# a name taken); "invalid_request" never (schema_valid_requests_fit_the_models)
expected-statuses = ["2xx", "400", "401", "403", "404", "409", "422", "429"]

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
"""


@schemathesis.check
def schema_valid_requests_fit_the_models(ctx: Any, response: Any, case: Any) -> bool | None:
    """A request the schema calls valid is never refused as not fitting the request models."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        body = {}
    if body.get("error") == "invalid_request":
        raise AssertionError(f"a request the schema calls valid refused by the models: {body.get('message')}")
    return None


def _describe_lambdas_safely() -> None:
    """Hypothesis describes a strategy's lambdas by parsing their source (for a repr it builds while checking a
    strategy); CPython 3.11 before 3.11.8 may raise ``SystemError: AST constructor recursion depth mismatch``
    there (gh-106905), which Schemathesis reports as a runtime error of the run. A description is only words:
    an unknown one instead."""
    from hypothesis.internal import lambda_sources

    described = lambda_sources._lambda_description

    def description(f: Any, *args: Any, **kwargs: Any) -> str:
        try:
            return described(f, *args, **kwargs)  # type: ignore[no-any-return]
        except SystemError:
            return "lambda: <unknown>"

    lambda_sources._lambda_description = description


if os.environ.get("SCHEMATHESIS_HOOKS") == __name__:  # loaded by the st process
    _describe_lambdas_safely()


def _schemathesis(base: str, folder: Path, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    """One ``st run`` of every check against ``base``: its output. No example database (``--generation-database
    none``): each run starts empty anyway, and Hypothesis would spend a third of its time keeping and shrinking a
    front of examples for a database thrown away after the run."""
    (folder / "schemathesis.toml").write_text(config)
    st = Path(sys.executable).with_name("st")
    command = [str(st), "--config-file", str(folder / "schemathesis.toml"), "run", base + "/openapi.json",
               "--checks", "all", "--seed", "1", "--workers", "2",
               "--generation-database", "none", "--request-timeout", "20", "--report-dir", str(folder / "report"),
               *args]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.test_schemathesis", "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(command, check=False, cwd=folder, env=env, capture_output=True, text=True,
                              timeout=SECONDS)
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode(errors="replace") if isinstance(err.stdout, bytes) else err.stdout or ""
        pytest.fail(f"schemathesis ran past {SECONDS:g} s ({EXAMPLES} examples an operation): {out[-3000:]}")


def _passed(run: subprocess.CompletedProcess[str]) -> None:
    """The run passed every check, on every operation it selected, in every phase."""
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-12_000:]
    selected = re.search(r"Selected: (\d+)/\d+", output)
    tested = re.search(r"Tested: (\d+)", output)
    assert selected and tested and tested.group(1) == selected.group(1), output[-3000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert re.search(rf"✅ {phase}\b", output), f"the {phase} phase did not pass: {output[-3000:]}"


def _run(kind: str, keyed: bool | None, folder: Path) -> subprocess.CompletedProcess[str]:
    """A fresh database of ``kind``, ``dice serve`` over it (its buckets high enough for a fuzzer's pace), and one
    run: the dice endpoints (``keyed`` None), or the tables without a key or with a game master's key (on a table of
    its own: every table endpoint tried with it but the live log, a stream, and the two that take the key's
    power away for the rest of the run: ``rekey`` replaces the key, ``end`` ends the table's dice; their own tests
    are in ``test_web_table_members`` and ``test_web_tables_provable``, and the unkeyed runs try their refusals)."""
    env = {"DICE_KEY_BURST": "1000000", "DICE_KEY_RATE": "1000000", "DICE_NEW_BURST": "1000000",
           "DICE_NEW_RATE": "1000000"}
    with database(kind, folder) as where, dice_serve(where, folder, env) as base:
        if keyed is None:
            return _schemathesis(base, folder, CONFIG, "--exclude-path-regex", "^/tables")
        if not keyed:
            return _schemathesis(base, folder, CONFIG, "--include-path-regex", "^/tables")
        made = get_json(base + "/tables", {"system": "ffg", "gm": "GM", "scene": {
            "kind": "Encounter", "state": {"destiny": {"light": 2, "dark": 1}}}})
        get_json(base + made["join_link"], {"name": "Kira"})
        config = CONFIG + f'\n[parameters]\n"path.table_id" = "{made["table_id"]}"\n'
        return _schemathesis(base, folder, config, "--include-path-regex", "^/tables", "--header",
                             f"Authorization: Bearer {made['gm_key']}", "--exclude-path-regex", "/(events|rekey|end)$")


#: each test's run: (database, keyed); ``None``: the dice endpoints, which read no database and take no key
RUNS = {"dice": ("sqlite", None),
        "tables-sqlite": ("sqlite", False), "tables-postgresql": ("postgresql", False),
        "keyed-sqlite": ("sqlite", True), "keyed-postgresql": ("postgresql", True)}


class _Runs(dict[str, Any]):
    """Run name -> its future, submitted to ``pool`` when first asked for."""

    def __init__(self, pool: ThreadPoolExecutor, tmp_path_factory: pytest.TempPathFactory) -> None:
        super().__init__()
        self.pool, self.tmp_path_factory = pool, tmp_path_factory

    def __missing__(self, name: str) -> Any:
        self[name] = self.pool.submit(_run, *RUNS[name], self.tmp_path_factory.mktemp(name))
        return self[name]

    def start(self, name: str) -> None:
        """Submit ``name``'s run now."""
        self.__missing__(name)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The runs of the module's selected tests, started together, two at a time: a run's client is one process
    bound to one core (its workers are threads), so two runs keep both of CI's cores busy. Each test waits for
    its own (a skip or failure of its set-up is raised in the test). Under pytest-xdist's workers, which keep
    the cores busy themselves and get this module's tests one by one (``tests/conftest.py``), a test starts its
    own run, one at a time."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    with ThreadPoolExecutor(max_workers=2 if workers < 2 else 1) as pool:
        started = _Runs(pool, tmp_path_factory)
        if workers < 2:
            for item in request.session.items:
                if item.module is request.module and hasattr(item, "callspec"):
                    started.start(item.callspec.params["run"])
        yield started


@pytest.mark.slow
@pytest.mark.parametrize("run", ["dice"])
def test_every_check_passes_on_the_dice_endpoints(runs: dict[str, Any], run: str) -> None:
    """Everything but the tables (rolls, odds, samples, comparisons, fights, rules, words...): they read no
    database and take no key, so one run is theirs."""
    _passed(runs[run].result())


@pytest.mark.slow
@pytest.mark.parametrize("run", ["tables-sqlite", pytest.param("tables-postgresql", marks=pytest.mark.postgres)])
def test_every_check_passes_on_the_tables_without_a_key(runs: dict[str, Any], run: str) -> None:
    _passed(runs[run].result())


@pytest.mark.slow
@pytest.mark.parametrize("run", ["keyed-sqlite", pytest.param("keyed-postgresql", marks=pytest.mark.postgres)])
def test_every_check_passes_on_the_tables_with_a_game_masters_key(runs: dict[str, Any], run: str) -> None:
    _passed(runs[run].result())
