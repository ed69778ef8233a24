"""The locks that keep one game per data folder and one server per server folder.

Both are filelock's: the same advisory lock (flock) on Linux and macOS and msvcrt's on
Windows, dropped by the system when the process dies, even on kill -9.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fivecrowns.core.errors import FiveCrownsError
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.storage.paths import data_dir

__all__ = ["BUSY", "DataFolderBusy", "data_folder_lock", "exclusive_lock"]


BUSY = N_(
    "Another Five Crowns game is running and saving in {folder}. Only one game at a time "
    "can use it, so nothing was started and nothing was changed. Finish or quit the other "
    "game first. Meanwhile you can see past games with: fivecrowns history"
)


class DataFolderBusy(FiveCrownsError):
    """Another copy of the game holds the data folder; the message says what to do."""


@contextlib.contextmanager
def data_folder_lock(folder: Path | None = None) -> Iterator[None]:
    """Hold the data folder for one game: a second copy raises :class:`DataFolderBusy`.

    why filelock, not fcntl: the same advisory lock (flock) on Linux and macOS and
    msvcrt's on Windows; the system drops it when the process dies, even on kill -9.
    A folder where no lock can be taken (read-only) is used without one: the game
    cannot save there anyway, and it says so.
    """
    import filelock

    folder = folder or data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(folder / "fivecrowns.lock", timeout=0, is_singleton=False)
        lock.acquire()
    except filelock.Timeout:
        raise DataFolderBusy(_(BUSY).format(folder=folder)) from None
    except OSError:
        yield
        return
    try:
        _remove_stale_temporaries(folder)
        yield
    finally:
        lock.release()


def _remove_stale_temporaries(folder: Path) -> None:
    """Remove half-written saves a kill left behind (``.autosave.json.XXXX.tmp``): with the
    lock held no other copy is writing, so every one of them is stale."""
    for stale in folder.glob(".*.json.*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()


def exclusive_lock(path: Path) -> Any:
    """An exclusive lock on ``path``, held until released or the process ends; ``None`` if
    another process holds it (``fivecrowns serve`` holds its data folder with it).

    why filelock: the same lock as :func:`data_folder_lock` (flock, msvcrt on Windows),
    dropped by the system when the process dies, even on kill -9.
    """
    import filelock

    lock = filelock.FileLock(path, timeout=0, is_singleton=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        return None
    return lock
