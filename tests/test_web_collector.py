"""The server's collector (``diceengine.web.collector``): survivors set aside at its pace, cyclic garbage that
outlived a freeze collected by its full pass, and only in ``dice serve``'s processes."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")

from diceengine.web import collector


class _Node:
    def __init__(self) -> None:
        self.other: Any = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    yield
    gc.unfreeze()  # the rest of the suite as it was
    gc.collect()


def test_a_cycle_set_aside_waits_for_the_full_pass() -> None:
    gc.collect()
    alive = _cycle()
    gc.freeze()
    gc.collect()
    assert alive() is not None  # set aside: the automatic collections pass it by
    assert collector.full() >= 2 and alive() is None
    assert gc.get_freeze_count() > 0  # the survivors set aside again


async def _until(condition: Any, seconds: float = 20.0) -> None:
    """Wait until ``condition()`` holds (a loaded machine stretches every sleep: no fixed wait is asserted on)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "the collector's task did not get there"
        await asyncio.sleep(0.005)


def test_the_task_sets_aside_at_its_pace_and_collects_at_its_own() -> None:
    async def main() -> None:
        gc.unfreeze()
        task = asyncio.get_running_loop().create_task(collector.collect(freeze_seconds=0.02, full_seconds=3.0))
        await _until(lambda: gc.get_freeze_count() > 0)  # set aside at once
        alive = _cycle()
        before = gc.get_freeze_count()
        await _until(lambda: gc.get_freeze_count() > before)  # set aside again, the cycle with the rest
        gc.collect()
        assert alive() is not None
        await _until(lambda: alive() is None)  # a full pass came
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_only_dice_serve_turns_it_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from diceengine.web import create_app
    from diceengine.web.tables import TableSettings

    monkeypatch.delenv("DICE_SERVER_GC", raising=False)
    assert not collector.enabled()
    gc.unfreeze()
    with TestClient(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))) as c:
        assert c.get("/api/health").status_code == 200
        assert gc.get_freeze_count() == 0  # a program's application leaves the collector alone
    monkeypatch.setenv("DICE_SERVER_GC", "1")
    with TestClient(create_app(workers=0, tables=TableSettings(db=str(tmp_path / "t.sqlite")))) as c:
        assert c.get("/api/health").status_code == 200
        assert gc.get_freeze_count() > 0
