"""One client's WebSocket on the game server: who it is, where it sits, its rate budget, and
its outgoing queue with the writer task that empties it.

Nothing here reads a message: the server hands each one to its dispatch. A connection only
queues frames, writes them once the moves they tell of are saved, and closes. The queue is
bounded in frames and in bytes, and holds at most one table list (a newer list replaces the
unsent one): a client that does not read cannot grow the server's memory, and one that never
reads is dropped once its unsent bytes pass the bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from collections import deque
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, cast

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from fivecrowns.i18n import DEFAULT_LANGUAGE, N_, speaking
from fivecrowns.i18n import gettext as _
from fivecrowns.net.protocol import Error, Tables, encode
from fivecrowns.net.server.draining import drained
from fivecrowns.net.server.limits import Bucket, Limits

if TYPE_CHECKING:  # why: a room holds its connections, so this module is below rooms.py
    from fivecrowns.net.server.rooms import PlayerRecord, Room

__all__ = [
    "CLOSE_WAIT",
    "GOING_AWAY_REASON",
    "STOP_WAIT",
    "Connection",
    "Writes",
    "go_away",
    "text_frames",
]

log = logging.getLogger(__name__)

#: The WebSocket close code and reason a stopping server closes every connection with
#: (1001, "going away", RFC 6455), after an ``error`` ``server_stopping`` with its sentence.
GOING_AWAY_REASON = b"server stopping"
#: The close code and reason for a client dropped because it did not read its frames (1013,
#: "try again later"): it may come back and resume from its last sequence number.
BEHIND_REASON = b"too far behind"
STOP_WAIT = 2.0  # seconds a stopping server waits for the last frames and the close handshakes
# why a wait at all: a client that never reads never takes the close frame either; after this
# many seconds its socket is cut, and the bytes the kernel and aiohttp still hold for it go
CLOSE_WAIT = 5.0
#: Batches of frames one connection's writer writes at most (years of a busy connection).
WRITES = 1_000_000_000
CANNOT_SAVE = N_(
    "The server cannot save moves now; its disk may be full. This connection closes; "
    "connect again in a minute."
)


class _Listing:
    """A table list waiting in a queue; a newer list empties it (``data`` None) and is queued
    in its place at the end."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data: bytes | None = data


