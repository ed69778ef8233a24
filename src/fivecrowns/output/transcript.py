"""``--transcript FILE``: every announcement appended as one time-stamped line.

Lines look like ``2026-11-22T10:30:01.250+00:00 Your turn.``; braille-only text
and sounds are marked ``[braille]`` and ``[sound]`` so the file reads as a log of
exactly what the player was given.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import TextIO

from fivecrowns.i18n import gettext as _

from .base import OutputError

__all__ = ["Transcript"]


class Transcript:
    """Appends to a text file, one line per announcement, flushed at once."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            # why backslashreplace: text that cannot be UTF-8 (a stray terminal byte) is
            # written escaped, never a UnicodeEncodeError that stops the game
            self._file: TextIO = self.path.open("a", encoding="utf-8", errors="backslashreplace")
        except OSError as error:
            reason = error.strerror or str(error)
            raise OutputError(
                _("Cannot write the transcript to {path}: {reason}.").format(
                    path=self.path, reason=reason
                )
            ) from None
        self._lock = threading.Lock()

    def write(self, text: str, kind: str = "", time: datetime | None = None) -> None:
        """Append one line; newlines inside ``text`` become spaces."""
        stamp = (time or datetime.now().astimezone()).isoformat(timespec="milliseconds")
        flat = " ".join(text.split())
        marker = f"[{kind}] " if kind else ""
        with self._lock:
            if self._file.closed:
                return
            try:
                self._file.write(f"{stamp} {marker}{flat}\n")
                self._file.flush()
            except OSError:
                # A full disk must not take the game down; the speech still goes out.
                pass

    def close(self) -> None:
        with self._lock:
            self._file.close()
