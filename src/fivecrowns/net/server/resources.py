"""What the operating system lets the game server hold: open files (each connection is one),
and the log line when ``accept()`` finds none left.

Without these a server whose ``--max-connections`` was above the file limit (``ulimit -n``)
hit it first: asyncio then tries ``accept()`` up to the listen backlog at once, logging a
traceback for each failure (about 157 MB of log in 30 s), and the starved event loop dropped
live connections.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections.abc import Callable
from typing import Any

__all__ = ["RESERVED_FILES", "AcceptErrors", "files_for_connections"]

log = logging.getLogger(__name__)

# why: besides its WebSockets the server holds the database and its journal, the lock, the
# log, its listening sockets, and connections still sending their HTTP request or refused
RESERVED_FILES = 256
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's message for it


def files_for_connections(asked: int) -> tuple[int, int | None]:
    """Raise the soft open-file limit toward the hard one so that ``asked`` connections fit;
    returns how many connections fit (``asked`` or fewer) and the soft limit now (None where
    there is no such limit, as on Windows)."""
    try:
        import resource
    except ImportError:  # why: Windows has no RLIMIT_NOFILE; its sockets are not counted so
        return asked, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = asked + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # why: a sandbox may refuse; the cap below still holds
            pass
    if soft == resource.RLIM_INFINITY:
        return asked, None
    return min(asked, max(1, soft - RESERVED_FILES)), soft


class AcceptErrors:
    """The event loop's exception handler: ``accept()`` failing for want of files, memory or
    buffers is logged as one short line per kind (EMFILE, ENFILE, ...) per ``interval``
    seconds, with how many were left out, and no traceback; anything else as asyncio would."""

    def __init__(self, interval: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.interval = interval
        self._clock = clock
        self._said: dict[str, float] = {}  # kind: when it was last logged
        self._left_out: dict[str, int] = {}

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if _late_accept_retry(context):
            return  # nothing to tell: the server is stopping and its socket is already closed
        if context.get("message") != ACCEPT_FAILED or not isinstance(error, OSError):
            loop.default_exception_handler(context)
            return
        kind = errno.errorcode.get(error.errno or 0, str(error.errno))
        now = self._clock()
        said = self._said.get(kind)
        if said is not None and now - said < self.interval:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return
        self._said[kind] = now
        left_out = self._left_out.pop(kind, 0)
        more = f"; {left_out} more like it since the last such line" if left_out else ""
        log.warning("Cannot accept a connection: %s (%s)%s", kind, error.strerror, more)


def _late_accept_retry(context: dict[str, Any]) -> bool:
    """asyncio's retry of ``accept()`` (a second after EMFILE) that fires once the listening
    socket is closed: ``ValueError: Invalid file descriptor: -1`` from ``_start_serving``.

    why: CPython 3.12 schedules the retry and does not cancel it when the server closes, so a
    server stopped during a flood logged a traceback per pending retry (3.13 does not).
    """
    handle = context.get("handle")
    callback = getattr(handle, "_callback", None)
    return isinstance(context.get("exception"), ValueError) and (
        getattr(callback, "__name__", "") == "_start_serving"
    )
