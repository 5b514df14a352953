"""Worker processes that end when their parent dies: a sweep's workers, the web service's compute workers.

A worker started by the engine calls :func:`end_with_parent` first thing (a pool's ``initializer``). Two ways
tell it its parent is gone, whatever killed the parent (a ``SIGKILL`` runs none of its clean-up):

- on Linux, ``prctl(PR_SET_PDEATHSIG)`` (through :mod:`ctypes`): the kernel sends the worker a signal when its
  parent goes. The kernel sends it when the *thread* that started the worker ends, which in a live server may be
  a pool's thread that merely finished; so the signal is one the worker catches, and it ends only when its parent
  is really gone (its parent's pid is no longer its parent's);
- everywhere, a watch thread that compares the worker's parent pid with its parent's every ``every`` seconds:
  a worker whose parent died is adopted by another process, and its parent pid changes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["DEATH_SIGNAL", "end_with_parent", "parent_death_signal"]

#: the signal the kernel sends a worker when its parent (the thread that started it) ends (Linux)
DEATH_SIGNAL = signal.SIGUSR2
#: ``prctl``'s option: the signal sent on the parent's death
PR_SET_PDEATHSIG = 1
#: how often the watch thread looks at the parent's pid, in seconds
EVERY = 0.5


def _end() -> None:
    os._exit(1)  # no clean-up: nobody waits for this worker's results any more


def parent_death_signal(sig: int) -> bool:
    """Ask the kernel for ``sig`` when this process's parent ends (Linux; true when it was set)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def end_with_parent(parent: int, every: float = EVERY, prctl: bool = True) -> None:
    """End this process when the process ``parent`` (its parent, by pid) ends: the kernel's signal on Linux
    (``prctl``), and a watch of the parent's pid in a thread of its own (every ``every`` seconds)."""

    def orphaned() -> bool:
        return os.getppid() != parent

    if prctl and threading.current_thread() is threading.main_thread():
        def on_death(signum: int, frame: object) -> None:
            if orphaned():
                _end()

        signal.signal(DEATH_SIGNAL, on_death)
        parent_death_signal(DEATH_SIGNAL)
    if orphaned():  # the parent died before the signal was asked for
        _end()

    def watch() -> None:
        while not orphaned():
            time.sleep(every)
        _end()

    threading.Thread(target=watch, name="dice-parent-watch", daemon=True).start()
