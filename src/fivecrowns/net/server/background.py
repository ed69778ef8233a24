"""Password hashing that never slows the game: argon2id in worker processes at the lowest CPU
priority (issue 28, the log-in flood; benchmarks/bench_login_flood.py measures it).

A log-in's argon2id hash takes about a quarter of a second of CPU, in as many threads as the
hash has lanes (4 by default, started by argon2 itself). A flood of log-ins keeps two hashes
running: eight busy threads, on a machine that may have two cores. In the server's own
process, at its priority, they took the CPU from the event loop, and every other table's
moves waited (p99 of other tables' moves 11 times its quiet value in one run). Lowering those
threads' priority is not enough: a starved thread of the server's own process may be holding
Python's lock (the GIL) when it is stopped, and the event loop then waits for it.

So the hashes run in worker processes (:class:`QuietHasher`, the same ``hash`` and ``verify``
as argon2's ``PasswordHasher``, which does the work there) at the lowest CPU priority: when
the event loop has work the system runs it first, and the hashes take what it leaves, which on
an idle server is everything. The server's thread pool still bounds how many hashes run and
wait at once (accounts.py); each of its threads only waits for its worker's answer.

Each hash runs in one thread (argon2's parallelism 1, :data:`PARAMETERS`), and there are
fewer workers than cores (:func:`hashing_workers`): a flood's hashes take at most all cores
but one, and the event loop always has a core no hash wants. With argon2-cffi's default 4
lanes, 2 workers ran 8 threads on a 2-core machine, and the loop waited for a core behind
them (nice 19 gives them a small share, not none). The lowest priority stays nice 19, not
Linux's SCHED_IDLE: a SCHED_IDLE worker may wait for minutes on a machine kept busy by other
work, and every log-in with it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.profiles import RFC_9106_LOW_MEMORY

__all__ = [
    "LOWEST",
    "PARAMETERS",
    "QuietHasher",
    "cgroup_cores",
    "hashing_workers",
    "lowest_priority",
    "needs_rehash",
]

LOWEST = 19  # the nice value of the workers: the lowest CPU priority there is
#: argon2id as RFC 9106's second recommended option (64 MiB, 3 passes) in one lane, not 4.
#: why still as safe: a guess costs an attacker the memory times the passes, which the lanes
#: only split among threads; OWASP's argon2id settings all use 1 lane, with less memory or
#: fewer passes (19 MiB and 2, 46 MiB and 1). Hashes made with 4 lanes still verify: argon2
#: reads a hash's parameters from the hash itself.
PARAMETERS = dataclasses.replace(RFC_9106_LOW_MEMORY, parallelism=1)
#: Workers at most. why: each hash holds 64 MiB while it runs.
WORKERS_AT_MOST = 2

_hasher: PasswordHasher | None = None  # a worker process's own
T = TypeVar("T")


def cgroup_cores(
    root: Path = Path("/sys/fs/cgroup"), membership: Path = Path("/proc/self/cgroup")
) -> float | None:
    """The CPUs this process's control group may use (cgroup v2 ``cpu.max``: a container
    limited to 1.5 CPUs says 1.5), the least along its path to the root; None if unlimited
    or unknown. why: a container on a many-core host sees every core in its affinity."""
    try:
        lines = membership.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    # cgroup v2 has one line, "0::/its/path"; v1's lines name their controllers
    path = next((line[3:] for line in lines if line.startswith("0::")), None)
    if path is None:
        return None
    least: float | None = None
    root = root.resolve()
    place = (root / path.lstrip("/")).resolve()
    for _ in range(64):  # the depth of a cgroup path, bounded
        try:
            quota, period = (place / "cpu.max").read_text(encoding="ascii").split()[:2]
            if quota != "max" and int(period) > 0:
                cores = int(quota) / int(period)
                least = cores if least is None else min(least, cores)
        except (OSError, ValueError):
            pass  # no limit here (the root has no cpu.max), or one that cannot be read
        if place == root or root not in place.parents:
            break
        place = place.parent
    return least


def hashing_workers(cores: float | None = None) -> int:
    """How many hashes run at once: one core fewer than ``cores`` (the cores this process
    may use: its affinity, and its container's CPU limit), at least 1, at most
    :data:`WORKERS_AT_MOST`; a core is left to the event loop."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        cores = cores or os.cpu_count() or 1
        limit = cgroup_cores()
        if limit is not None:
            cores = min(cores, limit)
    return max(1, min(WORKERS_AT_MOST, int(cores - 1)))


_CHECKER = PasswordHasher.from_parameters(PARAMETERS)  # only reads hashes: no hashing here


def needs_rehash(password_hash: str) -> bool:
    """Whether the hash was made with other settings than :data:`PARAMETERS` (an older
    server's 4 lanes): read from the hash itself, no hashing."""
    try:
        return bool(_CHECKER.check_needs_rehash(password_hash))
    except ValueError:  # not an argon2 hash: nothing to do here (verify refuses it)
        return False


def _end_with_the_server() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()  # why: returns when the server's process ends, however it ends
    os._exit(0)


def lowest_priority() -> None:
    """A worker's start: run at :data:`LOWEST` (the threads argon2 starts inherit it), and
    end with the server, even one killed at once (a worker left waiting for work would hold
    the server's output open, and its memory, for ever)."""
    global _hasher
    _hasher = PasswordHasher.from_parameters(PARAMETERS)
    threading.Thread(target=_end_with_the_server, name="end with the server", daemon=True).start()
    if hasattr(os, "setpriority"):  # why: Windows has no nice values; its hashes run as before
        # why suppress: a sandbox may forbid it; the hashes then run, only yield less
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, LOWEST)


