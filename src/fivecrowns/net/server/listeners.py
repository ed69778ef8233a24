"""Computer players wait for a listener who is behind (issue 25), as people at a real table
wait for the announcements.

A seated player's page says when its queue of news to be said starts waiting and when it is
empty again (a ``listening`` message, edges only). While any seated player's page at a table
is behind, that table's computer players hold their next move, up to a cap a move and a turn
(``Limits.listen_move``, ``Limits.listen_turn``), and never when computers do not wait at all
(``--bot-delay 0``). The server stays the only authority: a page saying "behind" forever
slows each computer move by the cap only; humans' moves never wait. Nothing else is told to
anyone: the message carries no cards, and other seats see only that the computers took longer.
Why no "waiting for Ann's screen reader" for them: it would tell strangers who uses a screen
reader, and the table shows no waiting line during a game; a wait is a few seconds at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fivecrowns.i18n import N_
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import Listening
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.rooms import Room
from fivecrowns.table import TableError

__all__ = ["LOOK", "Listeners", "behind"]

#: Seconds between two looks at who is behind while a computer waits (why looks as well as the
#: wake-up: a page whose connection drops or whose player leaves sends nothing more)
LOOK = 0.25
LOOKS = 10_000  # looks at most in one wait (far more than a cap's worth)

TOO_OFTEN = N_(
    "Your page said too often whether its news is behind; the server ignores it for a moment."
)
NO_TABLE = N_(
    "Only a seated player's page can make the computer players wait; you are at no table."
)
NOT_SEATED = N_("Only a seated player's page can make the computer players wait; you are watching.")


def behind(room: Room) -> bool:
    """Some seated player's page at ``room``, on a live connection, says its news is behind."""
    for seat, conns in room.conns.items():
        if seat is None:
            continue  # why: a spectator's page never holds the players
        for conn in conns:
            if conn.behind == (room.id, seat) and not conn.closed:
                return True
    return False


class Listeners:
    """Who is behind at each table, and the computer players' waits for them."""

    def __init__(self, listen_move: float, listen_turn: float) -> None:
        self.listen_move = listen_move
        self.listen_turn = listen_turn
        self._waits: dict[str, asyncio.Event] = {}  # the tables whose computer waits now

    def heard(self, conn: Connection, room: Room | None, message: Listening) -> None:
        """The page of ``conn``, at ``room`` (None: in the lobby), says its news starts or
        stops waiting; a refusal (a ``TableError``) says why and changes nothing. Why codes
        of their own: the page sends these by itself and says none of their refusals, so
        one that crossed the player's Leave is not heard as their mistake."""
        if not conn.listening.take():
            raise TableError("listening_too_often", _(TOO_OFTEN))
        if room is None:
            raise TableError("listening_no_table", _(NO_TABLE))
        if conn.seat is None:
            raise TableError("listening_not_seated", _(NOT_SEATED))
        conn.behind = (room.id, conn.seat) if message.behind else None
        if not message.behind:
            self.wake(room)

    def wake(self, room: Room) -> None:
        """Someone at ``room`` caught up: a computer waiting there looks again at once."""
        event = self._waits.get(room.id)
        if event is not None:
            event.set()

    async def wait(self, room: Room, most: float) -> float:
        """Wait while someone at ``room`` is behind, ``most`` seconds at most; returns the
        seconds waited."""
        if most <= 0 or not behind(room):
            return 0.0
        start = time.monotonic()
        event = self._waits[room.id] = asyncio.Event()
        try:
            for _look in range(LOOKS):
                left = most - (time.monotonic() - start)
                if left <= 0 or not behind(room):
                    break
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), min(LOOK, left))
        finally:
            if self._waits.get(room.id) is event:
                del self._waits[room.id]
        return time.monotonic() - start
