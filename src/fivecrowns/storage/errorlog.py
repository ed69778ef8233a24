"""errors.log: what went wrong inside the program, for a bug report, never shown as a traceback.

Written through :mod:`logging` with a timestamp on each entry and rotation (a few
files of 256 KiB at most), in the platform's log folder (platformdirs), or in
``FIVECROWNS_LOG_DIR`` when set. When ``FIVECROWNS_DATA_DIR`` chooses the data
folder (a portable copy, the tests), the log goes there too, so one setting
keeps everything of the game in one place.
"""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

__all__ = ["BACKUPS", "MAX_BYTES", "error_log_path", "log_dir", "log_error"]

MAX_BYTES = 256 * 1024
BACKUPS = 3
_FORMAT = "%(asctime)s %(levelname)s %(message)s"


def log_dir() -> Path:
    """``FIVECROWNS_LOG_DIR``, else ``FIVECROWNS_DATA_DIR``, else the platform's log folder."""
    for variable in ("FIVECROWNS_LOG_DIR", "FIVECROWNS_DATA_DIR"):
        override = os.environ.get(variable)
        if override:
            return Path(override)
    import platformdirs

    return Path(platformdirs.user_log_dir("fivecrowns", appauthor=False))


def error_log_path() -> Path:
    return log_dir() / "errors.log"


def log_error(what: str, error: BaseException) -> Path | None:
    """Append ``what`` and the traceback of ``error``; the file's path, or None if unwritable."""
    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    logger = logging.getLogger("fivecrowns.core.errors")
    logger.propagate = False  # why: never onto the player's screen through a root handler
    logger.setLevel(logging.ERROR)
    # why: a handler for this one entry, closed at once: errors are rare, and the folder
    # can change between calls (settings, tests); nothing stays open.
    logger.addHandler(handler)
    try:
        logger.error("%s", what, exc_info=(type(error), error, error.__traceback__))
    finally:
        logger.removeHandler(handler)
        handler.close()
    return path
