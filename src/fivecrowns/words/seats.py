"""How a seat of a network table is said, the same in every client.

A seat as the protocol carries it (``{kind, name, level, standin, left}``, docs/protocol.md)
becomes "Ann", "Bot 2 (computer, easy)", "Ann (left; a computer player plays in their
place)" or "Ann (connection dropped; a computer player plays until they are back)". The
``--keys`` lobby, the plain ``join`` line client and the game's session at a network table
say seats with these templates, so a player hears one wording whichever client they use.
This module imports only the translation functions and the level names: the line client
needs no screen or keyboard code for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fivecrowns.ai.loader import level_name
from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _

__all__ = ["COMPUTER_SEAT", "LEFT_SEAT", "STANDIN_SEAT", "seat_words"]

# why the brackets: in a list of seats "Ann, Bot 2, computer, medium, Bot 3, ..." ran together
COMPUTER_SEAT = N_("{name} (computer, {level})")
# TRANSLATORS: a seat in a list of seats: {name} left the game; a computer plays on for them
LEFT_SEAT = N_("{name} (left; a computer player plays in their place)")
# TRANSLATORS: a seat in a list of seats: {name}'s connection dropped
STANDIN_SEAT = N_("{name} (connection dropped; a computer player plays until they are back)")


def seat_words(seat: Mapping[str, Any], empty: str) -> str:
    """One seat of a table list or a snapshot, in the current language; ``empty`` (already
    translated) for an empty seat, as the client's own list words it.

    >>> seat_words({"kind": "bot", "name": "Ann", "level": "medium", "left": True}, "-")
    'Ann (left; a computer player plays in their place)'
    >>> seat_words({"kind": "empty", "name": None}, "an empty seat")
    'an empty seat'
    """
    name = seat.get("name")
    if seat.get("kind") == "empty" or not name:
        return empty
    if seat.get("left"):
        return _(LEFT_SEAT).format(name=name)
    if seat.get("standin"):
        return _(STANDIN_SEAT).format(name=name)
    if seat.get("kind") == "bot":
        return _(COMPUTER_SEAT).format(name=name, level=level_name(seat.get("level") or ""))
    return str(name)