def _hash(password: str) -> str:
    assert _hasher is not None
    return _hasher.hash(password)


def _verify(password_hash: str, password: str) -> bool:
    assert _hasher is not None
    return _hasher.verify(password_hash, password)


class QuietHasher:
    """argon2id's ``hash`` and ``verify`` (:data:`PARAMETERS`), done in ``workers`` worker
    processes at the lowest CPU priority; each call blocks its caller (a thread of the pool in
    accounts.py) until its worker answers. argon2's exceptions come back as they were raised."""

    def __init__(self, workers: int) -> None:
        self._count = workers
        self._lock = threading.Lock()
        # why not at once: a pool's queues hold semaphores from their making, and a process
        # that never hashes (a share worker, a front's worker) would leak them at its stop
        self._workers: ProcessPoolExecutor | None = None
        self._closed = False

    def _start(self) -> ProcessPoolExecutor:
        # why spawn: a fork of the server (threads and an event loop) may copy a held lock;
        # a spawned worker imports only this module and argon2, once, at its first hash
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self._count, context, initializer=lowest_priority)

    def _run(self, work: Callable[..., T], *args: str) -> T:
        for attempt in range(2):
            with self._lock:
                if self._closed:  # why: as a pool shut down refuses new work
                    raise RuntimeError("cannot hash after the hasher was closed")
                if self._workers is None:
                    self._workers = self._start()
                workers = self._workers
            try:
                return workers.submit(work, *args).result()
            except BrokenProcessPool:
                # why again, once: a worker that died (killed, out of memory) breaks the whole
                # pool for good; without new workers no one could log in until a restart
                if attempt:
                    raise
                with self._lock:
                    if self._workers is workers:
                        workers.shutdown(wait=False, cancel_futures=True)
                        self._workers = self._start()
        raise AssertionError("unreachable")

    def hash(self, password: str) -> str:
        return self._run(_hash, password)

    def verify(self, password_hash: str, password: str) -> bool:
        return self._run(_verify, password_hash, password)

    def close(self) -> None:
        with self._lock:
            workers, self._workers, self._closed = self._workers, None, True
        if workers is not None:
            workers.shutdown(wait=False, cancel_futures=True)
