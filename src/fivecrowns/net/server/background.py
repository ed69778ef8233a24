"""Work that must never slow the game: a thread pool whose threads yield the CPU to the event
loop (issue 28, the log-in flood).

A log-in's argon2id hash takes a quarter of a second of CPU, in as many threads as the hash
has lanes (4 by default, each started by argon2 itself). A flood of log-ins keeps two hashes
running, eight busy threads on a machine that may have two cores; at the same priority as the
event loop they take most of the CPU from it, and every other table's moves wait
(benchmarks/bench_login_flood.py: p50 from 2 ms to 18 ms, and worse on a loaded machine). The
pool's threads run at the lowest CPU priority instead: when the event loop has work it runs
at once, and the hashes take only what the loop leaves, which on an idle server is all of it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["LOWEST", "background_pool", "run_in_background"]

LOWEST = 19  # the nice value of the pool's threads: the lowest CPU priority there is


def run_in_background() -> None:
    """Lower this thread's CPU priority to :data:`LOWEST`; threads it starts inherit it.

    why Linux only: there a thread's nice value is its own (setpriority with the thread's id);
    elsewhere it would be the whole process's, the event loop's too, so nothing is changed."""
    if sys.platform != "linux":
        return
    # why suppress: a sandbox may forbid it; the hashes then run as before, only slower to yield
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST)


def background_pool(workers: int, name: str) -> ThreadPoolExecutor:
    """A pool of ``workers`` threads that run at the lowest CPU priority."""
    return ThreadPoolExecutor(workers, name, initializer=run_in_background)
