"""The sentences a table sends with its events (whole sentences, named placeholders).

Game events are worded by :mod:`fivecrowns.words.announce`, exactly as local play
speaks them; the table's own events (someone sat down, chat, a stand-in) are
worded here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fivecrowns.ai.loader import level_name
from fivecrowns.core.cards import Card, Rank
from fivecrowns.core.moves import (
    Discarded,
    DrewFromStock,
    Event,
    LaidDown,
    LastTurnStarted,
    TookDiscard,
    TurnStarted,
)
from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.words.announce import describe_events, lone_turn_sentence

__all__ = ["already_started", "away_words", "dropped_text", "event_text", "table_event_text"]

# Module-level templates are marked with N_ and translated where they are used (a server
# words one event in each of its players' languages).
# A computer player's name is a name, the same for every listener, not a sentence: a name
# worded in the creator's language ("Automático 2") reached English players as it was, and
# wording it per listener would change a name kept in every view, event, save and history.
# "Bot" reads the same in English and Spanish.
BOT_NAME = "Bot {number}"
NOT_OVER = N_("This table's game is not over yet.")
SEATS_EMPTY = N_("Seat {seat} is empty: add a computer player or wait for someone to join.")
# One whole sentence for each thing that cannot be done once the game has started.
_ALREADY_STARTED = {
    "join": N_("The game has started, so you can no longer join."),
    "add computer players": N_("The game has started, so you can no longer add computer players."),
    "remove computer players": N_(
        "The game has started, so you can no longer remove computer players."
    ),
    "start": N_("The game has started, so you can no longer start."),
}
STALE = N_(
    "That move was made against event {seq}, but the table is at event {now}: "
    "hear what changed, then play again."
)
BAD_SEQ = N_("There is no event {seq} to resume from; the table is at event {now}.")
YOUR_TURN = N_("Your turn.")
AWAY_SOON = N_(
    "{name}'s connection dropped: a computer plays for {name} in a moment unless they are back."
)
THEIR_TURN = N_("{name}'s turn.")

_TABLE_EVENTS = {
    "seat_taken": N_("{name} sat down in seat {number}."),
    "seat_left": N_("{name} left the table."),
    "seat_left_computer": N_("{name} left the table; a computer player plays in their place."),
    # TRANSLATORS: {level} is a computer player's level: easy, medium, hard or simple
    "bot_added": N_("{name} joined in seat {number}: a computer player of level {level}."),
    "bot_removed": N_("{name} left the table."),
    "stand_in": N_("{name}'s connection dropped: a computer plays for {name} until they are back."),
    "hand_back": N_("{name} is back and plays again."),
    # TRANSLATORS: {text} is what the player typed, sent on as it is
    "chat": N_("{name} says: {text}"),
    "game_started": N_("The game starts."),
    "new_game": N_("A new game starts, with the same players."),
    "spectator_chat_off": N_("Spectators' chat is off: only the players can chat here."),
    "spectator_chat_on": N_("Spectators can chat here again."),
}
SPECTATORS_QUIET = N_(
    "Only the players can chat at this table: its creator turned spectators' chat off."
)


def dropped_text(name: str, seconds: int) -> str:
    """ "Ann's connection dropped: a computer plays for Ann in 30 seconds unless they are
    back." (issue 26, item 18: said at once, not only when the computer starts)"""
    return ngettext(
        "{name}'s connection dropped: a computer plays for {name} in {count} second "
        "unless they are back.",
        "{name}'s connection dropped: a computer plays for {name} in {count} seconds "
        "unless they are back.",
        seconds,
    ).format(name=name, count=seconds)


def away_words(name: str, seconds: int | None) -> str:
    """Whose connection dropped, and when a computer plays for them (``seconds`` from now;
    None or 0 when that is not known or due now), for the whose-turn key."""
    if seconds:
        return dropped_text(name, seconds)
    return _(AWAY_SOON).format(name=name)


def already_started(what: str) -> str:
    """ "The game has started, so you can no longer join.", in the current language."""
    return _(_ALREADY_STARTED[what])


def table_event_text(kind: str, data: dict[str, Any], viewer: int | None) -> str:
    if kind == "dropped":
        return dropped_text(str(data.get("name", "")), int(data.get("seconds", 0)))
    if kind == "seat_left" and data.get("computer"):
        kind = "seat_left_computer"
    elif kind == "spectator_chat":
        kind = "spectator_chat_on" if data.get("allowed") else "spectator_chat_off"
    template = _TABLE_EVENTS.get(kind)
    if template is None:
        return ""
    seat = data.get("seat")
    number = seat + 1 if isinstance(seat, int) else 0
    values = dict(data)
    if isinstance(values.get("level"), str):
        values["level"] = level_name(values["level"])
    return _(template).format(number=number, **values)


#: Events said by :func:`turn_summary` when alone (a tuple made once: ``A | B`` in isinstance
#: builds a new union at every call, and the server words about three events per move).
_TURN_EVENTS = (DrewFromStock, TookDiscard, Discarded, LaidDown)


def event_text(
    event: Event, names: Sequence[str], viewer: int | None, wild: Rank, hand: Sequence[Card]
) -> str:
    """The sentence local play would speak for ``event`` to ``viewer`` (already redacted)."""
    if isinstance(event, TurnStarted):
        if event.player == viewer:
            return _(YOUR_TURN)
        return _(THEIR_TURN).format(name=names[event.player])
    if isinstance(event, LastTurnStarted) and event.player != viewer:
        return _(THEIR_TURN).format(name=names[event.player])
    if isinstance(event, _TURN_EVENTS):
        # why straight to the sentence: describe_events says a lone turn event with this one
        # sentence (and a sound the server does not send); most events are these (issue 29)
        return lone_turn_sentence(event, names, viewer, wild)
    said = describe_events([event], names, viewer, wild, "normal", hand_at_start=hand)
    return " ".join(announcement.text for announcement in said)
