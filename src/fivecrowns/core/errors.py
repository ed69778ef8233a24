"""The errors the game raises. Every message is a sentence a person can hear as it is.

A parse error (bad card token) is not an illegal move (a rule said no), and neither
is a save-file problem; front ends catch :class:`FiveCrownsError` and speak it.
"""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "FiveCrownsError",
    "IllegalMoveError",
    "MeldError",
    "SaveFileError",
    "UsageError",
]


class FiveCrownsError(Exception):
    """Base of every error whose message is meant for the player."""


class CardParseError(FiveCrownsError, ValueError):
    """Text that is not a card, e.g. ``'11h' is not a card: ...``."""


class IllegalMoveError(FiveCrownsError):
    """A move the rules do not allow now; the message says why."""


class MeldError(FiveCrownsError):
    """Cards that are not a book or a run, e.g. "A run cannot hold two 7s."."""


class SaveFileError(FiveCrownsError):
    """A saved game that cannot be read: truncated, corrupted, or not ours."""


class UsageError(FiveCrownsError):
    """A command line that is wrong (a value out of range, options that clash): exit status 2.

    Every other FiveCrownsError that ends a command is a run-time failure: exit status 1.
    """
