"""Events sent again: a ``resume``, and the hello of a returning connection.

Every event sent again is worded and encoded again (about 56 us each), so it is charged to
the connection, per event, against its :attr:`Connection.resend` budget (a game's worth at
once, then ``Limits.resend_rate`` a second). A resume beyond what is left is refused, with
when to ask again, and changes nothing. More events than the budget ever holds are never
sent again: the client is told how many it missed, and the snapshot that follows is the
table as it is now (why: a log can be far longer than a game, and its whole wording would
hold up every other table).
"""

from __future__ import annotations

import math

from fivecrowns.i18n import N_, ngettext
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import Error, EventFrame
from fivecrowns.net.server.connection import Connection
from fivecrowns.net.server.rooms import Room, muted_chat
from fivecrowns.table import TableError

__all__ = ["TOO_MANY_EVENTS", "send_since"]

TOO_MANY_EVENTS = N_(
    "You missed {count} events, more than the server sends again; here is the table as it is now."
)


def send_since(conn: Connection, room: Room, last_seq: int, *, refuse: bool) -> None:
    """Send ``conn`` the events after ``last_seq`` as its seat may see them, charged per event.

    ``refuse``: a budget spent for now is an ``error`` (a ``resume``: the client asks again);
    otherwise (a returning connection's hello, whose budget is whole) the client is told
    what it missed. Either way a snapshot should follow; a bad ``last_seq`` is a TableError."""
    table = room.table
    if not 0 <= last_seq <= table.seq:
        table.frames_since(last_seq, conn.seat)  # raises the sentence saying what is wrong
    count = table.seq - last_seq
    if count == 0:
        return
    if count > conn.resend.burst or (not refuse and not conn.resend.take(count)):
        conn.send(Error("too_many_events", _(TOO_MANY_EVENTS).format(count=count)))
        return
    if refuse and not conn.resend.take(count):
        seconds = max(1, math.ceil(conn.resend.wait(count)))
        text = ngettext(
            "That is too much to send again now; ask again in {seconds} second.",
            "That is too much to send again now; ask again in {seconds} seconds.",
            seconds,
        ).format(seconds=seconds)
        raise TableError("resend_later", text)
    for frame in table.frames_since(last_seq, conn.seat):
        if muted_chat(conn, frame["kind"], frame["data"]):
            frame["text"] = ""
        conn.send(EventFrame(**frame))
