"""Frames queued while a connection's writer waits are written at the end of the loop's turn by
the server's :class:`Writes`: the store committed once, each connection's own frames in one
write, in order, without waking the writer task (issue 29: the glue around a move)."""

from __future__ import annotations

import asyncio

from fivecrowns.i18n import DEFAULT_LANGUAGE
from fivecrowns.net.server.connection import Connection, Writes, text_frames
from fivecrowns.net.server.draining import DRAIN_POLL
from fivecrowns.net.server.limits import Limits


class _Transport:
    """A socket whose client reads everything at once (``unread``: what it has not read)."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.unread = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return 16384, 65536

    def get_write_buffer_size(self) -> int:
        return self.unread

    def is_closing(self) -> bool:
        return self.closing


class _Socket:
    closed = False

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def send_frame(self, data: bytes, _kind: object) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        self.closed = True


async def _turns(count: int = 3) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def _running(saves: bool = True) -> tuple[Connection, _Transport, _Socket]:
    """A connection on fakes, its writer started and waiting idle; ``saves``: the store's
    answer to every commit (False: a full disk)."""
    transport, socket = _Transport(), _Socket()
    writes = Writes(lambda: saves)
    conn = Connection(socket, Limits(), lambda: saves, transport, writes)  # type: ignore[arg-type]
    conn.writer = asyncio.create_task(conn.write_loop())
    await _turns()
    return conn, transport, socket


def _wake_counter(conn: Connection) -> list[int]:
    """Counts the times ``conn``'s writer task is woken (its Event set)."""
    woken = [0]
    original = conn._wake.set

    def counted() -> None:
        woken[0] += 1
        original()

    conn._wake.set = counted  # type: ignore[method-assign]
    return woken


def test_each_connection_gets_its_own_frames_in_one_write_after_one_save() -> None:
    saves: list[int] = []

    def saved() -> bool:
        saves.append(1)
        return True

    async def scenario() -> None:
        writes = Writes(saved)
        transports = [_Transport(), _Transport(), _Transport()]
        conns = [Connection(_Socket(), Limits(), saved, t, writes) for t in transports]  # type: ignore[arg-type]
        for conn in conns:
            conn.writer = asyncio.create_task(conn.write_loop())
        await _turns()  # every writer now waits, idle
        woken = [_wake_counter(conn) for conn in conns]
        # a move: an event to everyone, the seat's own snapshot to each
        for conn in conns:
            conn.send_raw(b'{"type":"event","seq":9}')
        for seat, conn in enumerate(conns):
            conn.send_raw(b'{"type":"snapshot","seat":%d}' % seat)
        assert all(t.written == [] for t in transports)  # nothing before the turn ends
        await _turns()
        for seat, transport in enumerate(transports):
            own = [b'{"type":"event","seq":9}', b'{"type":"snapshot","seat":%d}' % seat]
            assert transport.written == [text_frames(own)]
        assert saves == [1]  # one commit for the nine frames
        assert woken == [[0], [0], [0]]  # no writer task was woken
        # the next move, the next turn: written again, in order, still without a wake
        conns[1].send_raw(b'{"type":"event","seq":10}')
        await _turns()
        assert transports[1].written[1:] == [text_frames([b'{"type":"event","seq":10}'])]
        assert transports[0].written[1:] == transports[2].written[1:] == []
        assert saves == [1, 1] and woken == [[0], [0], [0]]
        for conn in conns:
            conn._end()
            await asyncio.wait_for(conn.writer, 5)  # type: ignore[arg-type]

    asyncio.run(scenario())


def test_a_client_that_does_not_read_holds_its_frames_queued_until_it_has_read() -> None:
    async def scenario() -> None:
        conn, transport, _socket = await _running()
        transport.unread = 10**6  # what is written now stays unread
        conn.send_raw(b'{"type":"event","seq":1}')
        await _turns()
        assert len(transport.written) == 1 and conn._blocked  # the writer waits for the client
        conn.send_listing(b'{"type":"tables","n":1}')
        conn.send_listing(b'{"type":"tables","n":2}')  # replaces the unsent one meanwhile
        await asyncio.sleep(3 * DRAIN_POLL)
        assert len(transport.written) == 1
        transport.unread = 0
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(transport.written) == 2:
                break
        assert transport.written[1] == text_frames([b'{"type":"tables","n":2}'])
        assert not conn._blocked
        conn._end()
        await asyncio.wait_for(conn.writer, 5)

    asyncio.run(scenario())


