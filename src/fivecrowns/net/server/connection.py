"""One client's WebSocket on the game server: who it is, where it sits, its rate budget, and
its outgoing queue with the writer task that empties it.

Nothing here reads a message: the server hands each one to its dispatch. A connection only
queues frames (bounded, so a slow client cannot grow the server's memory), writes them once
the moves they tell of are saved, and closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from fivecrowns.i18n import DEFAULT_LANGUAGE
from fivecrowns.net.protocol import encode
from fivecrowns.net.server.limits import Limits

if TYPE_CHECKING:  # why: a room holds its connections, so this module is below rooms.py
    from fivecrowns.net.server.rooms import PlayerRecord, Room

__all__ = ["GOING_AWAY_REASON", "STOP_WAIT", "Connection", "go_away"]

#: The WebSocket close code and reason a stopping server closes every connection with
#: (1001, "going away", RFC 6455), after an ``error`` ``server_stopping`` with its sentence.
GOING_AWAY_REASON = b"server stopping"
STOP_WAIT = 2.0  # seconds a stopping server waits for the last frames and the close handshakes


class Connection:
    """One WebSocket: who it is, where it sits, its rate budget and its outgoing queue."""

    def __init__(
        self, ws: web.WebSocketResponse, limits: Limits, saved: Callable[[], bool] = bool
    ) -> None:
        self.ws = ws
        self._saved = saved  # commits the store's kept inputs; False if it could not
        self.player: PlayerRecord | None = None
        self.room: Room | None = None
        self.seat: int | None = None  # None while watching or in the lobby
        self.language = DEFAULT_LANGUAGE  # what its sentences are worded in (its hello's)
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(limits.outgoing_queue)
        self._tokens = float(limits.burst)
        self._stamp = time.monotonic()
        self._limits = limits
        self.closed = False
        self._closing: asyncio.Future[bool] | None = None
        self.writer: asyncio.Task[None] | None = None  # the write loop, while the socket lives

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages a second, ``burst`` at once."""
        now = time.monotonic()
        limits = self._limits
        self._tokens = min(limits.burst, self._tokens + (now - self._stamp) * limits.rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def send(self, message: msgspec.Struct) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:  # why: a client that cannot keep up must not grow our memory
            self.close()

    def send_last(self, message: msgspec.Struct) -> None:
        """Queue ``message`` as the last frame: nothing more is queued, the writer ends after it
        and leaves the socket open for :func:`go_away`."""
        self.send(message)
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            self._closing = asyncio.ensure_future(self.ws.close())

    async def write_loop(self) -> None:
        while True:
            data = await self.queue.get()
            if data is None:
                return
            # why here: no frame leaves before the moves it tells of are on disk (kill -9 safe);
            # the first writer to run commits everything kept since, in one transaction
            if not self._saved():
                self.close()  # why: never tell of a move that could not be saved
                return
            # why send_frame: the frame is already UTF-8 JSON; send_str would decode and re-encode
            await self.ws.send_frame(data, WSMsgType.TEXT)


async def go_away(conns: Collection[Connection]) -> None:
    """Let each connection's writer send what it has queued, then close every socket with
    1001 "going away"; each wait is at most ``STOP_WAIT`` seconds."""
    writers = [conn.writer for conn in conns if conn.writer is not None]
    if writers:
        await asyncio.wait(writers, timeout=STOP_WAIT)

    async def goodbye(conn: Connection) -> None:
        with contextlib.suppress(Exception):  # why: a socket already gone needs no goodbye
            await conn.ws.close(code=WSCloseCode.GOING_AWAY, message=GOING_AWAY_REASON)

    closing = [asyncio.ensure_future(goodbye(conn)) for conn in conns]
    if closing:
        _done, late = await asyncio.wait(closing, timeout=STOP_WAIT)
        for task in late:  # why: a client that never answers the close must not hold us
            task.cancel()
