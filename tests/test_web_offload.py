"""The web service's workers: a task past its CPU budget is stopped with the engine's error, even when code on
its way catches the first signal (a bare ``except``, an ``except Exception`` in a library)."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from diceengine.errors import DiceLimitError
from diceengine.web.offload import Offloader


def burn_catching_exceptions(seconds: float) -> str:
    """Spin for ``seconds`` of CPU inside a careless ``except Exception`` retried for ever (a library's)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        try:
            while time.process_time() < end:
                pass
        except Exception:  # noqa: BLE001, S112 - the careless handler the budget must get past
            continue
    return "finished"


def burn_swallowing_once(seconds: float) -> str:
    """Spin for ``seconds`` of CPU, swallowing the first interruption whatever it is (a bare ``except``)."""
    end = time.process_time() + seconds
    try:
        while time.process_time() < end:
            pass
    except BaseException:  # noqa: BLE001, S110 - swallowed: the timer must fire again
        pass
    while time.process_time() < end:
        pass
    return "finished"


def burn(seconds: float) -> str:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "finished"


@pytest.fixture(scope="module")
def offloader():
    off = Offloader(workers=1, cpu_seconds=0.3)
    off.start()
    yield off
    off.stop()


@pytest.mark.parametrize("task", [burn, burn_catching_exceptions, burn_swallowing_once])
def test_a_task_past_its_budget_is_the_engines_limit_error(offloader: Offloader, task) -> None:
    with pytest.raises(DiceLimitError, match="0.3 s of computation"):
        asyncio.run(offloader.run(task, 5.0))


def test_a_task_within_its_budget_answers_and_the_worker_is_disarmed(offloader: Offloader) -> None:
    assert asyncio.run(offloader.run(burn, 0.05)) == "finished"
    # the timer of the last task is off: a task as long as the budget twice over, in pieces, still runs
    for _ in range(4):
        assert asyncio.run(offloader.run(burn, 0.2)) == "finished"
