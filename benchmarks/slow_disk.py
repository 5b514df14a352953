"""A slower disk for the table run (``--fsync-ms``): a library preloaded into the server's processes
(``LD_PRELOAD``, Linux) that makes every ``fsync`` and ``fdatasync`` wait that many milliseconds before it
flushes, as a disk whose flush takes that long would (this machine's disk flushed in 5-7 ms on 2026-12-02 and in
0.3-0.8 ms on 2026-12-05: the same run measured on both is told apart so). Built with the C compiler on first
use, in a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

__all__ = ["environment"]

_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void wait_flush(void) {
    static long us = -1;
    if (us < 0) {
        const char *text = getenv("DICE_SLOW_FSYNC_US");
        us = text ? atol(text) : 0;
    }
    if (us > 0) {
        struct timespec t = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&t, 0);
    }
}

int fsync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_flush();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_flush();
    return real(fd);
}
"""


def environment(milliseconds: float, folder: str | None = None) -> dict[str, str]:
    """The environment variables that give a process started with them a disk whose every flush takes
    ``milliseconds`` more (the library built in ``folder``, else a new temporary folder)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("--fsync-ms needs a C compiler (cc) to build its preloaded library")
    folder = folder or tempfile.mkdtemp(prefix="dice-slow-disk-")
    source, library = os.path.join(folder, "slow_fsync.c"), os.path.join(folder, "slow_fsync.so")
    with open(source, "w") as f:
        f.write(_SOURCE)
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"], check=True)
    return {"LD_PRELOAD": library, "DICE_SLOW_FSYNC_US": str(round(milliseconds * 1000))}
