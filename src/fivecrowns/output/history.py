"""Everything announced, for repeat-last and for reviewing older messages.

A cursor walks the history: :meth:`History.older` and :meth:`History.newer` move
one message, :meth:`History.oldest` and :meth:`History.newest` jump to the ends.
The cursor starts on the newest message and goes back to it whenever a new
message arrives: the next step back starts from what was said last, as a
screen reader's own history does. :meth:`History.position` says where it is.
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
        """Record ``text``; the review cursor goes back to the newest message."""
        entry = Entry(time or datetime.now().astimezone(), text)
        with self._lock:
            self._back = 0
            self._entries.append(entry)
        return entry

    def position(self) -> tuple[int, int]:
        """The cursor's place counted from the oldest (1 is the oldest), and the count.

        >>> history = History()
        >>> for text in ("one", "two", "three"):
        ...     _ = history.add(text)
        >>> _ = history.older()
        >>> history.position()
        (2, 3)
        """
        with self._lock:
            count = len(self._entries)
            return count - self._back, count

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
