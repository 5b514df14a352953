"""CPU-bound work off the event loop: a pool of worker processes, each task under a CPU-time budget.

Exact odds, bulk samples, comparisons and the converter can take a good fraction of a second; run in
the server's own process they would hold the interpreter and stall every other request. They run in
worker processes instead, each task stopped by the engine's error once it has used ``cpu_seconds`` of
CPU (a profiling timer in the worker), and refused with ``busy`` when it cannot start within
``queue_seconds``. A worker that dies is replaced; a worker whose server dies ends
(:func:`diceengine.orphans.end_with_parent`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..errors import DiceError, DiceLimitError
from ..i18n import N_
from ..orphans import end_with_parent

__all__ = ["CPU_SECONDS", "QUEUE_SECONDS", "Busy", "Offloader"]

T = TypeVar("T")

#: CPU time one request may use
CPU_SECONDS = 1.0
#: how long a request may wait for a free worker before the service answers busy
QUEUE_SECONDS = 10.0


class Busy(Exception):
    """Every worker was busy for too long: the service answers 503."""


class _OverBudget(BaseException):
    """Raised by the CPU timer: a ``BaseException``, so that no ``except Exception`` on the way swallows it."""


def _alarm(signum: int, frame: Any) -> None:
    raise _OverBudget()


def _init_worker(parent: int) -> None:
    end_with_parent(parent)  # a server killed (SIGKILL) leaves no worker behind
    signal.signal(signal.SIGPROF, _alarm)
    try:
        os.nice(5)  # the event loop (rolls) keeps priority over exact odds
    except OSError:  # pragma: no cover
        pass


def _budgeted(budget: float, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in a worker, raising the engine's limit error past ``budget`` seconds of CPU."""
    # past the budget the timer fires again every tenth of its budget until disarmed: a handler on the way
    # that swallows one signal (a bare ``except``) cannot keep the task running
    signal.setitimer(signal.ITIMER_PROF, budget, budget / 10)
    try:
        try:
            return fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _OverBudget:
        signal.setitimer(signal.ITIMER_PROF, 0)
        raise DiceLimitError(N_("this request needs more than {budget:g} s of computation; ask for fewer dice or a "
                                "smaller pool"),
                             budget=budget) from None


def _warm() -> bool:
    import diceengine as de

    for name, system in de.systems().items():
        for example in system.examples[:1]:
            de.distribution(example, name)
    return True


class Offloader:
    """Runs functions in ``workers`` processes (``0``: in the server's thread pool, with no CPU budget)."""

    def __init__(self, workers: int = 1, cpu_seconds: float = CPU_SECONDS, queue_seconds: float = QUEUE_SECONDS):
        self.workers = workers
        self.cpu_seconds = cpu_seconds
        self.queue_seconds = queue_seconds
        self._pool: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None

    def start(self) -> None:
        """Start the worker processes (and load the engine in them)."""
        if self.workers and self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # never fork a process running an event loop
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                             initargs=(os.getpid(),))
            for f in [self._pool.submit(_warm) for _ in range(self.workers)]:
                f.result()

    def stop(self) -> None:
        """Stop the worker processes (a running task ends within its CPU budget)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` computed off the event loop; the engine's errors come back as they were raised."""
        if not self.workers:
            from starlette.concurrency import run_in_threadpool

            return await run_in_threadpool(fn, *args)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_seconds)
        except TimeoutError:
            raise Busy() from None
        try:
            if self._pool is None:
                self.start()
            assert self._pool is not None
            try:
                future: Future[T] = self._pool.submit(_budgeted, self.cpu_seconds, fn, *args)
            except BrokenProcessPool:
                self._restart()
                assert self._pool is not None
                future = self._pool.submit(_budgeted, self.cpu_seconds, fn, *args)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._restart()
                raise DiceError(N_("the computation stopped its worker (out of memory?)")) from None
        finally:
            self._slots.release()

    def _restart(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.start()
