"""How a client takes a dropped connection up again: one policy for every client.

Both ``fivecrowns join`` clients (the line client and ``--keys``) use :data:`RECONNECT`,
so neither gives up before the server's grace for a dropped seat ends (30 s by default):
a dropped connection is tried again for 5 minutes, with pauses growing to 5 s, at most
400 attempts in a row and at most 200 drops in one run (every loop bounded in count as
well as in time).

>>> [RECONNECT.pause(attempt) for attempt in (1, 2, 5, 10, 400)]
[0.5, 1.0, 2.5, 5.0, 5.0]
>>> RECONNECT.minutes
5
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RECONNECT", "RetryPolicy"]


@dataclass(frozen=True)
class RetryPolicy:
    """How long, how often and how many times a dropped connection is tried again."""

    #: Seconds a dropped connection is tried again (well past the server's 30-second grace).
    window: float = 300.0
    #: The longest pause between two attempts, in seconds.
    longest_pause: float = 5.0
    #: Attempts in a row at most (why a count too: every loop bounded in count and in time).
    attempts: int = 400
    #: Connections taken up again at most in one run of a client.
    drops: int = 200

    def pause(self, attempt: int) -> float:
        """The pause after failed attempt ``attempt`` (from 1): growing, then capped."""
        return min(0.5 * attempt, self.longest_pause)

    @property
    def minutes(self) -> int:
        """The window in whole minutes, as the player hears it."""
        return round(self.window / 60)


RECONNECT = RetryPolicy()
