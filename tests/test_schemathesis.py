"""Schemathesis against a real ``dice serve`` (a subprocess on a free port), with every check (``--checks all``):
the table endpoints on SQLite and on the PostgreSQL server CI starts (``DICEENGINE_TEST_POSTGRES``), without a key
and with a game master's key (on a table of its own: every table endpoint but the live log, a stream, tried with
it); the other endpoints, which read no database and take no key, once.

Bounded: ``EXAMPLES`` examples an operation (``$DICE_SCHEMATHESIS_EXAMPLES``), a fixed seed (the same cases each
run, as the suite's property tests in CI), each run stopped and failed past ``SECONDS``.

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
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import dice_serve, get_json

schemathesis = pytest.importorskip("schemathesis", reason="the test extra (schemathesis) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

#: examples an operation (each phase draws up to this many; the coverage phase adds its boundary cases whatever
#: the number). 50 keeps the five runs within CI's ten minutes; ``DICE_SCHEMATHESIS_EXAMPLES=1000`` digs deeper
EXAMPLES = int(os.environ.get("DICE_SCHEMATHESIS_EXAMPLES", "50"))
#: the most one run may take (seconds); past it the run is stopped and the test fails
SECONDS = float(os.environ.get("DICE_SCHEMATHESIS_SECONDS", "600"))
ROOT = Path(__file__).resolve().parents[1]

CONFIG = """
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


@pytest.fixture
def server(where: str, tmp_path: Path) -> Iterator[str]:
    """``dice serve`` over a fresh database, its buckets high enough for a fuzzer's pace: its address."""
    env = {"DICE_KEY_BURST": "1000000", "DICE_KEY_RATE": "1000000", "DICE_NEW_BURST": "1000000",
           "DICE_NEW_RATE": "1000000"}
    with dice_serve(where, tmp_path, env) as base:
        yield base


def _schemathesis(base: str, tmp_path: Path, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "schemathesis.toml").write_text(config)
    st = Path(sys.executable).with_name("st")
    command = [str(st), "--config-file", str(tmp_path / "schemathesis.toml"), "run", base + "/openapi.json",
               "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "1", "--workers", "2",
               "--request-timeout", "20", "--report-dir", str(tmp_path / "report"), *args]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.test_schemathesis", "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(command, check=False, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=SECONDS)
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"schemathesis ran past {SECONDS:g} s ({EXAMPLES} examples an operation): "
                    f"{(err.stdout or '')[-3000:]!s}")


def _passed(run: subprocess.CompletedProcess[str]) -> None:
    """The run passed every check, on every operation it selected, in every phase."""
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-12_000:]
    selected = re.search(r"Selected: (\d+)/\d+", output)
    tested = re.search(r"Tested: (\d+)", output)
    assert selected and tested and tested.group(1) == selected.group(1), output[-3000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert re.search(rf"✅ {phase}\b", output), f"the {phase} phase did not pass: {output[-3000:]}"


@pytest.mark.slow
@pytest.mark.parametrize("where", ["sqlite"], indirect=True)
def test_every_check_passes_on_the_dice_endpoints(server: str, tmp_path: Path) -> None:
    """Everything but the tables (rolls, odds, samples, comparisons, fights, rules, words...): they read no
    database and take no key, so one run is theirs."""
    _passed(_schemathesis(server, tmp_path, CONFIG, "--exclude-path-regex", "^/tables"))


@pytest.mark.slow
def test_every_check_passes_on_the_tables_without_a_key(server: str, tmp_path: Path) -> None:
    _passed(_schemathesis(server, tmp_path, CONFIG, "--include-path-regex", "^/tables"))


@pytest.mark.slow
def test_every_check_passes_on_the_tables_with_a_game_masters_key(server: str, tmp_path: Path) -> None:
    made = get_json(server + "/tables", {"system": "ffg", "gm": "GM",
                                      "scene": {"kind": "Encounter", "state": {"destiny": {"light": 2, "dark": 1}}}})
    get_json(server + made["join_link"], {"name": "Kira"})
    config = CONFIG + f'\n[parameters]\n"path.table_id" = "{made["table_id"]}"\n'
    _passed(_schemathesis(server, tmp_path, config, "--include-path-regex", "^/tables", "--header",
                          f"Authorization: Bearer {made['gm_key']}", "--exclude-path-regex", "/events$"))
