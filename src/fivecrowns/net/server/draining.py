"""Waiting while a client reads what it was sent: one wait for the server's own connections
(connection.py) and for the bytes a spare passes on (splice.py)."""

from __future__ import annotations

import asyncio

__all__ = ["DRAIN_POLL", "DRAIN_POLLS", "drained"]

#: Seconds between two looks at a client's unread bytes while it reads nothing, and the looks
#: at most (ten minutes) before it is dropped as too far behind.
DRAIN_POLL = 0.05
DRAIN_POLLS = 12_000


async def drained(transport: asyncio.WriteTransport, low: int) -> bool | None:
    """True once at most ``low`` bytes sent on ``transport`` are still unread; False if it
    closes meanwhile; None if the client read nothing for ten minutes. Why looking, not
    waiting for the protocol's ``resume_writing``: the transport's protocol is aiohttp's (or
    the spare's), which does not tell anyone else."""
    for _poll in range(DRAIN_POLLS):
        await asyncio.sleep(DRAIN_POLL)
        if transport.is_closing():
            return False
        if transport.get_write_buffer_size() <= low:
            return True
    return None
