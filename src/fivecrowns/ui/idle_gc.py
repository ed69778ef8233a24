"""Full garbage collections at idle moments, so that no key press waits for one.

CPython runs a full (generation 2) collection by itself every ten or so young
collections; with a game's objects it takes 25 to 50 ms, and it lands inside
whatever is running, a key press included. While a presentation runs,
:class:`IdleCollector` keeps the young collections (they take well under a
millisecond) but moves full ones to moments when the player waits anyway: the
pause before a computer player's move, and a moment after the last key (the
round's result, reading the table). Objects alive at start-up (modules,
tables) are frozen out of every collection (:func:`gc.freeze`).

If no idle moment comes for a long time, CPython still collects by itself at
ten times its usual interval, so memory stays bounded whatever the player does.
"""

from __future__ import annotations

import gc

__all__ = ["IdleCollector"]

#: Young-generation collections between two full ones, as CPython's default schedule.
DUE_AFTER = 10
#: CPython's own full collections, only when no idle moment came for this many (10x usual).
BACKSTOP = 100
#: Seconds without a key before the idle collection after a key runs.
IDLE_AFTER_KEY = 0.4


class IdleCollector:
    """Start with :meth:`start`, call :meth:`idle` at idle moments, :meth:`stop` at the end."""

    def __init__(self) -> None:
        self.collections = 0
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        if self._saved is not None:
            return
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()  # why: start-up objects live as long as the program; scanning them is waste
        young, middle, _ = self._saved
        gc.set_threshold(young, middle, BACKSTOP)

    def idle(self) -> bool:
        """A full collection if one is due (CPython's usual interval); whether it ran."""
        if self._saved is None or gc.get_count()[2] < DUE_AFTER:
            return False
        gc.collect()
        self.collections += 1
        return True

    def stop(self) -> None:
        if self._saved is None:
            return
        gc.set_threshold(*self._saved)
        gc.unfreeze()
        self._saved = None
