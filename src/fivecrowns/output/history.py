"""Everything announced, for repeat-last and for reviewing older messages.

A cursor walks the history: :meth:`History.older` and :meth:`History.newer` move
one message, :meth:`History.oldest` and :meth:`History.newest` jump to the ends.
The cursor starts on the newest message and stays where the player left it
while new messages arrive, so reviewing is not disturbed by other players' moves.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Entry", "History"]


@dataclass(frozen=True)
class Entry:
    """One announcement: when, and what was said."""

    time: datetime
    text: str


class History:
    """A bounded list of announcements with a review cursor.

    >>> history = History()
    >>> for text in ("Round 1.", "Your turn.", "Ana discarded the 5 of stars."):
    ...     _ = history.add(text)
    >>> history.last().text
    'Ana discarded the 5 of stars.'
    >>> history.older().text, history.older().text, history.older()
    ('Your turn.', 'Round 1.', None)
    >>> history.newest().text
    'Ana discarded the 5 of stars.'
    """

    def __init__(self, limit: int = 1000) -> None:
        if limit < 1:
            raise ValueError(f"history limit must be at least 1, not {limit}")
        self._entries: deque[Entry] = deque(maxlen=limit)
        # Position counted from the newest entry: 0 is the newest.
        self._back = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self) -> list[Entry]:
        """All entries, oldest first."""
        with self._lock:
            return list(self._entries)

    def add(self, text: str, time: datetime | None = None) -> Entry:
        """Record ``text``; a reviewing cursor keeps pointing at the same message."""
        entry = Entry(time or datetime.now().astimezone(), text)
        with self._lock:
            if self._back and len(self._entries) < (self._entries.maxlen or 0):
                self._back += 1
            elif self._back:
                self._back = min(self._back + 1, len(self._entries) - 1)
            self._entries.append(entry)
        return entry

    def last(self) -> Entry | None:
        """The newest entry (for repeat-last); moves the cursor there."""
        return self.newest()

    def current(self) -> Entry | None:
        """The entry under the cursor, without moving it."""
        with self._lock:
            if not self._entries:
                return None
            return self._entries[-1 - self._back]

    def older(self) -> Entry | None:
        """Move one message back; ``None`` (cursor unchanged) at the oldest."""
        with self._lock:
            if self._back + 1 >= len(self._entries):
                return None
            self._back += 1
            return self._entries[-1 - self._back]

    def newer(self) -> Entry | None:
        """Move one message forward; ``None`` (cursor unchanged) at the newest."""
        with self._lock:
            if self._back == 0 or not self._entries:
                return None
            self._back -= 1
            return self._entries[-1 - self._back]

    def oldest(self) -> Entry | None:
        """Jump to the oldest message."""
        with self._lock:
            if not self._entries:
                return None
            self._back = len(self._entries) - 1
            return self._entries[0]

    def newest(self) -> Entry | None:
        """Jump to the newest message."""
        with self._lock:
            if not self._entries:
                return None
            self._back = 0
            return self._entries[-1]
