"""The game server's garbage collection, kept out of the moves: no full collection of the
whole heap while tables play.

CPython's full (generation 2) collection scans every object the collector tracks. A server
holding thousands of tables has millions of them, so a full collection took hundreds of
milliseconds, and every move that arrived meanwhile waited (issue 29: the server's whole long
tail). Most of those objects are the tables' own and live for a whole game; since a finished
table is no reference cycle (app.py's recorder keeps the table's id, not its room), reference
counting frees it the moment the server lets go of it, frozen or not.

:class:`QuietCollector` therefore

- freezes everything alive at start-up (:func:`gc.freeze`: modules, recovered tables);
- runs young collections less often than CPython's default (``YOUNG``, ``MIDDLE``): most of a
  move's objects are freed by reference counting within the move, and what a collection
  scans is what outlived the moves since the last one, so scanning after every 3,000 new
  objects instead of 700 lets more of them die first;
- turns CPython's own full collections into a rare backstop (``BACKSTOP``);
- once a second, when CPython would have run a full collection by its usual schedule, runs a
  middle-generation one (it scans only the objects made since the last, a few milliseconds)
  and freezes what survives: a long-lived object is scanned a few times, not at every full
  collection for as long as it lives;
- runs one full collection (unfreezing first) only when the frozen objects have grown to
  ``DEEP_GROWTH`` times their number after the last one and ``DEEP_EVERY`` seconds have
  passed since it, so cyclic garbage that was frozen before it became garbage (a closed
  connection's aiohttp objects) cannot grow the server's memory without bound. It is the only
  full collection left (at most one in ten minutes, none while the tables in play stay about
  as many), and its time is logged.

``FIVECROWNS_GC_LOG=path`` (benchmarks only) makes the collector note every collection of
each generation with its duration (``gc.callbacks``) and write them as JSON to ``path`` when
the server stops.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

__all__ = [
    "BACKSTOP",
    "COUNT_EVERY",
    "DEEP_EVERY",
    "DEEP_GROWTH",
    "DUE_AFTER",
    "GC_LOG_VARIABLE",
    "MIDDLE",
    "YOUNG",
    "QuietCollector",
]

log = logging.getLogger(__name__)

#: A young collection after this many new tracked objects (CPython's default is 700), and a
#: middle one after this many young ones (default 10): a middle collection still comes after
#: about as many objects (12,000 against 7,000). why: the server's young and middle
#: collections took 9-12 us of CPU per move at 700 and 10, 6-9 at these, at 100 full-speed
#: tables (bench_server.py --gc-log; 10,000 and 2 saved no more and paused up to 67 ms;
#: benchmarks/results/server-2026-11-27-perf6.txt). Each collection is bigger: the longest
#: young and middle ones took up to 24 and 38 ms on a loaded machine, against 6 and 8.
YOUNG = 3000
MIDDLE = 4
#: Middle-generation collections between two full ones, as CPython's default schedule.
DUE_AFTER = 10
#: CPython's own full collections only after this many middle ones, i.e. never in practice
#: (why so many: only a full collection resets the count, and the middle ones this collector
#: runs add to it; memory stays bounded by the collector's own full collections).
BACKSTOP = 1_000_000_000
#: A full collection once the frozen objects are this many times those after the last one...
DEEP_GROWTH = 2.0
#: ...and at least this many seconds after the last one (or the start). why: a server filling
#: up with tables doubles its objects again and again in its first minutes, each time a pause.
DEEP_EVERY = 600.0
#: Seconds between two counts of the frozen objects at most. why: counting walks all of them
#: (about 10 ms of CPU a million), so it is done only when a full collection may be due.
COUNT_EVERY = 60.0
#: The environment variable naming the file collection times are written to (benchmarks).
GC_LOG_VARIABLE = "FIVECROWNS_GC_LOG"
PASSES = 100_000_000  # seconds of the collector's loop at most (years)


class QuietCollector:
    """Start with :meth:`start` once the server is up, run :meth:`run` as a task, and
    :meth:`stop` at the end (which writes the collection log, if asked for)."""

    def __init__(
        self,
        log_path: str | None = None,
        deep_every: float = DEEP_EVERY,
        count_every: float = COUNT_EVERY,
    ) -> None:
        self._saved: tuple[int, int, int] | None = None
        self._deep_every = deep_every
        self._count_every = count_every
        self._deep_at = 0.0  # time.monotonic() of the last full collection (or the start)
        self._counted_at = 0.0  # time.monotonic() of the last count of the frozen objects
        self._frozen_after_deep = 0
        # objects frozen since, at most (some were freed since): cheap to keep, unlike a count
        self._frozen_since = 0
        self._middle_count = 0  # gc.get_count()[2] after the collector's last collection
        self.promotions = 0  # middle collections whose survivors were frozen
        self.deep = 0  # full collections run by this collector
        self._log_path = Path(log_path) if log_path else None
        self._timings: list[dict[str, Any]] = []
        self._started_at = (0.0, 0.0)  # perf_counter and thread CPU time of a collection's start

    @classmethod
    def from_environment(cls) -> QuietCollector:
        return cls(os.environ.get(GC_LOG_VARIABLE))

    def start(self) -> None:
        if self._saved is not None:
            return
        if self._log_path is not None:
            gc.callbacks.append(self._note)
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()  # why: start-up objects live as long as the server; scanning them is waste
        self._frozen_after_deep = gc.get_freeze_count()
        self._middle_count = gc.get_count()[2]
        self._deep_at = time.monotonic()
        gc.set_threshold(YOUNG, MIDDLE, BACKSTOP)

    def tick(self) -> str | None:
        """One pass: ``"deep"`` after a full collection, ``"promote"`` after a middle one and
        a freeze, ``None`` if nothing was due."""
        if self._saved is None or gc.get_count()[2] - self._middle_count < DUE_AFTER:
            return None
        if self._deep_due():
            started = time.perf_counter()
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self._frozen_after_deep = gc.get_freeze_count()
            self._frozen_since = 0
            self._middle_count = gc.get_count()[2]
            self._deep_at = time.monotonic()
            self.deep += 1
            log.info(
                "A full garbage collection took %.0f ms; %d objects stay",
                1000 * (time.perf_counter() - started),
                self._frozen_after_deep,
            )
            return "deep"
        gc.collect(1)
        # why the oldest generation's objects only: the frozen ones are not in it, so listing
        # them costs what the young collection did
        self._frozen_since += len(gc.get_objects(2))
        gc.freeze()
        self._middle_count = gc.get_count()[2]
        self.promotions += 1
        return "promote"

    def _deep_due(self) -> bool:
        """The frozen objects doubled since the last full collection, which was long enough
        ago; they are counted (a walk over all of them) only when the cheap bound says so."""
        now = time.monotonic()
        if now - self._deep_at < self._deep_every or now - self._counted_at < self._count_every:
            return False
        wanted = (DEEP_GROWTH - 1) * max(1, self._frozen_after_deep)
        if self._frozen_since < wanted:
            return False
        self._counted_at = now
        self._frozen_since = gc.get_freeze_count() - self._frozen_after_deep
        return self._frozen_since >= wanted

    async def run(self, every: float = 1.0) -> None:
        for _pass in range(PASSES):
            await asyncio.sleep(every)
            self.tick()

    def stop(self) -> None:
        if self._saved is None:
            return
        gc.set_threshold(*self._saved)
        gc.unfreeze()
        self._saved = None
        if self._log_path is not None:
            gc.callbacks.remove(self._note)
            summary = {"promotions": self.promotions, "deep": self.deep, "gc": self._timings}
            self._log_path.write_text(json.dumps(summary), encoding="utf-8")

    def _note(self, phase: str, info: dict[str, Any]) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if phase == "start":
            self._started_at = (now, cpu)
            return
        self._timings.append(
            {
                "generation": info["generation"],
                "ms": 1000 * (now - self._started_at[0]),
                # why both: on a busy machine a collection's wall time includes waiting for a CPU
                "cpu_ms": 1000 * (cpu - self._started_at[1]),
                "at": now,  # perf_counter: CLOCK_MONOTONIC, as the bench clients' clock
                "collected": info["collected"],
            }
        )