class Connection:
    """One WebSocket: who it is, where it sits, its rate budget and its outgoing queue."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        limits: Limits,
        saved: Callable[[], bool] = bool,
        transport: asyncio.Transport | None = None,
        writes: Writes | None = None,
    ) -> None:
        self.ws = ws
        self._saved = saved  # commits the store's kept inputs; False if it could not
        self._transport = transport  # cut if the close handshake does not end (CLOSE_WAIT)
        # why: frames queued while the writer waits idle are written by ``writes`` at the end
        # of the loop's turn, without waking the writer task (see Writes)
        self._writes = writes if transport is not None else None
        self._idle = False  # the writer waits for frames, with nothing to write or drain
        self._due = False  # ``writes`` holds this connection for the end of this turn
        self.player: PlayerRecord | None = None
        self.room: Room | None = None
        self.seat: int | None = None  # None while watching or in the lobby
        self.language = DEFAULT_LANGUAGE  # what its sentences are worded in (its hello's)
        self.address = ""  # the client's network address (the limits per address)
        # frames to write, in order; None ends the writer
        self.queue: deque[bytes | _Listing | None] = deque()
        self.unsent = 0  # bytes in the queue
        self._listing: _Listing | None = None  # the newest table list in the queue, if any
        # why: the writer waits in a send only while the client is not reading what it has
        self._blocked = False
        self._wake = asyncio.Event()
        self._tokens = float(limits.burst)
        self._stamp = time.monotonic()
        self._limits = limits
        self.chat = Bucket(limits.chat_rate, limits.chat_burst)  # chat lines it may send
        self.resend = Bucket(limits.resend_rate, limits.resend_burst)  # events sent again
        self.listening = Bucket(limits.listening_rate, limits.listening_burst)  # its edges
        # the table and seat where its page last said its news is behind (None: caught up);
        # why the table and seat: a flag left from another table or seat holds nobody here
        self.behind: tuple[str, int] | None = None
        self.closed = False
        self._closing: asyncio.Future[None] | None = None
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
        if isinstance(message, Tables):
            self.send_listing(encode(message))
        else:
            self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        self._put(data, len(data))

    def send_listing(self, data: bytes) -> None:
        """Queue a table list (a ``tables`` frame); while the client is not reading, it
        replaces the list not yet written.

        why: a list is the lobby as it is now, so an older unsent one tells nothing more, and a
        client asking for lists without reading them would otherwise queue a list per ask.
        why only then: a client that reads gets one answer per ``list_tables``, as before."""
        if self.closed:
            return
        old = self._listing
        if self._blocked and old is not None and old.data is not None:
            self.unsent -= len(old.data)
            old.data = None  # the writer skips it
        self._listing = _Listing(data)
        self._put(self._listing, len(data))

    def _put(self, item: bytes | _Listing, size: int) -> None:
        limits = self._limits
        if len(self.queue) >= limits.outgoing_queue or self.unsent + size > limits.outgoing_bytes:
            # why drop the client: one that cannot keep up must not grow our memory
            self.queue.clear()
            self.unsent = 0
            self._listing = None
            self.close(WSCloseCode.TRY_AGAIN_LATER, BEHIND_REASON)
            return
        self.queue.append(item)
        self.unsent += size
        writes = self._writes
        if writes is not None and self._idle and not self._wake.is_set():
            if not self._due:
                self._due = True
                writes.due(self)
            return
        self._wake.set()

    def take(self) -> bytes | None:
        """The next frame to write, taken from the queue; None once the writer is to end.

        Only for the writer, and for tests that read a connection that has no socket."""
        while True:
            item = self.queue.popleft()
            if isinstance(item, _Listing):
                if item.data is None:
                    continue  # replaced by a newer list, further on in the queue
                if item is self._listing:
                    self._listing = None
                data, item.data = item.data, None
                self.unsent -= len(data)
                return data
            if item is not None:
                self.unsent -= len(item)
            return item

    def send_last(self, message: msgspec.Struct) -> None:
        """Queue ``message`` as the last frame: nothing more is queued, the writer ends after it
        and leaves the socket open for :func:`go_away`."""
        self.send(message)
        self._end()

    def _end(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.append(None)  # why not bounded: the writer must hear it ends
            self._wake.set()

    def close(self, code: int = WSCloseCode.OK, reason: bytes = b"") -> None:
        if not self.closed:
            self._end()
            self._closing = asyncio.ensure_future(self._close_socket(code, reason))

    def close_saying(self, message: msgspec.Struct) -> None:
        """Queue ``message`` as the last frame and close once the writer has sent it (within
        ``CLOSE_WAIT`` seconds)."""
        if self.closed:
            return
        self.send_last(message)
        self._closing = asyncio.ensure_future(self._close_after_writer())

    async def _close_after_writer(self) -> None:
        if self.writer is not None:
            await asyncio.wait([self.writer], timeout=CLOSE_WAIT)
        await self._close_socket()

    async def _close_socket(self, code: int = WSCloseCode.OK, reason: bytes = b"") -> None:
        """The WebSocket close handshake, within ``CLOSE_WAIT`` seconds; past that the socket
        is cut (a client that never reads never takes the close frame)."""
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=reason), CLOSE_WAIT)
        except TimeoutError:
            if self._transport is not None:
                self._transport.abort()

    async def write_loop(self) -> None:
        for _batch in range(WRITES):
            while not self.queue and not self._blocked:
                self._wake.clear()
                self._idle = True
                try:
                    await self._wake.wait()
                finally:
                    self._idle = False
            if self._blocked:
                # a write made by ``Writes`` left the client behind: wait for it to read, as
                # after a write of our own (the frames queued meanwhile stay queued)
                if not await self._drain():
                    return
                continue
            frames, ending = self._take_all()
            # why here: no frame leaves before the moves it tells of are on disk (kill -9 safe);
            # the first writer to run commits everything kept since, in one transaction
            if frames and not self._saved():
                await self._say_unsaved()
                self.close()  # why: never tell of a move that could not be saved
                return
            if frames and not await self._write(frames):
                return
            if ending:
                return

    def _take_all(self) -> tuple[list[bytes], bool]:
        """Every frame queued now, in order, and whether the writer is to end after them."""
        queue = self.queue
        if self._listing is None:
            # why at once: with no table list queued (``_listing`` is the newest one queued,
            # None once it is taken, and every older one is ahead of it) the queue holds only
            # frames, and an end only last (nothing is queued once closed); taking them one by
            # one was a call per frame, a move queues 3 or 4 for every connection
            taken = list(queue)
            queue.clear()
            self.unsent = 0
            ending = bool(taken) and taken[-1] is None
            if ending:
                taken.pop()
            return cast("list[bytes]", taken), ending
        frames: list[bytes] = []
        while self.queue:
            data = self.take()
            if data is None:
                return frames, True
            frames.append(data)
        return frames, False

    async def _write(self, frames: list[bytes]) -> bool:
        """Write ``frames``, each its own WebSocket text frame; False once the socket closes.

        why all at once: a move queues 2 or 3 frames for each connection, and a write (a
        system call) for each frame was the biggest part of what sending cost (issue 29)."""
        transport = self._transport
        if transport is None:  # a socket without a transport of its own (tests' stand-ins)
            for data in frames:
                # why send_frame: the frame is already UTF-8 JSON; send_str would re-encode it
                self._blocked = True
                try:
                    await self.ws.send_frame(data, WSMsgType.TEXT)
                finally:
                    self._blocked = False
            return True
        if not self._write_now(transport, frames):
            return False
        return await self._drain() if self._blocked else True

    def _write_now(self, transport: asyncio.Transport, frames: list[bytes]) -> bool:
        """Write ``frames`` to ``transport`` at once; False (nothing written) once the socket
        closes. Leaves ``_blocked`` True when the client has too much unread: then
        :meth:`_drain` is to wait for it before anything more is written."""
        if self.ws.closed or transport.is_closing():  # why: nothing after a close frame
            return False
        self._send_now(transport, frames)
        return True

    def _send_now(self, transport: asyncio.Transport, frames: list[bytes]) -> None:
        """:meth:`_write_now` once its socket is known to be open."""
        transport.write(text_frames(frames))
        # why the size first: it is 0 after nearly every write (the socket took it all), and
        # the limits are a tuple made afresh for each call (issue 29, the glue of a move)
        size = transport.get_write_buffer_size()
        if size and size > transport.get_write_buffer_limits()[1]:
            # the client is not reading: wait until it has read most of what it was sent (as
            # aiohttp's own send waits), so its frames queue here, where they are bounded
            self._blocked = True

    async def _drain(self) -> bool:
        """Wait while the client reads what it was sent (``_blocked``); False if it closed, or
        read nothing for minutes (then it is closed)."""
        transport = self._transport
        assert transport is not None
        low, _high = transport.get_write_buffer_limits()
        try:
            read = await drained(transport, low)
        finally:
            self._blocked = False
        if read is None:
            self.close(WSCloseCode.TRY_AGAIN_LATER, BEHIND_REASON)  # why: minutes without reading
        return bool(read)

    def write_due(self, saved: bool) -> None:
        """``Writes``' part: write what is queued now, in one write, if the writer still waits
        idle (else wake it: it writes, ends or says why itself); ``saved``: the store committed
        every move these frames tell of."""
        self._due = False
        transport = self._transport
        if not self.queue or transport is None:
            return
        if (
            not saved
            or self.closed
            or not self._idle
            or self._wake.is_set()
            or self.ws.closed
            or transport.is_closing()
        ):
            # why the writer: it retries the save and says why, ends (as after a close), or
            # is already busy writing or waiting for the client
            self._wake.set()
            return
        frames, _ending = self._take_all()  # why no end: an end is queued only when closed
        self._send_now(transport, frames)  # why not _write_now: its checks are made above
        if self._blocked:
            self._wake.set()  # the writer waits for the client to read (_drain)

    async def _say_unsaved(self) -> None:
        """Tell the client why it is closed when the moves cannot be saved (a full disk),
        instead of a bare close; within a second, as a client that does not read gets none."""
        with speaking(self.language):
            data = encode(Error("cannot_save", _(CANNOT_SAVE)))
        with contextlib.suppress(Exception):  # why: a socket already gone needs no sentence
            await asyncio.wait_for(self.ws.send_frame(data, WSMsgType.TEXT), 1.0)


class Writes:
    """Every connection given frames during one turn of the event loop, written at its end:
    the store committed once, then each connection's frames in one write, in the order queued,
    without waking its writer task (that task only waits for a slow client, ends the
    connection, or writes when the store could not be saved).

    why: a move queues frames for every connection at its table, and waking each one's writer
    task (an Event, a task step, the loop's bookkeeping) cost more than the write itself
    (issue 29, the glue around a move)."""

    def __init__(self, saved: Callable[[], bool]) -> None:
        self._saved = saved  # commits the store's kept inputs; False if it could not
        self._due: list[Connection] = []

    def due(self, conn: Connection) -> None:
        """``conn`` has frames to write at the end of this turn of the loop."""
        if not self._due:
            asyncio.get_running_loop().call_soon(self.write)
        self._due.append(conn)

    def write(self) -> None:
        """Commit the store, then write each connection's frames (see :meth:`due`)."""
        due, self._due = self._due, []
        # why save only if a connection has frames: a connection closed meanwhile has none
        saved = any(conn.queue for conn in due) and self._saved()
        for conn in due:
            try:
                conn.write_due(saved)
            except Exception:  # why: one socket's failure must not leave the others unwritten
                log.exception("A connection's frames could not be written")
                conn._due = False
                conn.close()


def text_frames(frames: list[bytes]) -> bytes:
    """``frames`` as consecutive WebSocket text frames from a server (RFC 6455 section 5.2:
    final, unmasked, uncompressed), byte for byte what aiohttp's ``send_frame`` writes."""
    parts: list[bytes] = []
    for data in frames:
        size = len(data)
        if size < 126:
            parts.append(_HEADER_SHORT.pack(0x81, size))
        elif size < 65536:
            parts.append(_HEADER_MEDIUM.pack(0x81, 126, size))
        else:
            parts.append(_HEADER_LONG.pack(0x81, 127, size))
        parts.append(data)
    return b"".join(parts)


_HEADER_SHORT = struct.Struct("!BB")
_HEADER_MEDIUM = struct.Struct("!BBH")
_HEADER_LONG = struct.Struct("!BBQ")


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
