"""Short log lines for what a public server meets every day: bad HTTP requests and saves
that fail (a full disk), instead of a whole traceback each time (issue 26, item 13).

A traceback is for a bug; a port scanner's garbage or a disk that filled up is news to the
operator in one line, and a flood of them must not fill the disk that is already full.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiohttp.http_exceptions import HttpProcessingError

__all__ = ["BadRequestLines", "Throttled", "quiet_bad_requests"]

AIOHTTP_SERVER_LOG = "aiohttp.server"  # where aiohttp logs a request it could not read


class BadRequestLines(logging.Filter):
    """Turns aiohttp's "Error handling request" with a traceback, for a request that is not
    HTTP (an ``HttpProcessingError``), into one warning line saying what was wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            # why the first line only: the rest quotes the client's bytes
            lines = str(error.message).strip().splitlines()
            reason = lines[0][:100] if lines else type(error).__name__
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "Bad HTTP request from %s: %s (answered 400)"
            record.args = (remote, reason)
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_requests() -> None:
    """Log bad HTTP requests in one line each (see :class:`BadRequestLines`); once only."""
    logger = logging.getLogger(AIOHTTP_SERVER_LOG)
    if not any(isinstance(known, BadRequestLines) for known in logger.filters):
        logger.addFilter(BadRequestLines())


class Throttled:
    """One log line per ``interval`` seconds for a trouble that repeats (a save failing on a
    full disk), saying how many were left out; and one when it is over."""

    def __init__(
        self,
        log: logging.Logger,
        interval: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self.interval = interval
        self._clock = clock
        self._said: float | None = None
        self._left_out = 0
        self.troubled = False

    def failed(self, what: str, error: BaseException) -> None:
        self.troubled = True
        now = self._clock()
        if self._said is not None and now - self._said < self.interval:
            self._left_out += 1
            return
        more = f"; {self._left_out} more like it since the last such line" if self._left_out else ""
        self._said, self._left_out = now, 0
        self._log.error("%s: %s%s", what, _reason(error), more)

    def recovered(self, what: str) -> None:
        if self.troubled:
            self.troubled, self._said, self._left_out = False, None, 0
            self._log.warning("%s", what)


def _reason(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}"[:200]
