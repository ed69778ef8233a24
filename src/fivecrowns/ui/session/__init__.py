"""The command layer: keys -> actions -> game moves -> events -> announcements.

One :class:`Session` serves both presentations. A presentation forwards every
key press to :meth:`Session.press`; the session looks the key up in the keymap
table for the screen that is open (play, the action menu or help list, a
confirmation, the hot-seat privacy screen), runs the action, and speaks the
result through the output layer. What the player asked for interrupts; what
other players did queues (STYLE practice 9). A refused action is answered with
its sentence and the invalid-action sound, and changes nothing.

The same session plays locally (hot seat and computer players), at one seat of a
network table, or watches one; what differs is its mode. The parts, one module each:

- ``session``: :class:`Session`, the parts put together; the start, key dispatch, the screen.
- ``base``: the state the parts share, what they read, what one asks of another.
- ``modes``: local play, a network seat, watching (saving, new games, leaving, spectators).
- ``moves``: the turn keys and the computer players' turns.
- ``news``: telling each seat its events, your turn, the round's pause, the game's end.
- ``hotseat``: the privacy screen between two humans' turns at one keyboard.
- ``info``: the information keys and the hint.
- ``hand``: moving through the hand, and sorting it.
- ``menus``: the action menu, help, and the export key.
- ``chat``: typing a line to a network table.
- ``seats``: who sits where, and what each human seat keeps.
- ``resume``: a saved game rebuilt, and a new game's seed.
"""

from __future__ import annotations

from fivecrowns.ui.session.info import ROUND_BEFORE_WATCHING
from fivecrowns.ui.session.modes import WATCHING_NO_HAND, WATCHING_NO_NEWS
from fivecrowns.ui.session.news import AFTER_GAME_GUEST
from fivecrowns.ui.session.resume import game_from_save, new_seed
from fivecrowns.ui.session.seats import WATCHER, Bot, Seat
from fivecrowns.ui.session.session import Session

__all__ = [
    "AFTER_GAME_GUEST",
    "ROUND_BEFORE_WATCHING",
    "WATCHER",
    "WATCHING_NO_HAND",
    "WATCHING_NO_NEWS",
    "Bot",
    "Seat",
    "Session",
    "game_from_save",
    "new_seed",
]
