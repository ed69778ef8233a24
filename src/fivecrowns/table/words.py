"""The sentences a table sends with its events (whole sentences, named placeholders).

Game events are worded by :mod:`fivecrowns.ui.announce`, exactly as local play
speaks them; the table's own events (someone sat down, chat, a stand-in) are
worded here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fivecrowns.cards import Card, Rank
from fivecrowns.game import Event, LastTurnStarted, TurnStarted
from fivecrowns.ui.announce import describe_events

__all__ = ["event_text", "table_event_text"]

BOT_NAME = "Computer {number}"
SEATS_EMPTY = "Seat {seat} is empty: add a computer player or wait for someone to join."
ALREADY_STARTED = "The game has started, so you can no longer {what}."
STALE = (
    "That move was made against event {seq}, but the table is at event {now}: "
    "hear what changed, then play again."
)
BAD_SEQ = "There is no event {seq} to resume from; the table is at event {now}."
YOUR_TURN = "Your turn."
THEIR_TURN = "{name}'s turn."

_TABLE_EVENTS = {
    "seat_taken": "{name} sat down in seat {number}.",
    "seat_left": "{name} left the table.",
    "bot_added": "{name} joined in seat {number}, a {level} computer player.",
    "bot_removed": "{name} left the table.",
    "stand_in": "{name}'s connection dropped: a computer plays for {name} until they are back.",
    "hand_back": "{name} is back and plays again.",
    "chat": "{name} says: {text}",
    "game_started": "The game starts.",
}


def table_event_text(kind: str, data: dict[str, Any], viewer: int | None) -> str:
    template = _TABLE_EVENTS.get(kind, "")
    seat = data.get("seat")
    number = seat + 1 if isinstance(seat, int) else 0
    return template.format(number=number, **data)


def event_text(
    event: Event, names: Sequence[str], viewer: int | None, wild: Rank, hand: Sequence[Card]
) -> str:
    """The sentence local play would speak for ``event`` to ``viewer`` (already redacted)."""
    if isinstance(event, TurnStarted):
        return YOUR_TURN if event.player == viewer else THEIR_TURN.format(name=names[event.player])
    if isinstance(event, LastTurnStarted) and event.player != viewer:
        return THEIR_TURN.format(name=names[event.player])
    said = describe_events([event], names, viewer, wild, "normal", hand_at_start=hand)
    return " ".join(announcement.text for announcement in said)
