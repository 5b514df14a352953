"""Shared checks: chi-square of a sample against exact odds, brute-force enumeration, scripted dice; and shared
setup: a database of its own on the PostgreSQL server, a ``dice serve`` process."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

Z_999 = 3.090232306167813  # standard normal quantile of 0.999


def chi2_critical(df: int, z: float = Z_999) -> float:
    """Upper critical value of the chi-square distribution (Wilson-Hilferty), p = 0.001 by default."""
    k = max(df, 1)
    return k * (1 - 2 / (9 * k) + z * (2 / (9 * k)) ** 0.5) ** 3


def chi2_statistic(observed: Mapping[Any, int], expected: Mapping[Any, float], n: int) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom; bins with an expected count under 5 are pooled."""
    keys = sorted(set(expected) | set(observed), key=lambda k: (str(type(k)), k))
    stat, df = 0.0, -1
    pool_o, pool_e = 0.0, 0.0
    for key in keys:
        e = expected.get(key, 0.0) * n
        o = observed.get(key, 0)
        if e < 5:
            pool_o += o
            pool_e += e
            continue
        stat += (o - e) ** 2 / e
        df += 1
    if pool_e > 0:
        stat += (pool_o - pool_e) ** 2 / max(pool_e, 1e-9)
        df += 1
    elif pool_o > 0:
        stat = float("inf")
    return stat, max(df, 1)


def chi2_passes(samples: Iterable[Any], expected: Mapping[Any, float]) -> bool:
    """Whether samples are consistent with ``expected`` at the 0.001 level."""
    values = list(samples.tolist() if isinstance(samples, np.ndarray) else samples)
    observed = Counter(values)
    stat, df = chi2_statistic(observed, expected, len(values))
    return stat < chi2_critical(df)


def enumerate_dice(faces_per_die: Sequence[Sequence[Any]], value: Callable[[tuple], Any]) -> dict[Any, Fraction]:
    """Exact distribution of ``value(faces)`` over every combination of equally likely faces."""
    out: dict[Any, Fraction] = {}
    total = 1
    for faces in faces_per_die:
        total *= len(faces)
    for combo in itertools.product(*faces_per_die):
        key = value(combo)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, total)
    return out


def exact_totals(expression: str, system: str = "standard") -> dict[Any, float]:
    """The engine's exact chance of each total of ``expression`` (outcomes of one total added up)."""
    import diceengine as de

    got: Counter = Counter()
    for outcome, p in de.distribution(expression, system).items():
        got[outcome.total] += p
    return dict(got)


def assert_close(actual: Mapping[Any, float], expected: Mapping[Any, Any], tol: float = 1e-12) -> None:
    """Two distributions agree on every outcome within ``tol``."""
    keys = set(actual) | set(expected)
    for key in keys:
        a = float(actual.get(key, 0.0))
        e = float(expected.get(key, 0.0))
        assert abs(a - e) <= tol, f"P({key!r}) = {a}, expected {e}"


class Scripted(random.Random):
    """A ``random.Random`` (accepted as a seed) that throws the given faces in order: a face of a ``sides``-sided
    die, or a ``(face, sides)`` pair for dice of several sizes."""

    def __init__(self, faces: list[int] | list[tuple[int, int]], sides: int = 6) -> None:
        super().__init__(0)
        self._draws = [(f[0] - 0.5) / f[1] if isinstance(f, tuple) else (f - 0.5) / sides for f in faces]

    def random(self) -> float:
        return self._draws.pop(0)


def clear_engine_caches() -> None:
    """Forget every parse, plan and memoised answer of the engine (lru caches and the plan cache), as a
    fresh process would start."""
    import sys

    for name, module in list(sys.modules.items()):
        if name.startswith("diceengine"):
            for attr, value in list(vars(module).items()):
                if hasattr(value, "cache_clear") and attr != "parser_for":  # lru caches, not the Lark parsers
                    value.cache_clear()
                elif type(value).__name__ == "PlanCache":  # the prepared plans of diceengine.api
                    value.clear()


def assert_estimate_bounds_work(expression: str, **options: Any) -> None:
    """The exact odds' estimate of ``expression`` (from fresh caches) bounds the work the engine counts doing them."""
    import diceengine as de
    from diceengine import api
    from diceengine.pmf import WORK

    clear_engine_caches()
    cost = api.plan(expression, **options).exact_cost()
    WORK.work = 0
    de.distribution(expression, **options)
    assert 0 < WORK.work <= cost.work, (expression, WORK.work, cost.work)