def test_frames_that_cannot_be_saved_are_never_written_and_the_client_is_told() -> None:
    async def scenario() -> _Socket:
        conn, transport, socket = await _running(saves=False)  # a full disk
        conn.language = DEFAULT_LANGUAGE
        conn.send_raw(b'{"type":"event","seq":1}')
        await asyncio.wait_for(conn.writer, 5)  # it says why and ends
        assert transport.written == []
        assert conn.closed
        return socket

    socket = asyncio.run(scenario())
    assert len(socket.sent) == 1 and b'"cannot_save"' in socket.sent[0]


def test_a_closing_socket_gets_nothing_more_and_its_writer_ends() -> None:
    async def scenario() -> None:
        conn, transport, _socket = await _running()
        transport.closing = True
        conn.send_raw(b'{"type":"event","seq":1}')
        await asyncio.wait_for(conn.writer, 5)  # ends by itself, as after its own write
        assert transport.written == []

    asyncio.run(scenario())


def test_frames_queued_while_the_writer_is_busy_are_written_by_the_writer() -> None:
    """A connection whose writer was woken (here: closing) is left to its writer, so a frame
    is never written twice or out of order."""

    async def scenario() -> None:
        conn, transport, _socket = await _running()
        conn.send_raw(b'{"type":"event","seq":1}')  # due at the end of this turn
        conn.send_raw(b'{"type":"event","seq":2}')
        conn._end()  # the writer is woken before the turn ends: it writes both, then ends
        await asyncio.wait_for(conn.writer, 5)
        await _turns()
        frames = [b'{"type":"event","seq":1}', b'{"type":"event","seq":2}']
        assert transport.written == [text_frames(frames)]

    asyncio.run(scenario())


def test_frames_are_taken_all_at_once_unless_a_table_list_is_queued() -> None:
    """With no table list queued the frames are taken in one go (not a call per frame), the
    end only last; with one queued, one by one, an unsent older list skipped."""

    async def scenario() -> None:
        conn = Connection(_Socket(), Limits(), lambda: True, _Transport())  # type: ignore[arg-type]
        taken: list[object] = []
        original = conn.take

        def counted() -> bytes | None:
            data = original()
            taken.append(data)
            return data

        conn.take = counted  # type: ignore[method-assign]
        conn.send_raw(b"one")
        conn.send_raw(b"two")
        assert conn._take_all() == ([b"one", b"two"], False)
        assert taken == [] and conn.unsent == 0 and not conn.queue
        conn.send_raw(b"three")
        conn._end()
        assert conn._take_all() == ([b"three"], True)
        assert taken == [] and conn.unsent == 0

        conn = Connection(_Socket(), Limits(), lambda: True, _Transport())  # type: ignore[arg-type]
        conn._blocked = True  # a client not reading: a newer list replaces the unsent one
        conn.send_raw(b"a")
        conn.send_listing(b"list 1")
        conn.send_listing(b"list 2")
        conn.send_raw(b"b")
        assert conn._take_all() == ([b"a", b"list 2", b"b"], False)
        assert conn.unsent == 0 and conn._listing is None
        conn.send_raw(b"c")  # the list is gone: all at once again
        assert conn._take_all() == ([b"c"], False)

    asyncio.run(scenario())


def test_a_socket_that_fails_to_write_is_closed_and_the_others_are_still_written() -> None:
    class _Broken(_Transport):
        def write(self, data: bytes) -> None:
            raise RuntimeError("a broken socket")

    async def scenario() -> None:
        writes = Writes(lambda: True)
        broken, good = _Broken(), _Transport()
        first = Connection(_Socket(), Limits(), lambda: True, broken, writes)  # type: ignore[arg-type]
        second = Connection(_Socket(), Limits(), lambda: True, good, writes)  # type: ignore[arg-type]
        for conn in (first, second):
            conn.writer = asyncio.create_task(conn.write_loop())
        await _turns()
        first.send_raw(b"lost")
        second.send_raw(b"kept")
        await _turns()
        assert good.written == [text_frames([b"kept"])]
        assert first.closed and not first._due
        await asyncio.wait_for(first.writer, 5)  # type: ignore[arg-type]
        second.send_raw(b"next")  # the callback still runs for the others
        await _turns()
        assert good.written[1:] == [text_frames([b"next"])]
        second._end()
        await asyncio.wait_for(second.writer, 5)  # type: ignore[arg-type]

    asyncio.run(scenario())
