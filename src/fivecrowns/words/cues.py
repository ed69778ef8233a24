"""Which sound cue goes with which event: the one table both clients play from.

The terminal (fivecrowns.words.announce, fivecrowns.net.client.link) looks its cues up here,
and the game server sends this table to the web page with the sound pack's list
(fivecrowns.net.server.web), so the page and the terminal cannot drift apart. A cue name is
one of fivecrowns.output.sounds.SOUND_NAMES (a test checks); this layer only names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["EVENT_CUES", "REFUSED", "TABLE_KINDS", "Cues", "event_cue"]


class Cues(NamedTuple):
    """The cue for an event that is yours, and for the same event when it is another's."""

    yours: str | None
    others: str | None


#: Every protocol event kind that has a cue (docs/protocol.md), with its two cues.
EVENT_CUES: dict[str, Cues] = {
    "round_started": Cues("shuffle", "shuffle"),
    "stock_reshuffled": Cues("shuffle", "shuffle"),
    # why "other_turn" only at a person's turn: a computer's moves are told at once after it,
    # so its turn's start would be noise (fivecrowns.ui.session.news does the same)
    "turn_started": Cues("your_turn", "other_turn"),
    "drew_from_stock": Cues("draw_stock", "other_draw_stock"),
    "took_discard": Cues("take_discard", "other_take_discard"),
    "discarded": Cues("discard", "other_discard"),
    # why no cue for melds that are none: a last turn may lay nothing down
    "laid_down": Cues("meld", "other_meld"),
    "went_out": Cues("went_out", "went_out"),
    "last_turn_started": Cues("your_last_turn", "last_turn"),
    "round_scored": Cues("round_over", "round_over"),
    "game_over": Cues("game_over", "game_over"),
    "chat": Cues("chat", "chat"),
    "seat_taken": Cues("player_joined", "player_joined"),
    "bot_added": Cues("player_joined", "player_joined"),
    "seat_left": Cues("player_left", "player_left"),
    "bot_removed": Cues("player_left", "player_left"),
    "dropped": Cues("player_dropped", "player_dropped"),
    "hand_back": Cues("player_back", "player_back"),
}
#: The table's own news (seats and chat): the same cue whoever it is about.
TABLE_KINDS = frozenset(
    ("chat", "seat_taken", "bot_added", "seat_left", "bot_removed", "dropped", "hand_back")
)
#: The cue for a refused key or move (an error frame; the reason is spoken with it).
REFUSED = "invalid"


def event_cue(
    kind: str, data: Mapping[str, Any], you: int | None, human: bool = True
) -> str | None:
    """The cue for an event of ``kind`` with ``data`` heard at seat ``you`` (``None``: a
    spectator); ``human`` says whether the seat in ``data["player"]`` is a person."""
    cues = EVENT_CUES.get(kind)
    if cues is None:
        return None
    if kind in TABLE_KINDS:
        return cues.others
    if kind == "laid_down" and not data.get("melds"):
        return None
    mine = you is not None and data.get("player") == you
    if kind == "turn_started" and not mine and not human:
        return None
    return cues.yours if mine else cues.others
