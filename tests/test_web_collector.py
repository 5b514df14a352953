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


def test_the_task_sets_aside_at_its_pace_and_collects_at_its_own() -> None:
    async def main() -> None:
        gc.unfreeze()
        task = asyncio.get_running_loop().create_task(collector.collect(freeze_seconds=0.02, full_seconds=0.2))
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() > 0
        alive = _cycle()
        await asyncio.sleep(0.05)  # frozen with the rest
        gc.collect()
        assert alive() is not None
        await asyncio.sleep(0.3)  # a full pass came
        assert alive() is None
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