def roundtrip(state: Any) -> Any:
    """A state of play stored as JSON and read back (a bot keeps it between messages): nothing is lost."""
    back = type(state).model_validate_json(state.model_dump_json())
    assert back == state
    return back


def refused(rule: Callable[..., Any], state: Any, *args: Any, match: str | None = None, **kwargs: Any) -> Any:
    """An illegal action raises the engine's error (matching ``match``) and leaves the state as it was; the error."""
    import diceengine as de

    before = state.model_dump_json()
    with pytest.raises(de.DiceError, match=match) as err:
        rule(state, *args, **kwargs)
    assert state.model_dump_json() == before
    return err.value


def service_workers() -> int:
    """The compute workers of a test's web service: one, as ``dice serve`` runs it; none under mutmut
    (``python -m tests.mutation``), where a function run in a worker process links no test to its mutants (mutmut
    records the calls of the test's own process only), so that the service's tests judge them in this process."""
    return 0 if os.environ.get("MUTANT_UNDER_TEST") else 1


def new_postgres_database() -> tuple[Any, str, str]:
    """A new, empty database on the PostgreSQL server of ``DICEENGINE_TEST_POSTGRES``: the server's admin engine
    (to drop it), its name and its URL. Skips the test where the variable is unset, fails it under CI (which
    must start a server: ``.ci/run``)."""
    server = os.environ.get("DICEENGINE_TEST_POSTGRES")
    if not server:
        if os.environ.get("CI"):
            pytest.fail("DICEENGINE_TEST_POSTGRES is not set: CI must start a PostgreSQL server (.ci/run)")
        pytest.skip("no PostgreSQL server (set DICEENGINE_TEST_POSTGRES=postgresql://user@host:port/db)")
    import sqlalchemy as sa

    url = sa.engine.make_url(server.replace("postgresql://", "postgresql+psycopg://", 1))
    name = "dice_test_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    return admin, name, url.set(database=name).render_as_string(hide_password=False)


def worker_postgres_database(server: str, worker: str, run: str) -> tuple[Any, str, str]:
    """A new database of its own for the pytest-xdist worker ``worker`` (``gw0``...) of the run ``run`` (an id)
    on the PostgreSQL server of the URL ``server``: the server's admin engine (to drop it), its name
    (``<database>_<worker>_<run>``) and its URL. The worker reads and makes its databases through it, so that no
    two workers share one, of one run or of two runs at once."""
    import sqlalchemy as sa

    url = sa.engine.make_url(server.replace("postgresql://", "postgresql+psycopg://", 1))
    name = f"{(url.database or 'postgres')[:40]}_{worker}_{run[:12]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    mine = sa.engine.make_url(server).set(database=name).render_as_string(hide_password=False)
    return admin, name, mine


def drop_postgres_database(admin: Any, name: str) -> None:
    """Drop a database :func:`new_postgres_database` made (its connections closed first)."""
    import sqlalchemy as sa

    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind`` for the block: a SQLite file in ``folder`` (``"sqlite"``), or a
    database of its own on the PostgreSQL server (``"postgresql"``), dropped after."""
    if kind == "sqlite":
        yield str(folder / "tables.sqlite")
        return
    admin, name, url = new_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(admin, name)


def free_port() -> int:
    """A free port on the loopback interface."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str, body: dict[str, Any] | None = None) -> Any:
    """The JSON answer of a GET (a POST of ``body``, when given) to ``url``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


@contextmanager
def dice_serve(db: str, folder: Path, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """``dice serve`` over ``db`` in a process of its own on a free port (its log in ``folder``): its base URL,
    once it answers, until the block ends (then stopped, with the processes it started)."""
    port = free_port()
    log_path = folder / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "diceengine", "serve", "--port", str(port), "--db", db,
                                 "--log-level", "warning", "--no-access-log"], cwd=folder,
                                env={**os.environ, **(env or {})}, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, "dice serve exited: " + log_path.read_text()[-2000:]
            try:
                get_json(base + "/api/health")
                break
            except OSError:
                assert time.monotonic() < deadline, "dice serve did not answer"
                time.sleep(0.3)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
