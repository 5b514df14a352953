"""The table service's database threads (``diceengine.web.table_access.Threads``): each call's result or error
reaches the request that awaits it, calls are made in the order queued by one thread, a call cancelled before
a thread takes it is never made, and the threads end when shut down."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from diceengine.web.table_access import Threads


def test_results_errors_and_order() -> None:
    pool = Threads(1, "test-one")
    made: list[int] = []

    async def main() -> None:
        def call(i: int) -> int:
            made.append(i)
            return i * i

        assert await asyncio.gather(*(pool.run(lambda i=i: call(i)) for i in range(50))) == [i * i for i in range(50)]
        with pytest.raises(ZeroDivisionError):
            await pool.run(lambda: 1 // 0)
        assert await pool.run(lambda: "after an error") == "after an error"

    asyncio.run(main())
    assert made == list(range(50))  # one thread: in the order queued
    pool.shutdown()


def test_a_call_cancelled_before_it_runs_is_not_made() -> None:
    pool = Threads(1, "test-cancel")
    gate = threading.Event()
    made: list[str] = []

    async def main() -> None:
        busy = pool.run(gate.wait)  # the one thread held
        waiting = pool.run(lambda: made.append("cancelled one"))
        waiting.cancel()
        gate.set()
        await busy
        assert await pool.run(lambda: made.append("next") or "done") == "done"

    asyncio.run(main())
    assert made == ["next"]
    pool.shutdown()


def test_shutdown_ends_the_threads() -> None:
    pool = Threads(3, "test-end")

    async def main() -> None:
        assert sorted(await asyncio.gather(*(pool.run(lambda: 1) for _ in range(9)))) == [1] * 9

    asyncio.run(main())
    pool.shutdown()
    for thread in pool._threads:
        thread.join(5)
        assert not thread.is_alive()
