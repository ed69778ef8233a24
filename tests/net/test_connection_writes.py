"""A connection's writer sends everything queued at once in one write, each frame intact and
byte for byte what aiohttp would have sent (issue 29: a write per frame cost the most)."""

from __future__ import annotations

import asyncio

from aiohttp import WSMsgType
from aiohttp._websocket.writer import WebSocketWriter

from fivecrowns.net.server.connection import Connection, text_frames
from fivecrowns.net.server.draining import DRAIN_POLL
from fivecrowns.net.server.limits import Limits


class _Transport:
    """A socket whose client reads everything at once."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return 16384, 65536

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False


class _Socket:
    closed = False


class _Protocol:
    _paused = False


def _aiohttp_frames(frames: list[bytes]) -> bytes:
    """What aiohttp's own writer puts on the socket for ``frames``, one send_frame each."""
    transport = _Transport()
    writer = WebSocketWriter(_Protocol(), transport)  # type: ignore[arg-type]

    async def send() -> None:
        for data in frames:
            await writer.send_frame(data, WSMsgType.TEXT)

    asyncio.run(send())
    return b"".join(transport.written)


def test_text_frames_are_what_aiohttp_sends_at_every_length_class() -> None:
    frames = [b"", b"x" * 125, b"y" * 126, b'{"a":"\xc3\xb1"}' * 5000, b"z" * 65536]
    assert text_frames(frames) == _aiohttp_frames(frames)
    assert text_frames([]) == b""


def test_the_writer_sends_what_is_queued_in_one_write_after_one_save() -> None:
    saves: list[bool] = []

    def saved() -> bool:
        saves.append(True)
        return True

    async def scenario() -> list[bytes]:
        transport = _Transport()
        conn = Connection(_Socket(), Limits(), saved, transport)  # type: ignore[arg-type]
        conn.send_raw(b'{"type":"event","seq":7}')
        conn.send_listing(b'{"type":"tables","tables":[]}')
        conn.send_raw(b'{"type":"snapshot","seq":7}')
        conn._end()  # nothing else comes: the writer ends after these
        await asyncio.wait_for(conn.write_loop(), 5)
        return transport.written

    written = asyncio.run(scenario())
    expected = [
        b'{"type":"event","seq":7}',
        b'{"type":"tables","tables":[]}',
        b'{"type":"snapshot","seq":7}',
    ]
    assert written == [text_frames(expected)]
    assert written[0] == _aiohttp_frames(expected)
    assert saves == [True]  # one commit for the three frames


def test_a_writer_whose_socket_is_closing_writes_nothing_more() -> None:
    class _Closing(_Transport):
        def is_closing(self) -> bool:
            return True

    async def scenario() -> list[bytes]:
        transport = _Closing()
        conn = Connection(_Socket(), Limits(), lambda: True, transport)  # type: ignore[arg-type]
        conn.send_raw(b'{"type":"event","seq":1}')
        await asyncio.wait_for(conn.write_loop(), 5)  # ends by itself
        return transport.written

    assert asyncio.run(scenario()) == []


def test_a_writer_waits_while_the_client_reads_nothing_and_goes_on_once_it_has_read() -> None:

    class _Slow(_Transport):
        unread = 10**6  # the client has read nothing yet

        def get_write_buffer_size(self) -> int:
            return self.unread

    async def scenario() -> None:
        transport = _Slow()
        conn = Connection(_Socket(), Limits(), lambda: True, transport)  # type: ignore[arg-type]
        conn.writer = asyncio.create_task(conn.write_loop())
        conn.send_raw(b'{"type":"event","seq":1}')
        for _ in range(100):
            await asyncio.sleep(0.01)
            if conn._blocked:
                break
        assert conn._blocked and len(transport.written) == 1  # waiting for the client
        conn.send_listing(b'{"type":"tables","n":1}')
        conn.send_listing(b'{"type":"tables","n":2}')  # replaces the unsent one meanwhile
        await asyncio.sleep(3 * DRAIN_POLL)
        assert len(transport.written) == 1
        transport.unread = 0  # it has read everything
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(transport.written) == 2:
                break
        assert transport.written[1] == text_frames([b'{"type":"tables","n":2}'])
        conn._end()
        await asyncio.wait_for(conn.writer, 5)

    asyncio.run(scenario())
